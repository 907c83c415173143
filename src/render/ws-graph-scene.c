/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The graph view draws one kind of thing, a WsGraphScene, whatever the
 * analysis behind it: translating a wait graph or a ready tree into shapes
 * and labels here keeps the renderer, the widget, the table and the
 * exporters in agreement about what a node is.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-cause-chain.h"
#include "ws-graph-scene.h"
#include "ws-time-format.h"
#include "ws-wake-words.h"

struct _WsGraphScene
{
  GObject           parent_instance;

  WsGraphSceneKind  kind;
  WsTrace          *trace;
  WsWaitGraph      *graph;
  WsReadyTree      *tree;
  WsChainMetric     metric;
  GArray           *nodes;        /* WsSceneNode */
  GArray           *edges;        /* WsSceneEdge */
  GArray           *chain;        /* guint: scene nodes on the anomalous chain */
  guint             chain_index;  /* ready tree chain, or WS_NONE */
  WsChainMetrics    chain_metrics;
  GHashTable       *node_of_event;
  WsGraphLayout    *layout;
};

G_DEFINE_FINAL_TYPE (WsGraphScene, ws_graph_scene, G_TYPE_OBJECT)

static void
ws_graph_scene_finalize (GObject *object)
{
  WsGraphScene *self = WS_GRAPH_SCENE (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->graph);
  g_clear_object (&self->tree);
  g_clear_object (&self->layout);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_array_unref (self->chain);
  g_hash_table_unref (self->node_of_event);

  G_OBJECT_CLASS (ws_graph_scene_parent_class)->finalize (object);
}

static void
ws_graph_scene_class_init (WsGraphSceneClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_graph_scene_finalize;
}

static void
ws_graph_scene_init (WsGraphScene *self)
{
  self->nodes = g_array_new (FALSE, TRUE, sizeof (WsSceneNode));
  self->edges = g_array_new (FALSE, TRUE, sizeof (WsSceneEdge));
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint));
  self->node_of_event = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->chain_index = WS_NONE;
}

/* ------------------------------------------------------------------ */
/* The frame a box shows                                                */

/* Plumbing every wait or wake-up goes through: showing it in a box says
 * nothing.  The side panel still lists the whole stack. */
static const char * const generic_exact[] = {
  "__schedule", "schedule", "schedule_idle", "schedule_timeout",
  "schedule_hrtimeout", "schedule_hrtimeout_range", "schedule_hrtimeout_range_clock",
  "schedule_preempt_disabled", "io_schedule", "io_schedule_timeout",
  "preempt_schedule", "preempt_schedule_common", "preempt_schedule_irq",
  "futex_wait_queue", "futex_wait_queue_me", "futex_do_wait", "__futex_wait",
  "futex_wait", "do_futex", "futex_wake", "do_syscall_64",
  "try_to_wake_up", "wake_up_q", "wake_up_process", "wake_up_state",
  "__wake_up", "__wake_up_common", "__wake_up_common_lock", "__wake_up_sync_key",
  "__wake_up_locked_key", "default_wake_function", "autoremove_wake_function",
  "ep_autoremove_wake_function", "woken_wake_function", "pollwake",
  "ttwu_do_activate", "sched_ttwu_pending", "[unknown]",
};

static const char * const generic_prefix[] = {
  "entry_SYSCALL", "__x64_sys_", "__ia32_sys_", "__se_sys_", "__do_sys_",
  "syscall_exit", "exit_to_user_mode",
};

static gboolean
is_generic_frame (const char *function)
{
  for (guint i = 0; i < G_N_ELEMENTS (generic_exact); i++)
    if (strcmp (function, generic_exact[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (generic_prefix); i++)
    if (g_str_has_prefix (function, generic_prefix[i]))
      return TRUE;
  return FALSE;
}

/**
 * ws_graph_scene_interesting_frame:
 *
 * Returns: the leaf-most frame of @stack that is not scheduler, syscall
 *   entry, futex or wake-up plumbing (nor `[unknown]`); if every frame is,
 *   the leaf-most known frame; %WS_NONE for an empty or unknown stack
 */
WsFrameId
ws_graph_scene_interesting_frame (WsStackTable *stacks,
                                  WsStackId     stack)
{
  const WsFrameId *frames;
  guint n;
  WsFrameId fallback = WS_NONE;

  g_return_val_if_fail (WS_IS_STACK_TABLE (stacks), WS_NONE);

  if (stack == WS_STACK_EMPTY)
    return WS_NONE;

  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint k = n; k > 0; k--)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[k - 1]);

      if (f->function == NULL)
        continue;
      if (!is_generic_frame (f->function))
        return frames[k - 1];
      if (fallback == WS_NONE && strcmp (f->function, "[unknown]") != 0)
        fallback = frames[k - 1];
    }
  return fallback;
}

