/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-test-timeline-trace.h"
#include "ws-trace-private.h"

static guint
add (WsTrace     *trace,
     WsEventKind  kind,
     guint        thread,
     WsTime       time,
     WsTime       duration,
     guint8       flags,
     char         state,
     WsStackId    stack)
{
  WsEvent e;

  ws_event_init (&e, kind, time, thread);
  if (duration != 0)
    ws_event_set_duration (&e, duration);
  e.stack = stack;
  e.flags = flags;
  e.state = state;
  return ws_trace_add_event (trace, &e);
}

static WsStackId
stack3 (WsStackTable *stacks,
        const char   *a,
        const char   *b,
        const char   *c)
{
  WsFrameId f[3] = {
    ws_stack_table_intern_frame (stacks, a, "/usr/bin/app"),
    ws_stack_table_intern_frame (stacks, b, "/usr/lib/libc.so.6"),
    ws_stack_table_intern_frame (stacks, c, "[kernel.kallsyms]"),
  };
  return ws_stack_table_intern_stack (stacks, f, 3);
}

WsTrace *
ws_test_timeline_trace_new (WsTestTimelineTrace *ids)
{
  WsTrace *trace = ws_trace_new ("hand.trace", NULL);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  WsStackId wait_stack = stack3 (stacks, "main", "lock_acquire", "futex_wait");
  WsStackId wake_stack = stack3 (stacks, "main", "unlock", "futex_wake");
  guint a = ws_trace_ensure_thread (trace, 10, 10);
  guint b = ws_trace_ensure_thread (trace, 20, 20);
  guint w, u, d, rb;
  const WsEvent *events;
  guint n;

  ws_trace_set_thread_name (trace, a, "waiter");
  ws_trace_set_thread_name (trace, b, "waker");

  add (trace, WS_EVENT_RUNNING, a, 1000, 600, WS_EVENT_FLAG_SPAN, 0, WS_STACK_EMPTY);
  w = add (trace, WS_EVENT_WAIT, a, 1600, 1000, 0, 'S', wait_stack);
  ws_trace_set_wait_ready_latency (trace, w, 100);
  add (trace, WS_EVENT_RUNNING, a, 2700, 300, WS_EVENT_FLAG_SPAN, 0, WS_STACK_EMPTY);
  add (trace, WS_EVENT_PREEMPT, a, 3000, 50, 0, 'R', WS_STACK_EMPTY);
  add (trace, WS_EVENT_RUNNING, a, 3050, 150, WS_EVENT_FLAG_SPAN, 0, WS_STACK_EMPTY);
  add (trace, WS_EVENT_RUNNING, a, 3100, 2000000, 0, 0, WS_STACK_EMPTY);
  add (trace, WS_EVENT_WAIT, a, 3200, 1800, WS_EVENT_FLAG_READIER_UNKNOWN | WS_EVENT_FLAG_UNINTERRUPTIBLE, 'D', wait_stack);
  add (trace, WS_EVENT_RUNNING, b, 2500, 200, WS_EVENT_FLAG_SPAN, 0, WS_STACK_EMPTY);
  u = add (trace, WS_EVENT_UNWAIT, b, 2600, 0, 0, 0, wake_stack);
  ws_event_set_target (ws_trace_peek_event (trace, u), a);
  ws_trace_peek_event (trace, u)->peer = w;
  ws_trace_peek_event (trace, w)->peer = u;

  ws_trace_finish (trace);

  /* Find the indices again after the sort. */
  events = ws_trace_get_events (trace);
  n = ws_trace_get_n_events (trace);
  w = u = d = rb = WS_NONE;
  for (guint i = 0; i < n; i++)
    {
      if (events[i].kind == WS_EVENT_WAIT && events[i].state == 'S')
        w = i;
      else if (events[i].kind == WS_EVENT_WAIT)
        d = i;
      else if (events[i].kind == WS_EVENT_UNWAIT)
        u = i;
      else if (events[i].kind == WS_EVENT_RUNNING && events[i].thread == b)
        rb = i;
    }
  g_assert (events[w].peer == u && events[u].peer == w);

  if (ids)
    {
      ids->thread_a = a;
      ids->thread_b = b;
      ids->wait_s = w;
      ids->wait_d = d;
      ids->unwait = u;
      ids->run_b = rb;
    }
  return trace;
}
