/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Root-cause attribution: split a delay into what held it up.
 *
 * The critical path of a symptom ⟨T, t0, t1⟩ already says, for every
 * moment of [t0, t1], which thread was the deepest one holding things up
 * (walking back through the readiers) and what it was doing: running,
 * runnable, or blocked in a wait nothing recorded explains further (a
 * timer, a device, or a wake-up the kernel did not record).  Attribution
 * names each such piece by a cause — its kind, the wait's state and a
 * *signature* of the stack — and sums the pieces by cause over any number
 * of symptoms and traces.  docs/attribution.md describes the signature.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-behind.h"
#include "ws-block-requests.h"
#include "ws-error.h"
#include "ws-wake-words.h"

struct _WsAttribution
{
  GObject    parent_instance;

  GPtrArray *traces;     /* WsTrace, owned: the causes point into them */
  GArray    *causes;     /* WsCause, sorted */
  WsTime     total;
  guint      n_targets;
};

G_DEFINE_FINAL_TYPE (WsAttribution, ws_attribution, G_TYPE_OBJECT)

static void
cause_clear (WsCause *cause)
{
  g_free (cause->key);
  g_free (cause->label);
  g_free (cause->signature);
  g_free (cause->kernel_function);
  g_free (cause->top_function);
  g_clear_pointer (&cause->threads, g_array_unref);
  g_clear_pointer (&cause->behind, g_array_unref);
  g_strfreev (cause->example_stack);
}

static void
ws_attribution_finalize (GObject *object)
{
  WsAttribution *self = WS_ATTRIBUTION (object);

  for (guint i = 0; i < self->causes->len; i++)
    cause_clear (&g_array_index (self->causes, WsCause, i));
  g_array_unref (self->causes);
  g_ptr_array_unref (self->traces);

  G_OBJECT_CLASS (ws_attribution_parent_class)->finalize (object);
}

static void
ws_attribution_class_init (WsAttributionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_attribution_finalize;
}

static void
ws_attribution_init (WsAttribution *self)
{
  self->traces = g_ptr_array_new_with_free_func (g_object_unref);
  self->causes = g_array_new (FALSE, TRUE, sizeof (WsCause));
}

void
ws_attribution_settings_init (WsAttributionSettings *settings)
{
  g_return_if_fail (settings != NULL);
  memset (settings, 0, sizeof *settings);
}

/* ------------------------------------------------------------------ */
/* Signatures                                                           */

static gboolean
is_kernel_frame (const WsFrame *frame)
{
  return frame->module != NULL && g_str_has_prefix (frame->module, "[kernel");
}

static gboolean
is_unnamed (const WsFrame *frame)
{
  return frame->function == NULL || frame->function[0] == '\0' ||
         frame->function[0] == '[' || g_str_has_prefix (frame->function, "0x");
}

/* The name people know a function by: perf's symbol without its symbol
 * version ("fdatasync@GLIBC_2.2.5") or compiler suffix
 * ("ext4_fsync_nojournal.constprop.0"). */
static gboolean is_shared_library (const char *module);

static char *
plain_name (const WsFrame *frame)
{
  const char *f = frame->function;
  gsize len;
  const char *dot;

  /* glibc's internal aliases ("__GI___libc_write", "__poll") are the
   * system calls people know as write and poll. */
  if (is_shared_library (frame->module) || g_str_has_prefix (f, "__GI_"))
    {
      if (g_str_has_prefix (f, "__GI_"))
        f += 5;
      while (*f == '_' && f[1] != '\0')
        f++;
      if (g_str_has_prefix (f, "libc_") && f[5] != '\0')
        f += 5;
    }
  len = strcspn (f, "@");
  dot = memchr (f, '.', len);
  if (dot != NULL && dot > f)
    len = dot - f;
  return g_strndup (f, len);
}

/* Scheduler and sleep plumbing every blocked kernel stack goes through:
 * the blocking function is the first frame below them. */
static gboolean
is_scheduler_function (const char *name)
{
  static const char * const prefixes[] = {
    "__schedule", "schedule", "io_schedule", "preempt_schedule", "__traceiter_",
    "__switch_to", "finish_task_switch", "__cond_resched", "do_task_dead",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* Generic user-space waiting helpers that sit between a blocking system
 * call and the code that decided to wait (PostgreSQL's latch layer, GLib's
 * main loop): skipped when looking for the caller, which is what tells one
 * wait from another. */
static gboolean
is_wait_helper (const char *name)
{
  static const char * const prefixes[] = {
    "WaitEventSetWait", "WaitLatch", "WaitLatchOrSocket",
    "g_main_context_poll", "g_main_context_iterate", "g_poll",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* A shared system library (libc.so.6, libpthread…): its frames around a
 * blocking call are the call's own plumbing, not its caller. */
static gboolean
is_shared_library (const char *module)
{
  const char *base = module != NULL ? strrchr (module, '/') : NULL;

  base = base != NULL ? base + 1 : module;
  return base != NULL && g_str_has_prefix (base, "lib") && strstr (base, ".so") != NULL;
}

static char *
kernel_blocking_function (WsStackTable    *table,
                          const WsFrameId *frames,
                          guint            n)
{
  for (guint i = n; i > 0; i--)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[i - 1]);
      g_autofree char *name = NULL;

      if (!is_kernel_frame (f))
        break;
      if (is_unnamed (f))
        continue;
      name = plain_name (f);
      if (!is_scheduler_function (name))
        return g_steal_pointer (&name);
    }
  return NULL;
}

/* The module a frame's code is in: an inlined function (perf's DWARF
 * unwinder gives it the module "(inlined)") is in its caller's. */
static const char *
effective_module (WsStackTable    *table,
                  const WsFrameId *frames,
                  guint            i)
{
  for (;; i--)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[i]);

      if (g_strcmp0 (f->module, "(inlined)") != 0 || i == 0)
        return f->module;
    }
}