/* A wait's box names the code that decided to wait: the user-space
 * caller of the blocking call ("pg_sleep" for epoll_wait ← pg_sleep), the
 * words of the Overview's causes, rather than the kernel function every
 * wait of that kind goes through (do_epoll_wait). */
static const char *
user_label (WsTrace   *trace,
            WsStackId  stack,
            guint32    frame)
{
  const WsFrame *f;
  g_autofree char *signature = NULL;
  const char *arrow;

  if (frame == WS_NONE || stack == WS_STACK_EMPTY)
    return NULL;
  f = ws_stack_table_get_frame (ws_trace_get_stack_table (trace), frame);
  if (f->module == NULL || !g_str_has_prefix (f->module, "[kernel"))
    return NULL;
  signature = ws_attribution_wait_signature (trace, stack, NULL);
  arrow = strstr (signature, " ← ");
  return arrow != NULL ? g_intern_string (arrow + strlen (" ← ")) : NULL;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

static guint
add_node (WsGraphScene      *self,
          const WsSceneNode *node)
{
  g_array_append_vals (self->nodes, node, 1);
  if (node->event != WS_NONE && !(node->flags & WS_SCENE_NODE_FLAG_READIER))
    g_hash_table_insert (self->node_of_event, GUINT_TO_POINTER (node->event),
                         GUINT_TO_POINTER (self->nodes->len));
  return self->nodes->len - 1;
}

static void
add_edge (WsGraphScene *self,
          guint         from,
          guint         to)
{
  WsSceneEdge e = { from, to, FALSE };
  g_array_append_val (self->edges, e);
}

static gchar
event_state (WsTrace *trace,
             guint    event)
{
  if (event == WS_NONE)
    return 0;
  return ws_trace_get_event (trace, event)->state;
}

/* Marks the chain (scene node indices, in order) and the edges between
 * consecutive chain nodes. */
static void
mark_chain (WsGraphScene *self)
{
  g_autoptr(GHashTable) next = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; i < self->chain->len; i++)
    {
      guint n = g_array_index (self->chain, guint, i);

      g_array_index (self->nodes, WsSceneNode, n).flags |= WS_SCENE_NODE_FLAG_ANOMALOUS;
      if (i + 1 < self->chain->len)
        g_hash_table_insert (next, GUINT_TO_POINTER (n + 1),
                             GUINT_TO_POINTER (g_array_index (self->chain, guint, i + 1) + 1));
    }
  for (guint e = 0; e < self->edges->len; e++)
    {
      WsSceneEdge *edge = &g_array_index (self->edges, WsSceneEdge, e);
      gpointer to = g_hash_table_lookup (next, GUINT_TO_POINTER (edge->from + 1));

      if (to != NULL && GPOINTER_TO_UINT (to) - 1 == edge->to)
        edge->anomalous = TRUE;
    }
}

static void
build_layout (WsGraphScene           *self,
              WsGraphLayoutDirection  direction,
              gboolean                fix_first_layer)
{
  self->layout = ws_graph_layout_new ();
  ws_graph_layout_set_direction (self->layout, direction);
  if (direction == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT)
    ws_graph_layout_set_spacing (self->layout, 14, 84, 32);
  else
    ws_graph_layout_set_spacing (self->layout, 18, 64, 32);

  for (guint i = 0; i < self->nodes->len; i++)
    {
      const WsSceneNode *n = &g_array_index (self->nodes, WsSceneNode, i);
      gboolean big = n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN;

      ws_graph_layout_add_node (self->layout,
                                big ? WS_SCENE_NODE_WIDTH : WS_SCENE_WAKE_NODE_WIDTH,
                                big ? WS_SCENE_NODE_HEIGHT : WS_SCENE_WAKE_NODE_HEIGHT,
                                n->layer);
    }
  for (guint e = 0; e < self->edges->len; e++)
    {
      const WsSceneEdge *edge = &g_array_index (self->edges, WsSceneEdge, e);
      ws_graph_layout_add_edge (self->layout, edge->from, edge->to);
    }
  if (fix_first_layer)
    ws_graph_layout_set_layer_fixed (self->layout, 0, TRUE);
  ws_graph_layout_run (self->layout);
}

/**
 * ws_graph_scene_new_for_wait_graph:
 *
 * Returns: (transfer full): the scene of the whole graph, laid out
 */
WsGraphScene *
ws_graph_scene_new_for_wait_graph (WsWaitGraph            *graph,
                                   WsGraphLayoutDirection  direction)
{
  return ws_graph_scene_new_for_wait_graph_full (graph, G_MAXUINT, direction);
}

