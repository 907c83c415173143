/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsWaitGraph: StackMine's Fig. 2, to the letter, on the indexed trace.
 *
 * The one non-obvious part is line 10-11, "every event of the readier that
 * ends inside the wait": a thread's events are sorted by start time, not
 * end time, so for each thread we reach we use the prefix maximum of its
 * events' end times (built once per trace and thread, not per graph:
 * ws_trace_thread_end_prefix_max()).  Walking back from the last event
 * starting before the wait's end, we may stop as soon as that prefix
 * maximum falls before the wait's start: nothing earlier can end inside
 * it.  That keeps the cost proportional to the events looked at, even
 * next to a thread that slept through half the trace.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-false-run.h"
#include "ws-wait-graph.h"

struct _WsWaitGraph
{
  GObject      parent_instance;

  WsTrace     *trace;
  WsSymptom    symptom;
  GArray      *nodes;        /* WsWaitNode */
  GArray      *edges;        /* WsWaitEdge */
  guint32     *first_edge;   /* node -> first edge index; n_nodes + 1 entries */
  GHashTable  *node_of_event;
  guint        n_generations;
  guint        n_threads;
};

G_DEFINE_FINAL_TYPE (WsWaitGraph, ws_wait_graph, G_TYPE_OBJECT)

static void
ws_wait_graph_finalize (GObject *object)
{
  WsWaitGraph *self = WS_WAIT_GRAPH (object);

  g_clear_object (&self->trace);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_free (self->first_edge);
  g_hash_table_unref (self->node_of_event);

  G_OBJECT_CLASS (ws_wait_graph_parent_class)->finalize (object);
}

static void
ws_wait_graph_class_init (WsWaitGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_wait_graph_finalize;
}

static void
ws_wait_graph_init (WsWaitGraph *self)
{
  self->nodes = g_array_new (FALSE, FALSE, sizeof (WsWaitNode));
  self->edges = g_array_new (FALSE, FALSE, sizeof (WsWaitEdge));
  self->node_of_event = g_hash_table_new (g_direct_hash, g_direct_equal);
}

static inline WsTime
event_end (const WsEvent *e)
{
  return e->time + MAX (ws_event_duration (e), 0);
}

static inline gboolean
is_vertex_kind (const WsEvent *e)
{
  return e->kind == WS_EVENT_RUNNING || e->kind == WS_EVENT_WAIT;
}

typedef struct {
  WsWaitGraph       *self;
  WsFrameClassifier *classifier;
  const WsEvent     *events;
  const WsFalseRuns *false_runs;
  GHashTable        *threads_seen;
} Builder;

static guint
add_node (Builder          *b,
          const WsWaitNode *node)
{
  WsWaitGraph *self = b->self;

  g_array_append_vals (self->nodes, node, 1);
  if (node->event != WS_NONE)
    g_hash_table_insert (self->node_of_event, GUINT_TO_POINTER (node->event),
                         GUINT_TO_POINTER (self->nodes->len));
  if (node->thread != WS_NONE)
    g_hash_table_add (b->threads_seen, GUINT_TO_POINTER (node->thread));
  self->n_generations = MAX (self->n_generations, node->generation + 1);
  return self->nodes->len - 1;
}

/* Adds the node of @event; with @chain (whose first piece @event is), the
 * node of the whole chain, ended by its last piece's wake-up. */
