/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-thread totals: how many waits, how long each thread waited, ran and
 * was preempted, how many waits have no recorded wake-up.  The one place
 * they are counted, so that `info` and the GUI's Threads table agree.
 */
#include "config.h"

#include "ws-trace-stats.h"
#include "ws-wait-readier.h"

void
ws_thread_totals_init (WsThreadTotals *totals)
{
  g_return_if_fail (totals != NULL);

  *totals = (WsThreadTotals) { 0 };
  totals->longest_wait_event = WS_NONE;
}

static void
add_wait (WsThreadTotals *totals,
          WsTrace        *trace,
          const WsEvent  *e,
          guint           event,
          WsTime          counted)
{
  /* A negative cost (inconsistent input) is no time for the longest. */
  WsTime cost = MAX (ws_event_duration (e), 0);

  totals->n_waits++;
  totals->wait_total += counted;
  if (cost > totals->longest_wait || totals->longest_wait_event == WS_NONE)
    {
      totals->longest_wait = cost;
      totals->longest_wait_event = event;
    }
  switch (ws_wait_readier_classify (trace, event, NULL))
    {
    case WS_WAIT_READIER_UNKNOWN:
      totals->n_unknown++;
      break;
    case WS_WAIT_READIER_HARDWARE:
      totals->n_hardware++;
      break;
    case WS_WAIT_READIER_THREAD:
    case WS_WAIT_READIER_UNFINISHED:
    default:
      break;
    }
}

/* Adds @event, counting @counted ns of it (its duration, or the part
 * inside a window). */
static void
add_event (WsThreadTotals *totals,
           WsTrace        *trace,
           guint           event,
           WsTime          counted)
{
  const WsEvent *e = ws_trace_get_event (trace, event);

  switch ((WsEventKind) e->kind)
    {
    case WS_EVENT_WAIT:
      add_wait (totals, trace, e, event, counted);
      break;
    case WS_EVENT_RUNNING:
      if (e->flags & WS_EVENT_FLAG_SPAN)
        totals->run_total += counted;
      else
        {
          totals->sampled_total += counted;
          totals->n_samples++;
        }
      break;
    case WS_EVENT_PREEMPT:
      totals->preempt_total += counted;
      break;
    case WS_EVENT_UNWAIT:
    case WS_EVENT_HW_SERVICE:
    case WS_EVENT_MARKER:
    case WS_N_EVENT_KINDS:
    default:
      break;
    }
}

/**
 * ws_thread_totals_add_event:
 * @event: an event of the thread @totals counts
 *
 * Adds @event to @totals.
 */
void
ws_thread_totals_add_event (WsThreadTotals *totals,
                            WsTrace        *trace,
                            guint           event)
{
  g_return_if_fail (totals != NULL);
  g_return_if_fail (WS_IS_TRACE (trace));

  add_event (totals, trace, event, ws_event_duration (ws_trace_get_event (trace, event)));
}

/**
 * ws_thread_totals_in_window:
 * @thread: a thread index
 * @t0: the window's start
 * @t1: its end (> @t0)
 * @totals: (out caller-allocates): the totals
 *
 * The totals of @thread's events that overlap [@t0, @t1), each counting
 * its time inside the window (a wait or a run span that began before the
 * window counts in it); the longest wait is by its whole cost.  The details pane shows
 * them for a selected window.
 */
void
ws_thread_totals_in_window (WsTrace        *trace,
                            guint           thread,
                            WsTime          t0,
                            WsTime          t1,
                            WsThreadTotals *totals)
{
  const WsThread *t;
  const WsTime *ends;
  guint k;

  g_return_if_fail (WS_IS_TRACE (trace) && totals != NULL);

  ws_thread_totals_init (totals);
  if (thread >= ws_trace_get_n_threads (trace))
    return;
  t = ws_trace_get_thread (trace, thread);
  ends = ws_trace_thread_end_prefix_max (trace, thread, WS_END_INDEX_ALL);
  /* Back from the first event starting in the window over every earlier
   * one that may still run into it (a wait or a run span under way at
   * @t0, even with CPU samples after its start). */
  for (k = ws_trace_thread_lower_bound (trace, thread, t0); k > 0 && ends[k - 1] > t0; k--)
    ;
  for (; k < t->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[k]);
      WsTime a = MAX (e->time, t0), b = MIN (e->time + MAX (ws_event_duration (e), 0), t1);

      if (e->time >= t1)
        break;
      if (b > a)
        add_event (totals, trace, t->events[k], b - a);
    }
}

/**
 * ws_trace_thread_totals:
 *
 * Returns: (transfer full): one #WsThreadTotals per thread of @trace, by
 *   thread index (at least one element); g_free() it
 */
WsThreadTotals *
ws_trace_thread_totals (WsTrace *trace)
{
  guint n_threads, n_events;
  WsThreadTotals *totals;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  n_threads = ws_trace_get_n_threads (trace);
  n_events = ws_trace_get_n_events (trace);
  totals = g_new (WsThreadTotals, MAX (n_threads, 1));
  for (guint t = 0; t < MAX (n_threads, 1); t++)
    ws_thread_totals_init (&totals[t]);
  for (guint i = 0; i < n_events; i++)
    ws_thread_totals_add_event (&totals[ws_trace_get_event (trace, i)->thread], trace, i);
  return totals;
}
