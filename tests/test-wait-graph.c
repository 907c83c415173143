/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cli-test-util.h"
#include "ws-error.h"
#include "ws-graph-export.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph.h"

/*
 * The hand-built trace (ns):
 *
 *  A  run [0,100)  wA1 [100,400) by B   run [400,500)  wA2 [500,700) timer (HW, ctx D)
 *     run [700,800)  wA3 [800,900) unknown  run [900,950)  preempt [950,970)  run [970,1000)
 *     marker at 910
 *  B  run [0,150)  sample 120+20  wB1 [150,300) by C  run [300,450) (readies A at 400)
 *     wB2 [450,800) by C  run [800,1000)
 *  C  run [0,50)  wC1 [50,250) by D  run [250,350) (readies B at 300)  wC2 [350,600) by D
 *     run [600,1000) (readies B at 800)
 *  D  run [0,100)  wD0 [100,200) interrupt (HW, ctx swapper)  run [200,1000)
 *
 * Fig. 2 for ⟨A, 0, 1000⟩ worked by hand:
 *  V0 = rA1 wA1 rA2 wA2 rA3 wA3 rA4 rA5 (the preemption and marker are not
 *       running or waiting events)
 *  wA1 [100,400], readier B: B events ending inside: rB1 (150), sB (140),
 *       wB1 (300); rB2 ends at 450: out
 *  wA2: HW node; wA3: unknown-readier node
 *  wB1 [150,300], readier C: wC1 (250); rC1 ends 50, rC2 ends 350: out
 *  wC1 [50,250], readier D: rD1 (100), wD0 (200); rD2 ends 1000: out
 *  wD0: HW node.  Nothing of wB2, wC2, rC3 is reachable.
 */
typedef struct {
  WsTestTrace *tt;
  guint A, B, C, D, S;
  guint rA1, wA1, rA2, wA2, rA3, wA3, rA4, pA, rA5, mA;
  guint rB1, sB, wB1, rB2, wB2, rB3;
  guint rC1, wC1, rC2, wC2, rC3;
  guint rD1, wD0, rD2;
  guint hwA2, hwD0, uB1, uC1, uA1;
} Fixture;

static void
fixture_build (Fixture *f)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId lock = ws_test_trace_stack (tt, "main;pthread_mutex_lock;futex_wait");
  WsStackId release = ws_test_trace_stack (tt, "main;pthread_mutex_unlock;futex_wake");
  WsStackId sleep = ws_test_trace_stack (tt, "main;nanosleep;do_nanosleep");
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;hrtimer_wakeup");
  WsStackId disk = ws_test_trace_stack (tt, "asm_common_interrupt;blk_mq_end_request");
  WsStackId work = ws_test_trace_stack (tt, "main;work");

  f->A = ws_test_trace_thread (tt, 10, 10, "app");
  f->B = ws_test_trace_thread (tt, 11, 10, "app-worker");
  f->C = ws_test_trace_thread (tt, 20, 20, "db");
  f->D = ws_test_trace_thread (tt, 30, 30, "disk-feeder");
  f->S = ws_test_trace_thread (tt, 0, 0, "swapper/0");

  f->rA1 = ws_test_trace_run (tt, f->A, 0, 100, work);
  f->wA1 = ws_test_trace_wait (tt, f->A, 100, 400, lock);
  f->rA2 = ws_test_trace_run (tt, f->A, 400, 500, work);
  f->wA2 = ws_test_trace_wait (tt, f->A, 500, 700, sleep);
  f->rA3 = ws_test_trace_run (tt, f->A, 700, 800, work);
  f->wA3 = ws_test_trace_wait (tt, f->A, 800, 900, lock);
  f->rA4 = ws_test_trace_run (tt, f->A, 900, 950, work);
  f->pA = ws_test_trace_preempt (tt, f->A, 950, 970);
  f->rA5 = ws_test_trace_run (tt, f->A, 970, 1000, work);
  f->mA = ws_test_trace_marker (tt, f->A, 910, "sdt:thing");

  f->rB1 = ws_test_trace_run (tt, f->B, 0, 150, work);
  f->sB = ws_test_trace_sample (tt, f->B, 120, 20, work);
  f->wB1 = ws_test_trace_wait (tt, f->B, 150, 300, lock);
  f->rB2 = ws_test_trace_run (tt, f->B, 300, 450, work);
  f->wB2 = ws_test_trace_wait (tt, f->B, 450, 800, lock);
  f->rB3 = ws_test_trace_run (tt, f->B, 800, 1000, work);

  f->rC1 = ws_test_trace_run (tt, f->C, 0, 50, work);
  f->wC1 = ws_test_trace_wait (tt, f->C, 50, 250, lock);
  f->rC2 = ws_test_trace_run (tt, f->C, 250, 350, work);
  f->wC2 = ws_test_trace_wait (tt, f->C, 350, 600, lock);
  f->rC3 = ws_test_trace_run (tt, f->C, 600, 1000, work);

  f->rD1 = ws_test_trace_run (tt, f->D, 0, 100, work);
  f->wD0 = ws_test_trace_wait (tt, f->D, 100, 200, sleep);
  f->rD2 = ws_test_trace_run (tt, f->D, 200, 1000, work);

  f->uA1 = ws_test_trace_wake (tt, f->B, f->wA1, release);
  f->hwA2 = ws_test_trace_hw_wake (tt, f->D, f->wA2, timer);
  f->uB1 = ws_test_trace_wake (tt, f->C, f->wB1, release);
  ws_test_trace_wake (tt, f->C, f->wB2, release);
  f->uC1 = ws_test_trace_wake (tt, f->D, f->wC1, release);
  ws_test_trace_wake (tt, f->D, f->wC2, release);
  f->hwD0 = ws_test_trace_hw_wake (tt, f->S, f->wD0, disk);

  ws_test_trace_finish (tt);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  fixture_build (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  ws_test_trace_free (f->tt);
}

