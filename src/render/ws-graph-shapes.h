/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Internal to the render library: the graph renderer's node outlines. */

#include <cairo.h>

#include "ws-graph-scene.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

#define WS_GRAPH_CORNER_RADIUS  8.0
#define WS_GRAPH_STRIP_WIDTH    7.0
#define WS_GRAPH_HEX_INSET     16.0

static inline void
ws_graph_shape_set_color (cairo_t       *cr,
                          const WsColor *c,
                          double         alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

void ws_graph_shape_rounded_rect (cairo_t         *cr,
                                  double           x,
                                  double           y,
                                  double           w,
                                  double           h,
                                  double           r);
void ws_graph_shape_left_strip   (cairo_t         *cr,
                                  double           x,
                                  double           y,
                                  double           h);
void ws_graph_shape_hexagon      (cairo_t         *cr,
                                  double           x,
                                  double           y,
                                  double           w,
                                  double           h);
void ws_graph_shape_node         (cairo_t         *cr,
                                  WsSceneNodeKind  kind,
                                  double           x,
                                  double           y,
                                  double           w,
                                  double           h,
                                  double           grow);
void ws_graph_shape_set_dash     (cairo_t         *cr,
                                  WsSceneNodeKind  kind);

G_END_DECLS