static guint
add_event_node (Builder           *b,
                guint              event,
                const WsWaitChain *chain,
                guint              generation,
                guint16            extra_flags)
{
  WsWaitGraph *self = b->self;
  const WsEvent *e = &b->events[event];
  guint end_piece = chain != NULL ? chain->last : event;
  gpointer found;
  WsWaitNode node = {
    .event = event,
    .thread = e->thread,
    .time = e->time,
    .duration = MAX (ws_event_duration (e), 0),
    .stack = e->stack,
    .unwait_event = WS_NONE,
    .unwait_stack = WS_STACK_EMPTY,
    .readier_thread = WS_NONE,
    .generation = generation,
    .wake = WS_WAKE_THREAD,
    .flags = extra_flags,
  };

  if ((found = g_hash_table_lookup (self->node_of_event, GUINT_TO_POINTER (event))) != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  switch (e->kind)
    {
    case WS_EVENT_RUNNING:
      node.kind = WS_WAIT_NODE_RUN;
      if (!(e->flags & WS_EVENT_FLAG_SPAN))
        node.flags |= WS_WAIT_NODE_FLAG_SAMPLE;
      break;

    case WS_EVENT_WAIT:
      node.kind = WS_WAIT_NODE_WAIT;
      node.wake = ws_frame_classifier_classify_wake (b->classifier, self->trace, end_piece, NULL);
      if (b->events[end_piece].peer != WS_NONE)
        {
          node.unwait_event = b->events[end_piece].peer;
          node.unwait_stack = b->events[node.unwait_event].stack;
        }
      ws_trace_wait_readier (self->trace, end_piece, &node.readier_thread);
      if (chain != NULL)
        {
          node.duration = chain->end - chain->start;
          node.flags |= WS_WAIT_NODE_FLAG_JOINED | WS_WAIT_NODE_FLAG_LOCK;
        }
      else if (ws_frame_classifier_is_lock_wait (b->classifier, self->trace, event))
        node.flags |= WS_WAIT_NODE_FLAG_LOCK;
      break;

    case WS_EVENT_HW_SERVICE:
      node.kind = WS_WAIT_NODE_HW_SERVICE;
      node.duration = 0;
      break;

    default:
      g_assert_not_reached ();
    }

  return add_node (b, &node);
}

static void
add_edge (WsWaitGraph *self,
          guint        from,
          guint        to)
{
  WsWaitEdge edge = { from, to };
  g_array_append_val (self->edges, edge);
}

/* Fig. 2 lines 8-13 for WAIT node @index. */
static void
expand_wait (Builder *b,
             guint    index)
{
  WsWaitGraph *self = b->self;
  WsWaitNode node = g_array_index (self->nodes, WsWaitNode, index);
  WsTime a = node.time, z = node.time + node.duration;
  const WsWaitChain *chain = (node.flags & WS_WAIT_NODE_FLAG_JOINED)
                             ? ws_false_runs_chain_of (b->false_runs, node.event) : NULL;
  guint end_piece = chain != NULL ? chain->last : node.event;
  const WsThread *readier;
  const WsTime *pm;
  guint readier_thread;
  guint k;

  if (node.unwait_event == WS_NONE)
    {
      WsWaitNode unknown = {
        .event = WS_NONE,
        .thread = WS_NONE,
        .time = z,
        .duration = 0,
        .stack = WS_STACK_EMPTY,
        .unwait_event = WS_NONE,
        .unwait_stack = WS_STACK_EMPTY,
        .readier_thread = WS_NONE,
        .generation = node.generation + 1,
        .kind = WS_WAIT_NODE_UNKNOWN_READIER,
        .wake = WS_WAKE_UNKNOWN,
      };
      guint to = add_node (b, &unknown);
      add_edge (self, index, to);
      return;
    }

  if (ws_trace_wait_readier (self->trace, end_piece, &readier_thread) != WS_READIER_THREAD)
    {
      guint to = add_event_node (b, node.unwait_event, NULL, node.generation + 1, 0);
      add_edge (self, index, to);
      return;
    }

  /* Events of the readier whose end lies in [a, z], in time order. */
  readier = ws_trace_get_thread (self->trace, readier_thread);
  pm = ws_trace_thread_end_prefix_max (self->trace, readier_thread, WS_END_INDEX_ALL);
  k = ws_trace_thread_lower_bound (self->trace, readier_thread, z + 1);
  {
    g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));

    while (k > 0 && pm[k - 1] >= a)
      {
        guint32 i = readier->events[--k];
        WsTime end = event_end (&b->events[i]);
        const WsWaitChain *c;

        if (!is_vertex_kind (&b->events[i]) || end < a || end > z)
          continue;
        /* A chain ends where its last piece does: only that piece brings
         * it in, as one wait. */
        if ((c = ws_false_runs_chain_of (b->false_runs, i)) != NULL)
          {
            if (i != c->last)
              continue;
            i = c->first;
          }
        g_array_append_val (found, i);
      }
    for (guint j = found->len; j > 0; j--)
      {
        guint32 i = g_array_index (found, guint32, j - 1);
        guint to = add_event_node (b, i, ws_false_runs_chain_of (b->false_runs, i), node.generation + 1, 0);
        add_edge (self, index, to);
      }
  }
}

/**
 * ws_wait_graph_build:
 *
 * See the header for the construction.
 */
