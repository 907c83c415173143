/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli info, convert and scenarios: the real binary (env WS_CLI)
 * run as a user would, exit codes checked, --json output parsed and
 * compared with the numbers of tests/data/hand-built.json worked out by hand
 * (see the top of test-json-trace.c).  The shared time parser and
 * formatters are tested directly.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-common.h"
#include "ws-cli-test-util.h"
#include "ws-error.h"
#include "ws-scenario-summary.h"

#define BASE G_GINT64_CONSTANT (1000000000000)
#define US(x) (BASE + (gint64) (x) * 1000)

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static JsonNode *
parse_output (const WsCliRun *run)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (run->status != 0)
    g_printerr ("%s", run->err);
  g_assert_cmpint (run->status, ==, 0);
  json_parser_load_from_data (parser, run->out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
find_thread (JsonArray *threads,
             gint64     tid)
{
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *t = json_array_get_object_element (threads, i);
      if (json_object_get_int_member (t, "tid") == tid)
        return t;
    }
  g_assert_not_reached ();
}

static void
assert_thread (JsonArray  *threads,
               gint64      tid,
               gint64      pid,
               const char *name,
               const char *process,
               gint64      waits,
               gint64      wait_total,
               gint64      unknown,
               gint64      hardware,
               gint64      run_total,
               gint64      samples)
{
  JsonObject *t = find_thread (threads, tid);

  g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, pid);
  g_assert_cmpstr (json_object_get_string_member (t, "name"), ==, name);
  g_assert_cmpstr (json_object_get_string_member (t, "process"), ==, process);
  g_assert_cmpint (json_object_get_int_member (t, "waits"), ==, waits);
  g_assert_cmpint (json_object_get_int_member (t, "wait_total"), ==, wait_total);
  g_assert_cmpint (json_object_get_int_member (t, "waits_readier_unknown"), ==, unknown);
  g_assert_cmpint (json_object_get_int_member (t, "waits_readier_hardware"), ==, hardware);
  g_assert_cmpint (json_object_get_int_member (t, "run_total"), ==, run_total);
  g_assert_cmpint (json_object_get_int_member (t, "samples"), ==, samples);
}

static void
assert_top_wait (JsonArray  *waits,
                 guint       rank,
                 gint64      tid,
                 gint64      t_us,
                 gint64      cost_us,
                 gint64      latency_us,
                 const char *readier,
                 gint64      readier_tid,
                 const char *waiting_leaf,
                 const char *unwait_leaf)
{
  JsonObject *w = json_array_get_object_element (waits, rank);
  JsonObject *r = json_object_get_object_member (w, "readier");
  JsonArray *stack = json_object_get_array_member (w, "waiting_stack");

  g_assert_cmpint (json_object_get_int_member (w, "tid"), ==, tid);
  g_assert_cmpint (json_object_get_int_member (w, "time"), ==, US (t_us));
  g_assert_cmpint (json_object_get_int_member (w, "cost"), ==, cost_us * 1000);
  if (latency_us < 0)
    g_assert_true (json_object_get_null_member (w, "ready_latency"));
  else
    g_assert_cmpint (json_object_get_int_member (w, "ready_latency"), ==, latency_us * 1000);
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, readier);
  if (readier_tid >= 0)
    g_assert_cmpint (json_object_get_int_member (r, "tid"), ==, readier_tid);
  else
    g_assert_false (json_object_has_member (r, "tid"));

  /* Leaf first. */
  g_assert_cmpstr (json_array_get_string_element (stack, 0), ==, waiting_leaf);
  if (unwait_leaf == NULL)
    g_assert_true (json_object_get_null_member (w, "unwait_stack"));
  else
    g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (w, "unwait_stack"), 0),
                     ==, unwait_leaf);
}

