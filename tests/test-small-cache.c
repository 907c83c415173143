/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The small-cache helper the trace-hash and fit caches open theirs with:
 * the file its variable names (folders made), off when the variable is
 * empty, closed — never a crash — when the file is not a database, tried
 * once until reset, and trimmed to its newest rows.  The oracle for the
 * trim is a count worked out from the rows inserted, over random sizes.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "ws-small-cache.h"

#define VAR "WAITSCOPE_SMALL_CACHE_TEST"

static WsSmallCache cache = WS_SMALL_CACHE_INIT (VAR, "small-cache-test.sqlite",
                                                 "CREATE TABLE IF NOT EXISTS t (v INTEGER NOT NULL)");

static sqlite3 *
open_locked (void)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);

  return ws_small_cache_open (&cache);
}

static gint64
query_int (sqlite3    *db,
           const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 v;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return v;
}

static void
test_opens_named_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-small-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "a", "b", "cache.sqlite", NULL);
  g_autofree char *other = g_build_filename (dir, "other.sqlite", NULL);
  g_autofree char *b = g_path_get_dirname (path);
  g_autofree char *a = g_path_get_dirname (b);
  sqlite3 *db;

  g_setenv (VAR, path, TRUE);
  ws_small_cache_reset (&cache);
  db = open_locked ();
  g_assert_nonnull (db);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  /* Its setup ran: the table is there. */
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM t"), ==, 0);
  /* Tried once: a change of the variable is seen only after a reset. */
  g_setenv (VAR, other, TRUE);
  g_assert_true (open_locked () == db);
  g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
  ws_small_cache_reset (&cache);
  g_assert_nonnull (open_locked ());
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_REGULAR));
  ws_small_cache_reset (&cache);
  g_unlink (path);
  g_unlink (other);
  g_rmdir (b);
  g_rmdir (a);
  g_rmdir (dir);
}

static void
test_off_and_broken (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-small-cache-XXXXXX", NULL);
  g_autofree char *junk = g_build_filename (dir, "junk.sqlite", NULL);

  /* Empty: off. */
  g_setenv (VAR, "", TRUE);
  ws_small_cache_reset (&cache);
  g_assert_null (open_locked ());
  /* Not a database: closed, and the file left as it was. */
  g_assert_true (g_file_set_contents (junk, "this is not an SQLite database, not even close to one\n", -1, NULL));
  g_setenv (VAR, junk, TRUE);
  ws_small_cache_reset (&cache);
  g_assert_null (open_locked ());
  g_assert_null (open_locked ());
  /* Unwritable place. */
  g_setenv (VAR, "/proc/waitscope/small-cache.sqlite", TRUE);
  ws_small_cache_reset (&cache);
  g_assert_null (open_locked ());
  ws_small_cache_reset (&cache);
  g_unlink (junk);
  g_rmdir (dir);
}

/* The law: after trimming to max, the table holds min(rows, max) rows,
 * and they are the newest ones (the last inserted). */
static void
test_trim_keeps_newest (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-small-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trim.sqlite", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (2511);
  sqlite3 *db;

  g_setenv (VAR, path, TRUE);
  ws_small_cache_reset (&cache);
  db = open_locked ();
  g_assert_nonnull (db);
  for (guint round = 0; round < 40; round++)
    {
      guint rows = g_rand_int_range (rand, 0, 200);
      guint max = g_rand_int_range (rand, 0, 200);
      gint64 expected = MIN (rows, max);

      g_assert_cmpint (sqlite3_exec (db, "BEGIN; DELETE FROM t", NULL, NULL, NULL), ==, SQLITE_OK);
      for (guint i = 0; i < rows; i++)
        {
          g_autofree char *sql = g_strdup_printf ("INSERT INTO t (v) VALUES (%u)", i);
          g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
        }
      g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
      {
        g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);
        ws_small_cache_trim (&cache, "t", max);
      }
      g_assert_cmpint (query_int (db, "SELECT count(*) FROM t"), ==, expected);
      if (expected > 0)
        {
          g_assert_cmpint (query_int (db, "SELECT min(v) FROM t"), ==, rows - expected);
          g_assert_cmpint (query_int (db, "SELECT max(v) FROM t"), ==, rows - 1);
        }
    }
  ws_small_cache_reset (&cache);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/small-cache/opens-named-file", test_opens_named_file);
  g_test_add_func ("/small-cache/off-and-broken", test_off_and_broken);
  g_test_add_func ("/small-cache/trim-keeps-newest", test_trim_keeps_newest);
  return g_test_run ();
}
