/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which waits delayed another thread, and by how much: the one rule behind
 * mining's default scope (ws_aoi_scope_delaying(): the waits nobody waited
 * through — idle workers, daemons waiting for work, the recorder's own
 * waits — are left out) and the anomalies shown by default (ranked by
 * surprise × delay caused, docs/anomaly-detection.md).
 *
 * A wait W of thread X delayed thread Y when X readied Y (a THREAD
 * wake-up, not a timer, device or heartbeat) and W overlapped Y's wait;
 * the delay is the overlap, summed over every wait X readied.  Waits of
 * the recorder, and wake-ups by it, do not count.  Nor does a wait of X
 * for another process to end (a shell's wait4 for its child,
 * ws_wait_ended_by_exit()): it is a relay, and the delay is that
 * process's doing, counted at its own waits; otherwise every launcher's
 * wait4 was a costly wait that delayed its parent shell, and mining's
 * first pattern on a machine running builds or scripts.
 */
#include "config.h"

#include "ws-attribution.h"
#include "ws-delay-caused.h"
#include "ws-process-end.h"

/* Calls @func for each wait of @readier overlapping [from, until): a
 * thread's waits are disjoint and in time order, so the walk goes back
 * from @until until one ends by @from. */
static void
foreach_overlap (WsTrace           *trace,
                 WsFrameClassifier *classifier,
                 guint              readier,
                 WsTime             from,
                 WsTime             until,
                 WsDelayCausedFunc  func,
                 gpointer           user_data)
{
  const WsThread *th = ws_trace_get_thread (trace, readier);

  for (guint k = ws_trace_thread_lower_bound (trace, readier, until); k > 0; k--)
    {
      const WsEvent *e = ws_trace_get_event (trace, th->events[k - 1]);

      if (e->kind != WS_EVENT_WAIT)
        continue;
      if (e->time + ws_event_duration (e) <= from)
        break;
      if (ws_wait_ended_by_exit (trace, classifier, th->events[k - 1]) != WS_NONE)
        continue;
      func (th->events[k - 1], MIN (e->time + ws_event_duration (e), until) - MAX (e->time, from), user_data);
    }
}

/**
 * ws_delay_caused_foreach:
 * @classifier: (nullable): the wake kinds; %NULL = the default lists
 * @func: called once per (readied wait, overlapping wait of its readier)
 *
 * Walks every wait that delayed another thread (see the top of the
 * file); a wait that delayed several waits is passed once for each.
 */
void
ws_delay_caused_foreach (WsTrace           *trace,
                         WsFrameClassifier *classifier,
                         WsDelayCausedFunc  func,
                         gpointer           user_data)
{
  guint n;

  g_return_if_fail (WS_IS_TRACE (trace));
  g_return_if_fail (func != NULL);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  n = ws_trace_get_n_events (trace);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      guint readier = WS_NONE;

      if (e->kind == WS_EVENT_WAIT && ws_event_duration (e) > 0 && !ws_attribution_is_recorder (trace, e->thread)
          && ws_frame_classifier_classify_wake (classifier, trace, i, &readier) == WS_WAKE_THREAD
          && readier != WS_NONE && readier != e->thread && !ws_attribution_is_recorder (trace, readier))
        foreach_overlap (trace, classifier, readier, e->time, e->time + ws_event_duration (e), func, user_data);
    }
}

static void
add_delay (guint    wait,
           WsTime   overlap,
           gpointer user_data)
{
  ((gint64 *) user_data)[wait] += overlap;
}

/**
 * ws_delay_caused:
 *
 * Returns: (transfer full) (array): per event of @trace, the time in ns
 *   it made other threads wait (0 for a wait that delayed nobody, and
 *   for every event that is not a wait)
 */
gint64 *
ws_delay_caused (WsTrace *trace)
{
  gint64 *delay;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  delay = g_new0 (gint64, MAX (ws_trace_get_n_events (trace), 1));
  ws_delay_caused_foreach (trace, NULL, add_delay, delay);
  return delay;
}
