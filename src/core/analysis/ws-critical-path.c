/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsCriticalPath: walk back from t1 through who-was-waiting-for-whom, the
 * way Perfetto and Trace Compass compute a thread's critical path.
 *
 * The walk keeps a stack of frames (thread, lower bound).  On the current
 * thread at cursor time c it looks at the state just before c:
 *
 *  - running, or runnable (the ready latency after a wake-up, or a
 *    preemption): that span, clipped to the bound, goes on the path;
 *  - blocked in a wait readied by thread P: push a frame for P with bound
 *    max (wait start, current bound) and continue on P from c; when the
 *    walk on P reaches its bound, pop and resume on the waiting thread at
 *    that bound (the wait's start);
 *  - blocked in a wait ended by hardware or by nobody known: that span goes
 *    on the path, marked so.
 *
 * The cursor only ever moves back or stays while frames are pushed, and a
 * wait is never jumped through twice on one stack, so the walk ends even on
 * inconsistent input (lost events can make two threads each seem to wait
 * for the other).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-behind.h"
#include "ws-critical-path.h"
#include "ws-error.h"
#include "ws-false-run.h"
#include "ws-time-format.h"
#include "ws-wake-words.h"

struct _WsCriticalPath
{
  GObject    parent_instance;

  WsTrace   *trace;
  WsSymptom  symptom;
  GArray    *segments;   /* WsCriticalSegment, time order */
  WsFrameClassifier *classifier; /* names what ended each blocked segment's wait */
};

G_DEFINE_FINAL_TYPE (WsCriticalPath, ws_critical_path, G_TYPE_OBJECT)

static void
ws_critical_path_finalize (GObject *object)
{
  WsCriticalPath *self = WS_CRITICAL_PATH (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->classifier);
  g_array_unref (self->segments);

  G_OBJECT_CLASS (ws_critical_path_parent_class)->finalize (object);
}

static void
ws_critical_path_class_init (WsCriticalPathClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_critical_path_finalize;
}

static void
ws_critical_path_init (WsCriticalPath *self)
{
  self->segments = g_array_new (FALSE, FALSE, sizeof (WsCriticalSegment));
}

typedef struct {
  guint32 thread;
  WsTime  bound;
  guint32 on_behalf_of;   /* the wait this frame explains, WS_NONE for the symptom */
} Frame;

/* Segments are produced backwards in time; merge with the previous one
 * (the one later in time) when they continue each other. */
static void
emit (GArray  *out,
      guint32  thread,
      WsTime   start,
      WsTime   end,
      WsCriticalState state,
      guint32  event,
      const Frame *frame,
      guint    depth)
{
  WsCriticalSegment seg;

  if (end <= start)
    return;

  if (out->len > 0)
    {
      WsCriticalSegment *last = &g_array_index (out, WsCriticalSegment, out->len - 1);
      if (last->thread == thread && last->state == state && last->event == event &&
          last->on_behalf_of == frame->on_behalf_of && last->depth == depth && last->start == end)
        {
          last->start = start;
          return;
        }
    }

  seg.thread = thread;
  seg.start = start;
  seg.end = end;
  seg.event = event;
  seg.on_behalf_of = frame->on_behalf_of;
  seg.depth = depth;
  seg.state = state;
  g_array_append_val (out, seg);
}

/* The last WAIT or PREEMPT event of @thread starting before @c, or WS_NONE. */
static guint
last_off_cpu_before (WsTrace       *trace,
                     const WsEvent *events,
                     guint          thread,
                     WsTime         c)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  guint k = ws_trace_thread_lower_bound (trace, thread, c);

  while (k > 0)
    {
      guint i = t->events[--k];
      if (events[i].kind == WS_EVENT_WAIT || events[i].kind == WS_EVENT_PREEMPT)
        return i;
    }
  return WS_NONE;
}

/* The walk back from t1: a stack of frames (the symptom thread, then each
 * readier followed) and the time @c the path has been explained down to. */
