/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsReadyTree: the patent's ready tree, built breadth first from one wait.
 *
 * A child of wait w is a wait of w's readier P that overlaps w before P
 * readied it: P could not run the code that readied w while it was itself
 * waiting, so those waits delayed w.  Waits of P that ended before the root
 * wait began cannot have delayed the symptom and are left out ("following
 * ancestor waits which ended after the long wait began").
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-false-run.h"
#include "ws-ready-tree.h"

struct _WsReadyTree
{
  GObject   parent_instance;

  WsTrace  *trace;
  GArray   *nodes;     /* WsReadyNode */
  GArray   *leaves;    /* guint32 node indices, depth-first order */
  guint     max_depth;
  GHashTable *anomalous; /* node index + 1 → set: marked by the anomaly models */
};

G_DEFINE_FINAL_TYPE (WsReadyTree, ws_ready_tree, G_TYPE_OBJECT)

static void
ws_ready_tree_finalize (GObject *object)
{
  WsReadyTree *self = WS_READY_TREE (object);

  g_clear_object (&self->trace);
  g_array_unref (self->nodes);
  g_array_unref (self->leaves);
  g_clear_pointer (&self->anomalous, g_hash_table_unref);

  G_OBJECT_CLASS (ws_ready_tree_parent_class)->finalize (object);
}

static void
ws_ready_tree_class_init (WsReadyTreeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_ready_tree_finalize;
}

static void
ws_ready_tree_init (WsReadyTree *self)
{
  self->nodes = g_array_new (FALSE, FALSE, sizeof (WsReadyNode));
  self->leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
ws_ready_tree_options_init (WsReadyTreeOptions *options)
{
  g_return_if_fail (options != NULL);

  options->lock_only = FALSE;
  options->max_depth = WS_READY_TREE_DEFAULT_MAX_DEPTH;
  options->max_nodes = WS_READY_TREE_DEFAULT_MAX_NODES;
  options->classifier = NULL;
}

static inline WsTime
event_end (const WsEvent *e)
{
  return e->time + MAX (ws_event_duration (e), 0);
}

typedef struct {
  WsTrace           *trace;
  const WsEvent     *events;
  WsFrameClassifier *classifier;
  const WsFalseRuns *false_runs;
} Builder;

/* WAIT events of @thread with time < @before and end > @after, in time
 * order.  A chain of timed-out tries of one lock (ws_false_runs_get()) is
 * one wait, given by its first try and judged by its whole span. */
static void
find_overlapping_waits (Builder *b,
                        guint    thread,
                        WsTime   after,
                        WsTime   before,
                        GArray  *out)
{
  const WsThread *t = ws_trace_get_thread (b->trace, thread);
  const WsTime *pm = ws_trace_thread_end_prefix_max (b->trace, thread, WS_END_INDEX_WAITS);
  guint k = ws_trace_thread_lower_bound (b->trace, thread, before);
  guint first = out->len;

  while (k > 0 && pm[k - 1] > after)
    {
      guint32 i = t->events[--k];
      const WsEvent *e = &b->events[i];

      const WsWaitChain *chain;

      if (e->kind != WS_EVENT_WAIT)
        continue;
      if ((chain = ws_false_runs_chain_of (b->false_runs, i)) != NULL)
        {
          gboolean seen = FALSE;

          for (guint j = first; j < out->len && !seen; j++)
            seen = g_array_index (out, guint32, j) == chain->first;
          if (!seen && chain->start < before && chain->end > after)
            g_array_append_val (out, chain->first);
          continue;
        }
      if (e->time < before && event_end (e) > after)
        g_array_append_val (out, i);
    }

  /* Collected backwards: reverse into time order. */
  for (guint lo = first, hi = out->len; hi > lo + 1; lo++, hi--)
    {
      guint32 tmp = g_array_index (out, guint32, lo);
      g_array_index (out, guint32, lo) = g_array_index (out, guint32, hi - 1);
      g_array_index (out, guint32, hi - 1) = tmp;
    }
}

static WsReadyNode
make_node (Builder *b,
           guint    event,
           guint32  parent,
           guint    depth)
{
  const WsWaitChain *chain = ws_false_runs_chain_of (b->false_runs, event);
  guint end_piece = chain != NULL ? chain->last : event;
  const WsEvent *e = &b->events[chain != NULL ? (event = chain->first) : event];
  WsReadyNode node = {
    .event = event,
    .thread = e->thread,
    .time = e->time,
    .duration = MAX (ws_event_duration (e), 0),
    .stack = e->stack,
    .unwait_event = b->events[end_piece].peer,
    .unwait_stack = b->events[end_piece].peer != WS_NONE ? b->events[b->events[end_piece].peer].stack : WS_STACK_EMPTY,
    .readier_thread = WS_NONE,
    .parent = parent,
    .first_child = WS_NONE,
    .n_children = 0,
    .depth = depth,
    .stop = WS_READY_STOP_NONE,
  };
  guint readier;

  /* A chain of timed-out tries is one wait, ended by its last try. */
  if (chain != NULL)
    node.duration = chain->end - chain->start;
  node.wake = ws_frame_classifier_classify_wake (b->classifier, b->trace, end_piece, &readier);
  node.readier_thread = readier;
  node.lock_related = chain != NULL || ws_frame_classifier_is_lock_wait (b->classifier, b->trace, event);
  return node;
}

static void
collect_leaves (WsReadyTree *self)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = 0;

  if (self->nodes->len == 0)
    return;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 i = g_array_index (stack, guint32, stack->len - 1);
      const WsReadyNode *n = &g_array_index (self->nodes, WsReadyNode, i);

      g_array_set_size (stack, stack->len - 1);
      if (n->n_children == 0)
        {
          g_array_append_val (self->leaves, i);
          continue;
        }
      /* Push in reverse so that the first child is visited first. */
      for (guint c = n->n_children; c > 0; c--)
        {
          guint32 child = n->first_child + c - 1;
          g_array_append_val (stack, child);
        }
    }
}

