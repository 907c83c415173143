/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-thread totals (ws-trace-stats) and who ended a wait
 * (ws-wait-readier): the one home of facts `info`, the Threads table, the
 * timeline, the details pane and the reports all show.
 *
 * Oracles: the totals are recounted here from the events' own fields;
 * the law "a wait counts as having no wake-up recorded exactly when the
 * timeline draws it as such" is checked on random traces (with waits that
 * carry a paired wake-up and the readier-unknown flag both, as a JSON
 * trace may) and on every real trace of tests/data; the sentences of the
 * hand-built JSON trace are the ones its description gives.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-thread-state.h"
#include "ws-trace-loader.h"
#include "ws-trace-private.h"
#include "ws-trace-stats.h"
#include "ws-wait-readier.h"
#include "ws-wake-words.h"

/* The totals of thread @thread, recounted from the raw events. */
static void
recount (WsTrace        *trace,
         guint           thread,
         WsThreadTotals *out)
{
  const WsEvent *events = ws_trace_get_events (trace);

  memset (out, 0, sizeof *out);
  out->longest_wait_event = WS_NONE;
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = &events[i];

      if (e->thread != thread)
        continue;
      if (e->kind == WS_EVENT_WAIT)
        {
          out->n_waits++;
          out->wait_total += ws_event_duration (e);
          if (e->peer == WS_NONE && !(e->flags & WS_EVENT_FLAG_UNFINISHED))
            out->n_unknown++;
          if (e->peer != WS_NONE && events[e->peer].kind == WS_EVENT_HW_SERVICE)
            out->n_hardware++;
          if (out->longest_wait_event == WS_NONE || MAX (ws_event_duration (e), 0) > out->longest_wait)
            {
              out->longest_wait = MAX (ws_event_duration (e), 0);
              out->longest_wait_event = i;
            }
        }
      else if (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN))
        out->run_total += ws_event_duration (e);
      else if (e->kind == WS_EVENT_RUNNING)
        {
          out->sampled_total += ws_event_duration (e);
          out->n_samples++;
        }
      else if (e->kind == WS_EVENT_PREEMPT)
        out->preempt_total += ws_event_duration (e);
    }
}

/* Checks the totals against the recount, and the law: the waits counted
 * as having no wake-up recorded are the ones the timeline marks so. */
static void
check_trace (WsTrace *trace)
{
  g_autofree WsThreadTotals *totals = ws_trace_thread_totals (trace);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      WsThreadTotals want;
      guint drawn_unknown = 0;

      recount (trace, t, &want);
      g_assert_cmpuint (totals[t].n_waits, ==, want.n_waits);
      g_assert_cmpuint (totals[t].n_unknown, ==, want.n_unknown);
      g_assert_cmpuint (totals[t].n_hardware, ==, want.n_hardware);
      g_assert_cmpuint (totals[t].n_samples, ==, want.n_samples);
      g_assert_cmpint (totals[t].wait_total, ==, want.wait_total);
      g_assert_cmpint (totals[t].run_total, ==, want.run_total);
      g_assert_cmpint (totals[t].sampled_total, ==, want.sampled_total);
      g_assert_cmpint (totals[t].preempt_total, ==, want.preempt_total);
      g_assert_cmpint (totals[t].longest_wait, ==, want.longest_wait);
      g_assert_cmpuint (totals[t].longest_wait_event, ==, want.longest_wait_event);

      for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
        {
          const WsEvent *e = ws_trace_get_event (trace, i);

          if (e->thread != t || e->kind != WS_EVENT_WAIT)
            continue;
          if (ws_thread_state_is_unknown (ws_thread_state_for_wait (e)))
            drawn_unknown++;
          g_assert_cmpint (ws_wait_readier_classify (trace, i, NULL) == WS_WAIT_READIER_UNKNOWN, ==,
                           ws_thread_state_is_unknown (ws_thread_state_for_wait (e)));
        }
      g_assert_cmpuint (drawn_unknown, ==, totals[t].n_unknown);
    }
}

