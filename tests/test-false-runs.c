/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * False runs (docs/attribution.md, "Timed-out lock waits"): a lock wait
 * that the program's own timeout cut into pieces, re-entered after a brief
 * check, is one wait, readied by whoever ended its last piece -- in the
 * wait graph, the AWG, contrast, the critical path and `why` -- while the
 * trace keeps every recorded event.  A sleep loop is never joined, nor a
 * retry after real work.  On hand-made traces (times worked out in the
 * comments), random ones (the laws) and a real recording of a timed lock
 * loop (tests/data/causes/timed-lock, tests/data/workloads/timed_lock.c).
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-awg.h"
#include "ws-contrast.h"
#include "ws-critical-path.h"
#include "ws-false-run.h"
#include "ws-json-trace.h"
#include "ws-ready-tree.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph.h"
#include "ws-why-targets.h"

#define US 1000
#define MS 1000000

static WsTrace *
load (const char *json)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (json, -1, NULL);
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_json_trace_load_stream (in, "hand.json", stacks, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* A hand-made trace, event by event: each adder returns the event's index. */
typedef struct {
  GString *json;
  guint    n;
} Builder;

#define HEADER \
  "{\"format\":\"waitscope-trace\",\"version\":1,\"name\":\"hand\"," \
  "\"threads\":[{\"tid\":0,\"name\":\"swapper\"},{\"tid\":1,\"name\":\"app\"},{\"tid\":2,\"name\":\"holder\"}]," \
  "\"events\":["

#define TRY_STACK "\"main (app)\",\"take_table (app)\",\"pthread_mutex_timedlock (libc.so.6)\",\"futex_wait ([kernel.kallsyms])\""
#define SLEEP_STACK "\"main (app)\",\"poll_flag (app)\",\"clock_nanosleep (libc.so.6)\",\"hrtimer_nanosleep ([kernel.kallsyms])\""
#define TIMER_STACK "\"hrtimer_interrupt ([kernel.kallsyms])\",\"__hrtimer_run_queues ([kernel.kallsyms])\",\"hrtimer_wakeup ([kernel.kallsyms])\""
#define RELEASE_STACK "\"holder_main (app)\",\"release_table (app)\",\"futex_wake ([kernel.kallsyms])\""

static guint
add (Builder *b, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static guint
add (Builder *b, const char *fmt, ...)
{
  va_list ap;

  if (b->n > 0)
    g_string_append_c (b->json, ',');
  va_start (ap, fmt);
  g_string_append_vprintf (b->json, fmt, ap);
  va_end (ap);
  return b->n++;
}

static guint
add_run (Builder *b, int tid, WsTime t, WsTime dur, const char *stack)
{
  return add (b, "{\"kind\":\"running\",\"t\":%" G_GINT64_FORMAT ",\"dur\":%" G_GINT64_FORMAT
              ",\"tid\":%d,\"flags\":[\"span\"],\"stack\":[%s]}", t, dur, tid, stack);
}

/* A wait of app from @t to @end, ended at @end by a timer or by holder's
 * release (its wake-up is the next event). */
static void
add_wait (Builder *b, WsTime t, WsTime end, const char *stack, gboolean timer)
{
  guint w = b->n;

  add (b, "{\"kind\":\"wait\",\"t\":%" G_GINT64_FORMAT ",\"dur\":%" G_GINT64_FORMAT
       ",\"tid\":1,\"state\":\"S\",\"peer\":%u,\"stack\":[%s]}", t, end - t, w + 1, stack);
  if (timer)
    add (b, "{\"kind\":\"hw-service\",\"t\":%" G_GINT64_FORMAT ",\"tid\":0,\"target\":1,\"peer\":%u,\"stack\":[" TIMER_STACK "]}",
         end, w);
  else
    add (b, "{\"kind\":\"unwait\",\"t\":%" G_GINT64_FORMAT ",\"tid\":2,\"target\":1,\"peer\":%u,\"stack\":[" RELEASE_STACK "]}",
         end, w);
}

static WsTrace *
finish (Builder *b, const char *instances)
{
  g_autofree char *json = NULL;

  g_string_append_printf (b->json, "],\"scenario_instances\":[%s]}", instances);
  json = g_string_free (b->json, FALSE);
  b->json = NULL;
  return load (json);
}

/* One operation of app from @base: run 1 ms, try the table lock until the
 * timer ends the try at +5 ms, check for @check, try again with the same
 * stack until holder's release at +10 ms, run 2 ms; holder works in
 * prepare_table from @base to +4.5 ms (its run ends during the first try)
 * and in slow_work from there to +10 ms.  With @check 0, a fast operation
 * instead: one wait from +1 ms to holder's release at +2 ms (holder in
 * quick_work), run 1 ms. */
static void
add_operation (Builder *b, WsTime base, WsTime check, GString *instances)
{
  add_run (b, 1, base, 1 * MS, "\"main (app)\"");
  if (check == 0)
    {
      add_run (b, 2, base, 2 * MS, "\"holder_main (app)\",\"quick_work (app)\"");
      add_wait (b, base + 1 * MS, base + 2 * MS, TRY_STACK, FALSE);
      add_run (b, 1, base + 2 * MS, 1 * MS, "\"main (app)\"");
      g_string_append_printf (instances, "%s{\"scenario\":\"op\",\"tid\":1,\"t0\":%" G_GINT64_FORMAT ",\"t1\":%" G_GINT64_FORMAT "}",
                              instances->len ? "," : "", base, base + 3 * MS);
      return;
    }
  add_run (b, 2, base, 4500 * US, "\"holder_main (app)\",\"prepare_table (app)\"");
  add_run (b, 2, base + 4500 * US, 5500 * US, "\"holder_main (app)\",\"slow_work (app)\"");
  add_wait (b, base + 1 * MS, base + 5 * MS, TRY_STACK, TRUE);
  add_run (b, 1, base + 5 * MS, check, "\"main (app)\",\"take_table (app)\"");
  add_wait (b, base + 5 * MS + check, base + 10 * MS, TRY_STACK, FALSE);
  add_run (b, 1, base + 10 * MS, 2 * MS, "\"main (app)\"");
  g_string_append_printf (instances, "%s{\"scenario\":\"op\",\"tid\":1,\"t0\":%" G_GINT64_FORMAT ",\"t1\":%" G_GINT64_FORMAT "}",
                          instances->len ? "," : "", base, base + 12 * MS);
}

static WsTrace *
load_retry (WsTime check)
{
  Builder b = { g_string_new (HEADER), 0 };
  g_autoptr(GString) instances = g_string_new ("");

  add_operation (&b, 0, check, instances);
  return finish (&b, instances->str);
}

static guint
count_waits (WsTrace *trace, guint thread)
{
  guint n = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    n += ws_trace_get_event (trace, i)->thread == thread && ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT;
  return n;
}

/* The @k-th WAIT event of @thread. */
static guint
nth_wait (WsTrace *trace, guint thread, guint k)
{
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT && ws_trace_get_event (trace, i)->thread == thread && k-- == 0)
      return i;
  g_assert_not_reached ();
}

/* The rule: a 0.1 ms check after a 4 ms timed-out try joins the two tries
 * into one wait from 1 ms to 10 ms, ended by holder; the trace keeps both
 * recorded waits and the check. */
static void
test_fold (void)
{
  g_autoptr(WsTrace) trace = load_retry (100 * US);
  const WsFalseRuns *fr = ws_false_runs_get (trace, NULL);
  guint app = ws_trace_find_thread (trace, 1);
  guint first = nth_wait (trace, app, 0), last = nth_wait (trace, app, 1);
  const WsWaitChain *chain;

  g_assert_cmpuint (count_waits (trace, app), ==, 2);
  g_assert_cmpuint (ws_false_runs_get_n_chains (fr), ==, 1);
  chain = ws_false_runs_get_chain (fr, 0);
  g_assert_cmpuint (chain->first, ==, first);
  g_assert_cmpuint (chain->last, ==, last);
  g_assert_cmpuint (chain->n_pieces, ==, 2);
  g_assert_cmpint (chain->start, ==, 1 * MS);
  g_assert_cmpint (chain->end, ==, 10 * MS);
  /* The check run between the pieces belongs to it; the runs around do not. */
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->thread == app && e->kind == WS_EVENT_RUNNING)
        g_assert_true ((ws_false_runs_chain_of (fr, i) != NULL) == (e->time == 5 * MS));
    }
  /* Built once per classifier. */
  g_assert_true (ws_false_runs_get (trace, NULL) == fr);
  g_assert_true (ws_false_runs_get (trace, ws_frame_classifier_get_default ()) == fr);
}

