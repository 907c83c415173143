/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Which waits delayed another thread, by how much" (ws-delay-caused.c),
 * the rule behind mining's default scope and the anomalies shown by
 * default, against a naive tally on real traces: for every wait Y that a
 * thread X readied (a THREAD wake-up, neither of them the recorder), every
 * wait of X, all of them, checked for overlap with Y — no backward walk,
 * no early stop.  Both users of the rule must agree with it: the delay
 * per wait, and the mining scope's waits (those with an overlap).
 */
#include "config.h"

#include "ws-aoi.h"
#include "ws-attribution.h"
#include "ws-delay-caused.h"
#include "ws-frame-classifier.h"
#include "ws-trace-loader.h"

static void
check_trace (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  g_autofree gint64 *delay = NULL;
  g_autofree gint64 *naive = NULL;
  g_autofree gboolean *overlapped = NULL;
  g_autoptr(WsEventSet) scope = NULL;
  guint n, n_delaying = 0;

  g_assert_no_error (error);
  n = ws_trace_get_n_events (trace);
  naive = g_new0 (gint64, n);
  overlapped = g_new0 (gboolean, n);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *y = ws_trace_get_event (trace, i);
      guint x = WS_NONE;
      const WsThread *xt;

      if (y->kind != WS_EVENT_WAIT || ws_event_duration (y) <= 0 || ws_attribution_is_recorder (trace, y->thread)
          || ws_frame_classifier_classify_wake (classifier, trace, i, &x) != WS_WAKE_THREAD
          || x == WS_NONE || x == y->thread || ws_attribution_is_recorder (trace, x))
        continue;
      xt = ws_trace_get_thread (trace, x);
      for (guint k = 0; k < xt->n_events; k++)
        {
          const WsEvent *w = ws_trace_get_event (trace, xt->events[k]);

          if (w->kind == WS_EVENT_WAIT && w->time < y->time + ws_event_duration (y) && w->time + ws_event_duration (w) > y->time)
            {
              naive[xt->events[k]] += MIN (w->time + ws_event_duration (w), y->time + ws_event_duration (y)) - MAX (w->time, y->time);
              overlapped[xt->events[k]] = TRUE;
            }
        }
    }

  delay = ws_delay_caused (trace);
  scope = ws_aoi_scope_delaying (trace, NULL);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      g_assert_cmpint (delay[i], ==, naive[i]);
      if (e->kind == WS_EVENT_RUNNING)
        g_assert_true (ws_event_set_contains (scope, i));
      else
        g_assert_cmpint (ws_event_set_contains (scope, i), ==, overlapped[i]);
      n_delaying += delay[i] > 0;
    }
  /* The traces have waits that delayed others, and waits that did not. */
  g_assert_cmpuint (n_delaying, >, 0);
  g_test_message ("%s: %u of %u events delayed another thread", name, n_delaying, n);
}

static void
test_real_traces (void)
{
  check_trace ("py-locks.perf.txt.gz");
  check_trace ("pg-tpcb.perf.txt.gz");
  check_trace ("io-fsync.perf.txt.gz");
  check_trace ("build.perf.txt.gz");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/delay-caused/naive-tally", test_real_traces);
  return g_test_run ();
}