#define IDX(f, built) ws_test_trace_index ((f)->tt, (built))

static void
test_fig2_hand_built (Fixture       *f,
                      gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 1000 };
  g_autoptr(GError) error = NULL;
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  /* Expected nodes in discovery order: event (builder index), generation. */
  const struct { guint built; guint generation; WsWaitNodeKind kind; } expected[] = {
    { f->rA1, 0, WS_WAIT_NODE_RUN }, { f->wA1, 0, WS_WAIT_NODE_WAIT },
    { f->rA2, 0, WS_WAIT_NODE_RUN }, { f->wA2, 0, WS_WAIT_NODE_WAIT },
    { f->rA3, 0, WS_WAIT_NODE_RUN }, { f->wA3, 0, WS_WAIT_NODE_WAIT },
    { f->rA4, 0, WS_WAIT_NODE_RUN }, { f->rA5, 0, WS_WAIT_NODE_RUN },
    { f->rB1, 1, WS_WAIT_NODE_RUN }, { f->sB, 1, WS_WAIT_NODE_RUN },
    { f->wB1, 1, WS_WAIT_NODE_WAIT }, { f->hwA2, 1, WS_WAIT_NODE_HW_SERVICE },
    { G_MAXUINT, 1, WS_WAIT_NODE_UNKNOWN_READIER },
    { f->wC1, 2, WS_WAIT_NODE_WAIT },
    { f->rD1, 3, WS_WAIT_NODE_RUN }, { f->wD0, 3, WS_WAIT_NODE_WAIT },
    { f->hwD0, 4, WS_WAIT_NODE_HW_SERVICE },
  };
  const WsWaitEdge expected_edges[] = {
    { 1, 8 }, { 1, 9 }, { 1, 10 }, { 3, 11 }, { 5, 12 }, { 10, 13 }, { 13, 14 }, { 13, 15 }, { 15, 16 },
  };
  const WsWaitNode *n;
  const WsWaitEdge *out;
  guint n_out;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      n = ws_wait_graph_get_node (graph, i);
      g_assert_cmpuint (n->kind, ==, expected[i].kind);
      g_assert_cmpuint (n->generation, ==, expected[i].generation);
      if (expected[i].built == G_MAXUINT)
        {
          g_assert_cmpuint (n->event, ==, WS_NONE);
          g_assert_cmpuint (n->thread, ==, WS_NONE);
          g_assert_cmpint (n->time, ==, 900);
        }
      else
        {
          g_assert_cmpuint (n->event, ==, IDX (f, expected[i].built));
          g_assert_cmpuint (ws_wait_graph_find_event (graph, n->event), ==, i);
        }
      g_assert_cmpint (!!(n->flags & WS_WAIT_NODE_FLAG_SYMPTOM), ==, i < 8);
    }

  g_assert_cmpuint (ws_wait_graph_get_n_edges (graph), ==, G_N_ELEMENTS (expected_edges));
  for (guint i = 0; i < G_N_ELEMENTS (expected_edges); i++)
    {
      g_assert_cmpuint (ws_wait_graph_get_edge (graph, i)->from, ==, expected_edges[i].from);
      g_assert_cmpuint (ws_wait_graph_get_edge (graph, i)->to, ==, expected_edges[i].to);
    }

  /* Node details a view needs. */
  n = ws_wait_graph_get_node (graph, 1);
  g_assert_cmpint (n->time, ==, 100);
  g_assert_cmpint (n->duration, ==, 300);
  g_assert_cmpuint (n->readier_thread, ==, f->B);
  g_assert_cmpuint (n->unwait_event, ==, IDX (f, f->uA1));
  g_assert_cmpuint (n->wake, ==, WS_WAKE_THREAD);
  g_assert_true (n->flags & WS_WAIT_NODE_FLAG_LOCK);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 3)->wake, ==, WS_WAKE_TIMER);
  g_assert_false (ws_wait_graph_get_node (graph, 3)->flags & WS_WAIT_NODE_FLAG_LOCK);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 5)->wake, ==, WS_WAKE_UNKNOWN);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 15)->wake, ==, WS_WAKE_INTERRUPT);
  g_assert_true (ws_wait_graph_get_node (graph, 9)->flags & WS_WAIT_NODE_FLAG_SAMPLE);
  g_assert_false (ws_wait_graph_get_node (graph, 8)->flags & WS_WAIT_NODE_FLAG_SAMPLE);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 11)->thread, ==, f->D);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 16)->thread, ==, f->S);

  out = ws_wait_graph_get_out_edges (graph, 1, &n_out);
  g_assert_cmpuint (n_out, ==, 3);
  g_assert_cmpuint (out[2].to, ==, 10);
  out = ws_wait_graph_get_out_edges (graph, 13, &n_out);
  g_assert_cmpuint (n_out, ==, 2);
  g_assert_cmpuint (out[0].to, ==, 14);
  ws_wait_graph_get_out_edges (graph, 0, &n_out);
  g_assert_cmpuint (n_out, ==, 0);
  ws_wait_graph_get_out_edges (graph, 16, &n_out);
  g_assert_cmpuint (n_out, ==, 0);

  g_assert_cmpuint (ws_wait_graph_get_n_generations (graph), ==, 5);
  g_assert_cmpuint (ws_wait_graph_get_n_threads (graph), ==, 5);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->pA)), ==, WS_NONE);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->wB2)), ==, WS_NONE);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->rB2)), ==, WS_NONE);
}

