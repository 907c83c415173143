/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hostile inputs, made by the test itself: call stacks tens of thousands
 * of frames deep (the miner once recursed once per frame and overflowed
 * the C stack; clustering once took memory in the square of the depth),
 * run in the core and through the real waitscope-cli (env WS_CLI).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <json-glib/json-glib.h>

#include "ws-cli-test-util.h"
#include "ws-clusterer.h"
#include "ws-miner.h"
#include "ws-similarity.h"
#include "ws-error.h"
#include "ws-trace.h"
#include "ws-trace-loader.h"

#if defined(__SANITIZE_ADDRESS__)
# define WS_UNDER_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define WS_UNDER_ASAN 1
# endif
#endif

/* A stack of @depth frames "deep!fK" (K from @first), then @tail. */
static WsStackId
deep_stack (WsStackTable *table,
            guint         depth,
            guint         first,
            const char   *tail)
{
  g_autofree WsFrameId *frames = g_new (WsFrameId, depth + 1);
  guint n = 0;

  for (guint k = 0; k < depth; k++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", first + k);

      frames[n++] = ws_stack_table_intern_frame (table, name, "/usr/bin/deep");
    }
  if (tail != NULL)
    frames[n++] = ws_stack_table_intern_frame (table, tail, "/usr/bin/deep");
  return ws_stack_table_intern_stack (table, frames, n);
}

/* One wait with a 50,000-frame stack: a single maximal pattern, the
 * whole stack, found without exhausting the C stack. */
static void
test_mine_50k (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsStackDb) db = ws_stack_db_new (table);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  guint stream = ws_stack_db_add_stream (db, "deep");
  const WsPattern *p;

  ws_stack_db_add (db, stream, deep_stack (table, 50000, 0, NULL), 5000000, 1);
  set = ws_miner_mine (db, 1000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 1);
  p = ws_pattern_set_get_pattern (set, 0);
  g_assert_cmpuint (p->n_frames, ==, 50000);
  g_assert_cmpint (p->cost, ==, 5000000);
  g_assert_cmpuint (ws_pattern_set_get_stats (set)->n_forced, >=, 49999);
}

/* Two 30,000-frame stacks sharing their first 20,000 frames: the search
 * branches 20,000 levels down and runs BackScan on prefixes that deep. */
static void
test_mine_deep_branches (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsStackDb) db = ws_stack_db_new (table);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  guint stream = ws_stack_db_add_stream (db, "deep");
  g_autofree WsFrameId *a = g_new (WsFrameId, 30000);
  g_autofree WsFrameId *b = g_new (WsFrameId, 30000);
  guint n;
  const WsFrameId *shared = ws_stack_table_get_stack (table, deep_stack (table, 20000, 0, NULL), &n);

  memcpy (a, shared, sizeof (WsFrameId) * 20000);
  memcpy (b, shared, sizeof (WsFrameId) * 20000);
  memcpy (a + 20000, ws_stack_table_get_stack (table, deep_stack (table, 10000, 100000, NULL), &n),
          sizeof (WsFrameId) * 10000);
  memcpy (b + 20000, ws_stack_table_get_stack (table, deep_stack (table, 10000, 200000, NULL), &n),
          sizeof (WsFrameId) * 10000);
  ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, a, 30000), 4000, 1);
  ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, b, 30000), 3000, 1);

  /* λ below either cost: both stacks are maximal patterns. */
  set = ws_miner_mine (db, 2000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 2);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 0)->n_frames, ==, 30000);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 1)->n_frames, ==, 30000);

  /* λ above either cost, below their sum: the shared prefix alone. */
  g_clear_pointer (&set, ws_pattern_set_unref);
  set = ws_miner_mine (db, 5000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 1);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 0)->n_frames, ==, 20000);
}

/*
 * Clustering patterns of 20,000 frames under a 1 GiB address-space limit
 * (the quadratic tables of an unbounded alignment need several GiB for
 * one such pair).  Patterns: a deep recursion with three different leaves
 * and one shallow stack; the deep ones, alike at both ends, cluster
 * together.  WsCliRun in a subprocess so the limit does not outlive the test.
 */
