/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A flag on one wait (ws-anomaly-flag): the wait a thread id and a time
 * name, against a brute-force scan of the thread's events at random times
 * of real traces; and the flag `flag` (CLI) makes without a scoring run
 * equals the one the GUI makes from the scores (ws_anomaly_result_make_flag())
 * for every scored wait, so a flag one saves is the flag the other reads.
 */
#include "config.h"

#include "ws-anomaly-detector.h"
#include "ws-anomaly-flag.h"
#include "ws-cli-test-util.h"
#include "ws-trace-loader.h"
#include "ws-wait-signature.h"

static WsTrace *
load (const char *name)
{
  g_autofree char *path = ws_cli_test_data_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The scored waits of @thread holding @time: their count, the last one. */
static guint
brute_force (WsTrace *trace,
             guint    thread,
             WsTime   time,
             guint   *count)
{
  guint found = WS_NONE;

  *count = 0;
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->thread == thread && ws_wait_is_scored (e) && e->time <= time && time < e->time + ws_event_duration (e))
        {
          found = i;
          (*count)++;
        }
    }
  return found;
}

static void
test_find_wait (void)
{
  const char *names[] = { "py-locks.perf.txt.gz", "causes/timed-lock.perf.txt.gz", "hand-built.json" };
  guint32 seed = g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint hits = 0;

  g_test_message ("seed %u", seed);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(WsTrace) trace = load (names[k]);
      guint n = ws_trace_get_n_events (trace);

      for (guint round = 0; round < 400; round++)
        {
          /* Half the times inside a wait (its start included), half anywhere. */
          const WsEvent *pick = ws_trace_get_event (trace, g_rand_int_range (rand, 0, n));
          guint thread = pick->thread, count;
          WsTime time = g_rand_boolean (rand) && ws_event_duration (pick) > 0
                        ? pick->time + g_rand_int_range (rand, 0, (gint32) MIN (ws_event_duration (pick), G_MAXINT32))
                        : (WsTime) g_rand_double_range (rand, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
          guint want = brute_force (trace, thread, time, &count);
          guint got = ws_anomaly_flag_find_wait (trace, ws_trace_get_thread (trace, thread)->tid, time);

          if (count > 1)
            continue;   /* overlapping waits: inconsistent input, no one answer */
          g_assert_cmpuint (got, ==, want);
          hits += got != WS_NONE;
        }
    }
  g_assert_cmpuint (hits, >, 100);
}

static void
test_flag_equals_scored_flag (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = ws_history_store_trace_digest (trace, &error);
  const char *digests[] = { digest };
  WsAnomalySettings settings;
  g_autoptr(WsAnomalyResult) result = NULL;
  guint compared = 0;

  g_assert_no_error (error);
  ws_anomaly_settings_init (&settings);
  result = ws_anomaly_detect (&trace, digests, 1, NULL, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      WsWaitFlag scored, made;
      gboolean has_score = ws_anomaly_result_make_flag (result, 0, i, WS_ANOMALY_FLAG_ANOMALOUS, &scored);
      gboolean has_flag = ws_anomaly_flag_for_wait (trace, digest, i, settings.signature_depth,
                                                    WS_ANOMALY_FLAG_ANOMALOUS, FALSE, &made);

      g_assert_cmpint (has_score, ==, has_flag);
      if (has_flag)
        {
          g_assert_cmpstr (made.trace_digest, ==, scored.trace_digest);
          g_assert_cmpint (made.event_time, ==, scored.event_time);
          g_assert_cmpint (made.tid, ==, scored.tid);
          g_assert_cmpstr (made.signature, ==, scored.signature);
          g_assert_cmpint (made.duration, ==, scored.duration);
          g_assert_cmpint (made.flag, ==, scored.flag);
          /* Scoped to its wait, the same kind behind the prefix. */
          ws_wait_flag_clear (&made);
          ws_anomaly_flag_for_wait (trace, digest, i, settings.signature_depth, WS_ANOMALY_FLAG_NORMAL, TRUE, &made);
          ws_anomaly_flag_to_wait_only (&scored);
          g_assert_cmpstr (made.signature, ==, scored.signature);
          compared++;
        }
      ws_wait_flag_clear (&scored);
      ws_wait_flag_clear (&made);
    }
  g_assert_cmpuint (compared, >, 1000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anomaly-flag/find-wait", test_find_wait);
  g_test_add_func ("/anomaly-flag/equals-scored-flag", test_flag_equals_scored_flag);
  return g_test_run ();
}
