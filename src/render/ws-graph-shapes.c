/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The outlines the graph renderer draws nodes with (boxes, hexagons for
 * hardware and timers, the state strip) and their dash patterns, shared
 * by the graph and its legend.
 */
#include "config.h"

#include <math.h>

#include "ws-graph-shapes.h"

void
ws_graph_shape_rounded_rect (cairo_t *cr,
                             double   x,
                             double   y,
                             double   w,
                             double   h,
                             double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* The part of a rounded_rect() box left of x + WS_GRAPH_STRIP_WIDTH: the strip
 * is narrower than the corner radius, so it is bounded by the two left
 * corner arcs. */
void
ws_graph_shape_left_strip (cairo_t *cr,
                           double   x,
                           double   y,
                           double   h)
{
  double r = MIN (WS_GRAPH_CORNER_RADIUS, h / 2);
  double a;

  if (WS_GRAPH_STRIP_WIDTH >= r)
    {
      cairo_rectangle (cr, x, y, WS_GRAPH_STRIP_WIDTH, h);
      return;
    }
  a = acos ((WS_GRAPH_STRIP_WIDTH - r) / r);   /* angle of the strip's edge */
  cairo_new_sub_path (cr);
  cairo_arc_negative (cr, x + r, y + r, r, -a, G_PI);
  cairo_arc_negative (cr, x + r, y + h - r, r, G_PI, a);
  cairo_close_path (cr);
}

void
ws_graph_shape_hexagon (cairo_t *cr,
                        double   x,
                        double   y,
                        double   w,
                        double   h)
{
  double inset = MIN (WS_GRAPH_HEX_INSET, w / 4);

  cairo_new_sub_path (cr);
  cairo_move_to (cr, x + inset, y);
  cairo_line_to (cr, x + w - inset, y);
  cairo_line_to (cr, x + w, y + h / 2);
  cairo_line_to (cr, x + w - inset, y + h);
  cairo_line_to (cr, x + inset, y + h);
  cairo_line_to (cr, x, y + h / 2);
  cairo_close_path (cr);
}

void
ws_graph_shape_node (cairo_t          *cr,
                     WsSceneNodeKind   kind,
                     double            x,
                     double            y,
                     double            w,
                     double            h,
                     double            grow)
{
  if (kind == WS_SCENE_NODE_HARDWARE || kind == WS_SCENE_NODE_TIMER)
    ws_graph_shape_hexagon (cr, x - grow, y - grow, w + 2 * grow, h + 2 * grow);
  else
    ws_graph_shape_rounded_rect (cr, x - grow, y - grow, w + 2 * grow, h + 2 * grow, WS_GRAPH_CORNER_RADIUS + grow);
}


/* Waits are dashed (the patent's convention, as in the timeline), false
 * runs dash-dotted, unknown readiers dotted, the rest solid. */
void
ws_graph_shape_set_dash (cairo_t         *cr,
                         WsSceneNodeKind  kind)
{
  static const double wait_dash[] = { 7, 4 };
  static const double timer_dash[] = { 8, 3, 2, 3 };
  static const double unknown_dash[] = { 2, 3.5 };

  switch (kind)
    {
    case WS_SCENE_NODE_WAIT:
      cairo_set_dash (cr, wait_dash, G_N_ELEMENTS (wait_dash), 0);
      break;
    case WS_SCENE_NODE_TIMER:
      cairo_set_dash (cr, timer_dash, G_N_ELEMENTS (timer_dash), 0);
      break;
    case WS_SCENE_NODE_UNKNOWN:
      cairo_set_dash (cr, unknown_dash, G_N_ELEMENTS (unknown_dash), 0);
      break;
    case WS_SCENE_NODE_RUN:
    case WS_SCENE_NODE_HARDWARE:
    case WS_N_SCENE_NODE_KINDS:
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}