typedef struct {
  WsCriticalPath    *self;
  WsTrace           *trace;
  const WsEvent     *events;
  WsFrameClassifier *classifier;
  const WsFalseRuns *false_runs;
  GArray            *frames;   /* Frame */
  GHashTable        *active;   /* waits jumped through by the frames on the stack */
  WsTime             c;
  WsProgressLoop     loop;     /* how far back from t1 toward t0 */
} Walker;

/* Emits [MAX (from, bound), c) of the top frame in @state and moves c there. */
static void
walk_emit (Walker         *w,
           WsTime          from,
           WsCriticalState state,
           guint32         event)
{
  const Frame *f = &g_array_index (w->frames, Frame, w->frames->len - 1);

  from = MAX (from, f->bound);
  emit (w->self->segments, f->thread, from, w->c, state, event, f, w->frames->len - 1);
  w->c = from;
}

/* No WAIT or PREEMPT before c: running since first seen, nothing known
 * before that. */
static void
walk_never_off_cpu (Walker *w,
                    Frame  *f)
{
  const WsThread *t = ws_trace_get_thread (w->trace, f->thread);
  WsTime from = MAX (t->first_seen, f->bound);

  if (from < w->c)
    walk_emit (w, from, WS_CRITICAL_RUNNING, WS_NONE);
  else
    walk_emit (w, f->bound, WS_CRITICAL_NO_DATA, WS_NONE);
}

static void
walk_preempt (Walker *w,
              guint   v)
{
  const WsEvent *p = &w->events[v];
  WsTime back = p->time + MAX (ws_event_duration (p), 0);

  if (w->c > back)
    walk_emit (w, back, WS_CRITICAL_RUNNING, WS_NONE);
  else
    walk_emit (w, p->time, WS_CRITICAL_READY, v);
}

guint
ws_critical_path_timed_out_lock_holder (WsTrace           *trace,
                                        WsFrameClassifier *classifier,
                                        guint              wait_event)
{
  const WsWaitChain *chain;
  guint readier = WS_NONE;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_NONE);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  chain = ws_false_runs_chain_of (ws_false_runs_get (trace, classifier), wait_event);
  if (chain == NULL || ws_trace_get_event (trace, wait_event)->kind != WS_EVENT_WAIT)
    return WS_NONE;
  if (ws_frame_classifier_classify_wake (classifier, trace, chain->last, &readier) != WS_WAKE_THREAD ||
      readier == ws_trace_get_event (trace, wait_event)->thread)
    return WS_NONE;
  return readier;
}

/* A WAIT: blocked until the wake-up, then ready for the latency, then
 * running.  While blocked the path jumps to the readier, unless the wake-up
 * came from no thread (or that jump would go round in a circle). */
