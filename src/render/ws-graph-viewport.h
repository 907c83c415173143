/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-graph-scene.h"

G_BEGIN_DECLS

/**
 * WsGraphViewport:
 * @scale: device units per layout unit (the zoom)
 * @x: the layout x shown at the left edge of the drawing
 * @y: the layout y shown at the top edge, below the header band
 * @width: drawing width (device units)
 * @height: drawing height, header band included
 * @selected: the selected scene node, or %WS_NONE
 * @current_match: the search match Tab reached, or %WS_NONE
 * @matches: (nullable): one byte per scene node, non-zero for a match
 * @show_header: draw the band naming the layers on top (left-to-right
 *   layouts only)
 *
 * What part of a scene to draw, and its interactive state.
 */
typedef struct {
  double        scale;
  double        x;
  double        y;
  double        width;
  double        height;
  guint         selected;
  guint         current_match;
  const guint8 *matches;
  gboolean      show_header;
} WsGraphViewport;

#define WS_GRAPH_HEADER_HEIGHT 26.0
#define WS_GRAPH_MIN_SCALE      0.002
#define WS_GRAPH_MAX_SCALE      4.0
/* Below this zoom boxes carry no full text: at 0.5 the 9 pt labels were
 * ~7 px tall on screen at the fitted zoom, unreadable.  At 0.8 the frame
 * line (90 % of 9 pt) is still ~9 px.  Below it a box carries one line of
 * WS_GRAPH_COMPACT_FONT_PT bold at a fixed screen size when it fits
 * (fewer words when the long one does not), down to
 * WS_GRAPH_COMPACT_MIN_SCALE. */
#define WS_GRAPH_TEXT_MIN_SCALE    0.8
#define WS_GRAPH_COMPACT_MIN_SCALE 0.25
#define WS_GRAPH_COMPACT_FONT_PT   8.5

void     ws_graph_viewport_init          (WsGraphViewport *vp);
void     ws_graph_viewport_fit           (WsGraphViewport *vp,
                                          WsGraphScene    *scene,
                                          double           max_scale);
void     ws_graph_viewport_zoom_at       (WsGraphViewport *vp,
                                          double           factor,
                                          double           px,
                                          double           py);
void     ws_graph_viewport_center_on     (WsGraphViewport *vp,
                                          const WsGraphRect *rect);
gboolean ws_graph_viewport_node_visible  (const WsGraphViewport *vp,
                                          const WsGraphRect *rect);
void     ws_graph_viewport_to_layout     (const WsGraphViewport *vp,
                                          double           px,
                                          double           py,
                                          double          *lx,
                                          double          *ly);
void     ws_graph_viewport_to_device     (const WsGraphViewport *vp,
                                          double           lx,
                                          double           ly,
                                          double          *px,
                                          double          *py);
double   ws_graph_viewport_get_header_height (const WsGraphViewport *vp);

G_END_DECLS