static void
test_window_is_inclusive_and_clips (Fixture       *f,
                                    gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 100, 950 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);

  /* rA1 [0,100] starts before t0 and rA5 [970,1000] ends after t1: out.
   * rA4 [900,950] ends exactly at t1: in.  The rest is unchanged. */
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->rA1)), ==, WS_NONE);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->rA5)), ==, WS_NONE);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, IDX (f, f->rA4)), ==, 5);
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), ==, 17 - 2);
  g_assert_cmpuint (ws_wait_graph_get_n_edges (graph), ==, 9);
}

static void
test_readier_boundaries (void)
{
  /* X waits [100,200] readied by Y.  Y ran [0,100) (ends exactly at the
   * wait's start), waited [100,200) (ends exactly at its end, no readier
   * recorded), then ran [200,300) (ends after it). */
  WsTestTrace *tt = ws_test_trace_new ();
  guint X = ws_test_trace_thread (tt, 1, 1, "x");
  guint Y = ws_test_trace_thread (tt, 2, 2, "y");
  guint wX = ws_test_trace_wait (tt, X, 100, 200, 0);
  guint rY0 = ws_test_trace_run (tt, Y, 0, 100, 0);
  guint wY = ws_test_trace_wait (tt, Y, 100, 200, 0);
  guint rY1;
  WsSymptom symptom = { X, 100, 200 };
  g_autoptr(WsWaitGraph) graph = NULL;

  rY1 = ws_test_trace_run (tt, Y, 200, 300, 0);
  ws_test_trace_wake (tt, Y, wX, 0);
  ws_test_trace_finish (tt);

  graph = ws_wait_graph_build (ws_test_trace_get_trace (tt), &symptom, NULL, NULL, NULL);
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), ==, 4);
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 0)->event, ==, ws_test_trace_index (tt, wX));
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 1)->event, ==, ws_test_trace_index (tt, rY0));
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 2)->event, ==, ws_test_trace_index (tt, wY));
  g_assert_cmpuint (ws_wait_graph_get_node (graph, 3)->kind, ==, WS_WAIT_NODE_UNKNOWN_READIER);
  g_assert_cmpuint (ws_wait_graph_find_event (graph, ws_test_trace_index (tt, rY1)), ==, WS_NONE);
  g_assert_cmpuint (ws_wait_graph_get_n_edges (graph), ==, 3);
  g_assert_cmpuint (ws_wait_graph_get_edge (graph, 2)->from, ==, 2);
  g_assert_cmpuint (ws_wait_graph_get_edge (graph, 2)->to, ==, 3);

  ws_test_trace_free (tt);
}