static void
test_info_hand_built (void)
{
  g_autofree char *path = ws_cli_test_data_path ("hand-built.json");
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *trace, *events;
  JsonArray *threads, *waits, *stack;

  ws_cli_run (&run, "info", "--json", "--top", "6", path, NULL);
  root = parse_output (&run);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "stack_order"), ==, "leaf-first");
  trace = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "traces"), 0);

  g_assert_cmpstr (json_object_get_string_member (trace, "name"), ==, "hand-built");
  g_assert_cmpint (json_object_get_int_member (trace, "start"), ==, US (0));
  g_assert_cmpint (json_object_get_int_member (trace, "end"), ==, US (1600));
  g_assert_cmpint (json_object_get_int_member (trace, "duration"), ==, 1600000);
  g_assert_cmpint (json_object_get_int_member (trace, "n_events"), ==, 28);
  g_assert_cmpint (json_object_get_int_member (trace, "n_scenario_instances"), ==, 3);
  events = json_object_get_object_member (trace, "events");
  g_assert_cmpint (json_object_get_int_member (events, "running"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (events, "wait"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (events, "unwait"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (events, "hw-service"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (events, "preempt"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (events, "marker"), ==, 7);

  /* Threads, most waiting first. */
  threads = json_object_get_array_member (trace, "threads");
  g_assert_cmpuint (json_array_get_length (threads), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (threads, 0), "tid"), ==, 102);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (threads, 1), "tid"), ==, 100);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (threads, 2), "tid"), ==, 101);
  assert_thread (threads, 100, 100, "main", "app", 2, 550000, 1, 0, 780000, 1);
  assert_thread (threads, 101, 100, "worker-a", "app", 1, 500000, 0, 1, 190000, 0);
  assert_thread (threads, 102, 100, "worker-b", "app", 3, 1180000, 0, 1, 350000, 0);
  assert_thread (threads, 0, 0, "swapper", "swapper", 0, 0, 0, 0, 0, 0);
  g_assert_cmpint (json_object_get_int_member (find_thread (threads, 100), "preempt_total"), ==, 50000);
  g_assert_cmpint (json_object_get_int_member (find_thread (threads, 100), "sampled_run_total"), ==, 4000);

  /* All six waits, costliest first. */
  waits = json_object_get_array_member (trace, "top_waits");
  g_assert_cmpuint (json_array_get_length (waits), ==, 6);
  assert_top_wait (waits, 0, 102, 200, 600, 30, "hardware", -1,
                   "io_schedule ([kernel.kallsyms])", "blk_mq_end_request ([kernel.kallsyms])");
  assert_top_wait (waits, 1, 101, 405, 500, 5, "hardware", -1,
                   "do_nanosleep ([kernel.kallsyms])", "hrtimer_wakeup ([kernel.kallsyms])");
  assert_top_wait (waits, 2, 102, 900, 480, 40, "thread", 100,
                   "pipe_read ([kernel.kallsyms])", "pipe_write ([kernel.kallsyms])");
  assert_top_wait (waits, 3, 100, 100, 300, 20, "thread", 101,
                   "futex_wait ([kernel.kallsyms])", "futex_wake ([kernel.kallsyms])");
  assert_top_wait (waits, 4, 100, 1000, 250, -1, "unknown", -1, "futex_wait ([kernel.kallsyms])", NULL);
  assert_top_wait (waits, 5, 102, 1500, 100, -1, "unfinished", -1, "pipe_read ([kernel.kallsyms])", NULL);

  stack = json_object_get_array_member (json_array_get_object_element (waits, 3), "waiting_stack");
  g_assert_cmpuint (json_array_get_length (stack), ==, 4);
  g_assert_cmpstr (json_array_get_string_element (stack, 3), ==, "main (/usr/bin/app)");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (waits, 3), "state"), ==, "S");

  /* --top limits the list. */
  {
    g_auto(WsCliRun) top = { 0 };
    g_autoptr(JsonNode) top_root = NULL;
    ws_cli_run (&top, "info", "--json", "--top", "2", path, NULL);
    top_root = parse_output (&top);
    trace = json_array_get_object_element (json_object_get_array_member (json_node_get_object (top_root), "traces"), 0);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (trace, "top_waits")), ==, 2);
  }
}