static char *
plain_name_in (WsStackTable    *table,
               const WsFrameId *frames,
               guint            i)
{
  WsFrame frame = *ws_stack_table_get_frame (table, frames[i]);

  frame.module = effective_module (table, frames, i);
  return plain_name (&frame);
}

/* Where every process's or thread's stack starts (glibc's names, without
 * their underscores): never the blocking call.  With frame pointers, a
 * system call's libc wrapper hides its caller's frame, so a main thread's
 * stack can be "__libc_start_call_main → fdatasync", all in libc: the run
 * of library frames at the leaf must stop short of these. */
static gboolean
is_entry_function (const char *name)
{
  static const char * const names[] = {
    "start_call_main", "start_main", "start_thread", "clone", "clone3",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* "blocking ← caller" in user space, or NULL if the stack has no named
 * user frame.  Frames are caller first: the leaf is the last one.  The
 * blocking frame is where the program entered the blocking call: in a
 * system library (libc's pthread_cond_timedwait, fdatasync), the
 * outermost named frame of the library's run at the leaf; else the
 * innermost named user frame. */
static char *
user_signature (WsStackTable    *table,
                const WsFrameId *frames,
                guint            n)
{
  const char *module;
  guint blocking = n, i = n;
  gboolean library;

  while (i > 0)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[--i]);

      if (!is_kernel_frame (f) && !is_unnamed (f))
        {
          blocking = i;
          break;
        }
    }
  if (blocking == n)
    return NULL;

  module = effective_module (table, frames, blocking);
  library = is_shared_library (module);
  while (library && i > 0 && g_strcmp0 (effective_module (table, frames, i - 1), module) == 0)
    {
      g_autofree char *name = NULL;

      if (is_unnamed (ws_stack_table_get_frame (table, frames[--i])))
        continue;
      name = plain_name_in (table, frames, i);
      if (is_entry_function (name))
        break;
      blocking = i;
    }

  while (i > 0)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[--i]);
      g_autofree char *name = NULL;

      if (is_kernel_frame (f) || is_unnamed (f))
        continue;
      if (library && g_strcmp0 (effective_module (table, frames, i), module) == 0)
        continue;
      name = plain_name_in (table, frames, i);
      if (is_wait_helper (name))
        continue;
      {
        g_autofree char *leaf = plain_name_in (table, frames, blocking);
        return g_strdup_printf ("%s ← %s", leaf, name);
      }
    }
  return plain_name_in (table, frames, blocking);
}

char *
ws_attribution_frames_signature (WsStackTable    *table,
                                 const WsFrameId *frames,
                                 guint            n)
{
  g_autofree char *kernel = NULL;
  char *user;

  g_return_val_if_fail (WS_IS_STACK_TABLE (table), NULL);

  user = user_signature (table, frames, n);
  if (user != NULL)
    return user;
  kernel = kernel_blocking_function (table, frames, n);
  return g_strdup (kernel != NULL ? kernel : "");
}

char *
ws_attribution_wait_signature (WsTrace    *trace,
                               WsStackId   stack,
                               char      **kernel_function)
{
  WsStackTable *table;
  const WsFrameId *frames;
  g_autofree char *kernel = NULL;
  char *user;
  guint n = 0;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (kernel_function != NULL)
    *kernel_function = NULL;
  if (stack == WS_STACK_EMPTY)
    return g_strdup ("");

  table = ws_trace_get_stack_table (trace);
  frames = ws_stack_table_get_stack (table, stack, &n);
  kernel = kernel_blocking_function (table, frames, n);
  user = user_signature (table, frames, n);
  if (user == NULL)
    user = g_strdup (kernel != NULL ? kernel : "");
  if (kernel_function != NULL)
    *kernel_function = g_steal_pointer (&kernel);
  return user;
}

/* The innermost named user-space frame of a CPU sample's stack (the
 * program's own work; a sample taken in the kernel on its behalf still
 * names it), else the innermost named kernel frame. */
static char *
sample_function (WsTrace  *trace,
                 WsStackId stack)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  const WsFrame *kernel = NULL;
  guint n = 0;

  if (stack == WS_STACK_EMPTY)
    return NULL;
  frames = ws_stack_table_get_stack (table, stack, &n);
  for (guint i = n; i > 0; i--)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[i - 1]);

      if (is_unnamed (f))
        continue;
      if (!is_kernel_frame (f))
        return plain_name (f);
      if (kernel == NULL)
        kernel = f;
    }
  return kernel != NULL ? plain_name (kernel) : NULL;
}

/* ------------------------------------------------------------------ */
/* Pieces                                                               */

typedef enum { WAKE_TIMER, WAKE_DEVICE, WAKE_NOBODY, WAKE_NONE } PieceWake;

/* One attributed piece of a critical path. */
typedef struct {
  WsCauseKind kind;
  char        state;
  char       *signature;
  char       *kernel_function;   /* BLOCKED: kernel blocking function; RUNNING: sampled function */
  PieceWake   wake;
  WsTime      time;
  guint       thread;
  guint       event;      /* example event, or WS_NONE */
  WsTime      start;      /* READY, BLOCKED: the segment (for what was behind it) */
  WsTime      end;
} Piece;

static void
piece_clear (Piece *piece)
{
  g_clear_pointer (&piece->signature, g_free);
  g_clear_pointer (&piece->kernel_function, g_free);
}

