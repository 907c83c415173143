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
 * keeps idle machinery from being chosen over the workload.  Moments a
 * thread spends waiting for another process to *end* (a shell for its
 * child, a reader for the end of a pipe's writer) are that process's, not
 * the waiter's: the launcher is not what was recorded, what it launched
 * may be.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-cpu-occupancy.h"
#include "ws-critical-path.h"
#include "ws-process-end.h"
#include "ws-thread-picker.h"
#include "ws-time-format.h"

void
ws_thread_pick_free (WsThreadPick *pick)
{
  if (pick == NULL)
    return;
  g_free (pick->program);
  g_free (pick->record_command);
  g_free (pick->runner_up);
  g_clear_pointer (&pick->threads, g_array_unref);
  g_free (pick);
}

/* ------------------------------------------------------------------ */
/* Programs                                                             */

static guint
find_root (guint *parent,
           guint  i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

static void
join (guint *parent,
      guint  a,
      guint  b)
{
  parent[find_root (parent, a)] = find_root (parent, b);
}

/* pid -> process index + 1 */
static GHashTable *
process_index (WsTrace *trace)
{
  GHashTable *index = g_hash_table_new (NULL, NULL);

  for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
    g_hash_table_insert (index, GINT_TO_POINTER (ws_trace_get_process (trace, p)->pid), GUINT_TO_POINTER (p + 1));
  return index;
}

/* One program per process, except that processes of one name are one
 * when they ready one another (PostgreSQL's backends handing a lock on, a
 * shell and its subshell) or when one parent started them (a loop's runs
 * of one command: `while :; do client; done`).  Seventeen compilers of a
 * build never wake one another and each has its own driver, so they stay
 * seventeen programs and their CPU waits are not added up.
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
  g_autoptr(GHashTable) first_child = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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
        join (parent, a, b);
    }
  for (guint p = 0; p < n_processes; p++)
    {
      const WsProcess *process = ws_trace_get_process (trace, p);
      gint32 ppid = ws_trace_get_process_parent (trace, p);
      g_autofree char *key = NULL;
      gpointer sibling;

      if (ppid <= 0 || process->name == NULL)
        continue;
      key = g_strdup_printf ("%d/%s", ppid, process->name);
      if ((sibling = g_hash_table_lookup (first_child, key)) != NULL)
        join (parent, p, GPOINTER_TO_UINT (sibling) - 1);
      else
        g_hash_table_insert (first_child, g_steal_pointer (&key), GUINT_TO_POINTER (p + 1));
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
  WsTime  cpu;        /* every CPU wait on its path */
  WsTime  own_cpu;    /* its own, not throttled */
  WsTime  ran;
  WsTime  idle;
  WsTime  throttled;
  WsTime  launched;   /* waiting for other processes to end */
  WsTime  self_inside;    /* of @inside: its own I/O (depth 0) */
  WsTime  self_throttled; /* of @throttled: its own */
  GArray *pieces;     /* Piece: the moments another thread held it up */
  WsTime  starved_elsewhere; /* of @cpu: another program's thread's, not throttled */
} Held;

/* A moment another thread held a thread up: that thread (the deepest of
 * the walk) and whether it was runnable without a CPU in another program
 * (then it counts in the share of its runnable time it got a CPU). */
typedef struct {
  WsTime  start;
  WsTime  end;
  guint   deepest;
  gboolean starved_elsewhere;
  double  weight;     /* otherwise: 1, or for a CPU wait of its own
                       * program's thread, the share of the CPUs other
                       * programs held meanwhile */
} Piece;


static gboolean
is_uninterruptible (WsTrace *trace,
                    guint    event)
{
  const WsEvent *e = event != WS_NONE ? ws_trace_get_event (trace, event) : NULL;

  return e != NULL && ((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D');
}

/* For each segment of @path, the thread whose end the walk waited for
 * on the way to it — a shell's wait4 for its child, a read that met the
 * end of a pipe when its writer exited, at any hop of the readier chain
 * (the deepest such hop) — or WS_NONE.  Walked backwards: the segments
 * of one readier nest inside the wait they end, and the last segment of
 * that nest is the readier's own (it ran to wake the waiter), so the
 * chain of the enclosing hop is already known when a deeper segment is
 * reached.
 * Returns: (transfer full): one thread index per segment */
static guint *
segment_enders (WsTrace           *trace,
                WsFrameClassifier *classifier,
                WsCriticalPath    *path,
                GHashTable        *cache)
{
  guint n = ws_critical_path_get_n_segments (path);
  const WsCriticalSegment *segments = ws_critical_path_get_segments (path);
  guint *enders = g_new (guint, n);
  g_autoptr(GArray) enclosing = g_array_new (FALSE, FALSE, sizeof (guint));   /* by depth */

  for (guint i = n; i > 0; i--)
    {
      const WsCriticalSegment *s = &segments[i - 1];
      guint ender = WS_NONE;

      if (s->depth > 0 && s->on_behalf_of != WS_NONE)
        {
          gpointer cached;

          if (g_hash_table_lookup_extended (cache, GUINT_TO_POINTER (s->on_behalf_of), NULL, &cached))
            ender = GPOINTER_TO_UINT (cached);
          else
            {
              ender = ws_wait_ended_by_exit (trace, classifier, s->on_behalf_of);
              g_hash_table_insert (cache, GUINT_TO_POINTER (s->on_behalf_of), GUINT_TO_POINTER (ender));
            }
          if (ender == WS_NONE && s->depth >= 2 && s->depth - 1 < enclosing->len)
            ender = g_array_index (enclosing, guint, s->depth - 1);
        }
      if (enclosing->len <= s->depth)
        {
          guint none = WS_NONE;
          while (enclosing->len <= s->depth)
            g_array_append_val (enclosing, none);
        }
      g_array_index (enclosing, guint, s->depth) = ender;
      enders[i - 1] = ender;
    }
  return enders;
}

typedef struct {
  const guint *programs;
  guint        program;
  WsTime       elsewhere;
} OthersShare;

static void
add_if_elsewhere (guint    thread,
                  WsTime   time,
                  gpointer data)
{
  OthersShare *o = data;

  if (o->programs[thread] != o->program)
    o->elsewhere += time;
}

/* The share of the CPUs' busy time in [@start, @end) other programs
 * than @program held; 1 without on-CPU spans to tell. */
static double
others_share (WsCpuOccupancy *occupancy,
              const guint    *programs,
              guint           program,
              WsTime          start,
              WsTime          end)
{
  OthersShare o = { programs, program, 0 };
  WsTime busy;

  if (occupancy == NULL || !ws_cpu_occupancy_has_spans (occupancy))
    return 1.0;
  busy = ws_cpu_occupancy_foreach (occupancy, start, end, add_if_elsewhere, &o);
  return busy > 0 ? (double) o.elsewhere / busy : 1.0;
}

static void
add_piece (Held                    *h,
           const WsCriticalSegment *s,
           gboolean                 starved_elsewhere,
           double                   weight)
{
  Piece piece = { s->start, s->end, s->thread, starved_elsewhere, weight };

  if (h->pieces == NULL)
    h->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  g_array_append_val (h->pieces, piece);
}

/* Walks @h's thread's whole life back through its readiers and counts
 * every moment by what the deepest thread was doing (docs/attribution.md).
 * Moments inside a wait for another process to end go to @ended (ender
 * thread -> WsTime *), not to the thread. */
static void
measure (WsTrace           *trace,
         WsFrameClassifier *classifier,
         const guint       *programs,
         Held              *h,
         GHashTable        *ended,
         GHashTable        *exits,
         WsCpuOccupancy    *occupancy)
{
  const WsThread *th = ws_trace_get_thread (trace, h->thread);
  WsSymptom symptom = { h->thread, th->first_seen, th->last_seen };
  g_autoptr(WsCriticalPath) path = NULL;
  g_autofree guint *enders = NULL;
  g_autoptr(GHashTable) mine = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  const WsCriticalSegment *segments;
  GHashTableIter iter;
  gpointer key, value;
  guint n;

  if (th->last_seen <= th->first_seen ||
      (path = ws_critical_path_build (trace, &symptom, classifier, NULL)) == NULL)
    return;
  enders = segment_enders (trace, classifier, path, exits);
  segments = ws_critical_path_get_segments (path);
  n = ws_critical_path_get_n_segments (path);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *s = &segments[i];
      WsTime d = s->end - s->start;

      if (s->state == WS_CRITICAL_NO_DATA)
        continue;
      if (enders[i] != WS_NONE)
        {
          guint ender = enders[i];
          WsTime *t = g_hash_table_lookup (mine, GUINT_TO_POINTER (ender));

          if (t == NULL)
            g_hash_table_insert (mine, GUINT_TO_POINTER (ender), (t = g_new0 (WsTime, 1)));
          *t += d;
          h->launched += d;
          continue;
        }
      if (s->state == WS_CRITICAL_READY)
        {
          WsTime throttled = ws_attribution_segment_throttled_time (trace, s);

          h->cpu += d;
          h->throttled += throttled;
          if (s->depth == 0)
            h->self_throttled += throttled;
          else if (programs[s->thread] != h->program)
            {
              if (throttled < d)
                h->starved_elsewhere += d - throttled;
              add_piece (h, s, throttled < d, 1.0);
            }
          else
            /* a thread of its own program waiting for a CPU: held up by
             * the other programs that had the CPUs, not by its own
             * threads (a JVM's GC waiting for its own busy threads to
             * reach a safepoint merely runs) */
            add_piece (h, s, FALSE, throttled >= d ? 1.0 : others_share (occupancy, programs, h->program, s->start, s->end));
          if (s->depth == 0)
            h->own_cpu += d - throttled;
        }
      else if (s->depth == 0 && s->state == WS_CRITICAL_RUNNING)
        {
          /* In the kernel on the way into or out of its own device wait
           * (submitting a read, a page fault's I/O): that I/O holds it
           * up, as attribution counts it. */
          WsTime io = ws_attribution_segment_io_time (trace, s, classifier);

          h->inside += io;
          h->self_inside += io;
          h->ran += d - io;
        }
      else if (s->depth == 0)
        {
          /* Its own wait with nothing behind it: its own I/O holds it
           * up; a timer, a device or nobody recorded is the thread
           * idling. */
          if (is_uninterruptible (trace, s->event))
            {
              h->inside += d;
              h->self_inside += d;
            }
          else
            h->idle += d;
        }
      else
        {
          if (programs[s->thread] == h->program)
            h->inside += d;
          else
            h->outside += d;
          add_piece (h, s, FALSE, 1.0);
        }
    }
  /* A process several threads waited for (a shell, its subshell and the
   * reader of their pipe, all waiting for one compiler) is credited with
   * the longest of those waits, not their sum. */
  g_hash_table_iter_init (&iter, mine);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      WsTime *t = g_hash_table_lookup (ended, key);

      if (t == NULL)
        g_hash_table_insert (ended, key, (t = g_new0 (WsTime, 1)));
      *t = MAX (*t, *(WsTime *) value);
    }
}

/* The share of its busy time a thread ran. */
static double
ran_share (const Held *h)
{
  WsTime busy = h->inside + h->outside + h->cpu + h->ran;

  return busy > 0 ? (double) h->ran / busy : 0.0;
}

/* What a thread adds to its program's score.  Time another thread's work
 * held it up counts in full, and so does time a thread it waited for was
 * runnable without a CPU (a lock holder starved by other programs): that
 * is a delay it suffered through a wait — within its program; a thread
 * waiting for another program's thread that waits for a CPU (a starved
 * background compiler, an X server's starved clients) is downstream of
 * that starved job, not what was recorded, and that counts for nothing.
 * Its *own* time runnable without
 * a CPU counts in the share of its busy time the thread ran: every thread
 * of a loaded machine waits for CPUs, and a starved background job that
 * barely ran — or a busy one that merely runs, a JVM, a compiler, a
 * fuzzer, is rarely woken by anyone and waits only for CPUs — is not what
 * was recorded; a CPU-bound program the others do not crowd out runs a
 * large share.  Except time throttled (switched out runnable for an idle
 * CPU): nobody else wanted that CPU, so it is not the machine's load but
 * the program's own limit (a CPU quota). */
static double
held_score (const Held *h)
{
  WsTime via = h->cpu - h->own_cpu - h->throttled - h->starved_elsewhere;

  return h->inside + h->outside + h->throttled + via + h->own_cpu * ran_share (h);
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

/**
 * ws_thread_picker_is_candidate:
 * @classifier: (nullable): the lists; %NULL: the default ones
 *
 * Whether @thread is one a person investigates: not the recorder (perf),
 * a kernel heartbeat thread (kworker, migration/N, …) nor a daemon's.  The
 * picker's candidates, and what the Slowest list and the Overview show.
 */
gboolean
ws_thread_picker_is_candidate (WsTrace           *trace,
                               WsFrameClassifier *classifier,
                               guint              thread)
{
  const WsThread *th = ws_trace_get_thread (trace, thread);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  return !ws_attribution_is_recorder (trace, thread) &&
         !ws_frame_classifier_is_heartbeat_thread (classifier, trace, thread) &&
         !ws_frame_classifier_is_daemon_process (classifier, trace, th->process);
}

static gboolean
is_candidate (WsTrace           *trace,
              WsFrameClassifier *classifier,
              guint              thread)
{
  return ws_thread_picker_is_candidate (trace, classifier, thread);
}

static void
held_clear (gpointer data)
{
  g_clear_pointer (&((Held *) data)->pieces, g_array_unref);
}

/* Every candidate thread: not the recorder, a heartbeat thread (kworker…)
 * or a daemon's; @ended collects the waits for other processes' ends. */
static GArray *
measure_threads (WsTrace           *trace,
                 WsFrameClassifier *classifier,
                 const guint       *programs,
                 GHashTable        *ended)
{
  guint n_threads = ws_trace_get_n_threads (trace);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Held));
  g_autoptr(GHashTable) exits = g_hash_table_new (NULL, NULL);   /* wait -> ender */
  g_autoptr(WsCpuOccupancy) occupancy = ws_cpu_occupancy_new (trace);

  g_array_set_clear_func (out, held_clear);
  for (guint t = 0; t < n_threads; t++)
    {
      Held h = { t, programs[t], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0 };

      if (!is_candidate (trace, classifier, t))
        continue;
      measure (trace, classifier, programs, &h, ended, exits, occupancy);
      g_array_append_val (out, h);
    }
  return out;
}

