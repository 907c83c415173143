/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer against the five real traces of tests/data and a
 * hand-written snippet.  The counts it is checked against come from a
 * separate, deliberately simple scan of the same files (zlib's gzgets and a
 * GRegex per header line), not from the importer's own parser.
 */
#include <string.h>
#include <zlib.h>

#include <glib/gstdio.h>

#include "ws-perf-importer.h"
#include "ws-trace-private.h"

/* ------------------------------------------------------------------------ */
/* Independent count                                                          */
/* ------------------------------------------------------------------------ */

typedef struct {
  GHashTable *per_event;       /* event name -> count */
  guint cpu_clock;
  guint switches;
  guint idle_switches;         /* prev_pid=0 */
  guint preempt_switches;      /* prev_state R or R+, prev_pid != 0 */
  guint exit_switches;         /* prev_state Z or X, prev_pid != 0 */
  guint blocking_switches;     /* any other prev_state, prev_pid != 0 */
  guint wakes;                 /* sched_waking + sched_wakeup */
  guint others;                /* every other event line */
  guint headers;
} FileCounts;

static void
file_counts_clear (FileCounts *c)
{
  g_clear_pointer (&c->per_event, g_hash_table_unref);
}

static void
count_file (const char *path,
            FileCounts *c)
{
  g_autoptr(GRegex) header = g_regex_new ("^.*\\s-?\\d+/-?\\d+\\s+\\[\\d+\\]\\s+\\d+\\.\\d+:\\s+(\\d+\\s+)?(\\S+):(.*)$", 0, 0, NULL);
  g_autoptr(GRegex) sw = g_regex_new ("prev_pid=(\\d+) .*prev_state=(\\S+) ==>", 0, 0, NULL);
  gzFile gz = gzopen (path, "rb");
  char *line = g_malloc (1 << 20);

  memset (c, 0, sizeof *c);
  c->per_event = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_assert_nonnull (gz);

  while (gzgets (gz, line, 1 << 20) != NULL)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *name = NULL;
      g_autofree char *fields = NULL;

      g_strchomp (line);
      if (line[0] == '\t' || line[0] == '\0' || strstr (line, ": PERF_RECORD_") != NULL)
        continue;
      if (!g_regex_match (header, line, 0, &m))
        g_error ("test scan: unexpected line “%s”", line);
      c->headers++;
      name = g_match_info_fetch (m, 2);
      fields = g_match_info_fetch (m, 3);
      g_hash_table_insert (c->per_event, g_strdup (name),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (c->per_event, name)) + 1));

      if (g_str_equal (name, "cpu-clock"))
        c->cpu_clock++;
      else if (g_str_equal (name, "sched:sched_waking") || g_str_equal (name, "sched:sched_wakeup"))
        c->wakes++;
      else if (g_str_equal (name, "sched:sched_switch"))
        {
          g_autoptr(GMatchInfo) s = NULL;
          g_autofree char *pid = NULL, *state = NULL;

          c->switches++;
          g_assert_true (g_regex_match (sw, fields, 0, &s));
          pid = g_match_info_fetch (s, 1);
          state = g_match_info_fetch (s, 2);
          if (g_str_equal (pid, "0"))
            c->idle_switches++;
          else if (state[0] == 'R')
            c->preempt_switches++;
          else if (state[0] == 'Z' || state[0] == 'X')
            c->exit_switches++;
          else
            c->blocking_switches++;
        }
      else
        c->others++;
    }

  gzclose (gz);
  g_free (line);
}