/* Real work between the tries (6 ms after a 4 ms try: longer than the
 * try) is the thread's own: two waits, the first ended by the timer. */
static void
test_work_between (void)
{
  g_autoptr(WsTrace) trace = NULL;
  Builder b = { g_string_new (HEADER), 0 };

  add_run (&b, 1, 0, 1 * MS, "\"main (app)\"");
  add_run (&b, 2, 0, 20 * MS, "\"holder_main (app)\",\"slow_work (app)\"");
  add_wait (&b, 1 * MS, 5 * MS, TRY_STACK, TRUE);
  add_run (&b, 1, 5 * MS, 6 * MS, "\"main (app)\",\"take_table (app)\"");
  add_wait (&b, 11 * MS, 20 * MS, TRY_STACK, FALSE);
  trace = finish (&b, "");
  g_assert_cmpuint (ws_false_runs_get_n_chains (ws_false_runs_get (trace, NULL)), ==, 0);
}

/* A sleep loop: nanosleep 2 ms, 10 µs of polling, again, each sleep ended
 * by its timer.  Same stack, brief checks, but no lock: the timer is each
 * sleep's true end, nothing is joined, and the wait graph keeps its timer
 * wake-ups. */
static void
test_sleep_loop (void)
{
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  WsSymptom symptom = { 0, 0, 20 * MS };
  Builder b = { g_string_new (HEADER), 0 };
  WsTime t = 0;
  guint timers = 0;

  for (guint k = 0; k < 6; k++)
    {
      add_run (&b, 1, t, 10 * US, "\"main (app)\",\"poll_flag (app)\"");
      add_wait (&b, t + 10 * US, t + 10 * US + 2 * MS, SLEEP_STACK, TRUE);
      t += 10 * US + 2 * MS;
    }
  trace = finish (&b, "");
  g_assert_cmpuint (ws_false_runs_get_n_chains (ws_false_runs_get (trace, NULL)), ==, 0);

  symptom.thread = ws_trace_find_thread (trace, 1);
  graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    {
      const WsWaitNode *n = ws_wait_graph_get_node (graph, i);

      g_assert_false (n->flags & WS_WAIT_NODE_FLAG_JOINED);
      timers += n->kind == WS_WAIT_NODE_WAIT && n->wake == WS_WAKE_TIMER && n->duration == 2 * MS;
    }
  g_assert_cmpuint (timers, ==, 6);
}

