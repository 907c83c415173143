/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Area-of-interest extraction (StackMine §IV): which events' stacks go into
 * mining.
 *
 * Scope-based: a scope is a set of event indices of one trace — all events
 * of chosen threads, the events of a thread inside a symptom window ⟨T, t0,
 * t1⟩ (Fig. 2 line 3: [e.T, e.T + e.C] ⊆ [t0, t1]), those of every instance
 * of a scenario, those of the wait graph of a symptom (Fig. 2), or only
 * those on its critical path.
 *
 * Content-based: a stack must contain, for every "must" regular expression,
 * a frame matching it, and no frame matching any "must not" one; frames are
 * matched as "function (module)", perf's own spelling.  Each frame is
 * matched once per stack table, each stack decided once.
 *
 * Waiting and running stacks are extracted separately, as StackMine mines
 * them separately.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-aoi.h"
#include "ws-attribution.h"
#include "ws-critical-path.h"
#include "ws-delay-caused.h"
#include "ws-error.h"

/* ------------------------------------------------------------------ */
/* Event sets                                                           */

struct _WsEventSet
{
  guint    n_events;
  guint64 *bits;
};

G_DEFINE_BOXED_TYPE (WsEventSet, ws_event_set, ws_event_set_copy, ws_event_set_free)

/**
 * ws_event_set_new:
 * @n_events: the trace's number of events
 *
 * Returns: (transfer full): an empty set
 */
WsEventSet *
ws_event_set_new (guint n_events)
{
  WsEventSet *self = g_new0 (WsEventSet, 1);

  self->n_events = n_events;
  self->bits = g_new0 (guint64, n_events / 64 + 1);
  return self;
}

WsEventSet *
ws_event_set_copy (const WsEventSet *self)
{
  WsEventSet *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (WsEventSet, 1);
  copy->n_events = self->n_events;
  copy->bits = g_memdup2 (self->bits, sizeof (guint64) * (self->n_events / 64 + 1));
  return copy;
}

void
ws_event_set_free (WsEventSet *self)
{
  if (self == NULL)
    return;
  g_free (self->bits);
  g_free (self);
}

void
ws_event_set_add (WsEventSet *self,
                  guint       event)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (event < self->n_events);
  self->bits[event / 64] |= G_GUINT64_CONSTANT (1) << (event % 64);
}

gboolean
ws_event_set_contains (const WsEventSet *self,
                       guint             event)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return event < self->n_events && (self->bits[event / 64] >> (event % 64)) & 1;
}

guint
ws_event_set_count (const WsEventSet *self)
{
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i <= self->n_events / 64; i++)
    n += __builtin_popcountll (self->bits[i]);
  return n;
}

/**
 * ws_event_set_union:
 * @other: a set over the same trace
 */
void
ws_event_set_union (WsEventSet       *self,
                    const WsEventSet *other)
{
  g_return_if_fail (self != NULL && other != NULL);
  g_return_if_fail (self->n_events == other->n_events);

  for (guint i = 0; i <= self->n_events / 64; i++)
    self->bits[i] |= other->bits[i];
}

/**
 * ws_event_set_intersect:
 *
 * Keeps in @self only the events also in @other (same trace).
 */
void
ws_event_set_intersect (WsEventSet       *self,
                        const WsEventSet *other)
{
  g_return_if_fail (self != NULL && other != NULL);
  g_return_if_fail (self->n_events == other->n_events);

  for (guint i = 0; i <= self->n_events / 64; i++)
    self->bits[i] &= other->bits[i];
}

guint
ws_event_set_get_n_events (const WsEventSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_events;
}

/* ------------------------------------------------------------------ */
/* Scopes                                                               */

/**
 * ws_aoi_scope_threads:
 * @tids: (array length=n_tids): thread ids (TIDs, not indices)
 *
 * Returns: (transfer full): every event recorded in those threads (TIDs
 *   absent from the trace are ignored)
 */
WsEventSet *
ws_aoi_scope_threads (WsTrace      *trace,
                      const gint32 *tids,
                      guint         n_tids)
{
  WsEventSet *set;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  set = ws_event_set_new (ws_trace_get_n_events (trace));
  for (guint i = 0; i < n_tids; i++)
    {
      guint t = ws_trace_find_thread (trace, tids[i]);
      const WsThread *thread;

      if (t == WS_NONE)
        continue;
      thread = ws_trace_get_thread (trace, t);
      for (guint k = 0; k < thread->n_events; k++)
        ws_event_set_add (set, thread->events[k]);
    }
  return set;
}