static WsSceneNode
wait_scene_node (WsGraphScene     *self,
                 WsStackTable     *stacks,
                 const WsWaitNode *w,
                 guint             i)
{
  WsSceneNode n = {
    .source = i,
    .event = w->event,
    .thread = w->thread,
    .time = w->time,
    .duration = w->duration,
    .stack = w->stack,
    .unwait_stack = w->unwait_stack,
    .readier_thread = w->readier_thread,
    .layer = w->generation,
    .wake = w->wake,
    .stop = WS_READY_STOP_NONE,
  };

  switch ((WsWaitNodeKind) w->kind)
    {
    case WS_WAIT_NODE_RUN:
      n.kind = WS_SCENE_NODE_RUN;
      if (w->flags & WS_WAIT_NODE_FLAG_SAMPLE)
        n.flags |= WS_SCENE_NODE_FLAG_SAMPLE;
      break;
    case WS_WAIT_NODE_WAIT:
      n.kind = WS_SCENE_NODE_WAIT;
      n.state = event_state (self->trace, w->event);
      if (n.state == 'D')
        n.flags |= WS_SCENE_NODE_FLAG_DISK;
      break;
    case WS_WAIT_NODE_HW_SERVICE:
      n.kind = WS_SCENE_NODE_HARDWARE;
      break;
    case WS_WAIT_NODE_UNKNOWN_READIER:
    default:
      n.kind = WS_SCENE_NODE_UNKNOWN;
      n.wake = WS_WAKE_UNKNOWN;
      break;
    }
  if (w->flags & WS_WAIT_NODE_FLAG_SYMPTOM)
    n.flags |= WS_SCENE_NODE_FLAG_SYMPTOM;
  if (w->flags & WS_WAIT_NODE_FLAG_LOCK)
    n.flags |= WS_SCENE_NODE_FLAG_LOCK;
  n.label_frame = ws_graph_scene_interesting_frame (stacks, n.stack);
  if (n.kind == WS_SCENE_NODE_WAIT)
    n.label_text = user_label (self->trace, n.stack, n.label_frame);
  return n;
}

/* The graph's edges between nodes in the scene; a node whose readiers
 * were cut off by the generation limit is marked truncated. */
static void
add_wait_graph_edges (WsGraphScene *self,
                      WsWaitGraph  *graph,
                      const guint  *scene_of)
{
  guint n_edges = ws_wait_graph_get_n_edges (graph);

  for (guint e = 0; e < n_edges; e++)
    {
      const WsWaitEdge *edge = ws_wait_graph_get_edge (graph, e);
      WsSceneNode *from, *to;

      if (scene_of[edge->from] == WS_NONE)
        continue;
      from = &g_array_index (self->nodes, WsSceneNode, scene_of[edge->from]);
      if (scene_of[edge->to] == WS_NONE)
        {
          from->flags |= WS_SCENE_NODE_FLAG_TRUNCATED;
          continue;
        }
      to = &g_array_index (self->nodes, WsSceneNode, scene_of[edge->to]);

      /* The graph records interrupt-context wake-ups as hardware; the
       * wait's wake kind says whether it was a timer (a false run). */
      if (to->kind == WS_SCENE_NODE_HARDWARE && from->wake == WS_WAKE_TIMER)
        {
          to->kind = WS_SCENE_NODE_TIMER;
          to->wake = WS_WAKE_TIMER;
        }
      add_edge (self, scene_of[edge->from], scene_of[edge->to]);
    }
}

/* The next node of the longest-wait chain after wait @current: among its
 * readiers one generation further, the longest wait; without waits, the
 * first node (what the readier was doing) ends the chain. */
static guint
next_in_wait_chain (WsWaitGraph *graph,
                    guint        current)
{
  const WsWaitNode *c = ws_wait_graph_get_node (graph, current);
  const WsWaitEdge *out;
  guint n_out, best = WS_NONE;
  WsTime best_duration = -1;

  out = ws_wait_graph_get_out_edges (graph, current, &n_out);
  for (guint k = 0; k < n_out; k++)
    {
      const WsWaitNode *t = ws_wait_graph_get_node (graph, out[k].to);
      WsTime d = t->kind == WS_WAIT_NODE_WAIT ? t->duration : -1;

      if (t->generation != c->generation + 1)
        continue;
      if (best == WS_NONE || d > best_duration)
        {
          best = out[k].to;
          best_duration = d;
        }
    }
  return best;
}

/* The longest-wait chain, always one generation further, so that it reads
 * left to right and cannot loop; and its metrics. */
