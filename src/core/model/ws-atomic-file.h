/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The one way Waitscope writes a file the user named (sessions, exports,
 * reports, converted traces): into a temporary file of an unpredictable
 * name in the same folder, created with O_EXCL|O_NOFOLLOW (so nothing
 * planted there, a symbolic link least of all, is followed or reused),
 * renamed over the name only once complete.  Until then the name holds
 * what it held before, or nothing; a failure, an abort or (in the CLI,
 * after ws_atomic_file_clean_up_on_signals()) SIGINT, SIGTERM or SIGHUP
 * removes the temporary file.
 */

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _WsAtomicFile WsAtomicFile;

WsAtomicFile  *ws_atomic_file_open          (const char     *path,
                                             GError        **error);
GOutputStream *ws_atomic_file_get_stream    (WsAtomicFile   *self);
gboolean       ws_atomic_file_write         (WsAtomicFile   *self,
                                             const void     *data,
                                             gsize           len,
                                             GError        **error);
const char    *ws_atomic_file_get_temp_path (WsAtomicFile   *self);
gboolean       ws_atomic_file_commit        (WsAtomicFile   *self,
                                             gboolean        durable,
                                             GError        **error);
void           ws_atomic_file_abort         (WsAtomicFile   *self);

gboolean       ws_atomic_file_set_contents  (const char     *path,
                                             const void     *data,
                                             gssize          len,
                                             gboolean        durable,
                                             GError        **error);

void           ws_atomic_file_clean_up_on_signals (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAtomicFile, ws_atomic_file_abort)

G_END_DECLS
