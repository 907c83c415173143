/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Root-cause attribution (ws-attribution.c, `waitscope-cli why`) and the
 * defaults that build on it (the cause chain, the default mining scope),
 * on the shared real traces.
 *
 * The top cause is checked against an independent tally written here: the
 * critical path's segments are sorted into categories by looking for the
 * functions the workload is known to block in (the traces' README says
 * what each workload does) — no signature code of the library is used —
 * and the attribution's top cause must be the category with most time,
 * with the same time.
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cause-chain.h"
#include "ws-cli-test-util.h"
#include "ws-attribution.h"
#include "ws-chain.h"
#include "ws-critical-path.h"
#include "ws-ready-tree.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-overview.h"
#include "ws-why-targets.h"

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

static gboolean
stack_has (WsTrace    *trace,
           WsStackId   stack,
           const char *function)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  guint n = 0;

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  frames = ws_stack_table_get_stack (table, stack, &n);
  for (guint i = 0; i < n; i++)
    if (g_str_equal (ws_stack_table_get_frame (table, frames[i])->function, function))
      return TRUE;
  return FALSE;
}

/* A category of critical-path time, decided by the test alone. */
typedef struct {
  const char *name;
  char        state;          /* blocked: the wait's state; 0 = any */
  const char *functions[3];   /* blocked: the waiting stack holds them all */
  const char *label_part;     /* what the attribution's label must say */
} Category;

/* The category the test gives a critical-path segment: a blocked wait by
 * the functions in its stack, running time by the process that ran, and
 * "ready" / "other". */
static char *
categorise (WsTrace                 *trace,
            const WsCriticalSegment *seg,
            const Category          *categories,
            guint                    n_categories)
{
  if (seg->state == WS_CRITICAL_RUNNING)
    {
      const WsThread *th = ws_trace_get_thread (trace, seg->thread);
      return g_strdup_printf ("running %s", ws_trace_get_process (trace, th->process)->name);
    }
  if (seg->state == WS_CRITICAL_READY)
    return g_strdup ("ready");
  if (seg->state == WS_CRITICAL_BLOCKED_HARDWARE || seg->state == WS_CRITICAL_BLOCKED_UNKNOWN)
    {
      const WsEvent *w = ws_trace_get_event (trace, seg->event);

      for (guint c = 0; c < n_categories; c++)
        {
          gboolean all = categories[c].state == 0 || categories[c].state == w->state;

          for (guint f = 0; all && f < 3 && categories[c].functions[f] != NULL; f++)
            all = stack_has (trace, w->stack, categories[c].functions[f]);
          if (all)
            return g_strdup (categories[c].name);
        }
    }
  return g_strdup ("other");
}

/* Tally of the critical paths of @targets by category; returns the
 * largest category's name, with its time in @time, and in @io the running
 * time attribution gives to the device waits next to it instead (the
 * kernel's part of those calls, docs/attribution.md). */
static char *
tally (GArray         *targets,
       const Category *categories,
       guint           n_categories,
       WsTime         *time,
       WsTime         *io)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;
  const char *best = NULL;

  for (guint t = 0; t < targets->len; t++)
    {
      const WsAttributionTarget *target = &g_array_index (targets, WsAttributionTarget, t);
      g_autoptr(WsCriticalPath) path = ws_critical_path_build (target->trace, &target->symptom, NULL, NULL);

      g_assert_nonnull (path);
      for (guint s = 0; s < ws_critical_path_get_n_segments (path); s++)
        {
          const WsCriticalSegment *seg = ws_critical_path_get_segment (path, s);
          char *name = categorise (target->trace, seg, categories, n_categories);
          WsTime *sum = g_hash_table_lookup (sums, name);

          if (sum == NULL)
            g_hash_table_insert (sums, name, (sum = g_new0 (WsTime, 1)));
          else
            g_free (name);
          *sum += seg->end - seg->start;
          *io += ws_attribution_segment_io_time (target->trace, seg, NULL);
        }
    }
  *time = 0;
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(WsTime *) value > *time)
      {
        best = key;
        *time = *(WsTime *) value;
      }
  return g_strdup (best);
}