static void
find_wait_chain (WsGraphScene *self,
                 WsWaitGraph  *graph,
                 const guint  *scene_of)
{
  guint start = ws_symptom_longest_wait (self->trace, ws_wait_graph_get_symptom (graph), NULL);
  guint current = start == WS_NONE ? WS_NONE : ws_wait_graph_find_event (graph, start);
  g_autofree WsTime *costs = NULL;
  guint n_waits = 0;

  while (current != WS_NONE && scene_of[current] != WS_NONE)
    {
      g_array_append_val (self->chain, scene_of[current]);
      if (ws_wait_graph_get_node (graph, current)->kind != WS_WAIT_NODE_WAIT)
        break;
      current = next_in_wait_chain (graph, current);
    }
  if (self->chain->len == 0)
    return;

  costs = g_new (WsTime, self->chain->len);
  for (guint i = 0; i < self->chain->len; i++)
    {
      const WsSceneNode *n = &g_array_index (self->nodes, WsSceneNode, g_array_index (self->chain, guint, i));
      if (n->kind == WS_SCENE_NODE_WAIT)
        costs[n_waits++] = n->duration;
    }
  ws_chain_metrics_compute (costs, n_waits, &self->chain_metrics);
}

/**
 * ws_graph_scene_new_for_wait_graph_full:
 * @max_generation: leave out nodes of later generations (the waits that
 *   point at them are flagged %WS_SCENE_NODE_FLAG_TRUNCATED)
 *
 * Returns: (transfer full): the scene, laid out
 */
WsGraphScene *
ws_graph_scene_new_for_wait_graph_full (WsWaitGraph            *graph,
                                        guint                   max_generation,
                                        WsGraphLayoutDirection  direction)
{
  g_autoptr(WsGraphScene) self = NULL;
  WsStackTable *stacks;
  guint n_nodes;
  g_autofree guint *scene_of = NULL;

  g_return_val_if_fail (WS_IS_WAIT_GRAPH (graph), NULL);

  self = g_object_new (WS_TYPE_GRAPH_SCENE, NULL);
  self->kind = WS_GRAPH_SCENE_WAIT_GRAPH;
  self->graph = g_object_ref (graph);
  self->trace = g_object_ref (ws_wait_graph_get_trace (graph));
  self->metric = WS_CHAIN_METRIC_DEFAULT;
  stacks = ws_trace_get_stack_table (self->trace);
  n_nodes = ws_wait_graph_get_n_nodes (graph);
  scene_of = g_new (guint, MAX (n_nodes, 1));

  for (guint i = 0; i < n_nodes; i++)
    {
      const WsWaitNode *w = ws_wait_graph_get_node (graph, i);
      WsSceneNode n = wait_scene_node (self, stacks, w, i);

      scene_of[i] = w->generation <= max_generation ? add_node (self, &n) : WS_NONE;
    }
  add_wait_graph_edges (self, graph, scene_of);
  find_wait_chain (self, graph, scene_of);
  mark_chain (self);

  build_layout (self, direction, TRUE);
  return g_steal_pointer (&self);
}

static WsSceneNode
ready_scene_node (WsGraphScene      *self,
                  WsStackTable      *stacks,
                  const WsReadyNode *r,
                  guint              i)
{
  WsSceneNode n = {
    .source = i,
    .event = r->event,
    .thread = r->thread,
    .time = r->time,
    .duration = r->duration,
    .stack = r->stack,
    .unwait_stack = r->unwait_stack,
    .readier_thread = r->readier_thread,
    .layer = r->depth,
    .kind = WS_SCENE_NODE_WAIT,
    .wake = r->wake,
    .stop = r->stop,
    .state = event_state (self->trace, r->event),
  };

  if (i == 0)
    n.flags |= WS_SCENE_NODE_FLAG_SYMPTOM;
  if (r->lock_related)
    n.flags |= WS_SCENE_NODE_FLAG_LOCK;
  if (n.state == 'D')
    n.flags |= WS_SCENE_NODE_FLAG_DISK;
  n.label_frame = ws_graph_scene_interesting_frame (stacks, n.stack);
  if (n.kind == WS_SCENE_NODE_WAIT)
    n.label_text = user_label (self->trace, n.stack, n.label_frame);
  return n;
}

/* The box after leaf @i saying who or what readied it, if the tree looked
 * at that: FALSE for the depth or node limit, the trace start, a wait that
 * is not lock-related (the leaf's own box says why). */
