/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cli-test-util.h"
#include "ws-graph-export.h"
#include "ws-inspector.h"
#include "ws-perf-importer.h"
#include "ws-trace-loader.h"

/*
 * The hand-built trace (ns).  Processes: app (pid 100: threads app, app-w),
 * db (200), other (300), dbus-daemon (50), kworker/0:1 (60).
 *
 *  app    run [0,10)  w1 [10,100) by app-w  run  w2 [110,200) by db  run
 *         w5 [210,300) by kworker  run  w7 [310,400) "by db" from a timer
 *         interrupt  run  w8 [410,500) no wake-up recorded  run [500,510)
 *  app-w  run [20,50)  w3 [50,90) by dbus-daemon  run [90,120)
 *  dbus   run [40,60)  w4 [60,85) by other  run [85,95)
 *  other  run [0,70)  run [70,100)
 *  db     run [120,150)  run [150,420)
 *  kworker run [220,240)  w6 [240,290) by db  run [290,310)
 *
 * Wait graph of ⟨app, 0, 510⟩ (Fig. 2): app's events; w1 → app-w's run and
 * w3; w2 → db's first run; w5 → kworker's run and w6; w7 → nothing (db's
 * runs end outside it); w8 → unknown; w3 → dbus' run and w4; w4 → other's
 * first run.
 *
 * Groups joined by edges between ordinary threads: {app, db} (w1 stays in
 * app, w2 joins db); {other}.  Noise: dbus-daemon touches {app, db} (w3)
 * and {other} (w4): an over-connection joining app, db and other through
 * dbus-daemon, events w3 and w4, cost 40 + 25.  The kworker touches only
 * {app, db}: nothing to report.  w7's wake-up has hrtimer_wakeup in its
 * stack yet was recorded in db: an interrupt readier (cost 90).  w8:
 * under-connection, 90 of the graph's 565 ns of waits (15.9 % >= 10 %:
 * a warning).
 */
typedef struct {
  WsTestTrace *tt;
  guint A, AW, D, O, B, K;
  guint w1, w2, w3, w4, w5, w6, w7, w8;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;__hrtimer_run_queues;hrtimer_wakeup;try_to_wake_up");

  f->A = ws_test_trace_thread (tt, 100, 100, "app");
  f->AW = ws_test_trace_thread (tt, 101, 100, "app-w");
  f->D = ws_test_trace_thread (tt, 200, 200, "db");
  f->O = ws_test_trace_thread (tt, 300, 300, "other");
  f->B = ws_test_trace_thread (tt, 50, 50, "dbus-daemon");
  f->K = ws_test_trace_thread (tt, 60, 60, "kworker/0:1");

  ws_test_trace_run (tt, f->A, 0, 10, 0);
  f->w1 = ws_test_trace_wait (tt, f->A, 10, 100, 0);
  ws_test_trace_run (tt, f->A, 100, 110, 0);
  f->w2 = ws_test_trace_wait (tt, f->A, 110, 200, 0);
  ws_test_trace_run (tt, f->A, 200, 210, 0);
  f->w5 = ws_test_trace_wait (tt, f->A, 210, 300, 0);
  ws_test_trace_run (tt, f->A, 300, 310, 0);
  f->w7 = ws_test_trace_wait (tt, f->A, 310, 400, 0);
  ws_test_trace_run (tt, f->A, 400, 410, 0);
  f->w8 = ws_test_trace_wait (tt, f->A, 410, 500, 0);
  ws_test_trace_run (tt, f->A, 500, 510, 0);

  ws_test_trace_run (tt, f->AW, 20, 50, 0);
  f->w3 = ws_test_trace_wait (tt, f->AW, 50, 90, 0);
  ws_test_trace_run (tt, f->AW, 90, 120, 0);

  ws_test_trace_run (tt, f->B, 40, 60, 0);
  f->w4 = ws_test_trace_wait (tt, f->B, 60, 85, 0);
  ws_test_trace_run (tt, f->B, 85, 95, 0);

  ws_test_trace_run (tt, f->O, 0, 70, 0);
  ws_test_trace_run (tt, f->O, 70, 100, 0);

  ws_test_trace_run (tt, f->D, 120, 150, 0);
  ws_test_trace_run (tt, f->D, 150, 420, 0);

  ws_test_trace_run (tt, f->K, 220, 240, 0);
  f->w6 = ws_test_trace_wait (tt, f->K, 240, 290, 0);
  ws_test_trace_run (tt, f->K, 290, 310, 0);

  ws_test_trace_wake (tt, f->AW, f->w1, 0);
  ws_test_trace_wake (tt, f->D, f->w2, 0);
  ws_test_trace_wake (tt, f->B, f->w3, 0);
  ws_test_trace_wake (tt, f->O, f->w4, 0);
  ws_test_trace_wake (tt, f->K, f->w5, 0);
  ws_test_trace_wake (tt, f->D, f->w6, 0);
  ws_test_trace_wake (tt, f->D, f->w7, timer);
  ws_test_trace_finish (tt);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  ws_test_trace_free (f->tt);
}