static WsAttribution *
attribute (GArray *targets)
{
  g_autoptr(GError) error = NULL;
  WsAttribution *attr = ws_attribution_compute (targets, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (attr);
  return attr;
}

/* The attribution's top cause is the test's top category, same time. */
static void
assert_top (GArray         *targets,
            const Category *categories,
            guint           n_categories,
            guint           expected)
{
  g_autoptr(WsAttribution) attr = attribute (targets);
  const WsCause *top = ws_attribution_get_cause (attr, 0);
  WsTime time = 0, io = 0;
  g_autofree char *best = tally (targets, categories, n_categories, &time, &io);
  WsTime total = 0;

  g_test_message ("top cause: %s, %" G_GINT64_FORMAT " ns (%.1f %%); tally: %s, %" G_GINT64_FORMAT " ns"
                  " (+ at most %" G_GINT64_FORMAT " ns in the kernel next to device waits)",
                  top->label, top->time, 100 * top->share, best, time, io);
  g_assert_cmpstr (best, ==, categories[expected].name);
  g_assert_nonnull (strstr (top->label, categories[expected].label_part));
  g_assert_cmpint (top->kind, ==, WS_CAUSE_BLOCKED);
  g_assert_cmpint (top->state, ==, categories[expected].state);
  /* The blocked time the test tallied, plus at most the running time
   * spent inside the calls of device waits. */
  g_assert_cmpint (top->time, >=, time);
  g_assert_cmpint (top->time, <=, time + io);

  /* Shares add up to the windows' total: nothing lost, nothing counted twice. */
  for (guint i = 0; i < ws_attribution_get_n_causes (attr); i++)
    total += ws_attribution_get_cause (attr, i)->time;
  g_assert_cmpint (total, <=, ws_attribution_get_total (attr));
  g_assert_cmpint (total, >=, ws_attribution_get_total (attr) - 64 * (gint64) targets->len);
}

/* pg-tpcb: the slowest transaction waited, through the row lock's
 * holders, mostly for the WAL flush at commit. */
static void
test_pg_slowest (void)
{
  static const Category cats[] = {
    { "wal-flush", 'D', { "fdatasync", "XLogFlush" }, "fdatasync ← XLogFlush" },
    { "row-lock", 'S', { "ProcSleep" }, "ProcSleep" },
    { "client", 'S', { "secure_read" }, "secure_read" },
  };
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_slowest (traces, "transaction", 1);
  g_assert_cmpuint (targets->len, ==, 1);
  assert_top (targets, cats, G_N_ELEMENTS (cats), 0);
  g_array_unref (g_steal_pointer (&targets));

  /* The slowest 10 % together say the same. */
  targets = ws_attribution_targets_slowest_share (traces, "transaction", 0.10);
  g_assert_cmpuint (targets->len, ==, (ws_trace_get_n_scenario_instances (trace) + 5) / 10);
  assert_top (targets, cats, G_N_ELEMENTS (cats), 0);
}

/* Summing over several instances is the sum of the single ones. */
static void
test_sum_of_instances (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) all = NULL;
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_slowest (traces, NULL, 5);
  all = attribute (targets);
  for (guint t = 0; t < targets->len; t++)
    {
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
      g_autoptr(WsAttribution) attr = NULL;

      g_array_append_val (one, g_array_index (targets, WsAttributionTarget, t));
      attr = attribute (one);
      for (guint i = 0; i < ws_attribution_get_n_causes (attr); i++)
        {
          const WsCause *c = ws_attribution_get_cause (attr, i);
          WsTime *sum = g_hash_table_lookup (sums, c->key);

          if (sum == NULL)
            g_hash_table_insert (sums, g_strdup (c->key), (sum = g_new0 (WsTime, 1)));
          *sum += c->time;
        }
    }
  g_assert_cmpuint (g_hash_table_size (sums), ==, ws_attribution_get_n_causes (all));
  for (guint i = 0; i < ws_attribution_get_n_causes (all); i++)
    {
      const WsCause *c = ws_attribution_get_cause (all, i);
      WsTime *sum = g_hash_table_lookup (sums, c->key);

      g_assert_nonnull (sum);
      g_assert_cmpint (c->time, ==, *sum);
      g_assert_cmpuint (c->n_symptoms, <=, targets->len);
      if (i > 0)
        g_assert_cmpint (c->time, <=, ws_attribution_get_cause (all, i - 1)->time);
    }
}

/* py-locks: the longest lock wait of pylk-w2 was held up by the holder
 * sleeping (time.sleep while holding the lock) more than by anything it
 * blocked in. */