/* ------------------------------------------------------------------ */
/* Ranking programs                                                     */

typedef struct {
  guint   program;
  double  score;
  WsTime  launched;
  WsTime  ran;
  GArray *pieces;     /* Piece, of all its threads */
} Ranked;

/* What a thread adds to its program's score of its own: its own I/O,
 * throttling, and its waits for a CPU in the share of its busy time it
 * ran (held_score()). */
static double
own_score (const Held *h)
{
  return h->self_inside + h->self_throttled + h->own_cpu * ran_share (h);
}

static int
compare_piece (gconstpointer a,
               gconstpointer b)
{
  const Piece *x = a, *y = b;

  if (x->deepest != y->deepest)
    return x->deepest < y->deepest ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The moments other threads held a program's threads up, each moment of
 * each holding thread counted once: four GC threads of a JVM waiting for
 * one safepoint, six backends queued behind one row lock's holder were
 * held up once by it, not four or six times (the JVM is not what was
 * recorded for having many threads). */
static double
pieces_score (GArray *pieces)
{
  double sum = 0.0;
  WsTime end = G_MININT64;
  guint deepest = WS_NONE;

  if (pieces == NULL)
    return 0.0;
  g_array_sort (pieces, compare_piece);
  for (guint i = 0; i < pieces->len; i++)
    {
      const Piece *p = &g_array_index (pieces, Piece, i);
      WsTime start = p->start;
      double weight = p->weight;

      if (p->deepest != deepest)
        {
          deepest = p->deepest;
          end = G_MININT64;
        }
      start = MAX (start, end);
      if (p->end <= start)
        continue;
      if (p->starved_elsewhere)
        weight = 0.0;
      sum += (p->end - start) * weight;
      end = p->end;
    }
  return sum;
}

static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return x->program < y->program ? -1 : x->program > y->program;
}

