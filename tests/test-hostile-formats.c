/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hostile inputs to the readers, made by the test itself and run through
 * the loader and the real waitscope-cli (env WS_CLI): folded stacks whose
 * thread name is not UTF-8, Perfetto traces whose names are not UTF-8,
 * headers and first lines longer than the
 * sniffing window, and the hash of the packed 64-bit keys.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "ws-cli-test-util.h"
#include "ws-error.h"
#include "ws-hash.h"
#include "ws-miner.h"
#include "ws-perfetto-writer.h"
#include "ws-trace-loader.h"

static char *
tmp_file (const char *dir,
          const char *name,
          const char *contents,
          gssize      len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
gzip_file (const char *path)
{
  char *gz = g_strconcat (path, ".gz", NULL);
  g_autofree char *cmd = g_strdup_printf ("gzip -c '%s' > '%s'", path, gz);

  g_assert_cmpint (system (cmd), ==, 0);
  return gz;
}

/*
 * A first frame (the thread's name) that is not UTF-8 once reached the
 * GRegex that splits "comm-PID/TID" and crashed every command (SIGSEGV)
 * on a 19-byte file; the bytes were found by fuzz-folded.
 */
static void
test_folded_first_frame_not_utf8 (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autofree char *path = tmp_file (dir, "bad.folded", "-\xff\x13" "5;main;worker 8\n"
                                    "ok\xc3-12/13;main;wait\xe9 2\n", -1);
  const char *commands[][3] = {
    { "info", "--json", NULL },
    { "collapse", NULL },
    { "mine", "--running", "--json" },
    { "convert", "-o", "-" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      const char *args[8] = { 0 };
      guint n = 0;

      for (guint k = 0; k < 3 && commands[i][k] != NULL; k++)
        args[n++] = commands[i][k];
      if (g_str_equal (commands[i][0], "mine"))
        args[n++] = "--no-history";
      args[n++] = path;
      ws_cli_run_argv (&run, NULL, args);
      g_test_message ("%s: status %d, %s", commands[i][0], run.status, run.err);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_utf8_validate (run.out, -1, NULL));
      if (strstr (run.out, "{") == run.out)
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          g_autoptr(GError) error = NULL;

          json_parser_load_from_data (parser, run.out, -1, &error);
          g_assert_no_error (error);
        }
    }

  /* The loader keeps the thread ids and shows the bad bytes as U+FFFD. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
    guint t;

    g_assert_no_error (error);
    g_assert_cmpuint (ws_trace_get_n_threads (trace), ==, 2);
    t = ws_trace_find_thread (trace, 13);
    g_assert_cmpuint (t, !=, WS_NONE);
    g_assert_cmpint (ws_trace_get_thread (trace, t)->pid, ==, 12);
    g_assert_cmpstr (ws_trace_get_thread (trace, t)->name, ==, "ok\xef\xbf\xbd");
  }
  g_unlink (path);
  g_rmdir (dir);
}

/*
 * A Perfetto trace whose comms and process names are not UTF-8 (bytes a
 * protobuf string field may hold when the writer is damaged): every
 * command's output is still UTF-8 and its JSON parses, from a file and
 * from a pipe (the importer's stream path).
 */
static void
test_perfetto_names_not_utf8 (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autoptr(GByteArray) data = g_byte_array_new ();
  GByteArray *tree = g_byte_array_new (), *proc = g_byte_array_new (), *packet = g_byte_array_new ();
  GByteArray *bundle = g_byte_array_new ();
  g_autofree char *path = NULL;

  pbw_uint (proc, 1, 7);
  pbw_string (proc, 3, "/bin/\xff\xfeprog");
  pbw_message (tree, 1, proc);
  pbw_uint (packet, 8, 10);
  pbw_message (packet, 2, tree);
  pbw_message (data, 1, packet);
  pbw_uint (bundle, 1, 0);
  for (guint i = 0; i < 4; i++)
    {
      GByteArray *event = g_byte_array_new (), *sw = g_byte_array_new ();
      gint32 prev = i % 2 ? 7 : 8, next = i % 2 ? 8 : 7;

      pbw_string (sw, 1, prev == 7 ? "w\xc3" : "ok");
      pbw_uint (sw, 2, prev);
      pbw_uint (sw, 4, 1);
      pbw_string (sw, 5, next == 7 ? "w\xc3" : "ok");
      pbw_uint (sw, 6, next);
      pbw_uint (event, 1, 1000 * (i + 1));
      pbw_uint (event, 2, prev);
      pbw_message (event, 4, sw);
      pbw_message (bundle, 2, event);
    }
  packet = g_byte_array_new ();
  pbw_message (packet, 1, bundle);
  pbw_message (data, 1, packet);
  path = tmp_file (dir, "bad-names.pftrace", (const char *) data->data, data->len);

  for (guint piped = 0; piped < 2; piped++)
    {
      g_auto(WsCliRun) run = { 0 };
      const char *args[] = { "info", "--json", piped ? "-" : path, NULL };
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      ws_cli_run_full (&run, NULL, piped ? path : NULL, args);
      g_test_message ("info --json %s: status %d, %s", piped ? "- (pipe)" : path, run.status, run.err);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_utf8_validate (run.out, -1, NULL));
      json_parser_load_from_data (parser, run.out, -1, &error);
      g_assert_no_error (error);
      g_assert_nonnull (strstr (run.out, "\"w\xef\xbf\xbd\""));
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* perf script --header of a 128-CPU machine: every event line lists one
 * sample id per CPU, and -I adds a topology line per CPU. */
static GString *
perf_with_long_header (guint n_cpus)
{
  g_autofree char *seed = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                            "py-locks-start.txt", NULL);
  g_autofree char *events = NULL;
  g_autoptr(GError) error = NULL;
  GString *s = g_string_new ("# ========\n"
                             "# captured on    : Sat Nov 28 05:01:45 2026\n"
                             "# hostname : big\n"
                             "# arch : x86_64\n");
  const char *names[] = { "sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
                          "cpu-clock", "dummy:HG" };

  g_string_append_printf (s, "# nrcpus online : %u\n# nrcpus avail : %u\n", n_cpus, n_cpus);
  for (guint e = 0; e < G_N_ELEMENTS (names); e++)
    {
      g_string_append_printf (s, "# event : name = %s, , id = { ", names[e]);
      for (guint c = 0; c < n_cpus; c++)
        g_string_append_printf (s, "%s%u", c ? ", " : "", 17580 + e * n_cpus + c);
      g_string_append (s, " }, type = 2, size = 128, config = 0x174, { sample_period, sample_freq } = 1, "
                          "sample_type = IP|TID|TIME|CALLCHAIN|CPU|PERIOD|RAW|IDENTIFIER\n");
    }
  for (guint c = 0; c < n_cpus; c++)
    g_string_append_printf (s, "# CPU %u: Core ID %u, Die ID 0, Socket ID %u\n", c, c % 64, c / 64);
  g_string_append (s, "# ========\n#\n");

  g_file_get_contents (seed, &events, NULL, &error);
  g_assert_no_error (error);
  g_string_append (s, events);
  return s;
}

/* A folded file whose first stack is a 120-frame Java one (about 9 KB). */
static GString *
folded_with_long_first_line (void)
{
  GString *s = g_string_new ("java-4242/4250");

  for (guint k = 0; k < 120; k++)
    g_string_append_printf (s, ";Lorg/apache/kafka/clients/consumer/internals/ConsumerCoordinator%u;::poll", k);
  g_string_append (s, " 17\njava-4242/4251;Ljava/lang/Thread;::run;Ljava/util/concurrent/locks/LockSupport;::park 5\n");
  return s;
}

static void
check_loads (const char *path,
             guint       n_threads_at_least)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_auto(WsCliRun) run = { 0 };
  const char *stdin_args[] = { "info", "-", NULL };

  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_threads (trace), >=, n_threads_at_least);

  /* From a pipe the head is sniffed from the stream's own buffer. */
  ws_cli_run_full (&run, NULL, path, stdin_args);
  g_test_message ("info - < %s: %d %s", path, run.status, run.err);
  g_assert_cmpint (run.status, ==, 0);
}