/* Re-entered on another lock (another stack): two waits. */
static void
test_other_lock (void)
{
  g_autoptr(WsTrace) trace = NULL;
  Builder b = { g_string_new (HEADER), 0 };

  add_run (&b, 1, 0, 1 * MS, "\"main (app)\"");
  add_run (&b, 2, 0, 10 * MS, "\"holder_main (app)\",\"slow_work (app)\"");
  add_wait (&b, 1 * MS, 5 * MS, TRY_STACK, TRUE);
  add_run (&b, 1, 5 * MS, 100 * US, "\"main (app)\"");
  add_wait (&b, 5 * MS + 100 * US, 10 * MS,
            "\"main (app)\",\"take_index (app)\",\"pthread_mutex_lock (libc.so.6)\",\"futex_wait ([kernel.kallsyms])\"", FALSE);
  trace = finish (&b, "");
  g_assert_cmpuint (ws_false_runs_get_n_chains (ws_false_runs_get (trace, NULL)), ==, 0);
}

/* A timed condition wait that runs out re-takes its mutex: the second
 * wait's stack is another (__lll_lock_wait) but the call of the program
 * is the same (main ← wait_ready): joined.  In a recording without the
 * program's frames, a lock wait followed by a sleep is not (the sleep is
 * no lock wait). */
