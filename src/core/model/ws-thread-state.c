/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What state a thread is in at each instant: the one definition that the
 * timeline draws (its level 0), the Threads table sums and the pivot table
 * groups.  A thread's events become spans:
 *
 *   RUNNING with an exact span  → running over [time, time + duration)
 *   PREEMPT                     → ready over its duration
 *   WAIT                        → S / D / other over its cost, then ready
 *                                 over its ready latency (woken, no CPU yet)
 *
 * Samples, wake-ups given and markers are instants, not spans.  Where two
 * spans overlap (inconsistent input) the one that starts later wins from
 * its start, so a thread is in one state at a time.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-thread-state.h"
#include "ws-wait-readier.h"

/**
 * ws_thread_state_for_wait:
 * @wait: a WAIT event
 *
 * Returns: the state a timeline shows for it: S, D or other, with or
 *   without a known readier (a wait unfinished at the end of the trace
 *   counts as known: nothing was lost)
 */
WsThreadState
ws_thread_state_for_wait (const WsEvent *wait)
{
  gboolean unknown;
  WsThreadState state;

  g_return_val_if_fail (wait != NULL, WS_THREAD_STATE_OTHER);

  /* The one definition every view counts by (ws-wait-readier.c). */
  unknown = ws_wait_readier_is_unknown (wait);
  if (wait->state == 'D' || (wait->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) != 0)
    state = WS_THREAD_STATE_DISK;
  else if (wait->state == 'S')
    state = WS_THREAD_STATE_SLEEP;
  else
    state = WS_THREAD_STATE_OTHER;

  return unknown ? state + (WS_THREAD_STATE_SLEEP_UNKNOWN - WS_THREAD_STATE_SLEEP) : state;
}

gboolean
ws_thread_state_is_wait (WsThreadState state)
{
  return state >= WS_THREAD_STATE_SLEEP && state < WS_N_THREAD_STATES;
}

gboolean
ws_thread_state_is_unknown (WsThreadState state)
{
  return state >= WS_THREAD_STATE_SLEEP_UNKNOWN && state < WS_N_THREAD_STATES;
}

/**
 * ws_thread_state_to_legend:
 *
 * Returns: @state as the legend names it: a wait with no wake-up recorded
 *   is its own S, D or other wait
 */
WsThreadState
ws_thread_state_to_legend (WsThreadState state)
{
  if (ws_thread_state_is_unknown (state))
    return state - (WS_THREAD_STATE_SLEEP_UNKNOWN - WS_THREAD_STATE_SLEEP);
  return state;
}

/**
 * ws_thread_state_get_label:
 * Returns: a translated, human-readable description of @state (tooltips)
 */