static void
test_py_lock_wait (void)
{
  static const Category cats[] = {
    { "sleep", 'S', { "do_nanosleep" }, "clock_nanosleep" },
    { "futex", 'S', { "futex_wait" }, "futex" },
  };
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  WsAttributionTarget target = { NULL, { 0 }, WS_NONE };
  guint thread, longest = WS_NONE;
  const WsThread *th;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  thread = ws_trace_find_thread (trace, 11587);
  g_assert_cmpuint (thread, !=, WS_NONE);
  th = ws_trace_get_thread (trace, thread);
  for (guint k = 0; k < th->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, th->events[k]);
      if (e->kind == WS_EVENT_WAIT && stack_has (trace, e->stack, "futex_wait") &&
          (longest == WS_NONE || ws_event_duration (e) > ws_event_duration (ws_trace_get_event (trace, longest))))
        longest = th->events[k];
    }
  g_assert_cmpuint (longest, !=, WS_NONE);
  target.trace = trace;
  target.symptom.thread = thread;
  target.symptom.t0 = ws_trace_get_event (trace, longest)->time;
  target.symptom.t1 = target.symptom.t0 + ws_event_duration (ws_trace_get_event (trace, longest));
  g_array_append_val (targets, target);

  /* The tally's top may be a blocked category or running/ready; this
   * wait's is the holders' sleep. */
  assert_top (targets, cats, G_N_ELEMENTS (cats), 0);
}

/* io-fsync, no scenarios: the program held up most is the io_fsync.sh
 * loops waiting for their dd children (two shells), and what held them
 * up was the dd loops' dsync writes (cache flushes). */
static void
test_io_default (void)
{
  static const Category cats[] = {
    { "dsync-write", 'D', { "ksys_write" }, "uninterruptible in write" },
    { "fsync", 'D', { "do_fsync" }, "fsync" },
    { "sleep", 'S', { "do_nanosleep" }, "clock_nanosleep" },
  };
  g_autoptr(WsTrace) trace = load ("io-fsync.perf.txt.gz");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_ptr_array_add (traces, trace);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 0);
  targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
  g_assert_cmpuint (targets->len, >=, 1);
  g_assert_cmpuint (targets->len, <=, 3);
  for (guint t = 0; t < targets->len; t++)
    g_assert_false (ws_attribution_is_recorder (trace, g_array_index (targets, WsAttributionTarget, t).symptom.thread));
  assert_top (targets, cats, G_N_ELEMENTS (cats), 0);
}

/* The CLI prints the same top cause, in text and valid JSON. */
static void
test_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *top;

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", "--trace", path, "--slowest", "1", NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "uninterruptible in fdatasync ← XLogFlush"));
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--scenario-instance", "0", "--json", NULL }, &json, NULL), ==, 0);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  top = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "causes"), 0);
  g_assert_cmpfloat (json_object_get_double_member (top, "share"), >, 0.0);

  /* Usage errors exit 2, a missing instance 1. */
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--slowest", "3", "--tid", "1", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--scenario-instance", "99999", NULL }, NULL, NULL), ==, 1);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", NULL }, NULL, NULL), ==, 2);
}

/* A trace of CPU samples only (perf record -g, no scheduler events) shows
 * no wait: `why` says so and how to record waits, rather than calling the
 * gaps between samples running; given with a trace that has waits, it
 * answers. */
static void
test_cli_no_waits (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *cpu = NULL, *pg = NULL, *err = NULL, *out = NULL;

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  cpu = g_build_filename (dir, "layouts", "cpu-default.txt", NULL);
  pg = g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", cpu, NULL }, &out, &err), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "no sched_switch events"));
  g_assert_nonnull (strstr (err, "-e sched:sched_switch"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", cpu, "--json", NULL }, &out, NULL), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", cpu, pg, NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "%"));
}

/* One wait as the target: --event INDEX and --tid TID --at TIME name the
 * same wait, explain exactly its span, and agree with the library on it. */