static guint
add (WsTrace    *trace,
     WsEventKind kind,
     guint       thread,
     WsTime      time,
     WsTime      duration,
     guint8      flags,
     char        state)
{
  WsEvent e;

  ws_event_init (&e, kind, time, thread);
  if (duration != 0)
    ws_event_set_duration (&e, duration);
  e.flags = flags;
  e.state = state;
  return ws_trace_add_event (trace, &e);
}

/* A random trace: threads that run, get preempted and sampled, and wait;
 * each wait ended by another thread, by an interrupt, by nothing recorded
 * or still open at the end, and some flagged readier-unknown whatever
 * ended them. */
static WsTrace *
random_trace (GRand *rand)
{
  WsTrace *trace = ws_trace_new ("random.trace", NULL);
  guint n_threads = g_rand_int_range (rand, 1, 6);
  guint hw = ws_trace_ensure_thread (trace, 1, 1);

  for (guint t = 0; t < n_threads; t++)
    {
      guint thread = ws_trace_ensure_thread (trace, 100 + t, 100 + t);
      WsTime now = g_rand_int_range (rand, 0, 1000);
      guint n = g_rand_int_range (rand, 0, 40);

      for (guint k = 0; k < n; k++)
        {
          WsTime d = g_rand_int_range (rand, 0, 5000);
          guint kind = g_rand_int_range (rand, 0, 4);

          if (kind == 0)
            add (trace, WS_EVENT_RUNNING, thread, now, d, WS_EVENT_FLAG_SPAN, 0);
          else if (kind == 1)
            add (trace, g_rand_boolean (rand) ? WS_EVENT_RUNNING : WS_EVENT_PREEMPT, thread, now, d, 0, 'R');
          else
            {
              guint8 flags = g_rand_int_range (rand, 0, 4) == 0 ? WS_EVENT_FLAG_READIER_UNKNOWN : 0;
              guint ended = g_rand_int_range (rand, 0, 4);
              guint w = add (trace, WS_EVENT_WAIT, thread, now, d,
                             flags | (ended == 3 ? WS_EVENT_FLAG_UNFINISHED : 0), "SDI"[g_rand_int_range (rand, 0, 3)]);
              guint u = WS_NONE;

              if (ended == 0 && n_threads > 1)
                u = add (trace, WS_EVENT_UNWAIT, ws_trace_ensure_thread (trace, 100 + (t + 1) % n_threads, 0),
                         now + d, 0, 0, 0);
              else if (ended == 1)
                u = add (trace, WS_EVENT_HW_SERVICE, hw, now + d, 0, 0, 0);
              if (u != WS_NONE)
                {
                  ws_event_set_target (ws_trace_peek_event (trace, u), thread);
                  ws_trace_peek_event (trace, u)->peer = w;
                  ws_trace_peek_event (trace, w)->peer = u;
                }
            }
          now += d + g_rand_int_range (rand, 1, 100);
        }
    }
  ws_trace_finish (trace);
  return trace;
}

static void
test_random_traces (void)
{
  guint32 seed = g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint flagged_with_peer = 0;

  g_test_message ("seed %u", seed);
  for (guint round = 0; round < 300; round++)
    {
      g_autoptr(WsTrace) trace = random_trace (rand);

      for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
        {
          const WsEvent *e = ws_trace_get_event (trace, i);
          flagged_with_peer += e->kind == WS_EVENT_WAIT && e->peer != WS_NONE
                               && (e->flags & WS_EVENT_FLAG_READIER_UNKNOWN);
        }
      check_trace (trace);
    }
  /* The case where the two old definitions parted was drawn. */
  g_assert_cmpuint (flagged_with_peer, >, 0);
}

static void
test_real_traces (void)
{
  const char *names[] = {
    "hand-built.json", "py-locks.perf.txt.gz", "io-fsync.perf.txt.gz", "build.perf.txt.gz",
    "causes/pg-rowlock.perf.txt.gz", "causes/fsync-dd.perf.txt.gz", "causes/timed-lock.perf.txt.gz",
    "tracecmd/sleep-cs.dat", "perfetto/rwlock-writer.pftrace",
  };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = ws_cli_test_data_path (names[k]);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      check_trace (trace);
    }
}