/**
 * ws_ready_tree_build:
 *
 * See the header for the expansion rule and the stop conditions.
 */
/* Why @node stays a leaf whatever its readier did, or NONE to expand it. */
static WsReadyStop
stop_before_expanding (const WsReadyNode        *node,
                       const WsReadyTreeOptions *options)
{
  if (options->lock_only && node->depth > 0 && !node->lock_related)
    return WS_READY_STOP_NOT_LOCK_RELATED;
  switch (node->wake)
    {
    case WS_WAKE_THREAD:
      break;
    case WS_WAKE_TIMER:
    case WS_WAKE_HEARTBEAT:
      return WS_READY_STOP_FALSE_RUN;
    case WS_WAKE_INTERRUPT:
      return WS_READY_STOP_HARDWARE;
    case WS_WAKE_UNKNOWN:
    default:
      return WS_READY_STOP_UNKNOWN_READIER;
    }
  if (node->depth >= options->max_depth)
    return WS_READY_STOP_DEPTH_LIMIT;
  return WS_READY_STOP_NONE;
}

WsReadyTree *
ws_ready_tree_build (WsTrace                  *trace,
                     guint                     root_wait,
                     const WsReadyTreeOptions *options,
                     GError                  **error)
{
  return ws_ready_tree_build_full (trace, root_wait, options, NULL, NULL, NULL, error);
}

/**
 * ws_ready_tree_build_full:
 * @cancellable: (nullable): checked as the tree grows
 * @progress: (nullable): told of the share of the nodes found so far that
 *   have been expanded (between 0 and 0.95 of the run)
 *
 * As ws_ready_tree_build(), cancellable: %NULL with %G_IO_ERROR_CANCELLED
 * once @cancellable is cancelled.
 */