#define IDX(f, built) ws_test_trace_index ((f)->tt, (built))

static void
assert_u32s (GArray        *array,
             const guint32 *expected,
             guint          n)
{
  g_assert_cmpuint (array->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (g_array_index (array, guint32, i), ==, expected[i]);
}

static guint
process_of (WsTrace *trace,
            gint32   pid)
{
  for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
    if (ws_trace_get_process (trace, p)->pid == pid)
      return p;
  g_assert_not_reached ();
}

static void
test_wait_graph_findings (Fixture       *f,
                          gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 510 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);
  g_autoptr(GPtrArray) findings = ws_inspect_wait_graph (graph, NULL);
  const WsFinding *over, *irq, *under;
  guint32 processes[3], events[2];

  /* The graph is as worked out above. */
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), ==, 11 + 6 + 2 + 1);
  g_assert_cmpuint (ws_wait_graph_get_n_edges (graph), ==, 9);

  g_assert_cmpuint (findings->len, ==, 3);
  over = g_ptr_array_index (findings, 0);
  irq = g_ptr_array_index (findings, 1);
  under = g_ptr_array_index (findings, 2);

  g_assert_cmpuint (over->kind, ==, WS_FINDING_OVER_CONNECTION);
  g_assert_cmpuint (over->severity, ==, WS_SEVERITY_WARNING);
  processes[0] = process_of (trace, 100);
  processes[1] = process_of (trace, 200);
  processes[2] = process_of (trace, 300);
  assert_u32s (over->processes, processes, 3);
  assert_u32s (over->threads, (guint32[]) { f->B }, 1);
  events[0] = IDX (f, f->w3);
  events[1] = IDX (f, f->w4);
  if (events[0] > events[1])
    {
      guint32 t = events[0];
      events[0] = events[1];
      events[1] = t;
    }
  assert_u32s (over->events, events, 2);
  g_assert_cmpuint (over->count, ==, 2);
  g_assert_cmpint (over->cost, ==, 65);
  g_assert_nonnull (strstr (over->message, "app (100), db (200), other (300)"));
  g_assert_nonnull (strstr (over->message, "dbus-daemon (50)"));

  g_assert_cmpuint (irq->kind, ==, WS_FINDING_INTERRUPT_READIER);
  g_assert_cmpuint (irq->severity, ==, WS_SEVERITY_WARNING);
  assert_u32s (irq->threads, (guint32[]) { f->D }, 1);
  assert_u32s (irq->events, (guint32[]) { IDX (f, f->w7) }, 1);
  g_assert_cmpint (irq->cost, ==, 90);
  g_assert_nonnull (strstr (irq->message, "db (200)"));

  g_assert_cmpuint (under->kind, ==, WS_FINDING_UNDER_CONNECTION);
  g_assert_cmpuint (under->severity, ==, WS_SEVERITY_WARNING);
  g_assert_cmpuint (under->count, ==, 1);
  g_assert_cmpint (under->cost, ==, 90);
  assert_u32s (under->events, (guint32[]) { IDX (f, f->w8) }, 1);
  assert_u32s (under->threads, (guint32[]) { f->A }, 1);
  g_assert_nonnull (strstr (under->message, "15.9 %"));
}