/* Fig. 2 transcribed literally: sets, a full scan of TS per wait, goto 5.
 * Unknown-readier nodes are keyed -1 - wait. */
static void
set_add (GHashTable *set,
         gint64      key)
{
  if (!g_hash_table_contains (set, &key))
    g_hash_table_add (set, g_memdup2 (&key, sizeof key));
}

static void
set_add_edge (GHashTable *set,
              gint64      from,
              gint64      to)
{
  char *k = g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, from, to);
  if (!g_hash_table_contains (set, k))
    g_hash_table_add (set, k);
  else
    g_free (k);
}

static void
brute_force_fig2 (WsTrace         *trace,
                  const WsSymptom *s,
                  GHashTable      *V,      /* gint64 key set */
                  GHashTable      *E)      /* "from:to" string set */
{
  const WsEvent *ev = ws_trace_get_events (trace);
  guint n = ws_trace_get_n_events (trace);
  g_autoptr(GHashTable) Vp = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gboolean changed;

  for (guint i = 0; i < n; i++)
    if (ev[i].thread == s->thread && (ev[i].kind == WS_EVENT_RUNNING || ev[i].kind == WS_EVENT_WAIT) &&
        ev[i].time >= s->t0 && ev[i].time + ws_event_duration (&ev[i]) <= s->t1)
      set_add (V, i);

  do
    {
      g_autoptr(GList) delta = NULL;

      changed = FALSE;
      for (GList *l = delta = g_hash_table_get_keys (V); l; l = l->next)
        {
          gint64 key = *(gint64 *) l->data;
          guint i;
          guint readier;

          if (g_hash_table_contains (Vp, &key))
            continue;
          set_add (Vp, key);
          changed = TRUE;
          if (key < 0 || ev[key].kind != WS_EVENT_WAIT)
            continue;
          i = key;

          switch (ws_trace_wait_readier (trace, i, &readier))
            {
            case WS_READIER_UNKNOWN:
              set_add (V, -1 - key);
              set_add_edge (E, key, -1 - key);
              break;
            case WS_READIER_HARDWARE:
              set_add (V, ev[i].peer);
              set_add_edge (E, key, ev[i].peer);
              break;
            case WS_READIER_THREAD:
              for (guint j = 0; j < n; j++)
                {
                  WsTime end = ev[j].time + ws_event_duration (&ev[j]);
                  if (ev[j].thread == readier && (ev[j].kind == WS_EVENT_RUNNING || ev[j].kind == WS_EVENT_WAIT) &&
                      end >= ev[i].time && end <= ev[i].time + ws_event_duration (&ev[i]))
                    {
                      set_add (V, j);
                      set_add_edge (E, key, j);
                    }
                }
              break;
            }
        }
    }
  while (changed);
}