static void
test_cluster_20k_bounded (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(WsStackTable) table = ws_stack_table_new ();
      g_autoptr(WsStackDb) db = ws_stack_db_new (table);
      g_autoptr(WsPatternSet) set = NULL;
      g_autoptr(WsSimilarity) sim = NULL;
      g_autoptr(WsClusterSet) clusters = NULL;
      g_autoptr(GError) error = NULL;
      guint stream = ws_stack_db_add_stream (db, "deep");
      const char *leaves[] = { "futex_wait_a", "futex_wait_b", "futex_wait_c" };
      struct rlimit lim = { 1024u << 20, 1024u << 20 };
      g_autofree double *matrix = NULL;

#ifndef WS_UNDER_ASAN
      /* ASan reserves terabytes of shadow address space up front. */
      g_assert_cmpint (setrlimit (RLIMIT_AS, &lim), ==, 0);
#else
      (void) lim;
#endif
      for (guint k = 0; k < G_N_ELEMENTS (leaves); k++)
        ws_stack_db_add (db, stream, deep_stack (table, 20000, 0, leaves[k]), 3000 + k, 1);
      ws_stack_db_add (db, stream, deep_stack (table, 3, 900000, "poll"), 2500, 1);

      set = ws_miner_mine (db, 2000, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 4);

      sim = ws_similarity_new (table);
      matrix = ws_clusterer_similarities (set, sim, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      /* The fast matrix agrees with the reference alignment on the views. */
      for (guint i = 0; i < 4; i++)
        for (guint j = 0; j < 4; j++)
          {
            const WsPattern *pi = ws_pattern_set_get_pattern (set, i);
            const WsPattern *pj = ws_pattern_set_get_pattern (set, j);
            double ref = i == j ? 1.0 : ws_similarity_sim (sim, pi->frames, pi->n_frames,
                                                           pj->frames, pj->n_frames);

            g_assert_cmpfloat (matrix[i * 4 + j], ==, ref);
          }

      clusters = ws_clusterer_cluster (set, sim, 0.6, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), ==, 2);
      g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 0)->n_patterns, ==, 3);
      return;
    }

  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* A deep pattern's alignment steps point at pattern positions: both ends
 * face each other, the cut middle appears in no step. */
static void
test_align_deep_view (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsSimilarity) sim = ws_similarity_new (table);
  g_autoptr(GArray) steps = NULL;
  guint n;
  const WsFrameId *f = ws_stack_table_get_stack (table, deep_stack (table, 5000, 0, NULL), &n);
  guint half = WS_SIMILARITY_MAX_DEPTH / 2;

  steps = ws_similarity_align (sim, f, n, f, n, NULL);
  g_assert_cmpuint (steps->len, ==, WS_SIMILARITY_MAX_DEPTH);
  for (guint k = 0; k < steps->len; k++)
    {
      const WsAlignStep *st = &g_array_index (steps, WsAlignStep, k);
      guint expect = k < half ? k : n - WS_SIMILARITY_MAX_DEPTH + k;

      g_assert_cmpint (st->op, ==, WS_ALIGN_MATCH);
      g_assert_cmpuint (st->left, ==, expect);
      g_assert_cmpuint (st->right, ==, expect);
    }
  g_assert_cmpfloat (ws_similarity_sim (sim, f, n, f, n), ==, 1.0);
}

/* ------------------------------------------------------------------ */
/* Through the real binary                                              */

static void
run_cli_v (WsCliRun           *run,
           const char * const *args)
{
  ws_cli_run_argv (run, NULL, args);
}

#define run_cli(run, ...) \
  G_STMT_START { \
    const char *run_args_[] = { __VA_ARGS__, NULL }; \
    run_cli_v ((run), run_args_); \
  } G_STMT_END