static void
test_cli_one_wait (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autofree char *path = NULL;
  g_autofree char *by_event = NULL;
  g_autofree char *by_time = NULL;
  g_autofree char *index = NULL;
  g_autofree char *tid = NULL;
  g_autofree char *at = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attr = NULL;
  g_autoptr(GError) error = NULL;
  WsAttributionTarget target = { NULL, { 0 }, WS_NONE };
  WsSymptom whole;
  JsonObject *root;
  const WsEvent *e;
  guint wait;

  if (trace == NULL || dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  whole = (WsSymptom) { ws_trace_find_thread (trace, 11587), ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) };
  wait = ws_symptom_longest_wait (trace, &whole, NULL);
  g_assert_cmpuint (wait, !=, WS_NONE);
  e = ws_trace_get_event (trace, wait);
  /* The wait holds a moment in its middle, and that moment finds it. */
  g_assert_cmpuint (ws_symptom_wait_at (trace, e->thread, e->time + ws_event_duration (e) / 2), ==, wait);
  g_assert_cmpuint (ws_symptom_wait_at (trace, e->thread, e->time + ws_event_duration (e)), !=, wait);

  index = g_strdup_printf ("%u", wait);
  tid = g_strdup_printf ("%d", ws_trace_get_thread (trace, e->thread)->tid);
  at = g_strdup_printf ("%" G_GINT64_FORMAT "ns", e->time + ws_event_duration (e) / 2);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--event", index, "--json", NULL }, &by_event, NULL), ==, 0);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--tid", tid, "--at", at, "--json", NULL }, &by_time, NULL), ==, 0);
  g_assert_cmpstr (by_event, ==, by_time);

  json_parser_load_from_data (parser, by_event, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "total"), ==, ws_event_duration (e));
  target.trace = trace;
  g_assert_true (ws_symptom_from_wait (trace, wait, &target.symptom));
  g_array_append_val (one, target);
  attr = attribute (one);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (root, "causes"), 0), "label"),
                   ==, ws_attribution_get_cause (attr, 0)->label);

  /* --at needs --tid; a non-wait is bad input. */
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--at", at, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--event", index, "--slowest", "2", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--event", "0", NULL }, NULL, NULL), ==,
                   ws_trace_get_event (trace, 0)->kind == WS_EVENT_WAIT ? 0 : 1);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "why", path, "--event", "999999999", NULL }, NULL, NULL), ==, 1);
}

/* The case of issue 8: on a backend's longest wait (a row-lock wait) the
 * patent's average picks a two-wait chain, whose leaf held up none of the
 * root's top cause; the default chain ends where that cause was spent. */
static void
test_cause_chain (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attr = NULL;
  WsAttributionTarget target = { NULL, { 0 }, WS_NONE };
  WsSymptom symptom;
  const WsReadyNode *root;
  guint average, cause, thread;
  WsTime on_cause = 0, on_average = 0;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  thread = ws_trace_find_thread (trace, 9054);
  symptom = (WsSymptom) { thread, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) };
  tree = ws_ready_tree_build_for_symptom (trace, &symptom, NULL, &error);
  g_assert_no_error (error);
  root = ws_ready_tree_get_node (tree, 0);
  g_assert_true (stack_has (trace, root->stack, "ProcSleep"));

  average = ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_AVERAGE);
  cause = ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_DEFAULT);
  g_assert_cmpint (WS_CHAIN_METRIC_DEFAULT, ==, WS_CHAIN_METRIC_CAUSE);
  g_assert_cmpuint (average, !=, cause);

  /* The root's top cause, and how much of it each chain's leaf holds. */
  target.trace = trace;
  target.symptom = (WsSymptom) { root->thread, root->time, root->time + root->duration };
  g_array_append_val (one, target);
  attr = attribute (one);
  top = ws_attribution_get_cause (attr, 0);
  g_test_message ("root %.3f ms, top cause %s", root->duration / 1e6, top->label);
  path = ws_critical_path_build (trace, &target.symptom, NULL, NULL);
  for (guint s = 0; s < ws_critical_path_get_n_segments (path); s++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, s);
      g_autofree char *key = ws_attribution_segment_cause_key (trace, seg, NULL);
      const WsReadyNode *la = ws_ready_tree_get_node (tree, ws_ready_tree_get_chain_leaf (tree, average));
      const WsReadyNode *lc = ws_ready_tree_get_node (tree, ws_ready_tree_get_chain_leaf (tree, cause));

      if (!g_str_equal (key, top->key))
        continue;
      if (seg->thread == lc->thread || seg->thread == lc->readier_thread)
        on_cause += MAX (0, MIN (seg->end, lc->time + lc->duration) - MAX (seg->start, lc->time));
      if (seg->thread == la->thread || seg->thread == la->readier_thread)
        on_average += MAX (0, MIN (seg->end, la->time + la->duration) - MAX (seg->start, la->time));
    }
  g_assert_cmpint (on_cause, >, 0);
  g_assert_cmpint (on_cause, >, on_average);
  {
    guint n = 0;
    g_autofree guint32 *nodes = ws_ready_tree_get_chain (tree, average, &n);
    g_assert_cmpuint (n, ==, 2);
  }
}

