/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cause-chain.h"
#include "ws-cli-test-util.h"
#include "ws-chain.h"
#include "ws-error.h"
#include "ws-false-run.h"
#include "ws-graph-export.h"
#include "ws-ready-tree.h"
#include "ws-trace-loader.h"

/*
 * The hand-built trace (ns).  T is the thread of interest.
 *
 *  T  run [0,100)  wT [100,1000) lock, readied by P  run [1000,1100)
 *     wT0 [1100,2100) select, readied by P (socket)  run [2100,2200)
 *  P  wP0 [0,40) lock by V  run  wP1 [50,200) lock by Q  run  wP2 [300,700) socket by R
 *     run  wP3 [800,890) nanosleep, hrtimer  run [890,2200)
 *  Q  run [0,20)  wQ1 [20,150) lock, no wake-up recorded  run [150,2200)
 *  R  run [0,250)  wR1 [250,450) lock by S  run  wR2 [500,650) lock by S  run [650,2200)
 *  S  run [0,100)  wS1 [100,240) lock by V  run  wS2 [470,600) lock by V  run [600,2200)
 *  V  run [0,2200)
 *
 * Ready tree of wT worked by hand (children = readier's waits with
 * time < wake and end > max (wait start, 100)):
 *   0 wT  (900) -> P: wP1, wP2, wP3 (wP0 ended at 40, before wT began)
 *   1 wP1 (150) -> Q: wQ1                     4 wQ1 (130) unknown readier
 *   2 wP2 (400) -> R: wR1, wR2                5 wR1 (200) S has no wait in (250,450): readier ran
 *   3 wP3 (90)  timer: false run              6 wR2 (150) -> S: wS2
 *                                             7 wS2 (130) V never waits: readier ran
 * Chains (leaves depth first): [0,1,4] [0,2,5] [0,2,6,7] [0,3]
 *   costs 900 150 130 | 900 400 200 | 900 400 150 130 | 900 90
 *   average 393.33 / 500 / 395 / 495   median 150 / 400 / 275 / 495
 *   total 1180 / 1500 / 1580 / 990     count 3 / 3 / 4 / 2    max 900 each
 */
