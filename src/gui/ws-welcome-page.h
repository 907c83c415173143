/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * WsWelcomePage: what a window shows with no trace open: open, record or
 * try the demo; the perf record line that captures waits with stacks, to
 * copy; the recent sessions and traces (GSettings "recent-files"), each
 * one click from reopening.
 */
#define WS_TYPE_WELCOME_PAGE (ws_welcome_page_get_type ())
G_DECLARE_FINAL_TYPE (WsWelcomePage, ws_welcome_page, WS, WELCOME_PAGE, GtkWidget)

void        ws_welcome_page_set_settings     (WsWelcomePage *self,
                                              GSettings     *settings);
GtkListBox *ws_welcome_page_get_recent_list  (WsWelcomePage *self,
                                              gboolean       sessions);
const char *ws_welcome_page_get_record_line  (WsWelcomePage *self);

G_END_DECLS