static void
test_same_call (void)
{
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTrace) bare = NULL;
  Builder b = { g_string_new (HEADER), 0 };
  Builder c = { g_string_new (HEADER), 0 };
  const WsWaitChain *chain;

  add_run (&b, 1, 0, 1 * MS, "\"main (app)\"");
  add_run (&b, 2, 0, 10 * MS, "\"holder_main (app)\",\"slow_work (app)\"");
  add_wait (&b, 1 * MS, 5 * MS, "\"main (app)\",\"wait_ready (app)\",\"pthread_cond_timedwait (/usr/lib/x86_64-linux-gnu/libc.so.6)\","
            "\"__futex_abstimed_wait_common (/usr/lib/x86_64-linux-gnu/libc.so.6)\",\"futex_wait ([kernel.kallsyms])\"", TRUE);
  add_run (&b, 1, 5 * MS, 20 * US, "\"main (app)\",\"wait_ready (app)\"");
  add_wait (&b, 5 * MS + 20 * US, 10 * MS, "\"main (app)\",\"wait_ready (app)\",\"__GI___lll_lock_wait (/usr/lib/x86_64-linux-gnu/libc.so.6)\","
            "\"futex_wait ([kernel.kallsyms])\"", FALSE);
  trace = finish (&b, "");
  g_assert_cmpuint (ws_false_runs_get_n_chains (ws_false_runs_get (trace, NULL)), ==, 1);
  chain = ws_false_runs_get_chain (ws_false_runs_get (trace, NULL), 0);
  g_assert_cmpint (chain->start, ==, 1 * MS);
  g_assert_cmpint (chain->end, ==, 10 * MS);

  add_run (&c, 1, 0, 1 * MS, "\"main (app)\"");
  add_wait (&c, 1 * MS, 5 * MS, "\"__futex_abstimed_wait_common (/usr/lib/x86_64-linux-gnu/libc.so.6)\",\"futex_wait ([kernel.kallsyms])\"", TRUE);
  add_run (&c, 1, 5 * MS, 20 * US, "\"[unknown] ([unknown])\"");
  add_wait (&c, 5 * MS + 20 * US, 10 * MS, "\"clock_nanosleep (/usr/lib/x86_64-linux-gnu/libc.so.6)\",\"hrtimer_nanosleep ([kernel.kallsyms])\"", TRUE);
  bare = finish (&c, "");
  g_assert_cmpuint (ws_false_runs_get_n_chains (ws_false_runs_get (bare, NULL)), ==, 0);
}

/* The wait graph: one WAIT node, 1-10 ms, readied by holder, whose two
 * runs (prepare_table ending at 4.5 ms, slow_work at 10 ms, both inside
 * the whole wait) are its children; no node for the second try, the
 * check, or the timer. */
static void
test_wait_graph (void)
{
  g_autoptr(WsTrace) trace = load_retry (100 * US);
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  guint app = ws_trace_find_thread (trace, 1), holder = ws_trace_find_thread (trace, 2);
  WsSymptom symptom = { app, 0, 12 * MS };
  guint node, n_edges = 0, n_waits = 0;
  const WsWaitNode *w;
  const WsWaitEdge *edges;

  graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  g_assert_no_error (error);
  node = ws_wait_graph_find_event (graph, nth_wait (trace, app, 0));
  g_assert_cmpuint (node, !=, WS_NONE);
  w = ws_wait_graph_get_node (graph, node);
  g_assert_cmpint (w->time, ==, 1 * MS);
  g_assert_cmpint (w->duration, ==, 9 * MS);
  g_assert_cmpuint (w->wake, ==, WS_WAKE_THREAD);
  g_assert_cmpuint (w->readier_thread, ==, holder);
  g_assert_true (w->flags & WS_WAIT_NODE_FLAG_JOINED);
  g_assert_true (w->flags & WS_WAIT_NODE_FLAG_LOCK);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, nth_wait (trace, app, 1)), ==, WS_NONE);

  edges = ws_wait_graph_get_out_edges (graph, node, &n_edges);
  g_assert_cmpuint (n_edges, ==, 2);
  for (guint e = 0; e < n_edges; e++)
    {
      g_assert_cmpuint (ws_wait_graph_get_node (graph, edges[e].to)->kind, ==, WS_WAIT_NODE_RUN);
      g_assert_cmpuint (ws_wait_graph_get_node (graph, edges[e].to)->thread, ==, holder);
    }
  g_assert_cmpint (ws_wait_graph_get_node (graph, edges[0].to)->duration, ==, 4500 * US);
  g_assert_cmpint (ws_wait_graph_get_node (graph, edges[1].to)->duration, ==, 5500 * US);
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    {
      g_assert_cmpuint (ws_wait_graph_get_node (graph, i)->kind, !=, WS_WAIT_NODE_HW_SERVICE);
      n_waits += ws_wait_graph_get_node (graph, i)->kind == WS_WAIT_NODE_WAIT;
    }
  g_assert_cmpuint (n_waits, ==, 1);

  /* A window that cuts the chain keeps the recorded pieces. */
  {
    g_autoptr(WsWaitGraph) cut = NULL;
    WsSymptom half = { app, 0, 7 * MS };

    cut = ws_wait_graph_build (trace, &half, NULL, NULL, &error);
    g_assert_no_error (error);
    node = ws_wait_graph_find_event (cut, nth_wait (trace, app, 0));
    g_assert_cmpuint (node, !=, WS_NONE);
    g_assert_cmpint (ws_wait_graph_get_node (cut, node)->duration, ==, 4 * MS);
    g_assert_cmpuint (ws_wait_graph_get_node (cut, node)->wake, ==, WS_WAKE_TIMER);
  }
}