typedef struct {
  WsTestTrace *tt;
  guint T, P, Q, R, S, V, W;
  guint wT, wT0, wP0, wP1, wP2, wP3, wQ1, wR1, wR2, wS1, wS2;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId lock = ws_test_trace_stack (tt, "main;pthread_mutex_lock;__lll_lock_wait;futex_wait");
  WsStackId release = ws_test_trace_stack (tt, "main;pthread_mutex_unlock;__lll_unlock_wake;futex_wake");
  WsStackId sock = ws_test_trace_stack (tt, "main;read_socket;sock_recvmsg;schedule");
  WsStackId sock_wake = ws_test_trace_stack (tt, "main;send;sock_def_readable;try_to_wake_up");
  WsStackId sleep = ws_test_trace_stack (tt, "main;nanosleep;do_nanosleep;schedule");
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;__hrtimer_run_queues;hrtimer_wakeup;try_to_wake_up");
  WsStackId select = ws_test_trace_stack (tt, "main;select;do_select;schedule");
  WsStackId work = ws_test_trace_stack (tt, "main;work");

  f->T = ws_test_trace_thread (tt, 1, 1, "interest");
  f->P = ws_test_trace_thread (tt, 2, 1, "parent");
  f->Q = ws_test_trace_thread (tt, 3, 1, "q");
  f->R = ws_test_trace_thread (tt, 4, 1, "r");
  f->S = ws_test_trace_thread (tt, 5, 1, "s");
  f->V = ws_test_trace_thread (tt, 6, 1, "v");
  f->W = ws_test_trace_thread (tt, 0, 0, "swapper/0");

  ws_test_trace_run (tt, f->T, 0, 100, work);
  f->wT = ws_test_trace_wait (tt, f->T, 100, 1000, lock);
  ws_test_trace_run (tt, f->T, 1000, 1100, work);
  f->wT0 = ws_test_trace_wait (tt, f->T, 1100, 2100, select);
  ws_test_trace_run (tt, f->T, 2100, 2200, work);

  f->wP0 = ws_test_trace_wait (tt, f->P, 0, 40, lock);
  ws_test_trace_run (tt, f->P, 40, 50, work);
  f->wP1 = ws_test_trace_wait (tt, f->P, 50, 200, lock);
  ws_test_trace_run (tt, f->P, 200, 300, work);
  f->wP2 = ws_test_trace_wait (tt, f->P, 300, 700, sock);
  ws_test_trace_run (tt, f->P, 700, 800, work);
  f->wP3 = ws_test_trace_wait (tt, f->P, 800, 890, sleep);
  ws_test_trace_run (tt, f->P, 890, 2200, work);

  ws_test_trace_run (tt, f->Q, 0, 20, work);
  f->wQ1 = ws_test_trace_wait (tt, f->Q, 20, 150, lock);
  ws_test_trace_run (tt, f->Q, 150, 2200, work);

  ws_test_trace_run (tt, f->R, 0, 250, work);
  f->wR1 = ws_test_trace_wait (tt, f->R, 250, 450, lock);
  ws_test_trace_run (tt, f->R, 450, 500, work);
  f->wR2 = ws_test_trace_wait (tt, f->R, 500, 650, lock);
  ws_test_trace_run (tt, f->R, 650, 2200, work);

  ws_test_trace_run (tt, f->S, 0, 100, work);
  f->wS1 = ws_test_trace_wait (tt, f->S, 100, 240, lock);
  ws_test_trace_run (tt, f->S, 240, 470, work);
  f->wS2 = ws_test_trace_wait (tt, f->S, 470, 600, lock);
  ws_test_trace_run (tt, f->S, 600, 2200, work);

  ws_test_trace_run (tt, f->V, 0, 2200, work);

  ws_test_trace_wake (tt, f->P, f->wT, release);
  ws_test_trace_wake (tt, f->P, f->wT0, sock_wake);
  ws_test_trace_wake (tt, f->V, f->wP0, release);
  ws_test_trace_wake (tt, f->Q, f->wP1, release);
  ws_test_trace_wake (tt, f->R, f->wP2, sock_wake);
  ws_test_trace_hw_wake (tt, f->W, f->wP3, timer);
  ws_test_trace_wake (tt, f->S, f->wR1, release);
  ws_test_trace_wake (tt, f->S, f->wR2, release);
  ws_test_trace_wake (tt, f->V, f->wS1, release);
  ws_test_trace_wake (tt, f->V, f->wS2, release);

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
assert_chain (WsReadyTree  *tree,
              guint         chain,
              const guint  *expected,
              guint         n_expected)
{
  g_autofree guint32 *nodes = NULL;
  guint n = 0;

  nodes = ws_ready_tree_get_chain (tree, chain, &n);
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (nodes[i], ==, expected[i]);
  g_assert_cmpuint (ws_ready_tree_get_chain_leaf (tree, chain), ==, expected[n_expected - 1]);
}

static void
test_hand_built_tree (Fixture       *f,
                      gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsReadyTree) tree = ws_ready_tree_build (trace, IDX (f, f->wT), NULL, &error);
  const struct { guint built; guint parent; guint depth; WsReadyStop stop; WsWakeKind wake; guint first_child, n_children; } expected[] = {
    { f->wT,  WS_NONE, 0, WS_READY_STOP_NONE,            WS_WAKE_THREAD,  1, 3 },
    { f->wP1, 0,       1, WS_READY_STOP_NONE,            WS_WAKE_THREAD,  4, 1 },
    { f->wP2, 0,       1, WS_READY_STOP_NONE,            WS_WAKE_THREAD,  5, 2 },
    { f->wP3, 0,       1, WS_READY_STOP_FALSE_RUN,       WS_WAKE_TIMER,   WS_NONE, 0 },
    { f->wQ1, 1,       2, WS_READY_STOP_UNKNOWN_READIER, WS_WAKE_UNKNOWN, WS_NONE, 0 },
    { f->wR1, 2,       2, WS_READY_STOP_READIER_RAN,     WS_WAKE_THREAD,  WS_NONE, 0 },
    { f->wR2, 2,       2, WS_READY_STOP_NONE,            WS_WAKE_THREAD,  7, 1 },
    { f->wS2, 6,       3, WS_READY_STOP_READIER_RAN,     WS_WAKE_THREAD,  WS_NONE, 0 },
  };
  const guint c0[] = { 0, 1, 4 }, c1[] = { 0, 2, 5 }, c2[] = { 0, 2, 6, 7 }, c3[] = { 0, 3 };
  const WsReadyNode *n;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (tree), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      n = ws_ready_tree_get_node (tree, i);
      g_assert_cmpuint (n->event, ==, IDX (f, expected[i].built));
      g_assert_cmpuint (n->parent, ==, expected[i].parent);
      g_assert_cmpuint (n->depth, ==, expected[i].depth);
      g_assert_cmpuint (n->stop, ==, expected[i].stop);
      g_assert_cmpuint (n->wake, ==, expected[i].wake);
      g_assert_cmpuint (n->n_children, ==, expected[i].n_children);
      if (n->n_children > 0)
        g_assert_cmpuint (n->first_child, ==, expected[i].first_child);
    }
  g_assert_cmpuint (ws_ready_tree_get_max_depth (tree), ==, 3);

  /* Node details: the root's readier is P, and its unwait stack releases the lock. */
  n = ws_ready_tree_get_node (tree, 0);
  g_assert_cmpuint (n->thread, ==, f->T);
  g_assert_cmpint (n->time, ==, 100);
  g_assert_cmpint (n->duration, ==, 900);
  g_assert_cmpuint (n->readier_thread, ==, f->P);
  g_assert_true (n->lock_related);
  g_assert_true (ws_stack_table_stack_contains (ws_trace_get_stack_table (trace), n->unwait_stack,
                                                ws_stack_table_intern_frame (ws_trace_get_stack_table (trace), "pthread_mutex_unlock", "m")));
  g_assert_false (ws_ready_tree_get_node (tree, 2)->lock_related);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 7)->readier_thread, ==, f->V);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 3)->readier_thread, ==, WS_NONE);

  g_assert_cmpuint (ws_ready_tree_get_n_chains (tree), ==, 4);
  assert_chain (tree, 0, c0, G_N_ELEMENTS (c0));
  assert_chain (tree, 1, c1, G_N_ELEMENTS (c1));
  assert_chain (tree, 2, c2, G_N_ELEMENTS (c2));
  assert_chain (tree, 3, c3, G_N_ELEMENTS (c3));
}

static void
test_chain_metrics (Fixture       *f,
                    gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(WsReadyTree) tree = ws_ready_tree_build (trace, IDX (f, f->wT), NULL, NULL);
  const struct { guint count; WsTime total, max; double average, median; } expected[] = {
    { 3, 1180, 900, 1180.0 / 3, 150 },
    { 3, 1500, 900, 500, 400 },
    { 4, 1580, 900, 395, 275 },
    { 2, 990, 900, 495, 495 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (expected); c++)
    {
      WsChainMetrics m;

      ws_ready_tree_get_chain_metrics (tree, c, &m);
      g_assert_cmpuint (m.count, ==, expected[c].count);
      g_assert_cmpint (m.total, ==, expected[c].total);
      g_assert_cmpint (m.max, ==, expected[c].max);
      g_assert_cmpfloat_with_epsilon (m.average, expected[c].average, 1e-9);
      g_assert_cmpfloat_with_epsilon (m.median, expected[c].median, 1e-9);
    }

  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_AVERAGE), ==, 1);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_MEDIAN), ==, 3);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_TOTAL), ==, 2);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_COUNT), ==, 2);
  /* Every chain holds the root's 900: ties go to the first chain. */
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_MAX), ==, 0);
}

