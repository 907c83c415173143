/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Waiting for a process to end: a shell's wait4 for its child, a read that
 * met the end of a pipe when its writer exited.  Such a wait is a relay,
 * not a delay of its own: what held the waiter up is what the process that
 * ended did with its life.  The thread picker credits that process with
 * the wait (ws-thread-picker.c), and a wait for a process to end delays
 * nobody in mining's default scope (ws-delay-caused.c).
 */
#include "config.h"

#include "ws-process-end.h"

/**
 * ws_wait_ended_by_exit:
 * @classifier: the wake kinds
 * @wait: a WAIT event index
 *
 * The thread whose end ended @wait, or %WS_NONE.  The wake-up must come
 * from another process's exit path: the readier has no wait, and no CPU
 * sample, between the wake-up and its recorded exit (the kernel closes
 * files, then tells the parent).
 */
guint
ws_wait_ended_by_exit (WsTrace           *trace,
                       WsFrameClassifier *classifier,
                       guint              wait)
{
  const WsEvent *w = ws_trace_get_event (trace, wait);
  const WsThread *r;
  guint readier = WS_NONE;
  WsTime wake, exit, lo, hi;

  if (w->kind != WS_EVENT_WAIT || w->peer == WS_NONE ||
      ws_frame_classifier_classify_wake (classifier, trace, wait, &readier) != WS_WAKE_THREAD ||
      readier == WS_NONE ||
      ws_trace_get_thread (trace, readier)->process == ws_trace_get_thread (trace, w->thread)->process ||
      (exit = ws_trace_get_thread_exit_time (trace, readier)) < 0)
    return WS_NONE;
  wake = ws_trace_get_event (trace, w->peer)->time;
  lo = MIN (wake, exit);
  hi = MAX (wake, exit);
  r = ws_trace_get_thread (trace, readier);
  for (guint i = ws_trace_thread_lower_bound (trace, readier, lo); i < r->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, r->events[i]);

      if (e->time <= lo)
        continue;
      if (e->time >= hi)
        break;
      if (e->kind == WS_EVENT_WAIT || (e->kind == WS_EVENT_RUNNING && wake < exit))
        return WS_NONE;
    }
  return readier;
}
