/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A layered layout in the Sugiyama tradition, kept linear per pass so that
 * a 10,000-node wait graph lays out in a few tens of milliseconds:
 *
 *  - no layer assignment step: callers know the layers (generation, depth);
 *  - barycenter sweeps for crossing reduction, each O(V + E) plus one
 *    stable sort per layer, with exact crossing counts to keep the best;
 *  - coordinate assignment by isotonic regression: "put every box as close
 *    as possible to the mean of its neighbours, keeping the order and the
 *    gaps" is a least-squares problem with ordering constraints, solved
 *    exactly by pool-adjacent-violators in O(n).  It is simpler than
 *    Brandes–Köpf and gives the balanced trees people expect.
 *
 * Internally everything is computed along two axes, "layer" (across the
 * layers) and "order" (along a layer), and mapped to x/y at the end, so
 * both directions share one code path.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-graph-layout.h"

#define NONE G_MAXUINT

typedef struct {
  double width;     /* as given */
  double height;
  double breadth;   /* size along the layer (order axis) */
  double depth;     /* size across the layers */
  double pos;       /* centre on the order axis */
  guint  layer;
  guint  order;
} Vertex;

typedef struct {
  guint from;
  guint to;
} Edge;

struct _WsGraphLayout
{
  GObject                 parent_instance;

  /* Input */
  GArray                 *vertices;      /* Vertex: the nodes, then dummies */
  guint                   n_nodes;
  GArray                 *edges;         /* Edge */
  GArray                 *fixed;         /* guint8 per layer */
  WsGraphLayoutDirection  direction;
  double                  node_gap;
  double                  layer_gap;
  double                  margin;
  double                  dummy_breadth;
  guint                   max_sweeps;

  /* Results of ws_graph_layout_run() */
  gboolean                laid_out;
  guint                   n_layers;
  guint                  *layer_start;   /* n_layers + 1, into layer_vertices */
  guint                  *layer_vertices;/* by layer, then order */
  guint                  *node_start;    /* n_layers + 1, into layer_nodes */
  guint                  *layer_nodes;   /* real nodes only, by layer, then order */
  double                 *layer_offset;  /* start of each layer on the layer axis */
  double                 *layer_depth;
  guint                  *up_start;      /* CSR: neighbours in the layer above */
  guint                  *up_adj;
  guint                  *down_start;    /* CSR: neighbours in the layer below */
  guint                  *down_adj;
  guint8                 *edge_shape;
  guint                  *chain_start;   /* n_edges + 1, into chain */
  GArray                 *chain;         /* guint: vertex chains, low layer first */
  guint                  *point_start;   /* n_edges + 1, into points */
  GArray                 *points;        /* WsGraphPoint */
  WsGraphRect            *edge_bounds;
  double                  extent_layer;
  double                  extent_order;
  guint64                 initial_crossings;
  guint64                 crossings;
  guint                   n_sweeps;
};

G_DEFINE_FINAL_TYPE (WsGraphLayout, ws_graph_layout, G_TYPE_OBJECT)

static void
clear_results (WsGraphLayout *self)
{
  g_clear_pointer (&self->layer_start, g_free);
  g_clear_pointer (&self->layer_vertices, g_free);
  g_clear_pointer (&self->node_start, g_free);
  g_clear_pointer (&self->layer_nodes, g_free);
  g_clear_pointer (&self->layer_offset, g_free);
  g_clear_pointer (&self->layer_depth, g_free);
  g_clear_pointer (&self->up_start, g_free);
  g_clear_pointer (&self->up_adj, g_free);
  g_clear_pointer (&self->down_start, g_free);
  g_clear_pointer (&self->down_adj, g_free);
  g_clear_pointer (&self->edge_shape, g_free);
  g_clear_pointer (&self->chain_start, g_free);
  g_clear_pointer (&self->point_start, g_free);
  g_clear_pointer (&self->edge_bounds, g_free);
  g_array_set_size (self->chain, 0);
  g_array_set_size (self->points, 0);
  g_array_set_size (self->vertices, self->n_nodes);
  self->laid_out = FALSE;
  self->n_layers = 0;
  self->extent_layer = self->extent_order = 0;
  self->initial_crossings = self->crossings = 0;
  self->n_sweeps = 0;
}

static void
ws_graph_layout_finalize (GObject *object)
{
  WsGraphLayout *self = WS_GRAPH_LAYOUT (object);

  clear_results (self);
  g_array_unref (self->vertices);
  g_array_unref (self->edges);
  g_array_unref (self->fixed);
  g_array_unref (self->chain);
  g_array_unref (self->points);

  G_OBJECT_CLASS (ws_graph_layout_parent_class)->finalize (object);
}

static void
ws_graph_layout_class_init (WsGraphLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_graph_layout_finalize;
}

