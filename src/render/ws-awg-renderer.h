/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "ws-awg.h"
#include "ws-graph-layout.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsAwgPalette:
 * @cheap: the fill of a node of no cost, ramping to @costly for the
 *   costliest node
 * @grey_cheap: the same ramp for hardware and unknown leaves
 * @highlight: a contrast pattern's paths (frames and edges)
 * @match: the frame of a node matching the search
 *
 * Every colour of the aggregated wait graph, for the page (light or
 * dark, as the GTK style) and for report and presentation figures.
 */
typedef struct {
  WsColor background;
  WsColor text;
  WsColor frame;
  WsColor edge;
  WsColor highlight;
  WsColor match;
  WsColor cheap;
  WsColor costly;
  WsColor grey_cheap;
  WsColor grey_costly;
} WsAwgPalette;

void ws_awg_palette_init_light (WsAwgPalette *palette);
void ws_awg_palette_init_dark  (WsAwgPalette *palette);

/*
 * WsAwgRenderer: an aggregated wait graph drawn as a layered tree (one
 * layer per depth, WsGraphLayout), each node a box as wide as its cost
 * allows (wider and redder for a larger share of the costliest node's C),
 * showing its signatures and "C … N …".  Waiting nodes are square boxes,
 * serviced ones double-framed, running leaves rounded, hardware leaves grey,
 * unknown ones dashed.
 *
 * A large graph shows only its @max_nodes costliest nodes (and their
 * ancestors, so that every path stays whole); ws_awg_renderer_get_n_hidden()
 * says how many are left out.  Coordinates are layout units (pixels at
 * zoom 1).
 */
#define WS_TYPE_AWG_RENDERER (ws_awg_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsAwgRenderer, ws_awg_renderer, WS, AWG_RENDERER, GObject)

WsAwgRenderer *ws_awg_renderer_new            (WsAwg          *awg,
                                               guint           max_nodes);
WsAwgRenderer *ws_awg_renderer_new_focused    (WsAwg          *awg,
                                               guint           max_nodes,
                                               const guint32  *leaves,
                                               guint           n_leaves);
WsAwg         *ws_awg_renderer_get_awg        (WsAwgRenderer  *self);
void           ws_awg_renderer_set_palette    (WsAwgRenderer  *self,
                                               const WsAwgPalette *palette);
const WsAwgPalette *ws_awg_renderer_get_palette (WsAwgRenderer *self);
void           ws_awg_renderer_get_size       (WsAwgRenderer  *self,
                                               double         *width,
                                               double         *height);
guint          ws_awg_renderer_get_n_hidden   (WsAwgRenderer  *self);
void           ws_awg_renderer_draw           (WsAwgRenderer  *self,
                                               cairo_t        *cr);
/* Highlights the root paths to the AWG nodes @leaves (e.g. a contrast
 * pattern's end nodes); %NULL / 0 clears. */
void           ws_awg_renderer_set_highlight  (WsAwgRenderer  *self,
                                               const guint32  *leaves,
                                               guint           n_leaves);
guint          ws_awg_renderer_get_n_highlighted (WsAwgRenderer *self);
/* Marks the nodes whose signatures match @regex (nullable: clears);
 * returns how many shown nodes match. */
guint          ws_awg_renderer_set_search     (WsAwgRenderer  *self,
                                               GRegex         *regex);
/* The shown match @i (0-based, in layout order), as an AWG node. */
guint          ws_awg_renderer_get_match      (WsAwgRenderer  *self,
                                               guint           i);
/* The AWG node under (x, y), or G_MAXUINT32. */
guint          ws_awg_renderer_node_at        (WsAwgRenderer  *self,
                                               double          x,
                                               double          y);
gboolean       ws_awg_renderer_get_node_rect  (WsAwgRenderer  *self,
                                               guint           awg_node,
                                               WsGraphRect    *rect);
/* PNG, SVG or PDF by the extension of @path. */
gboolean       ws_awg_renderer_export         (WsAwgRenderer  *self,
                                               const char     *path,
                                               GError        **error);

G_END_DECLS
