/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Algorithm 1, with the merge by common signature prefix done as a walk of
 * each wait graph from its roots: every wait-graph node reached along a path
 * is merged into the child of the current forest node that has the same
 * (kind, w, u, r), found in one open-addressing table keyed by
 * (parent, kind, w, u, r).  That is exactly "merge each root-to-sink path
 * with the forest's longest common prefix", without listing the paths.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-awg.h"
#include "ws-error.h"

/* A wait graph whose unfolding passes this many nodes is cut there: a DAG
 * of n nodes can have exponentially many paths. */
#define MAX_UNFOLDED_PER_GRAPH 2000000
#define MAX_DEPTH 64

struct _WsAwg
{
  GObject       parent_instance;

  WsSignatures *signatures;
  GArray       *nodes;          /* WsAwgNode */
  GArray       *roots;          /* guint32 */
  guint32      *slots;          /* open addressing: node index + 1, 0 = empty */
  guint         n_slots;
  GArray       *last_instance;  /* guint32 per node, while building */
  GArray       *pairs;          /* (node, instance) guint32 pairs, while building */
  guint32      *inst_first;     /* CSR after sealing: n_nodes + 1 */
  guint32      *inst_ids;
  guint         n_graphs;
  guint         n_truncated;
  guint         n_pruned;
  WsTime        total_cost;
  WsTime        pruned_cost;
  gboolean      sealed;
};

G_DEFINE_FINAL_TYPE (WsAwg, ws_awg, G_TYPE_OBJECT)

static void
ws_awg_finalize (GObject *object)
{
  WsAwg *self = WS_AWG (object);

  g_clear_object (&self->signatures);
  g_array_unref (self->nodes);
  g_array_unref (self->roots);
  g_free (self->slots);
  g_clear_pointer (&self->last_instance, g_array_unref);
  g_clear_pointer (&self->pairs, g_array_unref);
  g_free (self->inst_first);
  g_free (self->inst_ids);

  G_OBJECT_CLASS (ws_awg_parent_class)->finalize (object);
}

static void
ws_awg_class_init (WsAwgClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_awg_finalize;
}

static void
ws_awg_init (WsAwg *self)
{
  self->nodes = g_array_new (FALSE, FALSE, sizeof (WsAwgNode));
  self->roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->last_instance = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->pairs = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->n_slots = 1024;
  self->slots = g_new0 (guint32, self->n_slots);
}

WsAwg *
ws_awg_new (WsSignatures *signatures)
{
  WsAwg *self;

  g_return_val_if_fail (WS_IS_SIGNATURES (signatures), NULL);
  self = g_object_new (WS_TYPE_AWG, NULL);
  self->signatures = g_object_ref (signatures);
  return self;
}

/* What one wait-graph node becomes in the forest (Definition 3). */
typedef struct {
  guint32 kind;
  WsSigId w, u, r;
  WsTime  c;
} NodeKey;

static inline guint
key_hash (guint32 parent, const NodeKey *k)
{
  guint32 h = parent * 0x9E3779B1u;
  h = (h ^ k->kind) * 0x85EBCA77u;
  h = (h ^ k->w) * 0xC2B2AE3Du;
  h = (h ^ k->u) * 0x27D4EB2Fu;
  h = (h ^ k->r) * 0x165667B1u;
  return h ^ (h >> 15);
}

static inline gboolean
key_equal (const WsAwgNode *n, guint32 parent, const NodeKey *k)
{
  return n->parent == parent && n->kind == k->kind && n->w == k->w && n->u == k->u && n->r == k->r;
}

static void
grow_slots (WsAwg *self)
{
  guint n = self->n_slots * 2;
  guint32 *slots = g_new0 (guint32, n);

  for (guint i = 0; i < self->nodes->len; i++)
    {
      const WsAwgNode *node = &g_array_index (self->nodes, WsAwgNode, i);
      NodeKey k = { node->kind, node->w, node->u, node->r, 0 };
      guint s = key_hash (node->parent, &k) & (n - 1);

      while (slots[s] != 0)
        s = (s + 1) & (n - 1);
      slots[s] = i + 1;
    }
  g_free (self->slots);
  self->slots = slots;
  self->n_slots = n;
}