static void
ws_graph_layout_init (WsGraphLayout *self)
{
  self->vertices = g_array_new (FALSE, FALSE, sizeof (Vertex));
  self->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  self->fixed = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint));
  self->points = g_array_new (FALSE, FALSE, sizeof (WsGraphPoint));
  self->direction = WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  self->node_gap = 16;
  self->layer_gap = 72;
  self->margin = 24;
  self->dummy_breadth = 8;
  self->max_sweeps = 12;
}

WsGraphLayout *
ws_graph_layout_new (void)
{
  return g_object_new (WS_TYPE_GRAPH_LAYOUT, NULL);
}

/**
 * ws_graph_layout_add_node:
 * @width: box width (layout units)
 * @height: box height
 * @layer: its layer, 0 first
 *
 * Returns: the node's index (0, 1, 2… in the order of the calls)
 */
guint
ws_graph_layout_add_node (WsGraphLayout *self,
                          double         width,
                          double         height,
                          guint          layer)
{
  Vertex v = { 0 };

  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NONE);
  g_return_val_if_fail (width >= 0 && height >= 0, NONE);

  clear_results (self);
  v.width = width;
  v.height = height;
  v.layer = layer;
  g_array_append_val (self->vertices, v);
  return self->n_nodes++;
}

/**
 * ws_graph_layout_add_edge:
 * Returns: the edge's index
 */
guint
ws_graph_layout_add_edge (WsGraphLayout *self,
                          guint          from,
                          guint          to)
{
  Edge e = { from, to };

  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NONE);
  g_return_val_if_fail (from < self->n_nodes && to < self->n_nodes, NONE);

  clear_results (self);
  g_array_append_val (self->edges, e);
  return self->edges->len - 1;
}

/**
 * ws_graph_layout_set_layer_fixed:
 * A fixed layer keeps the order in which its nodes were added (a thread's
 * events in time order, say); the other layers arrange themselves around it.
 */
void
ws_graph_layout_set_layer_fixed (WsGraphLayout *self,
                                 guint          layer,
                                 gboolean       fixed)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));

  clear_results (self);
  if (layer >= self->fixed->len)
    g_array_set_size (self->fixed, layer + 1);
  g_array_index (self->fixed, guint8, layer) = !!fixed;
}

void
ws_graph_layout_set_direction (WsGraphLayout          *self,
                               WsGraphLayoutDirection  direction)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  clear_results (self);
  self->direction = direction;
}

WsGraphLayoutDirection
ws_graph_layout_get_direction (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  return self->direction;
}

/**
 * ws_graph_layout_set_spacing:
 * @node_gap: least space between two boxes of one layer
 * @layer_gap: space between two layers, where the edges run
 * @margin: around the whole drawing
 */
void
ws_graph_layout_set_spacing (WsGraphLayout *self,
                             double         node_gap,
                             double         layer_gap,
                             double         margin)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (node_gap >= 0 && layer_gap >= 0 && margin >= 0);

  clear_results (self);
  self->node_gap = node_gap;
  self->layer_gap = layer_gap;
  self->margin = margin;
}

/* Down and up sweeps count separately; 0 keeps the input order. */
void
ws_graph_layout_set_max_sweeps (WsGraphLayout *self,
                                guint          max_sweeps)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  clear_results (self);
  self->max_sweeps = max_sweeps;
}

/* ------------------------------------------------------------------ */

static inline Vertex *
vtx (WsGraphLayout *self,
     guint          v)
{
  return &g_array_index (self->vertices, Vertex, v);
}

static gboolean
layer_is_fixed (WsGraphLayout *self,
                guint          layer)
{
  return layer < self->fixed->len && g_array_index (self->fixed, guint8, layer);
}

/* Crossings between the segments of layer @l and layer @l + 1: segments
 * are visited by upper order (the layer array is in order); a Fenwick tree
 * over the lower layer's orders counts, for each segment, the earlier
 * segments that end further along.  Segments of one upper vertex are
 * queried before any of them is inserted, so they never count against each
 * other, and equal lower ends do not cross. */
static guint64
count_layer_crossings (WsGraphLayout *self,
                       guint          l,
                       guint         *tree)
{
  guint n_lower = self->layer_start[l + 2] - self->layer_start[l + 1];
  guint64 crossings = 0, inserted = 0;

  memset (tree, 0, sizeof (guint) * (n_lower + 1));
  for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
    {
      guint v = self->layer_vertices[i];
      guint s0 = self->down_start[v], s1 = self->down_start[v + 1];

      for (guint s = s0; s < s1; s++)
        {
          guint64 not_greater = 0;

          for (guint k = vtx (self, self->down_adj[s])->order + 1; k > 0; k -= k & -k)
            not_greater += tree[k];
          crossings += inserted - not_greater;
        }
      for (guint s = s0; s < s1; s++)
        {
          for (guint k = vtx (self, self->down_adj[s])->order + 1; k <= n_lower; k += k & -k)
            tree[k]++;
          inserted++;
        }
    }
  return crossings;
}