/* Programs by score, highest first: their threads' scores, plus the
 * time others waited for their processes to end, in the share of its busy
 * time the process that ended ran (a shell waiting for its gzip gives the
 * gzips the shell's wait; a compiler driver waiting for its starved cc1
 * gives that cc1 little). */
static GArray *
rank_programs (WsTrace    *trace,
               GArray     *held,
               GHashTable *ended,
               const guint *programs)
{
  g_autoptr(GHashTable) by_program = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) by_thread = g_hash_table_new (NULL, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < held->len; i++)
    {
      const Held *h = &g_array_index (held, Held, i);
      gpointer slot;
      Ranked *r;

      g_hash_table_insert (by_thread, GUINT_TO_POINTER (h->thread), (gpointer) h);
      if (!g_hash_table_lookup_extended (by_program, GUINT_TO_POINTER (h->program), NULL, &slot))
        {
          Ranked fresh = { h->program, 0.0, 0, 0, NULL };
          g_array_append_val (out, fresh);
          slot = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (by_program, GUINT_TO_POINTER (h->program), slot);
        }
      r = &g_array_index (out, Ranked, GPOINTER_TO_UINT (slot) - 1);
      r->score += own_score (h);
      r->ran += h->ran;
      if (h->pieces != NULL)
        {
          if (r->pieces == NULL)
            r->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
          g_array_append_vals (r->pieces, h->pieces->data, h->pieces->len);
        }
      g_debug ("picker: %s (program %u) thread %d: inside %.1f ms, outside %.1f ms, cpu %.1f ms (own %.1f ms, throttled %.1f ms), ran %.1f ms, idle %.1f ms, waiting for ends %.1f ms, other programs starved %.1f ms",
               ws_trace_get_program_name (trace, h->thread), h->program, ws_trace_get_thread (trace, h->thread)->tid,
               h->inside / 1e6, h->outside / 1e6, h->cpu / 1e6, h->own_cpu / 1e6, h->throttled / 1e6, h->ran / 1e6,
               h->idle / 1e6, h->launched / 1e6, h->starved_elsewhere / 1e6);
    }
  g_hash_table_iter_init (&iter, ended);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const Held *ender = g_hash_table_lookup (by_thread, key);
      gpointer slot;
      Ranked *r;
      double credit;

      if (ender == NULL ||
          (slot = g_hash_table_lookup (by_program, GUINT_TO_POINTER (programs[GPOINTER_TO_UINT (key)]))) == NULL)
        continue;   /* the recorder, a kernel worker, a daemon */
      r = &g_array_index (out, Ranked, GPOINTER_TO_UINT (slot) - 1);
      credit = *(WsTime *) value * ran_share (ender);
      r->score += credit;
      r->launched += (WsTime) credit;
    }
  for (guint i = 0; i < out->len; i++)
    {
      Ranked *r = &g_array_index (out, Ranked, i);

      double held_by_others = pieces_score (r->pieces);

      g_debug ("picker: program %u (%s): own %.1f ms, held up by other threads %.1f ms, waited for until it ended %.1f ms",
               r->program, ws_trace_get_process (trace, MIN (r->program, ws_trace_get_n_processes (trace) - 1))->name,
               (r->score - r->launched) / 1e6, held_by_others / 1e6, r->launched / 1e6);
      r->score += held_by_others;
      g_clear_pointer (&r->pieces, g_array_unref);
    }
  g_array_sort (out, compare_ranked);
  return out;
}