/* Random traces, consistent or not (Fig. 2 is defined on any trace):
 * per thread alternating runs, samples, preemptions and waits, each wait
 * readied by a random thread, by hardware, or by nobody. */
static WsTrace *
random_trace (GRand *rand, guint n_threads, guint per_thread, WsTestTrace **out_tt)
{
  WsTestTrace *tt = ws_test_trace_new ();
  g_autofree guint *threads = g_new (guint, n_threads);

  for (guint t = 0; t < n_threads; t++)
    threads[t] = ws_test_trace_thread (tt, 100 + t, 100 + t / 2, "r");
  for (guint t = 0; t < n_threads; t++)
    {
      WsTime now = g_rand_int_range (rand, 0, 50);
      for (guint k = 0; k < per_thread; k++)
        {
          WsTime d = g_rand_int_range (rand, 1, 120);
          int dice = g_rand_int_range (rand, 0, 10);

          if (dice < 4)
            ws_test_trace_run (tt, threads[t], now, now + d, 0);
          else if (dice == 4)
            ws_test_trace_sample (tt, threads[t], now, d, 0);
          else if (dice == 5)
            ws_test_trace_preempt (tt, threads[t], now, now + d);
          else
            {
              guint w = ws_test_trace_wait (tt, threads[t], now, now + d, 0);
              int who = g_rand_int_range (rand, 0, 10);
              if (who < 7)
                ws_test_trace_wake (tt, threads[g_rand_int_range (rand, 0, n_threads)], w, 0);
              else if (who < 9)
                ws_test_trace_hw_wake (tt, threads[g_rand_int_range (rand, 0, n_threads)], w, 0);
            }
          if (dice != 4)
            now += d;
        }
    }
  ws_test_trace_finish (tt);
  *out_tt = tt;
  return ws_test_trace_get_trace (tt);
}

static void
test_brute_force_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20120602);

  for (guint round = 0; round < 60; round++)
    {
      WsTestTrace *tt;
      WsTrace *trace = random_trace (rand, 2 + round % 6, 5 + round % 25, &tt);
      WsSymptom s;
      g_autoptr(GHashTable) V = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_autoptr(GHashTable) E = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(WsWaitGraph) graph = NULL;
      WsTime end = ws_trace_get_end_time (trace);

      s.thread = g_rand_int_range (rand, 0, ws_trace_get_n_threads (trace));
      s.t0 = g_rand_int_range (rand, 0, end / 2 + 1);
      s.t1 = s.t0 + g_rand_int_range (rand, 0, end + 1);
      brute_force_fig2 (trace, &s, V, E);

      graph = ws_wait_graph_build (trace, &s, NULL, NULL, NULL);
      g_assert_nonnull (graph);
      g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), ==, g_hash_table_size (V));
      for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
        {
          const WsWaitNode *node = ws_wait_graph_get_node (graph, i);
          gint64 key;

          if (node->kind == WS_WAIT_NODE_UNKNOWN_READIER)
            {
              /* Its (only) in-edge names the wait it stands for. */
              guint from = WS_NONE;
              for (guint e = 0; e < ws_wait_graph_get_n_edges (graph); e++)
                if (ws_wait_graph_get_edge (graph, e)->to == i)
                  from = ws_wait_graph_get_edge (graph, e)->from;
              g_assert_cmpuint (from, !=, WS_NONE);
              key = -1 - (gint64) ws_wait_graph_get_node (graph, from)->event;
            }
          else
            key = node->event;
          g_assert_true (g_hash_table_contains (V, &key));
        }

      g_assert_cmpuint (ws_wait_graph_get_n_edges (graph), ==, g_hash_table_size (E));
      for (guint e = 0; e < ws_wait_graph_get_n_edges (graph); e++)
        {
          const WsWaitEdge *edge = ws_wait_graph_get_edge (graph, e);
          const WsWaitNode *from = ws_wait_graph_get_node (graph, edge->from);
          const WsWaitNode *to = ws_wait_graph_get_node (graph, edge->to);
          gint64 tk = to->kind == WS_WAIT_NODE_UNKNOWN_READIER ? -1 - (gint64) from->event : (gint64) to->event;
          g_autofree char *k = g_strdup_printf ("%u:%" G_GINT64_FORMAT, from->event, tk);

          g_assert_true (g_hash_table_contains (E, k));
          /* Edges are grouped by their source, in node order. */
          if (e > 0)
            g_assert_cmpuint (ws_wait_graph_get_edge (graph, e - 1)->from, <=, edge->from);
          /* Generations grow by one along every edge into a new node. */
          g_assert_cmpuint (to->generation, <=, from->generation + 1);
        }

      ws_test_trace_free (tt);
    }
}