static void
test_info_text (void)
{
  g_autofree char *path = ws_cli_test_data_path ("hand-built.json");
  g_auto(WsCliRun) run = { 0 };

  ws_cli_run (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "28: 10 running, 6 wait, 2 unwait, 2 hw-service, 1 preempt, 7 marker"));
  /* who ended each wait: the sentence every view writes
   * (ws_wait_readier_dup_sentence()), the glossary's words included */
  g_assert_nonnull (strstr (run.out, "\n      disk I/O done\n"));
  g_assert_nonnull (strstr (run.out, "\n      timer expired\n"));
  g_assert_nonnull (strstr (run.out, "\n      no wake-up recorded\n"));
  g_assert_nonnull (strstr (run.out, "\n      woken by worker-a (101)\n"));
  g_assert_nonnull (strstr (run.out, "\n      still waiting when the recording ended\n"));
  g_assert_nonnull (strstr (run.out, "worker-b (102) at 1000.000200 s: cost 600.0 µs, ready latency 30.00 µs, state D"));
  g_assert_nonnull (strstr (run.out, "1.180 ms"));
}

static void
test_scenarios_hand_built (void)
{
  g_autofree char *path = ws_cli_test_data_path ("hand-built.json");
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *instances, *summary;
  JsonObject *s;
  static const gint64 expect[][2] = { { 10, 590 }, { 700, 1300 }, { 1350, 1390 } };

  ws_cli_run (&run, "scenarios", "--json", path, NULL);
  root = parse_output (&run);
  instances = json_object_get_array_member (json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "traces"), 0), "instances");
  g_assert_cmpuint (json_array_get_length (instances), ==, 3);
  for (guint k = 0; k < 3; k++)
    {
      JsonObject *i = json_array_get_object_element (instances, k);
      g_assert_cmpstr (json_object_get_string_member (i, "scenario"), ==, "transaction");
      g_assert_cmpint (json_object_get_int_member (i, "tid"), ==, 100);
      g_assert_cmpstr (json_object_get_string_member (i, "thread"), ==, "main");
      g_assert_cmpint (json_object_get_int_member (i, "t0"), ==, US (expect[k][0]));
      g_assert_cmpint (json_object_get_int_member (i, "t1"), ==, US (expect[k][1]));
      g_assert_cmpint (json_object_get_int_member (i, "duration"), ==, (expect[k][1] - expect[k][0]) * 1000);
    }

  /* Durations 40, 580, 600 µs: nearest rank p50 = 2nd, p90 = 3rd. */
  summary = json_object_get_array_member (json_node_get_object (root), "summary");
  g_assert_cmpuint (json_array_get_length (summary), ==, 1);
  s = json_array_get_object_element (summary, 0);
  g_assert_cmpint (json_object_get_int_member (s, "count"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (s, "min"), ==, 40000);
  g_assert_cmpint (json_object_get_int_member (s, "p50"), ==, 580000);
  g_assert_cmpint (json_object_get_int_member (s, "p90"), ==, 600000);
  g_assert_cmpint (json_object_get_int_member (s, "max"), ==, 600000);
}

static void
test_scenarios_user_rules (void)
{
  g_autofree char *path = ws_cli_test_data_path ("hand-built.json");
  g_autofree char *rules = tmp_path ("rules.ini");
  g_auto(WsCliRun) run = { 0 };
  g_auto(WsCliRun) text = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonArray *summary;

  g_assert_true (g_file_set_contents (rules, "[scenario locked]\nbegin=sdt_postgresql:transaction__start\n"
                                      "end=sdt_postgresql:transaction__abort\n", -1, NULL));
  /* Two traces (the same file twice): the summary pools them. */
  ws_cli_run (&run, "scenarios", "--json", "--scenario", "committed=sdt_postgresql:transaction__start,"
           "sdt_postgresql:transaction__commit", "--scenario-file", rules, path, path, NULL);
  root = parse_output (&run);
  summary = json_object_get_array_member (json_node_get_object (root), "summary");
  g_assert_cmpuint (json_array_get_length (summary), ==, 3);
  /* Per trace: transaction 3; locked (start → abort only) [1350,1390], as
   * the starts at 10 and 700 are superseded by the next start before any
   * abort; committed [10,590] and [700,1300]. */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (summary, 0), "scenario"), ==, "transaction");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (summary, 0), "count"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (summary, 1), "scenario"), ==, "locked");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (summary, 1), "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (summary, 1), "max"), ==, 40000);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (summary, 2), "scenario"), ==, "committed");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (summary, 2), "count"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (summary, 2), "min"), ==, 580000);

  ws_cli_run (&text, "scenarios", path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "3 scenario instances"));
  g_assert_nonnull (strstr (text.out, "40.00 µs"));
}

