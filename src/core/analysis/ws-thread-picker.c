/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The thread picker: where `why` and the Overview start in a trace without
 * scenario instances.  Nobody said which delay matters, so we look for the
 * program that was held up most *by work it waited for*: every candidate
 * thread's whole recorded life is walked back through its readiers (the
 * critical path, as attribution does), and each moment is counted by what
 * the deepest thread was doing.  Moments a thread spends blocked with
 * nothing but a timer or a device behind it (itself idle: a worker pool
 * waiting for work, a daemon's poll loop) count for nothing, which is what
 * keeps idle machinery from being chosen over the workload.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-critical-path.h"
#include "ws-thread-picker.h"
#include "ws-time-format.h"

void
ws_thread_pick_free (WsThreadPick *pick)
{
  if (pick == NULL)
    return;
  g_free (pick->program);
  g_clear_pointer (&pick->threads, g_array_unref);
  g_free (pick);
}

/* ------------------------------------------------------------------ */
/* Programs: processes of one name that ready one another               */

static guint
find_root (guint *parent,
           guint  i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* One program per process, except that processes of one name joined by a
 * wake-up (PostgreSQL's backends handing a lock on, a shell and its
 * subshell) are one: the threads of a program are what it waits for
 * "inside".  Seventeen compilers of a build never wake one another and
 * stay seventeen programs, so their CPU waits are not added up.
 * Returns: (transfer full): the program (root process) of each thread */
static guint *
thread_programs (WsTrace           *trace,
                 WsFrameClassifier *classifier)
{
  guint n_processes = ws_trace_get_n_processes (trace);
  guint n_threads = ws_trace_get_n_threads (trace);
  guint n_events = ws_trace_get_n_events (trace);
  const WsEvent *events = ws_trace_get_events (trace);
  g_autofree guint *parent = g_new (guint, n_processes + 1);
  guint *program = g_new (guint, n_threads);

  for (guint i = 0; i <= n_processes; i++)
    parent[i] = i;
  for (guint i = 0; i < n_events; i++)
    {
      guint readier = WS_NONE, a, b;

      if (events[i].kind != WS_EVENT_WAIT ||
          ws_frame_classifier_classify_wake (classifier, trace, i, &readier) != WS_WAKE_THREAD ||
          readier == WS_NONE)
        continue;
      a = ws_trace_get_thread (trace, events[i].thread)->process;
      b = ws_trace_get_thread (trace, readier)->process;
      if (a != b && a < n_processes && b < n_processes &&
          strcmp (ws_trace_get_program_name (trace, events[i].thread), ws_trace_get_program_name (trace, readier)) == 0)
        parent[find_root (parent, a)] = find_root (parent, b);
    }
  for (guint t = 0; t < n_threads; t++)
    {
      guint p = ws_trace_get_thread (trace, t)->process;
      program[t] = find_root (parent, MIN (p, n_processes));
    }
  return program;
}

/* ------------------------------------------------------------------ */
/* How long each thread was held up                                     */

typedef struct {
  guint   thread;
  guint   program;
  WsTime  inside;
  WsTime  outside;
  WsTime  cpu;
  WsTime  ran;
  WsTime  idle;
  WsTime  throttled;
} Held;

static gboolean
is_uninterruptible (WsTrace *trace,
                    guint    event)
{
  const WsEvent *e = event != WS_NONE ? ws_trace_get_event (trace, event) : NULL;

  return e != NULL && ((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D');
}

/* Walks @h's thread's whole life back through its readiers and counts
 * every moment by what the deepest thread was doing (docs/attribution.md). */
static void
measure (WsTrace           *trace,
         WsFrameClassifier *classifier,
         const guint       *programs,
         Held              *h)
{
  const WsThread *th = ws_trace_get_thread (trace, h->thread);
  WsSymptom symptom = { h->thread, th->first_seen, th->last_seen };
  g_autoptr(WsCriticalPath) path = NULL;
  const WsCriticalSegment *segments;
  guint n;

  if (th->last_seen <= th->first_seen ||
      (path = ws_critical_path_build (trace, &symptom, classifier, NULL)) == NULL)
    return;
  segments = ws_critical_path_get_segments (path);
  n = ws_critical_path_get_n_segments (path);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *s = &segments[i];
      WsTime d = s->end - s->start;

      if (s->state == WS_CRITICAL_NO_DATA)
        continue;
      if (s->state == WS_CRITICAL_READY)
        {
          h->cpu += d;
          h->throttled += ws_attribution_segment_throttled_time (trace, s);
        }
      else if (s->depth == 0 && s->state == WS_CRITICAL_RUNNING)
        {
          /* In the kernel on the way into or out of its own device wait
           * (submitting a read, a page fault's I/O): that I/O holds it
           * up, as attribution counts it. */
          WsTime io = ws_attribution_segment_io_time (trace, s, classifier);

          h->inside += io;
          h->ran += d - io;
        }
      else if (s->depth == 0)
        {
          /* Its own wait with nothing behind it: its own I/O holds it
           * up; a timer, a device or nobody recorded is the thread
           * idling. */
          if (is_uninterruptible (trace, s->event))
            h->inside += d;
          else
            h->idle += d;
        }
      else if (programs[s->thread] == h->program)
        h->inside += d;
      else
        h->outside += d;
    }
}

/* What a thread adds to its program's score.  Time another thread's work
 * held it up counts in full.  Time runnable without a CPU counts in the
 * share of its busy time the thread ran: every thread of a loaded machine
 * waits for CPUs, and a starved background job that barely ran is not
 * what was recorded; a CPU-bound program runs a large share.  Except time
 * throttled (switched out runnable for an idle CPU): nobody else wanted
 * that CPU, so it is not the machine's load but the program's own limit
 * (a CPU quota), which also keeps it from running a large share. */
static double
held_score (const Held *h)
{
  WsTime busy = h->inside + h->outside + h->cpu + h->ran;
  double ran = busy > 0 ? (double) h->ran / busy : 0.0;

  return h->inside + h->outside + h->throttled + (h->cpu - h->throttled) * ran;
}

static int
compare_held (gconstpointer a,
              gconstpointer b)
{
  const Held *x = a, *y = b;
  double sx = held_score (x), sy = held_score (y);

  if (sx != sy)
    return sx > sy ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Every candidate thread: not the recorder, a heartbeat thread (kworker…)
 * or a daemon's. */
static GArray *
measure_threads (WsTrace           *trace,
                 WsFrameClassifier *classifier,
                 const guint       *programs)
{
  guint n_threads = ws_trace_get_n_threads (trace);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Held));

  for (guint t = 0; t < n_threads; t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      Held h = { t, programs[t], 0, 0, 0, 0, 0, 0 };

      if (ws_attribution_is_recorder (trace, t) ||
          ws_frame_classifier_is_heartbeat_thread (classifier, trace, t) ||
          ws_frame_classifier_is_daemon_process (classifier, trace, th->process))
        continue;
      measure (trace, classifier, programs, &h);
      if (held_score (&h) > 0)
        g_array_append_val (out, h);
    }
  g_array_sort (out, compare_held);
  return out;
}

/* The program with the largest summed score, or WS_NONE. */
static guint
busiest_program (WsTrace *trace,
                 GArray  *held)
{
  g_autoptr(GHashTable) scores = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint best = WS_NONE;
  double best_score = 0.0;

  for (guint i = 0; i < held->len; i++)
    {
      const Held *h = &g_array_index (held, Held, i);
      double *score = g_hash_table_lookup (scores, GUINT_TO_POINTER (h->program));

      if (score == NULL)
        g_hash_table_insert (scores, GUINT_TO_POINTER (h->program), (score = g_new0 (double, 1)));
      *score += held_score (h);
      g_debug ("picker: %s (program %u) thread %d: inside %.1f ms, outside %.1f ms, cpu %.1f ms (throttled %.1f ms), ran %.1f ms, idle %.1f ms",
               ws_trace_get_program_name (trace, h->thread), h->program, ws_trace_get_thread (trace, h->thread)->tid,
               h->inside / 1e6, h->outside / 1e6, h->cpu / 1e6, h->throttled / 1e6, h->ran / 1e6, h->idle / 1e6);
      if (*score > best_score || (*score == best_score && h->program < best))
        {
          best = h->program;
          best_score = *score;
        }
    }
  return best;
}

WsThreadPick *
ws_thread_picker_pick (WsTrace           *trace,
                       WsFrameClassifier *classifier,
                       guint              k)
{
  g_autofree guint *programs = NULL;
  g_autoptr(GArray) held = NULL;
  g_autoptr(GHashTable) processes = g_hash_table_new (NULL, NULL);
  WsThreadPick *pick;
  guint best;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  programs = thread_programs (trace, classifier);
  held = measure_threads (trace, classifier, programs);
  if ((best = busiest_program (trace, held)) == WS_NONE)
    return NULL;

  pick = g_new0 (WsThreadPick, 1);
  pick->trace = trace;
  pick->threads = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < held->len; i++)
    {
      const Held *h = &g_array_index (held, Held, i);

      if (h->program != best)
        continue;
      if (pick->program == NULL)
        pick->program = g_strdup (ws_trace_get_program_name (trace, h->thread));
      g_hash_table_add (processes, GUINT_TO_POINTER (ws_trace_get_thread (trace, h->thread)->process));
      pick->inside += h->inside;
      pick->outside += h->outside;
      pick->cpu += h->cpu;
      pick->ran += h->ran;
      pick->score += held_score (h);
    }
  /* The threads explained are those held up longest of every process of
   * that name: one run of a loop of short-lived processes (dd, one after
   * another) is one program each, but they are the same program to
   * whoever reads the answer.  Past the first, only threads held up
   * longer than they idled: attribution explains a thread's whole life,
   * and an unrelated process that shares a common name (a shell of the
   * recording script, another python3) would bring its idle poll or
   * wait4 in as a cause. */
  for (guint i = 0; i < held->len && pick->threads->len < k; i++)
    {
      const Held *h = &g_array_index (held, Held, i);

      if (strcmp (ws_trace_get_program_name (trace, h->thread), pick->program) == 0 &&
          (pick->threads->len == 0 || h->inside + h->outside + h->cpu > h->idle))
        g_array_append_val (pick->threads, h->thread);
    }
  pick->n_processes = g_hash_table_size (processes);
  return pick;
}

char *
ws_thread_pick_describe (const WsThreadPick *pick)
{
  g_autofree char *inside = NULL, *outside = NULL, *cpu = NULL;
  g_autofree char *program = NULL;
  g_autoptr(GString) threads = g_string_new (NULL);

  g_return_val_if_fail (pick != NULL, NULL);

  inside = ws_format_duration (pick->inside);
  outside = ws_format_duration (pick->outside);
  cpu = ws_format_duration (pick->cpu);
  program = pick->n_processes > 1
            ? g_strdup_printf (ngettext ("%s (%u process)", "%s (%u processes)", pick->n_processes),
                               pick->program, pick->n_processes)
            : g_strdup (pick->program);
  for (guint i = 0; i < pick->threads->len; i++)
    {
      const WsThread *th = ws_trace_get_thread (pick->trace, g_array_index (pick->threads, guint, i));
      g_string_append_printf (threads, "%s%s %d", i > 0 ? ", " : "", th->name != NULL ? th->name : "?", th->tid);
    }
  /* TRANSLATORS: "Explained from postgres (6 processes) — threads
   * postgres 9054, postgres 9060 — the program held up most by work it
   * waited for: 1.2 s by its own threads and I/O, …" */
  return g_strdup_printf (ngettext ("Explained from %s — thread %s — the program held up most by work it waited for: "
                                    "%s by its own threads and I/O, %s by other programs, %s waiting for a CPU.",
                                    "Explained from %s — threads %s — the program held up most by work it waited for: "
                                    "%s by its own threads and I/O, %s by other programs, %s waiting for a CPU.",
                                    pick->threads->len),
                          program, threads->str, inside, outside, cpu);
}