static char *
piece_key (const Piece *p)
{
  static const char * const wakes[] = { "timer", "device", "nobody", "" };

  switch (p->kind)
    {
    case WS_CAUSE_RUNNING:
      return g_strdup_printf ("running\t%s", p->signature);
    case WS_CAUSE_READY:
      return p->signature[0] != '\0' ? g_strdup_printf ("ready\t%s", p->signature) : g_strdup ("ready");
    case WS_CAUSE_BLOCKED:
      /* An empty signature says nothing: then what woke it is all we have. */
      if (p->signature[0] == '\0')
        return g_strdup_printf ("blocked\t%c\t\t%s", p->state, wakes[p->wake]);
      return g_strdup_printf ("blocked\t%c\t%s", p->state, p->signature);
    case WS_CAUSE_NO_DATA:
    default:
      return g_strdup ("no-data");
    }
}

static char *
piece_label (const Piece *p)
{
  if (p->kind == WS_CAUSE_RUNNING)
    return g_strdup_printf (_("running %s"), p->signature);
  if (p->kind == WS_CAUSE_READY)
    return g_strdup (p->signature[0] != '\0' ? _("runnable but throttled (switched out for an idle CPU)")
                                               : _("runnable, waiting for a CPU"));
  if (p->kind == WS_CAUSE_NO_DATA)
    return g_strdup (_("nothing recorded (before the thread was first seen)"));

  if (p->signature[0] == '\0')
    return g_strdup (ws_wake_word_phrase (p->wake == WAKE_TIMER ? WS_WAKE_WORD_TIMER
                                          : p->wake == WAKE_DEVICE ? ws_wake_word_for_interrupt (p->state)
                                          : WS_WAKE_WORD_UNKNOWN));
  switch (p->state)
    {
    case 'S': return g_strdup_printf (_("sleeping in %s"), p->signature);
    case 'D': return g_strdup_printf (_("uninterruptible in %s"), p->signature);
    case 'I': return g_strdup_printf (_("idle in %s"), p->signature);
    default:  return g_strdup_printf (_("blocked (%c) in %s"), p->state, p->signature);
    }
}

static void
blocked_piece (WsTrace                 *trace,
               const WsCriticalSegment *seg,
               WsFrameClassifier       *classifier,
               Piece                   *p)
{
  const WsEvent *w = ws_trace_get_event (trace, seg->event);

  p->kind = WS_CAUSE_BLOCKED;
  p->state = w->state ? w->state : 'S';
  p->signature = ws_attribution_wait_signature (trace, w->stack, &p->kernel_function);
  p->event = seg->event;
  if (seg->state == WS_CRITICAL_BLOCKED_UNKNOWN)
    p->wake = WAKE_NOBODY;
  else
    p->wake = ws_frame_classifier_classify_wake (classifier, trace, seg->event, NULL) == WS_WAKE_TIMER
              ? WAKE_TIMER : WAKE_DEVICE;
}

/* The thread's own device wait next to a running stretch: the wait it
 * went into at @at or after (@after), or came out of before @at, if that
 * wait is uninterruptible and ended by the I/O path (an interrupt, or a
 * kernel worker completing it).  Returns the wait event, or %WS_NONE. */
static guint
adjacent_io_wait (WsTrace           *trace,
                  WsFrameClassifier *classifier,
                  guint              thread,
                  WsTime             at,
                  gboolean           after)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  guint k = ws_trace_thread_lower_bound (trace, thread, at);
  const WsEvent *w = NULL;
  guint event = WS_NONE;
  WsWakeKind kind;

  for (; after ? k < t->n_events : k > 0; after ? k++ : k--)
    {
      guint i = t->events[after ? k : k - 1];

      if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
        {
          event = i;
          w = ws_trace_get_event (trace, i);
          break;
        }
    }
  if (w == NULL || !((w->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || w->state == 'D'))
    return WS_NONE;
  kind = ws_frame_classifier_classify_wake (classifier, trace, event, NULL);
  return kind == WS_WAKE_INTERRUPT || kind == WS_WAKE_HEARTBEAT ? event : WS_NONE;
}

/* How many frames of a stack (caller first) are in user space. */
static guint
user_depth (WsStackTable    *table,
            const WsFrameId *frames,
            guint            n)
{
  for (guint i = 0; i < n; i++)
    if (is_kernel_frame (ws_stack_table_get_frame (table, frames[i])))
      return i;
  return n;
}

/* Was a CPU sample taken in the kernel inside the same system call or
 * page fault as a wait: the same user-space frames, and kernel frames on
 * top of them? */
static gboolean
in_same_call (WsTrace  *trace,
              WsStackId sample,
              guint     wait)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  WsStackId stack = wait != WS_NONE ? ws_trace_get_event (trace, wait)->stack : WS_STACK_EMPTY;
  const WsFrameId *a, *b;
  guint na = 0, nb = 0, ua, ub;

  if (sample == WS_STACK_EMPTY || stack == WS_STACK_EMPTY)
    return FALSE;
  a = ws_stack_table_get_stack (table, sample, &na);
  b = ws_stack_table_get_stack (table, stack, &nb);
  ua = user_depth (table, a, na);
  ub = user_depth (table, b, nb);
  return ua > 0 && ua < na && ua == ub && memcmp (a, b, ua * sizeof (WsFrameId)) == 0;
}

/* The part of a running stretch spent in the kernel on the way into or
 * out of the thread's own device wait, as a piece of that wait. */
static void
io_call_piece (WsTrace  *trace,
               guint     wait,
               guint     thread,
               WsTime    time,
               void    (*add) (const Piece *, gpointer),
               gpointer  data)
{
  const WsEvent *w = ws_trace_get_event (trace, wait);
  Piece p = { WS_CAUSE_BLOCKED, 'D', NULL, NULL, WAKE_DEVICE, time, thread, wait };

  p.signature = ws_attribution_wait_signature (trace, w->stack, &p.kernel_function);
  add (&p, data);
  piece_clear (&p);
}