/* ------------------------------------------------------------------ */
/* What the recording was made for                                      */

gboolean
ws_thread_picker_record_subject (const char  *command,
                                 GArray     **pids,
                                 gboolean    *system_wide_out)
{
  /* perf record's options that take a value as the next word */
  static const char * const with_value = "eomFcCptuGrjbDkIsxyzTWLUM";
  g_auto(GStrv) argv = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  gboolean system_wide = FALSE, record = FALSE;
  const char *cmd = NULL;
  int argc = 0;

  if (pids != NULL)
    *pids = NULL;
  if (system_wide_out != NULL)
    *system_wide_out = FALSE;
  if (command == NULL || !g_shell_parse_argv (command, &argc, &argv, NULL))
    return FALSE;
  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];
      const char *value = NULL;

      if (!record)
        {
          record = strcmp (a, "record") == 0;
          /* `perf sched record`, `perf kmem record` and `perf kwork
           * record` always record every CPU: they pass -a themselves */
          system_wide = record && i > 0 &&
                        (strcmp (argv[i - 1], "sched") == 0 || strcmp (argv[i - 1], "kmem") == 0 ||
                         strcmp (argv[i - 1], "kwork") == 0);
          continue;
        }
      if (strcmp (a, "--") == 0)
        {
          cmd = i + 1 < argc ? argv[i + 1] : NULL;
          break;
        }
      if (a[0] != '-')
        {
          cmd = a;
          break;
        }
      if (strcmp (a, "-a") == 0 || strcmp (a, "--all-cpus") == 0)
        system_wide = TRUE;
      else if (g_str_has_prefix (a, "--pid=") || g_str_has_prefix (a, "--tid="))
        value = a + 6;
      else if ((strcmp (a, "-p") == 0 || strcmp (a, "-t") == 0 || strcmp (a, "--pid") == 0 || strcmp (a, "--tid") == 0) &&
               i + 1 < argc)
        value = argv[++i];
      else if ((a[1] == 'p' || a[1] == 't') && a[2] != '\0' && g_ascii_isdigit (a[2]))
        value = a + 2;
      else if (a[1] != '-' && a[1] != '\0' && a[2] == '\0' && strchr (with_value, a[1]) != NULL)
        i++;
      else if (g_str_has_prefix (a, "--") && strchr (a, '=') == NULL &&
               (strcmp (a, "--event") == 0 || strcmp (a, "--output") == 0 || strcmp (a, "--call-graph") == 0 ||
                strcmp (a, "--mmap-pages") == 0 || strcmp (a, "--freq") == 0 || strcmp (a, "--cpu") == 0))
        i++;
      if (value != NULL)
        {
          g_auto(GStrv) parts = g_strsplit (value, ",", -1);
          for (guint k = 0; parts[k] != NULL; k++)
            {
              gint64 v = g_ascii_strtoll (parts[k], NULL, 10);
              if (v > 0 && v <= G_MAXINT32)
                {
                  gint32 pid = (gint32) v;
                  g_array_append_val (ids, pid);
                }
            }
        }
    }
  if (ids->len > 0)
    {
      if (pids != NULL)
        *pids = g_steal_pointer (&ids);
      return TRUE;
    }
  if (system_wide_out != NULL)
    *system_wide_out = system_wide;
  /* `-a -- sleep N` is how long a system-wide recording lasts */
  return cmd != NULL && !(system_wide && strcmp (cmd, "sleep") == 0);
}