/* pg-tpcb: the README of the traces gives transaction latency p50 6.6 ms
 * and max 45 ms (1368 transactions in the window, some cut by its edges). */
static void
test_scenarios_pg_tpcb (void)
{
  g_autofree char *path = ws_cli_test_data_path ("pg-tpcb.perf.txt.gz");
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *s;

  ws_cli_run (&run, "scenarios", "--json", path, NULL);
  root = parse_output (&run);
  s = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "summary"), 0);
  g_assert_cmpstr (json_object_get_string_member (s, "scenario"), ==, "transaction");
  g_assert_cmpint (json_object_get_int_member (s, "count"), >, 1300);
  g_assert_cmpint (json_object_get_int_member (s, "count"), <=, 1368);
  g_assert_cmpint (json_object_get_int_member (s, "p50"), >=, 6550000);
  g_assert_cmpint (json_object_get_int_member (s, "p50"), <, 6650000);
  g_assert_cmpint (json_object_get_int_member (s, "max"), >=, 44500000);
  g_assert_cmpint (json_object_get_int_member (s, "max"), <, 45500000);
}

/* info --json of a trace and of its conversion agree but for the path. */
static void
assert_same_info (const char *a,
                  const char *b)
{
  g_auto(WsCliRun) ra = { 0 };
  g_auto(WsCliRun) rb = { 0 };
  g_autoptr(JsonNode) na = NULL;
  g_autoptr(JsonNode) nb = NULL;
  JsonObject *ta, *tb;

  ws_cli_run (&ra, "info", "--json", "--top", "20", a, NULL);
  ws_cli_run (&rb, "info", "--json", "--top", "20", b, NULL);
  na = parse_output (&ra);
  nb = parse_output (&rb);
  ta = json_array_get_object_element (json_object_get_array_member (json_node_get_object (na), "traces"), 0);
  tb = json_array_get_object_element (json_object_get_array_member (json_node_get_object (nb), "traces"), 0);
  g_assert_cmpstr (json_object_get_string_member (ta, "path"), ==, a);
  g_assert_cmpstr (json_object_get_string_member (tb, "path"), ==, b);
  json_object_remove_member (ta, "path");
  json_object_remove_member (tb, "path");
  g_assert_true (json_node_equal (na, nb));
}