static void
test_errors_and_cancel (Fixture       *f,
                        gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom bad_thread = { 99, 0, 10 };
  WsSymptom bad_window = { f->A, 10, 0 };
  WsSymptom ok = { f->A, 0, 1000 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GError *error = NULL;

  g_assert_null (ws_wait_graph_build (trace, &bad_thread, NULL, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (ws_wait_graph_build (trace, &bad_window, NULL, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_null (ws_wait_graph_build (trace, &ok, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
}

static void
test_symptom_helpers (Fixture       *f,
                      gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom all = { f->A, 0, 1000 };
  WsSymptom late = { f->A, 450, 1000 };
  WsSymptom none = { f->A, 910, 1000 };
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();

  /* wA1 (300) is the longest; wA2 (200) the longest from 450 on; the
   * longest lock-related wait from 450 on is wA3 (100): wA2 is a sleep. */
  g_assert_cmpuint (ws_symptom_longest_wait (trace, &all, NULL), ==, IDX (f, f->wA1));
  g_assert_cmpuint (ws_symptom_longest_wait (trace, &late, NULL), ==, IDX (f, f->wA2));
  g_assert_cmpuint (ws_symptom_longest_wait (trace, &late, classifier), ==, IDX (f, f->wA3));
  g_assert_cmpuint (ws_symptom_longest_wait (trace, &none, NULL), ==, WS_NONE);
}

static void
test_scenario_instance_symptom (void)
{
  WsTestTrace *tt = ws_test_trace_new ();
  guint X = ws_test_trace_thread (tt, 1, 1, "x");
  WsSymptom s = { 0, 0, 0 };
  WsTrace *trace;

  ws_test_trace_marker (tt, X, 100, "begin");
  ws_test_trace_marker (tt, X, 350, "end");
  ws_test_trace_marker (tt, X, 400, "begin");
  ws_test_trace_marker (tt, X, 480, "end");
  ws_test_trace_finish (tt);
  trace = ws_test_trace_get_trace (tt);
  g_assert_cmpuint (ws_trace_add_scenario_instances (trace, "tx", "begin", "end"), ==, 2);

  g_assert_true (ws_symptom_from_scenario_instance (trace, 1, &s));
  g_assert_cmpuint (s.thread, ==, X);
  g_assert_cmpint (s.t0, ==, 400);
  g_assert_cmpint (s.t1, ==, 480);
  g_assert_false (ws_symptom_from_scenario_instance (trace, 2, &s));
  ws_test_trace_free (tt);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 1000 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);
  g_autoptr(JsonNode) root = ws_graph_export_wait_graph_json (graph);
  g_autofree char *text = ws_graph_export_json_to_string (root);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *dot = ws_graph_export_wait_graph_dot (graph);
  JsonObject *obj, *node;
  JsonArray *nodes, *edges, *stack;
  g_autofree char *id = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  nodes = json_object_get_array_member (obj, "nodes");
  edges = json_object_get_array_member (obj, "edges");
  g_assert_cmpuint (json_array_get_length (nodes), ==, 17);
  g_assert_cmpuint (json_array_get_length (edges), ==, 9);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (edges, 8), "from"), ==, 15);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (edges, 8), "to"), ==, 16);

  node = json_array_get_object_element (nodes, 1);
  g_assert_cmpstr (json_object_get_string_member (node, "kind"), ==, "wait");
  g_assert_cmpint (json_object_get_int_member (node, "tid"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (node, "duration"), ==, 300);
  g_assert_cmpstr (json_object_get_string_member (node, "wake"), ==, "thread");
  g_assert_cmpint (json_object_get_int_member (node, "readier_tid"), ==, 11);
  g_assert_true (json_object_get_boolean_member (node, "lock"));
  /* Stacks by id, frames leaf first in the "stacks" table. */
  id = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (node, "stack"));
  stack = json_object_get_array_member (json_object_get_object_member (obj, "stacks"), id);
  g_assert_cmpuint (json_array_get_length (stack), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (stack, 0), ==, "futex_wait (m)");
  g_assert_cmpstr (json_array_get_string_element (stack, 2), ==, "main (m)");
  g_free (id);
  id = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (node, "unwait_stack"));
  stack = json_object_get_array_member (json_object_get_object_member (obj, "stacks"), id);
  g_assert_cmpstr (json_array_get_string_element (stack, 1), ==, "pthread_mutex_unlock (m)");
  /* Each stack used is there once: work, lock, release, sleep, timer, disk and the empty stack. */
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (obj, "stacks")), ==, 7);
  node = json_array_get_object_element (nodes, 12);
  g_assert_cmpstr (json_object_get_string_member (node, "kind"), ==, "unknown-readier");
  g_assert_true (json_object_get_null_member (node, "event"));

  g_assert_true (g_str_has_prefix (dot, "digraph wait_graph {\n"));
  g_assert_nonnull (strstr (dot, "  n1 -> n8;\n"));
  g_assert_nonnull (strstr (dot, "  n15 -> n16;\n"));
  g_assert_nonnull (strstr (dot, "n1 [label=\"app (10)\\nwait 300 ns\\nfutex_wait\\n[lock]\", style=\"dashed,bold\"];"));
  g_assert_true (g_str_has_suffix (dot, "}\n"));
}

