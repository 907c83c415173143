/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsTrace: one execution trace in memory.  Events live in one time-sorted
 * array of 32-byte structs; threads hold index lists into it so that the
 * per-thread queries of the wait graph are binary searches, not scans.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-trace-private.h"
#include "ws-block-requests.h"

struct _WsTrace
{
  GObject parent_instance;

  char          *path;
  char          *name;
  WsStackTable  *stacks;

  GArray        *events;        /* WsEvent */
  GArray        *threads;       /* WsThread */
  GHashTable    *thread_by_tid; /* tid -> index + 1 */
  GHashTable    *forgotten_tids; /* tids whose next thread is a new one, or NULL */
  GArray        *processes;     /* WsProcess */
  GHashTable    *process_names; /* pid -> name (interned) */
  guint32       *thread_event_index;  /* all per-thread lists, concatenated */
  guint32       *process_thread_index;
  /* Per WsEndIndex, thread -> prefix maxima of end times, built on first
   * use (ws_trace_thread_end_prefix_max()); n_threads pointers each. */
  WsTime       **end_prefix_max[WS_N_END_INDEXES];
  guint          end_prefix_max_n;   /* threads those arrays were made for */
  WsWakeupFixes  fixes;         /* what ws_trace_finish() rewrote */
  GArray        *instances;     /* WsScenarioInstance */
  /* The ready latencies of waits with no wake-up to keep them in (see
   * WsEvent), by event index; while building, any wait's (placed by
   * ws_trace_finish()). */
  GArray        *orphan_latencies; /* OrphanLatency */
  GHashTable    *comm_changes;  /* thread index -> GArray of CommChange, or NULL */
  GHashTable    *exit_times;    /* tid -> WsTime *, or NULL: PERF_RECORD_EXIT */
  GHashTable    *parents;       /* pid -> parent pid, or NULL: PERF_RECORD_FORK/EXIT */
  char          *record_command; /* nullable: "perf record …" the trace was recorded with */
  WsBlockRequests *block_requests; /* nullable: the block layer's requests, when recorded */

  GStringChunk  *string_chunk;
  GPtrArray     *strings;       /* id -> const char * */
  GHashTable    *string_ids;    /* const char * -> id + 1 */

  guint          counts[WS_N_EVENT_KINDS];
  WsTime         start_time;
  WsTime         end_time;
  gboolean       finished;
};

G_DEFINE_FINAL_TYPE (WsTrace, ws_trace, G_TYPE_OBJECT)

typedef struct {
  guint32 event;
  guint32 latency;
} OrphanLatency;

/* A thread's comm from @time on (exec renames a thread: "perf" → "sleep"). */
typedef struct {
  WsTime      time;
  const char *name;
} CommChange;

/* The lazily built prefix maxima, with the thread count they were made
 * for (threads may be added after, and the thread array may be gone). */
static void
free_end_prefix_max (WsTrace *self)
{
  for (guint w = 0; w < WS_N_END_INDEXES; w++)
    {
      for (guint t = 0; self->end_prefix_max[w] && t < self->end_prefix_max_n; t++)
        g_free (self->end_prefix_max[w][t]);
      g_clear_pointer (&self->end_prefix_max[w], g_free);
    }
  self->end_prefix_max_n = 0;
}

static void
ws_trace_finalize (GObject *object)
{
  WsTrace *self = WS_TRACE (object);

  g_free (self->path);
  g_free (self->name);
  g_clear_object (&self->stacks);
  g_array_unref (self->events);
  g_array_unref (self->threads);
  g_hash_table_unref (self->thread_by_tid);
  g_clear_pointer (&self->forgotten_tids, g_hash_table_unref);
  g_array_unref (self->processes);
  g_hash_table_unref (self->process_names);
  g_free (self->thread_event_index);
  g_free (self->process_thread_index);
  free_end_prefix_max (self);
  g_array_unref (self->instances);
  g_array_unref (self->orphan_latencies);
  g_clear_pointer (&self->comm_changes, g_hash_table_unref);
  g_clear_pointer (&self->exit_times, g_hash_table_unref);
  g_clear_pointer (&self->parents, g_hash_table_unref);
  g_free (self->record_command);
  ws_block_requests_free (self->block_requests);
  g_string_chunk_free (self->string_chunk);
  g_ptr_array_unref (self->strings);
  g_hash_table_unref (self->string_ids);

  G_OBJECT_CLASS (ws_trace_parent_class)->finalize (object);
}

static void
ws_trace_class_init (WsTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_trace_finalize;
}