static void
test_convert (void)
{
  g_autofree char *hand = ws_cli_test_data_path ("hand-built.json");
  g_autofree char *perf = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *out = tmp_path ("hand.json");
  g_autofree char *out_gz = tmp_path ("py-locks.json.gz");
  g_autofree char *again = tmp_path ("py-locks-again.json");
  g_auto(WsCliRun) r1 = { 0 };
  g_auto(WsCliRun) r2 = { 0 };
  g_auto(WsCliRun) r3 = { 0 };
  g_autofree char *contents = NULL;

  ws_cli_run (&r1, "convert", hand, "-o", out, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "");
  assert_same_info (hand, out);
  /* The instances travel in the file. */
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"scenario_instances\": [\n    {\"scenario\": \"transaction\""));

  ws_cli_run (&r2, "convert", perf, "-o", out_gz, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  assert_same_info (perf, out_gz);

  /* JSON → JSON. */
  ws_cli_run (&r3, "convert", out_gz, "--output", again, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  assert_same_info (perf, again);
}

/* Bad input: exit 1, "waitscope-cli: FILE:LINE: …" on stderr. */
static void
assert_bad_input (const char *command,
                  const char *path,
                  guint       line,
                  const char *detail)
{
  g_auto(WsCliRun) run = { 0 };
  g_autofree char *prefix = line ? g_strdup_printf ("waitscope-cli: %s:%u: ", path, line)
                                 : g_strdup_printf ("waitscope-cli: %s", path);
  g_autofree char *out = tmp_path ("never-written.json");

  if (g_str_equal (command, "convert"))
    ws_cli_run (&run, command, path, "-o", out, NULL);
  else
    ws_cli_run (&run, command, path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  if (!g_str_has_prefix (run.err, prefix))
    g_error ("stderr “%s” does not start with “%s”", run.err, prefix);
  if (detail && strstr (run.err, detail) == NULL)
    g_error ("stderr “%s” does not say “%s”", run.err, detail);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_bad_input (void)
{
  g_autofree char *hand = ws_cli_test_data_path ("hand-built.json");
  g_autofree char *contents = NULL;
  g_autofree char *truncated = tmp_path ("truncated.json");
  g_autofree char *garbage = tmp_path ("garbage.bin");
  g_autofree char *missing = tmp_path ("missing.json");
  g_autofree char *empty = tmp_path ("empty.json");
  g_autofree char *huge = tmp_path ("huge.json");
  g_autofree char *gz = tmp_path ("cut.json.gz");
  g_autofree char *gz_full = tmp_path ("full.json.gz");
  g_autoptr(GString) doc = g_string_new (NULL);
  g_auto(WsCliRun) conv = { 0 };
  char bytes[2048];
  gsize len;

  g_assert_true (g_file_get_contents (hand, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (truncated, contents, strstr (contents, "\"processes\"") - contents, NULL));
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (i * 131 + 7) % 256;
  g_assert_true (g_file_set_contents (garbage, bytes, sizeof bytes, NULL));
  g_assert_true (g_file_set_contents (missing, "{\"format\": \"waitscope-trace\", \"version\": 1,\n"
                                      "\"threads\": [{\"tid\": 1}],\n\"events\": [\n{\"t\": 5, \"tid\": 1}]}", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_string_append (doc, "{\"format\": \"waitscope-trace\", \"version\": 1,\n\"threads\": [{\"tid\": 1,\n\"name\": \"");
  for (guint i = 0; i < 10 * 1024 * 1024; i++)
    g_string_append_c (doc, 'x');
  g_string_append (doc, "\"}]}\n");
  g_assert_true (g_file_set_contents (huge, doc->str, doc->len, NULL));

  ws_cli_run (&conv, "convert", hand, "-o", gz_full, NULL);
  g_assert_cmpint (conv.status, ==, 0);
  g_free (contents);
  g_assert_true (g_file_get_contents (gz_full, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (gz, contents, len / 2, NULL));

  assert_bad_input ("info", truncated, 32, "end of the input");
  assert_bad_input ("info", garbage, 2, NULL);  /* the line of its first NUL byte */
  assert_bad_input ("info", missing, 4, "event 0: missing member “kind”");
  assert_bad_input ("info", empty, 1, "empty");
  assert_bad_input ("info", huge, 3, "longer than");
  assert_bad_input ("info", gz, 0, "compressed data ends early");
  assert_bad_input ("scenarios", truncated, 32, NULL);
  assert_bad_input ("convert", missing, 4, NULL);
  assert_bad_input ("convert", gz, 0, NULL);
  assert_bad_input ("info", "/nonexistent/trace.json", 0, NULL);
}

static void
assert_usage_error (const char *first,
                    ...)
{
  g_auto(WsCliRun) run = { 0 };
  va_list args;

  va_start (args, first);
  ws_cli_run_valist (&run, NULL, first, args);
  va_end (args);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.err, !=, "");
}

static void
test_usage_errors (void)
{
  g_autofree char *hand = ws_cli_test_data_path ("hand-built.json");

  assert_usage_error (NULL, NULL);
  assert_usage_error ("frobnicate", NULL);
  assert_usage_error ("info", NULL);
  assert_usage_error ("info", "--no-such-option", hand, NULL);
  assert_usage_error ("info", "--top", "many", hand, NULL);
  assert_usage_error ("info", "--top", "-1", hand, NULL);
  assert_usage_error ("scenarios", NULL);
  assert_usage_error ("scenarios", "--scenario", "nonsense", hand, NULL);
  assert_usage_error ("scenarios", "--scenario", "x=only-begin", hand, NULL);
  assert_usage_error ("convert", hand, NULL);
  assert_usage_error ("convert", "-o", "x.json", NULL);
  assert_usage_error ("convert", hand, hand, "-o", "x.json", NULL);
}

static void
test_help (void)
{
  g_auto(WsCliRun) run = { 0 };
  g_auto(WsCliRun) info = { 0 };

  ws_cli_run (&run, "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "convert"));
  g_assert_nonnull (strstr (run.out, "scenarios"));
  ws_cli_run (&info, "info", "--help", NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "--top"));
}

/* The shared helpers, directly. */
static void
test_parse_time (void)
{
  static const struct { const char *text; gint64 ns; } good[] = {
    { "1986.6s", G_GINT64_CONSTANT (1986600000000) },
    { "1986.603075s", G_GINT64_CONSTANT (1986603075000) },
    { "12ms", 12000000 },
    { "0.5ms", 500000 },
    { "40us", 40000 },
    { "40µs", 40000 },
    { "1.5us", 1500 },
    { "250ns", 250 },
    { "250", G_GINT64_CONSTANT (250000000000) },
    { "1986.603075", G_GINT64_CONSTANT (1986603075000) },
    { "1.000ns", 1 },
    { ".25s", 250000000 },
    { "-3ms", -3000000 },
    { "9223372036854775807ns", G_MAXINT64 },
    { "9223372036.854775807s", G_MAXINT64 },
  };
  static const char *bad[] = {
    "", "s", "12 ms", "12min", "1.5ns", "1e3", "1.0000000001s", "9223372037s", "99999999999999999999", "--1", "9223372036854775807",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      WsTime t = 0;
      g_assert_true (cli_parse_time (good[i].text, &t, &error));
      g_assert_no_error (error);
      g_assert_cmpint (t, ==, good[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      WsTime t = 0;
      if (cli_parse_time (bad[i], &t, &error))
        g_error ("“%s” parsed as %" G_GINT64_FORMAT, bad[i], t);
      g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
    }
}

static void
test_format (void)
{
  static const struct { gint64 ns; const char *text; } durations[] = {
    { 0, "0 ns" }, { 999, "999 ns" }, { 1000, "1.000 µs" }, { 30000, "30.00 µs" },
    { 600000, "600.0 µs" }, { 1180000, "1.180 ms" }, { 44890000, "44.89 ms" },
    { 2500000000, "2.500 s" }, { -1500, "-1.500 µs" },
  };
  WsTime sorted[] = { 40, 580, 600 };
  WsTime ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autofree char *text = cli_format_duration (durations[i].ns);
      g_assert_cmpstr (text, ==, durations[i].text);
    }
  {
    g_autofree char *a = cli_format_timestamp (G_GINT64_CONSTANT (1986603075000));
    g_autofree char *b = cli_format_timestamp (G_GINT64_CONSTANT (1669614202008));
    g_assert_cmpstr (a, ==, "1986.603075 s");
    g_assert_cmpstr (b, ==, "1669.614202008 s");
  }

  g_assert_cmpint (ws_time_percentile (sorted, 3, 50), ==, 580);
  g_assert_cmpint (ws_time_percentile (sorted, 3, 90), ==, 600);
  g_assert_cmpint (ws_time_percentile (sorted, 3, 0), ==, 40);
  g_assert_cmpint (ws_time_percentile (ten, 10, 50), ==, 5);
  g_assert_cmpint (ws_time_percentile (ten, 10, 90), ==, 9);
  g_assert_cmpint (ws_time_percentile (ten, 10, 91), ==, 10);
  g_assert_cmpint (ws_time_percentile (ten, 10, 100), ==, 10);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ws-cli-XXXXXX", NULL);

  g_test_add_func ("/cli/parse-time", test_parse_time);
  g_test_add_func ("/cli/format", test_format);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/info/hand-built", test_info_hand_built);
  g_test_add_func ("/cli/info/text", test_info_text);
  g_test_add_func ("/cli/scenarios/hand-built", test_scenarios_hand_built);
  g_test_add_func ("/cli/scenarios/user-rules", test_scenarios_user_rules);
  g_test_add_func ("/cli/scenarios/pg-tpcb", test_scenarios_pg_tpcb);
  g_test_add_func ("/cli/convert", test_convert);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/usage-errors", test_usage_errors);

  status = g_test_run ();

  {
    GDir *dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;
    while (dir && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (tmp_dir, name, NULL);
        g_remove (child);
      }
    if (dir)
      g_dir_close (dir);
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}
