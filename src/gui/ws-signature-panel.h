/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-coverage.h"
#include "ws-coverage-view.h"
#include "ws-pin.h"

G_BEGIN_DECLS

/*
 * WsSignaturePanel: the Mining page's Coverage tab.  It keeps the
 * performance signatures the analyst marked (by frame names, so that they
 * outlive a run and are matched again in each new run's stack database),
 * lists them with their coverage, and computes off the main thread the
 * bottleneck coverage curves of StackMine Fig. 4 (StackMine's ranking
 * against Random, Greedy-Total and Greedy-Max) for the chart and the
 * table beside it.  "busy" is true while the curves are computed;
 * ::changed says the signatures or their coverage changed.
 */
#define WS_TYPE_SIGNATURE_PANEL (ws_signature_panel_get_type ())
G_DECLARE_FINAL_TYPE (WsSignaturePanel, ws_signature_panel, WS, SIGNATURE_PANEL, GtkWidget)

void            ws_signature_panel_set_db            (WsSignaturePanel *self,
                                                      WsStackDb        *db);
guint           ws_signature_panel_add               (WsSignaturePanel *self,
                                                      const char       *label,
                                                      const WsFrameId  *frames,
                                                      guint             n_frames);
void            ws_signature_panel_pin               (WsSignaturePanel *self,
                                                      WsPin            *pin);
void            ws_signature_panel_set_pinned        (WsSignaturePanel *self,
                                                      WsPin            *pin);
guint           ws_signature_panel_get_n_signatures  (WsSignaturePanel *self);
WsCoverage     *ws_signature_panel_get_coverage      (WsSignaturePanel *self);
gboolean        ws_signature_panel_get_busy          (WsSignaturePanel *self);
WsCoverageView *ws_signature_panel_get_view          (WsSignaturePanel *self);
gboolean        ws_signature_panel_export            (WsSignaturePanel *self,
                                                      const char       *path,
                                                      GError          **error);

G_END_DECLS
