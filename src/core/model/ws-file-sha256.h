/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A trace file's identity: the SHA-256 of its bytes, the one key the
 * history store, the flags and a session's trace list know it by.
 */

#include <gio/gio.h>

G_BEGIN_DECLS

char *ws_file_sha256 (const char    *path,
                      gint64        *size,
                      GCancellable  *cancellable,
                      GError       **error);

typedef struct _WsFileHashes WsFileHashes;

WsFileHashes *ws_file_hashes_begin (char         **paths);
char         *ws_file_hashes_take  (WsFileHashes  *self,
                                    const char    *path);
void          ws_file_hashes_free  (WsFileHashes  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFileHashes, ws_file_hashes_free)

G_END_DECLS
