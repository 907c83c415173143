/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-window.h"

G_BEGIN_DECLS

/* The window's side of findings (ws-window-findings.c): its actions, the
 * Findings page's requests, and opening .waitscope files. */
void     ws_window_findings_install_actions (GtkWidgetClass *widget_class);
void     ws_window_findings_init            (WsWindow       *window,
                                             WsFindingsPage *page);
gboolean ws_window_findings_open_session    (WsWindow       *window,
                                             WsFindingsPage *page,
                                             GFile          *file);

G_END_DECLS
