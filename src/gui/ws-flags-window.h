/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsFlagsWindow: every flag in the history store, newest first, each with
 * a button that shows its wait in the timeline when its trace is open.
 */
#define WS_TYPE_FLAGS_WINDOW (ws_flags_window_get_type ())
G_DECLARE_FINAL_TYPE (WsFlagsWindow, ws_flags_window, WS, FLAGS_WINDOW, AdwWindow)

WsFlagsWindow *ws_flags_window_new     (GtkWindow     *parent,
                                        WsSession     *session);
void           ws_flags_window_reload  (WsFlagsWindow *self);

G_END_DECLS
