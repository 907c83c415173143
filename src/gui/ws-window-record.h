/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-window.h"

G_BEGIN_DECLS

/* The window's side of getting a trace in (ws-window-record.c): the
 * welcome page's recent lists, the Record page (win.record) and opening
 * what it recorded. */
void ws_window_record_install_actions (GtkWidgetClass *widget_class);
void ws_window_record_init            (WsWindow       *window,
                                       GSettings      *settings);

G_END_DECLS