static void
add_wait (guint    wait,
          WsTime   overlap,
          gpointer user_data)
{
  ws_event_set_add (user_data, wait);
}

/**
 * ws_aoi_scope_delaying:
 * @classifier: (nullable): the wake kinds; %NULL = the default lists
 *
 * The default scope of mining: every RUNNING event, and the waits that
 * delayed another thread — a wait W of thread X is kept when X readied
 * some thread Y (a THREAD wake-up, not a timer, device or heartbeat
 * thread's) whose wait overlapped W, i.e. W is a child of Y's wait in a
 * ready tree.  What it leaves out are the waits nobody waited through:
 * idle loops of worker threads, daemons waiting for work, a client's
 * think time, and the recording tool's own waits and whatever only it
 * (perf waiting for its `sleep`) waited for.
 *
 * Returns: (transfer full): the scope
 */
WsEventSet *
ws_aoi_scope_delaying (WsTrace           *trace,
                       WsFrameClassifier *classifier)
{
  WsEventSet *set;
  guint n;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  n = ws_trace_get_n_events (trace);
  set = ws_event_set_new (n);
  for (guint i = 0; i < n; i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_RUNNING)
      ws_event_set_add (set, i);
  ws_delay_caused_foreach (trace, classifier, add_wait, set);
  return set;
}

static void
add_window (WsEventSet *set,
            WsTrace    *trace,
            guint       thread,
            WsTime      t0,
            WsTime      t1)
{
  const WsThread *th = ws_trace_get_thread (trace, thread);

  for (guint k = ws_trace_thread_lower_bound (trace, thread, t0); k < th->n_events; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, th->events[k]);

      if (e->time > t1)
        break;
      if (e->time + ws_event_duration (e) <= t1)
        ws_event_set_add (set, th->events[k]);
    }
}

/**
 * ws_aoi_scope_window:
 * @thread: a thread index
 *
 * Returns: (transfer full): the events of @thread lying entirely inside
 *   [t0, t1]: the vertices StackMine's Fig. 2 starts a wait graph from
 */
WsEventSet *
ws_aoi_scope_window (WsTrace *trace,
                     guint    thread,
                     WsTime   t0,
                     WsTime   t1)
{
  WsEventSet *set;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (thread < ws_trace_get_n_threads (trace), NULL);

  set = ws_event_set_new (ws_trace_get_n_events (trace));
  add_window (set, trace, thread, t0, t1);
  return set;
}

/**
 * ws_aoi_scope_scenario:
 *
 * Returns: (transfer full): the union, over every instance of @scenario,
 *   of its thread's events inside its window (empty if the trace has no
 *   such scenario)
 */
WsEventSet *
ws_aoi_scope_scenario (WsTrace    *trace,
                       const char *scenario)
{
  WsEventSet *set;
  guint32 id;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (scenario != NULL, NULL);

  set = ws_event_set_new (ws_trace_get_n_events (trace));
  id = ws_trace_lookup_string (trace, scenario);
  if (id == WS_NONE)
    return set;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);

      if (inst->scenario == id)
        add_window (set, trace, inst->thread, inst->t0, inst->t1);
    }
  return set;
}

/**
 * ws_aoi_scope_wait_graph:
 *
 * Returns: (transfer full): the running and waiting events that are
 *   vertices of @graph (StackMine §IV: "all the waiting events and running
 *   events from the vertices in the graph")
 */
WsEventSet *
ws_aoi_scope_wait_graph (WsWaitGraph *graph)
{
  WsTrace *trace;
  WsEventSet *set;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (graph), NULL);

  trace = ws_wait_graph_get_trace (graph);
  set = ws_event_set_new (ws_trace_get_n_events (trace));
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    {
      const WsWaitNode *node = ws_wait_graph_get_node (graph, i);

      if ((node->kind == WS_WAIT_NODE_RUN || node->kind == WS_WAIT_NODE_WAIT) &&
          node->event != WS_NONE)
        ws_event_set_add (set, node->event);
    }
  return set;
}

/* The critical path's events: the waits it passes through (blocked on
 * hardware or an unknown readier, or whose readier it jumped to), the
 * waits whose ready latency it spends, and the running samples of each
 * thread inside the path's running segments on that thread. */