static void
ws_trace_init (WsTrace *self)
{
  self->events = g_array_new (FALSE, FALSE, sizeof (WsEvent));
  self->threads = g_array_new (FALSE, TRUE, sizeof (WsThread));
  self->thread_by_tid = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->processes = g_array_new (FALSE, TRUE, sizeof (WsProcess));
  self->process_names = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->instances = g_array_new (FALSE, FALSE, sizeof (WsScenarioInstance));
  self->orphan_latencies = g_array_new (FALSE, FALSE, sizeof (OrphanLatency));
  self->string_chunk = g_string_chunk_new (4096);
  self->strings = g_ptr_array_new ();
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * ws_trace_new:
 * @path: the file the trace was read from
 * @stacks: (nullable): a stack table to share with other traces, or %NULL
 *   for a table of its own
 */
WsTrace *
ws_trace_new (const char   *path,
              WsStackTable *stacks)
{
  WsTrace *self = g_object_new (WS_TYPE_TRACE, NULL);
  g_autofree char *base = g_path_get_basename (path ? path : "trace");
  char *dot;

  self->path = g_strdup (path);
  /* "pg-tpcb.perf.txt.gz" -> "pg-tpcb": the name analysts call it by. */
  if ((dot = strchr (base, '.')) != NULL && dot != base)
    *dot = '\0';
  self->name = g_utf8_make_valid (base, -1);
  self->stacks = stacks ? g_object_ref (stacks) : ws_stack_table_new ();

  return self;
}

/* Names are shown in GTK widgets and written as JSON, which both want
 * UTF-8: bytes that are not become U+FFFD, as the JSON writer does. */
static const char *
insert_valid (GStringChunk *chunk,
              const char   *name)
{
  g_autofree char *valid = NULL;

  if (g_utf8_validate (name, -1, NULL))
    return g_string_chunk_insert_const (chunk, name);
  valid = g_utf8_make_valid (name, -1);
  return g_string_chunk_insert_const (chunk, valid);
}

const char *
ws_trace_get_path (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return self->path;
}

const char *
ws_trace_get_name (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return self->name;
}

WsStackTable *
ws_trace_get_stack_table (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return self->stacks;
}

/**
 * ws_trace_move_to_stack_table:
 * @stacks: the table to share
 *
 * Makes @self's stacks @stacks' (ws_stack_table_copy_into()): its frames
 * and stacks are interned there and every event's stack id follows.  The
 * ids are those loading @self into @stacks would have given, so traces
 * loaded on threads of their own and moved in turn, in order, share the
 * table exactly as traces loaded into it one after another.
 */
void
ws_trace_move_to_stack_table (WsTrace      *self,
                              WsStackTable *stacks)
{
  g_autofree WsStackId *map = NULL;

  g_return_if_fail (WS_IS_TRACE (self) && WS_IS_STACK_TABLE (stacks));
  if (self->stacks == stacks)
    return;
  map = ws_stack_table_copy_into (self->stacks, stacks);
  for (guint i = 0; i < self->events->len; i++)
    {
      WsEvent *e = &g_array_index (self->events, WsEvent, i);

      e->stack = map[e->stack];
    }
  g_set_object (&self->stacks, stacks);
}

/**
 * ws_trace_set_name:
 *
 * Overrides the name derived from the path: a trace converted to JSON keeps
 * the name analysts know it by ("pg-tpcb"), whatever the file is called.
 */
void
ws_trace_set_name (WsTrace    *self,
                   const char *name)
{
  g_return_if_fail (WS_IS_TRACE (self));

  if (name != NULL && *name != '\0')
    {
      g_free (self->name);
      self->name = g_utf8_make_valid (name, -1);
    }
}

guint32
ws_trace_intern_string (WsTrace    *self,
                        const char *str)
{
  gpointer id;
  const char *copy;

  g_return_val_if_fail (WS_IS_TRACE (self), WS_NONE);
  g_return_val_if_fail (str != NULL, WS_NONE);

  if ((id = g_hash_table_lookup (self->string_ids, str)) != NULL)
    return GPOINTER_TO_UINT (id) - 1;
  if (!g_utf8_validate (str, -1, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (str, -1);

      return ws_trace_intern_string (self, valid);
    }

  copy = g_string_chunk_insert_const (self->string_chunk, str);
  g_ptr_array_add (self->strings, (gpointer) copy);
  g_hash_table_insert (self->string_ids, (gpointer) copy, GUINT_TO_POINTER (self->strings->len));
  return self->strings->len - 1;
}

const char *
ws_trace_get_string (WsTrace *self,
                     guint32  id)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  if (id >= self->strings->len)
    return NULL;
  return g_ptr_array_index (self->strings, id);
}

guint32
ws_trace_lookup_string (WsTrace    *self,
                        const char *str)
{
  gpointer id;

  g_return_val_if_fail (WS_IS_TRACE (self), WS_NONE);
  if (str == NULL || (id = g_hash_table_lookup (self->string_ids, str)) == NULL)
    return WS_NONE;
  return GPOINTER_TO_UINT (id) - 1;
}

guint
ws_trace_ensure_thread (WsTrace *self,
                        gint32   tid,
                        gint32   pid)
{
  gpointer found;
  WsThread thread = { 0 };

  g_return_val_if_fail (WS_IS_TRACE (self), WS_NONE);

  if (self->forgotten_tids != NULL && g_hash_table_remove (self->forgotten_tids, GINT_TO_POINTER (tid)))
    found = NULL;   /* the id went to a new thread: this is it */
  else if ((found = g_hash_table_lookup (self->thread_by_tid, GINT_TO_POINTER (tid))) != NULL)
    {
      WsThread *t = &g_array_index (self->threads, WsThread, GPOINTER_TO_UINT (found) - 1);
      /* A thread first seen as a wake-up target has no pid yet. */
      if (t->pid < 0 && pid >= 0)
        t->pid = pid;
      return GPOINTER_TO_UINT (found) - 1;
    }

  thread.tid = tid;
  thread.pid = pid;
  thread.name = NULL;
  thread.process = WS_NONE;
  thread.first_seen = G_MAXINT64;
  thread.last_seen = G_MININT64;
  g_array_append_val (self->threads, thread);
  g_hash_table_insert (self->thread_by_tid, GINT_TO_POINTER (tid), GUINT_TO_POINTER (self->threads->len));
  return self->threads->len - 1;
}

/*
 * The thread known by @tid has ended and the id went to a new thread: the
 * next ws_trace_ensure_thread() for @tid starts a new thread, which
 * ws_trace_find_thread() then finds.  The old one keeps its events, and
 * stays what @tid finds until then (a trace may end before the new
 * thread shows: `why --tid` must still find the old one).
 */
void
ws_trace_forget_tid (WsTrace *self,
                     gint32   tid)
{
  g_return_if_fail (WS_IS_TRACE (self));
  if (!g_hash_table_contains (self->thread_by_tid, GINT_TO_POINTER (tid)))
    return;
  if (self->forgotten_tids == NULL)
    self->forgotten_tids = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_hash_table_add (self->forgotten_tids, GINT_TO_POINTER (tid));
}

/* @tid names @thread again (one of its earlier threads). */
void
ws_trace_bind_tid (WsTrace *self,
                   gint32   tid,
                   guint    thread)
{
  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (thread < self->threads->len);
  if (self->forgotten_tids != NULL)
    g_hash_table_remove (self->forgotten_tids, GINT_TO_POINTER (tid));
  g_hash_table_insert (self->thread_by_tid, GINT_TO_POINTER (tid), GUINT_TO_POINTER (thread + 1));
}

void
ws_trace_set_thread_name (WsTrace    *self,
                          guint       thread,
                          const char *name)
{
  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (thread < self->threads->len);

  if (name != NULL && *name != '\0')
    g_array_index (self->threads, WsThread, thread).name = insert_valid (self->string_chunk, name);
}

/**
 * ws_trace_add_thread_comm:
 * @time: from when @thread was called @name
 *
 * Records a comm the thread had for part of the trace (perf prints each
 * event's comm; exec changes it), for outputs that name each event by the
 * comm it had, as stackcollapse-perf.pl does.  The thread's name stays its
 * last one.
 */
void
ws_trace_add_thread_comm (WsTrace    *self,
                          guint       thread,
                          WsTime      time,
                          const char *name)
{
  CommChange change;
  GArray *changes;

  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (thread < self->threads->len);

  if (name == NULL || *name == '\0')
    return;
  if (self->comm_changes == NULL)
    self->comm_changes = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                (GDestroyNotify) g_array_unref);
  changes = g_hash_table_lookup (self->comm_changes, GUINT_TO_POINTER (thread));
  if (changes == NULL)
    {
      changes = g_array_new (FALSE, FALSE, sizeof (CommChange));
      g_hash_table_insert (self->comm_changes, GUINT_TO_POINTER (thread), changes);
    }
  change.time = time;
  change.name = g_string_chunk_insert_const (self->string_chunk, name);
  g_array_append_val (changes, change);
}

