/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Limits on hostile inputs, checked through the real waitscope-cli (env
 * WS_CLI): a gzip decompression bomb, a foreign SQLite file given as the
 * history store, outputs that must never appear half written, a full
 * disk under the history, reused thread ids, time going back, a forged
 * perf.data, an empty file name.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "ws-cli-test-util.h"
#include "ws-history-store.h"
#include "ws-json-stream.h"
#include "ws-json-text.h"
#include "ws-trace-loader.h"
#include "ws-trace.h"

#if defined(__SANITIZE_ADDRESS__)
# define WS_UNDER_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define WS_UNDER_ASAN 1
# endif
#endif

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
    /* A Perfetto packet 96 MiB long of timestamp fields (8 = 1). */
    { "bomb.pftrace.gz", "\x0a\x80\x80\x80\x30", "\x40\x01" },
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

/* The names in @dir other than those in @keep (NULL-terminated). */
static GPtrArray *
other_names (const char         *dir,
             const char * const *keep)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (!g_strv_contains (keep, name))
      g_ptr_array_add (names, g_strdup (name));
  return names;
}

/*
 * The PDF report used to be written through the fixed name OUT.pdf.part,
 * following a symbolic link planted there: the link's target was
 * overwritten.  Now the link and its target stay as they were, the report
 * is whole under its name, and no temporary file is left.
 */
static void
test_pdf_part_symlink (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *session = g_build_filename (dir, "s.waitscope", NULL);
  g_autofree char *victim = g_build_filename (dir, "victim.txt", NULL);
  g_autofree char *pdf = g_build_filename (dir, "out.pdf", NULL);
  g_autofree char *part = g_build_filename (dir, "out.pdf.part", NULL);
  g_auto(WsCliRun) create = { 0 };
  g_auto(WsCliRun) pin = { 0 };
  g_auto(WsCliRun) report = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL, after = NULL, written = NULL;
  g_autoptr(GPtrArray) left = NULL;
  g_autofree char *link = NULL;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  g_file_set_contents (victim, "precious\n", -1, &error);
  g_assert_no_error (error);
  before = read_bytes (victim);
  g_assert_cmpint (symlink (victim, part), ==, 0);

  ws_cli_run (&create, "session", "new", session, trace, NULL);
  g_assert_cmpint (create.status, ==, 0);
  ws_cli_run (&pin, "session", "pin", session, "--view", "timeline", NULL);
  g_assert_cmpint (pin.status, ==, 0);
  ws_cli_run (&report, "report", session, "-o", pdf, NULL);
  g_assert_cmpint (report.status, ==, 0);

  after = read_bytes (victim);
  g_assert_true (g_bytes_equal (before, after));
  link = g_file_read_link (part, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (link, ==, victim);
  written = read_bytes (pdf);
  g_assert_cmpuint (g_bytes_get_size (written), >, 1000);
  g_assert_true (memcmp (g_bytes_get_data (written, NULL), "%PDF", 4) == 0);
  left = other_names (dir, (const char *[]) { "s.waitscope", "victim.txt", "out.pdf", "out.pdf.part", NULL });
  g_assert_cmpuint (left->len, ==, 0);
  remove_tree (dir);
}

/*
 * Ctrl+C (SIGINT) or SIGTERM while `convert -o NEW` writes: nothing under
 * the name (it used to hold the half written so far), no temporary file
 * left, and the process dies of the signal.
 */
static void
test_convert_interrupted (void)
{
  const int signals[] = { SIGINT, SIGTERM };
  g_autofree char *trace = ws_cli_test_data_path ("io-fsync.perf.txt.gz");

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autofree char *dir = make_tmpdir ();
      g_autofree char *out = g_build_filename (dir, "new.json", NULL);
      g_autoptr(GSubprocess) proc = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) left = NULL;
      gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
      gboolean writing = FALSE;

      proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                               g_getenv ("WS_CLI"), "convert", trace, "-o", out, NULL);
      g_assert_no_error (error);
      /* Wait until the output is being written (a file appears in @dir,
       * under whatever name) and has some bytes. */
      while (!writing && g_get_monotonic_time () < deadline)
        {
          g_autoptr(GPtrArray) names = other_names (dir, (const char *[]) { NULL });

          for (guint k = 0; k < names->len && !writing; k++)
            {
              g_autofree char *p = g_build_filename (dir, g_ptr_array_index (names, k), NULL);
              GStatBuf st;

              writing = g_stat (p, &st) == 0 && st.st_size > 1 << 20;
            }
          g_usleep (5000);
        }
      g_assert_true (writing);
      g_subprocess_send_signal (proc, signals[i]);
      g_subprocess_wait (proc, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_if_signaled (proc));
      g_assert_cmpint (g_subprocess_get_term_sig (proc), ==, signals[i]);

      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      left = other_names (dir, (const char *[]) { NULL });
      g_assert_cmpuint (left->len, ==, 0);
      remove_tree (dir);
    }
}