/* How many of the thread's CPU samples nearest an unsampled running
 * stretch are looked at, on each side. */
#define NEAREST_SAMPLES 4

/* A running stretch no CPU sample fell in (cpu-clock samples every 2 ms;
 * a page-fault loop runs 0.1 ms between its waits): the part of it spent
 * in the kernel on its device waits, estimated from the thread's nearest
 * samples on either side — how many of them were taken inside the same
 * call as those waits. */
static WsTime
unsampled_io_time (WsTrace                 *trace,
                   const WsCriticalSegment *seg,
                   const guint              io[2])
{
  const WsThread *t = ws_trace_get_thread (trace, seg->thread);
  guint before = ws_trace_thread_lower_bound (trace, seg->thread, seg->start);
  guint after = ws_trace_thread_lower_bound (trace, seg->thread, seg->end);
  guint seen[2] = { 0, 0 }, in_io = 0;

  for (guint side = 0; side < 2; side++)
    for (guint k = side == 0 ? before : after;
         seen[side] < NEAREST_SAMPLES && (side == 0 ? k > 0 : k < t->n_events);
         side == 0 ? k-- : k++)
      {
        const WsEvent *e = ws_trace_get_event (trace, t->events[side == 0 ? k - 1 : k]);

        if (e->kind != WS_EVENT_RUNNING || (e->flags & WS_EVENT_FLAG_SPAN) || e->stack == WS_STACK_EMPTY)
          continue;
        seen[side]++;
        in_io += in_same_call (trace, e->stack, io[0]) || in_same_call (trace, e->stack, io[1]);
      }
  return seen[0] + seen[1] > 0 ? (seg->end - seg->start) * in_io / (seen[0] + seen[1]) : 0;
}

/* Running time is summed by process (what people name a CPU hog by:
 * "cc1", "postgres"), and split among the functions the thread's CPU
 * samples inside the segment were in, in proportion, so that the cause
 * can say where most of it went.  Calls @add once per function.
 *
 * Samples taken in the kernel inside the system call or page fault that
 * then waits for the device (or that the device wait returns into) are
 * that device access, not the program's work: submitting a read, the
 * virtio notification that traps to the host, mapping the page it
 * brought in.  They go to the wait's own cause.  Without this a cold
 * read or a major page fault on this VM was "running" the program for a
 * third to a half of its time. */
static void
running_pieces (WsTrace                 *trace,
                const WsCriticalSegment *seg,
                WsFrameClassifier       *classifier,
                void                   (*add) (const Piece *, gpointer),
                gpointer                 data)
{
  const WsThread *t = ws_trace_get_thread (trace, seg->thread);
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) firsts = g_hash_table_new (g_str_hash, g_str_equal);
  guint io[2] = { adjacent_io_wait (trace, classifier, seg->thread, seg->start, FALSE),
                  adjacent_io_wait (trace, classifier, seg->thread, seg->end, TRUE) };
  guint n_io[2] = { 0, 0 };
  GHashTableIter iter;
  gpointer key, value;
  guint n = 0;

  for (guint k = ws_trace_thread_lower_bound (trace, seg->thread, seg->start); k < t->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[k]);
      char *name;

      if (e->time >= seg->end)
        break;
      if (e->kind != WS_EVENT_RUNNING || (e->flags & WS_EVENT_FLAG_SPAN))
        continue;
      if (in_same_call (trace, e->stack, io[0]) || in_same_call (trace, e->stack, io[1]))
        {
          n_io[in_same_call (trace, e->stack, io[0]) ? 0 : 1]++;
          n++;
          continue;
        }
      if ((name = sample_function (trace, e->stack)) == NULL)
        continue;
      if (!g_hash_table_contains (counts, name))
        g_hash_table_insert (firsts, name, GUINT_TO_POINTER (t->events[k] + 1));
      g_hash_table_insert (counts, name, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
      n++;
    }

  if (n == 0)
    {
      WsTime d = seg->end - seg->start;
      WsTime io_time = io[0] != WS_NONE || io[1] != WS_NONE ? unsampled_io_time (trace, seg, io) : 0;
      Piece p = { WS_CAUSE_RUNNING, 0, (char *) ws_trace_get_program_name (trace, seg->thread), NULL,
                  WAKE_NONE, d - io_time, seg->thread, WS_NONE };

      if (io_time > 0)
        io_call_piece (trace, io[io[0] != WS_NONE ? 0 : 1], seg->thread, io_time, add, data);
      add (&p, data);
      return;
    }

  for (guint i = 0; i < 2; i++)
    if (n_io[i] > 0)
      io_call_piece (trace, io[i], seg->thread, (seg->end - seg->start) * n_io[i] / n, add, data);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Piece p = { WS_CAUSE_RUNNING, 0, (char *) ws_trace_get_program_name (trace, seg->thread), key, WAKE_NONE,
                  (seg->end - seg->start) * GPOINTER_TO_UINT (value) / n, seg->thread,
                  GPOINTER_TO_UINT (g_hash_table_lookup (firsts, key)) - 1 };
      add (&p, data);
    }
}

WsTime
ws_attribution_segment_throttled_time (WsTrace                 *trace,
                                       const WsCriticalSegment *segment)
{
  const WsEvent *preempt;

  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (segment != NULL, 0);

  if (segment->state != WS_CRITICAL_READY || segment->event == WS_NONE)
    return 0;
  preempt = ws_trace_get_event (trace, segment->event);
  return preempt->kind == WS_EVENT_PREEMPT && (preempt->flags & WS_EVENT_FLAG_TO_IDLE)
         ? segment->end - segment->start : 0;
}