void
ws_trace_set_thread_exit (WsTrace *self,
                          gint32   tid,
                          WsTime   time)
{
  WsTime *t;

  g_return_if_fail (WS_IS_TRACE (self));

  if (self->exit_times == NULL)
    self->exit_times = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  t = g_new (WsTime, 1);
  *t = time;
  g_hash_table_replace (self->exit_times, GINT_TO_POINTER (tid), t);
}

void
ws_trace_set_process_parent (WsTrace *self,
                             gint32   pid,
                             gint32   parent_pid)
{
  g_return_if_fail (WS_IS_TRACE (self));

  if (pid == parent_pid || pid <= 0 || parent_pid < 0)
    return;
  if (self->parents == NULL)
    self->parents = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_hash_table_replace (self->parents, GINT_TO_POINTER (pid), GINT_TO_POINTER (parent_pid));
}

void
ws_trace_set_record_command (WsTrace    *self,
                             const char *command)
{
  g_return_if_fail (WS_IS_TRACE (self));

  g_free (self->record_command);
  self->record_command = g_strdup (command);
}

/**
 * ws_trace_get_thread_exit_time:
 *
 * Returns: when @thread ended (perf's PERF_RECORD_EXIT, else a
 *   `sched:sched_process_exit` marker of the thread), or -1 when the trace
 *   does not say it ended
 */
WsTime
ws_trace_get_thread_exit_time (WsTrace *self,
                               guint    thread)
{
  const WsThread *th;
  const WsTime *t;

  g_return_val_if_fail (WS_IS_TRACE (self), -1);
  g_return_val_if_fail (thread < self->threads->len, -1);

  th = &g_array_index (self->threads, WsThread, thread);
  if (self->exit_times != NULL &&
      (t = g_hash_table_lookup (self->exit_times, GINT_TO_POINTER (th->tid))) != NULL)
    return *t;
  for (guint i = th->n_events; i > 0; i--)
    {
      const WsEvent *e = &g_array_index (self->events, WsEvent, th->events[i - 1]);

      if (e->kind == WS_EVENT_MARKER && ws_event_name (e) < self->strings->len &&
          strcmp (g_ptr_array_index (self->strings, ws_event_name (e)), "sched:sched_process_exit") == 0)
        return e->time;
      if (e->kind != WS_EVENT_MARKER && e->kind != WS_EVENT_UNWAIT && e->kind != WS_EVENT_RUNNING)
        break;
    }
  return -1;
}

/**
 * ws_trace_get_process_parent:
 *
 * Returns: the pid of @process's parent, as perf's fork and exit records
 *   say, or -1 when the trace does not say
 */
gint32
ws_trace_get_process_parent (WsTrace *self,
                             guint    process)
{
  gpointer parent;

  g_return_val_if_fail (WS_IS_TRACE (self), -1);
  g_return_val_if_fail (process < self->processes->len, -1);

  if (self->parents == NULL ||
      !g_hash_table_lookup_extended (self->parents,
                                     GINT_TO_POINTER (g_array_index (self->processes, WsProcess, process).pid),
                                     NULL, &parent))
    return -1;
  return GPOINTER_TO_INT (parent);
}

/**
 * ws_trace_get_record_command:
 *
 * Returns: (nullable): the `perf record` command line the trace was
 *   recorded with (perf's header "cmdline"), or %NULL when it is not known
 */
const char *
ws_trace_get_record_command (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return self->record_command;
}

/**
 * ws_trace_get_thread_comm_at:
 *
 * Returns: (nullable): the comm @thread had at @time: the latest one
 *   recorded at or before @time (the first one before any), else its name
 */
const char *
ws_trace_get_thread_comm_at (WsTrace *self,
                             guint    thread,
                             WsTime   time)
{
  GArray *changes;
  const CommChange *best = NULL, *first = NULL;

  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (thread < self->threads->len, NULL);

  changes = self->comm_changes ? g_hash_table_lookup (self->comm_changes, GUINT_TO_POINTER (thread)) : NULL;
  for (guint i = 0; changes != NULL && i < changes->len; i++)
    {
      const CommChange *c = &g_array_index (changes, CommChange, i);

      if (first == NULL || c->time < first->time)
        first = c;
      if (c->time <= time && (best == NULL || c->time >= best->time))
        best = c;
    }
  if (best == NULL)
    best = first;
  return best ? best->name : g_array_index (self->threads, WsThread, thread).name;
}