WsReadyTree *
ws_ready_tree_build_full (WsTrace                  *trace,
                          guint                     root_wait,
                          const WsReadyTreeOptions *options,
                          GCancellable             *cancellable,
                          WsProgressFunc            progress,
                          gpointer                  progress_data,
                          GError                  **error)
{
  g_autoptr(WsReadyTree) self = NULL;
  g_autoptr(GArray) children = NULL;
  WsReadyTreeOptions defaults;
  WsProgressLoop loop;
  WsReadyNode root;
  WsTime root_time;
  Builder b;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (options == NULL)
    {
      ws_ready_tree_options_init (&defaults);
      options = &defaults;
    }

  if (root_wait >= ws_trace_get_n_events (trace) ||
      ws_trace_get_event (trace, root_wait)->kind != WS_EVENT_WAIT)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("Event %u is not a wait: a ready tree starts from a wait"), root_wait);
      return NULL;
    }

  self = g_object_new (WS_TYPE_READY_TREE, NULL);
  self->trace = g_object_ref (trace);

  b.trace = trace;
  b.events = ws_trace_get_events (trace);
  b.classifier = options->classifier ? options->classifier : ws_frame_classifier_get_default ();
  b.false_runs = ws_false_runs_get (trace, b.classifier);

  root = make_node (&b, root_wait, WS_NONE, 0);
  root_time = root.time;
  g_array_append_val (self->nodes, root);

  children = g_array_new (FALSE, FALSE, sizeof (guint32));
  ws_progress_loop_init (&loop, cancellable, progress, progress_data, 0.0, 0.95, _("Building the ready tree"));
  for (guint i = 0; i < self->nodes->len; i++)
    {
      WsReadyNode *node = &g_array_index (self->nodes, WsReadyNode, i);
      WsTime lo;

      if (!ws_progress_loop_step (&loop, (double) i / self->nodes->len, error))
        return NULL;
      self->max_depth = MAX (self->max_depth, node->depth);

      node->stop = stop_before_expanding (node, options);
      if (node->stop != WS_READY_STOP_NONE)
        continue;

      lo = MAX (node->time, root_time);
      g_array_set_size (children, 0);
      find_overlapping_waits (&b, node->readier_thread, lo, node->time + node->duration, children);

      if (children->len == 0)
        {
          const WsThread *readier = ws_trace_get_thread (trace, node->readier_thread);
          node->stop = readier->first_seen > lo ? WS_READY_STOP_TRACE_START : WS_READY_STOP_READIER_RAN;
          continue;
        }
      if (self->nodes->len + children->len > options->max_nodes)
        {
          node->stop = WS_READY_STOP_NODE_LIMIT;
          continue;
        }

      node->first_child = self->nodes->len;
      node->n_children = children->len;
      {
        guint depth = node->depth + 1;   /* @node is invalid once the array grows */

        for (guint c = 0; c < children->len; c++)
          {
            WsReadyNode child = make_node (&b, g_array_index (children, guint32, c), i, depth);
            g_array_append_val (self->nodes, child);
          }
      }
    }

  collect_leaves (self);
  return g_steal_pointer (&self);
}

WsReadyTree *
ws_ready_tree_build_for_symptom (WsTrace                  *trace,
                                 const WsSymptom          *symptom,
                                 const WsReadyTreeOptions *options,
                                 GError                  **error)
{
  guint root = ws_ready_tree_find_root (trace, symptom, options, error);

  if (root == WS_NONE)
    return NULL;
  return ws_ready_tree_build (trace, root, options, error);
}

/**
 * ws_ready_tree_find_root:
 *
 * The wait ws_ready_tree_build_for_symptom() starts from.
 *
 * Returns: a WAIT event index, or %WS_NONE with WS_ERROR_INVALID
 */
guint
ws_ready_tree_find_root (WsTrace                  *trace,
                         const WsSymptom          *symptom,
                         const WsReadyTreeOptions *options,
                         GError                  **error)
{
  WsFrameClassifier *lock_classifier = NULL;
  guint root;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_NONE);
  g_return_val_if_fail (symptom != NULL, WS_NONE);

  if (symptom->thread >= ws_trace_get_n_threads (trace))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No thread with index %u in the trace"), symptom->thread);
      return WS_NONE;
    }

  if (options != NULL && options->lock_only)
    lock_classifier = options->classifier ? options->classifier : ws_frame_classifier_get_default ();

  root = ws_symptom_longest_wait (trace, symptom, lock_classifier);
  if (root == WS_NONE)
    {
      const WsThread *t = ws_trace_get_thread (trace, symptom->thread);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   lock_classifier ? _("Thread %d (%s) has no lock-related wait in the window")
                                   : _("Thread %d (%s) has no wait in the window"),
                   t->tid, t->name);
      return WS_NONE;
    }
  return root;
}

WsTrace *
ws_ready_tree_get_trace (WsReadyTree *self)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), NULL);
  return self->trace;
}

guint
ws_ready_tree_get_n_nodes (WsReadyTree *self)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), 0);
  return self->nodes->len;
}

