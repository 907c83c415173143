/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once
/*
 * Trace files' SHA-256 remembered by device, inode, size and times, so
 * that reopening a trace does not read it twice (ws-file-hash-cache.c).
 */
#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

char *ws_file_hash_cache_lookup (const struct stat *st);
void  ws_file_hash_cache_store  (const struct stat *before,
                                 const struct stat *after,
                                 gint64             started_ns,
                                 const char        *hash);
void  ws_file_hash_cache_reset  (void);

G_END_DECLS
