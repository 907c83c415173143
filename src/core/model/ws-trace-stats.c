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
          guint           event)
{
  /* A negative cost (inconsistent input) is no time for the longest. */
  WsTime cost = MAX (e->duration, 0);

  totals->n_waits++;
  totals->wait_total += e->duration;
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
  const WsEvent *e;

  g_return_if_fail (totals != NULL);
  g_return_if_fail (WS_IS_TRACE (trace));

  e = ws_trace_get_event (trace, event);
  switch ((WsEventKind) e->kind)
    {
    case WS_EVENT_WAIT:
      add_wait (totals, trace, e, event);
      break;
    case WS_EVENT_RUNNING:
      if (e->flags & WS_EVENT_FLAG_SPAN)
        totals->run_total += e->duration;
      else
        {
          totals->sampled_total += e->duration;
          totals->n_samples++;
        }
      break;
    case WS_EVENT_PREEMPT:
      totals->preempt_total += e->duration;
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