static guint64
count_crossings (WsGraphLayout *self,
                 guint         *tree)
{
  guint64 total = 0;

  for (guint l = 0; l + 1 < self->n_layers; l++)
    total += count_layer_crossings (self, l, tree);
  return total;
}

typedef struct {
  double key;
  guint  vertex;
} SortKey;

static int
compare_keys (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortKey *ka = a, *kb = b;

  if (ka->key < kb->key)
    return -1;
  if (ka->key > kb->key)
    return 1;
  return 0;
}

/* Reorders layer @l by the barycenter of each vertex's neighbours in the
 * adjacent layer (above when sweeping down); a vertex with no neighbour
 * there keeps its current position as its key.  The sort is stable, so
 * ties keep their order. */
static void
sweep_layer (WsGraphLayout *self,
             guint          l,
             gboolean       down,
             SortKey       *keys)
{
  guint *lv = self->layer_vertices + self->layer_start[l];
  guint n = self->layer_start[l + 1] - self->layer_start[l];
  const guint *start = down ? self->up_start : self->down_start;
  const guint *adj = down ? self->up_adj : self->down_adj;

  for (guint i = 0; i < n; i++)
    {
      guint v = lv[i];
      guint s0 = start[v], s1 = start[v + 1];

      keys[i].vertex = v;
      if (s1 > s0)
        {
          double sum = 0;
          for (guint s = s0; s < s1; s++)
            sum += vtx (self, adj[s])->order;
          keys[i].key = sum / (s1 - s0);
        }
      else
        keys[i].key = i;
    }
  g_qsort_with_data (keys, n, sizeof (SortKey), compare_keys, NULL);
  for (guint i = 0; i < n; i++)
    {
      lv[i] = keys[i].vertex;
      vtx (self, lv[i])->order = i;
    }
}

static void
save_orders (WsGraphLayout *self,
             guint         *orders)
{
  for (guint v = 0; v < self->vertices->len; v++)
    orders[v] = vtx (self, v)->order;
}

static void
restore_orders (WsGraphLayout *self,
                const guint   *orders)
{
  for (guint v = 0; v < self->vertices->len; v++)
    {
      Vertex *x = vtx (self, v);
      x->order = orders[v];
      self->layer_vertices[self->layer_start[x->layer] + x->order] = v;
    }
}

static void
reduce_crossings (WsGraphLayout *self)
{
  guint n_vertices = self->vertices->len;
  g_autofree guint *tree = NULL;
  g_autofree guint *best = NULL;
  g_autofree SortKey *keys = NULL;
  guint max_layer_size = 0;
  guint64 best_crossings;
  guint stale = 0;

  for (guint l = 0; l < self->n_layers; l++)
    max_layer_size = MAX (max_layer_size, self->layer_start[l + 1] - self->layer_start[l]);
  tree = g_new (guint, max_layer_size + 1);
  keys = g_new (SortKey, MAX (max_layer_size, 1));
  best = g_new (guint, MAX (n_vertices, 1));

  best_crossings = self->initial_crossings = count_crossings (self, tree);
  save_orders (self, best);

  for (guint sweep = 0; sweep < self->max_sweeps && best_crossings > 0; sweep++)
    {
      gboolean down = sweep % 2 == 0;
      guint64 c;

      if (down)
        {
          for (guint l = 1; l < self->n_layers; l++)
            if (!layer_is_fixed (self, l))
              sweep_layer (self, l, TRUE, keys);
        }
      else
        {
          for (guint l = self->n_layers - 1; l-- > 0;)
            if (!layer_is_fixed (self, l))
              sweep_layer (self, l, FALSE, keys);
        }
      self->n_sweeps++;

      c = count_crossings (self, tree);
      if (c < best_crossings)
        {
          best_crossings = c;
          save_orders (self, best);
          stale = 0;
        }
      else if (++stale >= 4)
        break;   /* two full down/up rounds without progress */
    }

  restore_orders (self, best);
  self->crossings = best_crossings;
}

/* Places the vertices of one layer, in their order, as close as possible
 * (least squares) to @desired while keeping node_gap between neighbours.
 * With offsets o_i (the packed position of vertex i relative to vertex 0)
 * the positions are z_i + o_i for a non-decreasing z, and the best z is the
 * isotonic regression of desired_i - o_i: pool adjacent violators. */