static void
walk_wait (Walker            *w,
           Frame             *f,
           guint              v,
           const WsWaitChain *chain)
{
  const WsEvent *e = &w->events[v];
  WsTime begin = chain != NULL ? chain->start : e->time;
  WsTime wake = e->time + MAX (ws_event_duration (e), 0);
  guint32 ready_latency = ws_trace_wait_ready_latency (w->trace, v);
  WsTime latency = ready_latency == WS_LATENCY_UNKNOWN ? 0 : ready_latency;
  guint readier = WS_NONE;
  WsWakeKind kind;

  if (w->c > wake + latency)
    {
      walk_emit (w, wake + latency, WS_CRITICAL_RUNNING, WS_NONE);
      return;
    }
  if (w->c > wake)
    {
      walk_emit (w, wake, WS_CRITICAL_READY, v);
      return;
    }

  kind = ws_frame_classifier_classify_wake (w->classifier, w->trace, v, &readier);
  /* An uninterruptible wait (the thread's own I/O) that a kernel worker
   * ended was ended by the I/O path: the worker's own delays (a CPU for
   * its completion work) are that I/O's, not another thread's. */
  if (kind == WS_WAKE_HEARTBEAT && ((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D'))
    kind = WS_WAKE_INTERRUPT;
  if ((kind == WS_WAKE_THREAD || kind == WS_WAKE_HEARTBEAT) &&
      readier != WS_NONE && readier != f->thread &&
      !g_hash_table_contains (w->active, GUINT_TO_POINTER (v)))
    {
      Frame next = { readier, MAX (begin, f->bound), v };

      g_hash_table_add (w->active, GUINT_TO_POINTER (v));
      g_array_append_val (w->frames, next);   /* @f is invalid from here */
      return;
    }

  walk_emit (w, begin,
             kind == WS_WAKE_TIMER || kind == WS_WAKE_INTERRUPT ? WS_CRITICAL_BLOCKED_HARDWARE
                                                                 : WS_CRITICAL_BLOCKED_UNKNOWN,
             v);
}

/* Returns: %FALSE if cancelled (@error set) */
static gboolean
walk (Walker  *w,
      GError **error)
{
  const WsSymptom *s = &w->self->symptom;
  double span = MAX (s->t1 - s->t0, 1);

  while (w->frames->len > 0)
    {
      Frame *f = &g_array_index (w->frames, Frame, w->frames->len - 1);
      const WsWaitChain *chain;
      guint v;

      if (!ws_progress_loop_step (&w->loop, (s->t1 - w->c) / span, error))
        return FALSE;
      if (w->c <= f->bound)
        {
          if (f->on_behalf_of != WS_NONE)
            g_hash_table_remove (w->active, GUINT_TO_POINTER (f->on_behalf_of));
          g_array_set_size (w->frames, w->frames->len - 1);
          continue;
        }

      v = last_off_cpu_before (w->trace, w->events, f->thread, w->c);
      /* Inside a chain of timed-out tries (a piece, or a preemption of a
       * check between two): the chain is one wait, ended by its last
       * piece. */
      chain = v != WS_NONE ? ws_false_runs_chain_of (w->false_runs, v) : NULL;
      if (v == WS_NONE)
        walk_never_off_cpu (w, f);
      else if (chain != NULL)
        walk_wait (w, f, chain->last, chain);
      else if (w->events[v].kind == WS_EVENT_PREEMPT)
        walk_preempt (w, v);
      else
        walk_wait (w, f, v, NULL);
    }
  return TRUE;
}

static gboolean
check_symptom (WsTrace         *trace,
               const WsSymptom *symptom,
               GError         **error)
{
  if (symptom->thread >= ws_trace_get_n_threads (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No thread with index %u in the trace"), symptom->thread);
      return FALSE;
    }
  if (symptom->t1 < symptom->t0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("The time window ends before it starts"));
      return FALSE;
    }
  return TRUE;
}

WsCriticalPath *
ws_critical_path_build (WsTrace           *trace,
                        const WsSymptom   *symptom,
                        WsFrameClassifier *classifier,
                        GError           **error)
{
  return ws_critical_path_build_full (trace, symptom, classifier, NULL, NULL, NULL, error);
}

/**
 * ws_critical_path_build_full:
 * @cancellable: (nullable): checked as the walk goes back in time
 * @progress: (nullable): told how far back from t1 toward t0 the path is
 *   explained (between 0 and 0.95 of the run)
 *
 * As ws_critical_path_build(), cancellable: %NULL with
 * %G_IO_ERROR_CANCELLED once @cancellable is cancelled.
 */
WsCriticalPath *
ws_critical_path_build_full (WsTrace           *trace,
                             const WsSymptom   *symptom,
                             WsFrameClassifier *classifier,
                             GCancellable      *cancellable,
                             WsProgressFunc     progress,
                             gpointer           progress_data,
                             GError           **error)
{
  g_autoptr(WsCriticalPath) self = NULL;
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GHashTable) active = NULL;
  Frame root;
  Walker w;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (symptom != NULL, NULL);
  g_return_val_if_fail (classifier == NULL || WS_IS_FRAME_CLASSIFIER (classifier), NULL);

  if (!check_symptom (trace, symptom, error))
    return NULL;

  self = g_object_new (WS_TYPE_CRITICAL_PATH, NULL);
  self->trace = g_object_ref (trace);
  self->symptom = *symptom;
  self->classifier = g_object_ref (classifier ? classifier : ws_frame_classifier_get_default ());

  frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  active = g_hash_table_new (g_direct_hash, g_direct_equal);
  root = (Frame) { symptom->thread, symptom->t0, WS_NONE };
  g_array_append_val (frames, root);
  w = (Walker) {
    .self = self,
    .trace = trace,
    .events = ws_trace_get_events (trace),
    .classifier = classifier ? classifier : ws_frame_classifier_get_default (),
    .frames = frames,
    .active = active,
    .c = symptom->t1,
  };
  w.false_runs = ws_false_runs_get (trace, w.classifier);
  ws_progress_loop_init (&w.loop, cancellable, progress, progress_data, 0.0, 0.95, _("Walking the critical path"));
  if (!walk (&w, error))
    return NULL;

  /* Produced from t1 back to t0: reverse into time order. */
  for (guint lo = 0, hi = self->segments->len; hi > lo + 1; lo++, hi--)
    {
      WsCriticalSegment tmp = g_array_index (self->segments, WsCriticalSegment, lo);
      g_array_index (self->segments, WsCriticalSegment, lo) = g_array_index (self->segments, WsCriticalSegment, hi - 1);
      g_array_index (self->segments, WsCriticalSegment, hi - 1) = tmp;
    }

  return g_steal_pointer (&self);
}

WsTrace *
ws_critical_path_get_trace (WsCriticalPath *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), NULL);
  return self->trace;
}