void
ws_trace_set_process_name (WsTrace    *self,
                           gint32      pid,
                           const char *name)
{
  g_return_if_fail (WS_IS_TRACE (self));

  if (name != NULL && *name != '\0')
    g_hash_table_insert (self->process_names, GINT_TO_POINTER (pid),
                         (gpointer) insert_valid (self->string_chunk, name));
}

guint
ws_trace_add_event (WsTrace       *self,
                    const WsEvent *event)
{
  g_return_val_if_fail (WS_IS_TRACE (self), WS_NONE);
  g_return_val_if_fail (!self->finished, WS_NONE);
  g_return_val_if_fail (event->kind < WS_N_EVENT_KINDS, WS_NONE);

  g_array_append_vals (self->events, event, 1);
  return self->events->len - 1;
}

/**
 * ws_trace_reserve_events:
 * @n_events: how many more events the importer expects (an upper bound)
 *
 * Grows the event array once instead of doubling it while adding: spares
 * the copies of a big import.  Pages that stay unused are never touched.
 */
void
ws_trace_reserve_events (WsTrace *self,
                         guint    n_events)
{
  guint len;

  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (!self->finished);

  len = self->events->len;
  g_array_set_size (self->events, len + n_events);
  g_array_set_size (self->events, len);
}

WsEvent *
ws_trace_peek_event (WsTrace *self,
                     guint    index)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->events->len, NULL);
  return &g_array_index (self->events, WsEvent, index);
}

/**
 * ws_trace_set_wait_ready_latency:
 * @wait: index of a WAIT event
 * @latency: ns from its wake-up to its switch-in
 *
 * Kept in the wake-up that ended the wait when the two are already linked
 * both ways, else aside until ws_trace_finish() places it (links may be
 * made after, and ws_trace_finish() may pair the wait anew).
 */
void
ws_trace_set_wait_ready_latency (WsTrace *self,
                                 guint    wait,
                                 guint32  latency)
{
  WsEvent *events;
  OrphanLatency o = { wait, latency };

  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (wait < self->events->len);

  events = (WsEvent *) (gpointer) self->events->data;
  g_return_if_fail (events[wait].kind == WS_EVENT_WAIT);
  if (events[wait].peer != WS_NONE && events[wait].peer < self->events->len
      && ws_event_is_wake (&events[events[wait].peer]) && events[events[wait].peer].peer == wait)
    events[events[wait].peer].u.wake.ready_latency = latency;
  else
    g_array_append_val (self->orphan_latencies, o);
}

void
ws_trace_add_scenario_instance (WsTrace                  *self,
                                const WsScenarioInstance *instance)
{
  g_return_if_fail (WS_IS_TRACE (self));
  g_array_append_vals (self->instances, instance, 1);
}

static int
compare_by_time (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const WsEvent *events = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;

  if (events[ia].time != events[ib].time)
    return events[ia].time < events[ib].time ? -1 : 1;
  /* Stable: events at the same instant keep the order the importer gave. */
  return ia < ib ? -1 : ia > ib;
}

static gboolean
is_sorted (const WsEvent *events,
           guint          n)
{
  for (guint i = 1; i < n; i++)
    if (events[i].time < events[i - 1].time)
      return FALSE;
  return TRUE;
}

static void
sort_events (WsTrace *self)
{
  guint n = self->events->len;
  WsEvent *events = (WsEvent *) (gpointer) self->events->data;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *new_index = NULL;
  GArray *sorted;

  if (is_sorted (events, n))
    return;

  order = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_by_time, events);

  new_index = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    new_index[order[i]] = i;

  sorted = g_array_sized_new (FALSE, FALSE, sizeof (WsEvent), n);
  g_array_set_size (sorted, n);
  for (guint i = 0; i < n; i++)
    {
      WsEvent *e = &g_array_index (sorted, WsEvent, i);

      *e = events[order[i]];
      if (ws_event_peer (e) != WS_NONE)
        e->peer = new_index[e->peer];
    }
  for (guint i = 0; i < self->orphan_latencies->len; i++)
    {
      OrphanLatency *o = &g_array_index (self->orphan_latencies, OrphanLatency, i);
      o->event = new_index[o->event];
    }

  for (guint i = 0; i < self->instances->len; i++)
    {
      WsScenarioInstance *inst = &g_array_index (self->instances, WsScenarioInstance, i);
      if (inst->begin_event != WS_NONE)
        inst->begin_event = new_index[inst->begin_event];
      if (inst->end_event != WS_NONE)
        inst->end_event = new_index[inst->end_event];
    }

  g_array_unref (self->events);
  self->events = sorted;
}

static int
compare_pid (gconstpointer a,
             gconstpointer b,
             gpointer      user_data)
{
  const WsThread *threads = user_data;
  const WsThread *ta = &threads[*(const guint32 *) a];
  const WsThread *tb = &threads[*(const guint32 *) b];

  if (ta->pid != tb->pid)
    return ta->pid < tb->pid ? -1 : 1;
  return ta->tid < tb->tid ? -1 : ta->tid > tb->tid;
}

static void
build_processes (WsTrace *self)
{
  guint n = self->threads->len;
  WsThread *threads = (WsThread *) (gpointer) self->threads->data;
  guint32 *order = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_pid, threads);

  self->process_thread_index = order;
  for (guint i = 0; i < n;)
    {
      WsProcess process = { 0 };
      guint j = i;
      const char *name;

      process.pid = threads[order[i]].pid;
      process.threads = &order[i];
      /* A thread whose pid was never recorded (seen only as a wake-up or
       * switch-in target) is a process of its own, not one of a bag of
       * unrelated "pid -1" threads. */
      while (j < n && threads[order[j]].pid == process.pid && (process.pid >= 0 || j == i))
        {
          threads[order[j]].process = self->processes->len;
          j++;
        }
      process.n_threads = j - i;

      name = g_hash_table_lookup (self->process_names, GINT_TO_POINTER (process.pid));
      if (name == NULL)
        {
          guint main_thread = ws_trace_find_thread (self, process.pid);
          if (main_thread != WS_NONE)
            name = threads[main_thread].name;
        }
      if (name == NULL)
        name = threads[order[i]].name;
      process.name = name;

      g_array_append_val (self->processes, process);
      i = j;
    }
}