/* With no options, `cluster` must not rank first waits that delayed
 * nobody: on every shared trace the top cluster is not a worker thread's
 * idle loop, and the output says what was left out.  A scenario scope
 * that matches nothing says so and names the scenarios there are. */
static void
test_default_cluster (void)
{
  static const char * const traces[] = {
    "pg-tpcb.perf.txt.gz", "py-locks.perf.txt.gz", "py-locks-dwarf.perf.txt.gz", "io-fsync.perf.txt.gz", "build.perf.txt.gz",
  };
  static const char * const idle[] = {
    "worker_thread (", "smpboot_thread_fn (", "rcu_gp_kthread (", "kthread_worker_fn (", "rescuer_thread (",
    "ksoftirqd", "cpuhp_thread_fun (", "do_idle (",
  };
  const char *dir = g_getenv ("WS_TEST_DATA");

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  for (guint t = 0; t < G_N_ELEMENTS (traces); t++)
    {
      g_autofree char *path = g_build_filename (dir, traces[t], NULL);
      g_autofree char *out = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonObject *root, *top;
      JsonArray *patterns;

      g_assert_cmpint (ws_test_run_cli ((const char *[]) { "cluster", path, "--json", "--no-history", NULL }, &out, NULL), ==, 0);
      json_parser_load_from_data (parser, out, -1, &error);
      g_assert_no_error (error);
      root = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpstr (json_object_get_string_member (root, "scope"), ==, "delaying");
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "left_out"), "waits"), >, 0);
      g_assert_nonnull (strstr (json_object_get_string_member (root, "scope_note"), "--scope all"));
      g_assert_cmpint (json_object_get_int_member (root, "n_clusters"), >, 0);
      top = json_array_get_object_element (json_object_get_array_member (root, "clusters"), 0);
      patterns = json_object_get_array_member (top, "patterns");
      for (guint p = 0; p < json_array_get_length (patterns); p++)
        {
          JsonArray *frames = json_object_get_array_member (json_array_get_object_element (patterns, p), "frames");

          for (guint f = 0; f < json_array_get_length (frames); f++)
            for (guint i = 0; i < G_N_ELEMENTS (idle); i++)
              if (strstr (json_array_get_string_element (frames, f), idle[i]) != NULL)
                g_error ("%s: the default top cluster is an idle loop (%s)", traces[t], json_array_get_string_element (frames, f));
        }
    }

  {
    g_autofree char *path = g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL);
    g_autofree char *out = NULL;

    g_assert_cmpint (ws_test_run_cli ((const char *[]) { "mine", path, "--scope", "scenario:nosuch", "--no-history", NULL }, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "matches nothing"));
    g_assert_nonnull (strstr (out, "transaction ("));
  }
}

