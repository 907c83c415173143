/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Limits on hostile inputs, checked through the real waitscope-cli (env
 * WS_CLI): a gzip decompression bomb, a foreign SQLite file given as the
 * history store, outputs that must never appear half written.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "ws-cli-test-util.h"
#include "ws-history-store.h"

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("ws-limits-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *dir)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

  g_assert_cmpint (system (cmd), ==, 0);
}

/* @path: @head, then @line repeated until the text is @size bytes, gzip -9. */
static void
write_gzip_bomb (const char *path,
                 const char *head,
                 const char *line,
                 gsize       size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_autoptr(GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GOutputStream) z = NULL;
  g_autoptr(GString) block = g_string_new (NULL);
  gsize written = 0;

  g_assert_no_error (error);
  z = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (gzip));
  g_assert_true (g_output_stream_write_all (z, head, strlen (head), NULL, NULL, &error));
  while (block->len < 1 << 20)
    g_string_append (block, line);
  while (written < size)
    {
      g_assert_true (g_output_stream_write_all (z, block->str, block->len, NULL, NULL, &error));
      g_assert_no_error (error);
      written += block->len;
    }
  g_assert_true (g_output_stream_close (z, NULL, &error));
  g_assert_no_error (error);
}

/*
 * A decompression bomb in each format (96 MB of text in ~0.2 MB, ~500
 * times) is refused past 64 MB of text, with the file, the ratio and the
 * way to lift the ceiling in the message; WAITSCOPE_MAX_INFLATE_RATIO=0
 * reads it; the most compressible real trace (70 MB inflating 51 times) reads
 * under the default.
 */
static void
test_gzip_bomb (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *name = g_strnfill (900, 'x');
  g_autofree char *perf_line = g_strdup_printf ("a 1/1 [000] 1.000001: 1 cycles: \n"
                                                "\tffffffff81000000 %s ([kernel.kallsyms])\n\n", name);
  g_autofree char *folded_line = g_strdup_printf ("main;%s 1\n", name);
  g_autofree char *spaces = g_strdup_printf ("%s\n", name);
  struct { const char *file, *head, *line; } bombs[] = {
    { "bomb.perf.txt.gz", "", perf_line },
    { "bomb.json.gz", "{\"events\": [\n", spaces },
    { "bomb.folded.gz", "", folded_line },
  };

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  /* The JSON bomb is blank space (x's turned into spaces) inside the array. */
  memset (spaces, ' ', 900);

  for (guint i = 0; i < G_N_ELEMENTS (bombs); i++)
    {
      g_autofree char *path = g_build_filename (dir, bombs[i].file, NULL);
      g_auto(WsCliRun) run = { 0 };

      write_gzip_bomb (path, bombs[i].head, bombs[i].line, 96 << 20);
      ws_cli_run (&run, "info", path, NULL);
      g_test_message ("%s: %s", bombs[i].file, run.err);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_true (g_str_has_prefix (run.err, "waitscope-cli: "));
      g_assert_nonnull (strstr (run.err, path));
      g_assert_nonnull (strstr (run.err, "more than 200 times"));
      g_assert_nonnull (strstr (run.err, "WAITSCOPE_MAX_INFLATE_RATIO"));
      /* Stopped at the ceiling, not at the end: 64 MB and a bit. */
      g_assert_nonnull (strstr (run.err, " became 6"));
    }

  {
    g_autofree char *path = g_build_filename (dir, "bomb.folded.gz", NULL);
    g_auto(WsCliRun) run = { 0 };

    g_setenv ("WAITSCOPE_MAX_INFLATE_RATIO", "0", TRUE);
    ws_cli_run (&run, "info", path, NULL);
    g_unsetenv ("WAITSCOPE_MAX_INFLATE_RATIO");
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "events"));
  }
  {
    g_autofree char *path = ws_cli_test_data_path ("anomaly/faults-mild.perf.txt.gz");
    g_auto(WsCliRun) run = { 0 };

    ws_cli_run (&run, "info", path, NULL);
    g_assert_cmpint (run.status, ==, 0);
  }
  remove_tree (dir);
}

static void
sql (const char *path,
     const char *statements)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, statements, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", statements, message);
  sqlite3_close (db);
}