/* Frames of a remote wake-up run by an inter-processor interrupt (or by
 * the idle loop's flush of the same queue): the waker queued the wake-up on
 * another CPU, which ran it later in whatever context it was in.  The
 * waker's own sched_waking is on that other CPU; without it, who readied
 * the wait is unknown -- the interrupt did not. */
static const char * const ipi_wake_frames[] = {
  "sched_ttwu_pending", "__flush_smp_call_function_queue", "flush_smp_call_function_queue",
  "generic_smp_call_function_single_interrupt", "__sysvec_reschedule_ipi", "scheduler_ipi",
};

static gboolean
stack_is_ipi_wake (WsTrace    *self,
                   GHashTable *cache,
                   WsStackId   stack)
{
  gpointer hit = g_hash_table_lookup (cache, GUINT_TO_POINTER (stack + 1));
  const WsFrameId *frames;
  gboolean ipi = FALSE;
  guint n = 0;

  if (hit != NULL)
    return GPOINTER_TO_UINT (hit) == 2;
  frames = ws_stack_table_get_stack (self->stacks, stack, &n);
  for (guint i = 0; i < n && !ipi; i++)
    {
      const char *fn = ws_stack_table_get_frame (self->stacks, frames[i])->function;
      gsize len;

      for (guint j = 0; j < G_N_ELEMENTS (ipi_wake_frames) && !ipi; j++)
        ipi = g_str_has_prefix (fn, ipi_wake_frames[j])
              && (fn[len = strlen (ipi_wake_frames[j])] == '\0' || fn[len] == '.');
    }
  g_hash_table_insert (cache, GUINT_TO_POINTER (stack + 1), GUINT_TO_POINTER (ipi ? 2 : 1));
  return ipi;
}

/*
 * Wake-ups as they happened: a wait paired with an interrupt-context
 * wake-up that was only the delivery of a remote wake-up (see
 * ipi_wake_frames) was not readied by hardware.  If a thread's wake-up of
 * the same thread was recorded, unpaired, between the wait's start and the
 * interrupt, that thread is the readier and the wait is paired with it
 * (ending at that wake-up); otherwise the readier is unknown.  Done here, once, so that the
 * wait graph, the AWG, contrast, `why` and the timeline all see the same.
 * (A sender recorded *after* the interrupt, another CPU's clock being a
 * little ahead, is not taken: the wake-up would end after the wait did.)
 */
static void
attribute_ipi_wakes (WsTrace *self)
{
  WsEvent *events = (WsEvent *) (gpointer) self->events->data;
  guint n = self->events->len;
  g_autoptr(GHashTable) cache = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; i < n; i++)
    {
      WsEvent *hw = &events[i], *wait;
      guint sender = WS_NONE;
      guint32 latency;

      if (hw->kind != WS_EVENT_HW_SERVICE || hw->peer == WS_NONE
          || !stack_is_ipi_wake (self, cache, hw->stack))
        continue;
      wait = &events[hw->peer];
      /* The sender: a thread's wake-up, or an interrupt's on another CPU
       * (a disk or network completion whose wake-up an IPI delivered:
       * hardware all the same), left unpaired because the IPI's took it. */
      for (guint j = i; sender == WS_NONE && j > 0 && events[j - 1].time >= wait->time; j--)
        if ((events[j - 1].kind == WS_EVENT_UNWAIT
             || (events[j - 1].kind == WS_EVENT_HW_SERVICE && !stack_is_ipi_wake (self, cache, events[j - 1].stack)))
            && events[j - 1].peer == WS_NONE && events[j - 1].u.wake.target == wait->thread)
          sender = j - 1;

      /* The wait's ready latency (wake-up → switch-in) stays the wait's:
       * it moves with the link. */
      latency = hw->u.wake.ready_latency;
      hw->u.wake.ready_latency = WS_LATENCY_UNKNOWN;
      hw->peer = WS_NONE;
      if (sender != WS_NONE)
        {
          wait->peer = sender;
          wait->u.duration = events[sender].time - wait->time;
          events[sender].peer = (guint32) (wait - events);
          events[sender].u.wake.ready_latency = latency;
          events[sender].flags &= ~WS_EVENT_FLAG_ECHO;
          self->fixes.ipi_sender++;
        }
      else
        {
          OrphanLatency o = { (guint32) (wait - events), latency };

          wait->peer = WS_NONE;
          wait->flags |= WS_EVENT_FLAG_READIER_UNKNOWN;
          if (latency != WS_LATENCY_UNKNOWN)
            g_array_append_val (self->orphan_latencies, o);
          self->fixes.ipi_unknown++;
        }
    }
}

static int
compare_orphan (gconstpointer a,
                gconstpointer b)
{
  const OrphanLatency *oa = a, *ob = b;

  return oa->event < ob->event ? -1 : oa->event > ob->event;
}

static int
compare_orphan_data (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  return compare_orphan (a, b);
}

/* The latencies set aside while building go to the wake-up each wait
 * is linked with now; those of waits with none stay aside, sorted by
 * event for ws_trace_wait_ready_latency(), the last set of a wait kept. */
