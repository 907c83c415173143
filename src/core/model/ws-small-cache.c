/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening a small cache: where its file is, and what to do when it cannot
 * be opened.  A cache is the user's own file ($XDG_CACHE_HOME/waitscope/
 * NAME, or the file its environment variable names; empty turns it off).
 * Any trouble with it — unwritable, locked, not a database — leaves it
 * closed, and its user does the work again: a cache can make Waitscope
 * slower, never wrong.  It is tried once per process (or per reset), so a
 * missing cache costs nothing after the first use.
 */
#include "config.h"

#include "ws-small-cache.h"

static char *
cache_path (const WsSmallCache *cache)
{
  const char *env = g_getenv (cache->env_var);

  if (env != NULL)
    return env[0] != '\0' ? g_strdup (env) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "waitscope", cache->file_name, NULL);
}

/**
 * ws_small_cache_open:
 * @cache: the cache, its lock held
 *
 * Opens @cache on its first use (creating its folder, its file and its
 * tables) and returns it; later calls return what the first one gave.
 *
 * Returns: (transfer none) (nullable): the database, or %NULL when the
 *   cache is off or could not be opened
 */
sqlite3 *
ws_small_cache_open (WsSmallCache *cache)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;

  if (cache->tried)
    return cache->db;
  cache->tried = TRUE;
  if ((path = cache_path (cache)) == NULL)
    return NULL;
  dir = g_path_get_dirname (path);
  g_mkdir_with_parents (dir, 0700);
  if (sqlite3_open_v2 (path, &cache->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                       NULL) != SQLITE_OK
      || sqlite3_busy_timeout (cache->db, 500) != SQLITE_OK
      || sqlite3_exec (cache->db, cache->setup_sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      sqlite3_close (cache->db);
      cache->db = NULL;
    }
  return cache->db;
}

/**
 * ws_small_cache_trim:
 * @cache: an open cache, its lock held
 * @table: one of its tables
 * @max_entries: how many rows @table keeps
 *
 * Keeps the cache small: the oldest rows (the lowest rowids) go first.
 */
void
ws_small_cache_trim (WsSmallCache *cache,
                     const char   *table,
                     guint         max_entries)
{
  g_autofree char *sql = g_strdup_printf ("DELETE FROM %s WHERE rowid <= (SELECT max(rowid) FROM %s) - %u",
                                          table, table, max_entries);

  sqlite3_exec (cache->db, sql, NULL, NULL, NULL);
}

/**
 * ws_small_cache_reset:
 *
 * Closes @cache, so that its next use opens the file its environment
 * variable names then (for tests that change it).
 */
void
ws_small_cache_reset (WsSmallCache *cache)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache->lock);

  if (cache->db != NULL)
    sqlite3_close (cache->db);
  cache->db = NULL;
  cache->tried = FALSE;
}