static void
place_layer (WsGraphLayout *self,
             guint          l,
             const double  *desired,
             double        *offset,
             double        *block_sum,
             guint         *block_count)
{
  const guint *lv = self->layer_vertices + self->layer_start[l];
  guint n = self->layer_start[l + 1] - self->layer_start[l];
  guint n_blocks = 0, i = 0;

  if (n == 0)
    return;

  offset[0] = 0;
  for (guint k = 1; k < n; k++)
    offset[k] = offset[k - 1] + (vtx (self, lv[k - 1])->breadth + vtx (self, lv[k])->breadth) / 2
                + self->node_gap;

  for (guint k = 0; k < n; k++)
    {
      block_sum[n_blocks] = desired[k] - offset[k];
      block_count[n_blocks] = 1;
      n_blocks++;
      while (n_blocks > 1 &&
             block_sum[n_blocks - 2] * block_count[n_blocks - 1] >
             block_sum[n_blocks - 1] * block_count[n_blocks - 2])
        {
          block_sum[n_blocks - 2] += block_sum[n_blocks - 1];
          block_count[n_blocks - 2] += block_count[n_blocks - 1];
          n_blocks--;
        }
    }

  for (guint b = 0; b < n_blocks; b++)
    {
      double z = block_sum[b] / block_count[b];
      for (guint k = 0; k < block_count[b]; k++, i++)
        vtx (self, lv[i])->pos = z + offset[i];
    }
}

static void
position_pass (WsGraphLayout *self,
               guint          l,
               gboolean       from_above,
               double        *desired,
               double        *offset,
               double        *block_sum,
               guint         *block_count)
{
  const guint *lv = self->layer_vertices + self->layer_start[l];
  guint n = self->layer_start[l + 1] - self->layer_start[l];
  const guint *start = from_above ? self->up_start : self->down_start;
  const guint *adj = from_above ? self->up_adj : self->down_adj;

  for (guint k = 0; k < n; k++)
    {
      guint v = lv[k];
      guint s0 = start[v], s1 = start[v + 1];

      if (s1 > s0)
        {
          double sum = 0;
          for (guint s = s0; s < s1; s++)
            sum += vtx (self, adj[s])->pos;
          desired[k] = sum / (s1 - s0);
        }
      else
        desired[k] = vtx (self, v)->pos;
    }
  place_layer (self, l, desired, offset, block_sum, block_count);
}

static void
assign_positions (WsGraphLayout *self)
{
  guint max_layer_size = 0;
  g_autofree double *desired = NULL;
  g_autofree double *offset = NULL;
  g_autofree double *block_sum = NULL;
  g_autofree guint *block_count = NULL;
  double min_edge = G_MAXDOUBLE;

  for (guint l = 0; l < self->n_layers; l++)
    max_layer_size = MAX (max_layer_size, self->layer_start[l + 1] - self->layer_start[l]);
  desired = g_new (double, MAX (max_layer_size, 1));
  offset = g_new (double, MAX (max_layer_size, 1));
  block_sum = g_new (double, MAX (max_layer_size, 1));
  block_count = g_new (guint, MAX (max_layer_size, 1));

  /* Start packed, each layer centred on 0. */
  for (guint l = 0; l < self->n_layers; l++)
    {
      const guint *lv = self->layer_vertices + self->layer_start[l];
      guint n = self->layer_start[l + 1] - self->layer_start[l];
      double at = 0;

      for (guint k = 0; k < n; k++)
        {
          Vertex *x = vtx (self, lv[k]);
          x->pos = at + x->breadth / 2;
          at += x->breadth + self->node_gap;
        }
      for (guint k = 0; k < n; k++)
        vtx (self, lv[k])->pos -= at / 2;
    }

  /* Alternate: each down pass pulls children towards their parents, each
   * up pass parents over their children; ending on an up pass makes the
   * parents sit centred over what they point at. */
  for (guint round = 0; round < 4; round++)
    {
      for (guint l = 1; l < self->n_layers; l++)
        position_pass (self, l, TRUE, desired, offset, block_sum, block_count);
      for (guint l = self->n_layers - 1; l-- > 0;)
        position_pass (self, l, FALSE, desired, offset, block_sum, block_count);
    }

  for (guint v = 0; v < self->vertices->len; v++)
    min_edge = MIN (min_edge, vtx (self, v)->pos - vtx (self, v)->breadth / 2);
  self->extent_order = 0;
  for (guint v = 0; v < self->vertices->len; v++)
    {
      Vertex *x = vtx (self, v);
      x->pos += self->margin - min_edge;
      self->extent_order = MAX (self->extent_order, x->pos + x->breadth / 2);
    }
  self->extent_order += self->margin;
}

/* (layer axis, order axis) -> (x, y) */
static inline WsGraphPoint
to_xy (WsGraphLayout *self,
       double         la,
       double         o)
{
  WsGraphPoint p;

  if (self->direction == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT)
    {
      p.x = la;
      p.y = o;
    }
  else
    {
      p.x = o;
      p.y = la;
    }
  return p;
}

static inline double
layer_centre (WsGraphLayout *self,
              guint          l)
{
  return self->layer_offset[l] + self->layer_depth[l] / 2;
}