static void
place_orphan_latencies (WsTrace *self)
{
  WsEvent *events = (WsEvent *) (gpointer) self->events->data;
  GArray *orphans = self->orphan_latencies;
  guint kept = 0;

  /* Stable (GLib's merge sort): the last one set of a wait is the last
   * of its run. */
  g_qsort_with_data (orphans->data, orphans->len, sizeof (OrphanLatency), compare_orphan_data, NULL);
  for (guint i = 0; i < orphans->len; i++)
    {
      OrphanLatency o = g_array_index (orphans, OrphanLatency, i);
      WsEvent *wait = &events[o.event];

      if (i + 1 < orphans->len && g_array_index (orphans, OrphanLatency, i + 1).event == o.event)
        continue;
      if (wait->kind != WS_EVENT_WAIT)
        continue;
      if (wait->peer != WS_NONE)
        events[wait->peer].u.wake.ready_latency = o.latency;
      else if (o.latency != WS_LATENCY_UNKNOWN)
        g_array_index (orphans, OrphanLatency, kept++) = o;
    }
  g_array_set_size (orphans, kept);
}

/**
 * ws_trace_finish:
 *
 * Sorts events by time, builds the per-thread indices, the process table and
 * the counts.  Call once, after the last event has been added.
 */
static WsTime issuer_wait_end (guint    thread,
                               WsTime   issue,
                               gpointer data);

void
ws_trace_finish (WsTrace *self)
{
  guint n_threads, n_events;
  g_autofree guint32 *fill = NULL;
  const WsEvent *events;
  WsThread *threads;
  guint offset = 0;

  g_return_if_fail (WS_IS_TRACE (self));
  g_return_if_fail (!self->finished);

  sort_events (self);
  attribute_ipi_wakes (self);
  place_orphan_latencies (self);

  n_threads = self->threads->len;
  n_events = self->events->len;
  events = (const WsEvent *) (gconstpointer) self->events->data;
  threads = (WsThread *) (gpointer) self->threads->data;

  memset (self->counts, 0, sizeof self->counts);
  self->start_time = n_events ? events[0].time : 0;
  self->end_time = self->start_time;

  for (guint i = 0; i < n_events; i++)
    {
      const WsEvent *e = &events[i];
      WsThread *t = &threads[e->thread];
      WsTime end = e->time + MAX (ws_event_duration (e), 0);

      self->counts[e->kind]++;
      t->n_events++;
      t->first_seen = MIN (t->first_seen, e->time);
      t->last_seen = MAX (t->last_seen, end);
      self->end_time = MAX (self->end_time, end);
    }

  self->thread_event_index = g_new (guint32, MAX (n_events, 1));
  fill = g_new0 (guint32, MAX (n_threads, 1));
  for (guint i = 0; i < n_threads; i++)
    {
      threads[i].events = self->thread_event_index + offset;
      offset += threads[i].n_events;
      if (threads[i].name == NULL)
        threads[i].name = g_string_chunk_insert_const (self->string_chunk, threads[i].tid == 0 ? "swapper" : "<unknown>");
      if (threads[i].first_seen == G_MAXINT64)
        threads[i].first_seen = threads[i].last_seen = self->start_time;
    }
  for (guint i = 0; i < n_events; i++)
    {
      guint t = events[i].thread;
      ((guint32 *) threads[t].events)[fill[t]++] = i;
    }

  free_end_prefix_max (self);   /* a trace finished again starts afresh */
  for (guint w = 0; w < WS_N_END_INDEXES; w++)
    self->end_prefix_max[w] = g_new0 (WsTime *, MAX (n_threads, 1));
  self->end_prefix_max_n = MAX (n_threads, 1);

  build_processes (self);
  if (self->block_requests != NULL)
    ws_block_requests_finish (self->block_requests, issuer_wait_end, self);
  self->finished = TRUE;
}

/* A block request with no completion recorded: the end of the wait its
 * issuing thread went into next, when that wait is uninterruptible (it
 * waited for its I/O); else -1 (ws_block_requests_finish()). */
static WsTime
issuer_wait_end (guint    thread,
                 WsTime   issue,
                 gpointer data)
{
  WsTrace *self = data;
  const WsThread *t;

  if (thread >= self->threads->len)
    return -1;
  t = &g_array_index (self->threads, WsThread, thread);
  for (guint i = ws_trace_thread_lower_bound (self, thread, issue); i < t->n_events; i++)
    {
      const WsEvent *e = &g_array_index (self->events, WsEvent, t->events[i]);

      if (e->kind != WS_EVENT_WAIT)
        continue;
      if (!((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D'))
        return -1;
      return e->time + MAX (ws_event_duration (e), 0);
    }
  return -1;
}

/* The block requests being imported (created on first use). */
WsBlockRequests *
ws_trace_ensure_block_requests (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  if (self->block_requests == NULL)
    self->block_requests = ws_block_requests_new ();
  return self->block_requests;
}

/**
 * ws_trace_get_block_requests:
 *
 * Returns: (transfer none) (nullable): the block layer's requests
 *   (ws-block-requests.h), %NULL when the recording had no block
 *   tracepoints
 */
const WsBlockRequests *
ws_trace_get_block_requests (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return self->block_requests;
}

/**
 * ws_trace_get_wakeup_fixes:
 *
 * What finishing the trace rewrote so that wake-ups read as they happened
 * (IPI deliveries): for importers' checks against their input.
 */
const WsWakeupFixes *
ws_trace_get_wakeup_fixes (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return &self->fixes;
}

guint
ws_trace_get_n_events (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->events->len;
}

const WsEvent *
ws_trace_get_event (WsTrace *self,
                    guint    index)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->events->len, NULL);
  return &g_array_index (self->events, WsEvent, index);
}

const WsEvent *
ws_trace_get_events (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  return (const WsEvent *) (gconstpointer) self->events->data;
}

guint
ws_trace_count_kind (WsTrace     *self,
                     WsEventKind  kind)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  g_return_val_if_fail (kind < WS_N_EVENT_KINDS, 0);
  return self->counts[kind];
}

WsTime
ws_trace_get_start_time (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->start_time;
}

WsTime
ws_trace_get_end_time (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->end_time;
}

guint
ws_trace_get_n_threads (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->threads->len;
}

const WsThread *
ws_trace_get_thread (WsTrace *self,
                     guint    index)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->threads->len, NULL);
  return &g_array_index (self->threads, WsThread, index);
}

