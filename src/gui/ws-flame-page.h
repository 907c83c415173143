/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * WsFlamePage: the Flame Graph page.  It reads the trace shown and the
 * timeline's selection (a thread and a window) through the session, runs
 * ws_flame_run() in a worker for the chosen mode (On-CPU, Off-CPU,
 * Off-wake) and scope (whole trace, the selected window, the selected
 * thread in it), draws the result with WsFlameChart, highlights a search
 * with the share of time it matches, lists the selected frame's callers
 * and callees, and exports the figure as SVG, PDF or PNG.
 * ws_flame_page_get_shown() and ws_flame_page_show_pinned() are a flame
 * pin's two ends (ws-flame-pin.c).
 */

#include <gtk/gtk.h>

#include "ws-flame-run.h"
#include "ws-pin-flame.h"
#include "ws-page.h"
#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_FLAME_PAGE (ws_flame_page_get_type ())
G_DECLARE_FINAL_TYPE (WsFlamePage, ws_flame_page, WS, FLAME_PAGE, WsPage)

const WsFlameGraph *ws_flame_page_get_graph   (WsFlamePage  *self);
const double       *ws_flame_page_get_diff    (WsFlamePage  *self);
void                ws_flame_page_set_mode    (WsFlamePage  *self,
                                               WsFlameMode   mode);
void                ws_flame_page_set_scope   (WsFlamePage  *self,
                                               WsFlameScope  scope);
WsDocument         *ws_flame_page_get_shown   (WsFlamePage     *self,
                                               WsPinFlame      *pin,
                                               WsFlameSettings *settings,
                                               guint           *thread,
                                               WsDocument     **base);
void                ws_flame_page_show_pinned (WsFlamePage      *self,
                                               const WsPinFlame *pin,
                                               WsDocument       *base);

G_END_DECLS
