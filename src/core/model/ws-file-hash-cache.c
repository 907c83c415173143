/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A cache of trace files' SHA-256, so that a trace opened again is not
 * read twice: hashing is 0.74 s of CPU a gigabyte, about a third of
 * parsing the same perf text, and `anomalies`, `mine` and the window hash
 * every trace they are given to find its history and flags.
 *
 * The identity stays the hash of the bytes (a trace copied to another
 * machine keeps its flags); only the way to it is cached.  An entry is
 * keyed by the file's device and inode and trusted only while its size,
 * modification time and status-change time are all the same.  The
 * status-change time (ctime) is set by the kernel on every write,
 * truncation, rename onto the path or utimensat(), and no call sets it
 * back, so a file whose content changed never matches its old entry —
 * the rule git's index follows.  Linux stamps files from a coarse clock
 * (a few milliseconds), so a write just after hashing could leave every
 * time unchanged: a file whose ctime is less than SETTLE_NS old when
 * hashing starts is not cached (git's "racily clean" entries).
 *
 * The cache is a small cache (ws-small-cache.c): $XDG_CACHE_HOME/waitscope/
 * file-hashes.sqlite, or $WAITSCOPE_HASH_CACHE (empty turns it off).  Any
 * trouble with it only means the file is hashed again: the cache can make
 * opening slower, never wrong.
 */
#include "config.h"

#include <string.h>

#include "ws-file-hash-cache.h"
#include "ws-small-cache.h"

#define NS_PER_SEC  G_GINT64_CONSTANT (1000000000)
#define SETTLE_NS   (2 * NS_PER_SEC)
#define MAX_ENTRIES 20000

static WsSmallCache cache = WS_SMALL_CACHE_INIT (
  "WAITSCOPE_HASH_CACHE", "file-hashes.sqlite",
  "CREATE TABLE IF NOT EXISTS file_hashes ("
  " dev INTEGER NOT NULL, ino INTEGER NOT NULL,"
  " size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,"
  " sha256 TEXT NOT NULL, PRIMARY KEY (dev, ino))");

static gint64
ns_of (const struct timespec *t)
{
  return (gint64) t->tv_sec * NS_PER_SEC + t->tv_nsec;
}

static void
bind_key (sqlite3_stmt      *stmt,
          const struct stat *st)
{
  sqlite3_bind_int64 (stmt, 1, (sqlite3_int64) st->st_dev);
  sqlite3_bind_int64 (stmt, 2, (sqlite3_int64) st->st_ino);
  sqlite3_bind_int64 (stmt, 3, (sqlite3_int64) st->st_size);
  sqlite3_bind_int64 (stmt, 4, ns_of (&st->st_mtim));
  sqlite3_bind_int64 (stmt, 5, ns_of (&st->st_ctim));
}

static gboolean
is_hex_sha256 (const char *s)
{
  if (s == NULL || strlen (s) != 64)
    return FALSE;
  for (const char *p = s; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p) || g_ascii_isupper (*p))
      return FALSE;
  return TRUE;
}

/**
 * ws_file_hash_cache_lookup:
 * @st: the file's status, taken from the descriptor about to be read
 *
 * Returns: (transfer full) (nullable): the hex SHA-256 recorded for
 *   exactly this file as it is now, or %NULL
 */
char *
ws_file_hash_cache_lookup (const struct stat *st)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);
  sqlite3 *db = ws_small_cache_open (&cache);
  sqlite3_stmt *stmt = NULL;
  char *hash = NULL;

  if (db == NULL
      || sqlite3_prepare_v2 (db,
                             "SELECT sha256 FROM file_hashes WHERE dev = ?1 AND ino = ?2"
                             " AND size = ?3 AND mtime_ns = ?4 AND ctime_ns = ?5",
                             -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  bind_key (stmt, st);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 0);
      /* Anything else in the column was not written here. */
      if (is_hex_sha256 (text))
        hash = g_strdup (text);
    }
  sqlite3_finalize (stmt);
  return hash;
}

/**
 * ws_file_hash_cache_store:
 * @before: the file's status when hashing started
 * @after: its status when hashing ended
 * @started_ns: g_get_real_time() in nanoseconds when hashing started
 * @hash: the hex SHA-256 of the bytes read
 *
 * Records @hash if the file did not change while it was read and had
 * settled before (see the top of this file).
 */
void
ws_file_hash_cache_store (const struct stat *before,
                          const struct stat *after,
                          gint64             started_ns,
                          const char        *hash)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  if (before->st_dev != after->st_dev || before->st_ino != after->st_ino
      || before->st_size != after->st_size
      || ns_of (&before->st_mtim) != ns_of (&after->st_mtim)
      || ns_of (&before->st_ctim) != ns_of (&after->st_ctim)
      || ns_of (&before->st_ctim) > started_ns - SETTLE_NS
      || !is_hex_sha256 (hash)
      || (db = ws_small_cache_open (&cache)) == NULL
      || sqlite3_prepare_v2 (db,
                             "INSERT OR REPLACE INTO file_hashes (dev, ino, size, mtime_ns, ctime_ns, sha256)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                             -1, &stmt, NULL) != SQLITE_OK)
    return;
  bind_key (stmt, before);
  sqlite3_bind_text (stmt, 6, hash, -1, SQLITE_TRANSIENT);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  ws_small_cache_trim (&cache, "file_hashes", MAX_ENTRIES);
}

/**
 * ws_file_hash_cache_reset:
 *
 * Closes the cache, so that the next use opens $WAITSCOPE_HASH_CACHE
 * afresh (for tests that change it).
 */
void
ws_file_hash_cache_reset (void)
{
  ws_small_cache_reset (&cache);
}