guint
ws_trace_find_thread (WsTrace *self,
                      gint32   tid)
{
  gpointer found;

  g_return_val_if_fail (WS_IS_TRACE (self), WS_NONE);
  found = g_hash_table_lookup (self->thread_by_tid, GINT_TO_POINTER (tid));
  return found ? GPOINTER_TO_UINT (found) - 1 : WS_NONE;
}

guint
ws_trace_get_n_processes (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->processes->len;
}

const WsProcess *
ws_trace_get_process (WsTrace *self,
                      guint    index)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);
  return &g_array_index (self->processes, WsProcess, index);
}

/**
 * ws_trace_get_program_name:
 * @thread: a thread index
 *
 * Returns: the name of @thread's process, or the thread's own name when
 * the process has none, or "?" when neither is known
 */
const char *
ws_trace_get_program_name (WsTrace *self,
                           guint    thread)
{
  const WsThread *t = ws_trace_get_thread (self, thread);
  const WsProcess *p = t->process < self->processes->len ? ws_trace_get_process (self, t->process) : NULL;

  if (p != NULL && p->name != NULL && p->name[0] != '\0')
    return p->name;
  return t->name != NULL ? t->name : "?";
}

guint
ws_trace_get_n_scenario_instances (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  return self->instances->len;
}

const WsScenarioInstance *
ws_trace_get_scenario_instance (WsTrace *self,
                                guint    index)
{
  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->instances->len, NULL);
  return &g_array_index (self->instances, WsScenarioInstance, index);
}

/**
 * ws_trace_thread_lower_bound:
 *
 * Returns: the position, within the thread's event list, of its first event
 * with time >= @time (n_events if none).
 */