static void
route_edges (WsGraphLayout *self)
{
  guint n_edges = self->edges->len;

  self->point_start = g_new (guint, n_edges + 1);
  self->edge_bounds = g_new0 (WsGraphRect, MAX (n_edges, 1));

  for (guint e = 0; e < n_edges; e++)
    {
      const Edge *edge = &g_array_index (self->edges, Edge, e);
      guint first = self->points->len;
      double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;

      self->point_start[e] = first;

      if (self->edge_shape[e] == WS_GRAPH_EDGE_LOOP)
        continue;

      if (self->edge_shape[e] == WS_GRAPH_EDGE_FLAT)
        {
          const Vertex *a = vtx (self, edge->from), *b = vtx (self, edge->to);
          WsGraphPoint p = to_xy (self, layer_centre (self, a->layer) + a->depth / 2, a->pos);
          WsGraphPoint q = to_xy (self, layer_centre (self, b->layer) + b->depth / 2, b->pos);

          g_array_append_val (self->points, p);
          g_array_append_val (self->points, q);
        }
      else
        {
          const guint *chain = &g_array_index (self->chain, guint, self->chain_start[e]);
          guint n = self->chain_start[e + 1] - self->chain_start[e];

          for (guint k = 0; k < n; k++)
            {
              const Vertex *x = vtx (self, chain[k]);
              double c = layer_centre (self, x->layer);
              WsGraphPoint p;

              if (k == 0)
                {
                  p = to_xy (self, c + x->depth / 2, x->pos);
                  g_array_append_val (self->points, p);
                }
              else if (k == n - 1)
                {
                  p = to_xy (self, c - x->depth / 2, x->pos);
                  g_array_append_val (self->points, p);
                }
              else
                {
                  /* Straight through the layer, between its boxes. */
                  p = to_xy (self, self->layer_offset[x->layer], x->pos);
                  g_array_append_val (self->points, p);
                  p = to_xy (self, self->layer_offset[x->layer] + self->layer_depth[x->layer], x->pos);
                  g_array_append_val (self->points, p);
                }
            }

          if (self->edge_shape[e] == WS_GRAPH_EDGE_BACKWARD)
            {
              WsGraphPoint *pts = &g_array_index (self->points, WsGraphPoint, first);
              guint m = self->points->len - first;

              for (guint k = 0; k < m / 2; k++)
                {
                  WsGraphPoint t = pts[k];
                  pts[k] = pts[m - 1 - k];
                  pts[m - 1 - k] = t;
                }
            }
        }

      for (guint k = first; k < self->points->len; k++)
        {
          const WsGraphPoint *p = &g_array_index (self->points, WsGraphPoint, k);
          x0 = MIN (x0, p->x);
          y0 = MIN (y0, p->y);
          x1 = MAX (x1, p->x);
          y1 = MAX (y1, p->y);
        }
      if (self->edge_shape[e] == WS_GRAPH_EDGE_FLAT)
        {
          /* The renderer bows flat edges out by up to half a layer gap. */
          if (self->direction == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT)
            x1 += self->layer_gap / 2;
          else
            y1 += self->layer_gap / 2;
        }
      self->edge_bounds[e].x = x0;
      self->edge_bounds[e].y = y0;
      self->edge_bounds[e].width = x1 - x0;
      self->edge_bounds[e].height = y1 - y0;
    }
  self->point_start[n_edges] = self->points->len;
}

/* Sizes along the axes of this direction, and the number of layers. */
static void
prepare_vertices (WsGraphLayout *self)
{
  gboolean lr = self->direction == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;

  for (guint v = 0; v < self->n_nodes; v++)
    {
      Vertex *x = vtx (self, v);

      x->breadth = lr ? x->height : x->width;
      x->depth = lr ? x->width : x->height;
      self->n_layers = MAX (self->n_layers, x->layer + 1);
    }
}

/* Edge @e spanning several layers becomes a chain of dummy vertices, one
 * per layer crossed, joined by segments from the upper to the lower
 * layer. */
static void
split_edge (WsGraphLayout *self,
            guint          e,
            GArray        *segments)
{
  const Edge *edge = &g_array_index (self->edges, Edge, e);
  guint la = vtx (self, edge->from)->layer, lb = vtx (self, edge->to)->layer;
  guint lo, hi, prev;
  Edge last;

  if (edge->from == edge->to || la == lb)
    {
      self->edge_shape[e] = edge->from == edge->to ? WS_GRAPH_EDGE_LOOP : WS_GRAPH_EDGE_FLAT;
      return;
    }
  self->edge_shape[e] = la < lb ? WS_GRAPH_EDGE_FORWARD : WS_GRAPH_EDGE_BACKWARD;
  lo = la < lb ? edge->from : edge->to;
  hi = la < lb ? edge->to : edge->from;

  g_array_append_val (self->chain, lo);
  prev = lo;
  for (guint l = MIN (la, lb) + 1; l < MAX (la, lb); l++)
    {
      Vertex d = { 0 };
      guint dv = self->vertices->len;
      Edge s = { prev, dv };

      d.breadth = self->dummy_breadth;
      d.layer = l;
      g_array_append_val (self->vertices, d);
      g_array_append_val (self->chain, dv);
      g_array_append_val (segments, s);
      prev = dv;
    }
  last = (Edge) { prev, hi };
  g_array_append_val (segments, last);
  g_array_append_val (self->chain, hi);
}

