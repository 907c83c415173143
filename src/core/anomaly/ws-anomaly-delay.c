/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How long each wait delayed other threads, so that the anomalies shown by
 * default are the waits that cost someone something (an idle worker, a
 * daemon waiting for work or the recorder's own waits are not), ranked by
 * surprise × delay caused (docs/anomaly-detection.md, "Anomalies are rare
 * by default").  The rule is the one of the mining scope "waits that
 * delayed another thread" (ws_aoi_scope_delaying()), measured: a wait W of
 * thread X delayed thread Y when X readied Y (a THREAD wake-up, not a
 * timer, device or heartbeat) and W overlapped Y's wait; the delay is the
 * overlap, summed over every wait X readied.
 */
#include "config.h"

#include "ws-anomaly-delay.h"
#include "ws-attribution.h"
#include "ws-critical-path.h"

/* Adds to @delay the overlap of each wait of @readier with [from, until):
 * a thread's waits are disjoint and in time order, so the walk goes back
 * from @until until one ends by @from. */
static void
add_overlaps (gint64  *delay,
              WsTrace *trace,
              guint    readier,
              WsTime   from,
              WsTime   until)
{
  const WsThread *th = ws_trace_get_thread (trace, readier);

  for (guint k = ws_trace_thread_lower_bound (trace, readier, until); k > 0; k--)
    {
      const WsEvent *e = ws_trace_get_event (trace, th->events[k - 1]);

      if (e->kind != WS_EVENT_WAIT)
        continue;
      if (e->time + e->duration <= from)
        break;
      delay[th->events[k - 1]] += MIN (e->time + e->duration, until) - MAX (e->time, from);
    }
}

/**
 * ws_anomaly_delay_caused:
 *
 * Returns: (transfer full) (array): per event of @trace, the time in ns
 *   it made other threads wait (0 for a wait that delayed nobody, and
 *   for every event that is not a wait)
 */
gint64 *
ws_anomaly_delay_caused (WsTrace *trace)
{
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  guint n;
  gint64 *delay;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  n = ws_trace_get_n_events (trace);
  delay = g_new0 (gint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      guint readier = WS_NONE;

      if (e->kind == WS_EVENT_WAIT && e->duration > 0 && !ws_attribution_is_recorder (trace, e->thread)
          && ws_frame_classifier_classify_wake (classifier, trace, i, &readier) == WS_WAKE_THREAD
          && readier != WS_NONE && readier != e->thread && !ws_attribution_is_recorder (trace, readier))
        add_overlaps (delay, trace, readier, e->time, e->time + e->duration);
    }
  return delay;
}