/* Whether @process is, or descends from, a process of @roots (pids). */
static gboolean
descends_from (WsTrace    *trace,
               GHashTable *index,
               guint       process,
               GHashTable *roots)
{
  for (guint hops = 0; hops < 64 && process != WS_NONE; hops++)
    {
      gint32 parent;
      gpointer slot;

      if (g_hash_table_contains (roots, GINT_TO_POINTER (ws_trace_get_process (trace, process)->pid)))
        return TRUE;
      parent = ws_trace_get_process_parent (trace, process);
      slot = parent > 0 ? g_hash_table_lookup (index, GINT_TO_POINTER (parent)) : NULL;
      process = slot != NULL ? GPOINTER_TO_UINT (slot) - 1 : WS_NONE;
    }
  return FALSE;
}

/* The processes a choice or the recording names: (pid -> TRUE), or NULL
 * for "every process".  The recording's: the pids of `-p`, or the
 * processes perf started for its command (its children, the recorder's
 * own processes aside) and what they started. */
static GHashTable *
subject_roots (WsTrace            *trace,
               WsFrameClassifier  *classifier,
               const WsPickChoice *choice,
               WsPickSubject      *subject)
{
  GHashTable *roots = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) pids = NULL;
  gboolean system_wide = FALSE;

  *subject = WS_PICK_CHOSEN;
  if (choice != NULL && choice->pid > 0)
    {
      g_hash_table_add (roots, GINT_TO_POINTER (choice->pid));
      return roots;
    }
  if (choice != NULL && choice->comm != NULL)
    {
      for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
        if (g_strcmp0 (ws_trace_get_process (trace, p)->name, choice->comm) == 0)
          g_hash_table_add (roots, GINT_TO_POINTER (ws_trace_get_process (trace, p)->pid));
      return roots;
    }
  *subject = WS_PICK_RECORDED;
  if (ws_thread_picker_record_subject (ws_trace_get_record_command (trace), &pids, &system_wide))
    {
      /* a command perf followed (no -a): everything recorded but perf
       * itself is the command and what it started */
      if (pids == NULL && !system_wide)
        {
          for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
            {
              const WsProcess *process = ws_trace_get_process (trace, p);
              if (process->n_threads > 0 && !ws_attribution_is_recorder (trace, process->threads[0]))
                g_hash_table_add (roots, GINT_TO_POINTER (process->pid));
            }
          return roots;
        }
      for (guint i = 0; pids != NULL && i < pids->len; i++)
        g_hash_table_add (roots, GINT_TO_POINTER (g_array_index (pids, gint32, i)));
      if (pids == NULL)
        for (guint p = 0; p < ws_trace_get_n_processes (trace); p++)
          {
            const WsProcess *process = ws_trace_get_process (trace, p);
            gint32 parent = ws_trace_get_process_parent (trace, p);
            guint perf = WS_NONE;

            /* a child of the recorder that is not itself the recorder:
             * perf forks, the child execs the command */
            for (guint q = 0; q < ws_trace_get_n_processes (trace) && parent > 0; q++)
              if (ws_trace_get_process (trace, q)->pid == parent && ws_trace_get_process (trace, q)->n_threads > 0 &&
                  ws_attribution_is_recorder (trace, ws_trace_get_process (trace, q)->threads[0]))
                perf = q;
            if (perf != WS_NONE && process->n_threads > 0 && !ws_attribution_is_recorder (trace, process->threads[0]))
              g_hash_table_add (roots, GINT_TO_POINTER (process->pid));
          }
      if (g_hash_table_size (roots) > 0)
        return roots;
    }
  (void) classifier;
  *subject = WS_PICK_RANKED;
  g_hash_table_unref (roots);
  return NULL;
}

