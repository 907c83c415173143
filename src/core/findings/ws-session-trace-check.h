/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * WsSessionTrace:
 * @path: where the trace was (absolute), or where it was found again
 * @relative_path: (nullable): the same from the session file's folder
 * @sha256: hex SHA-256 of the file's bytes (as stored: gzip stays gzip)
 * @size: its size in bytes
 * @name: the trace's display name
 */
typedef struct {
  char   *path;
  char   *relative_path;  /* nullable: from the session file's folder, as saved */
  char   *sha256;
  gint64  size;
  char   *name;
  guint   run_class;      /* its class in a fleet: WsRunClass + 1; 0 when none was given */
} WsSessionTrace;

void           ws_session_trace_clear (gpointer              t);
WsSessionTrace ws_session_trace_copy  (const WsSessionTrace *t);


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
