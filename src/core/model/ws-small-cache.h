/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once
/*
 * A small SQLite cache in the user's cache folder, which only ever makes
 * something faster: the trace-hash cache (ws-file-hash-cache.c) and the
 * mixture-fit cache (ws-gmm-cache.c) open theirs here (ws-small-cache.c).
 */
#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/**
 * WsSmallCache:
 * @env_var: the environment variable naming the file; set but empty, it
 *   turns the cache off
 * @file_name: the file under `$XDG_CACHE_HOME/waitscope/` otherwise
 * @setup_sql: run once on opening: pragmas and `CREATE TABLE IF NOT EXISTS`
 * @lock: held around every use of @db, opening included
 *
 * One cache, a static variable of the file that uses it, made with
 * WS_SMALL_CACHE_INIT().  The other fields are the helper's.
 */
typedef struct {
  const char *env_var;
  const char *file_name;
  const char *setup_sql;
  GMutex      lock;
  sqlite3    *db;       /* NULL until opened, or when it could not be */
  gboolean    tried;
} WsSmallCache;

#define WS_SMALL_CACHE_INIT(env_var, file_name, setup_sql) \
  { (env_var), (file_name), (setup_sql), { 0 }, NULL, FALSE }

sqlite3 *ws_small_cache_open  (WsSmallCache *cache);
void     ws_small_cache_trim  (WsSmallCache *cache,
                               const char   *table,
                               guint         max_entries);
void     ws_small_cache_reset (WsSmallCache *cache);

G_END_DECLS