static gboolean
readier_scene_node (const WsReadyNode *r,
                    guint              i,
                    WsSceneNode       *n)
{
  *n = (WsSceneNode) {
    .source = i,
    .event = r->unwait_event,
    .thread = WS_NONE,
    .time = r->time + r->duration,
    .stack = r->unwait_stack,
    .unwait_stack = WS_STACK_EMPTY,
    .readier_thread = WS_NONE,
    .layer = r->depth + 1U,
    .wake = r->wake,
    .stop = WS_READY_STOP_NONE,
    .flags = WS_SCENE_NODE_FLAG_READIER,
  };

  switch ((WsReadyStop) r->stop)
    {
    case WS_READY_STOP_READIER_RAN:
      n->kind = WS_SCENE_NODE_RUN;
      n->thread = r->readier_thread;
      return TRUE;
    case WS_READY_STOP_FALSE_RUN:
      n->kind = WS_SCENE_NODE_TIMER;
      /* A heartbeat thread is a thread; a timer's "readier" is just
       * whatever the interrupt happened to interrupt. */
      if (r->wake == WS_WAKE_HEARTBEAT)
        n->thread = r->readier_thread;
      return TRUE;
    case WS_READY_STOP_HARDWARE:
      n->kind = WS_SCENE_NODE_HARDWARE;
      return TRUE;
    case WS_READY_STOP_UNKNOWN_READIER:
      n->kind = WS_SCENE_NODE_UNKNOWN;
      n->event = WS_NONE;
      n->stack = WS_STACK_EMPTY;
      return TRUE;
    default:
      return FALSE;
    }
}

/* The tree's edges, and a readier box after each leaf that has one;
 * @readier_of_leaf gets its scene node. */
static void
add_ready_tree_edges (WsGraphScene *self,
                      WsReadyTree  *tree,
                      WsStackTable *stacks,
                      guint        *readier_of_leaf)
{
  guint n_tree = ws_ready_tree_get_n_nodes (tree);

  for (guint i = 0; i < n_tree; i++)
    {
      const WsReadyNode *r = ws_ready_tree_get_node (tree, i);
      WsSceneNode n;

      if (r->parent != WS_NONE)
        add_edge (self, r->parent, i);
      if (r->n_children > 0 || !readier_scene_node (r, i, &n))
        continue;
      n.label_frame = ws_graph_scene_interesting_frame (stacks, n.stack);
      readier_of_leaf[i] = add_node (self, &n);
      add_edge (self, i, readier_of_leaf[i]);
    }
}

/* The anomalous chain under the scene's metric, with the readier box that
 * ends it. */
static void
find_anomalous_chain (WsGraphScene *self,
                      WsReadyTree  *tree,
                      const guint  *readier_of_leaf)
{
  g_autofree guint32 *chain = NULL;
  guint n_chain;

  self->chain_index = ws_ready_tree_anomalous_chain (tree, self->metric);
  if (self->chain_index == WS_NONE)
    return;
  chain = ws_ready_tree_get_chain (tree, self->chain_index, &n_chain);
  for (guint i = 0; i < n_chain; i++)
    {
      guint v = chain[i];
      g_array_append_val (self->chain, v);
    }
  if (n_chain > 0 && readier_of_leaf[chain[n_chain - 1]] != WS_NONE)
    g_array_append_val (self->chain, readier_of_leaf[chain[n_chain - 1]]);
  ws_ready_tree_get_chain_metrics (tree, self->chain_index, &self->chain_metrics);
}

/**
 * ws_graph_scene_new_for_ready_tree:
 * @metric: ranks the chains; the best is the anomalous chain
 *
 * Returns: (transfer full): the scene, laid out
 */
WsGraphScene *
ws_graph_scene_new_for_ready_tree (WsReadyTree            *tree,
                                   WsChainMetric           metric,
                                   WsGraphLayoutDirection  direction)
{
  g_autoptr(WsGraphScene) self = NULL;
  g_autofree guint *readier_of_leaf = NULL;
  WsStackTable *stacks;
  guint n_tree;

  g_return_val_if_fail (WS_IS_READY_TREE (tree), NULL);
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);

  self = g_object_new (WS_TYPE_GRAPH_SCENE, NULL);
  self->kind = WS_GRAPH_SCENE_READY_TREE;
  self->tree = g_object_ref (tree);
  self->trace = g_object_ref (ws_ready_tree_get_trace (tree));
  self->metric = metric;
  stacks = ws_trace_get_stack_table (self->trace);
  n_tree = ws_ready_tree_get_n_nodes (tree);
  readier_of_leaf = g_new (guint, MAX (n_tree, 1));

  for (guint i = 0; i < n_tree; i++)
    {
      WsSceneNode n = ready_scene_node (self, stacks, ws_ready_tree_get_node (tree, i), i);

      add_node (self, &n);
      readier_of_leaf[i] = WS_NONE;
    }
  add_ready_tree_edges (self, tree, stacks, readier_of_leaf);
  find_anomalous_chain (self, tree, readier_of_leaf);
  mark_chain (self);

  build_layout (self, direction, FALSE);
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------ */
/* Queries                                                              */

WsGraphSceneKind
ws_graph_scene_get_kind (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), WS_GRAPH_SCENE_WAIT_GRAPH);
  return self->kind;
}

WsTrace *
ws_graph_scene_get_trace (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  return self->trace;
}