static WsEventSet *
critical_path_events (WsTrace        *trace,
                      WsCriticalPath *path)
{
  WsEventSet *set = ws_event_set_new (ws_trace_get_n_events (trace));

  for (guint s = 0; s < ws_critical_path_get_n_segments (path); s++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, s);

      if (seg->event != WS_NONE && ws_trace_get_event (trace, seg->event)->kind == WS_EVENT_WAIT)
        ws_event_set_add (set, seg->event);
      if (seg->on_behalf_of != WS_NONE)
        ws_event_set_add (set, seg->on_behalf_of);

      if (seg->state == WS_CRITICAL_RUNNING && seg->thread != WS_NONE)
        {
          const WsThread *th = ws_trace_get_thread (trace, seg->thread);

          for (guint k = ws_trace_thread_lower_bound (trace, seg->thread, seg->start); k < th->n_events; k++)
            {
              const WsEvent *e = ws_trace_get_event (trace, th->events[k]);

              if (e->time >= seg->end)
                break;
              if (e->kind == WS_EVENT_RUNNING)
                ws_event_set_add (set, th->events[k]);
            }
        }
    }
  return set;
}

/**
 * ws_aoi_scope_symptom_graph:
 * @critical_path_only: only the events of the wait graph that are also on
 *   the critical path, the more aggressive reduction StackMine §IV
 *   mentions (always a subset of the wait graph's events)
 * @classifier: (nullable): for the wake kinds; %NULL = the default
 * @cancellable: (nullable): for the wait graph build
 *
 * Returns: (transfer full): the events of the symptom's wait graph (or of
 *   its critical path), or %NULL with @error set
 */
WsEventSet *
ws_aoi_scope_symptom_graph (WsTrace            *trace,
                            const WsSymptom    *symptom,
                            gboolean            critical_path_only,
                            WsFrameClassifier  *classifier,
                            GCancellable       *cancellable,
                            GError            **error)
{
  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (symptom != NULL, NULL);

  {
    g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, symptom, classifier, cancellable, error);
    g_autoptr(WsCriticalPath) path = NULL;
    WsEventSet *set;

    if (graph == NULL)
      return NULL;
    set = ws_aoi_scope_wait_graph (graph);
    if (!critical_path_only)
      return set;

    /* StackMine's reduction keeps the critical paths *of the wait graph*:
     * the path also passes through waits outside it (one that began before
     * t0 and only spends its ready latency inside the window), which must
     * not widen the scope. */
    if ((path = ws_critical_path_build (trace, symptom, classifier, error)) == NULL)
      {
        ws_event_set_free (set);
        return NULL;
      }
    {
      g_autoptr(WsEventSet) on_path = critical_path_events (trace, path);

      ws_event_set_intersect (set, on_path);
      return set;
    }
  }
}

/* ------------------------------------------------------------------ */
/* Content filters                                                      */

typedef struct {
  GArray *frame_bits;  /* frame id -> guint32: bit r = regex r matches; bit 31 = computed */
  GArray *stack_state; /* stack id -> guint8: 0 unknown, 1 in, 2 out */
} TableCache;

struct _WsAoi
{
  WsAoiStacks  stacks;
  GPtrArray   *must;       /* GRegex */
  GPtrArray   *must_not;   /* GRegex */
  GHashTable  *caches;     /* WsStackTable* (ref) -> TableCache */
  GMutex       lock;
};

#define MAX_REGEXES 31

static void
table_cache_free (gpointer data)
{
  TableCache *c = data;

  g_array_unref (c->frame_bits);
  g_array_unref (c->stack_state);
  g_free (c);
}

/**
 * ws_aoi_new:
 *
 * Returns: (transfer full): a filter keeping every stack of the kind
 */
WsAoi *
ws_aoi_new (WsAoiStacks stacks)
{
  WsAoi *self = g_new0 (WsAoi, 1);

  self->stacks = stacks;
  self->must = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
  self->must_not = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
  self->caches = g_hash_table_new_full (NULL, NULL, g_object_unref, table_cache_free);
  g_mutex_init (&self->lock);
  return self;
}

void
ws_aoi_free (WsAoi *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->must);
  g_ptr_array_unref (self->must_not);
  g_hash_table_unref (self->caches);
  g_mutex_clear (&self->lock);
  g_free (self);
}

