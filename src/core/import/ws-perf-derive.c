/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf importer's second pass: the records of the first, in time
 * order, become the paper's events thread by thread -- waits (switch-out
 * not runnable → the wake-up that names the thread), wake-ups with their
 * readier or hardware service, preemptions, exact on-CPU spans, CPU samples
 * and markers (docs/perf-import.md).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-perf-private.h"

static int
compare_record_time (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const Record *ra = a, *rb = b;

  return ra->time < rb->time ? -1 : ra->time > rb->time;
}

/* Lines from several CPUs out of time order: sort once, stably (GLib's
 * merge sort), so that same-time records keep their file order. */
static void
record_list_sort (RecordList *list)
{
  Record *all;

  if (!list->unsorted)
    return;
  all = g_new (Record, MAX (list->n, 1));
  for (guint i = 0; i < list->n; i++)
    all[i] = *record_list_get (list, i);
  g_qsort_with_data (all, list->n, sizeof (Record), compare_record_time, NULL);
  for (guint i = 0; i < list->n; i++)
    *record_list_get (list, i) = all[i];
  g_free (all);
  list->unsorted = FALSE;
}


typedef struct {
  guint32  open_wait;     /* WAIT not woken yet */
  guint32  woken_wait;    /* WAIT woken, its switch-in (ready latency) not seen */
  guint32  open_preempt;
  guint32  open_span;     /* RUNNING span still on CPU */
  WsTime   wake_time;
  gboolean waking_seen;   /* a sched_waking named it since its last wait began */
} ThreadRun;

typedef struct {
  WsTrace           *trace;
  ThreadRun         *runs;
  guint32            idle;
  WsPerfImportStats *stats;
  /* On-CPU spans come from sched_switch pairs; a profile of samples alone
   * has none, and each of its samples is its one running event. */
  gboolean           spans;
} Deriver;

static inline guint
add_event (Deriver      *d,
           WsEventKind   kind,
           const Record *r,
           guint32       thread,
           WsTime        duration)
{
  WsEvent e;

  ws_event_init (&e, kind, r->time, thread);
  if (duration != 0)
    ws_event_set_duration (&e, duration);
  e.stack = r->stack;
  e.cpu = r->cpu;
  return ws_trace_add_event (d->trace, &e);
}

/*
 * @thread is on a CPU at @r's time: its switch-in (@switch_in), a sample in
 * its context, or any event recorded in its context.  A wait with no
 * wake-up ends here, with the readier unknown (the VM drops many idle-CPU
 * wake-ups and switch-ins: traces/README.md, caveat 1).
 */
static void
seen_running (Deriver      *d,
              guint32       thread,
              const Record *r,
              gboolean      switch_in,
              gboolean      start_span)
{
  ThreadRun *run = &d->runs[thread];

  if (thread == d->idle)
    return;

  if (G_UNLIKELY (run->open_wait != WS_NONE))
    {
      WsEvent *w = ws_trace_peek_event (d->trace, run->open_wait);
      ws_event_set_duration (w, r->time - w->time);
      w->flags |= WS_EVENT_FLAG_READIER_UNKNOWN;
      run->open_wait = WS_NONE;
      d->stats->waits_without_wakeup++;
    }
  if (run->woken_wait != WS_NONE)
    {
      if (switch_in)
        ws_trace_set_wait_ready_latency (d->trace, run->woken_wait,
                                         (guint32) MIN (r->time - run->wake_time, (WsTime) G_MAXUINT32 - 1));
      run->woken_wait = WS_NONE;
    }
  if (run->open_preempt != WS_NONE)
    {
      WsEvent *e = ws_trace_peek_event (d->trace, run->open_preempt);
      ws_event_set_duration (e, r->time - e->time);
      run->open_preempt = WS_NONE;
    }
  if (start_span && d->spans && run->open_span == WS_NONE)
    {
      Record span = *r;
      span.stack = WS_STACK_EMPTY;
      run->open_span = add_event (d, WS_EVENT_RUNNING, &span, thread, 0);
      ws_trace_peek_event (d->trace, run->open_span)->flags = WS_EVENT_FLAG_SPAN;
    }
}

