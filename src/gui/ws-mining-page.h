/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-digest.h"

#include <gtk/gtk.h>

#include "ws-alignment-view.h"
#include "ws-clusterer.h"
#include "ws-coverage-view.h"
#include "ws-document.h"
#include "ws-mining-form.h"
#include "ws-mining-request.h"
#include "ws-signature-panel.h"
#include "ws-page.h"
#include "ws-session.h"
#include "ws-stack-search.h"

G_BEGIN_DECLS

/*
 * WsMiningPage: the Mining panel (StackMine §III–VII over the open
 * traces).  On the left, which traces to mine together, the area of
 * interest (scope and content filters), the cost threshold λ with the
 * paper's guideline helper, and the clustering threshold.  Mining runs off
 * the main thread with progress and Cancel (re-running cancels the run in
 * progress).  On the right, the clusters ranked by one of the four metrics
 * in a sortable table, each expanding to its patterns; the selected
 * cluster's patterns aligned (common part and variant parts); marking a
 * signature; and the bottleneck coverage of the signatures against the
 * Random, Greedy-Total and Greedy-Max orders.
 *
 * "Show Events" finds the events of each mined trace whose stack contains
 * the selected pattern (for a cluster: any of its patterns) and emits
 * ::show-events with the matches of the trace to show.
 */
#define WS_TYPE_MINING_PAGE (ws_mining_page_get_type ())
G_DECLARE_FINAL_TYPE (WsMiningPage, ws_mining_page, WS, MINING_PAGE, WsPage)

GtkWidget       *ws_mining_page_new               (void);
void             ws_mining_page_run               (WsMiningPage *self);
/* Chooses @scope in the form and runs (the Overview's cluster row: the
 * default scope its cluster was mined with). */
void             ws_mining_page_run_scope         (WsMiningPage *self,
                                                   WsMiningScope scope);
void             ws_mining_page_cancel            (WsMiningPage *self);
void             ws_mining_page_set_rank          (WsMiningPage *self,
                                                   WsClusterRank rank);
WsClusterRank    ws_mining_page_get_rank          (WsMiningPage *self);
void             ws_mining_page_select_cluster    (WsMiningPage *self,
                                                   guint         rank);
void             ws_mining_page_show_detail       (WsMiningPage *self,
                                                   const char   *name);
const char      *ws_mining_page_get_detail        (WsMiningPage *self);
WsSignaturePanel *ws_mining_page_get_signature_panel (WsMiningPage *self);
gboolean         ws_mining_page_mark_signature    (WsMiningPage *self);
void             ws_mining_page_show_events       (WsMiningPage *self);
gboolean         ws_mining_page_export_alignment  (WsMiningPage *self,
                                                   const char   *path,
                                                   GError      **error);
gboolean         ws_mining_page_export_coverage   (WsMiningPage *self,
                                                   const char   *path,
                                                   GError      **error);
WsMiningShown   *ws_mining_page_get_shown         (WsMiningPage *self);
guint            ws_mining_page_get_shown_cluster (WsMiningPage *self);
gboolean         ws_mining_page_select_cluster_index (WsMiningPage *self,
                                                   guint         cluster);
WsMiningForm    *ws_mining_page_get_form          (WsMiningPage *self);

void           ws_mining_page_set_digest  (WsMiningPage *self,
                                           WsDigest     *digest);

G_END_DECLS