WsAoiStacks
ws_aoi_get_stacks (WsAoi *self)
{
  g_return_val_if_fail (self != NULL, WS_AOI_WAITING);
  return self->stacks;
}

static gboolean
add_regex (WsAoi       *self,
           GPtrArray   *list,
           const char  *regex,
           GError     **error)
{
  GRegex *re;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (regex != NULL, FALSE);

  if (self->must->len + self->must_not->len >= MAX_REGEXES)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("At most %d stack filters can be combined"), MAX_REGEXES);
      return FALSE;
    }
  if ((re = g_regex_new (regex, G_REGEX_OPTIMIZE, 0, error)) == NULL)
    return FALSE;
  g_ptr_array_add (list, re);
  g_hash_table_remove_all (self->caches);
  return TRUE;
}

/**
 * ws_aoi_add_must:
 * @regex: a Perl regular expression, unanchored, matched against each
 *   frame's "function (module)"
 *
 * Keeps only stacks with at least one frame matching @regex (all "must"
 * expressions must each be matched).
 *
 * Returns: %FALSE with @error (G_REGEX_ERROR) for a bad expression, or
 *   WS_ERROR_INVALID past 31 expressions
 */
gboolean
ws_aoi_add_must (WsAoi       *self,
                 const char  *regex,
                 GError     **error)
{
  return add_regex (self, self->must, regex, error);
}

/**
 * ws_aoi_add_must_not:
 *
 * Drops stacks with a frame matching @regex.
 */
gboolean
ws_aoi_add_must_not (WsAoi       *self,
                     const char  *regex,
                     GError     **error)
{
  return add_regex (self, self->must_not, regex, error);
}

static guint32
frame_bits (WsAoi        *self,
            TableCache   *cache,
            WsStackTable *table,
            WsFrameId     f)
{
  guint32 bits;

  if (f >= cache->frame_bits->len)
    g_array_set_size (cache->frame_bits, MAX (f + 1, cache->frame_bits->len * 2));
  bits = g_array_index (cache->frame_bits, guint32, f);
  if (bits == 0)
    {
      g_autofree char *text = ws_stack_table_format_frame (table, f);
      guint r = 0;

      bits = 1u << 31;
      for (guint i = 0; i < self->must->len; i++, r++)
        if (g_regex_match (g_ptr_array_index (self->must, i), text, 0, NULL))
          bits |= 1u << r;
      for (guint i = 0; i < self->must_not->len; i++, r++)
        if (g_regex_match (g_ptr_array_index (self->must_not, i), text, 0, NULL))
          bits |= 1u << r;
      g_array_index (cache->frame_bits, guint32, f) = bits;
    }
  return bits;
}

/**
 * ws_aoi_stack_matches:
 *
 * Returns: whether @stack passes the content filters (the empty stack
 *   never does: it holds no pattern)
 */
gboolean
ws_aoi_stack_matches (WsAoi        *self,
                      WsStackTable *table,
                      WsStackId     stack)
{
  g_autoptr(GMutexLocker) locker = NULL;
  TableCache *cache;
  const WsFrameId *frames;
  guint n, n_must;
  guint32 seen = 0, must_mask, must_not_mask;
  guint8 state;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (WS_IS_STACK_TABLE (table), FALSE);

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  n_must = self->must->len;
  if (n_must == 0 && self->must_not->len == 0)
    return TRUE;

  locker = g_mutex_locker_new (&self->lock);
  cache = g_hash_table_lookup (self->caches, table);
  if (cache == NULL)
    {
      cache = g_new0 (TableCache, 1);
      cache->frame_bits = g_array_new (FALSE, TRUE, sizeof (guint32));
      cache->stack_state = g_array_new (FALSE, TRUE, sizeof (guint8));
      g_hash_table_insert (self->caches, g_object_ref (table), cache);
    }
  if (stack >= cache->stack_state->len)
    g_array_set_size (cache->stack_state, MAX (stack + 1, cache->stack_state->len * 2));
  state = g_array_index (cache->stack_state, guint8, stack);
  if (state != 0)
    return state == 1;

  must_mask = (1u << n_must) - 1;
  must_not_mask = ((1u << (n_must + self->must_not->len)) - 1) & ~must_mask;
  frames = ws_stack_table_get_stack (table, stack, &n);
  for (guint i = 0; i < n; i++)
    seen |= frame_bits (self, cache, table, frames[i]);

  state = (seen & must_mask) == must_mask && (seen & must_not_mask) == 0 ? 1 : 2;
  g_array_index (cache->stack_state, guint8, stack) = state;
  return state == 1;
}

