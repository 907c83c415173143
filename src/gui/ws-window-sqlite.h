/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-window.h"

G_BEGIN_DECLS

gboolean ws_window_export_sqlite         (WsWindow    *self,
                                          const char  *path,
                                          GError     **error);
gboolean ws_window_get_exporting_sqlite  (WsWindow    *self);

G_END_DECLS