/* The child of @parent (%WS_NONE: a root) with key @k, made if missing. */
static guint32
find_or_add (WsAwg *self, guint32 parent, const NodeKey *k)
{
  guint s = key_hash (parent, k) & (self->n_slots - 1);
  WsAwgNode node = { 0 };
  guint32 none = WS_NONE;

  while (self->slots[s] != 0)
    {
      guint32 i = self->slots[s] - 1;
      if (key_equal (&g_array_index (self->nodes, WsAwgNode, i), parent, k))
        return i;
      s = (s + 1) & (self->n_slots - 1);
    }

  node.parent = parent;
  node.first_child = WS_NONE;
  node.next_sibling = WS_NONE;
  node.depth = parent == WS_NONE ? 0 : g_array_index (self->nodes, WsAwgNode, parent).depth + 1;
  node.kind = k->kind;
  node.w = k->w;
  node.u = k->u;
  node.r = k->r;
  g_array_append_val (self->nodes, node);
  g_array_append_val (self->last_instance, none);
  self->slots[s] = self->nodes->len;
  if (parent == WS_NONE)
    {
      guint32 idx = self->nodes->len - 1;
      g_array_append_val (self->roots, idx);
    }
  if (self->nodes->len * 2 > self->n_slots)
    grow_slots (self);
  return self->nodes->len - 1;
}

static void
account (WsAwg *self, guint32 node, WsTime c, WsTime path_c, guint instance)
{
  WsAwgNode *n = &g_array_index (self->nodes, WsAwgNode, node);
  guint32 *last = &g_array_index (self->last_instance, guint32, node);

  n->c += c;
  n->c_max = MAX (n->c_max, c);
  n->c_path_max = MAX (n->c_path_max, path_c);
  n->n++;
  if (*last != instance)
    {
      guint32 pair[2] = { node, instance };
      *last = instance;
      n->n_instances++;
      g_array_append_vals (self->pairs, pair, 2);
    }
}

typedef struct {
  WsAwg            *self;
  const WsAwgInput *graph;
  WsStackTable     *stacks;
  const WsAwgInputNode *nodes;
  guint             instance;
  guint             budget;
  gboolean          truncated;
  guint32           path[MAX_DEPTH];
} Walk;

/* Alg. 1 lines 9-12: the forest key of wait-graph node @i, reached from
 * @from (%WS_NONE for a root). */
static NodeKey
key_of (Walk *w, guint i, guint from)
{
  WsSignatures *sigs = w->self->signatures;
  const WsAwgInputNode *v = &w->nodes[i];
  NodeKey k = { WS_AWG_RUNNING, WS_SIG_NONE, WS_SIG_NONE, WS_SIG_NONE, v->duration };
  const WsAwgInputNode *p = from != WS_NONE ? &w->nodes[from] : NULL;

  switch (v->kind)
    {
    case WS_WAIT_NODE_RUN:
      k.r = ws_signatures_of_stack_in (sigs, w->stacks, v->stack);
      break;
    case WS_WAIT_NODE_WAIT:
      {
        gboolean by_thread = (v->flags & WS_AWG_INPUT_BY_THREAD) != 0;
        gboolean d_state = (v->flags & WS_AWG_INPUT_D_STATE) != 0;

        if (by_thread || ((v->flags & WS_AWG_INPUT_NO_UNWAIT) && !d_state))
          {
            k.kind = WS_AWG_WAITING;
            k.w = ws_signatures_of_stack_in (sigs, w->stacks, v->stack);
            k.u = by_thread ? ws_signatures_of_stack_in (sigs, w->stacks, v->unwait_stack)
                            : ws_signatures_intern (sigs, "[no wake-up recorded]");
          }
        else
          {
            k.kind = WS_AWG_SERVICED;
            k.r = ws_signatures_of_stack_in (sigs, w->stacks, v->stack);
          }
      }
      break;
    case WS_WAIT_NODE_HW_SERVICE:
      k.kind = WS_AWG_HARDWARE;
      k.r = ws_signatures_of_hardware_in (sigs, w->stacks, v->stack,
                                          p != NULL && (p->flags & WS_AWG_INPUT_WAKE_TIMER));
      k.c = p != NULL ? p->duration : 0;
      break;
    case WS_WAIT_NODE_UNKNOWN_READIER:
      k.c = p != NULL ? p->duration : 0;
      if (p != NULL && (p->flags & WS_AWG_INPUT_D_STATE))
        {
          /* An uninterruptible sleep nobody woke: the device did. */
          k.kind = WS_AWG_HARDWARE;
          k.r = ws_signatures_of_hardware_in (sigs, w->stacks, p->stack, FALSE);
        }
      else
        {
          k.kind = WS_AWG_UNKNOWN;
          k.r = ws_signatures_intern (sigs, "[unknown readier]");
        }
      break;
    default:
      g_assert_not_reached ();
    }
  return k;
}

static gboolean
on_path (const Walk *w, guint depth, guint32 i)
{
  for (guint d = 0; d < depth; d++)
    if (w->path[d] == i)
      return TRUE;
  return FALSE;
}