/* 1. Dummies and segments. */
static GArray *
split_edges (WsGraphLayout *self)
{
  guint n_edges = self->edges->len;
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (Edge));

  self->edge_shape = g_new0 (guint8, MAX (n_edges, 1));
  self->chain_start = g_new (guint, n_edges + 1);
  for (guint e = 0; e < n_edges; e++)
    {
      self->chain_start[e] = self->chain->len;
      split_edge (self, e, segments);
    }
  self->chain_start[n_edges] = self->chain->len;
  return segments;
}

/* CSR adjacency of the segments, both ways. */
static void
build_adjacency (WsGraphLayout *self,
                 GArray        *segments)
{
  guint n_vertices = self->vertices->len;
  g_autofree guint *fill = g_new (guint, n_vertices + 1);

  self->up_start = g_new0 (guint, n_vertices + 1);
  self->down_start = g_new0 (guint, n_vertices + 1);
  for (guint s = 0; s < segments->len; s++)
    {
      const Edge *seg = &g_array_index (segments, Edge, s);
      self->down_start[seg->from + 1]++;
      self->up_start[seg->to + 1]++;
    }
  for (guint v = 0; v < n_vertices; v++)
    {
      self->down_start[v + 1] += self->down_start[v];
      self->up_start[v + 1] += self->up_start[v];
    }
  self->down_adj = g_new (guint, MAX (segments->len, 1));
  self->up_adj = g_new (guint, MAX (segments->len, 1));
  memcpy (fill, self->down_start, sizeof (guint) * (n_vertices + 1));
  for (guint s = 0; s < segments->len; s++)
    {
      const Edge *seg = &g_array_index (segments, Edge, s);
      self->down_adj[fill[seg->from]++] = seg->to;
    }
  memcpy (fill, self->up_start, sizeof (guint) * (n_vertices + 1));
  for (guint s = 0; s < segments->len; s++)
    {
      const Edge *seg = &g_array_index (segments, Edge, s);
      self->up_adj[fill[seg->to]++] = seg->from;
    }
}

/* Initial order: input order, dummies after the nodes (a counting sort by
 * layer keeps index order). */
static void
initial_order (WsGraphLayout *self)
{
  guint n_vertices = self->vertices->len;
  g_autofree guint *fill = g_new (guint, self->n_layers + 1);

  self->layer_start = g_new0 (guint, self->n_layers + 1);
  for (guint v = 0; v < n_vertices; v++)
    self->layer_start[vtx (self, v)->layer + 1]++;
  for (guint l = 0; l < self->n_layers; l++)
    self->layer_start[l + 1] += self->layer_start[l];
  self->layer_vertices = g_new (guint, MAX (n_vertices, 1));
  memcpy (fill, self->layer_start, sizeof (guint) * (self->n_layers + 1));
  for (guint v = 0; v < n_vertices; v++)
    {
      Vertex *x = vtx (self, v);
      x->order = fill[x->layer] - self->layer_start[x->layer];
      self->layer_vertices[fill[x->layer]++] = v;
    }
}

/* 4. Layers one after the other. */
static void
stack_layers (WsGraphLayout *self)
{
  self->layer_offset = g_new0 (double, self->n_layers + 1);
  self->layer_depth = g_new0 (double, self->n_layers + 1);
  for (guint v = 0; v < self->n_nodes; v++)
    {
      Vertex *x = vtx (self, v);
      self->layer_depth[x->layer] = MAX (self->layer_depth[x->layer], x->depth);
    }
  for (guint l = 0; l < self->n_layers; l++)
    {
      self->layer_offset[l] = l == 0 ? self->margin
                                     : self->layer_offset[l - 1] + self->layer_depth[l - 1] + self->layer_gap;
    }
  self->extent_layer = self->n_layers == 0 ? 2 * self->margin
                       : self->layer_offset[self->n_layers - 1] + self->layer_depth[self->n_layers - 1] + self->margin;
  if (self->n_layers == 0)
    self->extent_order = 2 * self->margin;
}

/* Real nodes per layer, in order, for hit tests and culling. */
static void
index_layer_nodes (WsGraphLayout *self)
{
  self->node_start = g_new0 (guint, self->n_layers + 1);
  self->layer_nodes = g_new (guint, MAX (self->n_nodes, 1));
  for (guint l = 0, k = 0; l < self->n_layers; l++)
    {
      self->node_start[l] = k;
      for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
        if (self->layer_vertices[i] < self->n_nodes)
          self->layer_nodes[k++] = self->layer_vertices[i];
      self->node_start[l + 1] = k;
    }
}