static void
test_metrics_compute (void)
{
  const WsTime odd[] = { 7, 1, 4 };
  const WsTime even[] = { 10, 2, 8, 4 };
  WsChainMetrics m;
  WsChainMetric metric;

  ws_chain_metrics_compute (odd, 3, &m);
  g_assert_cmpuint (m.count, ==, 3);
  g_assert_cmpint (m.total, ==, 12);
  g_assert_cmpint (m.max, ==, 7);
  g_assert_cmpfloat (m.average, ==, 4.0);
  g_assert_cmpfloat (m.median, ==, 4.0);
  g_assert_cmpfloat (ws_chain_metrics_get (&m, WS_CHAIN_METRIC_COUNT), ==, 3.0);

  ws_chain_metrics_compute (even, 4, &m);
  g_assert_cmpfloat (m.median, ==, 6.0);
  g_assert_cmpfloat (m.average, ==, 6.0);
  g_assert_cmpfloat (ws_chain_metrics_get (&m, WS_CHAIN_METRIC_MAX), ==, 10.0);
  g_assert_cmpfloat (ws_chain_metrics_get (&m, WS_CHAIN_METRIC_TOTAL), ==, 24.0);
  /* The input is left in its order. */
  g_assert_cmpint (even[0], ==, 10);

  ws_chain_metrics_compute (NULL, 0, &m);
  g_assert_cmpuint (m.count, ==, 0);
  g_assert_cmpfloat (m.average, ==, 0.0);

  g_assert_true (ws_chain_metric_from_string ("median", &metric));
  g_assert_cmpuint (metric, ==, WS_CHAIN_METRIC_MEDIAN);
  g_assert_false (ws_chain_metric_from_string ("mean", &metric));
  g_assert_cmpstr (ws_chain_metric_to_string (WS_CHAIN_METRIC_COUNT), ==, "count");
}

static void
test_lock_only (Fixture       *f,
                gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->T, 0, 2200 };
  WsReadyTreeOptions options;
  g_autoptr(WsReadyTree) any = NULL;
  g_autoptr(WsReadyTree) tree = NULL;
  const guint c0[] = { 0, 1, 4 }, c1[] = { 0, 2 }, c2[] = { 0, 3 };

  /* The longest wait is the select (1000 ns); the longest lock wait wT. */
  ws_ready_tree_options_init (&options);
  any = ws_ready_tree_build_for_symptom (trace, &symptom, &options, NULL);
  g_assert_cmpuint (ws_ready_tree_get_node (any, 0)->event, ==, IDX (f, f->wT0));
  /* P never waited during wT0: its readier ran. */
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (any), ==, 1);
  g_assert_cmpuint (ws_ready_tree_get_node (any, 0)->stop, ==, WS_READY_STOP_READIER_RAN);

  options.lock_only = TRUE;
  tree = ws_ready_tree_build_for_symptom (trace, &symptom, &options, NULL);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 0)->event, ==, IDX (f, f->wT));
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (tree), ==, 5);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 1)->stop, ==, WS_READY_STOP_NONE);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 2)->event, ==, IDX (f, f->wP2));
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 2)->stop, ==, WS_READY_STOP_NOT_LOCK_RELATED);
  /* The sleep is not lock-related either: that stop comes first. */
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 3)->stop, ==, WS_READY_STOP_NOT_LOCK_RELATED);
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 4)->event, ==, IDX (f, f->wQ1));
  g_assert_cmpuint (ws_ready_tree_get_node (tree, 4)->stop, ==, WS_READY_STOP_UNKNOWN_READIER);
  g_assert_cmpuint (ws_ready_tree_get_n_chains (tree), ==, 3);
  assert_chain (tree, 0, c0, 3);
  assert_chain (tree, 1, c1, 2);
  assert_chain (tree, 2, c2, 2);
}

static void
test_limits (Fixture       *f,
             gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsReadyTreeOptions options;
  g_autoptr(WsReadyTree) shallow = NULL;
  g_autoptr(WsReadyTree) small = NULL;
  g_autoptr(WsReadyTree) none = NULL;

  ws_ready_tree_options_init (&options);
  options.max_depth = 1;
  shallow = ws_ready_tree_build (trace, IDX (f, f->wT), &options, NULL);
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (shallow), ==, 4);
  g_assert_cmpuint (ws_ready_tree_get_node (shallow, 1)->stop, ==, WS_READY_STOP_DEPTH_LIMIT);
  g_assert_cmpuint (ws_ready_tree_get_node (shallow, 2)->stop, ==, WS_READY_STOP_DEPTH_LIMIT);
  g_assert_cmpuint (ws_ready_tree_get_node (shallow, 3)->stop, ==, WS_READY_STOP_FALSE_RUN);

  ws_ready_tree_options_init (&options);
  options.max_nodes = 4;
  small = ws_ready_tree_build (trace, IDX (f, f->wT), &options, NULL);
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (small), ==, 4);
  g_assert_cmpuint (ws_ready_tree_get_node (small, 1)->stop, ==, WS_READY_STOP_NODE_LIMIT);
  g_assert_cmpuint (ws_ready_tree_get_node (small, 2)->stop, ==, WS_READY_STOP_NODE_LIMIT);

  ws_ready_tree_options_init (&options);
  options.max_depth = 0;
  none = ws_ready_tree_build (trace, IDX (f, f->wT), &options, NULL);
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (none), ==, 1);
  g_assert_cmpuint (ws_ready_tree_get_node (none, 0)->stop, ==, WS_READY_STOP_DEPTH_LIMIT);
  g_assert_cmpuint (ws_ready_tree_get_n_chains (none), ==, 1);
}