/* Alg. 1 lines 13-14: merge the paths through @i under forest node @parent;
 * @path_c is the cost of the path down to @from (see c_path_max). */
static void
merge_paths (Walk *w, guint32 i, guint32 from, guint32 parent, guint depth, WsTime path_c)
{
  NodeKey k;
  guint32 node;

  if (w->budget == 0 || depth >= MAX_DEPTH)
    {
      w->truncated = TRUE;
      return;
    }
  if (on_path (w, depth, i))
    return;
  w->budget--;
  w->path[depth] = i;

  k = key_of (w, i, from);
  node = find_or_add (w->self, parent, &k);
  /* A hardware or unknown-readier leaf only repeats the cost of the wait
   * above it. */
  if (k.kind != WS_AWG_HARDWARE && k.kind != WS_AWG_UNKNOWN)
    path_c += k.c;
  account (w->self, node, k.c, path_c, w->instance);

  for (guint32 e = w->graph->first_edge[i]; e < w->graph->first_edge[i + 1]; e++)
    merge_paths (w, w->graph->edge_to[e], i, node, depth + 1, path_c);
}

/* Alg. 1 line 6: a node initiated by the components. */
static gboolean
is_relevant (Walk *w, guint i)
{
  const WsAwgInputNode *v = &w->nodes[i];

  if (v->kind == WS_WAIT_NODE_UNKNOWN_READIER)
    return FALSE;
  return ws_signatures_stack_is_relevant_in (w->self->signatures, w->stacks, v->stack);
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* Alg. 1 lines 3-8: roots are nodes nobody points to; an irrelevant root
 * is removed and its children whose last parent it was become roots, until
 * every root is relevant.  Returns the relevant roots in node order. */
static GArray *
relevant_roots (Walk *w)
{
  const WsAwgInput *g = w->graph;
  guint n = g->n_nodes;
  g_autofree guint32 *indeg = g_new0 (guint32, MAX (n, 1));
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *roots = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint e = 0; e < g->n_edges; e++)
    indeg[g->edge_to[e]]++;
  for (guint32 i = 0; i < n; i++)
    if (indeg[i] == 0)
      g_array_append_val (queue, i);

  for (guint q = 0; q < queue->len; q++)
    {
      guint32 i = g_array_index (queue, guint32, q);

      if (is_relevant (w, i))
        {
          g_array_append_val (roots, i);
          continue;
        }
      for (guint32 e = g->first_edge[i]; e < g->first_edge[i + 1]; e++)
        if (--indeg[g->edge_to[e]] == 0)
          g_array_append_val (queue, g->edge_to[e]);
    }
  g_array_sort (roots, compare_u32);
  return roots;
}

/**
 * ws_awg_add_input:
 * @stacks: the table @graph's stacks are in
 *
 * Lines 3-14 for one reduced wait graph (a trace's, or a digest's).
 */
void
ws_awg_add_input (WsAwg            *self,
                  const WsAwgInput *graph,
                  WsStackTable     *stacks,
                  guint             instance)
{
  g_autoptr(GArray) roots = NULL;
  Walk w = { 0 };

  g_return_if_fail (WS_IS_AWG (self));
  g_return_if_fail (graph != NULL);
  g_return_if_fail (!self->sealed);

  w.self = self;
  w.graph = graph;
  w.stacks = stacks;
  w.nodes = graph->nodes;
  w.instance = instance;
  w.budget = MAX_UNFOLDED_PER_GRAPH;

  roots = relevant_roots (&w);
  for (guint i = 0; i < roots->len && w.budget > 0; i++)
    merge_paths (&w, g_array_index (roots, guint32, i), WS_NONE, WS_NONE, 0, 0);
  if (w.truncated)
    self->n_truncated++;
  self->n_graphs++;
}

void
ws_awg_add_wait_graph (WsAwg       *self,
                       WsWaitGraph *graph,
                       guint        instance)
{
  g_autoptr(WsAwgInput) input = NULL;

  g_return_if_fail (WS_IS_WAIT_GRAPH (graph));
  input = ws_awg_input_of_wait_graph (graph, NULL);
  ws_awg_add_input (self, input, ws_trace_get_stack_table (ws_wait_graph_get_trace (graph)), instance);
}

static void
link_children (WsAwg *self)
{
  WsAwgNode *nodes = (WsAwgNode *) (gpointer) self->nodes->data;

  for (guint i = 0; i < self->nodes->len; i++)
    nodes[i].first_child = nodes[i].next_sibling = WS_NONE;
  /* Backwards, so that each list comes out in node order. */
  for (guint i = self->nodes->len; i > 0; i--)
    if (nodes[i - 1].parent != WS_NONE)
      {
        nodes[i - 1].next_sibling = nodes[nodes[i - 1].parent].first_child;
        nodes[nodes[i - 1].parent].first_child = i - 1;
      }
}