const WsReadyNode *
ws_ready_tree_get_node (WsReadyTree *self,
                        guint        node)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  return &g_array_index (self->nodes, WsReadyNode, node);
}

const WsReadyNode *
ws_ready_tree_get_nodes (WsReadyTree *self)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), NULL);
  return (const WsReadyNode *) (gconstpointer) self->nodes->data;
}

/* The deepest node's depth (0 for a lone root). */
guint
ws_ready_tree_get_max_depth (WsReadyTree *self)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), 0);
  return self->max_depth;
}

guint
ws_ready_tree_get_n_chains (WsReadyTree *self)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), 0);
  return self->leaves->len;
}

guint
ws_ready_tree_get_chain_leaf (WsReadyTree *self,
                              guint        chain)
{
  g_return_val_if_fail (WS_IS_READY_TREE (self), WS_NONE);
  g_return_val_if_fail (chain < self->leaves->len, WS_NONE);
  return g_array_index (self->leaves, guint32, chain);
}

guint32 *
ws_ready_tree_get_chain (WsReadyTree *self,
                         guint        chain,
                         guint       *n_nodes)
{
  guint32 leaf, *result;
  guint n;

  g_return_val_if_fail (WS_IS_READY_TREE (self), NULL);
  g_return_val_if_fail (chain < self->leaves->len, NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);

  leaf = g_array_index (self->leaves, guint32, chain);
  n = g_array_index (self->nodes, WsReadyNode, leaf).depth + 1;
  result = g_new (guint32, n);
  for (guint32 i = leaf, k = n; i != WS_NONE; i = g_array_index (self->nodes, WsReadyNode, i).parent)
    result[--k] = i;

  *n_nodes = n;
  return result;
}

const char *
ws_ready_stop_to_string (WsReadyStop stop)
{
  static const char * const names[WS_N_READY_STOPS] = {
    "none", "readier-ran", "not-lock-related", "depth-limit", "trace-start",
    "false-run", "hardware", "unknown-readier", "node-limit",
  };

  g_return_val_if_fail (stop < WS_N_READY_STOPS, NULL);
  return names[stop];
}

void
ws_ready_tree_get_chain_metrics (WsReadyTree    *tree,
                                 guint           chain,
                                 WsChainMetrics *metrics)
{
  g_autofree guint32 *nodes = NULL;
  g_autofree WsTime *waits = NULL;
  guint n = 0;

  g_return_if_fail (WS_IS_READY_TREE (tree));
  g_return_if_fail (chain < ws_ready_tree_get_n_chains (tree));
  g_return_if_fail (metrics != NULL);

  nodes = ws_ready_tree_get_chain (tree, chain, &n);
  waits = g_new (WsTime, n);
  for (guint i = 0; i < n; i++)
    waits[i] = ws_ready_tree_get_node (tree, nodes[i])->duration;
  ws_chain_metrics_compute (waits, n, metrics);
  for (guint i = 0; i < n; i++)
    metrics->n_anomalous += ws_ready_tree_is_anomalous (tree, nodes[i]);
}

/**
 * ws_ready_tree_mark_anomalous:
 * @anomalous: whether node @node's wait is anomalous
 *
 * Marks a node for %WS_CHAIN_METRIC_ANOMALOUS and for display; the anomaly
 * detector (src/core/anomaly) decides, the tree only remembers.
 */
void
ws_ready_tree_mark_anomalous (WsReadyTree *tree,
                              guint        node,
                              gboolean     anomalous)
{
  g_return_if_fail (WS_IS_READY_TREE (tree));

  if (tree->anomalous == NULL)
    tree->anomalous = g_hash_table_new (NULL, NULL);
  if (anomalous)
    g_hash_table_add (tree->anomalous, GUINT_TO_POINTER (node + 1));
  else
    g_hash_table_remove (tree->anomalous, GUINT_TO_POINTER (node + 1));
}

gboolean
ws_ready_tree_is_anomalous (WsReadyTree *tree,
                            guint        node)
{
  g_return_val_if_fail (WS_IS_READY_TREE (tree), FALSE);
  return tree->anomalous != NULL && g_hash_table_contains (tree->anomalous, GUINT_TO_POINTER (node + 1));
}