/* The ready tree from the first try: its root is the whole wait, 1-10 ms,
 * readied by holder (not a false-run stop); from the second try, the same
 * root. */
static void
test_ready_tree (void)
{
  g_autoptr(WsTrace) trace = load_retry (100 * US);
  guint app = ws_trace_find_thread (trace, 1), holder = ws_trace_find_thread (trace, 2);

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(WsReadyTree) tree = NULL;
      g_autoptr(GError) error = NULL;
      const WsReadyNode *root;

      tree = ws_ready_tree_build (trace, nth_wait (trace, app, k), NULL, &error);
      g_assert_no_error (error);
      root = ws_ready_tree_get_node (tree, 0);
      g_assert_cmpuint (root->event, ==, nth_wait (trace, app, 0));
      g_assert_cmpint (root->time, ==, 1 * MS);
      g_assert_cmpint (root->duration, ==, 9 * MS);
      g_assert_cmpuint (root->wake, ==, WS_WAKE_THREAD);
      g_assert_cmpuint (root->readier_thread, ==, holder);
      g_assert_cmpuint (root->stop, !=, WS_READY_STOP_FALSE_RUN);
    }
}

/* The critical path and `why`: holder's work explains the whole wait,
 * 1-10 ms; app is on the path only before and after it (its 0.1 ms check
 * is inside the one wait). */
static void
test_why (void)
{
  g_autoptr(WsTrace) trace = load_retry (100 * US);
  g_autoptr(WsCriticalPath) path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) targets = g_array_new (FALSE, TRUE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attribution = NULL;
  guint app = ws_trace_find_thread (trace, 1), holder = ws_trace_find_thread (trace, 2);
  WsSymptom symptom = { app, 0, 12 * MS };
  WsAttributionTarget target = { trace, symptom, WS_NONE };
  const WsCause *top;

  /* `why --event` and a clicked wait: either try is the whole wait. */
  for (guint k = 0; k < 2; k++)
    {
      WsSymptom from_try;

      g_assert_true (ws_symptom_from_wait (trace, nth_wait (trace, app, k), &from_try));
      g_assert_cmpint (from_try.t0, ==, 1 * MS);
      g_assert_cmpint (from_try.t1, ==, 10 * MS);
    }

  path = ws_critical_path_build (trace, &symptom, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ws_critical_path_get_thread_time (path, holder), ==, 9 * MS);
  g_assert_cmpint (ws_critical_path_get_thread_time (path, app), ==, 3 * MS);
  g_assert_cmpint (ws_critical_path_get_state_time (path, WS_CRITICAL_BLOCKED_HARDWARE), ==, 0);

  g_array_append_val (targets, target);
  attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  top = ws_attribution_get_cause (attribution, 0);
  g_assert_cmpint (top->kind, ==, WS_CAUSE_RUNNING);
  g_assert_cmpint (top->time, ==, 9 * MS);
  g_assert_cmpuint (((WsCauseThread *) top->threads->data)[0].thread, ==, holder);
  for (guint i = 0; i < ws_attribution_get_n_causes (attribution); i++)
    g_assert_cmpint (ws_attribution_get_cause (attribution, i)->timer_time, ==, 0);
}

/* Three fast operations and three slow ones (the timed lock retried
 * while holder is in prepare_table, then slow_work).  The AWG has no
 * timer; contrast's top pattern is the wait for release_table behind
 * slow_work (5.5 ms for each slow operation), the next one behind
 * prepare_table (4.5 ms each: its run ended during the first try, which
 * only the joined wait reaches); no pattern names the timer. */