/* On a real recording: every edge goes from a wait to an event of the
 * thread the trace names as its readier, ending inside the wait. */
static void
test_real_trace_invariants (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  WsSymptom s;
  guint thread = WS_NONE;

  if (dir == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, "pylk-w0") == 0)
      thread = t;
  g_assert_cmpuint (thread, !=, WS_NONE);

  s.thread = thread;
  s.t0 = ws_trace_get_start_time (trace);
  s.t1 = s.t0 + (WsTime) 200 * 1000 * 1000;
  graph = ws_wait_graph_build (trace, &s, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), >, 10);
  g_test_message ("py-locks pylk-w0 first 200 ms: %u nodes, %u edges, %u threads, %u generations",
                  ws_wait_graph_get_n_nodes (graph), ws_wait_graph_get_n_edges (graph),
                  ws_wait_graph_get_n_threads (graph), ws_wait_graph_get_n_generations (graph));

  for (guint e = 0; e < ws_wait_graph_get_n_edges (graph); e++)
    {
      const WsWaitEdge *edge = ws_wait_graph_get_edge (graph, e);
      const WsWaitNode *from = ws_wait_graph_get_node (graph, edge->from);
      const WsWaitNode *to = ws_wait_graph_get_node (graph, edge->to);

      g_assert_cmpuint (from->kind, ==, WS_WAIT_NODE_WAIT);
      if (to->kind == WS_WAIT_NODE_RUN || to->kind == WS_WAIT_NODE_WAIT)
        {
          g_assert_cmpuint (to->thread, ==, from->readier_thread);
          g_assert_cmpint (to->time + to->duration, >=, from->time);
          g_assert_cmpint (to->time + to->duration, <=, from->time + from->duration);
        }
      else if (to->kind == WS_WAIT_NODE_HW_SERVICE)
        g_assert_cmpuint (to->event, ==, from->unwait_event);
      else
        g_assert_cmpuint (from->unwait_event, ==, WS_NONE);
    }
}

