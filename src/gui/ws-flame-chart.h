/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * WsFlameChart: the drawn flame graph (src/render's WsFlameRenderer) with
 * its input: a click selects a frame and zooms to it, Escape resets the
 * zoom, the arrows walk the frames (parent, child, siblings) and Enter
 * zooms to the selected one; the tooltip names the frame under the pointer
 * with its total, self and share.  The page owns the graph.
 */

#include <gtk/gtk.h>

#include "ws-flame-renderer.h"

G_BEGIN_DECLS

#define WS_TYPE_FLAME_CHART (ws_flame_chart_get_type ())
G_DECLARE_FINAL_TYPE (WsFlameChart, ws_flame_chart, WS, FLAME_CHART, GtkWidget)

GtkWidget          *ws_flame_chart_new          (void);
void                ws_flame_chart_set_graph    (WsFlameChart       *self,
                                                 const WsFlameGraph *graph);
void                ws_flame_chart_set_matched  (WsFlameChart       *self,
                                                 const guint8       *matched);
void                ws_flame_chart_set_diff     (WsFlameChart       *self,
                                                 const double       *diff);
void                ws_flame_chart_set_icicle   (WsFlameChart       *self,
                                                 gboolean            icicle);
gboolean            ws_flame_chart_get_icicle   (WsFlameChart       *self);
guint               ws_flame_chart_get_zoom     (WsFlameChart       *self);
void                ws_flame_chart_set_zoom     (WsFlameChart       *self,
                                                 guint               node);
guint               ws_flame_chart_get_selected (WsFlameChart       *self);
void                ws_flame_chart_set_selected (WsFlameChart       *self,
                                                 guint               node);
const WsFlameView  *ws_flame_chart_get_view     (WsFlameChart       *self);
gboolean            ws_flame_chart_node_rect    (WsFlameChart       *self,
                                                 guint               node,
                                                 graphene_rect_t    *rect);

G_END_DECLS
