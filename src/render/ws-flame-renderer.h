/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Drawing a flame graph (src/core/flame) with Cairo and Pango: flame
 * (root at the bottom) or icicle (root at the top) orientation, zoomed to
 * any frame (it fills the width, its ancestors stay drawn above or below
 * it), search matches highlighted, frames coloured by a hash of their name
 * so a frame keeps its colour from one render, zoom or export to the next.
 * The GUI's page, the CLI and the exports draw with this one renderer.
 */

#include <cairo.h>
#include <gio/gio.h>

#include "ws-export.h"
#include "ws-flame-run.h"

G_BEGIN_DECLS

#define WS_FLAME_NO_NODE G_MAXUINT

/**
 * WsFlameView:
 * @icicle: root at the top (icicle) instead of the bottom (flame)
 * @zoom: the frame that fills the width (%WS_FLAME_ROOT: the whole graph)
 * @matched: (nullable): one byte per node, non-zero where the search
 *   matched (ws_flame_tree_search())
 * @selected: the selected frame, outlined, or %WS_FLAME_NO_NODE
 * @dark: draw for a dark background
 * @diff: (nullable): a differential graph: one difference per node
 *   (ws_flame_tree_diff()); frames are then red where they grew, blue
 *   where they shrank, the deeper the colour the larger the change
 * @diff_max: the largest |difference| of @diff, the deepest colour
 */
typedef struct {
  gboolean      icicle;
  guint         zoom;
  const guint8 *matched;
  guint         selected;
  gboolean      dark;
  const double *diff;
  double        diff_max;
} WsFlameView;

void               ws_flame_view_init          (WsFlameView        *view);
void               ws_flame_view_set_diff      (WsFlameView        *view,
                                                WsFlameTree        *tree,
                                                const double       *diff);

typedef struct _WsFlameRenderer WsFlameRenderer;

WsFlameRenderer   *ws_flame_renderer_new       (void);
void               ws_flame_renderer_free      (WsFlameRenderer    *self);

double             ws_flame_renderer_row_height (WsFlameRenderer   *self);
double             ws_flame_renderer_graph_height (WsFlameRenderer *self,
                                                WsFlameTree        *tree);
void               ws_flame_renderer_draw      (WsFlameRenderer    *self,
                                                cairo_t            *cr,
                                                WsFlameTree        *tree,
                                                const WsFlameView  *view,
                                                double              width,
                                                double              height);
gboolean           ws_flame_renderer_node_rect (WsFlameRenderer    *self,
                                                WsFlameTree        *tree,
                                                const WsFlameView  *view,
                                                double              width,
                                                double              height,
                                                guint               node,
                                                cairo_rectangle_t  *rect);
guint              ws_flame_renderer_hit       (WsFlameRenderer    *self,
                                                WsFlameTree        *tree,
                                                const WsFlameView  *view,
                                                double              width,
                                                double              height,
                                                double              x,
                                                double              y);

char              *ws_flame_format_weight      (const WsFlameGraph *graph,
                                                guint64             weight);
char              *ws_flame_describe_node      (const WsFlameGraph *graph,
                                                guint               node);
char              *ws_flame_describe_change    (const WsFlameGraph *graph,
                                                double              change);
char              *ws_flame_graph_title        (const WsFlameGraph *graph,
                                                const char         *trace_name);

gboolean           ws_flame_export             (const char         *path,
                                                WsExportFormat      format,
                                                const WsFlameGraph *graph,
                                                const WsFlameView  *view,
                                                const char         *title,
                                                const char         *search_status,
                                                double              width,
                                                GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFlameRenderer, ws_flame_renderer_free)

G_END_DECLS