static char *
data_path (const char *name)
{
  const char *dir = g_getenv ("WS_TEST_DATA");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

/* ------------------------------------------------------------------------ */
/* Invariants every imported trace must hold                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
  guint samples, spans, waits, preempts, unwaits, hw, echoes, markers;
  guint readier_unknown, readier_thread, readier_hardware, unfinished;
} KindCounts;

static void
check_invariants (WsTrace    *trace,
                  KindCounts *k)
{
  guint n = ws_trace_get_n_events (trace);
  guint n_threads = ws_trace_get_n_threads (trace);
  const WsEvent *events = ws_trace_get_events (trace);

  memset (k, 0, sizeof *k);

  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = &events[i];

      g_assert_cmpuint (e->thread, <, n_threads);
      g_assert_cmpint (e->duration, >=, 0);
      if (i > 0)
        g_assert_cmpint (e->time, >=, events[i - 1].time);

      switch (e->kind)
        {
        case WS_EVENT_RUNNING:
          if (e->flags & WS_EVENT_FLAG_SPAN)
            k->spans++;
          else
            k->samples++;
          break;

        case WS_EVENT_WAIT:
          {
            guint readier;
            WsReadierKind rk = ws_trace_wait_readier (trace, i, &readier);

            k->waits++;
            g_assert_cmpint (e->state, !=, 'R');
            g_assert_true (((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) != 0) == (e->state == 'D'));
            if (e->flags & WS_EVENT_FLAG_UNFINISHED)
              k->unfinished++;
            if (rk == WS_READIER_THREAD)
              {
                k->readier_thread++;
                g_assert_cmpuint (readier, <, n_threads);
                g_assert_cmpuint (readier, !=, e->thread);
              }
            else if (rk == WS_READIER_HARDWARE)
              k->readier_hardware++;
            else
              {
                k->readier_unknown++;
                g_assert_true (e->flags & (WS_EVENT_FLAG_READIER_UNKNOWN | WS_EVENT_FLAG_UNFINISHED));
              }
            if (e->peer != WS_NONE)
              {
                const WsEvent *w = &events[e->peer];
                /* The wake-up ends the wait, names its thread and points back. */
                g_assert_true (w->kind == WS_EVENT_UNWAIT || w->kind == WS_EVENT_HW_SERVICE);
                g_assert_cmpuint (w->target, ==, e->thread);
                g_assert_cmpuint (w->peer, ==, i);
                g_assert_cmpint (w->time, ==, e->time + e->duration);
                g_assert_false (w->flags & WS_EVENT_FLAG_ECHO);
              }
          }
          break;

        case WS_EVENT_UNWAIT:
        case WS_EVENT_HW_SERVICE:
          if (e->kind == WS_EVENT_UNWAIT)
            k->unwaits++;
          else
            k->hw++;
          if (e->flags & WS_EVENT_FLAG_ECHO)
            {
              k->echoes++;
              g_assert_cmpuint (e->peer, ==, WS_NONE);
            }
          g_assert_cmpuint (e->target, <, n_threads);
          if (e->peer != WS_NONE)
            g_assert_cmpuint (events[e->peer].peer, ==, i);
          /* The idle task only ever appears as interrupt context. */
          if (ws_trace_get_thread (trace, e->thread)->tid == 0)
            g_assert_cmpint (e->kind, ==, WS_EVENT_HW_SERVICE);
          break;

        case WS_EVENT_PREEMPT:
          k->preempts++;
          g_assert_cmpint (e->state, ==, 'R');
          break;

        case WS_EVENT_MARKER:
          k->markers++;
          g_assert_nonnull (ws_trace_get_string (trace, e->target));
          break;

        default:
          g_assert_not_reached ();
        }
    }

  /*
   * Per thread: on-CPU spans never overlap each other nor the thread's
   * waits -- a wait ends before (or when) the thread is next seen running.
   */
  for (guint t = 0; t < n_threads; t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      WsTime busy_until = G_MININT64;

      for (guint j = 0; j < thread->n_events; j++)
        {
          const WsEvent *e = &events[thread->events[j]];

          if (e->kind == WS_EVENT_WAIT ||
              (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN)))
            {
              g_assert_cmpint (e->time, >=, busy_until);
              busy_until = e->time + e->duration;
            }
          if (thread->tid == 0)
            g_assert_true (e->kind == WS_EVENT_HW_SERVICE ||
                           (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN)) ||
                           e->kind == WS_EVENT_MARKER);
        }
    }
}