static void
test_other_stops (void)
{
  /* X: w1 [100,300) readied by Y, first seen at 300 (trace start);
   *    w2 [400,500) readied by a kworker (false run);
   *    w3 [600,700) ended by a disk interrupt (hardware). */
  WsTestTrace *tt = ws_test_trace_new ();
  guint X = ws_test_trace_thread (tt, 1, 1, "x");
  guint Y = ws_test_trace_thread (tt, 2, 2, "y");
  guint K = ws_test_trace_thread (tt, 3, 3, "kworker/0:1H");
  guint I = ws_test_trace_thread (tt, 0, 0, "swapper/1");
  guint w1, w2, w3;
  WsStackId disk = ws_test_trace_stack (tt, "asm_common_interrupt;common_interrupt;blk_mq_end_request;try_to_wake_up");
  WsTrace *trace;
  g_autoptr(WsReadyTree) t1 = NULL;
  g_autoptr(WsReadyTree) t2 = NULL;
  g_autoptr(WsReadyTree) t3 = NULL;
  g_autoptr(GError) error = NULL;

  ws_test_trace_run (tt, X, 0, 100, 0);
  w1 = ws_test_trace_wait (tt, X, 100, 300, 0);
  ws_test_trace_run (tt, X, 300, 400, 0);
  w2 = ws_test_trace_wait (tt, X, 400, 500, 0);
  ws_test_trace_run (tt, X, 500, 600, 0);
  w3 = ws_test_trace_wait (tt, X, 600, 700, 0);
  ws_test_trace_run (tt, Y, 300, 800, 0);
  ws_test_trace_run (tt, K, 0, 800, 0);
  ws_test_trace_wake (tt, Y, w1, 0);
  ws_test_trace_wake (tt, K, w2, 0);
  ws_test_trace_hw_wake (tt, I, w3, disk);
  ws_test_trace_finish (tt);
  trace = ws_test_trace_get_trace (tt);

  t1 = ws_ready_tree_build (trace, ws_test_trace_index (tt, w1), NULL, NULL);
  t2 = ws_ready_tree_build (trace, ws_test_trace_index (tt, w2), NULL, NULL);
  t3 = ws_ready_tree_build (trace, ws_test_trace_index (tt, w3), NULL, NULL);
  g_assert_cmpuint (ws_ready_tree_get_node (t1, 0)->stop, ==, WS_READY_STOP_TRACE_START);
  g_assert_cmpuint (ws_ready_tree_get_node (t2, 0)->stop, ==, WS_READY_STOP_FALSE_RUN);
  g_assert_cmpuint (ws_ready_tree_get_node (t2, 0)->wake, ==, WS_WAKE_HEARTBEAT);
  g_assert_cmpuint (ws_ready_tree_get_node (t2, 0)->readier_thread, ==, K);
  g_assert_cmpuint (ws_ready_tree_get_node (t3, 0)->stop, ==, WS_READY_STOP_HARDWARE);

  /* A ready tree starts from a wait, nothing else. */
  g_assert_null (ws_ready_tree_build (trace, 0, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);

  ws_test_trace_free (tt);
}

/* The expansion rule recomputed by a full scan of the trace, for every
 * node of trees built on synthetic traces. */
static void
test_against_scan (void)
{
  for (guint seed = 1; seed <= 6; seed++)
    {
      WsSymptom s;
      g_autoptr(WsTrace) trace = ws_synthetic_wait_trace (12, 300, seed, &s);
      const WsEvent *ev = ws_trace_get_events (trace);
      guint n_events = ws_trace_get_n_events (trace);
      guint checked = 0, expanded = 0, joined = 0;
      const WsFalseRuns *fr = ws_false_runs_get (trace, NULL);

      for (guint root = 0; root < n_events; root++)
        {
          g_autoptr(WsReadyTree) tree = NULL;
          WsReadyTreeOptions options;
          const WsWaitChain *root_chain;
          WsTime root_time;

          if (ev[root].kind != WS_EVENT_WAIT || ev[root].thread != s.thread)
            continue;

          /* The root is the whole chain when it is one try of one. */
          root_chain = ws_false_runs_chain_of (fr, root);
          root_time = root_chain != NULL ? root_chain->start : ev[root].time;
          ws_ready_tree_options_init (&options);
          options.max_depth = 6;
          tree = ws_ready_tree_build (trace, root, &options, NULL);
          for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
            {
              const WsReadyNode *n = ws_ready_tree_get_node (tree, i);
              WsTime lo = MAX (n->time, root_time), wake = n->time + n->duration;
              g_autoptr(GArray) expect = g_array_new (FALSE, FALSE, sizeof (guint32));
              const WsWaitChain *chain;
              guint readier;

              if (n->stop != WS_READY_STOP_NONE && n->stop != WS_READY_STOP_READIER_RAN &&
                  n->stop != WS_READY_STOP_TRACE_START)
                continue;
              /* A chain of timed-out tries of one lock is one wait: its
               * last try's readier, its whole span, given by its first try
               * (docs/attribution.md). */
              chain = ws_false_runs_chain_of (fr, n->event);
              g_assert_cmpuint (ws_trace_wait_readier (trace, chain ? chain->last : n->event, &readier), ==, WS_READIER_THREAD);
              for (guint e = 0; e < n_events; e++)
                {
                  const WsWaitChain *c;

                  if (ev[e].thread != readier || ev[e].kind != WS_EVENT_WAIT)
                    continue;
                  if ((c = ws_false_runs_chain_of (fr, e)) != NULL)
                    {
                      if (e == c->first && c->start < wake && c->end > lo)
                        g_array_append_val (expect, e);
                    }
                  else if (ev[e].time < wake && ev[e].time + ws_event_duration (&ev[e]) > lo)
                    g_array_append_val (expect, e);
                }
              joined += chain != NULL;

              g_assert_cmpuint (n->n_children, ==, expect->len);
              for (guint c = 0; c < n->n_children; c++)
                {
                  const WsReadyNode *child = ws_ready_tree_get_node (tree, n->first_child + c);
                  g_assert_cmpuint (child->event, ==, g_array_index (expect, guint32, c));
                  g_assert_cmpuint (child->parent, ==, i);
                  g_assert_cmpuint (child->depth, ==, n->depth + 1);
                }
              checked++;
              expanded += n->n_children > 0;
            }
        }
      g_test_message ("seed %u: %u nodes checked, %u with children, %u joined waits", seed, checked, expanded, joined);
      g_assert_cmpuint (checked, >, 10);
      g_assert_cmpuint (expanded, >, 3);
    }
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(WsReadyTree) tree = ws_ready_tree_build (trace, IDX (f, f->wT), NULL, NULL);
  g_autoptr(JsonNode) root = ws_graph_export_ready_tree_json (tree, WS_CHAIN_METRIC_AVERAGE);
  g_autofree char *text = ws_graph_export_json_to_string (root);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *dot = ws_graph_export_ready_tree_dot (tree, WS_CHAIN_METRIC_TOTAL);
  JsonObject *obj, *node, *chain;
  JsonArray *nodes, *chains;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (obj, "metric"), ==, "average");
  g_assert_cmpint (json_object_get_int_member (obj, "anomalous_chain"), ==, 1);
  nodes = json_object_get_array_member (obj, "nodes");
  g_assert_cmpuint (json_array_get_length (nodes), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      node = json_array_get_object_element (nodes, i);
      /* Chain 1 = nodes 0, 2, 5. */
      g_assert_cmpint (json_object_get_boolean_member (node, "anomalous"), ==, i == 0 || i == 2 || i == 5);
    }
  node = json_array_get_object_element (nodes, 3);
  g_assert_cmpstr (json_object_get_string_member (node, "stop"), ==, "false-run");
  g_assert_cmpstr (json_object_get_string_member (node, "wake"), ==, "timer");
  g_assert_cmpint (json_object_get_int_member (node, "parent"), ==, 0);
  node = json_array_get_object_element (nodes, 5);
  g_assert_cmpstr (json_object_get_string_member (node, "readier_thread"), ==, "s");
  chains = json_object_get_array_member (obj, "chains");
  g_assert_cmpuint (json_array_get_length (chains), ==, 4);
  chain = json_array_get_object_element (chains, 2);
  g_assert_cmpint (json_object_get_int_member (chain, "total"), ==, 1580);
  g_assert_cmpfloat (json_object_get_double_member (chain, "median"), ==, 275.0);

  /* With the total metric chain 2 (0, 2, 6, 7) is red. */
  g_assert_nonnull (strstr (dot, "  n2 -> n6 [color=red, penwidth=2];\n"));
  g_assert_nonnull (strstr (dot, "  n6 -> n7 [color=red, penwidth=2];\n"));
  g_assert_nonnull (strstr (dot, "  n0 -> n1;\n"));
  g_assert_nonnull (strstr (dot, "  n7 -> r7 [color=red, penwidth=2];\n"));
  g_assert_nonnull (strstr (dot, "v (6)\\nran and readied it"));
}