/* Returns: (transfer none) (nullable): the graph of a wait-graph scene */
WsWaitGraph *
ws_graph_scene_get_wait_graph (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  return self->graph;
}

/* Returns: (transfer none) (nullable): the tree of a ready-tree scene */
WsReadyTree *
ws_graph_scene_get_ready_tree (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  return self->tree;
}

WsChainMetric
ws_graph_scene_get_metric (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), WS_CHAIN_METRIC_AVERAGE);
  return self->metric;
}

/* Returns: (transfer none): */
WsGraphLayout *
ws_graph_scene_get_layout (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  return self->layout;
}

guint
ws_graph_scene_get_n_nodes (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), 0);
  return self->nodes->len;
}

const WsSceneNode *
ws_graph_scene_get_node (WsGraphScene *self,
                         guint         node)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  return &g_array_index (self->nodes, WsSceneNode, node);
}

guint
ws_graph_scene_get_n_edges (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), 0);
  return self->edges->len;
}

const WsSceneEdge *
ws_graph_scene_get_edge (WsGraphScene *self,
                         guint         edge)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (edge < self->edges->len, NULL);
  return &g_array_index (self->edges, WsSceneEdge, edge);
}

guint
ws_graph_scene_get_n_layers (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), 0);
  return ws_graph_layout_get_n_layers (self->layout);
}

/* The node a view starts on: the ready tree's root, or the symptom's
 * longest wait (the start of the highlighted chain), else node 0. */
guint
ws_graph_scene_get_root (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), WS_NONE);

  if (self->nodes->len == 0)
    return WS_NONE;
  if (self->chain->len > 0)
    return g_array_index (self->chain, guint, 0);
  return 0;
}

/* The ready tree's anomalous chain index (see ws_ready_tree_get_chain()),
 * or %WS_NONE (wait graphs, empty trees). */
guint
ws_graph_scene_get_anomalous_chain (WsGraphScene *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), WS_NONE);
  return self->chain_index;
}

/**
 * ws_graph_scene_get_chain_nodes:
 * Returns: (transfer none) (array length=n_nodes): the highlighted chain,
 *   as scene nodes from the root / symptom wait on
 */
const guint *
ws_graph_scene_get_chain_nodes (WsGraphScene *self,
                                guint        *n_nodes)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);

  *n_nodes = self->chain->len;
  return (const guint *) self->chain->data;
}

/* Metrics of the waits on the highlighted chain. */
void
ws_graph_scene_get_chain_metrics (WsGraphScene   *self,
                                  WsChainMetrics *metrics)
{
  g_return_if_fail (WS_IS_GRAPH_SCENE (self));
  g_return_if_fail (metrics != NULL);
  *metrics = self->chain_metrics;
}

/* The scene node of trace event @event (not counting readier nodes), or
 * %WS_NONE. */
guint
ws_graph_scene_find_event (WsGraphScene *self,
                           guint         event)
{
  gpointer found;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), WS_NONE);

  found = g_hash_table_lookup (self->node_of_event, GUINT_TO_POINTER (event));
  return found ? GPOINTER_TO_UINT (found) - 1 : WS_NONE;
}

static gboolean
stack_matches (WsStackTable  *stacks,
               WsStackId      stack,
               WsStackSearch *search)
{
  /* Per stack, so that a search of whole patterns (a mined pattern's
   * events) matches what it says and not every stack sharing a frame. */
  return ws_stack_search_matches_stack (search, stack);
}

/* Whether a frame of @node's stack, or of the readier's stack that ended
 * its wait, matches @search (the patent searches "the underlying stack
 * events" of the tree). */
gboolean
ws_graph_scene_node_matches (WsGraphScene  *self,
                             guint          node,
                             WsStackSearch *search)
{
  const WsSceneNode *n;
  WsStackTable *stacks;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), FALSE);
  g_return_val_if_fail (WS_IS_STACK_SEARCH (search), FALSE);
  g_return_val_if_fail (node < self->nodes->len, FALSE);

  n = &g_array_index (self->nodes, WsSceneNode, node);
  stacks = ws_trace_get_stack_table (self->trace);
  return stack_matches (stacks, n->stack, search) ||
         stack_matches (stacks, n->unwait_stack, search);
}

/**
 * ws_graph_scene_find_matches:
 *
 * Returns: (transfer full) (element-type guint): the matching nodes in
 *   reading order (layer by layer, and in layout order inside a layer),
 *   the order Tab visits them in
 */
GArray *
ws_graph_scene_find_matches (WsGraphScene  *self,
                             WsStackSearch *search)
{
  GArray *matches;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (WS_IS_STACK_SEARCH (search), NULL);

  matches = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint l = 0; l < ws_graph_layout_get_n_layers (self->layout); l++)
    {
      guint n;
      const guint *nodes = ws_graph_layout_get_layer_nodes (self->layout, l, &n);

      for (guint i = 0; i < n; i++)
        if (ws_graph_scene_node_matches (self, nodes[i], search))
          g_array_append_val (matches, nodes[i]);
    }
  return matches;
}