/* A JSON trace with one wait whose stack is @depth frames deep. */
static char *
write_deep_trace (guint depth)
{
  g_autoptr(GString) s = g_string_new ("{\"format\": \"waitscope-trace\", \"version\": 1, \"frames\": [");
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), "ws-hostile-XXXXXX.json", NULL);
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  for (guint k = 0; k < depth; k++)
    g_string_append_printf (s, "%s{\"function\": \"f%u\", \"module\": \"/usr/bin/deep\"}", k ? "," : "", k);
  g_string_append (s, "], \"stacks\": [[], [");
  for (guint k = 0; k < depth; k++)
    g_string_append_printf (s, "%s%u", k ? "," : "", k);
  g_string_append (s, "]], \"threads\": [{\"tid\": 7, \"pid\": 7, \"name\": \"deep\"}], "
                      "\"events\": [{\"kind\": \"wait\", \"t\": 1000, \"dur\": 5000000, \"tid\": 7, "
                      "\"stack\": 1, \"state\": \"S\"}]}\n");
  g_file_set_contents (path, s->str, s->len, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_cli_deep_stack (void)
{
  g_autofree char *path = write_deep_trace (50000);
  const char *commands[] = { "mine", "cluster" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      run_cli (&run, commands[i], "--json", path);
      g_assert_cmpint (run.status, ==, 0);
      json_parser_load_from_data (parser, run.out, -1, &error);
      g_assert_no_error (error);
    }
  g_unlink (path);
}

static char *
write_temp (const char *suffix,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *templ = g_strdup_printf ("ws-hostile-XXXXXX%s", suffix);
  char *path = g_build_filename (g_get_tmp_dir (), templ, NULL);
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* Exit 1, with FILE:LINE: and the words "out of range". */
static void
assert_rejected (const char *path,
                 guint       line,
                 const char *what)
{
  g_auto(WsCliRun) run = { 0 };
  g_autofree char *where = g_strdup_printf ("%s:%u: ", path, line);

  run_cli (&run, "info", path);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, where));
  g_assert_nonnull (strstr (run.err, "out of range"));
  if (what != NULL)
    g_assert_nonnull (strstr (run.err, what));
  g_assert_null (strstr (run.err, "no timestamp"));
}

#define JSON_HEAD "{\"format\": \"waitscope-trace\", \"version\": 1,\n" \
                  "\"threads\": [{\"tid\": 1, \"pid\": 1, \"name\": \"a\"}],\n"

/* Times near INT64_MIN / INT64_MAX are refused where they are read. */
static void
test_times_out_of_range (void)
{
  const char *json[] = {
    JSON_HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": -9223372036854775808, \"dur\": 5, \"tid\": 1}]}\n",
    JSON_HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 9223372036854775807, \"dur\": 5, \"tid\": 1}]}\n",
    JSON_HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 0, \"dur\": 9223372036854775807, \"tid\": 1}]}\n",
    JSON_HEAD "\"events\": [{\"kind\": \"marker\", \"t\": 0, \"tid\": 1, \"name\": \"b\"}],\n"
              "\"scenario_instances\": [\n{\"scenario\": \"s\", \"tid\": 1, \"t0\": 0, "
              "\"t1\": 9223372036854775000, \"begin\": 0, \"end\": 0}]}\n",
  };
  const char *perf =
    "python3 12345/12345 [000] 1000.000001: sched:sched_switch: prev_comm=python3 prev_pid=12345 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
    "python3 12345/12345 [000] 9223372036.854775: sched:sched_switch: prev_comm=python3 prev_pid=12345 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
  g_autofree char *perf_path = write_temp (".txt", perf);

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autofree char *path = write_temp (".json", json[i]);

      assert_rejected (path, i < 3 ? 4 : 5, NULL);
      g_unlink (path);
    }
  assert_rejected (perf_path, 2, "timestamp");
  g_unlink (perf_path);
}

/* The extreme times that are accepted give exact spans, and no command
 * dies on them (UBSan, in the sanitizer build, checks the arithmetic). */
static void
test_times_at_limits (void)
{
  g_autofree char *path = write_temp (".json",
    JSON_HEAD "\"events\": [{\"kind\": \"wait\", \"t\": -2305843009213693952, "
              "\"dur\": 2305843009213693952, \"tid\": 1, \"stack\": [\"f (m)\"]},\n"
              "{\"kind\": \"wait\", \"t\": 2305843009213693952, \"dur\": 2305843009213693952, "
              "\"tid\": 1, \"stack\": [\"g (m)\"]}]}\n");
  const char *commands[] = { "info", "scenarios", "inspect", "mine", "cluster", "waitgraph",
                             "readytree", "critical-path" };
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *trace;

  run_cli (&run, "info", "--json", path);
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  trace = json_array_get_object_element (json_object_get_array_member (
            json_node_get_object (json_parser_get_root (parser)), "traces"), 0);
  g_assert_cmpint (json_object_get_int_member (trace, "start"), ==, WS_TIME_MIN);
  g_assert_cmpint (json_object_get_int_member (trace, "end"), ==, 2 * WS_TIME_MAX);
  g_assert_cmpint (json_object_get_int_member (trace, "duration"), ==, 2 * WS_TIME_MAX - WS_TIME_MIN);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(WsCliRun) each = { 0 };

      run_cli (&each, commands[i], "--json", path);
      /* Exit 0, or 1/2 with a message: never a signal. */
      g_assert_cmpint (each.status, >=, 0);
      g_assert_cmpint (each.status, <=, 2);
    }
  g_unlink (path);
}

