/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * WsPreferencesWindow: every setting of the GSettings schema a person
 * chooses (the window's size and the recent list are remembered, not
 * chosen: the list has a Clear button), each row bound to its key, so a
 * change applies at once wherever the key is read: the timeline's row
 * height and colours, the sidebar, the history recording, the anomaly
 * models (threshold, signature depth: the waits are scored again), the
 * Mining page's form.  libadwaita 1.2 has no AdwPreferencesDialog: this
 * is an AdwPreferencesWindow.
 */
#define WS_TYPE_PREFERENCES_WINDOW (ws_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, WS, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *ws_preferences_window_new (GtkWindow *parent,
                                      GSettings *settings);

G_END_DECLS