/* ------------------------------------------------------------------ */

/* At most this many processes whose end others waited for are explained:
 * attribution is linear in their lives, and a trace long enough to hold
 * more short-lived children than this is explained well by these. */
#define WS_PICK_MAX_ENDED 4096

/* How many of the threads explained a sentence names. */
#define WS_PICK_NAMED_THREADS 3

/* When a program was picked mostly for the time others waited for its
 * processes to end (a loop forking a child per item, a shell running
 * gzip after gzip), its answer is what those processes did with their
 * lives: running, mostly.  The few held up longest are the wrong sample:
 * on a loaded machine they are the children that waited for a CPU, one
 * in a hundred.  So every thread whose end was waited for is explained. */
static gboolean
fill_pick_ended (WsThreadPick *pick,
                 GArray       *held,
                 GHashTable   *ended,
                 guint         best)
{
  for (guint i = 0; i < held->len && pick->threads->len < WS_PICK_MAX_ENDED; i++)
    {
      const Held *h = &g_array_index (held, Held, i);

      if (h->program == best && g_hash_table_contains (ended, GUINT_TO_POINTER (h->thread)))
        g_array_append_val (pick->threads, h->thread);
    }
  return pick->threads->len > 0;
}

static void
fill_pick (WsThreadPick *pick,
           WsTrace      *trace,
           GArray       *held,
           GHashTable   *ended,
           guint         best,
           gboolean      explain_ended,
           guint         k)
{
  g_autoptr(GHashTable) processes = g_hash_table_new (NULL, NULL);

  pick->threads = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < held->len; i++)
    {
      const Held *h = &g_array_index (held, Held, i);

      if (h->program != best)
        continue;
      if (pick->program == NULL)
        {
          pick->program = g_strdup (ws_trace_get_program_name (trace, h->thread));
          pick->pid = ws_trace_get_thread (trace, h->thread)->pid;
        }
      g_hash_table_add (processes, GUINT_TO_POINTER (ws_trace_get_thread (trace, h->thread)->process));
      pick->inside += h->inside;
      pick->outside += h->outside;
      pick->cpu += h->cpu;
      pick->ran += h->ran;
    }
  /* The threads explained are those held up longest of every process of
   * that name: one run of a loop of short-lived processes (dd, one after
   * another) is one program each, but they are the same program to
   * whoever reads the answer.  Past the first, only threads held up
   * longer than they idled: attribution explains a thread's whole life,
   * and an unrelated process that shares a common name (a shell of the
   * recording script, another python3) would bring its idle poll or
   * wait4 in as a cause. */
  pick->n_processes = g_hash_table_size (processes);
  if (explain_ended && fill_pick_ended (pick, held, ended, best))
    {
      pick->explains_ended = TRUE;
      return;
    }
  for (guint i = 0; i < held->len && pick->threads->len < k; i++)
    {
      const Held *h = &g_array_index (held, Held, i);

      if (strcmp (ws_trace_get_program_name (trace, h->thread), pick->program) == 0 &&
          (h->program == best || held_score (h) > 0) &&
          (pick->threads->len == 0 || h->inside + h->outside + h->cpu > h->idle))
        g_array_append_val (pick->threads, h->thread);
    }
}