const WsSymptom *
ws_critical_path_get_symptom (WsCriticalPath *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), NULL);
  return &self->symptom;
}

guint
ws_critical_path_get_n_segments (WsCriticalPath *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), 0);
  return self->segments->len;
}

const WsCriticalSegment *
ws_critical_path_get_segment (WsCriticalPath *self,
                              guint           segment)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), NULL);
  g_return_val_if_fail (segment < self->segments->len, NULL);
  return &g_array_index (self->segments, WsCriticalSegment, segment);
}

const WsCriticalSegment *
ws_critical_path_get_segments (WsCriticalPath *self)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), NULL);
  return (const WsCriticalSegment *) (gconstpointer) self->segments->data;
}

WsTime
ws_critical_path_get_thread_time (WsCriticalPath *self,
                                  guint           thread)
{
  WsTime total = 0;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), 0);
  for (guint i = 0; i < self->segments->len; i++)
    {
      const WsCriticalSegment *s = &g_array_index (self->segments, WsCriticalSegment, i);
      if (s->thread == thread)
        total += s->end - s->start;
    }
  return total;
}

WsTime
ws_critical_path_get_state_time (WsCriticalPath  *self,
                                 WsCriticalState  state)
{
  WsTime total = 0;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (self), 0);
  for (guint i = 0; i < self->segments->len; i++)
    {
      const WsCriticalSegment *s = &g_array_index (self->segments, WsCriticalSegment, i);
      if (s->state == state)
        total += s->end - s->start;
    }
  return total;
}

const char *
ws_critical_state_to_string (WsCriticalState state)
{
  static const char * const names[WS_N_CRITICAL_STATES] = {
    "running", "ready", "blocked-hardware", "blocked-unknown", "no-data",
  };

  g_return_val_if_fail (state < WS_N_CRITICAL_STATES, NULL);
  return names[state];
}

/* "Blocked, interrupt": the glossary's word (ws-wake-words.h), interned
 * so that it can be returned like the other labels. */
static const char *
blocked_label (WsWakeWord word)
{
  /* Translators: a critical-path state: blocked, then what ended the wait */
  g_autofree char *label = g_strdup_printf (_("Blocked, %s"), ws_wake_word_phrase (word));

  return g_intern_string (label);
}

/**
 * ws_critical_state_get_label:
 *
 * Returns: what @state means, translated ("Running", "Blocked, no
 *   wake-up recorded"…)
 */
