/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The trace-hash cache: a file hashed before and unchanged since is not
 * read again, and whatever happens to a file — rewritten in place with
 * its old times put back, truncated, replaced by another file, appended
 * to — its hash is always the SHA-256 of the bytes it holds now.  The
 * oracle is GLib's own SHA-256 (GChecksum), a different implementation
 * from the Nettle code under test.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws-file-hash-cache.h"
#include "ws-file-sha256.h"

typedef struct {
  char *dir;
  char *cache;
} Fixture;

static char *
oracle_sha256 (const char *path)
{
  g_autofree char *bytes = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) bytes, len);
}

static void
write_random (const char *path,
              GRand      *rand,
              gsize       len)
{
  g_autofree char *bytes = g_malloc (len + 1);

  for (gsize i = 0; i < len; i++)
    bytes[i] = (char) g_rand_int_range (rand, 0, 256);
  g_assert_true (g_file_set_contents (path, bytes, len, NULL));
}

/* Overwrites @path's bytes in place (same inode, same size) and puts its
 * old access and modification times back: only ctime tells. */
static void
rewrite_in_place_keeping_times (const char *path,
                                GRand      *rand)
{
  struct stat st;
  struct timespec times[2];
  int fd = g_open (path, O_WRONLY, 0);
  guchar byte;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  if (st.st_size > 0)
    {
      off_t at = g_rand_int_range (rand, 0, (gint32) st.st_size);
      byte = (guchar) g_rand_int_range (rand, 0, 256);
      g_assert_cmpint (pwrite (fd, &byte, 1, at), ==, 1);
    }
  times[0] = st.st_atim;
  times[1] = st.st_mtim;
  g_assert_cmpint (futimens (fd, times), ==, 0);
  close (fd);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("ws-hash-cache-XXXXXX", NULL);
  f->cache = g_build_filename (f->dir, "cache", "file-hashes.sqlite", NULL);
  g_setenv ("WAITSCOPE_HASH_CACHE", f->cache, TRUE);
  ws_file_hash_cache_reset ();
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", f->dir);

  ws_file_hash_cache_reset ();
  g_assert_cmpint (system (cmd), ==, 0);
  g_free (f->dir);
  g_free (f->cache);
}

/* Files are cached only once their ctime is two seconds old: the tests
 * make their files, then wait for them to settle. */
static void
wait_to_settle (void)
{
  g_usleep (2100 * G_TIME_SPAN_MILLISECOND);
}

static char *
cached (const char *path)
{
  struct stat st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return ws_file_hash_cache_lookup (&st);
}

static void
test_settled_file_is_cached (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autofree char *path = g_build_filename (f->dir, "t.perf.txt", NULL);
  g_autofree char *fresh = NULL, *first = NULL, *second = NULL, *entry = NULL, *oracle = NULL;
  gint64 size = 0;

  write_random (path, rand, 3 << 20);
  oracle = oracle_sha256 (path);

  /* Hashed at once: right, but not remembered (it may still be written). */
  fresh = ws_file_sha256 (path, NULL, NULL, NULL);
  g_assert_cmpstr (fresh, ==, oracle);
  g_assert_null (cached (path));

  wait_to_settle ();
  first = ws_file_sha256 (path, NULL, NULL, NULL);
  g_assert_cmpstr (first, ==, oracle);
  entry = cached (path);
  g_assert_cmpstr (entry, ==, oracle);

  /* The second time is answered from the cache, with the size. */
  second = ws_file_sha256 (path, &size, NULL, NULL);
  g_assert_cmpstr (second, ==, oracle);
  g_assert_cmpint (size, ==, 3 << 20);

  /* One byte changed in place, the old times put back: a cache keyed by
   * size and mtime alone would answer the old hash here. */
  rewrite_in_place_keeping_times (path, rand);
  g_free (oracle);
  oracle = oracle_sha256 (path);
  g_assert_cmpstr (oracle, !=, first);
  g_free (second);
  second = ws_file_sha256 (path, NULL, NULL, NULL);
  g_assert_cmpstr (second, ==, oracle);
}

/* The law: after any sequence of changes to any of several cached files,
 * every hash is the hash of the bytes as they are. */