/* The first thread of @program in @held, for its name and pid. */
static const Held *
first_of (GArray *held,
          guint   program)
{
  for (guint i = 0; i < held->len; i++)
    if (g_array_index (held, Held, i).program == program)
      return &g_array_index (held, Held, i);
  return NULL;
}

WsThreadPick *
ws_thread_picker_pick_full (WsTrace            *trace,
                            WsFrameClassifier  *classifier,
                            guint               k,
                            const WsPickChoice *choice)
{
  g_autofree guint *programs = NULL;
  g_autoptr(GArray) held = NULL;
  g_autoptr(GArray) ranked = NULL;
  g_autoptr(GHashTable) ended = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) roots = NULL;
  g_autoptr(GHashTable) index = NULL;
  const Ranked *best = NULL, *other = NULL;
  WsPickSubject subject;
  WsThreadPick *pick;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  programs = thread_programs (trace, classifier);
  held = measure_threads (trace, classifier, programs, ended);
  g_array_sort (held, compare_held);
  ranked = rank_programs (trace, held, ended, programs);
  index = process_index (trace);
  roots = subject_roots (trace, classifier, choice, &subject);

  /* the best program of the subject (or of all), and the runner-up: the
   * next of the ranking, or its first when that is not the choice */
  for (guint i = 0; i < ranked->len; i++)
    {
      const Ranked *r = &g_array_index (ranked, Ranked, i);
      const Held *h = first_of (held, r->program);
      guint process = ws_trace_get_thread (trace, h->thread)->process;
      gboolean in_subject = roots == NULL ||
                            (subject == WS_PICK_RECORDED
                             ? descends_from (trace, index, process, roots)
                             : g_hash_table_contains (roots, GINT_TO_POINTER (ws_trace_get_process (trace, process)->pid)));

      if (r->score <= 0 && (roots == NULL || !in_subject))
        continue;
      if (best == NULL && in_subject && (r->score > 0 || roots != NULL))
        best = r;
      else if (other == NULL && r->score > 0)
        other = r;
      if (best != NULL && other != NULL)
        break;
    }
  if (best == NULL)
    return NULL;

  pick = g_new0 (WsThreadPick, 1);
  pick->trace = trace;
  pick->subject = subject;
  pick->score = best->score;
  pick->launched = best->launched;
  if (subject == WS_PICK_RECORDED)
    pick->record_command = g_strdup (ws_trace_get_record_command (trace));
  /* picked mostly for the waits on its processes' ends: explain those */
  fill_pick (pick, trace, held, ended, best->program, 2 * best->launched > best->score, k);
  if (other != NULL)
    {
      const Held *h = first_of (held, other->program);

      pick->runner_up = g_strdup (ws_trace_get_program_name (trace, h->thread));
      pick->runner_up_pid = ws_trace_get_thread (trace, h->thread)->pid;
      pick->runner_up_score = other->score;
      pick->runner_up_ran = other->ran;
    }
  return pick;
}