static void
test_options_change_findings (Fixture       *f,
                              gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 510 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);
  g_autoptr(WsFrameClassifier) no_daemons = ws_frame_classifier_new ();
  g_autoptr(GPtrArray) relaxed = NULL;
  g_autoptr(GPtrArray) plain = NULL;
  WsInspectorOptions options;

  /* 15.9 % is below a 20 % threshold: the under-connection becomes INFO,
   * and sorts after the warnings. */
  ws_inspector_options_init (&options);
  options.under_warning_ratio = 0.20;
  relaxed = ws_inspect_wait_graph (graph, &options);
  g_assert_cmpuint (relaxed->len, ==, 3);
  g_assert_cmpuint (((WsFinding *) g_ptr_array_index (relaxed, 2))->severity, ==, WS_SEVERITY_INFO);

  /* If dbus-daemon is an ordinary process, it joins everyone: no bridge. */
  ws_frame_classifier_clear (no_daemons, WS_FRAME_CATEGORY_DAEMON);
  ws_inspector_options_init (&options);
  options.classifier = no_daemons;
  plain = ws_inspect_wait_graph (graph, &options);
  g_assert_cmpuint (plain->len, ==, 2);
  g_assert_cmpuint (((WsFinding *) g_ptr_array_index (plain, 0))->kind, ==, WS_FINDING_INTERRUPT_READIER);
  g_assert_cmpuint (((WsFinding *) g_ptr_array_index (plain, 1))->kind, ==, WS_FINDING_UNDER_CONNECTION);
}

static void
test_trace_findings (Fixture       *f,
                     gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(GPtrArray) findings = ws_inspect_trace (trace, NULL);
  const WsFinding *irq, *under;
  g_autoptr(WsFinding) copy = NULL;

  g_assert_cmpuint (findings->len, ==, 2);
  irq = g_ptr_array_index (findings, 0);
  under = g_ptr_array_index (findings, 1);
  g_assert_cmpuint (irq->kind, ==, WS_FINDING_INTERRUPT_READIER);
  assert_u32s (irq->events, (guint32[]) { IDX (f, f->w7) }, 1);
  g_assert_cmpuint (under->kind, ==, WS_FINDING_UNDER_CONNECTION);
  g_assert_cmpuint (under->count, ==, 1);
  g_assert_cmpint (under->cost, ==, 90);

  copy = ws_finding_copy (under);
  g_assert_cmpstr (copy->message, ==, under->message);
  g_assert_cmpuint (copy->events->len, ==, 1);
  g_assert_true (copy->events != under->events);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 510 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);
  g_autoptr(GPtrArray) findings = ws_inspect_wait_graph (graph, NULL);
  g_autoptr(JsonNode) root = ws_graph_export_findings_json (trace, findings);
  JsonArray *array = json_node_get_array (root);
  JsonObject *over = json_array_get_object_element (array, 0);
  JsonArray *processes = json_object_get_array_member (over, "processes");

  g_assert_cmpuint (json_array_get_length (array), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (over, "kind"), ==, "over-connection");
  g_assert_cmpstr (json_object_get_string_member (over, "severity"), ==, "warning");
  g_assert_cmpint (json_object_get_int_member (over, "cost"), ==, 65);
  g_assert_cmpuint (json_array_get_length (processes), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (processes, 2), "name"), ==, "other");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (over, "threads"), 0), "tid"), ==, 50);
}

/* On a real recording, the trace-wide under-connection is exactly the
 * waits that have no wake-up event, counted independently. */
static void
test_real_under_connection (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  const WsEvent *ev;
  guint unknown = 0, waits = 0;
  WsTime unknown_cost = 0;
  const WsFinding *under = NULL;

  if (dir == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  path = g_build_filename (dir, "io-fsync.perf.txt.gz", NULL);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  ev = ws_trace_get_events (trace);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ev[i].kind == WS_EVENT_WAIT)
      {
        waits++;
        if (ev[i].peer == WS_NONE)
          {
            unknown++;
            unknown_cost += ws_event_duration (&ev[i]);
          }
      }

  findings = ws_inspect_trace (trace, NULL);
  for (guint i = 0; i < findings->len; i++)
    if (((WsFinding *) g_ptr_array_index (findings, i))->kind == WS_FINDING_UNDER_CONNECTION)
      under = g_ptr_array_index (findings, i);
  g_assert_nonnull (under);
  g_test_message ("io-fsync: %u of %u waits have no recorded readier: %s", unknown, waits, under->message);
  g_assert_cmpuint (under->count, ==, unknown);
  g_assert_cmpint (under->cost, ==, unknown_cost);
  g_assert_cmpuint (under->events->len, ==, 10);
  /* Longest first. */
  for (guint i = 1; i < under->events->len; i++)
    g_assert_cmpint (ws_event_duration (&ev[g_array_index (under->events, guint32, i - 1)]), >=,
                     ws_event_duration (&ev[g_array_index (under->events, guint32, i)]));
}