static void
write_text (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
limit_file_size (gpointer data)
{
  struct rlimit lim = { GPOINTER_TO_SIZE (data), GPOINTER_TO_SIZE (data) };

  /* EFBIG instead of death by SIGXFSZ: the disk "fills" at that size. */
  signal (SIGXFSZ, SIG_IGN);
  setrlimit (RLIMIT_FSIZE, &lim);
}

static gint64
count_rows (const char *path,
            const char *table)
{
  g_autofree char *query = g_strdup_printf ("SELECT count(*) FROM %s", table);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/*
 * The disk fills while `history add` records a trace (a file size limit
 * just past what the trace's stacks take, so that its waits do not fit):
 * the trace is recorded whole or not at all, and the summary says it could
 * not be recorded, not that it could not be read.
 */
static void
test_history_disk_full (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *calibration = g_build_filename (dir, "calibration.sqlite", NULL);
  g_autofree char *calibration_wal = g_strconcat (calibration, "-wal", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  GStatBuf st;
  gsize limit;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  {
    /* What the schema and the trace's stacks alone take, as a CLI writes them. */
    g_autoptr(WsHistoryStore) store = ws_history_store_open (calibration, &error);
    g_autoptr(WsTrace) t = NULL;

    g_assert_no_error (error);
    t = ws_trace_loader_load (trace, NULL, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ws_history_store_record_trace (store, t, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (g_stat (calibration_wal, &st), ==, 0);
    limit = st.st_size + 3 * 4096;
  }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, limit_file_size, GSIZE_TO_POINTER (limit), NULL);
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("WS_CLI"), "history", "add",
                                      "--history", history, trace, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("limit %zu: %s%s", limit, out, err);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 1);
  g_assert_true (strstr (err, "file size limit") != NULL || strstr (err, "disk is full") != NULL);
  g_assert_nonnull (strstr (err, "nothing of"));
  g_assert_null (strstr (out, "could not be read"));
  g_assert_nonnull (strstr (out, "1 could not be recorded"));
  /* All or nothing: neither the trace's stacks nor its waits. */
  g_assert_cmpint (count_rows (history, "traces"), ==, 0);
  g_assert_cmpint (count_rows (history, "wait_traces"), ==, 0);
  remove_tree (dir);
}

/* @n blocks of `perf script` text: a sample of @comm-K PID/TID at @t0 + K s. */
static void
append_samples (GString    *text,
                guint       n,
                const char *comm,
                gint        pid0,
                gint        tid,
                double      t0,
                gboolean    fork_first)
{
  for (guint k = 0; k < n; k++)
    {
      gint pid = pid0 < 0 ? tid : pid0 + (gint) k;

      if (fork_first)
        g_string_append_printf (text, "bash 1/1 [000] %.6f: PERF_RECORD_FORK(%d:%d):(1:1)\n\n",
                                t0 + k, pid, tid);
      for (guint s = 0; s < 2; s++)
        g_string_append_printf (text, "%s-%u %d/%d [000] %.6f: 1 cycles: \n"
                                "\tffffffff81000000 work_%u ([kernel.kallsyms])\n\n",
                                comm, k, pid, tid, t0 + k + 0.1 + s * 0.1, k);
    }
}

/*
 * One thread id used by 20 processes in turn (the kernel reuses ids):
 * 20 threads, each with its own name and two samples, whether the pid
 * tells them apart or only their forks do (a process id come round).
 */
static void
test_reused_tid (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *by_pid = g_build_filename (dir, "by-pid.perf.txt", NULL);
  g_autofree char *by_fork = g_build_filename (dir, "by-fork.perf.txt", NULL);
  g_autoptr(GString) a = g_string_new (NULL), b = g_string_new (NULL);
  const char *paths[] = { by_pid, by_fork };

  append_samples (a, 20, "job", 1000, 4242, 10.0, FALSE);
  write_text (by_pid, a->str);
  append_samples (b, 20, "job", -1, 4242, 10.0, TRUE);
  write_text (by_fork, b->str);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load (paths[i], NULL, NULL, NULL, NULL, &error);
      guint n = 0;

      g_assert_no_error (error);
      for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
        {
          const WsThread *thread = ws_trace_get_thread (trace, t);
          g_autofree char *name = g_strdup_printf ("job-%u", n);

          if (thread->tid != 4242)
            continue;
          g_assert_cmpstr (thread->name, ==, name);
          n++;
        }
      g_assert_cmpuint (n, ==, 20);
      g_assert_cmpuint (ws_trace_get_n_events (trace), ==, 40);
    }
  remove_tree (dir);
}

/*
 * A timestamp 2,000,000 s before the first event (two recordings joined,
 * or damage) is refused with its line, instead of a trace 23 days long.
 */
static void
test_time_jump_back (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "joined.perf.txt", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *where = NULL;
  g_auto(WsCliRun) run = { 0 };

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  append_samples (text, 2, "late", 1000, 1000, 2000100.0, FALSE);
  append_samples (text, 2, "early", 2000, 2000, 100.0, FALSE);
  write_text (path, text->str);
  ws_cli_run (&run, "info", path, NULL);
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 1);
  /* The 5th block, 3 lines each: line 13. */
  where = g_strdup_printf ("%s:13: the time jumps back", path);
  g_assert_nonnull (strstr (run.err, where));
  g_assert_nonnull (strstr (run.err, "2000000 s before the first event"));
  remove_tree (dir);
}

/* A forged perf.data: our reason, without perf's warnings about fields. */
static void
test_fake_perf_data (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "fake.data", NULL);
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_auto(WsCliRun) run = { 0 };

  if (g_getenv ("WS_CLI") == NULL || perf == NULL)
    {
      g_test_skip ("WS_CLI not set, or no perf");
      return;
    }
  write_text (path, "PERFILE2garbage-not-really-perf-data-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
  ws_cli_run (&run, "info", path, NULL);
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "not a perf.data file perf can read"));
  g_assert_null (strstr (run.err, "not valid for"));
  remove_tree (dir);
}