guint
ws_trace_thread_lower_bound (WsTrace *self,
                             guint    thread,
                             WsTime   time)
{
  const WsThread *t;
  const WsEvent *events;
  guint lo = 0, hi;

  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  g_return_val_if_fail (thread < self->threads->len, 0);

  t = &g_array_index (self->threads, WsThread, thread);
  events = (const WsEvent *) (gconstpointer) self->events->data;
  hi = t->n_events;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (events[t->events[mid]].time < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * ws_trace_thread_end_prefix_max:
 * @which: over which events
 *
 * The running maximum of the end times (time + duration) of @thread's
 * events, one entry per position in its event list.  Events are sorted by
 * start, not end: walking back from a position, nothing earlier can end
 * after t once this falls below t.  That is how the wait graph and the
 * ready tree find "the events of a thread that end inside a window" in
 * time proportional to the window, not to the thread's life.
 *
 * Built once per thread on first use and kept with the trace, so that the
 * thousands of per-instance graphs of a contrast or impact run do not each
 * rescan the long-lived threads they meet.  Safe from several threads at
 * once (a lost race frees its copy).
 *
 * Returns: (array) (transfer none): n_events entries (at least one)
 */
const WsTime *
ws_trace_thread_end_prefix_max (WsTrace    *self,
                                guint       thread,
                                WsEndIndex  which)
{
  const WsThread *t;
  const WsEvent *events;
  WsTime *pm, running = G_MININT64;

  g_return_val_if_fail (WS_IS_TRACE (self), NULL);
  g_return_val_if_fail (self->finished, NULL);
  g_return_val_if_fail (thread < self->threads->len, NULL);
  /* Made at ws_trace_finish() for the threads it saw. */
  g_return_val_if_fail (thread < self->end_prefix_max_n, NULL);
  g_return_val_if_fail (which < WS_N_END_INDEXES, NULL);

  pm = g_atomic_pointer_get (&self->end_prefix_max[which][thread]);
  if (pm != NULL)
    return pm;

  t = &g_array_index (self->threads, WsThread, thread);
  events = (const WsEvent *) (gconstpointer) self->events->data;
  pm = g_new (WsTime, MAX (t->n_events, 1));
  pm[0] = G_MININT64;
  for (guint k = 0; k < t->n_events; k++)
    {
      const WsEvent *e = &events[t->events[k]];

      if (which == WS_END_INDEX_ALL || e->kind == WS_EVENT_WAIT)
        running = MAX (running, e->time + MAX (ws_event_duration (e), 0));
      pm[k] = running;
    }
  if (!g_atomic_pointer_compare_and_exchange (&self->end_prefix_max[which][thread], NULL, pm))
    {
      g_free (pm);
      pm = g_atomic_pointer_get (&self->end_prefix_max[which][thread]);
    }
  return pm;
}

/**
 * ws_trace_wait_ready_latency:
 *
 * Returns: the ready latency of the wait @wait_event: ns from its wake-up
 *   to its switch-in, or %WS_LATENCY_UNKNOWN when the switch-in was not
 *   recorded (or @wait_event is no wait).  Kept in the wake-up that ended
 *   it (#WsEvent), or aside for a wait whose wake-up is not recorded.
 */
guint32
ws_trace_wait_ready_latency (WsTrace *self,
                             guint    wait_event)
{
  const WsEvent *wait;
  const OrphanLatency *hit;
  OrphanLatency key = { wait_event, 0 };

  g_return_val_if_fail (WS_IS_TRACE (self), WS_LATENCY_UNKNOWN);
  g_return_val_if_fail (wait_event < self->events->len, WS_LATENCY_UNKNOWN);

  wait = &g_array_index (self->events, WsEvent, wait_event);
  if (wait->kind != WS_EVENT_WAIT)
    return WS_LATENCY_UNKNOWN;
  if (wait->peer != WS_NONE)
    return g_array_index (self->events, WsEvent, wait->peer).u.wake.ready_latency;
  if (self->orphan_latencies->len == 0)
    return WS_LATENCY_UNKNOWN;
  hit = bsearch (&key, self->orphan_latencies->data, self->orphan_latencies->len,
                 sizeof (OrphanLatency), compare_orphan);
  return hit != NULL ? hit->latency : WS_LATENCY_UNKNOWN;
}

/**
 * ws_trace_wait_readier:
 * @readier_thread: (out) (optional): the readier's thread index, or %WS_NONE
 *
 * Says who ended the wait @wait_event: a thread, hardware (interrupt
 * context), or nobody recorded.
 */
WsReadierKind
ws_trace_wait_readier (WsTrace *self,
                       guint    wait_event,
                       guint   *readier_thread)
{
  const WsEvent *wait, *unwait;

  if (readier_thread)
    *readier_thread = WS_NONE;

  g_return_val_if_fail (WS_IS_TRACE (self), WS_READIER_UNKNOWN);
  g_return_val_if_fail (wait_event < self->events->len, WS_READIER_UNKNOWN);

  wait = &g_array_index (self->events, WsEvent, wait_event);
  if (wait->kind != WS_EVENT_WAIT || wait->peer == WS_NONE)
    return WS_READIER_UNKNOWN;

  unwait = &g_array_index (self->events, WsEvent, wait->peer);
  if (unwait->kind == WS_EVENT_HW_SERVICE)
    return WS_READIER_HARDWARE;

  if (readier_thread)
    *readier_thread = unwait->thread;
  return WS_READIER_THREAD;
}

static const char * const kind_names[WS_N_EVENT_KINDS] = {
  "running", "wait", "unwait", "hw-service", "preempt", "marker",
};

/**
 * ws_format_pid:
 * @pid: a process id, negative when the trace did not record it (perf
 *   layouts with a TID only)
 *
 * Returns: (transfer full): the pid as the CLI and the GUI print it, "?"
 *   when unknown
 */
char *
ws_format_pid (gint32 pid)
{
  return pid >= 0 ? g_strdup_printf ("%d", pid) : g_strdup ("?");
}

const char *
ws_event_kind_to_string (WsEventKind kind)
{
  g_return_val_if_fail (kind < WS_N_EVENT_KINDS, NULL);
  return kind_names[kind];
}

gboolean
ws_event_kind_from_string (const char  *str,
                           WsEventKind *kind)
{
  for (guint i = 0; i < WS_N_EVENT_KINDS; i++)
    if (g_strcmp0 (str, kind_names[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

gsize
ws_trace_get_memory_size (WsTrace *self)
{
  g_return_val_if_fail (WS_IS_TRACE (self), 0);

  return self->events->len * (sizeof (WsEvent) + sizeof (guint32))
       + self->threads->len * (sizeof (WsThread) + sizeof (guint32))
       + self->instances->len * sizeof (WsScenarioInstance)
       + self->orphan_latencies->len * sizeof (OrphanLatency)
       + ws_block_requests_get_n (self->block_requests) * sizeof (WsBlockRequest);
}

/**
 * ws_trace_add_scenario_instances:
 * @scenario: the scenario's name, e.g. "transaction"
 * @begin_marker: event name that opens an instance on a thread
 * @end_marker: event name that closes it on the same thread
 *
 * Applies a marker rule: every begin marker followed by an end marker on the
 * same thread (with no other begin in between) is one instance.  A begin
 * with no end before the next begin or the end of the trace is dropped: an
 * instance whose end was not recorded has no meaningful duration.
 *
 * Returns: the number of instances added
 */
guint
ws_trace_add_scenario_instances (WsTrace    *self,
                                 const char *scenario,
                                 const char *begin_marker,
                                 const char *end_marker)
{
  const char *ends[] = { end_marker, NULL };

  return ws_trace_add_scenario_instances_full (self, scenario, begin_marker, ends);
}

/**
 * ws_trace_add_scenario_instances_full:
 * @end_markers: (array zero-terminated=1): event names that close an
 *   instance, e.g. both a commit and an abort probe
 *
 * As ws_trace_add_scenario_instances(), with any of several end markers.
 * A marker that is both an end and the begin closes the open instance and
 * opens the next one.
 *
 * Returns: the number of instances added
 */
guint
ws_trace_add_scenario_instances_full (WsTrace            *self,
                                      const char         *scenario,
                                      const char         *begin_marker,
                                      const char * const *end_markers)
{
  guint32 begin_id, scenario_id;
  guint32 end_ids[8];
  guint n_ends = 0;
  guint added = 0;
  const WsEvent *events;

  g_return_val_if_fail (WS_IS_TRACE (self), 0);
  g_return_val_if_fail (self->finished, 0);
  g_return_val_if_fail (end_markers != NULL, 0);

  begin_id = ws_trace_lookup_string (self, begin_marker);
  for (guint k = 0; end_markers[k] != NULL; k++)
    {
      guint32 id = ws_trace_lookup_string (self, end_markers[k]);
      g_return_val_if_fail (k < G_N_ELEMENTS (end_ids), 0);
      if (id != WS_NONE)
        end_ids[n_ends++] = id;
    }
  if (begin_id == WS_NONE || n_ends == 0)
    return 0;

  scenario_id = ws_trace_intern_string (self, scenario);
  events = (const WsEvent *) (gconstpointer) self->events->data;

  for (guint t = 0; t < self->threads->len; t++)
    {
      const WsThread *thread = &g_array_index (self->threads, WsThread, t);
      guint open = WS_NONE;

      for (guint k = 0; k < thread->n_events; k++)
        {
          guint i = thread->events[k];
          const WsEvent *e = &events[i];
          gboolean is_end = FALSE;

          if (e->kind != WS_EVENT_MARKER)
            continue;
          for (guint j = 0; j < n_ends; j++)
            is_end |= ws_event_name (e) == end_ids[j];
          /* End before begin: with begin == end (one marker per frame,
           * say) each marker closes the open instance and opens the next. */
          if (is_end && open != WS_NONE)
            {
              WsScenarioInstance inst = {
                .scenario = scenario_id,
                .thread = t,
                .t0 = events[open].time,
                .t1 = e->time,
                .begin_event = open,
                .end_event = i,
              };
              g_array_append_val (self->instances, inst);
              added++;
              open = WS_NONE;
            }
          if (ws_event_name (e) == begin_id)
            open = i;
        }
    }

  return added;
}
