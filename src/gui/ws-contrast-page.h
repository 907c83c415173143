/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-digest.h"

#include <gtk/gtk.h>

#include "ws-contrast.h"
#include "ws-impact.h"
#include "ws-page.h"
#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsContrastPage: cost propagation and contrast over the open traces
 * (docs/contrast.md).  The user picks a scenario and components, sets
 * T_fast and T_slow on the histogram of instance durations (the class
 * counts follow live), and analyses off the main thread (progress, cancel):
 * AWG_fast and AWG_slow side by side, the ranked contrast patterns, and
 * the impact of each component.  Choosing a pattern highlights its paths in
 * both graphs and lists the slow instances it occurs in; one button asks
 * for the ready tree of the slowest ("open-ready-tree": trace, thread, t0,
 * t1); ::finished says an analysis ended.  The page is given its session (the open documents); it never
 * looks for its window.
 */
#define WS_TYPE_CONTRAST_PAGE (ws_contrast_page_get_type ())
G_DECLARE_FINAL_TYPE (WsContrastPage, ws_contrast_page, WS, CONTRAST_PAGE, WsPage)

GtkWidget        *ws_contrast_page_new             (void);
/* @documents: (element-type WsDocument) (nullable) */
void              ws_contrast_page_set_documents   (WsContrastPage *self,
                                                    GListModel     *documents);
void              ws_contrast_page_set_scenario    (WsContrastPage *self,
                                                    const char     *scenario);
void              ws_contrast_page_set_component   (WsContrastPage *self,
                                                    const char     *component);
/* More components for the impact table, separated by ";". */
const char       *ws_contrast_page_get_result_impact_components (WsContrastPage *self);
void              ws_contrast_page_set_impact_components (WsContrastPage *self,
                                                    const char     *components);
void              ws_contrast_page_set_thresholds  (WsContrastPage *self,
                                                    WsTime          t_fast,
                                                    WsTime          t_slow);
void              ws_contrast_page_run             (WsContrastPage *self);
gboolean          ws_contrast_page_get_busy        (WsContrastPage *self);
/* (nullable): the last result */
WsContrastResult *ws_contrast_page_get_result      (WsContrastPage *self);
void              ws_contrast_page_select_pattern  (WsContrastPage *self,
                                                    guint           rank);
void              ws_contrast_page_set_widen       (WsContrastPage *self,
                                                    gboolean        widen);
/* How patterns are ranked (the page's default: by total cost). */
void              ws_contrast_page_set_rank        (WsContrastPage *self,
                                                    WsContrastRank  rank);
guint             ws_contrast_page_get_selected_pattern (WsContrastPage *self);
gboolean          ws_contrast_page_get_result_settings (WsContrastPage      *self,
                                                    WsInstanceSet      **instances,
                                                    const char         **scenario,
                                                    WsContrastSettings  *settings);

void            ws_contrast_page_set_digest (WsContrastPage *self,
                                             WsDigest       *digest);
void            ws_contrast_page_set_fleet  (WsContrastPage *self,
                                             WsDigest       *fleet);
WsDigest       *ws_contrast_page_get_digest (WsContrastPage *self);

G_END_DECLS
