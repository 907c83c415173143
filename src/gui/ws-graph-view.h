/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-graph-renderer.h"

G_BEGIN_DECLS

/*
 * WsGraphView: draws a #WsGraphScene (wait graph or ready tree) with
 * #WsGraphRenderer and lets the user move around it.
 *
 * Mouse: drag or wheel pans, Ctrl+wheel or pinch zooms about the pointer,
 * a click selects the node under the pointer (or nothing), a double click
 * activates it.  Keyboard (the view is focusable): arrows move the
 * selection along the edges (Left / Right: to what this wait delayed / to
 * what readied it) and within a layer (Up / Down), or pan when nothing is
 * selected; Ctrl+arrows pan; + and − zoom, 0 is actual size, F fits,
 * Home selects the root, Enter activates.
 */
#define WS_TYPE_GRAPH_VIEW (ws_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphView, ws_graph_view, WS, GRAPH_VIEW, GtkWidget)

GtkWidget       *ws_graph_view_new               (void);
void             ws_graph_view_set_scene         (WsGraphView   *self,
                                                  WsGraphScene  *scene);
WsGraphScene    *ws_graph_view_get_scene         (WsGraphView   *self);
WsGraphRenderer *ws_graph_view_get_renderer      (WsGraphView   *self);
const WsGraphViewport *
                 ws_graph_view_get_viewport      (WsGraphView   *self);

void             ws_graph_view_set_selected_node (WsGraphView   *self,
                                                  guint          node);
guint            ws_graph_view_get_selected_node (WsGraphView   *self);
void             ws_graph_view_set_matches       (WsGraphView   *self,
                                                  GArray        *matches);
void             ws_graph_view_set_current_match (WsGraphView   *self,
                                                  guint          node);
guint            ws_graph_view_get_current_match (WsGraphView   *self);

void             ws_graph_view_zoom              (WsGraphView   *self,
                                                  double         factor);
void             ws_graph_view_set_zoom          (WsGraphView   *self,
                                                  double         scale);
double           ws_graph_view_get_zoom          (WsGraphView   *self);
void             ws_graph_view_fit               (WsGraphView   *self);
void             ws_graph_view_reveal_node       (WsGraphView   *self,
                                                  guint          node);
void             ws_graph_view_set_anomalies     (WsGraphView   *self,
                                                  WsGraphAnomalies *anomalies);
guint            ws_graph_view_node_at           (WsGraphView   *self,
                                                  double         x,
                                                  double         y);

G_END_DECLS