static int
pragma (const char *path,
        const char *name)
{
  g_autofree char *query = g_strdup_printf ("PRAGMA %s", name);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

/*
 * Another application's SQLite database given as the history (by
 * --history, or WAITSCOPE_HISTORY to a recording `mine`): refused, its
 * bytes unchanged, no WAL beside it.  A store of the previous version
 * (schema and tables, no application id) is still ours and gets the id.
 */
static void
test_foreign_history (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *foreign = g_build_filename (dir, "notes.sqlite", NULL);
  g_autofree char *wal = g_strconcat (foreign, "-wal", NULL);
  g_autofree char *tagged = g_build_filename (dir, "tagged.sqlite", NULL);
  g_autofree char *old = g_build_filename (dir, "old.sqlite", NULL);
  g_autoptr(GBytes) before = NULL;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  sql (foreign, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"
                "INSERT INTO notes (body) VALUES ('do not touch');");
  before = read_bytes (foreign);

  {
    const char * const commands[][6] = {
      { "history", "add", "--history", foreign, trace, NULL },
      { "history", "stats", "--history", foreign, NULL },
      { "history", "top-functions", "--history", foreign, NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      {
        g_auto(WsCliRun) run = { 0 };
        g_autoptr(GBytes) after = NULL;

        ws_cli_run_argv (&run, NULL, commands[i]);
        g_test_message ("%s %s: %s", commands[i][0], commands[i][1], run.err);
        g_assert_cmpint (run.status, ==, 1);
        g_assert_nonnull (strstr (run.err, foreign));
        g_assert_nonnull (strstr (run.err, "not a Waitscope history database"));
        after = read_bytes (foreign);
        g_assert_true (g_bytes_equal (before, after));
        g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
      }
  }
  {
    /* mine records into the history by default; it must not record there. */
    g_auto(WsCliRun) run = { 0 };
    g_autoptr(GBytes) after = NULL;

    g_setenv ("WAITSCOPE_HISTORY", foreign, TRUE);
    ws_cli_run (&run, "mine", trace, NULL);
    g_unsetenv ("WAITSCOPE_HISTORY");
    g_assert_nonnull (strstr (run.err, "not a Waitscope history database"));
    after = read_bytes (foreign);
    g_assert_true (g_bytes_equal (before, after));
    g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  }
  {
    /* Another application's id, even with nothing else in the file. */
    g_auto(WsCliRun) run = { 0 };
    g_autoptr(GBytes) tagged_before = NULL, tagged_after = NULL;

    sql (tagged, "PRAGMA application_id = 1598903374;");
    tagged_before = read_bytes (tagged);
    ws_cli_run (&run, "history", "add", "--history", tagged, trace, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "application id is 0x5f4d544e"));
    tagged_after = read_bytes (tagged);
    g_assert_true (g_bytes_equal (tagged_before, tagged_after));
  }
  {
    /* The previous version's store: the same file without the id. */
    g_auto(WsCliRun) add = { 0 };
    g_auto(WsCliRun) stats = { 0 };
    g_auto(WsCliRun) again = { 0 };
    g_autofree char *build = ws_cli_test_data_path ("build.perf.txt.gz");

    ws_cli_run (&add, "history", "add", "--history", old, trace, NULL);
    g_assert_cmpint (add.status, ==, 0);
    g_assert_cmpint ((guint32) pragma (old, "application_id"), ==, WS_HISTORY_APPLICATION_ID);
    sql (old, "PRAGMA application_id = 0;");
    g_assert_cmpint (pragma (old, "application_id"), ==, 0);

    ws_cli_run (&stats, "history", "stats", "--history", old, NULL);
    g_assert_cmpint (stats.status, ==, 0);
    ws_cli_run (&again, "history", "add", "--history", old, build, NULL);
    g_assert_cmpint (again.status, ==, 0);
    g_assert_cmpint ((guint32) pragma (old, "application_id"), ==, WS_HISTORY_APPLICATION_ID);
    g_assert_cmpint (pragma (old, "user_version"), ==, WS_HISTORY_SCHEMA_VERSION);
  }
  remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/limits/gzip-bomb", test_gzip_bomb);
  g_test_add_func ("/limits/foreign-history", test_foreign_history);
  return g_test_run ();
}
