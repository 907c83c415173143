/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * WsTraceHasher:
 *
 * Content hashes of trace files (SHA-256, as the session file records
 * them) computed on a worker thread, so pinning a view of a trace of
 * gigabytes leaves the window responsive.  A file hashed once is not
 * read again while its size and modification time stay the same.
 */
#define WS_TYPE_TRACE_HASHER (ws_trace_hasher_get_type ())
G_DECLARE_FINAL_TYPE (WsTraceHasher, ws_trace_hasher, WS, TRACE_HASHER, GObject)

WsTraceHasher *ws_trace_hasher_new         (void);
void           ws_trace_hasher_hash_async  (WsTraceHasher       *self,
                                            const char          *path,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
char          *ws_trace_hasher_hash_finish (WsTraceHasher       *self,
                                            GAsyncResult        *result,
                                            gint64              *size,
                                            GError             **error);

G_END_DECLS