const char *
ws_thread_state_get_label (WsThreadState state)
{
  switch (state)
    {
    case WS_THREAD_STATE_RUN:
      return _("Running");
    case WS_THREAD_STATE_READY:
      return _("Ready (runnable, not on a CPU)");
    case WS_THREAD_STATE_SLEEP:
      return _("Sleeping (S)");
    case WS_THREAD_STATE_DISK:
      return _("Uninterruptible (D, disk)");
    case WS_THREAD_STATE_OTHER:
      return _("Blocked");
    case WS_THREAD_STATE_SLEEP_UNKNOWN:
      return _("Sleeping (S), no wake-up recorded");
    case WS_THREAD_STATE_DISK_UNKNOWN:
      return _("Uninterruptible (D), no wake-up recorded");
    case WS_THREAD_STATE_OTHER_UNKNOWN:
      return _("Blocked, no wake-up recorded");
    case WS_N_THREAD_STATES:
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * ws_thread_state_get_name:
 * Returns: the translated name the timeline's legend gives the legend
 *   state of @state ("Sleeping (S)"), for every view that names a state
 */
const char *
ws_thread_state_get_name (WsThreadState state)
{
  switch (ws_thread_state_to_legend (state))
    {
    case WS_THREAD_STATE_RUN:
      return _("Running");
    case WS_THREAD_STATE_READY:
      return _("Ready");
    case WS_THREAD_STATE_SLEEP:
      return _("Sleeping (S)");
    case WS_THREAD_STATE_DISK:
      return _("Disk / uninterruptible (D)");
    case WS_THREAD_STATE_OTHER:
      return _("Other wait");
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * ws_thread_state_to_string:
 * Returns: the untranslated word of the legend state of @state, as the
 *   SQL view thread_state_spans and every --json / --csv output write it:
 *   running, ready, sleeping, disk, other
 */
const char *
ws_thread_state_to_string (WsThreadState state)
{
  static const char * const words[WS_N_LEGEND_STATES] = { "running", "ready", "sleeping", "disk", "other" };
  WsThreadState legend = ws_thread_state_to_legend (state);

  g_return_val_if_fail (legend < WS_N_LEGEND_STATES, NULL);
  return words[legend];
}

/**
 * ws_state_spans_of_event:
 * @event: an event of the thread
 * @index: its index in @trace
 * @spans: (out caller-allocates): up to two spans
 *
 * The spans one event adds to its thread's row, before overlaps are
 * resolved: none for an instant, one for a running span or a preemption,
 * a wait and the ready latency after it.  Empty spans are left out.
 *
 * Returns: how many spans were written
 */
guint
ws_state_spans_of_event (WsTrace       *trace,
                         const WsEvent *event,
                         guint32        index,
                         WsStateSpan    spans[2])
{
  WsTime end = event->time + MAX (ws_event_duration (event), 0);
  guint n = 0;

  switch ((WsEventKind) event->kind)
    {
    case WS_EVENT_RUNNING:
      if (event->flags & WS_EVENT_FLAG_SPAN)
        spans[n++] = (WsStateSpan) { event->time, end, index, WS_THREAD_STATE_RUN };
      break;
    case WS_EVENT_PREEMPT:
      spans[n++] = (WsStateSpan) { event->time, end, index, WS_THREAD_STATE_READY };
      break;
    case WS_EVENT_WAIT:
      {
        guint32 latency = ws_trace_wait_ready_latency (trace, index);

        spans[n++] = (WsStateSpan) { event->time, end, index, ws_thread_state_for_wait (event) };
        if (latency != WS_LATENCY_UNKNOWN && latency > 0)
          spans[n++] = (WsStateSpan) { end, end + latency, index, WS_THREAD_STATE_READY };
      }
      break;
    case WS_EVENT_UNWAIT:
    case WS_EVENT_HW_SERVICE:
    case WS_EVENT_MARKER:
    case WS_N_EVENT_KINDS:
    default:
      break;
    }
  /* Drop empty spans, keeping order. */
  guint kept = 0;
  for (guint i = 0; i < n; i++)
    if (spans[i].t1 > spans[i].t0)
      spans[kept++] = spans[i];
  return kept;
}

static int
compare_span_start (gconstpointer a,
                    gconstpointer b)
{
  const WsStateSpan *sa = a, *sb = b;

  return sa->t0 < sb->t0 ? -1 : sa->t0 > sb->t0;
}

/**
 * ws_state_spans_normalize:
 * @spans: (element-type WsStateSpan): spans of one thread
 *
 * Sorts @spans by start and makes them disjoint: where two overlap, the
 * one that starts later wins from its start (a span cut to nothing is
 * dropped).  Touching spans are kept apart: each keeps its event.
 */
void
ws_state_spans_normalize (GArray *spans)
{
  WsStateSpan *s = (WsStateSpan *) (gpointer) spans->data;
  gboolean sorted = TRUE;
  guint out = 0;

  for (guint i = 1; i < spans->len && sorted; i++)
    sorted = s[i].t0 >= s[i - 1].t0;
  if (!sorted)
    g_array_sort (spans, compare_span_start);   /* stable: equal starts keep order */

  for (guint i = 0; i < spans->len; i++)
    {
      if (out > 0 && s[out - 1].t1 > s[i].t0)
        {
          s[out - 1].t1 = s[i].t0;
          if (s[out - 1].t1 <= s[out - 1].t0)
            out--;
        }
      s[out++] = s[i];
    }
  g_array_set_size (spans, out);
}

/**
 * ws_thread_state_spans:
 * @thread: a thread index
 *
 * What the thread's timeline row shows, exactly: every span of its
 * events, sorted by start and disjoint.
 *
 * Returns: (transfer full) (element-type WsStateSpan): the spans
 */
GArray *
ws_thread_state_spans (WsTrace *trace,
                       guint    thread)
{
  const WsThread *t;
  const WsEvent *events;
  GArray *spans;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (thread < ws_trace_get_n_threads (trace), NULL);

  t = ws_trace_get_thread (trace, thread);
  events = ws_trace_get_events (trace);
  spans = g_array_sized_new (FALSE, FALSE, sizeof (WsStateSpan), t->n_events);
  for (guint k = 0; k < t->n_events; k++)
    {
      WsStateSpan two[2];
      guint n = ws_state_spans_of_event (trace, &events[t->events[k]], t->events[k], two);

      g_array_append_vals (spans, two, n);
    }
  ws_state_spans_normalize (spans);
  return spans;
}

/**
 * ws_state_spans_lower_bound:
 * @spans: (array length=n): disjoint spans, sorted
 *
 * Returns: the first span that ends after @time (@n if none)
 */
guint
ws_state_spans_lower_bound (const WsStateSpan *spans,
                            guint              n,
                            WsTime             time)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (spans[mid].t1 <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
