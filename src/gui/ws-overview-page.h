/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-attribution.h"
#include "ws-mining-page.h"
#include "ws-overview.h"
#include "ws-page.h"
#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsOverviewPage: the first answer to "what made it slow?" for the traces
 * of a session (ws-overview.h): the top causes over the slowest 10 % of the
 * scenario instances (or, without instances, over the threads that waited
 * longest for other threads), the latency histogram and the slowest
 * instances with their top causes, the top cluster of the waits that
 * delayed another thread, and room for further first answers
 * (ws_overview_page_add_section()).  Every line is one click from the view
 * that proves it: a cause opens the critical path it was read from, an
 * instance its ready tree with the anomalous chain, the cluster the Mining
 * page.  The cluster and contrast rows are computed by the runs the Mining
 * and Contrast pages make (ws_mining_run() with the Mining page's
 * settings, ws_contrast_run()), so they are those pages' first rows.  Recomputed off the main thread whenever a trace finishes loading
 * or is closed.
 *
 * Signals:
 *  - "show-analysis" (int kind, WsTrace *trace, guint thread, gint64 t0,
 *    gint64 t1): open the analysis (a #WsAnalysisKind, ws-analysis-kind.h) of
 *    that thread window;
 *  - "show-mining": open the Mining page on the default scope;
 *  - "show-contrast" (const char *scenario, const char *component): open
 *    the Contrast page and run it on that scenario and component.
 */
#define WS_TYPE_OVERVIEW_PAGE (ws_overview_page_get_type ())
G_DECLARE_FINAL_TYPE (WsOverviewPage, ws_overview_page, WS, OVERVIEW_PAGE, WsPage)

GtkWidget      *ws_overview_page_new             (void);
void            ws_overview_page_set_mining_page (WsOverviewPage *self,
                                                  WsMiningPage   *mining_page);
gboolean        ws_overview_page_get_busy        (WsOverviewPage *self);
/* (nullable): the top cluster shown (the Mining page's first row). */
const WsOverviewCluster *ws_overview_page_get_cluster (WsOverviewPage *self);
/* The label of the top cause shown, or %NULL before the first answer. */
const char     *ws_overview_page_get_top_cause   (WsOverviewPage *self);
/* The rows a user clicks: causes, slowest instances, the cluster. */
GtkListBox     *ws_overview_page_get_causes_list (WsOverviewPage *self);
GtkListBox     *ws_overview_page_get_slowest_list(WsOverviewPage *self);
GtkListBox     *ws_overview_page_get_cluster_list(WsOverviewPage *self);
/* The sections below the cluster: the top contrast pattern (scenario
 * instances only) and the anomaly summary (count and the worst wait). */
GtkListBox     *ws_overview_page_get_contrast_list (WsOverviewPage *self);
GtkListBox     *ws_overview_page_get_anomaly_list  (WsOverviewPage *self);
/* (nullable): without scenario instances, which program the causes start
 * from and why, as shown under the first answer. */
const char     *ws_overview_page_get_pick_reason   (WsOverviewPage *self);
/* Explain every open trace together (rows name their trace), or only
 * the selected one (the default). */
void            ws_overview_page_set_all_traces    (WsOverviewPage *self,
                                                    gboolean        all);
/* Explain the program @program instead of the picker's choice (the
 * runner-up switch; `why --comm`). */
void            ws_overview_page_explain_program   (WsOverviewPage *self,
                                                    const char     *program);
/* Explain a selection: a window on a thread, a wait (@event, or
 * %WS_NONE), a scenario instance's window — `why --tid/--from/--to`,
 * `--event`, `--scenario-instance`.  Returns FALSE for an empty window. */
gboolean        ws_overview_page_explain_selection (WsOverviewPage *self,
                                                    WsTrace        *trace,
                                                    guint           thread,
                                                    gint64          t0,
                                                    gint64          t1,
                                                    guint           event);
/* Back to the automatic choice (no selection, no program asked for). */
void            ws_overview_page_explain_automatic (WsOverviewPage *self);
/* (nullable): the "Explaining: …" line shown. */
const char     *ws_overview_page_get_explaining    (WsOverviewPage *self);
/* (nullable): the attribution the causes shown come from. */
WsAttribution  *ws_overview_page_get_attribution   (WsOverviewPage *self);
GtkButton      *ws_overview_page_get_runner_up_button (WsOverviewPage *self);
/*
 * ws_overview_page_add_section:
 * Appends a titled section (for later first answers: the top contrast
 * pattern, the top anomaly) below the top cluster.
 */
void            ws_overview_page_add_section     (WsOverviewPage *self,
                                                  const char     *title,
                                                  GtkWidget      *child);

G_END_DECLS