/* ---- the frame classifier ---- */

static void
test_classifier_defaults (void)
{
  WsFrameClassifier *c = ws_frame_classifier_get_default ();
  const char *lock[] = {
    "sem_post@GLIBC_2.2.5", "futex_wait", "__futex_abstimed_wait_common", "__lll_lock_wait",
    "pthread_cond_signal@@GLIBC_2.3.2", "___pthread_cond_timedwait64", "__new_sem_wait_slow64",
    "PyThread_acquire_lock_timed", "take_gil", "rwsem_down_read_slowpath", "__mutex_lock.constprop.0",
    "LWLockAcquire", "LockAcquireExtended", "ProcSleep", "XactLockTableWait",
    "LockReleaseAll", "ProcReleaseLocks",
  };
  /* Disk waits and epoll are not locks (issue 8): a PostgreSQL pg_sleep
   * and every latch wait go through epoll_wait. */
  const char *not_lock[] = { "do_nanosleep", "PyObject_Free", "ProcSleepX", "schedule", "[unknown]", "secure_read",
                             "io_schedule", "ep_poll", "do_epoll_wait", "epoll_wait", "WaitLatch" };

  for (guint i = 0; i < G_N_ELEMENTS (lock); i++)
    g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, lock[i]));
  for (guint i = 0; i < G_N_ELEMENTS (not_lock); i++)
    g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, not_lock[i]));

  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_FALSE_RUN, "hrtimer_wakeup"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_FALSE_RUN, "it_real_fn"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_FALSE_RUN, "futex_wake"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_INTERRUPT, "asm_sysvec_apic_timer_interrupt"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_INTERRUPT, "blk_mq_end_request"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_INTERRUPT, "ep_poll_callback"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_HEARTBEAT_THREAD, "kworker/0:1H"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_HEARTBEAT_THREAD, "ksoftirqd/1"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_HEARTBEAT_THREAD, "pylk-w0"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_DAEMON, "systemd-journald"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_DAEMON, "dbus-daemon"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_DAEMON, "postgres"));
}