/* Replaces every @from in @s by @to. */
static void
replace_all (GString    *s,
             const char *from,
             const char *to)
{
  g_string_replace (s, from, to, 0);
}

/*
 * Names that are not UTF-8 (a thread's comm, symbols, a module, the file
 * name itself) come out of every --json output as valid UTF-8 JSON, with
 * U+FFFD for the bad bytes.
 */
static void
test_json_output_is_utf8 (void)
{
  g_autofree char *seed = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                            "py-locks-start.txt", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad-\xff-name.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GError) error = NULL;
  const char *by_path[] = { "info", "scenarios", "mine", "cluster" };
  const char *by_tid[] = { "waitgraph", "readytree", "critical-path", "inspect" };

  g_file_get_contents (seed, &contents, NULL, &error);
  g_assert_no_error (error);
  s = g_string_new (contents);
  replace_all (s, "perf 11591/11591", "pe\xffrf 11591/11591");
  replace_all (s, "perf:11591/11591", "pe\xffrf:11591/11591");
  replace_all (s, "comm=migration/0", "comm=migra\xfe\xfftion/0");
  replace_all (s, "schedule", "sche\xc3" "dule");
  replace_all (s, "([kernel.kallsyms])", "([ker\xe9nel.kallsyms])");
  g_file_set_contents (path, s->str, s->len, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (by_path) + G_N_ELEMENTS (by_tid); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (i < G_N_ELEMENTS (by_path))
        run_cli (&run, by_path[i], "--json", path);
      else
        run_cli (&run, by_tid[i - G_N_ELEMENTS (by_path)], "--tid", "11591", "--format", "json",
                 "--trace", path);
      g_test_message ("%s", i < G_N_ELEMENTS (by_path) ? by_path[i] : by_tid[i - G_N_ELEMENTS (by_path)]);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_utf8_validate (run.out, -1, NULL));
      json_parser_load_from_data (parser, run.out, -1, &error);
      g_assert_no_error (error);
      if (i == 0)
        {
          g_assert_nonnull (strstr (run.out, "bad-\xef\xbf\xbd-name"));   /* the path */
          g_assert_nonnull (strstr (run.out, "sche\xef\xbf\xbd" "dule"));   /* a symbol */
        }
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* A FIFO nobody writes to: the CLI gives up after WAITSCOPE_FIFO_TIMEOUT
 * seconds with a message; the loader returns as soon as it is cancelled
 * (the GUI's Cancel). */
static gpointer
load_in_thread (gpointer data)
{
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (g_object_get_data (data, "path"), NULL, NULL, NULL, data, &error);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
  return NULL;
}

static void
test_fifo_without_writer (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "trace.fifo", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "WAITSCOPE_FIFO_TIMEOUT", "1", TRUE);
  const char *args[] = { "info", fifo, NULL };
  g_auto(WsCliRun) run = { 0 };
  GThread *thread;
  gint64 start;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  start = g_get_monotonic_time ();
  ws_cli_run_argv (&run, (const char * const *) env, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, fifo));
  g_assert_nonnull (strstr (run.err, "nothing was written to it within 1 second"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);

  g_object_set_data_full (G_OBJECT (cancellable), "path", g_strdup (fifo), g_free);
  thread = g_thread_new ("load", load_in_thread, cancellable);
  g_usleep (300 * 1000);
  start = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  g_unlink (fifo);
  g_rmdir (dir);
}