/**
 * ws_graph_layout_run:
 *
 * Lays the graph out.  Adding nodes or edges or changing a setting
 * afterwards drops the result until the next run.
 */
void
ws_graph_layout_run (WsGraphLayout *self)
{
  g_autoptr(GArray) segments = NULL;

  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));

  clear_results (self);
  prepare_vertices (self);
  segments = split_edges (self);
  build_adjacency (self, segments);
  initial_order (self);
  if (self->n_layers > 0)
    {
      /* 2. Crossing reduction. */
      reduce_crossings (self);
      /* 3. Positions along the layers. */
      assign_positions (self);
    }
  stack_layers (self);
  index_layer_nodes (self);
  route_edges (self);

  self->laid_out = TRUE;
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

guint
ws_graph_layout_get_n_nodes (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->n_nodes;
}

guint
ws_graph_layout_get_n_edges (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->edges->len;
}

guint
ws_graph_layout_get_n_layers (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->n_layers;
}

/* The number of dummy vertices the last run inserted into long edges. */
guint
ws_graph_layout_get_n_dummies (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->laid_out ? self->vertices->len - self->n_nodes : 0;
}

/**
 * ws_graph_layout_get_node_rect:
 * @rect: (out): the box, top left and size
 */
void
ws_graph_layout_get_node_rect (WsGraphLayout *self,
                               guint          node,
                               WsGraphRect   *rect)
{
  const Vertex *x;
  WsGraphPoint c;

  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (self->laid_out);
  g_return_if_fail (node < self->n_nodes);
  g_return_if_fail (rect != NULL);

  x = vtx (self, node);
  c = to_xy (self, layer_centre (self, x->layer), x->pos);
  rect->x = c.x - x->width / 2;
  rect->y = c.y - x->height / 2;
  rect->width = x->width;
  rect->height = x->height;
}

guint
ws_graph_layout_get_node_layer (WsGraphLayout *self,
                                guint          node)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);
  return vtx (self, node)->layer;
}

/* Position of @node within its layer after crossing reduction (0 first;
 * dummies count). */
guint
ws_graph_layout_get_node_order (WsGraphLayout *self,
                                guint          node)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NONE);
  g_return_val_if_fail (self->laid_out, NONE);
  g_return_val_if_fail (node < self->n_nodes, NONE);
  return vtx (self, node)->order;
}

/**
 * ws_graph_layout_get_layer_nodes:
 * @n_nodes: (out):
 *
 * Returns: (transfer none) (array length=n_nodes): the nodes of @layer in
 *   their final order (dummies left out)
 */
const guint *
ws_graph_layout_get_layer_nodes (WsGraphLayout *self,
                                 guint          layer,
                                 guint         *n_nodes)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);

  if (!self->laid_out || layer >= self->n_layers)
    {
      *n_nodes = 0;
      return NULL;
    }
  *n_nodes = self->node_start[layer + 1] - self->node_start[layer];
  return self->layer_nodes + self->node_start[layer];
}

/**
 * ws_graph_layout_get_layer_extent:
 * @start: (out): where @layer begins across the layers (x when left to
 *   right, y when top to bottom)
 * @size: (out): its depth: the widest (tallest) box in it
 */
void
ws_graph_layout_get_layer_extent (WsGraphLayout *self,
                                  guint          layer,
                                  double        *start,
                                  double        *size)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (self->laid_out && layer < self->n_layers);

  if (start)
    *start = self->layer_offset[layer];
  if (size)
    *size = self->layer_depth[layer];
}

void
ws_graph_layout_get_edge_ends (WsGraphLayout *self,
                               guint          edge,
                               guint         *from,
                               guint         *to)
{
  const Edge *e;

  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (edge < self->edges->len);

  e = &g_array_index (self->edges, Edge, edge);
  if (from)
    *from = e->from;
  if (to)
    *to = e->to;
}

WsGraphEdgeShape
ws_graph_layout_get_edge_shape (WsGraphLayout *self,
                                guint          edge)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), WS_GRAPH_EDGE_LOOP);
  g_return_val_if_fail (self->laid_out, WS_GRAPH_EDGE_LOOP);
  g_return_val_if_fail (edge < self->edges->len, WS_GRAPH_EDGE_LOOP);
  return self->edge_shape[edge];
}

/**
 * ws_graph_layout_get_edge_points:
 * @n_points: (out):
 *
 * Returns: (transfer none) (array length=n_points): the polyline of @edge
 *   from its source's box border to its target's, through the gaps of the
 *   layers it crosses (two points per crossed layer).  A renderer joins
 *   consecutive points with curves that leave and enter along the layer
 *   axis.
 */