/* The hand-built trace's waits, as its description (tests/data) says
 * they ended, in the words of docs/glossary.md. */
static void
test_sentences (void)
{
  static const struct { WsTime time; guint tid; const char *sentence; const char *kind; } expected[] = {
    { 1000000100000, 100, "woken by worker-a (101)", "thread" },
    { 1000000200000, 102, "disk I/O done", "hardware" },
    { 1000000405000, 101, "timer expired", "hardware" },
    { 1000000900000, 102, "woken by main (100)", "thread" },
    { 1000001000000, 100, "no wake-up recorded", "unknown" },
    { 1000001500000, 102, "still waiting when the recording ended", "unfinished" },
  };
  g_autofree char *path = ws_cli_test_data_path ("hand-built.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  guint found = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind != WS_EVENT_WAIT)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
        if (expected[k].time == e->time && expected[k].tid == (guint) ws_trace_get_thread (trace, e->thread)->tid)
          {
            g_autofree char *said = ws_wait_readier_dup_sentence (NULL, trace, i);

            g_assert_cmpstr (said, ==, expected[k].sentence);
            g_assert_cmpstr (ws_wait_readier_to_string (ws_wait_readier_classify (trace, i, NULL)), ==,
                             expected[k].kind);
            found++;
          }
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (expected));
}

/* The totals in a window, against every event of the thread clipped to
 * it by hand, at random windows of real traces (where CPU samples follow
 * the start of the run span under way at the window's start). */
static void
test_window (void)
{
  const char *names[] = { "py-locks.perf.txt.gz", "causes/pg-rowlock.perf.txt.gz", "hand-built.json" };
  guint32 seed = g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  g_test_message ("seed %u", seed);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = ws_cli_test_data_path (names[k]);
      g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, NULL);
      WsTime start = ws_trace_get_start_time (trace), end = ws_trace_get_end_time (trace);

      for (guint round = 0; round < 200; round++)
        {
          guint thread = g_rand_int_range (rand, 0, ws_trace_get_n_threads (trace));
          WsTime t0 = (WsTime) g_rand_double_range (rand, start, end);
          WsTime t1 = t0 + 1 + (WsTime) g_rand_double_range (rand, 0, (end - start) / (1 + g_rand_int_range (rand, 0, 50)));
          WsTime run = 0, preempt = 0, wait = 0;
          guint waits = 0, unknown = 0;
          WsThreadTotals got;

          for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
            {
              const WsEvent *e = ws_trace_get_event (trace, i);
              WsTime a = MAX (e->time, t0), b = MIN (e->time + MAX (ws_event_duration (e), 0), t1);

              if (e->thread != thread || b <= a)
                continue;
              if (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN))
                run += b - a;
              else if (e->kind == WS_EVENT_PREEMPT)
                preempt += b - a;
              else if (e->kind == WS_EVENT_WAIT)
                {
                  wait += b - a;
                  waits++;
                  unknown += e->peer == WS_NONE && !(e->flags & WS_EVENT_FLAG_UNFINISHED);
                }
            }
          ws_thread_totals_in_window (trace, thread, t0, t1, &got);
          g_assert_cmpint (got.run_total, ==, run);
          g_assert_cmpint (got.preempt_total, ==, preempt);
          g_assert_cmpint (got.wait_total, ==, wait);
          g_assert_cmpuint (got.n_waits, ==, waits);
          g_assert_cmpuint (got.n_unknown, ==, unknown);
        }
    }
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-stats/random", test_random_traces);
  g_test_add_func ("/trace-stats/real-traces", test_real_traces);
  g_test_add_func ("/trace-stats/sentences", test_sentences);
  g_test_add_func ("/trace-stats/window", test_window);
  return g_test_run ();
}
