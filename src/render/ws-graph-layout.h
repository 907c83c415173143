/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * WsGraphLayoutDirection:
 * @WS_GRAPH_LAYOUT_LEFT_TO_RIGHT: layer 0 is the leftmost column, nodes of
 *   a layer are stacked top to bottom (suits wide, text-heavy boxes)
 * @WS_GRAPH_LAYOUT_TOP_TO_BOTTOM: layer 0 is the top row
 */
typedef enum {
  WS_GRAPH_LAYOUT_LEFT_TO_RIGHT,
  WS_GRAPH_LAYOUT_TOP_TO_BOTTOM,
} WsGraphLayoutDirection;

typedef struct {
  double x;
  double y;
} WsGraphPoint;

typedef struct {
  double x;
  double y;
  double width;
  double height;
} WsGraphRect;

/**
 * WsGraphEdgeShape:
 * @WS_GRAPH_EDGE_FORWARD: from a lower layer to a higher one
 * @WS_GRAPH_EDGE_BACKWARD: from a higher layer to a lower one; laid out as
 *   if reversed, its points still run from the source to the target
 * @WS_GRAPH_EDGE_FLAT: both ends in one layer: the two points are the
 *   ends on the far side of the boxes, for the renderer to bow outwards
 * @WS_GRAPH_EDGE_LOOP: a node to itself: no points
 */
typedef enum {
  WS_GRAPH_EDGE_FORWARD,
  WS_GRAPH_EDGE_BACKWARD,
  WS_GRAPH_EDGE_FLAT,
  WS_GRAPH_EDGE_LOOP,
} WsGraphEdgeShape;

/*
 * WsGraphLayout: a layered (Sugiyama) drawing of a directed graph whose
 * layers are given: the generation of a wait-graph node, the depth of a
 * ready-tree node.  It knows nothing of waits: nodes are boxes with a size
 * and a layer, edges pairs of nodes, so that the wait graph, the ready
 * tree and the aggregated wait graph share it.
 *
 * ws_graph_layout_run():
 *  1. edges spanning several layers get one dummy vertex per layer crossed
 *     (so that they bend around boxes instead of through them), edges
 *     pointing back to a lower layer are laid out reversed, edges inside a
 *     layer take no part in ordering;
 *  2. crossing reduction: the initial order of a layer is the order in
 *     which its nodes were added (dummies after them, by edge); then
 *     alternating down and up barycenter sweeps, each O(V + E) plus a
 *     sort per layer, keeping the order with the fewest crossings seen
 *     (crossings counted exactly, O(E log V), with a Fenwick tree as in
 *     Barth, Jünger and Mutzel's "Simple and efficient bilayer cross
 *     counting"); layers marked fixed keep their input order;
 *  3. coordinates along a layer: alternating passes put each vertex at the
 *     mean position of its neighbours in the layer just placed, and the
 *     nearest non-overlapping placement that keeps the order is found
 *     exactly by isotonic regression (pool-adjacent-violators, O(n) per
 *     layer); the last pass centres parents over their children;
 *  4. layers are placed one after the other, each as deep as its deepest
 *     box, with the layer gap between them.
 *
 * All coordinates are in layout units (pixels at zoom 1), the top left of
 * the bounding box at (margin, margin).
 */
#define WS_TYPE_GRAPH_LAYOUT (ws_graph_layout_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphLayout, ws_graph_layout, WS, GRAPH_LAYOUT, GObject)

WsGraphLayout      *ws_graph_layout_new                (void);

guint               ws_graph_layout_add_node           (WsGraphLayout          *self,
                                                        double                  width,
                                                        double                  height,
                                                        guint                   layer);
guint               ws_graph_layout_add_edge           (WsGraphLayout          *self,
                                                        guint                   from,
                                                        guint                   to);
void                ws_graph_layout_set_layer_fixed    (WsGraphLayout          *self,
                                                        guint                   layer,
                                                        gboolean                fixed);
void                ws_graph_layout_set_direction      (WsGraphLayout          *self,
                                                        WsGraphLayoutDirection  direction);
WsGraphLayoutDirection
                    ws_graph_layout_get_direction      (WsGraphLayout          *self);
void                ws_graph_layout_set_spacing        (WsGraphLayout          *self,
                                                        double                  node_gap,
                                                        double                  layer_gap,
                                                        double                  margin);
void                ws_graph_layout_set_max_sweeps     (WsGraphLayout          *self,
                                                        guint                   max_sweeps);

void                ws_graph_layout_run                (WsGraphLayout          *self);

guint               ws_graph_layout_get_n_nodes        (WsGraphLayout          *self);
guint               ws_graph_layout_get_n_edges        (WsGraphLayout          *self);
guint               ws_graph_layout_get_n_layers       (WsGraphLayout          *self);
guint               ws_graph_layout_get_n_dummies      (WsGraphLayout          *self);

void                ws_graph_layout_get_node_rect      (WsGraphLayout          *self,
                                                        guint                   node,
                                                        WsGraphRect            *rect);
guint               ws_graph_layout_get_node_layer     (WsGraphLayout          *self,
                                                        guint                   node);
guint               ws_graph_layout_get_node_order     (WsGraphLayout          *self,
                                                        guint                   node);
const guint        *ws_graph_layout_get_layer_nodes    (WsGraphLayout          *self,
                                                        guint                   layer,
                                                        guint                  *n_nodes);
void                ws_graph_layout_get_layer_extent   (WsGraphLayout          *self,
                                                        guint                   layer,
                                                        double                 *start,
                                                        double                 *size);

void                ws_graph_layout_get_edge_ends      (WsGraphLayout          *self,
                                                        guint                   edge,
                                                        guint                  *from,
                                                        guint                  *to);
WsGraphEdgeShape    ws_graph_layout_get_edge_shape     (WsGraphLayout          *self,
                                                        guint                   edge);
const WsGraphPoint *ws_graph_layout_get_edge_points    (WsGraphLayout          *self,
                                                        guint                   edge,
                                                        guint                  *n_points);
void                ws_graph_layout_get_edge_bounds    (WsGraphLayout          *self,
                                                        guint                   edge,
                                                        WsGraphRect            *rect);

void                ws_graph_layout_get_bounds         (WsGraphLayout          *self,
                                                        double                 *width,
                                                        double                 *height);
guint               ws_graph_layout_node_at            (WsGraphLayout          *self,
                                                        double                  x,
                                                        double                  y);
void                ws_graph_layout_query_rect         (WsGraphLayout          *self,
                                                        const WsGraphRect      *rect,
                                                        GArray                 *nodes);

guint64             ws_graph_layout_get_initial_crossings (WsGraphLayout       *self);
guint64             ws_graph_layout_get_crossings      (WsGraphLayout          *self);
guint               ws_graph_layout_get_n_sweeps       (WsGraphLayout          *self);

G_END_DECLS