/* Drops the nodes flagged in @removed, renumbering the rest (parents come
 * before children, so one pass remaps every parent link). */
static void
compact (WsAwg *self, const gboolean *removed)
{
  guint n = self->nodes->len, kept = 0;
  g_autofree guint32 *map = g_new (guint32, MAX (n, 1));
  g_autoptr(GArray) nodes = g_array_sized_new (FALSE, FALSE, sizeof (WsAwgNode), n);
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < n; i++)
    {
      WsAwgNode node = g_array_index (self->nodes, WsAwgNode, i);

      map[i] = WS_NONE;
      if (removed[i])
        continue;
      node.parent = node.parent == WS_NONE ? WS_NONE : map[node.parent];
      map[i] = kept++;
      g_array_append_val (nodes, node);
    }
  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 r = map[g_array_index (self->roots, guint32, i)];
      if (r != WS_NONE)
        g_array_append_val (roots, r);
    }
  for (guint i = 0; i + 1 < self->pairs->len; i += 2)
    {
      guint32 pair[2] = { map[g_array_index (self->pairs, guint32, i)], g_array_index (self->pairs, guint32, i + 1) };
      if (pair[0] != WS_NONE)
        g_array_append_vals (pairs, pair, 2);
    }
  g_array_unref (self->nodes);
  g_array_unref (self->roots);
  g_array_unref (self->pairs);
  self->nodes = g_steal_pointer (&nodes);
  self->roots = g_steal_pointer (&roots);
  self->pairs = g_steal_pointer (&pairs);
}

/* Instance lists as one CSR array, each list ascending. */
static void
build_instance_lists (WsAwg *self)
{
  guint n = self->nodes->len, n_pairs = self->pairs->len / 2;
  g_autofree guint32 *fill = g_new0 (guint32, n + 1);

  self->inst_first = g_new0 (guint32, n + 1);
  self->inst_ids = g_new (guint32, MAX (n_pairs, 1));
  for (guint i = 0; i < n_pairs; i++)
    self->inst_first[g_array_index (self->pairs, guint32, 2 * i) + 1]++;
  for (guint i = 0; i < n; i++)
    self->inst_first[i + 1] += self->inst_first[i];
  /* Pairs were appended instance after instance: lists come out sorted. */
  for (guint i = 0; i < n_pairs; i++)
    {
      guint32 node = g_array_index (self->pairs, guint32, 2 * i);
      self->inst_ids[self->inst_first[node] + fill[node]++] = g_array_index (self->pairs, guint32, 2 * i + 1);
    }
}

/* Whether every child of @node is a hardware leaf (and it has one). */
static gboolean
only_hardware_below (const WsAwgNode *nodes, guint32 node)
{
  guint32 child = nodes[node].first_child;

  if (child == WS_NONE)
    return FALSE;
  for (; child != WS_NONE; child = nodes[child].next_sibling)
    if (nodes[child].kind != WS_AWG_HARDWARE)
      return FALSE;
  return TRUE;
}

/**
 * ws_awg_reduce:
 *
 * Alg. 1 line 15, ReduceAWG: a waiting root whose children are all
 * hardware-service leaves is a device serving the component directly, with
 * no cost propagated to anybody: not optimizable, pruned.  The hardware
 * services count as one signature here: the same root woken now by the
 * disk, now by a timer, now by an interrupt still propagated nothing (the
 * paper's root has one hardware child because it has one device).
 */
void
ws_awg_reduce (WsAwg *self)
{
  g_autofree gboolean *removed = NULL;
  const WsAwgNode *nodes;

  g_return_if_fail (WS_IS_AWG (self));
  g_return_if_fail (!self->sealed);

  link_children (self);
  nodes = (const WsAwgNode *) (gconstpointer) self->nodes->data;
  removed = g_new0 (gboolean, MAX (self->nodes->len, 1));
  for (guint i = 0; i < self->roots->len; i++)
    {
      guint32 r = g_array_index (self->roots, guint32, i);

      self->total_cost += nodes[r].c;
      if ((nodes[r].kind == WS_AWG_WAITING || nodes[r].kind == WS_AWG_SERVICED)
          && only_hardware_below (nodes, r))
        {
          removed[r] = TRUE;
          for (guint32 child = nodes[r].first_child; child != WS_NONE; child = nodes[child].next_sibling)
            removed[child] = TRUE;
          self->pruned_cost += nodes[r].c;
          self->n_pruned++;
        }
    }
  compact (self, removed);
  link_children (self);
  build_instance_lists (self);
  g_clear_pointer (&self->pairs, g_array_unref);
  g_clear_pointer (&self->last_instance, g_array_unref);
  g_clear_pointer (&self->slots, g_free);
  self->sealed = TRUE;
}