const char *
ws_critical_state_get_label (WsCriticalState state)
{
  switch (state)
    {
    case WS_CRITICAL_RUNNING:          return _("Running");
    case WS_CRITICAL_READY:            return _("Ready, waiting for a CPU");
    case WS_CRITICAL_BLOCKED_HARDWARE: return blocked_label (WS_WAKE_WORD_INTERRUPT);
    case WS_CRITICAL_BLOCKED_UNKNOWN:  return blocked_label (WS_WAKE_WORD_UNKNOWN);
    case WS_CRITICAL_NO_DATA:          return _("No data");
    case WS_N_CRITICAL_STATES:
    default:                           return "?";
    }
}

static char *
thread_name (WsTrace *trace,
             guint    thread)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  /* Translators: thread name and thread id */
  return g_strdup_printf (_("%s · %d"), t->name ? t->name : "?", t->tid);
}

static double
percent (WsTime part,
         WsTime whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0;
}

typedef struct {
  guint  thread;
  WsTime time;
} ThreadTime;

static int
compare_thread_time (gconstpointer a,
                     gconstpointer b)
{
  const ThreadTime *x = a, *y = b;

  if (x->time != y->time)
    return x->time > y->time ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/**
 * ws_critical_path_dup_thread_summary:
 * @max_threads: name at most this many threads, the busiest first
 *
 * Returns: (transfer full): e.g. "a · 1 700 ns (70 %), b · 2 150 ns
 *   (15 %), c · 3 150 ns (15 %)"
 */
char *
ws_critical_path_dup_thread_summary (WsCriticalPath *path,
                                     guint           max_threads)
{
  const WsSymptom *s;
  WsTrace *trace;
  g_autoptr(GArray) times = NULL;
  g_autofree guint8 *seen = NULL;
  GString *out = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  trace = ws_critical_path_get_trace (path);
  s = ws_critical_path_get_symptom (path);
  n = ws_critical_path_get_n_segments (path);
  seen = g_new0 (guint8, MAX (ws_trace_get_n_threads (trace), 1));
  times = g_array_new (FALSE, FALSE, sizeof (ThreadTime));
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);
      ThreadTime tt;

      if (seen[seg->thread])
        continue;
      seen[seg->thread] = 1;
      tt.thread = seg->thread;
      tt.time = ws_critical_path_get_thread_time (path, seg->thread);
      g_array_append_val (times, tt);
    }
  g_array_sort (times, compare_thread_time);

  for (guint i = 0; i < times->len && i < max_threads; i++)
    {
      const ThreadTime *tt = &g_array_index (times, ThreadTime, i);
      g_autofree char *name = thread_name (trace, tt->thread);
      g_autofree char *d = ws_format_duration (tt->time);

      /* Translators: one thread's share of the critical path: name,
       * duration, percentage */
      g_string_append_printf (out, _("%s%s %s (%.0f %%)"), i > 0 ? ", " : "", name, d,
                              percent (tt->time, s->t1 - s->t0));
    }
  if (times->len > max_threads)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " and %u more thread", " and %u more threads",
                                              times->len - max_threads),
                            times->len - max_threads);
  return g_string_free (out, FALSE);
}

static gboolean
segment_is_disk (WsTrace                 *trace,
                 const WsCriticalSegment *seg)
{
  const WsEvent *w;

  if ((seg->state != WS_CRITICAL_BLOCKED_HARDWARE && seg->state != WS_CRITICAL_BLOCKED_UNKNOWN) ||
      seg->event == WS_NONE)
    return FALSE;
  w = ws_trace_get_event (trace, seg->event);
  return (w->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || w->state == 'D';
}

static gboolean
segment_is_cpu_wait (WsTrace                 *trace,
                     const WsCriticalSegment *seg)
{
  const WsEvent *e;

  if (seg->state != WS_CRITICAL_READY)
    return FALSE;
  e = seg->event != WS_NONE ? ws_trace_get_event (trace, seg->event) : NULL;
  return e == NULL || !(e->kind == WS_EVENT_PREEMPT && (e->flags & WS_EVENT_FLAG_TO_IDLE));
}

/**
 * ws_critical_path_segment_is_disk:
 *
 * Returns: whether @segment is blocked in an uninterruptible wait (the
 *   thread's own I/O), whatever ended it
 */
gboolean
ws_critical_path_segment_is_disk (WsCriticalPath *path,
                                  guint           segment)
{
  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), FALSE);
  return segment_is_disk (path->trace, ws_critical_path_get_segment (path, segment));
}