static void
test_classifier_key_file (void)
{
  g_autoptr(WsFrameClassifier) c = ws_frame_classifier_new ();
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GKeyFile) bad = g_key_file_new ();
  g_autoptr(GKeyFile) bad_regex = g_key_file_new ();
  g_autoptr(GKeyFile) saved = g_key_file_new ();
  g_autoptr(WsFrameClassifier) copy = ws_frame_classifier_new_empty ();
  g_auto(GStrv) patterns = NULL;
  g_auto(GStrv) copied = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int fd;

  g_assert_true (g_key_file_load_from_data (kf,
                                            "[classifier]\n"
                                            "lock-frames=^my_lock$;^my_unlock$;\n"
                                            "lock-frames-extra=^other_lock$;\n"
                                            "heartbeat-threads-extra=^pylk-w5$;\n", -1, 0, NULL));
  g_assert_true (ws_frame_classifier_load_key_file (c, kf, &error));
  g_assert_no_error (error);
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, "my_lock"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, "other_lock"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, "futex_wait"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_HEARTBEAT_THREAD, "pylk-w5"));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_HEARTBEAT_THREAD, "kworker/1:0"));
  patterns = ws_frame_classifier_get_patterns (c, WS_FRAME_CATEGORY_LOCK);
  g_assert_cmpuint (g_strv_length (patterns), ==, 3);
  g_assert_cmpstr (patterns[2], ==, "^other_lock$");

  /* A typo in a key, or a bad pattern, changes nothing. */
  g_assert_true (g_key_file_load_from_data (bad, "[classifier]\nlock-frame=^x$;\n", -1, 0, NULL));
  g_assert_false (ws_frame_classifier_load_key_file (c, bad, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (g_key_file_load_from_data (bad_regex, "[classifier]\nlock-frames=^ok$;(unclosed;\n", -1, 0, NULL));
  g_assert_false (ws_frame_classifier_load_key_file (c, bad_regex, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "(unclosed"));
  g_clear_error (&error);
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, "my_lock"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_LOCK, "ok"));

  /* Save and load round trip. */
  ws_frame_classifier_save_to_key_file (c, saved);
  g_assert_true (ws_frame_classifier_load_key_file (copy, saved, &error));
  for (guint cat = 0; cat < WS_N_FRAME_CATEGORIES; cat++)
    {
      g_auto(GStrv) a = ws_frame_classifier_get_patterns (c, cat);
      g_auto(GStrv) b = ws_frame_classifier_get_patterns (copy, cat);
      g_assert_true (g_strv_equal ((const char * const *) a, (const char * const *) b));
    }
  copied = ws_frame_classifier_get_patterns (copy, WS_FRAME_CATEGORY_DAEMON);
  g_assert_cmpuint (g_strv_length (copied), >, 5);

  /* Files: errors name the file. */
  fd = g_file_open_tmp ("ws-classifier-XXXXXX.ini", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, "[classifier]\ndaemon-processes=(;\n", -1, NULL));
  g_assert_false (ws_frame_classifier_load_file (c, path, &error));
  g_assert_true (g_str_has_prefix (error->message, path));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (path, "[classifier]\ndaemon-processes=^mydaemon$;\n", -1, NULL));
  g_assert_true (ws_frame_classifier_load_file (c, path, &error));
  g_assert_true (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_DAEMON, "mydaemon"));
  g_assert_false (ws_frame_classifier_match (c, WS_FRAME_CATEGORY_DAEMON, "systemd"));
  g_unlink (path);
  g_assert_false (ws_frame_classifier_load_file (c, path, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
}

static void
test_classifier_stacks_and_waits (Fixture       *f,
                                  gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  g_autoptr(WsFrameClassifier) c = ws_frame_classifier_new ();
  WsStackId sleep = ws_trace_get_event (trace, IDX (f, f->wP3))->stack;

  /* The lock test looks at both stacks: wP2 (socket) is not lock-related;
   * wT0 waits in select but... is readied by a socket wake-up: not either. */
  g_assert_true (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wT)));
  g_assert_false (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wP2)));
  g_assert_false (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wT0)));
  g_assert_false (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wP3)));

  /* Classification follows pattern changes (the per-frame cache is dropped). */
  g_assert_false (ws_frame_classifier_stack_matches (c, WS_FRAME_CATEGORY_LOCK, stacks, sleep));
  g_assert_true (ws_frame_classifier_add_pattern (c, WS_FRAME_CATEGORY_LOCK, "^do_nanosleep$", NULL));
  g_assert_true (ws_frame_classifier_stack_matches (c, WS_FRAME_CATEGORY_LOCK, stacks, sleep));
  g_assert_true (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wP3)));
  ws_frame_classifier_clear (c, WS_FRAME_CATEGORY_LOCK);
  g_assert_false (ws_frame_classifier_is_lock_wait (c, trace, IDX (f, f->wT)));

  /* Wake kinds. */
  g_assert_cmpuint (ws_frame_classifier_classify_wake (c, trace, IDX (f, f->wP3), NULL), ==, WS_WAKE_TIMER);
  g_assert_cmpuint (ws_frame_classifier_classify_wake (c, trace, IDX (f, f->wQ1), NULL), ==, WS_WAKE_UNKNOWN);
  g_assert_cmpuint (ws_frame_classifier_classify_wake (c, trace, IDX (f, f->wP1), NULL), ==, WS_WAKE_THREAD);
}

/* ---- the shared recordings ---- */

static WsTrace *
load_shared (const char *name)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, name, NULL);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static gboolean
thread_is (WsTrace    *trace,
           guint       thread,
           const char *prefix)
{
  return thread != WS_NONE && g_str_has_prefix (ws_trace_get_thread (trace, thread)->name, prefix);
}

/*
 * py-locks: six workers take turns at one lock, each holding it across a
 * 2 ms sleep.  For every worker, the ready tree of its longest lock-related
 * wait over the whole recording is readied by another worker releasing the
 * lock or the GIL (futex_wake in the unwait stack), its anomalous chain
 * stays among the workers, and it ends at the worker that held the lock:
 * either the leaf's readier, which ran, or the leaf's own thread, which
 * readied the leaf's parent and was itself in a non-lock wait (the sleep
 * it takes while holding the lock) or woken by a timer.
 */
