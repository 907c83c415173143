/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * WsApplication: opens files given on the command line or by the desktop
 * (G_APPLICATION_HANDLES_OPEN) in the active window, starts on the bundled
 * demo trace when launched with none, and holds the settings (window
 * size, recent files).
 */
#define WS_TYPE_APPLICATION (ws_application_get_type ())
G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, AdwApplication)

WsApplication *ws_application_new          (void);
GSettings     *ws_application_get_settings (WsApplication *self);
GFile         *ws_application_get_demo_file(void);

G_END_DECLS