/* ------------------------------------------------------------------ */
/* Words                                                                */

/**
 * ws_graph_scene_dup_title:
 * Returns: (transfer full): the first line of @node's box: the thread
 *   ("pylk-w2 · 11587"), or what woke the wait
 */
char *
ws_graph_scene_dup_title (WsGraphScene *self,
                          guint         node)
{
  const WsSceneNode *n;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  n = &g_array_index (self->nodes, WsSceneNode, node);
  if (n->thread != WS_NONE && n->thread < ws_trace_get_n_threads (self->trace) &&
      (n->kind == WS_SCENE_NODE_RUN || n->kind == WS_SCENE_NODE_WAIT ||
       (n->kind == WS_SCENE_NODE_TIMER && n->wake == WS_WAKE_HEARTBEAT)))
    {
      const WsThread *t = ws_trace_get_thread (self->trace, n->thread);
      return g_strdup_printf ("%s · %d", t->name ? t->name : "?", t->tid);
    }

  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_HARDWARE:
      return g_strdup (ws_wake_word_label (ws_wake_word_for_interrupt (n->state)));
    case WS_SCENE_NODE_TIMER:
      return g_strdup (ws_wake_word_label (WS_WAKE_WORD_TIMER));
    case WS_SCENE_NODE_UNKNOWN:
      return g_strdup (ws_wake_word_label (WS_WAKE_WORD_UNKNOWN));
    case WS_SCENE_NODE_RUN:
    case WS_SCENE_NODE_WAIT:
    case WS_N_SCENE_NODE_KINDS:
    default:
      return g_strdup (_("Unknown thread"));
    }
}

static const char *
stop_phrase (WsReadyStop stop)
{
  switch (stop)
    {
    case WS_READY_STOP_NOT_LOCK_RELATED: return _("not lock-related");
    case WS_READY_STOP_DEPTH_LIMIT:      return _("depth limit");
    case WS_READY_STOP_TRACE_START:      return _("before trace start");
    case WS_READY_STOP_NODE_LIMIT:       return _("node limit");
    case WS_READY_STOP_NONE:
    case WS_READY_STOP_READIER_RAN:
    case WS_READY_STOP_FALSE_RUN:
    case WS_READY_STOP_HARDWARE:
    case WS_READY_STOP_UNKNOWN_READIER:
    case WS_N_READY_STOPS:
    default:
      return NULL;
    }
}

/**
 * ws_graph_scene_dup_detail:
 * Returns: (transfer full): the second line: kind, duration, state, lock,
 *   and why a ready-tree leaf was not followed
 */
char *
ws_graph_scene_dup_detail (WsGraphScene *self,
                           guint         node)
{
  const WsSceneNode *n;
  g_autofree char *d = NULL;
  GString *s;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  n = &g_array_index (self->nodes, WsSceneNode, node);
  d = ws_format_duration (n->duration);
  s = g_string_new (NULL);

  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_WAIT:
      g_string_printf (s, _("Wait %s"), d);
      if (n->state)
        g_string_append_printf (s, " · %c", n->state);
      if (n->flags & WS_SCENE_NODE_FLAG_LOCK)
        g_string_append_printf (s, " · %s", _("lock"));
      if (stop_phrase (n->stop))
        g_string_append_printf (s, " · %s", stop_phrase (n->stop));
      else if (n->flags & WS_SCENE_NODE_FLAG_TRUNCATED)
        g_string_append_printf (s, " · %s", _("depth limit"));
      break;
    case WS_SCENE_NODE_RUN:
      if (n->flags & WS_SCENE_NODE_FLAG_READIER)
        g_string_assign (s, _("Readier, was running"));
      else if (n->flags & WS_SCENE_NODE_FLAG_SAMPLE)
        g_string_printf (s, _("CPU sample %s"), d);
      else
        g_string_printf (s, _("Run %s"), d);
      break;
    case WS_SCENE_NODE_TIMER:
      /* Plain words for the papers' "false run": nothing worth following
       * woke the thread. */
      if (n->wake == WS_WAKE_HEARTBEAT)
        {
          g_string_assign (s, _("Routine wake-up"));
          break;
        }
      G_GNUC_FALLTHROUGH;
    case WS_SCENE_NODE_HARDWARE:
    case WS_SCENE_NODE_UNKNOWN:
    case WS_N_SCENE_NODE_KINDS:
    default:
      /* The title says what ended the wait, in the glossary's word; the
       * second line does not repeat it. */
      g_string_assign (s, _("No thread woke it"));
      break;
    }
  return g_string_free (s, FALSE);
}