static void
test_py_locks (void)
{
  g_autoptr(WsTrace) trace = load_shared ("py-locks.perf.txt.gz");
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  WsStackTable *stacks;
  WsFrameId futex_wake;
  guint workers = 0;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  stacks = ws_trace_get_stack_table (trace);
  futex_wake = ws_stack_table_intern_frame (stacks, "futex_wake", "[kernel.kallsyms]");

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      WsSymptom s = { t, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) };
      WsReadyTreeOptions options;
      g_autoptr(WsReadyTree) tree = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree guint32 *chain = NULL;
      g_autoptr(GHashTable) chain_threads = g_hash_table_new (g_direct_hash, g_direct_equal);
      const WsReadyNode *root, *leaf;
      guint n = 0, anomalous, holder;

      if (!thread_is (trace, t, "pylk-w"))
        continue;
      workers++;

      ws_ready_tree_options_init (&options);
      options.lock_only = TRUE;
      tree = ws_ready_tree_build_for_symptom (trace, &s, &options, &error);
      g_assert_no_error (error);

      root = ws_ready_tree_get_node (tree, 0);
      g_assert_true (root->lock_related);
      g_assert_true (ws_frame_classifier_is_lock_wait (classifier, trace, root->event));
      g_assert_cmpuint (root->wake, ==, WS_WAKE_THREAD);
      g_assert_true (thread_is (trace, root->readier_thread, "pylk-w"));
      g_assert_cmpuint (root->readier_thread, !=, t);
      g_assert_true (ws_stack_table_stack_contains (stacks, root->unwait_stack, futex_wake));

      anomalous = ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_AVERAGE);
      chain = ws_ready_tree_get_chain (tree, anomalous, &n);
      for (guint i = 0; i < n; i++)
        {
          const WsReadyNode *node = ws_ready_tree_get_node (tree, chain[i]);
          g_assert_true (thread_is (trace, node->thread, "pylk-w"));
          if (i > 0)
            g_assert_cmpuint (node->thread, ==, ws_ready_tree_get_node (tree, chain[i - 1])->readier_thread);
          g_hash_table_add (chain_threads, GUINT_TO_POINTER (node->thread));
        }
      leaf = ws_ready_tree_get_node (tree, chain[n - 1]);
      if (leaf->stop == WS_READY_STOP_READIER_RAN)
        holder = leaf->readier_thread;
      else
        {
          g_assert_true (leaf->stop == WS_READY_STOP_NOT_LOCK_RELATED || leaf->stop == WS_READY_STOP_FALSE_RUN);
          g_assert_cmpuint (n, >, 1);
          holder = leaf->thread;
        }
      g_test_message ("%s: longest lock wait %.3f ms, %u nodes, depth %u; anomalous chain of %u through %u workers ends %s, lock holder %s",
                      ws_trace_get_thread (trace, t)->name, root->duration / 1e6,
                      ws_ready_tree_get_n_nodes (tree), ws_ready_tree_get_max_depth (tree), n,
                      g_hash_table_size (chain_threads), ws_ready_stop_to_string (leaf->stop),
                      ws_trace_get_thread (trace, holder)->name);
      g_assert_true (thread_is (trace, holder, "pylk-w"));
      g_assert_cmpuint (holder, !=, t);

      /* Every node whose readier ran names a worker. */
      for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
        {
          const WsReadyNode *node = ws_ready_tree_get_node (tree, i);
          if (node->stop == WS_READY_STOP_READIER_RAN)
            g_assert_true (thread_is (trace, node->readier_thread, "pylk-w"));
        }
    }
  g_assert_cmpuint (workers, ==, 6);
}

static gboolean
stack_has_any (WsStackTable       *stacks,
               WsStackId           stack,
               const char * const *functions)
{
  const WsFrameId *frames;
  guint n = 0;

  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; functions[k] != NULL; k++)
      if (g_str_equal (ws_stack_table_get_frame (stacks, frames[i])->function, functions[k]))
        return TRUE;
  return FALSE;
}

/*
 * pg-tpcb: the longest transaction waits on the single pgbench_branches
 * row.  Its ready tree starts at that wait (ProcSleep under
 * XactLockTableWait), readied by the backend that held the row lock: the
 * unwait stack is that backend's commit (kill <- LockReleaseAll <-
 * ProcReleaseLocks <- CommitTransactionCommand), and the trace shows that
 * backend inside a transaction from before the wait began until just
 * before the wake-up.
 */
static void
test_pg_tpcb (void)
{
  static const char * const lock_wait[] = { "ProcSleep", "XactLockTableWait", NULL };
  static const char * const release[] = { "LockReleaseAll", "ProcReleaseLocks", "CommitTransactionCommand", NULL };
  g_autoptr(WsTrace) trace = load_shared ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  WsStackTable *stacks;
  WsSymptom s;
  guint longest = WS_NONE, n, holder_nodes = 0;
  gboolean root_ok = FALSE;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  stacks = ws_trace_get_stack_table (trace);
  if (ws_trace_get_n_scenario_instances (trace) == 0)
    ws_trace_add_scenario_instances (trace, "transaction", "sdt_postgresql:transaction__start",
                                     "sdt_postgresql:transaction__commit");
  n = ws_trace_get_n_scenario_instances (trace);
  g_assert_cmpuint (n, >, 1000);
  for (guint i = 0; i < n; i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      const WsScenarioInstance *best = longest != WS_NONE ? ws_trace_get_scenario_instance (trace, longest) : NULL;
      if (best == NULL || inst->t1 - inst->t0 > best->t1 - best->t0)
        longest = i;
    }
  g_assert_true (ws_symptom_from_scenario_instance (trace, longest, &s));

  tree = ws_ready_tree_build_for_symptom (trace, &s, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
    {
      const WsReadyNode *node = ws_ready_tree_get_node (tree, i);
      WsTime wake = node->time + node->duration;
      gboolean in_transaction = FALSE;

      if (!stack_has_any (stacks, node->stack, lock_wait) || !stack_has_any (stacks, node->unwait_stack, release))
        continue;

      /* The readier is another postgres backend... */
      g_assert_cmpuint (node->wake, ==, WS_WAKE_THREAD);
      g_assert_true (thread_is (trace, node->readier_thread, "postgres"));
      g_assert_cmpuint (node->readier_thread, !=, node->thread);
      /* ...that was in a transaction when this wait began and committed it
       * (at most 1 ms) before the wake-up: it held the lock. */
      for (guint k = 0; k < n; k++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);
          if (inst->thread == node->readier_thread && inst->t0 <= node->time &&
              inst->t1 <= wake && inst->t1 >= wake - 1000000)
            in_transaction = TRUE;
        }
      if (in_transaction)
        holder_nodes++;
      if (i == 0)
        {
          root_ok = in_transaction;
          g_test_message ("longest transaction %.3f ms (tid %d): root wait %.3f ms readied by tid %d committing; "
                          "%u nodes, depth %u",
                          (s.t1 - s.t0) / 1e6, ws_trace_get_thread (trace, s.thread)->tid, node->duration / 1e6,
                          ws_trace_get_thread (trace, node->readier_thread)->tid,
                          ws_ready_tree_get_n_nodes (tree), ws_ready_tree_get_max_depth (tree));
        }
    }
  g_test_message ("%u row-lock waits in the tree readied by a committing lock holder", holder_nodes);
  g_assert_true (root_ok);
}