/* Calls @add for every piece one segment is split into. */
static void
segment_pieces (WsTrace                 *trace,
                const WsCriticalSegment *seg,
                WsFrameClassifier       *classifier,
                void                   (*add) (const Piece *, gpointer),
                gpointer                 data)
{
  Piece p = { 0, 0, NULL, NULL, WAKE_NONE, seg->end - seg->start, seg->thread, WS_NONE, seg->start, seg->end };
  WsTime throttled;

  switch (seg->state)
    {
    case WS_CRITICAL_RUNNING:
      running_pieces (trace, seg, classifier, add, data);
      return;
    case WS_CRITICAL_READY:
      p.kind = WS_CAUSE_READY;
      p.event = seg->event;
      if ((throttled = ws_attribution_segment_throttled_time (trace, seg)) > 0)
        {
          Piece q = p;

          q.signature = (char *) WS_CAUSE_THROTTLED;
          q.time = throttled;
          add (&q, data);
          p.time -= throttled;
        }
      break;
    case WS_CRITICAL_BLOCKED_HARDWARE:
    case WS_CRITICAL_BLOCKED_UNKNOWN:
      blocked_piece (trace, seg, classifier, &p);
      break;
    case WS_CRITICAL_NO_DATA:
    default:
      p.kind = WS_CAUSE_NO_DATA;
      break;
    }
  if (p.signature == NULL)
    p.signature = g_strdup ("");
  add (&p, data);
  piece_clear (&p);
}

static void
keep_longest_key (const Piece *p,
                  gpointer     data)
{
  struct { char *key; WsTime time; } *best = data;

  if (best->key == NULL || p->time > best->time)
    {
      g_free (best->key);
      best->key = piece_key (p);
      best->time = p->time;
    }
}

char *
ws_attribution_segment_cause_key (WsTrace                 *trace,
                                  const WsCriticalSegment *segment,
                                  WsFrameClassifier       *classifier)
{
  struct { char *key; WsTime time; } best = { NULL, 0 };

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (segment != NULL, NULL);

  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  /* A running segment split over several sampled functions goes by the
   * one it spent most time in. */
  segment_pieces (trace, segment, classifier, keep_longest_key, &best);
  return best.key;
}

static void
sum_blocked (const Piece *p,
             gpointer     data)
{
  if (p->kind == WS_CAUSE_BLOCKED)
    *(WsTime *) data += p->time;
}

WsTime
ws_attribution_segment_io_time (WsTrace                 *trace,
                                const WsCriticalSegment *segment,
                                WsFrameClassifier       *classifier)
{
  WsTime time = 0;

  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (segment != NULL, 0);

  if (segment->state != WS_CRITICAL_RUNNING)
    return 0;
  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  running_pieces (trace, segment, classifier, sum_blocked, &time);
  return time;
}

/* ------------------------------------------------------------------ */
/* Summing                                                              */

typedef struct {
  WsAttribution *self;
  GHashTable    *index;       /* key -> cause index + 1 */
  WsTrace       *trace;
  guint          target;      /* number of the target being added */
  GArray        *seen;        /* guint: target number that last touched each cause */
  GArray        *longest;     /* WsTime: the example piece's length per cause */
  GPtrArray     *functions;   /* per cause: GHashTable function -> WsTime *, RUNNING only */
  GHashTable    *behind;      /* WsTrace -> WsBehindIndex */
  WsCause       *adding;      /* the cause a competitor is added to */
  WsBehindWhat   adding_what; /* and what it competed for */
} Sum;

static void
add_thread (WsCause *cause,
            WsTrace *trace,
            guint    thread,
            WsTime   time)
{
  WsCauseThread ct = { trace, thread, time };

  for (guint i = 0; i < cause->threads->len; i++)
    {
      WsCauseThread *t = &g_array_index (cause->threads, WsCauseThread, i);
      if (t->trace == trace && t->thread == thread)
        {
          t->time += time;
          return;
        }
    }
  g_array_append_val (cause->threads, ct);
}

static void
add_behind (guint    thread,
            WsTime   time,
            guint64  bytes,
            guint32  device,
            gpointer data)
{
  Sum *sum = data;
  WsCause *cause = sum->adding;
  WsBehindThread bt = { sum->trace, thread, time, sum->adding_what, bytes, device };

  for (guint i = 0; i < cause->behind->len; i++)
    {
      WsBehindThread *t = &g_array_index (cause->behind, WsBehindThread, i);
      if (t->trace == sum->trace && t->thread == thread && t->what == bt.what)
        {
          t->time += time;
          t->bytes += bytes;
          return;
        }
    }
  g_array_append_val (cause->behind, bt);
}

/* What was behind a piece: for a wait for a CPU (not throttled: nobody
 * else wanted that CPU), the threads on the CPUs meanwhile; for an
 * uninterruptible wait, the other processes' block requests on the same
 * device, or without them their threads in uninterruptible sleep
 * meanwhile (ws-behind.h). */
