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

  if (ea->duration != eb->duration)
    return ea->duration > eb->duration ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

GArray *
ws_trace_summary_top_waits (WsTrace *trace,
                            guint    top)
{
  GArray *waits = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      g_array_append_val (waits, i);
  g_array_sort_with_data (waits, compare_cost, trace);
  if (waits->len > top)
    g_array_set_size (waits, top);
  return waits;
}

const char *
ws_event_flag_name (guint bit)
{
  static const char * const names[] = {
    "span", "readier-unknown", "uninterruptible", "unfinished", "echo",
  };
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