/* `info ""`: the name is empty, not "Operation not supported". */
static void
test_empty_path (void)
{
  g_auto(WsCliRun) run = { 0 };

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  ws_cli_run (&run, "info", "", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "file name is empty"));
  g_assert_null (strstr (run.err, "not supported"));
}

/* A random JSON tree: objects and arrays (empty ones too), strings with
 * quotes, control characters and bytes that are not UTF-8, numbers. */
static JsonNode *
random_tree (GRand *rand,
             guint  depth)
{
  static const char * const strings[] = {
    "", "plain", "quote \" and \\ backslash", "tab\tnew\nline", "\x01\x1f\x7f",
    "caf\xc3\xa9", "bad \xff\xfe bytes", "half \xe2\x82", "/slash/",
  };
  guint kind = g_rand_int_range (rand, 0, depth >= 4 ? 5 : 7);

  switch (kind)
    {
    case 0:
      return json_node_init_int (json_node_alloc (), g_rand_int_range (rand, -1000, 1000) * (gint64) 1000003);
    case 1:
      return json_node_init_string (json_node_alloc (), strings[g_rand_int_range (rand, 0, G_N_ELEMENTS (strings))]);
    case 2:
      return json_node_init_double (json_node_alloc (), g_rand_double_range (rand, -1e6, 1e6));
    case 3:
      return json_node_init_boolean (json_node_alloc (), g_rand_boolean (rand));
    case 4:
      return json_node_init_null (json_node_alloc ());
    case 5:
      {
        JsonObject *o = json_object_new ();
        guint n = g_rand_int_range (rand, 0, 4);

        for (guint i = 0; i < n; i++)
          json_object_set_member (o, strings[g_rand_int_range (rand, 0, G_N_ELEMENTS (strings))],
                                  random_tree (rand, depth + 1));
        return json_node_init_object (json_node_alloc (), o);
      }
    default:
      {
        JsonArray *a = json_array_new ();
        guint n = g_rand_int_range (rand, 0, 4);

        for (guint i = 0; i < n; i++)
          json_array_add_element (a, random_tree (rand, depth + 1));
        return json_node_init_array (json_node_alloc (), a);
      }
    }
}