/* An SQLite file with one table and the given user_version. */
static void
make_sqlite (const char *path,
             int         version)
{
  sqlite3 *db = NULL;
  g_autofree char *sql = g_strdup_printf ("CREATE TABLE mine (x INTEGER); INSERT INTO mine VALUES (42); "
                                          "PRAGMA user_version = %d;", version);

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static GBytes *
file_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

/*
 * Read-only history commands never write, and a refused file stays byte
 * for byte what it was: an SQLite file that is not a history (user_version
 * 0) and one from a newer Waitscope (user_version 99), under `history
 * stats`, `history top-functions` and, for the newer one, `history add`;
 * a real store under `history stats`.
 */
static void
test_history_untouched (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autofree char *foreign = g_build_filename (dir, "foreign.sqlite", NULL);
  g_autofree char *future = g_build_filename (dir, "future.sqlite", NULL);
  g_autofree char *real = g_build_filename (dir, "real.sqlite", NULL);
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                             "py-locks-start.txt", NULL);
  struct { const char *path; const char *action; const char *says; } cases[] = {
    { foreign, "stats", "not a Waitscope history" },
    { foreign, "top-functions", "not a Waitscope history" },
    { future, "stats", "newer than this" },
    { future, "top-functions", "newer than this" },
    { future, "add", "newer than this" },
  };
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;

  make_sqlite (foreign, 0);
  make_sqlite (future, 99);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      g_autoptr(GBytes) was = file_bytes (cases[i].path);
      g_autoptr(GBytes) is = NULL;
      g_autofree char *opt = g_strdup_printf ("--history=%s", cases[i].path);

      if (g_str_equal (cases[i].action, "add"))
        run_cli (&run, "history", "add", opt, trace);
      else
        run_cli (&run, "history", cases[i].action, opt);
      g_test_message ("history %s on %s: %s", cases[i].action, cases[i].path, run.err);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_nonnull (strstr (run.err, cases[i].says));
      is = file_bytes (cases[i].path);
      g_assert_true (g_bytes_equal (was, is));
    }

  /* A real store: recorded once, then only read. */
  {
    g_auto(WsCliRun) add = { 0 };
    g_auto(WsCliRun) stats = { 0 };
    g_autofree char *opt = g_strdup_printf ("--history=%s", real);

    run_cli (&add, "history", "add", opt, trace);
    g_assert_cmpint (add.status, ==, 0);
    before = file_bytes (real);
    run_cli (&stats, "history", "stats", opt);
    g_assert_cmpint (stats.status, ==, 0);
    after = file_bytes (real);
    g_assert_true (g_bytes_equal (before, after));
  }

  for (const char *const *f = (const char *const[]) { foreign, future, real, NULL }; *f != NULL; f++)
    {
      g_autofree char *wal = g_strconcat (*f, "-wal", NULL);
      g_autofree char *shm = g_strconcat (*f, "-shm", NULL);

      g_unlink (*f);
      g_unlink (wal);
      g_unlink (shm);
    }
  g_rmdir (dir);
}

/* "info -- -x" reads the file "-x". */
static void
test_double_dash (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-hostile-XXXXXX", NULL);
  g_autofree char *seed = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "corpus", "perf-text",
                                            "py-locks-start.txt", NULL);
  g_autofree char *dash = g_build_filename (dir, "-x", NULL);
  g_autofree char *contents = NULL;
  const char *args[] = { "info", "--", "-x", NULL };
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;
  gsize len;

  g_file_get_contents (seed, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (dash, contents, len, &error);
  g_assert_no_error (error);
  /* "-x" relative to the folder it is in. */
  ws_cli_run_in_dir (&run, dir, NULL, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "-x (-x)"));
  g_unlink (dash);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile/mine-50k-frames", test_mine_50k);
  g_test_add_func ("/hostile/mine-deep-branches", test_mine_deep_branches);
  g_test_add_func ("/hostile/cluster-20k-frames-bounded", test_cluster_20k_bounded);
  g_test_add_func ("/hostile/align-deep-view", test_align_deep_view);
  g_test_add_func ("/hostile/cli-deep-stack", test_cli_deep_stack);
  g_test_add_func ("/hostile/times-out-of-range", test_times_out_of_range);
  g_test_add_func ("/hostile/times-at-limits", test_times_at_limits);
  g_test_add_func ("/hostile/json-output-is-utf8", test_json_output_is_utf8);
  g_test_add_func ("/hostile/fifo-without-writer", test_fifo_without_writer);
  g_test_add_func ("/hostile/history-untouched", test_history_untouched);
  g_test_add_func ("/hostile/double-dash", test_double_dash);
  return g_test_run ();
}