/* Returns: (nullable): the function name shown in the box */
const char *
ws_graph_scene_get_frame_name (WsGraphScene *self,
                               guint         node)
{
  const WsSceneNode *n;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  n = &g_array_index (self->nodes, WsSceneNode, node);
  if (n->label_text != NULL)
    return n->label_text;
  if (n->label_frame == WS_NONE)
    return NULL;
  return ws_stack_table_get_frame (ws_trace_get_stack_table (self->trace), n->label_frame)->function;
}

/* Returns: (transfer full): a heading for @layer */
char *
ws_graph_scene_dup_layer_title (WsGraphScene *self,
                                guint         layer)
{
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);

  if (self->kind == WS_GRAPH_SCENE_WAIT_GRAPH)
    return layer == 0 ? g_strdup (_("Symptom thread"))
                      : g_strdup_printf (_("Readiers, hop %u"), layer);
  return layer == 0 ? g_strdup (_("Root wait")) : g_strdup_printf (_("Depth %u"), layer);
}

/* Returns: (transfer full): one line for a status bar */
char *
ws_graph_scene_dup_summary (WsGraphScene *self)
{
  g_autofree char *avg = NULL;
  g_autofree char *total = NULL;
  guint n_waits = 0;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (self), NULL);

  for (guint i = 0; i < self->nodes->len; i++)
    if (g_array_index (self->nodes, WsSceneNode, i).kind == WS_SCENE_NODE_WAIT)
      n_waits++;
  avg = ws_format_duration ((WsTime) self->chain_metrics.average);
  total = ws_format_duration (self->chain_metrics.total);

  if (self->kind == WS_GRAPH_SCENE_WAIT_GRAPH)
    {
      g_autoptr(GHashTable) threads = g_hash_table_new (g_direct_hash, g_direct_equal);

      /* The threads shown (the graph may be cut at a generation). */
      for (guint i = 0; i < self->nodes->len; i++)
        {
          const WsSceneNode *n = &g_array_index (self->nodes, WsSceneNode, i);
          if (n->thread != WS_NONE && (n->kind == WS_SCENE_NODE_RUN || n->kind == WS_SCENE_NODE_WAIT))
            g_hash_table_add (threads, GUINT_TO_POINTER (n->thread + 1));
        }
      g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", self->nodes->len), self->nodes->len);
      g_autofree char *waits = g_strdup_printf (ngettext ("%u wait", "%u waits", n_waits), n_waits);
      g_autofree char *edges = g_strdup_printf (ngettext ("%u edge", "%u edges", self->edges->len), self->edges->len);
      guint n_threads = g_hash_table_size (threads);
      g_autofree char *thread_text = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);
      g_autofree char *chain = g_strdup_printf (ngettext ("%u wait", "%u waits", self->chain_metrics.count),
                                                self->chain_metrics.count);

      /* Translators: wait graph summary: "12 nodes (5 waits), 11 edges,
       * 3 threads; longest-wait chain: 4 waits, 1.2 s in all" */
      return g_strdup_printf (_("%s (%s), %s, %s; longest-wait chain: %s, %s in all"),
                              nodes, waits, edges, thread_text, chain, total);
    }
  {
    guint n_nodes = ws_ready_tree_get_n_nodes (self->tree);
    guint n_chains = ws_ready_tree_get_n_chains (self->tree);
    g_autofree char *waits = g_strdup_printf (ngettext ("%u wait", "%u waits", n_nodes), n_nodes);
    g_autofree char *chains = g_strdup_printf (ngettext ("%u chain", "%u chains", n_chains), n_chains);
    g_autofree char *chain = g_strdup_printf (ngettext ("%u wait", "%u waits", self->chain_metrics.count),
                                              self->chain_metrics.count);

    /* Translators: ready tree summary: "40 waits, 1 chain; anomalous chain
     * by cause: 4 waits, average 2 ms, total 8 ms" */
    return g_strdup_printf (_("%s, %s; anomalous chain by %s: %s, average %s, total %s"),
                            waits, chains, ws_chain_metric_to_string (self->metric), chain, avg, total);
  }
}

const char *
ws_scene_node_kind_to_string (WsSceneNodeKind kind)
{
  switch (kind)
    {
    case WS_SCENE_NODE_RUN:      return "run";
    case WS_SCENE_NODE_WAIT:     return "wait";
    case WS_SCENE_NODE_HARDWARE: return "hardware";
    case WS_SCENE_NODE_TIMER:    return "timer";
    case WS_SCENE_NODE_UNKNOWN:  return "unknown";
    case WS_N_SCENE_NODE_KINDS:
    default:
      g_return_val_if_reached ("?");
    }
}
