/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-session-file.h"

G_BEGIN_DECLS

/* Thread-safe checks of a session's traces against the files (they read
 * only the WsSessionTrace given and the files): see the .c for the rules
 * on what is opened. */
char     *ws_session_trace_hash_file (const char           *path,
                                      gint64               *size,
                                      GCancellable         *cancellable,
                                      GError              **error);
gboolean  ws_session_trace_check     (const WsSessionTrace *t,
                                      const char           *path,
                                      GCancellable         *cancellable,
                                      GError              **error);
char     *ws_session_trace_locate    (const WsSessionTrace *t,
                                      const char           *session_path,
                                      GCancellable         *cancellable,
                                      GError              **error);

G_END_DECLS