/**
 * ws_aoi_event_matches:
 *
 * Returns: whether event @event of @trace is of the filter's kind (a wait,
 *   or a running sample) and its stack passes the content filters
 */
gboolean
ws_aoi_event_matches (WsAoi   *self,
                      WsTrace *trace,
                      guint    event)
{
  const WsEvent *e;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  e = ws_trace_get_event (trace, event);
  if (self->stacks == WS_AOI_WAITING)
    {
      if (e->kind != WS_EVENT_WAIT)
        return FALSE;
    }
  else if (e->kind != WS_EVENT_RUNNING || (e->flags & WS_EVENT_FLAG_SPAN))
    return FALSE;

  return ws_aoi_stack_matches (self, ws_trace_get_stack_table (trace), e->stack);
}

/**
 * ws_aoi_extract:
 * @scope: (nullable): the events to consider; %NULL for the whole trace
 * @db: the mining input to add to (its table may differ from the trace's:
 *   stacks are remapped)
 * @stream: the trace stream of @db the events belong to
 *
 * Adds every event of @scope that passes the filter to @db, with its cost
 * (wait time, or sample period).
 *
 * Returns: the number of events added
 */
guint
ws_aoi_extract (WsAoi            *self,
                WsTrace          *trace,
                const WsEventSet *scope,
                WsStackDb        *db,
                guint             stream)
{
  WsStackTable *table;
  guint n, added = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (WS_IS_STACK_DB (db), 0);
  g_return_val_if_fail (scope == NULL || ws_event_set_get_n_events (scope) == ws_trace_get_n_events (trace), 0);

  table = ws_trace_get_stack_table (trace);
  n = ws_trace_get_n_events (trace);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e;

      if (scope != NULL && !ws_event_set_contains (scope, i))
        continue;
      if (!ws_aoi_event_matches (self, trace, i))
        continue;
      e = ws_trace_get_event (trace, i);
      ws_stack_db_add_from (db, stream, table, e->stack, MAX (ws_event_duration (e), 0));
      added++;
    }
  return added;
}

/**
 * ws_aoi_count_left_out:
 * @scope: the events a scope kept
 * @only: (nullable): the events to consider; %NULL for all
 * @n_waits: (inout): adds the waits of @only that @scope left out
 * @time: (inout): adds their summed duration (ns)
 */
void
ws_aoi_count_left_out (WsTrace          *trace,
                       const WsEventSet *scope,
                       const WsEventSet *only,
                       guint64          *n_waits,
                       gint64           *time)
{
  g_return_if_fail (WS_IS_TRACE (trace));

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind == WS_EVENT_WAIT && !ws_event_set_contains (scope, i) &&
          (only == NULL || ws_event_set_contains (only, i)))
        {
          (*n_waits)++;
          *time += ws_event_duration (e);
        }
    }
}

/**
 * ws_aoi_extract_instances:
 *
 * Treats every instance of @scenario as a trace stream of its own (a
 * symptom): adds a stream per instance, named "TRACE SCENARIO #N", whose
 * delay is the instance's duration, and extracts the instance's window of
 * its thread into it.
 *
 * Returns: the number of instances (streams added)
 */
guint
ws_aoi_extract_instances (WsAoi      *self,
                          WsTrace    *trace,
                          const char *scenario,
                          WsStackDb  *db)
{
  guint32 id;
  guint added = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (scenario != NULL, 0);

  id = ws_trace_lookup_string (trace, scenario);
  if (id == WS_NONE)
    return 0;

  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      g_autoptr(WsEventSet) scope = NULL;
      g_autofree char *name = NULL;
      guint stream;

      if (inst->scenario != id)
        continue;
      name = g_strdup_printf ("%s %s #%u", ws_trace_get_name (trace), scenario, added + 1);
      stream = ws_stack_db_add_stream (db, name);
      ws_stack_db_set_stream_delay (db, stream, inst->t1 - inst->t0, inst->t1 - inst->t0);
      scope = ws_aoi_scope_window (trace, inst->thread, inst->t0, inst->t1);
      ws_aoi_extract (self, trace, scope, db, stream);
      added++;
    }
  return added;
}
