/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One wait as the symptom from the command line: `waitgraph --event N`
 * and `critical-path --event N` (as `readytree` and `why` take it) on a
 * real perf trace.  The real binary runs (env WS_CLI); its JSON must hold
 * the wait's thread and span (ws_symptom_from_wait, which the GUI's
 * context menu uses too) and the same graph or path as the core's one
 * entry point computes for that window; bad indices and clashing options
 * fail with the documented exit codes.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-critical-path-run.h"
#include "ws-scenario-rules.h"
#include "ws-cli-test-util.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph-run.h"

#define TRACE_NAME "py-locks.perf.txt.gz"

static char *
trace_path (void)
{
  return ws_cli_test_data_path (TRACE_NAME);
}

static WsTrace *
load_trace (void)
{
  g_autofree char *path = trace_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  WsTrace *trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The longest wait of the trace, and its first non-wait event. */
static void
pick_events (WsTrace *trace,
             guint   *longest,
             guint   *not_wait)
{
  WsTime best = -1;

  *longest = *not_wait = WS_NONE;
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind == WS_EVENT_WAIT && ws_event_duration (e) > best)
        {
          best = ws_event_duration (e);
          *longest = i;
        }
      else if (e->kind != WS_EVENT_WAIT && *not_wait == WS_NONE)
        *not_wait = i;
    }
  g_assert_cmpuint (*longest, !=, WS_NONE);
  g_assert_cmpuint (*not_wait, !=, WS_NONE);
}

static JsonObject *
run_json (const char *command,
          guint       event)
{
  g_autofree char *path = trace_path ();
  g_autofree char *index = g_strdup_printf ("%u", event);
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  ws_cli_run (&run, command, "--trace", path, "--event", index, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The "symptom" member is the wait's thread (by tid) and span. */
static void
assert_symptom (WsTrace    *trace,
                JsonObject *obj,
                guint       event)
{
  JsonObject *symptom = json_object_get_object_member (obj, "symptom");
  WsSymptom s;

  g_assert_true (ws_symptom_from_wait (trace, event, &s));
  g_assert_cmpint (json_object_get_int_member (symptom, "t0"), ==, s.t0);
  g_assert_cmpint (json_object_get_int_member (symptom, "t1"), ==, s.t1);
  g_assert_cmpint (json_object_get_int_member (symptom, "tid"), ==, ws_trace_get_thread (trace, s.thread)->tid);
  /* The wait starts its window and fills it. */
  g_assert_cmpint (s.t0, ==, ws_trace_get_event (trace, event)->time);
  g_assert_cmpint (s.t1 - s.t0, ==, MAX (ws_event_duration (ws_trace_get_event (trace, event)), 1));
}

static void
test_waitgraph_event (void)
{
  g_autoptr(WsTrace) trace = load_trace ();
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  WsWaitGraphSettings settings;
  WsSymptom s;
  guint wait, other;
  JsonArray *nodes;

  pick_events (trace, &wait, &other);
  obj = run_json ("waitgraph", wait);
  assert_symptom (trace, obj, wait);

  g_assert_true (ws_symptom_from_wait (trace, wait, &s));
  ws_wait_graph_settings_init (&settings, &s);
  graph = ws_wait_graph_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_nonnull (graph);
  nodes = json_object_get_array_member (obj, "nodes");
  g_assert_cmpuint (json_array_get_length (nodes), ==, ws_wait_graph_get_n_nodes (graph));
  g_assert_cmpuint (json_array_get_length (nodes), >, 1);
  /* The wait itself is one of the graph's nodes. */
  {
    gboolean found = FALSE;

    for (guint i = 0; i < json_array_get_length (nodes); i++)
      {
        JsonObject *n = json_array_get_object_element (nodes, i);

        if (json_object_has_member (n, "event") && !json_object_get_null_member (n, "event") &&
            json_object_get_int_member (n, "event") == wait)
          found = TRUE;
      }
    g_assert_true (found);
  }
  g_test_message ("waitgraph --event %u: %u nodes", wait, json_array_get_length (nodes));
}

static void
test_critical_path_event (void)
{
  g_autoptr(WsTrace) trace = load_trace ();
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  WsCriticalPathSettings settings;
  WsSymptom s;
  guint wait, other;

  pick_events (trace, &wait, &other);
  obj = run_json ("critical-path", wait);
  assert_symptom (trace, obj, wait);

  g_assert_true (ws_symptom_from_wait (trace, wait, &s));
  ws_critical_path_settings_init (&settings, &s);
  path = ws_critical_path_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_nonnull (path);
  g_assert_cmpint (json_object_get_int_member (obj, "n_segments"), ==, ws_critical_path_get_n_segments (path));
  g_assert_cmpint (json_object_get_int_member (obj, "n_segments"), >, 1);
  g_test_message ("critical-path --event %u: %u segments", wait, ws_critical_path_get_n_segments (path));
}

/* The exit status of waitscope-cli FIRST … (NULL-terminated). */
static int
status_of (const char *first,
           ...)
{
  g_auto(WsCliRun) run = { 0 };
  va_list args;

  va_start (args, first);
  ws_cli_run_valist (&run, NULL, first, args);
  va_end (args);
  return run.status;
}

/* DOT works with --event too; a non-wait or out-of-range index is bad
 * input (1); a negative one or --event with --tid/--from/--scenario-instance
 * is a usage error (2). */
static void
test_event_errors (void)
{
  static const char *const commands[] = { "waitgraph", "critical-path" };
  g_autoptr(WsTrace) trace = load_trace ();
  g_autofree char *path = trace_path ();
  guint wait, other;
  g_autofree char *w = NULL, *o = NULL;

  pick_events (trace, &wait, &other);
  w = g_strdup_printf ("%u", wait);
  o = g_strdup_printf ("%u", other);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *c = commands[i];
      g_auto(WsCliRun) dot = { 0 };
      g_auto(WsCliRun) not_wait = { 0 };

      ws_cli_run (&dot, c, path, "--event", w, "--format", "dot", NULL);
      g_assert_cmpint (dot.status, ==, 0);
      g_assert_true (g_str_has_prefix (dot.out, "digraph "));
      ws_cli_run (&not_wait, c, path, "--event", o, NULL);
      g_assert_cmpint (not_wait.status, ==, 1);
      g_assert_nonnull (strstr (not_wait.err, "is not a wait"));
      g_assert_nonnull (strstr (not_wait.err, TRACE_NAME));
      g_assert_cmpint (status_of (c, path, "--event", "999999999", NULL), ==, 1);
      g_assert_cmpint (status_of (c, path, "--event", "-3", NULL), ==, 2);
      g_assert_cmpint (status_of (c, path, "--event", w, "--tid", "1", NULL), ==, 2);
      g_assert_cmpint (status_of (c, path, "--event", w, "--from", "+0", NULL), ==, 2);
      g_assert_cmpint (status_of (c, path, "--event", w, "--scenario-instance", "0", NULL), ==, 2);
      /* Without --event a thread is still required. */
      g_assert_cmpint (status_of (c, path, NULL), ==, 2);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/event/waitgraph", test_waitgraph_event);
  g_test_add_func ("/cli/event/critical-path", test_critical_path_event);
  g_test_add_func ("/cli/event/errors", test_event_errors);
  return g_test_run ();
}