static void
test_never_stale (Fixture       *f,
                  gconstpointer  data)
{
  enum { N_FILES = 6, N_ROUNDS = 40 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  char *paths[N_FILES];
  guint misses = 0;

  for (guint i = 0; i < N_FILES; i++)
    {
      paths[i] = g_strdup_printf ("%s/trace-%u", f->dir, i);
      write_random (paths[i], rand, g_rand_int_range (rand, 0, 70000));
    }
  wait_to_settle ();
  for (guint i = 0; i < N_FILES; i++)
    g_free (ws_file_sha256 (paths[i], NULL, NULL, NULL));

  for (guint round = 0; round < N_ROUNDS; round++)
    {
      guint i = g_rand_int_range (rand, 0, N_FILES), j = g_rand_int_range (rand, 0, N_FILES);

      switch (g_rand_int_range (rand, 0, 5))
        {
        case 0: /* the same size, the same times: only ctime changes */
          rewrite_in_place_keeping_times (paths[i], rand);
          break;
        case 1: /* replaced by a new file (a new inode, maybe the old one's) */
          g_assert_cmpint (g_unlink (paths[i]), ==, 0);
          write_random (paths[i], rand, g_rand_int_range (rand, 0, 70000));
          break;
        case 2: /* another trace renamed onto it */
          if (i != j)
            {
              g_assert_cmpint (g_rename (paths[j], paths[i]), ==, 0);
              write_random (paths[j], rand, g_rand_int_range (rand, 0, 70000));
            }
          break;
        case 3: /* truncated */
          g_assert_cmpint (truncate (paths[i], g_rand_int_range (rand, 0, 100)), ==, 0);
          break;
        default: /* untouched */
          break;
        }
      for (guint k = 0; k < N_FILES; k++)
        {
          g_autofree char *hash = ws_file_sha256 (paths[k], NULL, NULL, NULL);
          g_autofree char *oracle = oracle_sha256 (paths[k]);
          g_autofree char *entry = cached (paths[k]);

          g_assert_cmpstr (hash, ==, oracle);
          /* Whatever the cache holds for the file as it is now is right. */
          if (entry != NULL)
            g_assert_cmpstr (entry, ==, oracle);
          else
            misses++;
        }
    }
  /* Not every answer came from the cache: the changes were seen. */
  g_assert_cmpuint (misses, >, 0);
  for (guint i = 0; i < N_FILES; i++)
    g_free (paths[i]);
}

/* A cache that is not a database, or a row that is not a hash, costs a
 * read of the file, never a wrong answer or an error. */
static void
test_broken_cache (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autofree char *path = g_build_filename (f->dir, "t", NULL);
  g_autofree char *cache_dir = g_path_get_dirname (f->cache);
  g_autofree char *oracle = NULL, *hash = NULL, *again = NULL;
  g_autoptr(GError) error = NULL;
  struct stat st;
  sqlite3 *db = NULL;
  g_autofree char *sql = NULL;

  write_random (path, rand, 5000);
  oracle = oracle_sha256 (path);
  wait_to_settle ();

  /* A row that is not a lowercase hex SHA-256 is ignored. */
  g_free (ws_file_sha256 (path, NULL, NULL, NULL));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  ws_file_hash_cache_reset ();
  g_assert_cmpint (sqlite3_open (f->cache, &db), ==, SQLITE_OK);
  sql = g_strdup_printf ("UPDATE file_hashes SET sha256 = 'not a hash' WHERE ino = %" G_GUINT64_FORMAT, (guint64) st.st_ino);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_null (cached (path));
  hash = ws_file_sha256 (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hash, ==, oracle);

  /* Not a database at all. */
  ws_file_hash_cache_reset ();
  g_assert_true (g_file_set_contents (f->cache, "this is not SQLite\n", -1, NULL));
  again = ws_file_sha256 (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, oracle);
  g_assert_null (cached (path));

  /* An unwritable place for it. */
  ws_file_hash_cache_reset ();
  g_setenv ("WAITSCOPE_HASH_CACHE", "/proc/waitscope/file-hashes.sqlite", TRUE);
  g_free (again);
  again = ws_file_sha256 (path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, oracle);
  g_assert_true (g_file_test (cache_dir, G_FILE_TEST_IS_DIR));
}

/* An empty WAITSCOPE_HASH_CACHE turns the cache off. */
static void
test_off (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  g_autofree char *path = g_build_filename (f->dir, "t", NULL);
  g_autofree char *hash = NULL, *oracle = NULL;

  g_setenv ("WAITSCOPE_HASH_CACHE", "", TRUE);
  ws_file_hash_cache_reset ();
  write_random (path, rand, 1000);
  oracle = oracle_sha256 (path);
  wait_to_settle ();
  hash = ws_file_sha256 (path, NULL, NULL, NULL);
  g_assert_cmpstr (hash, ==, oracle);
  g_assert_null (cached (path));
  g_assert_false (g_file_test (f->cache, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/file-hash-cache/settled-file-is-cached", Fixture, NULL, setup, test_settled_file_is_cached, teardown);
  g_test_add ("/file-hash-cache/never-stale", Fixture, NULL, setup, test_never_stale, teardown);
  g_test_add ("/file-hash-cache/broken-cache", Fixture, NULL, setup, test_broken_cache, teardown);
  g_test_add ("/file-hash-cache/off", Fixture, NULL, setup, test_off, teardown);
  return g_test_run ();
}