static void
derive_switch (Deriver      *d,
               const Record *r)
{
  guint32 prev = r->a, next = r->b;
  char state = r->state;

  if (prev == d->idle)
    d->stats->idle_switches++;
  else
    {
      ThreadRun *run = &d->runs[prev];
      guint index;

      seen_running (d, prev, r, FALSE, FALSE);
      if (run->open_span != WS_NONE)
        {
          WsEvent *span = ws_trace_peek_event (d->trace, run->open_span);
          ws_event_set_duration (span, r->time - span->time);
          run->open_span = WS_NONE;
        }

      if (state == 'R')
        {
          /* Still runnable: preempted, not blocked. */
          index = add_event (d, WS_EVENT_PREEMPT, r, prev, 0);
          ws_trace_peek_event (d->trace, index)->state = 'R';
          /* Switched out runnable for the idle task: nothing else
           * wanted the CPU, so the thread was not allowed it (a CPU
           * quota throttled it). */
          if (next == d->idle)
            ws_trace_peek_event (d->trace, index)->flags |= WS_EVENT_FLAG_TO_IDLE;
          run->open_preempt = index;
        }
      else if (state == 'Z' || state == 'X')
        {
          /* Exiting: it never runs again, which is not a wait. */
          d->stats->exit_switches++;
        }
      else
        {
          WsEvent *w;

          index = add_event (d, WS_EVENT_WAIT, r, prev, 0);
          w = ws_trace_peek_event (d->trace, index);
          w->state = state ? state : '?';
          if (state == 'D')
            w->flags |= WS_EVENT_FLAG_UNINTERRUPTIBLE;
          run->open_wait = index;
          run->woken_wait = WS_NONE;
          run->waking_seen = FALSE;
        }
    }

  seen_running (d, next, r, TRUE, TRUE);
}

static void
derive_wake (Deriver      *d,
             const Record *r)
{
  guint32 waker = r->thread, target = r->a;
  gboolean hardware = (r->type & REC_INTERRUPT) != 0 || waker == d->idle;
  guint type = r->type & ~REC_INTERRUPT;
  ThreadRun *run = &d->runs[target];
  guint index;

  seen_running (d, waker, r, FALSE, TRUE);

  index = add_event (d, hardware ? WS_EVENT_HW_SERVICE : WS_EVENT_UNWAIT, r, waker, 0);
  ws_event_set_target (ws_trace_peek_event (d->trace, index), target);

  if (type == REC_WAKEUP && run->waking_seen)
    {
      /* The sched_wakeup that follows a sched_waking, often recorded on the
       * target CPU: its context is not the waker's. */
      ws_trace_peek_event (d->trace, index)->flags |= WS_EVENT_FLAG_ECHO;
      d->stats->echo_wakeups++;
      return;
    }

  if (run->open_wait != WS_NONE && target != d->idle)
    {
      WsEvent *w = ws_trace_peek_event (d->trace, run->open_wait);

      ws_event_set_duration (w, r->time - w->time);
      w->peer = index;
      ws_trace_peek_event (d->trace, index)->peer = run->open_wait;
      run->woken_wait = run->open_wait;
      run->wake_time = r->time;
      run->open_wait = WS_NONE;
    }
  if (type == REC_WAKING)
    run->waking_seen = TRUE;
}