const WsGraphPoint *
ws_graph_layout_get_edge_points (WsGraphLayout *self,
                                 guint          edge,
                                 guint         *n_points)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NULL);
  g_return_val_if_fail (n_points != NULL, NULL);
  g_return_val_if_fail (self->laid_out, NULL);
  g_return_val_if_fail (edge < self->edges->len, NULL);

  *n_points = self->point_start[edge + 1] - self->point_start[edge];
  return &g_array_index (self->points, WsGraphPoint, self->point_start[edge]);
}

/* A box that holds everything drawn for @edge (but its arrowhead). */
void
ws_graph_layout_get_edge_bounds (WsGraphLayout *self,
                                 guint          edge,
                                 WsGraphRect   *rect)
{
  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (self->laid_out);
  g_return_if_fail (edge < self->edges->len);
  g_return_if_fail (rect != NULL);

  *rect = self->edge_bounds[edge];
}

void
ws_graph_layout_get_bounds (WsGraphLayout *self,
                            double        *width,
                            double        *height)
{
  WsGraphPoint p;

  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));

  p = to_xy (self, self->extent_layer, self->extent_order);
  if (width)
    *width = p.x;
  if (height)
    *height = p.y;
}

/* The first node of layer @l whose far edge along the layer is >= @o. */
static guint
layer_lower_bound (WsGraphLayout *self,
                   guint          l,
                   double         o)
{
  guint lo = self->node_start[l], hi = self->node_start[l + 1];

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Vertex *x = vtx (self, self->layer_nodes[mid]);

      if (x->pos + x->breadth / 2 < o)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
from_xy (WsGraphLayout *self,
         double         x,
         double         y,
         double        *la,
         double        *o)
{
  if (self->direction == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT)
    {
      *la = x;
      *o = y;
    }
  else
    {
      *la = y;
      *o = x;
    }
}

/**
 * ws_graph_layout_node_at:
 *
 * Returns: the node whose box contains (@x, @y), or %G_MAXUINT
 */
guint
ws_graph_layout_node_at (WsGraphLayout *self,
                         double         x,
                         double         y)
{
  double la, o;
  guint lo, hi;

  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), NONE);

  if (!self->laid_out || self->n_layers == 0)
    return NONE;

  from_xy (self, x, y, &la, &o);

  /* The last layer starting at or before la. */
  lo = 0;
  hi = self->n_layers;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (self->layer_offset[mid] <= la)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NONE;
  lo--;
  if (la > self->layer_offset[lo] + self->layer_depth[lo])
    return NONE;

  for (guint i = layer_lower_bound (self, lo, o); i < self->node_start[lo + 1]; i++)
    {
      guint node = self->layer_nodes[i];
      const Vertex *v = vtx (self, node);
      double c = layer_centre (self, lo);

      if (v->pos - v->breadth / 2 > o)
        break;
      if (fabs (la - c) <= v->depth / 2)
        return node;
    }
  return NONE;
}

/**
 * ws_graph_layout_query_rect:
 * @nodes: (element-type guint): receives the nodes whose boxes meet @rect,
 *   layer by layer, in order
 *
 * O(layers × log n + answer): what a renderer needs to cull.
 */
void
ws_graph_layout_query_rect (WsGraphLayout     *self,
                            const WsGraphRect *rect,
                            GArray            *nodes)
{
  double la0, o0, la1, o1;

  g_return_if_fail (WS_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (rect != NULL);
  g_return_if_fail (nodes != NULL);

  if (!self->laid_out)
    return;

  from_xy (self, rect->x, rect->y, &la0, &o0);
  from_xy (self, rect->x + rect->width, rect->y + rect->height, &la1, &o1);

  for (guint l = 0; l < self->n_layers; l++)
    {
      if (self->layer_offset[l] > la1)
        break;
      if (self->layer_offset[l] + self->layer_depth[l] < la0)
        continue;

      for (guint i = layer_lower_bound (self, l, o0); i < self->node_start[l + 1]; i++)
        {
          guint node = self->layer_nodes[i];
          const Vertex *v = vtx (self, node);
          double c = layer_centre (self, l);

          if (v->pos - v->breadth / 2 > o1)
            break;
          if (c + v->depth / 2 >= la0 && c - v->depth / 2 <= la1)
            g_array_append_val (nodes, node);
        }
    }
}

/* Crossings of the input order (with dummies after the nodes). */
guint64
ws_graph_layout_get_initial_crossings (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->initial_crossings;
}

/* Crossings of the final order, counted between adjacent layers (edges
 * inside a layer are not counted). */
guint64
ws_graph_layout_get_crossings (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->crossings;
}

guint
ws_graph_layout_get_n_sweeps (WsGraphLayout *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_LAYOUT (self), 0);
  return self->n_sweeps;
}