WsAwg *
ws_awg_build (WsInstanceSet     *instances,
              WsSignatures      *signatures,
              WsFrameClassifier *classifier,
              GCancellable      *cancellable,
              WsProgressFunc     progress,
              gpointer           progress_data,
              double             progress_from,
              double             progress_to,
              GError           **error)
{
  g_autoptr(WsAwg) self = NULL;
  guint n, step;

  g_return_val_if_fail (WS_IS_INSTANCE_SET (instances), NULL);
  g_return_val_if_fail (WS_IS_SIGNATURES (signatures), NULL);

  self = ws_awg_new (signatures);
  n = ws_instance_set_get_n (instances);
  step = MAX (n / 100, 1);
  for (guint i = 0; i < n; i++)
    {
      const WsInstanceRef *ref = ws_instance_set_get (instances, i);
      g_autoptr(WsWaitGraph) graph = NULL;
      WsSymptom symptom;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (ref->input != NULL)
        /* A digest's instance: its wait graph was reduced when written. */
        ws_awg_add_input (self, ref->input, ref->stacks, i);
      else
        {
          symptom = ref->span;
          graph = ws_wait_graph_build (ref->trace, &symptom, classifier, cancellable, error);
          if (graph == NULL)
            return NULL;
          ws_awg_add_wait_graph (self, graph, i);
        }
      if (progress != NULL && i % step == 0)
        progress (progress_from + (progress_to - progress_from) * i / n,
                  _("Aggregating wait graphs"), progress_data);
    }
  ws_awg_reduce (self);
  return g_steal_pointer (&self);
}

WsSignatures *
ws_awg_get_signatures (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  return self->signatures;
}

guint
ws_awg_get_n_nodes (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->nodes->len;
}

const WsAwgNode *
ws_awg_get_node (WsAwg *self,
                 guint  node)
{
  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  return &g_array_index (self->nodes, WsAwgNode, node);
}

const WsAwgNode *
ws_awg_get_nodes (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  return (const WsAwgNode *) (gconstpointer) self->nodes->data;
}

const guint32 *
ws_awg_get_roots (WsAwg *self,
                  guint *n_roots)
{
  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  g_return_val_if_fail (n_roots != NULL, NULL);
  *n_roots = self->roots->len;
  return (const guint32 *) (gconstpointer) self->roots->data;
}

const guint32 *
ws_awg_get_node_instances (WsAwg *self,
                           guint  node,
                           guint *n_instances)
{
  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  g_return_val_if_fail (self->sealed, NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  g_return_val_if_fail (n_instances != NULL, NULL);
  *n_instances = self->inst_first[node + 1] - self->inst_first[node];
  return self->inst_ids + self->inst_first[node];
}

guint
ws_awg_get_n_graphs (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->n_graphs;
}

WsTime
ws_awg_get_total_cost (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->total_cost;
}

WsTime
ws_awg_get_pruned_cost (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->pruned_cost;
}

guint
ws_awg_get_n_pruned (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->n_pruned;
}

guint
ws_awg_get_n_truncated (WsAwg *self)
{
  g_return_val_if_fail (WS_IS_AWG (self), 0);
  return self->n_truncated;
}

const char *
ws_awg_node_kind_to_string (WsAwgNodeKind kind)
{
  switch (kind)
    {
    case WS_AWG_WAITING:  return "waiting";
    case WS_AWG_SERVICED: return "serviced";
    case WS_AWG_RUNNING:  return "running";
    case WS_AWG_HARDWARE: return "hardware";
    case WS_AWG_UNKNOWN:  return "unknown";
    default:              return NULL;
    }
}

static const char *
sig_text (WsAwg *self, WsSigId sig)
{
  const char *name = ws_signatures_get_name (self->signatures, sig);
  return name != NULL ? name : "(no component frame)";
}

char *
ws_awg_node_label (WsAwg *self,
                   guint  node)
{
  const WsAwgNode *n;

  g_return_val_if_fail (WS_IS_AWG (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  n = &g_array_index (self->nodes, WsAwgNode, node);
  if (n->kind == WS_AWG_WAITING)
    return g_strdup_printf ("w: %s\nu: %s", sig_text (self, n->w), sig_text (self, n->u));
  return g_strdup (sig_text (self, n->r));
}