static void
test_contrast (void)
{
  Builder b = { g_string_new (HEADER), 0 };
  g_autoptr(GString) instances = g_string_new ("");
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(WsContrastResult) r = NULL;
  g_autoptr(GError) error = NULL;
  WsContrastSettings s = { .component = "app", .t_fast = 4 * MS, .t_slow = 10 * MS };
  const WsContrastPattern *top;
  WsAwg *awg;

  for (guint k = 0; k < 6; k++)
    add_operation (&b, k * 20 * MS, k % 2 ? 100 * US : 0, instances);
  trace = finish (&b, instances->str);
  g_assert_cmpuint (ws_instance_set_add_trace (set, trace, "op"), ==, 6);
  s.instances = set;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_get_n (ws_contrast_result_get_slow (r)), ==, 3);

  awg = ws_contrast_result_get_awg_slow (r);
  for (guint i = 0; i < ws_awg_get_n_nodes (awg); i++)
    g_assert_cmpuint (ws_awg_get_node (awg, i)->kind, !=, WS_AWG_HARDWARE);

  top = ws_contrast_result_get_top_pattern (r);
  g_assert_nonnull (top);
  g_assert_true (ws_contrast_pattern_has (r, top, 1, "release_table"));
  g_assert_true (ws_contrast_pattern_has (r, top, 2, "slow_work"));
  g_assert_cmpint (top->c, ==, 3 * 5500 * US);
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (r), >=, 2);
  g_assert_true (ws_contrast_pattern_has (r, ws_contrast_result_get_pattern (r, 1), 1, "release_table"));
  g_assert_true (ws_contrast_pattern_has (r, ws_contrast_result_get_pattern (r, 1), 2, "prepare_table"));
  g_assert_cmpint (ws_contrast_result_get_pattern (r, 1)->c, ==, 3 * 4500 * US);
  for (guint i = 0; i < ws_contrast_result_get_n_patterns (r); i++)
    g_assert_false (ws_contrast_pattern_has (r, ws_contrast_result_get_pattern (r, i), 2, "TimerService"));
}

/* Random timed lock loops, runs and tries of random lengths, each try
 * ended by the timer or by holder: every chain is a run of app's WAIT
 * events, each but the last ended by a timer, every piece with the first
 * one's stack, each gap shorter than the piece before it; its span is its
 * pieces' span; no event is in two chains; and the trace still holds every
 * recorded wait. */
