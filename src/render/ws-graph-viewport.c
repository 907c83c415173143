/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsGraphViewport: which part of a laid-out scene the graph view draws
 * (zoom and scroll), and the conversions between layout and device units.
 */
#include "config.h"

#include "ws-graph-viewport.h"


void
ws_graph_viewport_init (WsGraphViewport *vp)
{
  g_return_if_fail (vp != NULL);

  vp->scale = 1;
  vp->x = vp->y = 0;
  vp->width = vp->height = 0;
  vp->selected = WS_NONE;
  vp->current_match = WS_NONE;
  vp->matches = NULL;
  vp->show_header = TRUE;
}

/* The band naming the layers on top, when shown. */
double
ws_graph_viewport_get_header_height (const WsGraphViewport *vp)
{
  return vp->show_header ? WS_GRAPH_HEADER_HEIGHT : 0;
}

void
ws_graph_viewport_to_layout (const WsGraphViewport *vp,
                             double                 px,
                             double                 py,
                             double                *lx,
                             double                *ly)
{
  g_return_if_fail (vp != NULL);
  *lx = vp->x + px / vp->scale;
  *ly = vp->y + (py - ws_graph_viewport_get_header_height (vp)) / vp->scale;
}

void
ws_graph_viewport_to_device (const WsGraphViewport *vp,
                             double                 lx,
                             double                 ly,
                             double                *px,
                             double                *py)
{
  g_return_if_fail (vp != NULL);
  *px = (lx - vp->x) * vp->scale;
  *py = ws_graph_viewport_get_header_height (vp) + (ly - vp->y) * vp->scale;
}

/**
 * ws_graph_viewport_fit:
 * @max_scale: do not zoom in further than this (1: small graphs stay at
 *   their natural size)
 *
 * Zooms and scrolls so that the whole scene shows, centred.
 */
void
ws_graph_viewport_fit (WsGraphViewport *vp,
                       WsGraphScene    *scene,
                       double           max_scale)
{
  double bw, bh, w, h;

  g_return_if_fail (vp != NULL);
  g_return_if_fail (WS_IS_GRAPH_SCENE (scene));

  ws_graph_layout_get_bounds (ws_graph_scene_get_layout (scene), &bw, &bh);
  w = MAX (vp->width, 1);
  h = MAX (vp->height - ws_graph_viewport_get_header_height (vp), 1);
  vp->scale = CLAMP (MIN (MIN (w / bw, h / bh), max_scale), WS_GRAPH_MIN_SCALE, WS_GRAPH_MAX_SCALE);
  vp->x = (bw - w / vp->scale) / 2;
  vp->y = (bh - h / vp->scale) / 2;
}

/* Multiplies the zoom by @factor keeping the layout point under device
 * point (@px, @py) where it is. */
void
ws_graph_viewport_zoom_at (WsGraphViewport *vp,
                           double           factor,
                           double           px,
                           double           py)
{
  double lx, ly;

  g_return_if_fail (vp != NULL);

  ws_graph_viewport_to_layout (vp, px, py, &lx, &ly);
  vp->scale = CLAMP (vp->scale * factor, WS_GRAPH_MIN_SCALE, WS_GRAPH_MAX_SCALE);
  vp->x = lx - px / vp->scale;
  vp->y = ly - (py - ws_graph_viewport_get_header_height (vp)) / vp->scale;
}

void
ws_graph_viewport_center_on (WsGraphViewport   *vp,
                             const WsGraphRect *rect)
{
  g_return_if_fail (vp != NULL);
  g_return_if_fail (rect != NULL);

  vp->x = rect->x + rect->width / 2 - vp->width / (2 * vp->scale);
  vp->y = rect->y + rect->height / 2 - (vp->height - ws_graph_viewport_get_header_height (vp)) / (2 * vp->scale);
}

/* Whether @rect (layout units) lies entirely inside the drawn area. */
gboolean
ws_graph_viewport_node_visible (const WsGraphViewport *vp,
                                const WsGraphRect     *rect)
{
  double x0, y0, x1, y1;

  g_return_val_if_fail (vp != NULL, FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  ws_graph_viewport_to_device (vp, rect->x, rect->y, &x0, &y0);
  ws_graph_viewport_to_device (vp, rect->x + rect->width, rect->y + rect->height, &x1, &y1);
  return x0 >= 0 && y0 >= ws_graph_viewport_get_header_height (vp) && x1 <= vp->width && y1 <= vp->height;
}