static void
add_behind_piece (Sum         *sum,
                  WsCause     *cause,
                  const Piece *p)
{
  WsBehindIndex *index;
  gboolean cpu = p->kind == WS_CAUSE_READY && p->signature[0] == '\0';
  gboolean disk = p->kind == WS_CAUSE_BLOCKED && p->state == 'D';

  if ((!cpu && !disk) || p->end <= p->start)
    return;
  if ((index = g_hash_table_lookup (sum->behind, sum->trace)) == NULL)
    g_hash_table_insert (sum->behind, sum->trace, (index = ws_behind_index_new (sum->trace)));
  sum->adding = cause;
  if (cpu)
    {
      sum->adding_what = WS_BEHIND_CPU;
      ws_behind_index_cpu (index, p->start, p->end, p->thread, add_behind, sum);
    }
  else
    {
      /* which of the two the index reports depends on the trace only */
      sum->adding_what = ws_block_requests_get_n (ws_trace_get_block_requests (sum->trace)) > 0
                         ? WS_BEHIND_REQUESTS : WS_BEHIND_SLEEP;
      ws_behind_index_disk (index, p->start, p->end, p->thread, add_behind, sum);
    }
}

static WsCause *
lookup_cause (Sum         *sum,
              const Piece *p)
{
  g_autofree char *key = piece_key (p);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (sum->index, key));
  WsCause fresh = { 0 };
  guint zero = 0;
  WsTime none = -1;

  if (index > 0)
    return &g_array_index (sum->self->causes, WsCause, index - 1);

  fresh.key = g_strdup (key);
  fresh.label = piece_label (p);
  fresh.kind = p->kind;
  fresh.state = p->kind == WS_CAUSE_BLOCKED ? p->state : 0;
  fresh.signature = g_strdup (p->signature);
  fresh.threads = g_array_new (FALSE, FALSE, sizeof (WsCauseThread));
  fresh.behind = g_array_new (FALSE, FALSE, sizeof (WsBehindThread));
  fresh.example_event = WS_NONE;
  g_array_append_val (sum->self->causes, fresh);
  g_array_append_val (sum->seen, zero);
  g_array_append_val (sum->longest, none);
  g_ptr_array_add (sum->functions, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free));
  g_hash_table_insert (sum->index, g_steal_pointer (&key), GUINT_TO_POINTER (sum->self->causes->len));
  return &g_array_index (sum->self->causes, WsCause, sum->self->causes->len - 1);
}

static void
add_piece (const Piece *p,
           gpointer     data)
{
  Sum *sum = data;
  WsCause *cause;
  guint index;

  if (p->time <= 0)
    return;
  cause = lookup_cause (sum, p);
  index = cause - &g_array_index (sum->self->causes, WsCause, 0);

  cause->time += p->time;
  if (p->wake == WAKE_TIMER)
    cause->timer_time += p->time;
  else if (p->wake == WAKE_DEVICE)
    cause->device_time += p->time;
  else if (p->wake == WAKE_NOBODY)
    cause->unknown_time += p->time;
  if (g_array_index (sum->seen, guint, index) != sum->target + 1)
    {
      g_array_index (sum->seen, guint, index) = sum->target + 1;
      cause->n_symptoms++;
    }
  add_thread (cause, sum->trace, p->thread, p->time);
  add_behind_piece (sum, cause, p);
  cause = &g_array_index (sum->self->causes, WsCause, index);
  if (p->kind == WS_CAUSE_RUNNING && p->kernel_function != NULL)
    {
      GHashTable *functions = g_ptr_array_index (sum->functions, index);
      WsTime *t = g_hash_table_lookup (functions, p->kernel_function);

      if (t == NULL)
        g_hash_table_insert (functions, g_strdup (p->kernel_function), (t = g_new0 (WsTime, 1)));
      *t += p->time;
    }

  if (p->time > g_array_index (sum->longest, WsTime, index))
    {
      g_array_index (sum->longest, WsTime, index) = p->time;
      cause->example_trace = sum->trace;
      cause->example_event = p->event;
      if (p->kind == WS_CAUSE_BLOCKED)
        {
          g_free (cause->kernel_function);
          cause->kernel_function = g_strdup (p->kernel_function);
        }
    }
}

/* RUNNING: the sampled function with most time, into the cause. */
static void
name_top_function (WsCause    *cause,
                   GHashTable *functions)
{
  GHashTableIter iter;
  gpointer key, value;
  const char *best = NULL;
  WsTime best_time = 0;

  g_hash_table_iter_init (&iter, functions);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(WsTime *) value > best_time ||
        (*(WsTime *) value == best_time && best != NULL && strcmp (key, best) < 0))
      {
        best = key;
        best_time = *(WsTime *) value;
      }
  if (best == NULL)
    return;
  cause->top_function = g_strdup (best);
  g_free (cause->label);
  cause->label = g_strdup_printf (_("running %s (mostly in %s)"), cause->signature, best);
}

static gboolean
add_target (Sum                       *sum,
            const WsAttributionTarget *target,
            WsFrameClassifier         *classifier,
            GError                   **error)
{
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (target->trace, &target->symptom, classifier, error);
  guint n;

  if (path == NULL)
    return FALSE;
  if (!g_ptr_array_find (sum->self->traces, target->trace, NULL))
    g_ptr_array_add (sum->self->traces, g_object_ref (target->trace));

  sum->trace = target->trace;
  n = ws_critical_path_get_n_segments (path);
  for (guint s = 0; s < n; s++)
    segment_pieces (target->trace, ws_critical_path_get_segment (path, s), classifier, add_piece, sum);
  sum->self->total += target->symptom.t1 - target->symptom.t0;
  return TRUE;
}

static int
compare_threads (gconstpointer a,
                 gconstpointer b)
{
  const WsCauseThread *x = a, *y = b;
  return x->time > y->time ? -1 : x->time < y->time;
}

/* Most bytes first, then most time: a device's capacity is taken by the
 * data moved.  A cache flush moves none, yet stays in flight while the
 * device writes out what others wrote (and is often the waiting
 * thread's own, issued by a kernel worker): by time alone it came before
 * the dd that filled the cache.  Entries without bytes (CPUs, sleeps) are
 * by time. */