static void
test_laws (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (22);

  for (guint round = 0; round < 60; round++)
    {
      Builder b = { g_string_new (HEADER), 0 };
      g_autoptr(WsTrace) trace = NULL;
      const WsFalseRuns *fr;
      WsTime t = 0;
      guint n_waits = 12, app, in_chains = 0;

      for (guint k = 0; k < n_waits; k++)
        {
          WsTime run = g_rand_int_range (rand, 1, 3000) * US / 10;
          WsTime wait = g_rand_int_range (rand, 1, 50) * 100 * US;

          add_run (&b, 1, t, run, "\"main (app)\",\"take_table (app)\"");
          t += run;
          add_wait (&b, t, t + wait, g_rand_int_range (rand, 0, 8) ? TRY_STACK : SLEEP_STACK, g_rand_boolean (rand));
          t += wait;
        }
      add_run (&b, 2, 0, t, "\"holder_main (app)\"");
      trace = finish (&b, "");
      fr = ws_false_runs_get (trace, NULL);
      app = ws_trace_find_thread (trace, 1);
      g_assert_cmpuint (count_waits (trace, app), ==, n_waits);

      for (guint c = 0; c < ws_false_runs_get_n_chains (fr); c++)
        {
          const WsWaitChain *chain = ws_false_runs_get_chain (fr, c);
          const WsThread *th = ws_trace_get_thread (trace, app);
          guint pieces = 0;
          const WsEvent *prev = NULL;

          g_assert_cmpuint (chain->n_pieces, >=, 2);
          g_assert_cmpint (chain->start, ==, ws_trace_get_event (trace, chain->first)->time);
          for (guint k = 0; k < th->n_events; k++)
            {
              guint i = th->events[k];
              const WsEvent *e = ws_trace_get_event (trace, i);

              if (ws_false_runs_chain_of (fr, i) != chain)
                continue;
              g_assert_cmpint (e->time, >=, chain->start);
              g_assert_cmpint (e->time + ws_event_duration (e), <=, chain->end);
              if (e->kind != WS_EVENT_WAIT)
                continue;
              pieces++;
              g_assert_cmpuint (e->stack, ==, ws_trace_get_event (trace, chain->first)->stack);
              if (prev != NULL)
                {
                  g_assert_true (ws_false_runs_is_timed_out_lock_wait (trace, ws_frame_classifier_get_default (),
                                                                       prev - ws_trace_get_events (trace)));
                  g_assert_cmpint (e->time - (prev->time + ws_event_duration (prev)), <, ws_event_duration (prev));
                }
              prev = e;
              if (i == chain->last)
                g_assert_cmpint (e->time + ws_event_duration (e), ==, chain->end);
            }
          g_assert_cmpuint (pieces, ==, chain->n_pieces);
          in_chains += pieces;
        }
      g_assert_cmpuint (in_chains, <=, n_waits);

      /* Maximal: a timed-out try followed, briefly, by the same try is
       * always joined to it. */
      for (guint w = 0; w + 1 < n_waits; w++)
        {
          guint i = nth_wait (trace, app, w), j = nth_wait (trace, app, w + 1);
          const WsEvent *p = ws_trace_get_event (trace, i), *q = ws_trace_get_event (trace, j);

          if (ws_false_runs_is_timed_out_lock_wait (trace, ws_frame_classifier_get_default (), i)
              && q->stack == p->stack && q->time - (p->time + ws_event_duration (p)) < ws_event_duration (p))
            {
              g_assert_nonnull (ws_false_runs_chain_of (fr, j));
              g_assert_true (ws_false_runs_chain_of (fr, i) == ws_false_runs_chain_of (fr, j));
            }
          if (p->stack != q->stack)
            g_assert_true (ws_false_runs_chain_of (fr, j) == NULL || ws_false_runs_chain_of (fr, j) != ws_false_runs_chain_of (fr, i));
        }
    }
}

static WsTrace *
load_cause (const char *file)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, "causes", file, NULL);
  trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static guint
thread_named (WsTrace *trace, const char *name)
{
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, name) == 0)
      return t;
  g_assert_not_reached ();
}

/* A real timed lock loop (tests/data/workloads/timed_lock.c): tl-waiter
 * tries the lock with a 1 ms deadline while tl-holder computes
 * build_report under it for ~6 ms.  The tries are joined; tl-poller's
 * nanosleep loop is not.  Over the waiter's whole recording, the wait
 * graph gives the timer no lock wait time (each joined wait is readied by
 * the holder), and `why` names the holder's build_report first. */