static void
test_sniff_long_perf_header (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autoptr(GString) s = perf_with_long_header (128);
  g_autofree char *path = tmp_file (dir, "big-host.perf.txt", s->str, s->len);
  g_autofree char *gz = gzip_file (path);

  /* Longer than the 4 KiB the sniffers used to be given. */
  g_assert_cmpuint (strstr (s->str, "\n#\n") - s->str, >, 8 * 1024);
  check_loads (path, 2);
  check_loads (gz, 2);
  g_unlink (gz);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_sniff_long_folded_line (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autoptr(GString) s = folded_with_long_first_line ();
  /* No .folded suffix: the contents alone must tell. */
  g_autofree char *path = tmp_file (dir, "java-profile.txt", s->str, s->len);
  g_autofree char *gz = gzip_file (path);

  g_assert_cmpuint (strchr (s->str, '\n') - s->str, >, 8 * 1024);
  check_loads (path, 2);
  check_loads (gz, 2);
  g_unlink (gz);
  g_unlink (path);
  g_rmdir (dir);
}

/* Past 1 MiB of text no sniffer recognises, the file is refused, and the
 * message says how far it was looked at. */
static void
test_sniff_limit (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_auto(WsCliRun) run = { 0 };
  const char *args[] = { "info", NULL, NULL };

  while (s->len < 2 * 1024 * 1024)
    g_string_append (s, "# a comment line that goes on, and on, and on, and on, and on\n");
  g_string_append (s, "perf 11591/11591 [000]  1986.566914: PERF_RECORD_FORK(11591:11593):(11591:11591)\n");
  path = tmp_file (dir, "comments.txt", s->str, s->len);

  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "1 MiB"));

  args[1] = path;
  ws_cli_run_argv (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "1 MiB"));
  g_unlink (path);
  g_rmdir (dir);
}