/**
 * ws_critical_path_segment_label:
 *
 * Returns: what @segment's time was, translated: its state's label, but
 *   "Disk (uninterruptible I/O)" for a blocked uninterruptible wait (the
 *   thread's own I/O: its readier is the device, often not recorded) and
 *   "CPU contention (waiting for a CPU)" for a wait for a CPU others held
 */
const char *
ws_critical_path_segment_label (WsCriticalPath *path,
                                guint           segment)
{
  const WsCriticalSegment *seg;
  WsTrace *trace;
  WsWakeWord word;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  seg = ws_critical_path_get_segment (path, segment);
  trace = ws_critical_path_get_trace (path);
  /* A blocked segment says what ended its own wait, in the words `why`
   * and the ready tree use for the same wait (a timer's expiry is not
   * "interrupt" here and "timer expired" there). */
  if ((seg->state == WS_CRITICAL_BLOCKED_HARDWARE || seg->state == WS_CRITICAL_BLOCKED_UNKNOWN) &&
      seg->event != WS_NONE && ws_wake_word_for_wait (path->classifier, trace, seg->event, &word))
    return blocked_label (word);
  if (segment_is_disk (trace, seg))
    return _("Disk (uninterruptible I/O)");
  if (segment_is_cpu_wait (trace, seg))
    return _("CPU contention (waiting for a CPU)");
  return ws_critical_state_get_label (seg->state);
}

/**
 * ws_critical_path_get_disk_time:
 *
 * Returns: the time of @path in blocked uninterruptible waits (its
 *   threads' own I/O), part of the two blocked states' time
 */
WsTime
ws_critical_path_get_disk_time (WsCriticalPath *path)
{
  WsTrace *trace;
  WsTime t = 0;

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), 0);

  trace = ws_critical_path_get_trace (path);
  for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);
      if (segment_is_disk (trace, seg))
        t += seg->end - seg->start;
    }
  return t;
}

typedef struct {
  GHashTable *times;   /* thread -> Competitor * */
} Behind;

typedef struct {
  WsTime  time;
  guint64 bytes;
} Competitor;

static void
add_competitor (guint    thread,
                WsTime   time,
                guint64  bytes,
                guint32  device,
                gpointer data)
{
  Behind *b = data;
  Competitor *c = g_hash_table_lookup (b->times, GUINT_TO_POINTER (thread));

  if (c == NULL)
    g_hash_table_insert (b->times, GUINT_TO_POINTER (thread), (c = g_new0 (Competitor, 1)));
  c->time += time;
  c->bytes += bytes;
}

/* As the causes' step behind (ws-attribution.c): most bytes, then most
 * time first. */
static int
compare_competitors (gconstpointer a,
                     gconstpointer b,
                     gpointer      data)
{
  GHashTable *times = data;
  const Competitor *x = g_hash_table_lookup (times, *(gpointer *) a);
  const Competitor *y = g_hash_table_lookup (times, *(gpointer *) b);

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return x->time > y->time ? -1 : x->time < y->time;
}