static void
test_real_timed_lock (void)
{
  g_autoptr(WsTrace) trace = load_cause ("timed-lock.perf.txt.gz");
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(GArray) targets = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(WsAttribution) attribution = NULL;
  g_autoptr(GError) error = NULL;
  const WsFalseRuns *fr;
  guint waiter, holder, poller, joined = 0, pieces = 0, by_holder = 0, kinds[WS_WAKE_UNKNOWN + 1] = { 0 };
  WsTime timer_lock = 0, holder_lock = 0, timer_tries = 0, holder_tries = 0;
  WsSymptom symptom;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  waiter = thread_named (trace, "tl-waiter");
  holder = thread_named (trace, "tl-holder");
  poller = thread_named (trace, "tl-poller");
  fr = ws_false_runs_get (trace, NULL);
  for (guint c = 0; c < ws_false_runs_get_n_chains (fr); c++)
    {
      const WsWaitChain *chain = ws_false_runs_get_chain (fr, c);
      guint readier = WS_NONE;

      g_assert_cmpuint (ws_trace_get_event (trace, chain->first)->thread, !=, poller);
      if (ws_trace_get_event (trace, chain->first)->thread != waiter)
        continue;
      joined++;
      pieces += chain->n_pieces;
      kinds[ws_frame_classifier_classify_wake (ws_frame_classifier_get_default (), trace, chain->last, &readier)]++;
      by_holder += readier == holder;
    }
  g_test_message ("timed-lock: %u joined waits of tl-waiter from %u tries, %u ended by tl-holder, "
                  "%u by a thread, %u by a timer, %u by an interrupt, %u by no recorded wake-up",
                  joined, pieces, by_holder, kinds[WS_WAKE_THREAD], kinds[WS_WAKE_TIMER], kinds[WS_WAKE_INTERRUPT],
                  kinds[WS_WAKE_UNKNOWN]);
  g_assert_cmpuint (joined, >, 50);
  /* Those a thread ended, the holder ended (one wake-up in a few hundred
   * delivered by an interrupt may be read as another thread's). */
  g_assert_cmpuint (by_holder, >=, kinds[WS_WAKE_THREAD] * 9 / 10);
  g_assert_cmpuint (kinds[WS_WAKE_THREAD], >, joined / 2);

  symptom = (WsSymptom) { waiter, ws_trace_get_thread (trace, waiter)->first_seen, ws_trace_get_thread (trace, waiter)->last_seen };
  graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    {
      const WsWaitNode *n = ws_wait_graph_get_node (graph, i);

      if (!(n->flags & WS_WAIT_NODE_FLAG_SYMPTOM) || n->kind != WS_WAIT_NODE_WAIT || !(n->flags & WS_WAIT_NODE_FLAG_LOCK))
        continue;
      if (n->wake == WS_WAKE_TIMER)
        timer_lock += n->duration;
      else if (n->readier_thread == holder)
        holder_lock += n->duration;
    }
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      guint readier = WS_NONE;
      WsWakeKind kind;

      if (e->thread != waiter || e->kind != WS_EVENT_WAIT
          || !ws_frame_classifier_is_lock_wait (ws_frame_classifier_get_default (), trace, i))
        continue;
      kind = ws_frame_classifier_classify_wake (ws_frame_classifier_get_default (), trace, i, &readier);
      if (kind == WS_WAKE_TIMER)
        timer_tries += ws_event_duration (e);
      else if (readier == holder)
        holder_tries += ws_event_duration (e);
    }
  g_test_message ("timed-lock: tl-waiter's lock waits: %.1f ms readied by tl-holder, %.1f ms by the timer "
                  "(tries one by one: %.1f ms and %.1f ms)",
                  holder_lock / 1e6, timer_lock / 1e6, holder_tries / 1e6, timer_tries / 1e6);
  /* Tries one by one, the timer ends most of the waiting; joined, the
   * holder does.  What the timer still ends are tries after which the
   * thread took the lock without blocking (released during its check: no
   * wake-up to record) and tries nothing re-entered. */
  g_assert_cmpint (timer_tries, >, holder_tries);
  g_assert_cmpint (timer_lock, <, holder_lock / 4);

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_waiting_threads_full (traces, NULL, 3, NULL);
  attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  top = ws_attribution_get_cause (attribution, 0);
  g_test_message ("timed-lock: %s (%.1f %%)", top->label, 100 * top->share);
  g_assert_cmpint (top->kind, ==, WS_CAUSE_RUNNING);
  g_assert_nonnull (top->top_function);
  g_assert_nonnull (strstr (top->top_function, "build_report"));
  /* The lock tries the timer still ends (see above) are far behind; the
   * timer that ends the waiter's usleep is that sleep's true end. */
  for (guint i = 0; i < ws_attribution_get_n_causes (attribution); i++)
    {
      const WsCause *c = ws_attribution_get_cause (attribution, i);

      if (c->kind == WS_CAUSE_BLOCKED && strstr (c->signature, "futex") != NULL)
        {
          g_test_message ("timed-lock: %s: %.1f ms, %.1f ms of it ended by a timer",
                          c->label, c->time / 1e6, c->timer_time / 1e6);
          g_assert_cmpint (c->timer_time, <, top->time / 10);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/false-runs/fold", test_fold);
  g_test_add_func ("/false-runs/work-between", test_work_between);
  g_test_add_func ("/false-runs/sleep-loop", test_sleep_loop);
  g_test_add_func ("/false-runs/other-lock", test_other_lock);
  g_test_add_func ("/false-runs/same-call", test_same_call);
  g_test_add_func ("/false-runs/laws", test_laws);
  g_test_add_func ("/false-runs/wait-graph", test_wait_graph);
  g_test_add_func ("/false-runs/ready-tree", test_ready_tree);
  g_test_add_func ("/false-runs/why", test_why);
  g_test_add_func ("/false-runs/contrast", test_contrast);
  g_test_add_func ("/false-runs/real-timed-lock", test_real_timed_lock);
  return g_test_run ();
}