/* waitscope-cli waitgraph prints the graph the core builds. */
static void
test_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dot_path = NULL;
  g_autofree char *dot = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *obj, *symptom;
  JsonArray *nodes, *edges;
  WsSymptom s;
  int status;
  guint arrows = 0;

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);

  status = ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", path, "--tid", "11585",
                                               "--from", "1986.7", "--to", "+50ms", NULL }, &out, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  obj = json_node_get_object (json_parser_get_root (parser));
  symptom = json_object_get_object_member (obj, "symptom");
  g_assert_cmpint (json_object_get_int_member (symptom, "tid"), ==, 11585);
  g_assert_cmpint (json_object_get_int_member (symptom, "t0"), ==, G_GINT64_CONSTANT (1986700000000));
  g_assert_cmpint (json_object_get_int_member (symptom, "t1"), ==, G_GINT64_CONSTANT (1986750000000));

  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s.thread = ws_trace_find_thread (trace, 11585);
  s.t0 = G_GINT64_CONSTANT (1986700000000);
  s.t1 = G_GINT64_CONSTANT (1986750000000);
  graph = ws_wait_graph_build (trace, &s, NULL, NULL, NULL);
  nodes = json_object_get_array_member (obj, "nodes");
  edges = json_object_get_array_member (obj, "edges");
  g_assert_cmpuint (json_array_get_length (nodes), ==, ws_wait_graph_get_n_nodes (graph));
  g_assert_cmpuint (json_array_get_length (edges), ==, ws_wait_graph_get_n_edges (graph));
  g_assert_cmpuint (ws_wait_graph_get_n_nodes (graph), >, 5);
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);
      const WsWaitNode *n = ws_wait_graph_get_node (graph, i);

      if (n->event == WS_NONE)
        g_assert_true (json_object_get_null_member (node, "event"));
      else
        g_assert_cmpint (json_object_get_int_member (node, "event"), ==, n->event);
    }

  /* DOT into a file. */
  dot_path = g_build_filename (g_get_tmp_dir (), "ws-test-waitgraph.dot", NULL);
  g_clear_pointer (&out, g_free);
  status = ws_test_run_cli ((const char *[]) { "waitgraph", path, "--tid", "11585", "--from", "1986.7",
                                               "--to", "1986.75", "--format", "dot", "-o", dot_path, NULL }, &out, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (dot_path, &dot, NULL, NULL));
  g_assert_true (g_str_has_prefix (dot, "digraph wait_graph {"));
  for (const char *p = dot; (p = strstr (p, " -> ")) != NULL; p++)
    arrows++;
  g_assert_cmpuint (arrows, ==, ws_wait_graph_get_n_edges (graph));
  g_unlink (dot_path);

  /* Usage errors exit 2, bad input 1, with a message. */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", path, NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--tid"));
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", path, "--tid", "11585", "--from", "12parsecs", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", path, "--tid", "11585", "--format", "svg", NULL }, NULL, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", path, "--tid", "999999", NULL }, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "999999"));
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "waitgraph", "--trace", "/nonexistent/x.perf.txt", "--tid", "1", NULL }, NULL, NULL), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/wait-graph/fig2-hand-built", Fixture, NULL, fixture_setup, test_fig2_hand_built, fixture_teardown);
  g_test_add ("/wait-graph/window", Fixture, NULL, fixture_setup, test_window_is_inclusive_and_clips, fixture_teardown);
  g_test_add_func ("/wait-graph/readier-boundaries", test_readier_boundaries);
  g_test_add_func ("/wait-graph/brute-force-random", test_brute_force_random);
  g_test_add ("/wait-graph/errors-and-cancel", Fixture, NULL, fixture_setup, test_errors_and_cancel, fixture_teardown);
  g_test_add ("/wait-graph/symptom-helpers", Fixture, NULL, fixture_setup, test_symptom_helpers, fixture_teardown);
  g_test_add_func ("/wait-graph/scenario-instance-symptom", test_scenario_instance_symptom);
  g_test_add ("/wait-graph/export", Fixture, NULL, fixture_setup, test_export, fixture_teardown);
  g_test_add_func ("/wait-graph/real-trace-invariants", test_real_trace_invariants);
  g_test_add_func ("/wait-graph/cli", test_cli);

  return g_test_run ();
}