static int
compare_behind (gconstpointer a,
                gconstpointer b)
{
  const WsBehindThread *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return x->time > y->time ? -1 : x->time < y->time;
}

static int
compare_causes (gconstpointer a,
                gconstpointer b)
{
  const WsCause *x = a, *y = b;

  if (x->time != y->time)
    return x->time > y->time ? -1 : 1;
  return strcmp (x->key, y->key);
}

static char **
format_stack (WsTrace  *trace,
              guint     event)
{
  GPtrArray *lines = g_ptr_array_new ();
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsEvent *e = event != WS_NONE ? ws_trace_get_event (trace, event) : NULL;

  if (e != NULL && e->stack != WS_STACK_EMPTY)
    {
      guint n = 0;
      const WsFrameId *frames = ws_stack_table_get_stack (table, e->stack, &n);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (lines, ws_stack_table_format_frame (table, frames[i]));
    }
  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_free (lines, FALSE);
}

static void
finish (WsAttribution *self)
{
  g_array_sort (self->causes, compare_causes);
  for (guint i = 0; i < self->causes->len; i++)
    {
      WsCause *c = &g_array_index (self->causes, WsCause, i);

      c->share = self->total > 0 ? (double) c->time / self->total : 0.0;
      g_array_sort (c->threads, compare_threads);
      g_array_sort (c->behind, compare_behind);
      c->example_stack = c->example_trace != NULL ? format_stack (c->example_trace, c->example_event)
                                                  : g_new0 (char *, 1);
    }
}

WsAttribution *
ws_attribution_compute (GArray                      *targets,
                        const WsAttributionSettings *settings,
                        GError                     **error)
{
  g_autoptr(WsAttribution) self = NULL;
  WsAttributionSettings defaults;
  WsFrameClassifier *classifier;
  Sum sum = { 0 };
  gboolean ok = TRUE;

  g_return_val_if_fail (targets != NULL, NULL);

  if (settings == NULL)
    {
      ws_attribution_settings_init (&defaults);
      settings = &defaults;
    }
  classifier = settings->classifier ? settings->classifier : ws_frame_classifier_get_default ();

  self = g_object_new (WS_TYPE_ATTRIBUTION, NULL);
  sum.self = self;
  sum.index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sum.seen = g_array_new (FALSE, TRUE, sizeof (guint));
  sum.longest = g_array_new (FALSE, TRUE, sizeof (WsTime));
  sum.functions = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  sum.behind = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) ws_behind_index_free);

  for (guint i = 0; ok && i < targets->len; i++)
    {
      if (g_cancellable_set_error_if_cancelled (settings->cancellable, error))
        {
          g_clear_error (error);
          g_set_error (error, WS_ERROR, WS_ERROR_CANCELLED, _("Cancelled"));
          ok = FALSE;
          break;
        }
      if (settings->progress != NULL && (targets->len < 100 || i % (targets->len / 100) == 0))
        settings->progress ((double) i / targets->len, _("Walking the readiers"), settings->progress_data);
      sum.target = i;
      ok = add_target (&sum, &g_array_index (targets, WsAttributionTarget, i), classifier, error);
    }
  self->n_targets = targets->len;

  g_hash_table_unref (sum.index);
  g_hash_table_unref (sum.behind);
  g_array_unref (sum.seen);
  g_array_unref (sum.longest);
  if (!ok)
    {
      g_ptr_array_unref (sum.functions);
      return NULL;
    }
  for (guint i = 0; i < self->causes->len; i++)
    name_top_function (&g_array_index (self->causes, WsCause, i), g_ptr_array_index (sum.functions, i));
  g_ptr_array_unref (sum.functions);

  finish (self);
  if (settings->progress != NULL)
    settings->progress (1.0, NULL, settings->progress_data);
  return g_steal_pointer (&self);
}

guint
ws_attribution_get_n_causes (WsAttribution *self)
{
  g_return_val_if_fail (WS_IS_ATTRIBUTION (self), 0);
  return self->causes->len;
}

const WsCause *
ws_attribution_get_cause (WsAttribution *self,
                          guint          index)
{
  g_return_val_if_fail (WS_IS_ATTRIBUTION (self), NULL);
  g_return_val_if_fail (index < self->causes->len, NULL);
  return &g_array_index (self->causes, WsCause, index);
}

guint
ws_attribution_find_cause (WsAttribution *self,
                           const char    *key)
{
  g_return_val_if_fail (WS_IS_ATTRIBUTION (self), WS_NONE);

  for (guint i = 0; i < self->causes->len; i++)
    if (g_strcmp0 (g_array_index (self->causes, WsCause, i).key, key) == 0)
      return i;
  return WS_NONE;
}

WsTime
ws_attribution_get_total (WsAttribution *self)
{
  g_return_val_if_fail (WS_IS_ATTRIBUTION (self), 0);
  return self->total;
}

guint
ws_attribution_get_n_targets (WsAttribution *self)
{
  g_return_val_if_fail (WS_IS_ATTRIBUTION (self), 0);
  return self->n_targets;
}

/* ------------------------------------------------------------------ */
/* Targets                                                              */

static int
compare_targets_slowest (gconstpointer a,
                         gconstpointer b)
{
  const WsAttributionTarget *x = a, *y = b;
  WsTime dx = x->symptom.t1 - x->symptom.t0, dy = y->symptom.t1 - y->symptom.t0;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x->symptom.t0 < y->symptom.t0 ? -1 : x->symptom.t0 > y->symptom.t0;
}