static int
compare_time_desc (gconstpointer a,
                   gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* "why"'s default targets have one home: with scenario instances, the
 * slowest tenth of them (counted here from the trace's own instances),
 * else the picked threads; and the Overview explains the same targets. */
static void
test_why_default_targets (void)
{
  static const char *const names[] = { "pg-tpcb.perf.txt.gz", "py-locks.perf.txt.gz", "io-fsync.perf.txt.gz" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(WsTrace) trace = load (names[k]);
      g_autoptr(GPtrArray) traces = g_ptr_array_new ();
      g_autoptr(GPtrArray) picks = NULL;
      g_autoptr(GArray) targets = NULL;
      g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
      g_autoptr(WsOverview) overview = NULL;
      g_autoptr(GError) error = NULL;
      WsWhyTargetsKind kind;
      GArray *shown;

      if (trace == NULL)
        {
          g_test_skip ("WS_TEST_DATA not set");
          return;
        }
      g_ptr_array_add (traces, trace);
      targets = ws_why_default_targets (traces, NULL, ws_frame_classifier_get_default (), NULL, &picks, &kind);
      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
          WsTime d = inst->t1 - inst->t0;
          g_array_append_val (durations, d);
        }
      g_test_message ("%s: %u instances, %u targets", names[k], durations->len, targets->len);
      if (durations->len > 0)
        {
          guint n = MAX (1, (guint) (durations->len / 10.0 + 0.5));

          g_assert_cmpint (kind, ==, WS_WHY_TARGETS_SLOWEST_SHARE);
          g_array_sort (durations, compare_time_desc);
          g_assert_cmpuint (targets->len, ==, n);
          for (guint i = 0; i < targets->len; i++)
            {
              const WsAttributionTarget *t = &g_array_index (targets, WsAttributionTarget, i);
              g_assert_cmpint (t->symptom.t1 - t->symptom.t0, >=, g_array_index (durations, WsTime, n - 1));
            }
        }
      else
        {
          g_assert_cmpint (kind, ==, WS_WHY_TARGETS_PICKED_THREADS);
          g_assert_cmpuint (targets->len, >, 0);
          g_assert_cmpuint (targets->len, <=, WS_WHY_DEFAULT_THREADS);
          g_assert_nonnull (picks);
        }

      overview = ws_overview_compute_for (traces, NULL, NULL, &error);
      g_assert_no_error (error);
      shown = ws_overview_get_targets (overview);
      g_assert_cmpuint (shown->len, ==, targets->len);
      for (guint i = 0; i < targets->len; i++)
        {
          const WsAttributionTarget *a = &g_array_index (targets, WsAttributionTarget, i);
          const WsAttributionTarget *b = &g_array_index (shown, WsAttributionTarget, i);

          g_assert_true (a->trace == b->trace);
          g_assert_cmpuint (a->symptom.thread, ==, b->symptom.thread);
          g_assert_cmpint (a->symptom.t0, ==, b->symptom.t0);
          g_assert_cmpint (a->symptom.t1, ==, b->symptom.t1);
          g_assert_cmpuint (a->instance, ==, b->instance);
        }
    }
}

/* A frame-pointer stack loses a system call wrapper's caller, so a blocked
 * main thread can read "__libc_start_call_main → fdatasync", both in libc:
 * the signature names the call, never where the process or thread starts.
 * Expected labels written by hand. */
static void
test_signature_entry_frames (void)
{
  static const struct {
    const char *frames[6];  /* caller first; "k:" kernel, "l:" libc, else the program */
    const char *expected;
  } cases[] = {
    { { "l:__libc_start_call_main", "l:fdatasync", "k:do_fsync", "k:io_schedule" }, "fdatasync" },
    { { "l:__libc_start_main", "l:__libc_start_call_main", "l:fdatasync" }, "fdatasync" },
    { { "l:__clone3", "l:start_thread", "l:__pthread_cond_wait", "l:__futex_abstimed_wait_common" }, "pthread_cond_wait" },
    { { "l:__clone3", "l:start_thread", "worker", "l:fsync", "k:do_fsync" }, "fsync ← worker" },
    { { "l:__libc_start_call_main", "main", "l:__GI___libc_write" }, "write ← main" },
    { { "l:__libc_start_call_main" }, "start_call_main" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(WsStackTable) table = ws_stack_table_new ();
      WsFrameId ids[6];
      guint n = 0;
      g_autofree char *signature = NULL;

      for (; n < G_N_ELEMENTS (cases[c].frames) && cases[c].frames[n] != NULL; n++)
        {
          const char *f = cases[c].frames[n];
          const char *module = "/opt/app/bin/app";

          if (g_str_has_prefix (f, "k:"))
            module = "[kernel.kallsyms]", f += 2;
          else if (g_str_has_prefix (f, "l:"))
            module = "/usr/lib/x86_64-linux-gnu/libc.so.6", f += 2;
          ids[n] = ws_stack_table_intern_frame (table, f, module);
        }
      signature = ws_attribution_frames_signature (table, ids, n);
      g_assert_cmpstr (signature, ==, cases[c].expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/attribution/pg-slowest", test_pg_slowest);
  g_test_add_func ("/attribution/sum-of-instances", test_sum_of_instances);
  g_test_add_func ("/attribution/py-lock-wait", test_py_lock_wait);
  g_test_add_func ("/attribution/io-default", test_io_default);
  g_test_add_func ("/attribution/cli", test_cli);
  g_test_add_func ("/attribution/cli-no-waits", test_cli_no_waits);
  g_test_add_func ("/attribution/cli-one-wait", test_cli_one_wait);
  g_test_add_func ("/attribution/cause-chain", test_cause_chain);
  g_test_add_func ("/attribution/default-cluster", test_default_cluster);
  g_test_add_func ("/attribution/why-default-targets", test_why_default_targets);
  g_test_add_func ("/attribution/signature-entry-frames", test_signature_entry_frames);

  return g_test_run ();
}