gboolean
ws_perf_derive (Parser       *p,
        Progress     *progress,
        GCancellable *cancellable,
        GError      **error)
{
  RecordList *records = &p->records;
  guint n = records->n;
  guint n_threads = ws_trace_get_n_threads (p->trace);
  g_autofree ThreadRun *runs = g_new (ThreadRun, MAX (n_threads, 1));
  Deriver d = { p->trace, runs, ws_trace_find_thread (p->trace, 0), &p->stats,
                records->n_switches > 0 };
  WsTime end_time = records->max_time;

  record_list_sort (records);

  /* Every record makes at most one event, plus one on-CPU span per
   * switch-in or first sign of running: at most one per switch record and
   * one per thread. */
  ws_trace_reserve_events (p->trace, n + records->n_switches + n_threads);

  for (guint i = 0; i < n_threads; i++)
    {
      runs[i].open_wait = runs[i].woken_wait = WS_NONE;
      runs[i].open_preempt = runs[i].open_span = WS_NONE;
      runs[i].wake_time = 0;
      runs[i].waking_seen = FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      const Record *r = record_list_get (records, i);

      /* The previous chunk is done with. */
      if (i % RECORDS_PER_CHUNK == 0 && i > 0)
        g_clear_pointer (&records->chunks->pdata[i / RECORDS_PER_CHUNK - 1], g_free);

      if ((i & 0xffff) == 0xffff)
        {
          if (g_cancellable_is_cancelled (cancellable))
            return ws_perf_set_error (error, p->display_name, p->line_no, WS_ERROR_CANCELLED,
                              _("import cancelled"));
          ws_perf_report (progress, 0.9 + 0.1 * i / n, _("Deriving waits"));
        }

      switch (r->type & ~REC_INTERRUPT)
        {
        case REC_SWITCH:
          derive_switch (&d, r);
          break;

        case REC_WAKING:
        case REC_WAKEUP:
          derive_wake (&d, r);
          break;

        case REC_SAMPLE:
          {
            /* The period column is up to 19 digits: past WS_TIME_MAX
             * it would make a negative duration or an end that
             * overflows; no real period comes near, so clamp. */
            guint64 period = ((guint64) r->b << 32) | r->a;

            guint index;

            seen_running (&d, r->thread, r, FALSE, TRUE);
            index = add_event (&d, WS_EVENT_RUNNING, r, r->thread,
                               (WsTime) MIN (period, (guint64) (WS_TIME_MAX - r->time)));
            ws_event_set_name (ws_trace_peek_event (p->trace, index), r->name);
          }
          break;

        case REC_MARKER:
        default:
          {
            guint index;

            seen_running (&d, r->thread, r, FALSE, TRUE);
            index = add_event (&d, WS_EVENT_MARKER, r, r->thread, 0);
            ws_event_set_name (ws_trace_peek_event (p->trace, index), r->a);
          }
          break;
        }
    }

  /* What is still open at the end of the trace ends there. */
  for (guint t = 0; t < n_threads; t++)
    {
      guint32 open[3] = { runs[t].open_wait, runs[t].open_preempt, runs[t].open_span };

      for (guint k = 0; k < G_N_ELEMENTS (open); k++)
        if (open[k] != WS_NONE)
          {
            WsEvent *e = ws_trace_peek_event (p->trace, open[k]);
            ws_event_set_duration (e, MAX (end_time - e->time, 0));
            e->flags |= WS_EVENT_FLAG_UNFINISHED;
          }
    }

  return TRUE;
}

/* Names and pids collected while parsing go to the trace's threads. */
void
ws_perf_apply_thread_info (Parser *p)
{
  /* Comms per event only for threads that had more than one. */
  for (guint i = 0; i < p->comm_changes->len; i++)
    {
      const CommChange *c = &g_array_index (p->comm_changes, CommChange, i);

      if (g_array_index (p->names, ThreadName, c->thread).n_comms > 1)
        ws_trace_add_thread_comm (p->trace, c->thread, c->time, c->name);
    }

  guint n_threads = ws_trace_get_n_threads (p->trace);

  for (guint i = 0; i < n_threads; i++)
    {
      const WsThread *thread = ws_trace_get_thread (p->trace, i);
      ThreadName *name = i < p->names->len ? &g_array_index (p->names, ThreadName, i) : NULL;
      /* The task records (latest COMM, pid) are the tid's latest thread's. */
      TaskInfo *task = ws_trace_find_thread (p->trace, thread->tid) == i
                       ? g_hash_table_lookup (p->tasks, GINT_TO_POINTER (thread->tid)) : NULL;
      const char *best = name ? name->name : NULL;

      if (thread->tid == 0)
        best = "swapper";
      else if (task != NULL)
        {
          if (thread->pid < 0 && task->pid >= 0)
            ws_trace_ensure_thread (p->trace, thread->tid, task->pid);
          if (task->name != NULL && (best == NULL || task->name_time > name->name_time))
            best = task->name;
        }
      if (best != NULL)
        ws_trace_set_thread_name (p->trace, i, best);
    }

  /* A process whose main thread has no event of its own (blocked in
   * pthread_join the whole window) is still named by it, as its COMM
   * record says, not after whichever worker thread came first. */
  for (guint i = 0; i < n_threads; i++)
    {
      const WsThread *thread = ws_trace_get_thread (p->trace, i);
      TaskInfo *main_task;

      if (thread->pid <= 0 || thread->pid == thread->tid ||
          ws_trace_find_thread (p->trace, thread->pid) != WS_NONE)
        continue;
      main_task = g_hash_table_lookup (p->tasks, GINT_TO_POINTER (thread->pid));
      if (main_task != NULL && main_task->name != NULL)
        ws_trace_set_process_name (p->trace, thread->pid, main_task->name);
    }
}