/* "dd 4152 (64 %), kworker/u8:2 35 (12 %)": the competitors of @total. */
static char *
competitors (WsTrace    *trace,
             GHashTable *times,
             WsTime      total,
             guint       max)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, times);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);

  g_ptr_array_sort_with_data (keys, compare_competitors, times);
  for (guint i = 0; i < keys->len && i < max; i++)
    {
      guint thread = GPOINTER_TO_UINT (g_ptr_array_index (keys, i));
      const WsThread *th = ws_trace_get_thread (trace, thread);
      const Competitor *c = g_hash_table_lookup (times, GUINT_TO_POINTER (thread));

      g_string_append_printf (out, "%s%s %d (%.0f %%)", i > 0 ? ", " : "", th->name ? th->name : "?", th->tid,
                              total > 0 ? 100.0 * c->time / total : 0.0);
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_critical_path_dup_behind:
 *
 * Returns: (transfer full) (nullable): who else held what the path waited
 *   for (ws-behind.h): "Disk: other processes' requests in flight on the
 *   same device meanwhile: dd 4152 (64 %) · CPU contention: on the CPUs meanwhile:
 *   hog 17750 (31 %)", or %NULL when the path neither waited for the disk
 *   nor for a CPU
 */
char *
ws_critical_path_dup_behind (WsCriticalPath *path)
{
  WsTrace *trace;
  g_autoptr(WsBehindIndex) index = NULL;
  g_autoptr(GHashTable) disk = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) cpu = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  Behind on_disk = { disk }, on_cpu = { cpu };
  WsTime disk_time = 0, cpu_time = 0;
  WsBehindWhat disk_what = WS_BEHIND_SLEEP;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  trace = ws_critical_path_get_trace (path);
  for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);
      gboolean is_disk = segment_is_disk (trace, seg), is_cpu = !is_disk && segment_is_cpu_wait (trace, seg);

      if (!is_disk && !is_cpu)
        continue;
      if (index == NULL)
        index = ws_behind_index_new (trace);
      if (is_disk)
        {
          disk_time += seg->end - seg->start;
          disk_what = ws_behind_index_disk (index, seg->start, seg->end, seg->thread, add_competitor, &on_disk);
        }
      else
        {
          cpu_time += seg->end - seg->start;
          ws_behind_index_cpu (index, seg->start, seg->end, seg->thread, add_competitor, &on_cpu);
        }
    }
  if (g_hash_table_size (disk) > 0)
    {
      g_autofree char *names = competitors (trace, disk, disk_time, 3);
      if (disk_what == WS_BEHIND_REQUESTS)
        /* Translators: whose block requests were on the device while the path waited for it */
        g_string_append_printf (out, _("Disk: other processes' requests in flight on the same device meanwhile: %s"), names);
      else
        /* Translators: who else used the disk while the path waited for it */
        g_string_append_printf (out, _("Disk: other processes in uninterruptible sleep meanwhile: %s"), names);
    }
  if (g_hash_table_size (cpu) > 0)
    {
      g_autofree char *names = competitors (trace, cpu, cpu_time, 3);
      if (out->len > 0)
        g_string_append (out, " · ");
      /* Translators: who had the CPUs while the path waited for one */
      g_string_append_printf (out, _("CPU contention: on the CPUs meanwhile: %s"), names);
    }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_critical_path_dup_state_summary:
 *
 * Returns: (transfer full): the time in each state present, e.g.
 *   "Running 670 ns (67 %) · Ready, waiting for a CPU 80 ns (8 %) · …"
 */
char *
ws_critical_path_dup_state_summary (WsCriticalPath *path)
{
  const WsSymptom *s;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (WS_IS_CRITICAL_PATH (path), NULL);

  s = ws_critical_path_get_symptom (path);
  for (WsCriticalState st = 0; st < WS_N_CRITICAL_STATES; st++)
    {
      WsTime t = ws_critical_path_get_state_time (path, st);
      g_autofree char *d = NULL;

      if (t <= 0)
        continue;
      d = ws_format_duration (t);
      /* Translators: time of the critical path in one state: state,
       * duration, percentage */
      g_string_append_printf (out, _("%s%s %s (%.0f %%)"), out->len > 0 ? " · " : "",
                              ws_critical_state_get_label (st), d, percent (t, s->t1 - s->t0));
    }
  {
    WsTime disk = ws_critical_path_get_disk_time (path);

    if (disk > 0)
      {
        g_autofree char *d = ws_format_duration (disk);
        /* Translators: of the blocked time, the part in the threads' own
         * uninterruptible I/O */
        g_string_append_printf (out, _(" · of it, disk (uninterruptible I/O) %s (%.0f %%)"), d,
                                percent (disk, s->t1 - s->t0));
      }
  }
  return g_string_free (out, FALSE);
}