/* waitscope-cli inspect: trace-wide without --tid, graph-wide with it. */
static void
test_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  g_autofree char *graph_json = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) graph_parser = json_parser_new ();
  JsonArray *findings;
  const WsEvent *ev;
  gint64 unknown = 0, found = -1;

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ev = ws_trace_get_events (trace);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    unknown += ev[i].kind == WS_EVENT_WAIT && ev[i].peer == WS_NONE;

  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "inspect", path, "--format", "json", NULL }, &json, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  findings = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      JsonObject *f = json_array_get_object_element (findings, i);
      if (g_str_equal (json_object_get_string_member (f, "kind"), "under-connection"))
        found = json_object_get_int_member (f, "count");
    }
  g_assert_cmpint (found, ==, unknown);

  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "inspect", path, "--top", "3", NULL }, &text, NULL), ==, 0);
  g_assert_nonnull (strstr (text, "under-connection"));

  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "inspect", path, "--tid", "11585", "--format", "json", NULL },
                                    &graph_json, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (graph_parser, graph_json, -1, NULL));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (graph_parser)));
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "inspect", path, "--format", "dot", NULL }, NULL, NULL), ==, 2);
}

/* The importer decides which wake-ups are hardware (HW_SERVICE) and the
 * classifier's interrupt list tells the inspector the same thing: the two
 * must agree, or the inspector reports "interrupt wake-ups recorded in a
 * thread" that the importer deliberately kept as thread wake-ups (an ext4
 * end-io kworker completing a writeback in process context, io-fsync). */
static void
test_classifier_agrees_with_importer (void)
{
  static const char * const names[] = {
    "hrtimer_interrupt", "__hrtimer_run_queues", "asm_sysvec_apic_timer_interrupt",
    "__sysvec_call_function_single", "asm_common_interrupt", "common_interrupt",
    "irq_exit_rcu", "__irq_exit_rcu",
    "blk_mq_end_request", "blk_complete_reqs", "sched_ttwu_pending",
    "__flush_smp_call_function_queue", "it_real_fn",
    /* process-context functions: neither calls them interrupt context
     * (softirqs a thread runs itself, from local_bh_enable, are its own
     * doing: a loopback TCP send wakes the receiver there) */
    "handle_softirqs", "__do_softirq", "folio_end_writeback", "ext4_end_io_rsv_work", "process_one_work", "try_to_wake_up",
    "futex_wake", "do_nanosleep", "schedule", "kthread",
  };
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gboolean importer = ws_perf_importer_is_interrupt_frame (names[i]);
      gboolean inspector = ws_frame_classifier_match (classifier, WS_FRAME_CATEGORY_INTERRUPT, names[i]);

      if (importer != inspector)
        g_error ("%s: importer says %d, classifier says %d", names[i], importer, inspector);
      g_assert_cmpint (importer, ==, i < 13);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/inspector/wait-graph", Fixture, NULL, fixture_setup, test_wait_graph_findings, fixture_teardown);
  g_test_add ("/inspector/options", Fixture, NULL, fixture_setup, test_options_change_findings, fixture_teardown);
  g_test_add ("/inspector/trace", Fixture, NULL, fixture_setup, test_trace_findings, fixture_teardown);
  g_test_add ("/inspector/export", Fixture, NULL, fixture_setup, test_export, fixture_teardown);
  g_test_add_func ("/inspector/io-fsync-under-connection", test_real_under_connection);
  g_test_add_func ("/inspector/cli", test_cli);
  g_test_add_func ("/inspector/classifier-agrees-with-importer", test_classifier_agrees_with_importer);

  return g_test_run ();
}