WsWaitGraph *
ws_wait_graph_build (WsTrace           *trace,
                     const WsSymptom   *symptom,
                     WsFrameClassifier *classifier,
                     GCancellable      *cancellable,
                     GError           **error)
{
  g_autoptr(WsWaitGraph) self = NULL;
  g_autoptr(GHashTable) threads_seen = NULL;
  const WsThread *thread;
  Builder b;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (symptom != NULL, NULL);
  g_return_val_if_fail (classifier == NULL || WS_IS_FRAME_CLASSIFIER (classifier), NULL);

  if (symptom->thread >= ws_trace_get_n_threads (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No thread with index %u in the trace"), symptom->thread);
      return NULL;
    }
  if (symptom->t1 < symptom->t0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("The time window ends before it starts"));
      return NULL;
    }

  self = g_object_new (WS_TYPE_WAIT_GRAPH, NULL);
  self->trace = g_object_ref (trace);
  self->symptom = *symptom;

  threads_seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  b.self = self;
  b.classifier = classifier ? classifier : ws_frame_classifier_get_default ();
  b.events = ws_trace_get_events (trace);
  b.false_runs = ws_false_runs_get (trace, b.classifier);
  b.threads_seen = threads_seen;

  /* Lines 2-4: the symptom thread's events inside the window. */
  thread = ws_trace_get_thread (trace, symptom->thread);
  for (guint k = ws_trace_thread_lower_bound (trace, symptom->thread, symptom->t0);
       k < thread->n_events && b.events[thread->events[k]].time <= symptom->t1;
       k++)
    {
      guint i = thread->events[k];
      const WsWaitChain *chain = ws_false_runs_chain_of (b.false_runs, i);

      if (!is_vertex_kind (&b.events[i]) || event_end (&b.events[i]) > symptom->t1)
        continue;
      /* A chain inside the window is one wait, its first piece the node;
       * one the window cuts keeps its recorded pieces. */
      if (chain != NULL && chain->start >= symptom->t0 && chain->end <= symptom->t1)
        {
          if (i == chain->first)
            add_event_node (&b, i, chain, 0, WS_WAIT_NODE_FLAG_SYMPTOM);
          continue;
        }
      add_event_node (&b, i, NULL, 0, WS_WAIT_NODE_FLAG_SYMPTOM);
    }

  /* Lines 5-15: nodes are processed in the order they were added, which is
   * exactly "ΔV" generation after generation until V' = V. */
  for (guint i = 0; i < self->nodes->len; i++)
    {
      if ((i & 1023) == 1023 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (g_array_index (self->nodes, WsWaitNode, i).kind == WS_WAIT_NODE_WAIT)
        expand_wait (&b, i);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* Edges were appended while processing nodes in order: already grouped. */
  self->first_edge = g_new0 (guint32, self->nodes->len + 1);
  for (guint e = 0; e < self->edges->len; e++)
    self->first_edge[g_array_index (self->edges, WsWaitEdge, e).from + 1]++;
  for (guint n = 0; n < self->nodes->len; n++)
    self->first_edge[n + 1] += self->first_edge[n];

  self->n_threads = g_hash_table_size (threads_seen);

  return g_steal_pointer (&self);
}

WsTrace *
ws_wait_graph_get_trace (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  return self->trace;
}

const WsSymptom *
ws_wait_graph_get_symptom (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  return &self->symptom;
}

guint
ws_wait_graph_get_n_nodes (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), 0);
  return self->nodes->len;
}

const WsWaitNode *
ws_wait_graph_get_node (WsWaitGraph *self,
                        guint        node)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  return &g_array_index (self->nodes, WsWaitNode, node);
}

const WsWaitNode *
ws_wait_graph_get_nodes (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  return (const WsWaitNode *) (gconstpointer) self->nodes->data;
}

guint
ws_wait_graph_get_n_edges (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), 0);
  return self->edges->len;
}

const WsWaitEdge *
ws_wait_graph_get_edge (WsWaitGraph *self,
                        guint        edge)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  g_return_val_if_fail (edge < self->edges->len, NULL);
  return &g_array_index (self->edges, WsWaitEdge, edge);
}

const WsWaitEdge *
ws_wait_graph_get_edges (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  return (const WsWaitEdge *) (gconstpointer) self->edges->data;
}

/**
 * ws_wait_graph_get_out_edges:
 * @n_edges: (out): number of edges leaving @node
 *
 * Returns: (array length=n_edges) (transfer none): the edges leaving @node
 */
const WsWaitEdge *
ws_wait_graph_get_out_edges (WsWaitGraph *self,
                             guint        node,
                             guint       *n_edges)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  g_return_val_if_fail (n_edges != NULL, NULL);

  *n_edges = self->first_edge[node + 1] - self->first_edge[node];
  /* A graph without edges has no edge array to point into. */
  if (*n_edges == 0)
    return NULL;
  return &g_array_index (self->edges, WsWaitEdge, 0) + self->first_edge[node];
}

guint
ws_wait_graph_find_event (WsWaitGraph *self,
                          guint        event)
{
  gpointer found;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), WS_NONE);
  found = g_hash_table_lookup (self->node_of_event, GUINT_TO_POINTER (event));
  return found ? GPOINTER_TO_UINT (found) - 1 : WS_NONE;
}

guint
ws_wait_graph_get_n_generations (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), 0);
  return self->n_generations;
}

/* Distinct threads among the nodes (unknown-readier nodes excluded). */
guint
ws_wait_graph_get_n_threads (WsWaitGraph *self)
{
  g_return_val_if_fail (WS_IS_WAIT_GRAPH (self), 0);
  return self->n_threads;
}

const char *
ws_wait_node_kind_to_string (WsWaitNodeKind kind)
{
  switch (kind)
    {
    case WS_WAIT_NODE_RUN:             return "run";
    case WS_WAIT_NODE_WAIT:            return "wait";
    case WS_WAIT_NODE_HW_SERVICE:      return "hw-service";
    case WS_WAIT_NODE_UNKNOWN_READIER: return "unknown-readier";
    default:                           return NULL;
    }
}