/* waitscope-cli readytree prints the tree and anomalous chain the core computes. */
static void
test_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  WsReadyTreeOptions options;
  WsSymptom s;
  const struct { const char *metric; WsChainMetric value; } metrics[] = {
    { "average", WS_CHAIN_METRIC_AVERAGE }, { "total", WS_CHAIN_METRIC_TOTAL }, { "count", WS_CHAIN_METRIC_COUNT },
  };

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s.thread = ws_trace_find_thread (trace, 11586);
  s.t0 = ws_trace_get_start_time (trace);
  s.t1 = ws_trace_get_end_time (trace);

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      g_autofree char *out = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(WsReadyTree) tree = NULL;
      JsonObject *obj;
      JsonArray *nodes;

      g_assert_cmpint (ws_test_run_cli ((const char *[]) { "readytree", "--trace", path, "--tid", "11586", "--lock-only",
                                                           "--chain-metric", metrics[m].metric, NULL }, &out, NULL), ==, 0);
      g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
      obj = json_node_get_object (json_parser_get_root (parser));

      ws_ready_tree_options_init (&options);
      options.lock_only = TRUE;
      tree = ws_ready_tree_build_for_symptom (trace, &s, &options, NULL);
      nodes = json_object_get_array_member (obj, "nodes");
      g_assert_cmpuint (json_array_get_length (nodes), ==, ws_ready_tree_get_n_nodes (tree));
      g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (nodes, 0), "event"), ==,
                       ws_ready_tree_get_node (tree, 0)->event);
      g_assert_cmpstr (json_object_get_string_member (obj, "metric"), ==, metrics[m].metric);
      g_assert_cmpint (json_object_get_int_member (obj, "anomalous_chain"), ==,
                       ws_ready_tree_anomalous_chain (tree, metrics[m].value));
    }

  /* Depth limit, an explicit root, DOT, and a bad metric. */
  {
    g_autofree char *out = NULL;
    g_autofree char *dot = NULL;
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(WsReadyTree) tree = NULL;
    g_autofree char *event = NULL;
    JsonObject *obj;

    ws_ready_tree_options_init (&options);
    tree = ws_ready_tree_build_for_symptom (trace, &s, &options, NULL);
    event = g_strdup_printf ("%u", ws_ready_tree_get_node (tree, 0)->event);
    g_assert_cmpint (ws_test_run_cli ((const char *[]) { "readytree", "--trace", path, "--event", event,
                                                         "--max-depth", "1", NULL }, &out, NULL), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    obj = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (obj, "max_depth"), <=, 1);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (obj, "nodes"), 0), "event"),
                     ==, ws_ready_tree_get_node (tree, 0)->event);

    g_assert_cmpint (ws_test_run_cli ((const char *[]) { "readytree", "--trace", path, "--tid", "11586",
                                                         "--format", "dot", NULL }, &dot, NULL), ==, 0);
    g_assert_true (g_str_has_prefix (dot, "digraph ready_tree {"));
    g_assert_nonnull (strstr (dot, "color=red"));
    g_assert_cmpint (ws_test_run_cli ((const char *[]) { "readytree", "--trace", path, "--tid", "11586",
                                                         "--chain-metric", "mean", NULL }, NULL, NULL), ==, 2);
    g_assert_cmpint (ws_test_run_cli ((const char *[]) { "readytree", "--trace", path, "--event", "0", NULL }, NULL, NULL), ==, 1);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/ready-tree/hand-built", Fixture, NULL, fixture_setup, test_hand_built_tree, fixture_teardown);
  g_test_add ("/ready-tree/chain-metrics", Fixture, NULL, fixture_setup, test_chain_metrics, fixture_teardown);
  g_test_add_func ("/ready-tree/metrics-compute", test_metrics_compute);
  g_test_add ("/ready-tree/lock-only", Fixture, NULL, fixture_setup, test_lock_only, fixture_teardown);
  g_test_add ("/ready-tree/limits", Fixture, NULL, fixture_setup, test_limits, fixture_teardown);
  g_test_add_func ("/ready-tree/other-stops", test_other_stops);
  g_test_add_func ("/ready-tree/against-scan", test_against_scan);
  g_test_add ("/ready-tree/export", Fixture, NULL, fixture_setup, test_export, fixture_teardown);
  g_test_add_func ("/ready-tree/classifier-defaults", test_classifier_defaults);
  g_test_add_func ("/ready-tree/classifier-key-file", test_classifier_key_file);
  g_test_add ("/ready-tree/classifier-stacks", Fixture, NULL, fixture_setup, test_classifier_stacks_and_waits, fixture_teardown);
  g_test_add_func ("/ready-tree/py-locks", test_py_locks);
  g_test_add_func ("/ready-tree/pg-tpcb", test_pg_tpcb);
  g_test_add_func ("/ready-tree/cli", test_cli);

  return g_test_run ();
}
