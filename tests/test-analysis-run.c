/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one entry point per analysis (ws_*_run): on the real pg-tpcb and
 * py-locks traces each gives exactly what the builder it wraps gives, and
 * what waitscope-cli prints for the same settings; progress goes from 0 to
 * 1; a cancelled run returns nothing, whether cancelled before it starts,
 * while it reports its first step, or inside its long loop.
 */
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cli-test-util.h"
#include "ws-chain.h"
#include "ws-critical-path-run.h"
#include "ws-error.h"
#include "ws-graph-export.h"
#include "ws-inspector-run.h"
#include "ws-ready-tree-run.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph-run.h"

static WsTrace *
load (const char *name)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, name, NULL);
  trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static char *
to_string (JsonNode *node)
{
  g_autoptr(JsonNode) owned = node;
  return ws_graph_export_json_to_string (owned);
}

/* What the CLI prints, re-serialised the way to_string() does. */
static char *
cli_json (const char * const *args)
{
  g_autofree char *out = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (ws_test_run_cli (args, &out, NULL), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return ws_graph_export_json_to_string (json_parser_get_root (parser));
}

typedef struct {
  GArray  *fractions;
  guint    n_messages;
  gboolean cancel_on_first;
  gboolean cancel_mid;       /* at the first report strictly between cancel_above and 1 */
  double   cancel_above;
  double   cancelled_at;
  GCancellable *cancellable;
} Progress;

static void
progress_cb (double      fraction,
             const char *message,
             gpointer    user_data)
{
  Progress *p = user_data;

  g_array_append_val (p->fractions, fraction);
  p->n_messages += message != NULL && *message != '\0';
  if (p->cancel_on_first)
    g_cancellable_cancel (p->cancellable);
  if (p->cancel_mid && fraction > p->cancel_above && fraction < 1.0 && !g_cancellable_is_cancelled (p->cancellable))
    {
      p->cancelled_at = fraction;
      g_cancellable_cancel (p->cancellable);
    }
}

static void
progress_init (Progress *p)
{
  p->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  p->n_messages = 0;
  p->cancel_on_first = FALSE;
  p->cancel_mid = FALSE;
  p->cancel_above = 0.0;
  p->cancelled_at = -1.0;
  p->cancellable = g_cancellable_new ();
}

static void
progress_clear (Progress *p)
{
  g_array_unref (p->fractions);
  g_object_unref (p->cancellable);
}

/* From 0 to 1, never backwards, every report with a message. */
static void
assert_progress_complete (Progress *p)
{
  g_assert_cmpuint (p->fractions->len, >=, 2);
  g_assert_cmpfloat (g_array_index (p->fractions, double, 0), ==, 0.0);
  g_assert_cmpfloat (g_array_index (p->fractions, double, p->fractions->len - 1), ==, 1.0);
  for (guint i = 1; i < p->fractions->len; i++)
    g_assert_cmpfloat (g_array_index (p->fractions, double, i), >=,
                       g_array_index (p->fractions, double, i - 1));
  g_assert_cmpuint (p->n_messages, ==, p->fractions->len);
}

static void
assert_no_completion (Progress *p)
{
  for (guint i = 0; i < p->fractions->len; i++)
    g_assert_cmpfloat (g_array_index (p->fractions, double, i), <, 1.0);
}

static void
test_same_as_builders (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  guint n;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  n = MIN (ws_trace_get_n_scenario_instances (trace), 40);
  g_assert_cmpuint (n, >, 10);
  for (guint i = 0; i < n; i++)
    {
      WsSymptom s;
      WsWaitGraphSettings wg;
      WsReadyTreeSettings rt;
      WsCriticalPathSettings cp;
      WsInspectorSettings in;
      g_autoptr(WsWaitGraph) graph = NULL, graph_run = NULL;
      g_autoptr(WsReadyTree) tree = NULL, tree_run = NULL;
      g_autoptr(WsCriticalPath) path = NULL, path_run = NULL;
      g_autoptr(GPtrArray) findings = NULL;
      g_autoptr(WsInspectorResult) inspection = NULL;
      g_autofree char *a = NULL, *b = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (ws_symptom_from_scenario_instance (trace, i, &s));

      ws_wait_graph_settings_init (&wg, &s);
      graph = ws_wait_graph_build (trace, &s, NULL, NULL, NULL);
      graph_run = ws_wait_graph_run (trace, &wg, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      a = to_string (ws_graph_export_wait_graph_json (graph));
      b = to_string (ws_graph_export_wait_graph_json (graph_run));
      g_assert_cmpstr (a, ==, b);
      g_clear_pointer (&a, g_free);
      g_clear_pointer (&b, g_free);

      ws_ready_tree_settings_init (&rt, &s);
      rt.options.lock_only = i % 2;
      tree = ws_ready_tree_build_for_symptom (trace, &s, &rt.options, NULL);
      tree_run = ws_ready_tree_run (trace, &rt, NULL, NULL, NULL, &error);
      g_assert_true ((tree == NULL) == (tree_run == NULL));
      if (tree != NULL)
        {
          g_assert_no_error (error);
          a = to_string (ws_graph_export_ready_tree_json (tree, WS_CHAIN_METRIC_DEFAULT));
          b = to_string (ws_graph_export_ready_tree_json (tree_run, WS_CHAIN_METRIC_DEFAULT));
          g_assert_cmpstr (a, ==, b);
          g_clear_pointer (&a, g_free);
          g_clear_pointer (&b, g_free);
        }
      g_clear_error (&error);

      ws_critical_path_settings_init (&cp, &s);
      path = ws_critical_path_build (trace, &s, NULL, NULL);
      path_run = ws_critical_path_run (trace, &cp, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      a = to_string (ws_graph_export_critical_path_json (path));
      b = to_string (ws_graph_export_critical_path_json (path_run));
      g_assert_cmpstr (a, ==, b);
      g_clear_pointer (&a, g_free);
      g_clear_pointer (&b, g_free);

      ws_inspector_settings_init (&in, &s);
      findings = ws_inspect_wait_graph (graph, &in.options);
      inspection = ws_inspector_run (trace, &in, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      a = to_string (ws_graph_export_findings_json (trace, findings));
      b = to_string (ws_graph_export_findings_json (trace, inspection->findings));
      g_assert_cmpstr (a, ==, b);
      g_assert_cmpuint (ws_wait_graph_get_n_nodes (inspection->graph), ==, ws_wait_graph_get_n_nodes (graph));
    }
}

/* The whole-trace inspection, and a graph handed in is used, not rebuilt. */
static void
test_inspector_scopes (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(GPtrArray) findings = NULL;
  g_autoptr(WsInspectorResult) whole = NULL, reused = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autofree char *a = NULL, *b = NULL;
  WsInspectorSettings settings;
  WsSymptom s;
  guint n_waits = 0;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }

  ws_inspector_settings_init (&settings, NULL);
  g_assert_cmpuint (settings.symptom.thread, ==, WS_NONE);
  findings = ws_inspect_trace (trace, &settings.options);
  whole = ws_inspector_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_nonnull (whole);
  g_assert_null (whole->graph);
  g_assert_cmpuint (whole->n_waits, ==, ws_trace_count_kind (trace, WS_EVENT_WAIT));
  g_assert_cmpuint (whole->n_waits, >, 1000);
  a = to_string (ws_graph_export_findings_json (trace, findings));
  b = to_string (ws_graph_export_findings_json (trace, whole->findings));
  g_assert_cmpstr (a, ==, b);

  s.thread = ws_trace_find_thread (trace, 11588);
  g_assert_cmpuint (s.thread, !=, WS_NONE);
  s.t0 = ws_trace_get_start_time (trace);
  s.t1 = ws_trace_get_end_time (trace);
  graph = ws_wait_graph_build (trace, &s, NULL, NULL, NULL);
  ws_inspector_settings_init (&settings, &s);
  settings.graph = graph;
  reused = ws_inspector_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_true (reused->graph == graph);
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    n_waits += ws_wait_graph_get_node (graph, i)->kind == WS_WAIT_NODE_WAIT;
  g_assert_cmpuint (reused->n_waits, ==, n_waits);
  g_assert_cmpuint (n_waits, >, 0);
}

/* The runs give what waitscope-cli prints for the same settings. */
static void
test_same_as_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autofree char *path = NULL;
  const char *tid = "11588", *from = "1987.0", *to = "1988.0";
  WsSymptom s;
  WsWaitGraphSettings wg;
  WsReadyTreeSettings rt;
  WsCriticalPathSettings cp;
  WsInspectorSettings in;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsCriticalPath) cpath = NULL;
  g_autoptr(WsInspectorResult) inspection = NULL;
  g_autofree char *a1 = NULL, *b1 = NULL, *a2 = NULL, *b2 = NULL;
  g_autofree char *a3 = NULL, *b3 = NULL, *a4 = NULL, *b4 = NULL;

  if (trace == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  s.thread = ws_trace_find_thread (trace, atoi (tid));
  s.t0 = 1987 * G_GINT64_CONSTANT (1000000000);
  s.t1 = 1988 * G_GINT64_CONSTANT (1000000000);

  ws_wait_graph_settings_init (&wg, &s);
  graph = ws_wait_graph_run (trace, &wg, NULL, NULL, NULL, NULL);
  a1 = to_string (ws_graph_export_wait_graph_json (graph));
  b1 = cli_json ((const char *[]) { "waitgraph", "--trace", path, "--tid", tid, "--from", from, "--to", to, NULL });
  g_assert_cmpstr (a1, ==, b1);

  ws_ready_tree_settings_init (&rt, &s);
  rt.options.lock_only = TRUE;
  rt.options.max_depth = 5;
  tree = ws_ready_tree_run (trace, &rt, NULL, NULL, NULL, NULL);
  a2 = to_string (ws_graph_export_ready_tree_json (tree, WS_CHAIN_METRIC_MAX));
  b2 = cli_json ((const char *[]) { "readytree", "--trace", path, "--tid", tid, "--from", from, "--to", to,
                                    "--lock-only", "--max-depth", "5", "--chain-metric", "max", NULL });
  g_assert_cmpstr (a2, ==, b2);

  ws_critical_path_settings_init (&cp, &s);
  cpath = ws_critical_path_run (trace, &cp, NULL, NULL, NULL, NULL);
  a3 = to_string (ws_graph_export_critical_path_json (cpath));
  b3 = cli_json ((const char *[]) { "critical-path", "--trace", path, "--tid", tid, "--from", from, "--to", to, NULL });
  g_assert_cmpstr (a3, ==, b3);

  ws_inspector_settings_init (&in, &s);
  in.options.top_n = 10;
  inspection = ws_inspector_run (trace, &in, NULL, NULL, NULL, NULL);
  a4 = to_string (ws_graph_export_findings_json (trace, inspection->findings));
  b4 = cli_json ((const char *[]) { "inspect", "--trace", path, "--tid", tid, "--from", from, "--to", to,
                                    "--format", "json", NULL });
  g_assert_cmpstr (a4, ==, b4);
}

typedef enum { WAIT_GRAPH, READY_TREE, CRITICAL_PATH, INSPECTOR, INSPECTOR_TRACE, N_RUNS } Run;

/* Runs analysis @run on @s; returns whether it produced a result. */
static gboolean
run_one (Run           run,
         WsTrace      *trace,
         WsSymptom    *s,
         GCancellable *cancellable,
         Progress     *p,
         GError      **error)
{
  WsProgressFunc progress = p ? progress_cb : NULL;

  switch (run)
    {
    case WAIT_GRAPH:
      {
        WsWaitGraphSettings settings;
        g_autoptr(WsWaitGraph) r = NULL;
        ws_wait_graph_settings_init (&settings, s);
        r = ws_wait_graph_run (trace, &settings, cancellable, progress, p, error);
        return r != NULL;
      }
    case READY_TREE:
      {
        WsReadyTreeSettings settings;
        g_autoptr(WsReadyTree) r = NULL;
        ws_ready_tree_settings_init (&settings, s);
        r = ws_ready_tree_run (trace, &settings, cancellable, progress, p, error);
        return r != NULL;
      }
    case CRITICAL_PATH:
      {
        WsCriticalPathSettings settings;
        g_autoptr(WsCriticalPath) r = NULL;
        ws_critical_path_settings_init (&settings, s);
        r = ws_critical_path_run (trace, &settings, cancellable, progress, p, error);
        return r != NULL;
      }
    case INSPECTOR:
    case INSPECTOR_TRACE:
      {
        WsInspectorSettings settings;
        g_autoptr(WsInspectorResult) r = NULL;
        ws_inspector_settings_init (&settings, run == INSPECTOR ? s : NULL);
        r = ws_inspector_run (trace, &settings, cancellable, progress, p, error);
        return r != NULL;
      }
    default:
      g_assert_not_reached ();
    }
}

static void
test_progress_and_cancel (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  WsSymptom s;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_true (ws_symptom_from_scenario_instance (trace, 0, &s));

  for (Run run = 0; run < N_RUNS; run++)
    {
      Progress done, before, during;
      g_autoptr(GError) error = NULL;

      progress_init (&done);
      g_assert_true (run_one (run, trace, &s, done.cancellable, &done, &error));
      g_assert_no_error (error);
      assert_progress_complete (&done);
      progress_clear (&done);

      progress_init (&before);
      g_cancellable_cancel (before.cancellable);
      g_assert_false (run_one (run, trace, &s, before.cancellable, &before, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      assert_no_completion (&before);
      progress_clear (&before);

      progress_init (&during);
      during.cancel_on_first = TRUE;
      g_assert_false (run_one (run, trace, &s, during.cancellable, &during, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      assert_no_completion (&during);
      g_assert_cmpuint (during.fractions->len, >=, 1);
      progress_clear (&during);
    }
}

/* Whether a whole run of @run on @s reports several times from inside its
 * long loop (fractions strictly between @above and 1). */
static gboolean
reports_from_loop (Run        run,
                   WsTrace   *trace,
                   WsSymptom *s,
                   double     above)
{
  Progress p;
  guint inside = 0;

  progress_init (&p);
  if (run_one (run, trace, s, p.cancellable, &p, NULL))
    for (guint i = 0; i < p.fractions->len; i++)
      inside += g_array_index (p.fractions, double, i) > above && g_array_index (p.fractions, double, i) < 1.0;
  progress_clear (&p);
  return inside >= 3;
}

/* Cancelled while it grows the tree, walks the path, classifies the waits
 * of the trace or walks the symptom's wait graph (not before it starts,
 * nor between its steps: the inspector of a symptom reports 0.5 once its
 * graph is built, so it is cancelled at a report above that), each run
 * stops there, with no further report, and fails with
 * G_IO_ERROR_CANCELLED. */
static void
test_cancel_inside_loops (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  const Run runs[] = { READY_TREE, CRITICAL_PATH, INSPECTOR_TRACE, INSPECTOR };
  const double above[] = { 0.0, 0.0, 0.0, 0.5 };

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      WsSymptom s = { WS_NONE, 0, 0 };
      gboolean found = FALSE;
      Progress p;
      g_autoptr(GError) error = NULL;

      /* A symptom whose run is long enough to report from its loop: the
       * whole trace of some thread. */
      for (guint t = 0; t < ws_trace_get_n_threads (trace) && !found; t++)
        {
          s = (WsSymptom) { t, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) };
          found = reports_from_loop (runs[r], trace, &s, above[r]);
        }
      g_test_message ("run %d: thread %u reports from its loop", runs[r], s.thread);
      g_assert_true (found);

      progress_init (&p);
      p.cancel_mid = TRUE;
      p.cancel_above = above[r];
      g_assert_false (run_one (runs[r], trace, &s, p.cancellable, &p, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpfloat (p.cancelled_at, >, above[r]);
      g_assert_cmpfloat (p.cancelled_at, <, 1.0);
      /* The loop stopped there: no report after the one that cancelled. */
      g_assert_cmpfloat (g_array_index (p.fractions, double, p.fractions->len - 1), ==, p.cancelled_at);
      assert_no_completion (&p);
      progress_clear (&p);
    }
}

/* Bad settings are errors, not crashes, whichever entry point. */
static void
test_errors (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  WsSymptom bad_thread = { 100000, 0, 1 };
  WsSymptom bad_window;
  WsReadyTreeSettings rt;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  bad_window = (WsSymptom) { 0, ws_trace_get_end_time (trace), ws_trace_get_start_time (trace) };
  for (Run run = 0; run < INSPECTOR_TRACE; run++)
    for (guint k = 0; k < 2; k++)
      {
        g_autoptr(GError) error = NULL;
        g_assert_false (run_one (run, trace, k ? &bad_window : &bad_thread, NULL, NULL, &error));
        g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
      }

  /* A root that is not a wait. */
  ws_ready_tree_settings_init (&rt, NULL);
  for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
    if (ws_trace_get_event (trace, e)->kind != WS_EVENT_WAIT)
      {
        g_autoptr(GError) error = NULL;
        rt.root_event = e;
        g_assert_null (ws_ready_tree_run (trace, &rt, NULL, NULL, NULL, &error));
        g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
        break;
      }
}

/* The metric table: names round-trip, labels and descriptions exist and
 * differ, the list of names follows the enum. */
static void
test_chain_metric_table (void)
{
  g_autoptr(GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *names = ws_chain_metric_dup_names ("|");
  g_auto(GStrv) split = g_strsplit (names, "|", -1);

  g_assert_cmpuint (g_strv_length (split), ==, WS_N_CHAIN_METRICS);
  for (WsChainMetric m = 0; m < WS_N_CHAIN_METRICS; m++)
    {
      WsChainMetric back = WS_N_CHAIN_METRICS;

      g_assert_cmpstr (split[m], ==, ws_chain_metric_to_string (m));
      g_assert_true (ws_chain_metric_from_string (ws_chain_metric_to_string (m), &back));
      g_assert_cmpint (back, ==, m);
      g_assert_cmpuint (strlen (ws_chain_metric_get_label (m)), >, 0);
      g_assert_cmpuint (strlen (ws_chain_metric_get_description (m)), >, 0);
      g_assert_true (g_hash_table_add (labels, (gpointer) ws_chain_metric_get_label (m)));
    }
  g_assert_false (ws_chain_metric_from_string ("bogus", &(WsChainMetric) { 0 }));
  g_assert_cmpuint (WS_CHAIN_METRIC_DEFAULT, <, WS_N_CHAIN_METRICS);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/analysis-run/same-as-builders", test_same_as_builders);
  g_test_add_func ("/analysis-run/inspector-scopes", test_inspector_scopes);
  g_test_add_func ("/analysis-run/same-as-cli", test_same_as_cli);
  g_test_add_func ("/analysis-run/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/analysis-run/cancel-inside-loops", test_cancel_inside_loops);
  g_test_add_func ("/analysis-run/errors", test_errors);
  g_test_add_func ("/analysis-run/chain-metric-table", test_chain_metric_table);

  return g_test_run ();
}
