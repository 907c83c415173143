/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What `info` says of a trace, in text and JSON alike: its threads by
 * time spent waiting, and its costliest waits.
 */
#include "config.h"

#include <stdlib.h>

#include "ws-trace-summary.h"

static int
compare_wait_total (gconstpointer a,
                    gconstpointer b)
{
  const WsThreadSummary *sa = a, *sb = b;

  if (sa->totals.wait_total != sb->totals.wait_total)
    return sa->totals.wait_total > sb->totals.wait_total ? -1 : 1;
  return sa->thread < sb->thread ? -1 : sa->thread > sb->thread;
}

WsThreadSummary *
ws_trace_summary_threads (WsTrace *trace)
{
  guint n_threads = ws_trace_get_n_threads (trace);
  g_autofree WsThreadTotals *totals = ws_trace_thread_totals (trace);
  WsThreadSummary *stats = g_new0 (WsThreadSummary, MAX (n_threads, 1));

  for (guint t = 0; t < n_threads; t++)
    stats[t] = (WsThreadSummary) { t, totals[t] };
  qsort (stats, n_threads, sizeof (WsThreadSummary), compare_wait_total);
  return stats;
}

static int
compare_cost (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  WsTrace *trace = user_data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const WsEvent *ea = ws_trace_get_event (trace, ia);
  const WsEvent *eb = ws_trace_get_event (trace, ib);

  if (ws_event_duration (ea) != ws_event_duration (eb))
    return ws_event_duration (ea) > ws_event_duration (eb) ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

/* Moves heap[i] down until both its children come after it in reverse
 * order: the root is the kept wait that ranks last. */
static void
sift_down (guint   *heap,
           guint    n,
           guint    i,
           WsTrace *trace)
{
  for (;;)
    {
      guint last = i, left = 2 * i + 1, right = left + 1;

      if (left < n && compare_cost (&heap[left], &heap[last], trace) > 0)
        last = left;
      if (right < n && compare_cost (&heap[right], &heap[last], trace) > 0)
        last = right;
      if (last == i)
        return;
      guint t = heap[i];
      heap[i] = heap[last];
      heap[last] = t;
      i = last;
    }
}

/*
 * The @top costliest waits, costliest first (ties by event order).  A
 * heap of @top rather than a sort of every wait: on a trace of millions
 * of waits the sort was an eighth of `info`'s time.  The order is total,
 * so the rows are the sort's.
 */
GArray *
ws_trace_summary_top_waits (WsTrace *trace,
                            guint    top)
{
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (guint));
  guint *heap;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      if (ws_trace_get_event (trace, i)->kind != WS_EVENT_WAIT)
        continue;
      if (kept->len < top)
        {
          g_array_append_val (kept, i);
          if (kept->len == top)
            for (guint j = top / 2; j-- > 0;)
              sift_down ((guint *) (gpointer) kept->data, top, j, trace);
        }
      else if (top > 0 && compare_cost (&i, &g_array_index (kept, guint, 0), trace) < 0)
        {
          heap = (guint *) (gpointer) kept->data;
          heap[0] = i;
          sift_down (heap, top, 0, trace);
        }
    }
  g_array_sort_with_data (kept, compare_cost, trace);
  return kept;
}

const char *
ws_event_flag_name (guint bit)
{
  /* One name a bit, in the order of WsEventFlags: the JSON trace format
   * and `info` both spell flags this way. */
  static const char * const names[] = {
    "span", "readier-unknown", "uninterruptible", "unfinished", "echo", "to-idle",
  };
  G_STATIC_ASSERT (G_N_ELEMENTS (names) == WS_EVENT_N_FLAG_BITS);

  return bit < G_N_ELEMENTS (names) ? names[bit] : NULL;
}

const char *
ws_trace_summary_process_name (WsTrace        *trace,
                               const WsThread *thread)
{
  if (thread->process == WS_NONE)
    return NULL;
  return ws_trace_get_process (trace, thread->process)->name;
}