/* Streams @node: its containers by hand down to @hand_depth, below that
 * (or at random) whole nodes. */
static void
stream_tree (WsJsonStream *out,
             JsonNode     *node,
             guint         hand_depth,
             GRand        *rand)
{
  if (hand_depth == 0 || g_rand_int_range (rand, 0, 4) == 0 || JSON_NODE_HOLDS_VALUE (node) ||
      JSON_NODE_HOLDS_NULL (node))
    {
      ws_json_stream_add_node (out, node);
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (o);

      ws_json_stream_begin_object (out);
      for (GList *l = members; l != NULL; l = l->next)
        {
          ws_json_stream_set_member_name (out, l->data);
          stream_tree (out, json_object_get_member (o, l->data), hand_depth - 1, rand);
        }
      ws_json_stream_end_object (out);
    }
  else
    {
      JsonArray *a = json_node_get_array (node);

      ws_json_stream_begin_array (out);
      for (guint i = 0; i < json_array_get_length (a); i++)
        stream_tree (out, json_array_get_element (a, i), hand_depth - 1, rand);
      ws_json_stream_end_array (out);
    }
}

/*
 * The law of the streaming writer: whatever the tree and wherever the
 * hand-written containers stop, its text is byte for byte that of
 * ws_json_text_from_node() on the whole tree (json-glib's layout, UTF-8).
 */
static void
test_json_stream_law (void)
{
  GRand *rand = g_rand_new_with_seed (20);

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(JsonNode) tree = random_tree (rand, 0);
      g_autofree char *expected = ws_json_text_from_node (tree);
      char *text = NULL;
      size_t len = 0;
      FILE *f = open_memstream (&text, &len);
      WsJsonStream *out = ws_json_stream_new (f);

      stream_tree (out, tree, g_rand_int_range (rand, 0, 6), rand);
      g_assert_true (ws_json_stream_finish (out));
      fclose (f);
      g_assert_cmpstr (text, ==, expected);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      free (text);
    }
  g_rand_free (rand);
}

static void
limit_address_space (gpointer data)
{
  struct rlimit lim = { GPOINTER_TO_SIZE (data), GPOINTER_TO_SIZE (data) };

  setrlimit (RLIMIT_AS, &lim);
}

/*
 * `info --json` on 100,000 threads within 200 MB of address space: the
 * JsonBuilder tree of all threads needed about 340 MB (and died of it
 * here); streamed, it needs what the text output needs.
 */
static void
test_info_json_streamed (void)
{
#ifdef WS_UNDER_ASAN
  g_test_skip ("ASan reserves terabytes of shadow memory");
#else
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "many.perf.txt", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *p;
  guint n = 0;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }
  for (guint k = 0; k < 100000; k++)
    g_string_append_printf (text, "t%u %u/%u [000] 10.%06u: 1 cycles: \n"
                            "\tffffffff81000000 work ([kernel.kallsyms])\n\n", k, 100000 + k, 100000 + k, k);
  write_text (path, text->str);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, limit_address_space, GSIZE_TO_POINTER (200u << 20), NULL);
  proc = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("WS_CLI"), "info", "--json", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  for (p = out; (p = strstr (p, "\"tid\" : ")) != NULL; p++)
    n++;
  g_assert_cmpuint (n, ==, 100000);
  g_assert_true (g_str_has_suffix (out, "\n  ]\n}\n"));
  remove_tree (dir);
#endif
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/limits/gzip-bomb", test_gzip_bomb);
  g_test_add_func ("/limits/foreign-history", test_foreign_history);
  g_test_add_func ("/limits/pdf-part-symlink", test_pdf_part_symlink);
  g_test_add_func ("/limits/convert-interrupted", test_convert_interrupted);
  g_test_add_func ("/limits/history-disk-full", test_history_disk_full);
  g_test_add_func ("/limits/reused-tid", test_reused_tid);
  g_test_add_func ("/limits/time-jump-back", test_time_jump_back);
  g_test_add_func ("/limits/fake-perf-data", test_fake_perf_data);
  g_test_add_func ("/limits/empty-path", test_empty_path);
  g_test_add_func ("/limits/json-stream-law", test_json_stream_law);
  g_test_add_func ("/limits/info-json-streamed", test_info_json_streamed);
  return g_test_run ();
}
