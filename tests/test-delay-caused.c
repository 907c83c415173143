/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Which waits delayed another thread, by how much" (ws-delay-caused.c),
 * the rule behind mining's default scope and the anomalies shown by
 * default, against a naive tally on real traces: for every wait Y that a
 * thread X readied (a THREAD wake-up, neither of them the recorder), every
 * wait of X, all of them, checked for overlap with Y — no backward walk,
 * no early stop — except X's waits for another process to end (a shell's
 * wait4 for its child), relays that delay nobody of their own: told here
 * by reading every event of the thread that readied them.  Both users of
 * the rule must agree with it: the delay per wait, and the mining scope's
 * waits (those with an overlap).
 */
#include "config.h"

#include "ws-aoi.h"
#include "ws-attribution.h"
#include "ws-delay-caused.h"
#include "ws-frame-classifier.h"
#include "ws-trace-loader.h"

/* Whether wait @i was ended by the exit of a thread of another process:
 * its readier has a recorded exit, and between the wake-up and that exit
 * neither waits nor (when the wake-up came first) ran a sample. */
static gboolean
naive_relay (WsTrace           *trace,
             WsFrameClassifier *classifier,
             guint              i)
{
  const WsEvent *w = ws_trace_get_event (trace, i);
  guint r = WS_NONE;
  const WsThread *rt;
  WsTime wake, exit;

  if (w->peer == WS_NONE || ws_frame_classifier_classify_wake (classifier, trace, i, &r) != WS_WAKE_THREAD || r == WS_NONE)
    return FALSE;
  rt = ws_trace_get_thread (trace, r);
  exit = ws_trace_get_thread_exit_time (trace, r);
  if (rt->process == ws_trace_get_thread (trace, w->thread)->process || exit < 0)
    return FALSE;
  wake = ws_trace_get_event (trace, w->peer)->time;
  for (guint k = 0; k < rt->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, rt->events[k]);

      if (e->time > MIN (wake, exit) && e->time < MAX (wake, exit) &&
          (e->kind == WS_EVENT_WAIT || (e->kind == WS_EVENT_RUNNING && wake < exit)))
        return FALSE;
    }
  return TRUE;
}

static void
check_trace (const char *name,
             gboolean    relays_expected)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsFrameClassifier *classifier = ws_frame_classifier_get_default ();
  g_autofree gint64 *delay = NULL;
  g_autofree gint64 *naive = NULL;
  g_autofree gboolean *overlapped = NULL;
  g_autoptr(WsEventSet) scope = NULL;
  guint n, n_delaying = 0, n_relays = 0;

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
              if (naive_relay (trace, classifier, xt->events[k]))
                {
                  n_relays++;
                  continue;
                }
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
  g_test_message ("%s: %u of %u events delayed another thread; %u overlaps were relays", name, n_delaying, n, n_relays);
  if (relays_expected)
    g_assert_cmpuint (n_relays, >, 0);
}

static void
test_real_traces (void)
{
  check_trace ("py-locks.perf.txt.gz", FALSE);
  check_trace ("pg-tpcb.perf.txt.gz", FALSE);
  check_trace ("io-fsync.perf.txt.gz", FALSE);
  check_trace ("build.perf.txt.gz", TRUE);
  /* shells of the recording machine in wait4 for their children */
  check_trace ("causes/sem-fsync.perf.txt.gz", TRUE);
  check_trace ("causes/sh-gzip.perf.txt.gz", TRUE);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/delay-caused/naive-tally", test_real_traces);
  return g_test_run ();
}