typedef struct {
  const char *file;
  guint       readme_without_wake;   /* traces/README.md, caveat 1 */
  guint       readme_blocked;        /* blocked waits that end in the trace */
} RealTrace;

static const RealTrace real_traces[] = {
  { "pg-tpcb.perf.txt.gz", 2006, 26485 },
  { "py-locks.perf.txt.gz", 524, 2367 },
  { "py-locks-dwarf.perf.txt.gz", 552, 2336 },
  { "io-fsync.perf.txt.gz", 16930, 39335 },
  { "build.perf.txt.gz", 103, 834 },
};

static void
test_counts (gconstpointer data)
{
  const RealTrace *rt = data;
  g_autofree char *path = data_path (rt->file);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  WsPerfImportStats stats;
  FileCounts c;
  KindCounts k;

  count_file (path, &c);
  trace = ws_perf_importer_load_with_stats (path, NULL, &stats, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);

  check_invariants (trace, &k);

  g_test_message ("%s: %u headers, %u switches (%u idle, %u R, %u exit, %u blocking), "
                  "%u wakes, %u cpu-clock, %u other",
                  rt->file, c.headers, c.switches, c.idle_switches, c.preempt_switches,
                  c.exit_switches, c.blocking_switches, c.wakes, c.cpu_clock, c.others);
  g_test_message ("%s: waits %u (thread %u, hardware %u, unknown %u of which unfinished %u), "
                  "README: %u of %u blocked waits without wake-up; importer: %u",
                  rt->file, k.waits, k.readier_thread, k.readier_hardware, k.readier_unknown,
                  k.unfinished, rt->readme_without_wake, rt->readme_blocked,
                  stats.waits_without_wakeup);

  g_assert_cmpuint (stats.records, ==, c.headers);
  g_assert_cmpuint (k.samples, ==, c.cpu_clock);
  g_assert_cmpuint (k.waits, ==, c.blocking_switches);
  g_assert_cmpuint (k.preempts, ==, c.preempt_switches);
  g_assert_cmpuint (stats.idle_switches, ==, c.idle_switches);
  g_assert_cmpuint (stats.exit_switches, ==, c.exit_switches);
  g_assert_cmpuint (k.unwaits + k.hw, ==, c.wakes);
  g_assert_cmpuint (k.echoes, ==, stats.echo_wakeups);
  g_assert_cmpuint (k.markers, ==, c.others);
  g_assert_cmpuint (stats.waits_without_wakeup + k.unfinished, ==, k.readier_unknown);

  /* Per event name, the markers match the file. */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, c.per_event);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        const char *name = key;
        guint32 id;
        guint n = 0;

        if (g_str_has_prefix (name, "sched:sched_switch") || g_str_has_prefix (name, "sched:sched_wak") ||
            g_str_equal (name, "cpu-clock"))
          continue;
        id = ws_trace_lookup_string (trace, name);
        g_assert_cmpuint (id, !=, WS_NONE);
        for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
          {
            const WsEvent *e = ws_trace_get_event (trace, i);
            if (e->kind == WS_EVENT_MARKER && e->target == id)
              n++;
          }
        g_assert_cmpuint (n, ==, GPOINTER_TO_UINT (value));
      }
  }

  /*
   * traces/README.md caveat 1 counted, with its own script, the blocked
   * waits that end (before the trace does) with no wake-up recorded.
   */
  g_assert_cmpuint (stats.waits_without_wakeup, ==, rt->readme_without_wake);
  g_assert_cmpuint (k.waits - k.unfinished, ==, rt->readme_blocked);

  file_counts_clear (&c);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (real_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/perf-importer/counts/%s", real_traces[i].file);
      g_test_add_data_func (name, &real_traces[i], test_counts);
    }

  return g_test_run ();
}
