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
  WsEvent wake = { .time = 300, .thread = b, .peer = WS_NONE, .target = a, .kind = WS_EVENT_UNWAIT };
  WsEvent wait = { .time = 100, .duration = 200, .thread = a, .peer = WS_NONE, .target = WS_NONE,
                   .kind = WS_EVENT_WAIT, .state = 'S' };
  WsEvent run = { .time = 50, .duration = 40, .thread = b, .peer = WS_NONE, .target = WS_NONE,
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
  WsEvent e = { .time = 1, .peer = WS_NONE, .target = WS_NONE, .kind = WS_EVENT_RUNNING };

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
      WsEvent e = { .time = times[i], .thread = t, .peer = WS_NONE, .target = names[i], .kind = WS_EVENT_MARKER };
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

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/finish-sorts-and-remaps", test_finish_sorts_and_remaps);
  g_test_add_func ("/trace/processes", test_processes);
  g_test_add_func ("/trace/scenario-instances", test_scenario_instances);
  return g_test_run ();
}
