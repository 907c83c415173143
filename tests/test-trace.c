/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-trace-private.h"

/* Events added out of time order come back sorted, with the wait ↔ wake-up
 * links following them; per-thread indices and lower bounds agree. */
static void
test_finish_sorts_and_remaps (void)
{
  g_autoptr(WsTrace) trace = ws_trace_new ("/tmp/hand.perf.txt", NULL);
  guint a = ws_trace_ensure_thread (trace, 100, 100);
  guint b = ws_trace_ensure_thread (trace, 101, 100);
  WsEvent wake = { .time = 300, .thread = b, .peer = WS_NONE, .u.wake = { a, WS_LATENCY_UNKNOWN },
                   .kind = WS_EVENT_UNWAIT };
  WsEvent wait = { .time = 100, .u.duration = 200, .thread = a, .peer = WS_NONE,
                   .kind = WS_EVENT_WAIT, .state = 'S' };
  WsEvent run = { .time = 50, .u.duration = 40, .thread = b, .peer = WS_NONE,
                  .kind = WS_EVENT_RUNNING, .flags = WS_EVENT_FLAG_SPAN };
  guint iw = ws_trace_add_event (trace, &wake);
  guint iwait = ws_trace_add_event (trace, &wait);
  guint readier;

  ws_trace_add_event (trace, &run);
  ws_trace_peek_event (trace, iw)->peer = iwait;
  ws_trace_peek_event (trace, iwait)->peer = iw;
  ws_trace_finish (trace);

  g_assert_cmpstr (ws_trace_get_name (trace), ==, "hand");
  g_assert_cmpuint (ws_trace_get_n_events (trace), ==, 3);
  g_assert_cmpint (ws_trace_get_event (trace, 0)->kind, ==, WS_EVENT_RUNNING);
  g_assert_cmpint (ws_trace_get_event (trace, 1)->kind, ==, WS_EVENT_WAIT);
  g_assert_cmpint (ws_trace_get_event (trace, 2)->kind, ==, WS_EVENT_UNWAIT);
  g_assert_cmpuint (ws_trace_get_event (trace, 1)->peer, ==, 2);
  g_assert_cmpuint (ws_trace_get_event (trace, 2)->peer, ==, 1);
  g_assert_cmpint (ws_trace_wait_readier (trace, 1, &readier), ==, WS_READIER_THREAD);
  g_assert_cmpuint (readier, ==, b);
  g_assert_cmpint (ws_trace_get_start_time (trace), ==, 50);
  g_assert_cmpint (ws_trace_get_end_time (trace), ==, 300);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), ==, 1);

  g_assert_cmpuint (ws_trace_get_thread (trace, b)->n_events, ==, 2);
  g_assert_cmpuint (ws_trace_get_thread (trace, b)->events[0], ==, 0);
  g_assert_cmpuint (ws_trace_get_thread (trace, b)->events[1], ==, 2);
  g_assert_cmpuint (ws_trace_thread_lower_bound (trace, b, 51), ==, 1);
  g_assert_cmpuint (ws_trace_thread_lower_bound (trace, b, 301), ==, 2);
}

/* Threads of one pid form one process; threads whose pid was never
 * recorded (-1) are each a process of their own. */
static void
test_processes (void)
{
  g_autoptr(WsTrace) trace = ws_trace_new ("t.json", NULL);
  guint main_thread = ws_trace_ensure_thread (trace, 200, 200);
  guint worker = ws_trace_ensure_thread (trace, 201, 200);
  guint lone1 = ws_trace_ensure_thread (trace, 68, -1);
  guint lone2 = ws_trace_ensure_thread (trace, 75, -1);
  WsEvent e = { .time = 1, .peer = WS_NONE, .kind = WS_EVENT_RUNNING };

  ws_trace_set_thread_name (trace, main_thread, "server");
  ws_trace_set_thread_name (trace, worker, "server-io");
  ws_trace_set_thread_name (trace, lone1, "tokio-a");
  ws_trace_set_thread_name (trace, lone2, "tokio-b");
  e.thread = worker;
  ws_trace_add_event (trace, &e);
  ws_trace_finish (trace);

  g_assert_cmpuint (ws_trace_get_n_processes (trace), ==, 3);
  g_assert_cmpuint (ws_trace_get_thread (trace, lone1)->process, !=, ws_trace_get_thread (trace, lone2)->process);
  g_assert_cmpuint (ws_trace_get_thread (trace, main_thread)->process, ==, ws_trace_get_thread (trace, worker)->process);
  g_assert_cmpstr (ws_trace_get_process (trace, ws_trace_get_thread (trace, worker)->process)->name, ==, "server");
  g_assert_cmpstr (ws_trace_get_process (trace, ws_trace_get_thread (trace, lone2)->process)->name, ==, "tokio-b");
  g_assert_cmpuint (ws_trace_get_process (trace, ws_trace_get_thread (trace, worker)->process)->n_threads, ==, 2);
}

