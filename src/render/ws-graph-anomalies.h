/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-anomaly-detector.h"
#include "ws-graph-scene.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsGraphMark:
 * @WS_GRAPH_MARK_NONE: not a scored wait, or a normal one
 * @WS_GRAPH_MARK_FLAGGED_NORMAL: the analyst flagged it not anomalous
 * @WS_GRAPH_MARK_ANOMALOUS: its model calls it anomalous (P(D ≥ d) below
 *   its signature's learned threshold), no flag
 * @WS_GRAPH_MARK_FLAGGED_ANOMALOUS: the analyst flagged it anomalous
 *
 * What the graph shows of one node's anomaly verdict.
 */
typedef enum {
  WS_GRAPH_MARK_NONE,
  WS_GRAPH_MARK_FLAGGED_NORMAL,
  WS_GRAPH_MARK_ANOMALOUS,
  WS_GRAPH_MARK_FLAGGED_ANOMALOUS,
} WsGraphMark;

/*
 * WsGraphAnomalies: the anomaly verdicts of the waits of one scene (wait
 * graph or ready tree) and its chain through anomalous waits: the path
 * from the symptom along the edges (wait → what readied it) that passes
 * through the most anomalous waits, cut after the last one (the patent's
 * "greatest number of anomalous wait periods").  Built from a
 * #WsAnomalyResult without GTK; drawn over the scene by the graph
 * renderer (ws_graph_renderer_set_anomalies()).
 *
 * Marks differ in shape as well as colour (Okabe–Ito colours, safe for
 * the common colour-vision deficiencies): an anomalous wait carries a
 * vermillion warning triangle and a vermillion ring, a wait flagged
 * anomalous the triangle and a black pennant, a wait flagged not
 * anomalous a bluish-green disc with a tick; the chain is a broad
 * reddish-purple band under its edges.
 */
#define WS_TYPE_GRAPH_ANOMALIES (ws_graph_anomalies_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphAnomalies, ws_graph_anomalies, WS, GRAPH_ANOMALIES, GObject)

WsGraphAnomalies  *ws_graph_anomalies_new            (WsGraphScene     *scene,
                                                      WsAnomalyResult  *result,
                                                      guint             trace);
WsGraphScene      *ws_graph_anomalies_get_scene      (WsGraphAnomalies *self);
WsAnomalyResult   *ws_graph_anomalies_get_result     (WsGraphAnomalies *self);
WsGraphMark        ws_graph_anomalies_get_mark       (WsGraphAnomalies *self,
                                                      guint             node);
const WsWaitScore *ws_graph_anomalies_get_score      (WsGraphAnomalies *self,
                                                      guint             node);
guint              ws_graph_anomalies_get_n_anomalous (WsGraphAnomalies *self);
guint              ws_graph_anomalies_get_n_marked   (WsGraphAnomalies *self);
const guint       *ws_graph_anomalies_get_chain      (WsGraphAnomalies *self,
                                                      guint            *n_nodes);
gboolean           ws_graph_anomalies_edge_on_chain  (WsGraphAnomalies *self,
                                                      guint             edge);
guint              ws_graph_anomalies_next_anomalous (WsGraphAnomalies *self,
                                                      guint             node,
                                                      gboolean          forward);
char              *ws_graph_anomalies_dup_describe   (WsGraphAnomalies *self,
                                                      guint             node);

/* Drawing, in the scene's layout coordinates (the renderer's transform). */
void               ws_graph_anomalies_draw_chain     (WsGraphAnomalies *self,
                                                      cairo_t          *cr,
                                                      double            scale);
void               ws_graph_anomalies_draw_marks     (WsGraphAnomalies *self,
                                                      cairo_t          *cr,
                                                      double            scale,
                                                      GArray           *visible);
double             ws_graph_anomalies_draw_legend    (WsGraphAnomalies *self,
                                                      cairo_t          *cr,
                                                      const char       *family,
                                                      const WsColor    *foreground,
                                                      double            x,
                                                      double            y,
                                                      double            width);

G_END_DECLS