/*
 * Keys packed as high << 32 | low -- (entry, stream) in the stack
 * database, (caller, callee) bigrams -- must spread over a hash table's
 * buckets whatever half varies.  g_int64_hash() (GLib 2.74) returns the low
 * half only: 100,000 keys with one low half land in one bucket, which made
 * `mine` and `history add` quadratic.  The oracle: as many distinct bucket
 * indices (modulo a prime, as GHashTable takes them) as a random function
 * gives, within a few percent.
 */
static void
test_packed_key_hash (void)
{
  const guint n = 100000, buckets = 131071;
  g_autofree guint8 *seen_mixed = g_new0 (guint8, buckets);
  g_autofree guint8 *seen_glib = g_new0 (guint8, buckets);
  guint distinct_mixed = 0, distinct_glib = 0;
  /* Expected distinct buckets of n random throws into m: m (1 - e^(-n/m)). */
  double expected = buckets * (1.0 - exp (-(double) n / buckets));

  for (guint half = 0; half < 2; half++)
    {
      memset (seen_mixed, 0, buckets);
      memset (seen_glib, 0, buckets);
      distinct_mixed = distinct_glib = 0;
      for (guint i = 0; i < n; i++)
        {
          /* The high half varies (many entries of one stream), then the low. */
          guint64 key = half == 0 ? ws_hash_pack_pair (i, 7) : ws_hash_pack_pair (7, i);
          guint h = ws_uint64_hash (&key) % buckets;
          guint g = g_int64_hash (&key) % buckets;

          distinct_mixed += !seen_mixed[h];
          seen_mixed[h] = 1;
          distinct_glib += !seen_glib[g];
          seen_glib[g] = 1;
        }
      g_test_message ("%s half varies: %u distinct buckets mixed, %u with g_int64_hash, %.0f expected",
                      half == 0 ? "high" : "low", distinct_mixed, distinct_glib, expected);
      g_assert_cmpfloat (distinct_mixed, >, 0.97 * expected);
      g_assert_cmpfloat (distinct_mixed, <, 1.03 * expected);
      /* The oracle can tell: GLib's own hash puts them all in one bucket. */
      if (half == 0)
        g_assert_cmpuint (distinct_glib, <=, 1);
    }
}

#if defined(__SANITIZE_ADDRESS__)
# define WS_UNDER_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define WS_UNDER_ASAN 1
# endif
#endif

/* Frames d@first … d@(first+n-1), appended to @frames. */
static void
append_run (WsStackTable *table,
            GArray       *frames,
            guint         n)
{
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *name = g_strdup_printf ("d%u", k);
      WsFrameId f = ws_stack_table_intern_frame (table, name, "/usr/bin/deep");

      g_array_append_val (frames, f);
    }
}