/* Every instance of @scenario (any with NULL) in @traces, slowest first. */
static GArray *
all_instances (GPtrArray  *traces,
               const char *scenario)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));

  for (guint t = 0; t < traces->len; t++)
    {
      WsTrace *trace = g_ptr_array_index (traces, t);
      guint32 id = scenario != NULL ? ws_trace_lookup_string (trace, scenario) : WS_NONE;

      if (scenario != NULL && id == WS_NONE)
        continue;
      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
          WsAttributionTarget target = { trace, { inst->thread, inst->t0, inst->t1 }, i };

          if (scenario == NULL || inst->scenario == id)
            g_array_append_val (out, target);
        }
    }
  g_array_sort (out, compare_targets_slowest);
  return out;
}

GArray *
ws_attribution_targets_slowest (GPtrArray  *traces,
                                const char *scenario,
                                guint       k)
{
  GArray *out;

  g_return_val_if_fail (traces != NULL, NULL);

  out = all_instances (traces, scenario);
  if (out->len > k)
    g_array_set_size (out, k);
  return out;
}

GArray *
ws_attribution_targets_slower_than (GPtrArray  *traces,
                                    const char *scenario,
                                    WsTime      threshold)
{
  GArray *out;
  guint n = 0;

  g_return_val_if_fail (traces != NULL, NULL);

  out = all_instances (traces, scenario);
  while (n < out->len)
    {
      const WsAttributionTarget *t = &g_array_index (out, WsAttributionTarget, n);
      if (t->symptom.t1 - t->symptom.t0 <= threshold)
        break;
      n++;
    }
  g_array_set_size (out, n);
  return out;
}

GArray *
ws_attribution_targets_slowest_share (GPtrArray *traces,
                                      const char *scenario,
                                      double     fraction)
{
  GArray *out;
  guint n;

  g_return_val_if_fail (traces != NULL, NULL);

  out = all_instances (traces, scenario);
  n = (guint) MAX (1.0, out->len * CLAMP (fraction, 0.0, 1.0) + 0.5);
  if (out->len > n)
    g_array_set_size (out, n);
  return out;
}

/**
 * ws_attribution_is_recorder:
 *
 * Returns: whether @thread belongs to the recording tool (perf): `perf
 *   record … -- sleep N` waits the whole window for its `sleep`, which is
 *   nobody's delay but would otherwise look like everyone's cause
 */
gboolean
ws_attribution_is_recorder (WsTrace *trace,
                            guint    thread)
{
  const char *name = ws_trace_get_program_name (trace, thread);
  const char *own = ws_trace_get_thread (trace, thread)->name;

  /* The process may be named by the shell that exec'd perf: its threads'
   * own names tell. */
  return g_str_equal (name, "perf") || g_str_has_prefix (name, "perf-") ||
         g_strcmp0 (own, "perf") == 0 || (own != NULL && g_str_has_prefix (own, "perf-"));
}

char *
ws_cause_describe_behind (const WsCause *cause,
                          guint          max)
{
  GString *names = g_string_new (NULL);
  g_autofree char *list = NULL;
  gboolean worker = FALSE;
  WsBehindWhat what = WS_BEHIND_CPU;

  g_return_val_if_fail (cause != NULL, NULL);

  for (guint i = 0; cause->behind != NULL && i < cause->behind->len && i < max; i++)
    {
      const WsBehindThread *t = &g_array_index (cause->behind, WsBehindThread, i);
      const WsThread *th = ws_trace_get_thread (t->trace, t->thread);
      double percent = cause->time > 0 ? 100.0 * t->time / cause->time : 0.0;

      if (i == 0)
        what = t->what;
      if (t->what == WS_BEHIND_REQUESTS && t->bytes > 0)
        {
          g_autofree char *size = g_format_size (t->bytes);
          /* TRANSLATORS: a thread with its share of the wait and the bytes of its
           * requests: "dd 4152 (64 %, 310.4 MB)" */
          g_string_append_printf (names, _("%s%s %d (%.0f %%, %s)"), i > 0 ? ", " : "", th->name ? th->name : "?", th->tid,
                                  percent, size);
        }
      else
        g_string_append_printf (names, "%s%s %d (%.0f %%)", i > 0 ? ", " : "", th->name ? th->name : "?", th->tid, percent);
      worker |= t->what == WS_BEHIND_REQUESTS && th->name != NULL && g_str_has_prefix (th->name, "kworker");
    }
  if (cause->behind != NULL && cause->behind->len > max)
    g_string_append_printf (names, ngettext (", %u more", ", %u more", cause->behind->len - max),
                            cause->behind->len - max);
  list = g_string_free (names, FALSE);
  if (list[0] == '\0')
    return NULL;
  if (cause->kind == WS_CAUSE_READY)
    /* TRANSLATORS: the threads that had the CPUs, with their share of the wait */
    return g_strdup_printf (_("CPU contention: on the CPUs meanwhile: %s"), list);
  if (what == WS_BEHIND_REQUESTS && worker)
    /* TRANSLATORS: other processes' block requests on the same device, with
     * their share; a kernel worker issues write-back and cache flushes for
     * whichever process dirtied the pages or asked for the flush */
    return g_strdup_printf (_("disk contention: other processes' requests in flight on the same device meanwhile: %s "
                              "(a kernel worker's requests are write-back or flushes it issued for others)"), list);
  if (what == WS_BEHIND_REQUESTS)
    /* TRANSLATORS: other processes' block requests on the same device, with their share */
    return g_strdup_printf (_("disk contention: other processes' requests in flight on the same device meanwhile: %s"), list);
  /* TRANSLATORS: other processes whose I/O shared the disk, with their share */
  return g_strdup_printf (_("disk contention: other processes in uninterruptible sleep meanwhile: %s"), list);
}