WsThreadPick *
ws_thread_picker_pick (WsTrace           *trace,
                       WsFrameClassifier *classifier,
                       guint              k)
{
  return ws_thread_picker_pick_full (trace, classifier, k, NULL);
}

char *
ws_thread_picks_explained (GPtrArray *picks,
                           guint      n_targets)
{
  gboolean ended = picks != NULL && picks->len > 0;

  for (guint i = 0; picks != NULL && i < picks->len; i++)
    ended = ended && ((const WsThreadPick *) g_ptr_array_index (picks, i))->explains_ended;
  if (ended)
    return g_strdup_printf (ngettext ("the %u thread others waited for to end, of the program held up most (no scenario instances)",
                                      "the %u threads others waited for to end, of the program held up most (no scenario instances)",
                                      n_targets),
                            n_targets);
  return g_strdup_printf (ngettext ("the %u thread held up longest of the program held up most (no scenario instances)",
                                    "the %u threads held up longest of the program held up most (no scenario instances)",
                                    n_targets),
                          n_targets);
}

char *
ws_thread_pick_describe (const WsThreadPick *pick)
{
  g_autofree char *inside = NULL, *outside = NULL, *cpu = NULL, *launched = NULL;
  g_autofree char *program = NULL, *why = NULL, *runner = NULL;
  g_autoptr(GString) threads = g_string_new (NULL);

  g_return_val_if_fail (pick != NULL, NULL);

  inside = ws_format_duration (pick->inside);
  outside = ws_format_duration (pick->outside);
  cpu = ws_format_duration (pick->cpu);
  launched = ws_format_duration (pick->launched);
  program = pick->n_processes > 1
            ? g_strdup_printf (ngettext ("%s (%u process)", "%s (%u processes)", pick->n_processes),
                               pick->program, pick->n_processes)
            : g_strdup (pick->program);
  for (guint i = 0; i < MIN (pick->threads->len, WS_PICK_NAMED_THREADS); i++)
    {
      const WsThread *th = ws_trace_get_thread (pick->trace, g_array_index (pick->threads, guint, i));
      g_string_append_printf (threads, "%s%s %d", i > 0 ? ", " : "", th->name != NULL ? th->name : "?", th->tid);
    }
  if (pick->threads->len > WS_PICK_NAMED_THREADS)
    {
      guint more = pick->threads->len - WS_PICK_NAMED_THREADS;

      /* TRANSLATORS: after three thread names: "wp-child 9756, … and 526 more" */
      g_string_append_printf (threads, ngettext (" and %u more", " and %u more", more), more);
    }
  switch (pick->subject)
    {
    case WS_PICK_RECORDED:
      /* TRANSLATORS: why this program: the trace was recorded for it */
      why = g_strdup (_("the process the recording was made for"));
      break;
    case WS_PICK_CHOSEN:
      why = g_strdup (_("the program asked for"));
      break;
    case WS_PICK_RANKED:
    default:
      why = g_strdup (_("the program held up most by work it waited for"));
      break;
    }
  if (pick->runner_up != NULL)
    {
      g_autofree char *score = ws_format_duration ((WsTime) pick->runner_up_score);
      g_autofree char *ran = ws_format_duration (pick->runner_up_ran);

      /* TRANSLATORS: " Runner-up: java (pid 4350), held up 312 ms, ran 290 ms." */
      runner = g_strdup_printf (_(" Runner-up: %s (pid %d), held up %s, ran %s."),
                                pick->runner_up, pick->runner_up_pid, score, ran);
    }
  if (pick->launched > 0)
    {
      /* TRANSLATORS: " Other programs waited 1.2 s for its processes to end." */
      g_autofree char *ends = g_strdup_printf (_(" Other programs waited %s for its processes to end."), launched);
      g_free (g_steal_pointer (&launched));
      launched = g_steal_pointer (&ends);
    }
  else
    g_clear_pointer (&launched, g_free);
  /* TRANSLATORS: "Explained from postgres (6 processes) — threads
   * postgres 9054, postgres 9060 — the program held up most by work it
   * waited for: 1.2 s by its own threads and I/O, …" */
  return g_strdup_printf (ngettext ("Explained from %s — thread %s — %s: "
                                    "%s by its own threads and I/O, %s by other programs, %s waiting for a CPU.%s%s",
                                    "Explained from %s — threads %s — %s: "
                                    "%s by its own threads and I/O, %s by other programs, %s waiting for a CPU.%s%s",
                                    pick->threads->len),
                          program, threads->str, why, inside, outside, cpu,
                          launched != NULL ? launched : "", runner != NULL ? runner : "");
}