/* Marker rule: begin … end on one thread is an instance; a begin left open
 * by the next begin is dropped. */
static void
test_scenario_instances (void)
{
  g_autoptr(WsTrace) trace = ws_trace_new ("s.json", NULL);
  guint t = ws_trace_ensure_thread (trace, 7, 7);
  guint32 begin = ws_trace_intern_string (trace, "probe:begin");
  guint32 end = ws_trace_intern_string (trace, "probe:end");
  const WsTime times[] = { 10, 20, 30, 45 };
  const guint32 names[] = { begin, begin, end, end };
  const WsScenarioInstance *inst;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      WsEvent e = { .time = times[i], .thread = t, .peer = names[i], .kind = WS_EVENT_MARKER };
      ws_trace_add_event (trace, &e);
    }
  ws_trace_finish (trace);

  g_assert_cmpuint (ws_trace_add_scenario_instances (trace, "op", "probe:begin", "probe:end"), ==, 1);
  inst = ws_trace_get_scenario_instance (trace, 0);
  g_assert_cmpint (inst->t0, ==, 20);
  g_assert_cmpint (inst->t1, ==, 30);
  g_assert_cmpstr (ws_trace_get_string (trace, inst->scenario), ==, "op");
  g_assert_cmpuint (ws_trace_add_scenario_instances (trace, "op", "probe:none", "probe:end"), ==, 0);
}

static gpointer
fetch_index (gpointer data)
{
  WsTrace *trace = data;
  const WsTime **got = g_new (const WsTime *, ws_trace_get_n_threads (trace));

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    got[t] = ws_trace_thread_end_prefix_max (trace, t, WS_END_INDEX_WAITS);
  return got;
}

/* The per-thread prefix maxima of end times, over random events, agree with
 * a direct scan at every position; two threads asking at once get the same
 * (one) index. */
static void
test_end_prefix_max (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);

  for (guint round = 0; round < 50; round++)
    {
      g_autoptr(WsTrace) trace = ws_trace_new ("random.json", NULL);
      guint n_threads = g_rand_int_range (rand, 1, 6);
      g_autofree const WsTime **a = NULL, **b = NULL;
      GThread *other;

      for (guint t = 0; t < n_threads; t++)
        ws_trace_ensure_thread (trace, 100 + t, 100);
      for (guint i = g_rand_int_range (rand, 0, 200); i > 0; i--)
        {
          WsEvent e = { .time = g_rand_int_range (rand, 0, 10000),
                        .u.duration = g_rand_int_range (rand, -5, 3000),
                        .thread = g_rand_int_range (rand, 0, n_threads),
                        .peer = WS_NONE,
                        .kind = g_rand_boolean (rand) ? WS_EVENT_WAIT : WS_EVENT_RUNNING };
          ws_trace_add_event (trace, &e);
        }
      ws_trace_finish (trace);

      other = g_thread_new ("index", fetch_index, trace);
      a = fetch_index (trace);
      b = g_thread_join (other);
      for (guint t = 0; t < n_threads; t++)
        {
          const WsThread *thread = ws_trace_get_thread (trace, t);
          const WsTime *all = ws_trace_thread_end_prefix_max (trace, t, WS_END_INDEX_ALL);

          g_assert_true (a[t] == b[t]);
          for (guint k = 0; k < thread->n_events; k++)
            {
              WsTime want_all = G_MININT64, want_waits = G_MININT64;

              for (guint j = 0; j <= k; j++)
                {
                  const WsEvent *e = ws_trace_get_event (trace, thread->events[j]);
                  WsTime end = e->time + MAX (ws_event_duration (e), 0);

                  want_all = MAX (want_all, end);
                  if (e->kind == WS_EVENT_WAIT)
                    want_waits = MAX (want_waits, end);
                }
              g_assert_cmpint (all[k], ==, want_all);
              g_assert_cmpint (a[t][k], ==, want_waits);
            }
        }
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/finish-sorts-and-remaps", test_finish_sorts_and_remaps);
  g_test_add_func ("/trace/end-prefix-max", test_end_prefix_max);
  g_test_add_func ("/trace/processes", test_processes);
  g_test_add_func ("/trace/scenario-instances", test_scenario_instances);
  return g_test_run ();
}
