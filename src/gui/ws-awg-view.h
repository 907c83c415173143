/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-awg-renderer.h"

G_BEGIN_DECLS

/*
 * WsAwgView: one aggregated wait graph, drawn by a #WsAwgRenderer, sized to
 * the graph times the zoom so that a GtkScrolledWindow around it scrolls.
 * Ctrl+wheel or +/− zoom, 0 fits; clicking a node emits "node-activated".
 * The accessible description sums the graph up for screen readers.
 */
#define WS_TYPE_AWG_VIEW (ws_awg_view_get_type ())
G_DECLARE_FINAL_TYPE (WsAwgView, ws_awg_view, WS, AWG_VIEW, GtkWidget)

GtkWidget     *ws_awg_view_new           (void);
/* (nullable): no graph */
void           ws_awg_view_set_awg       (WsAwgView     *self,
                                          WsAwg         *awg);
WsAwgRenderer *ws_awg_view_get_renderer  (WsAwgView     *self);
void           ws_awg_view_set_highlight (WsAwgView     *self,
                                          GArray        *leaves);
/* Returns the number of matching nodes; the view scrolls to the first. */
guint          ws_awg_view_set_search    (WsAwgView     *self,
                                          GRegex        *regex);
void           ws_awg_view_set_zoom      (WsAwgView     *self,
                                          double         zoom);
double         ws_awg_view_get_zoom      (WsAwgView     *self);

G_END_DECLS