/*
 * A stack that repeats a long run of frames (d0…d10239 x d0…d19999 y
 * d0…d29999) beside the run alone: the periods of every prefix of the run
 * span the repetitions, and the miner's candidates grew with n × L (over
 * a gigabyte here, 3 GB from a 2.4 MB trace).  Under a 1 GiB address
 * space the miner must now refuse with WS_ERROR_TOO_LONG and a message
 * (the old code aborted on allocation).  Normal stacks are mined exactly
 * as before (test-miner, test-mining-traces).
 */
static void
test_mine_repeated_runs (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
      WsStackTable *table = ws_stack_db_get_stack_table (db);
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
      g_autoptr(GArray) two = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
      g_autoptr(GError) error = NULL;
      g_autoptr(WsPatternSet) set = NULL;
      WsFrameId x, y;
      guint stream;

#ifndef WS_UNDER_ASAN
      struct rlimit limit = { 1ul << 30, 1ul << 30 };

      g_assert_cmpint (setrlimit (RLIMIT_AS, &limit), ==, 0);
#endif
      x = ws_stack_table_intern_frame (table, "x", "/usr/bin/deep");
      y = ws_stack_table_intern_frame (table, "z", "/usr/bin/deep");
      /* z d0…d19999 d0…d19999 x, and d0…d19999 z x */
      g_array_append_val (one, y);
      append_run (table, one, 20000);
      append_run (table, one, 20000);
      g_array_append_val (one, x);
      append_run (table, two, 20000);
      g_array_append_val (two, y);
      g_array_append_val (two, x);
      stream = ws_stack_db_add_stream (db, "repeated-runs");
      ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, (WsFrameId *) (gpointer) one->data, one->len), 1, 1);
      ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, (WsFrameId *) (gpointer) two->data, two->len), 1, 1);

      set = ws_miner_mine (db, 2, NULL, NULL, NULL, &error);
      g_assert_null (set);
      g_assert_error (error, WS_ERROR, WS_ERROR_TOO_LONG);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "repeats a long run of frames"));
      return;
    }
  g_test_trap_subprocess (NULL, 300 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The same through the CLI: exit 1, the reason on stderr. */
static void
test_cli_mine_repeated_runs (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autoptr(GString) s = g_string_new ("app-1");
  g_autofree char *path = NULL;
  g_auto(WsCliRun) run = { 0 };
  const char *args[] = { "mine", "--running", "--no-history", "--lambda=2ns", NULL, NULL };

  /* z d0…d19999 d0…d19999 x, and d0…d19999 z x, as above */
  g_string_append (s, ";z");
  for (guint r = 0; r < 2; r++)
    for (guint k = 0; k < 20000; k++)
      g_string_append_printf (s, ";d%u", k);
  g_string_append (s, ";x 1\napp-1");
  for (guint k = 0; k < 20000; k++)
    g_string_append_printf (s, ";d%u", k);
  g_string_append (s, ";z;x 1\n");
  path = tmp_file (dir, "repeated-runs.folded", s->str, s->len);
  args[4] = path;
  ws_cli_run_argv (&run, NULL, args);
  g_test_message ("%s", run.err);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "repeats a long run of frames"));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hostile-formats/folded-first-frame-not-utf8", test_folded_first_frame_not_utf8);
  g_test_add_func ("/hostile-formats/perfetto-names-not-utf8", test_perfetto_names_not_utf8);
  g_test_add_func ("/hostile-formats/sniff-long-perf-header", test_sniff_long_perf_header);
  g_test_add_func ("/hostile-formats/sniff-long-folded-line", test_sniff_long_folded_line);
  g_test_add_func ("/hostile-formats/sniff-limit", test_sniff_limit);
  g_test_add_func ("/hostile-formats/packed-key-hash", test_packed_key_hash);
  g_test_add_func ("/hostile-formats/mine-repeated-runs", test_mine_repeated_runs);
  g_test_add_func ("/hostile-formats/cli-mine-repeated-runs", test_cli_mine_repeated_runs);
  return g_test_run ();
}
