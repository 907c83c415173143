/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The layered layout: exact crossing counts on hand-made graphs, against a
 * brute-force count and a brute-force optimum over all orders on small
 * graphs; geometric invariants (layers, no overlaps, edge direction, long
 * edges kept clear of boxes) on random graphs in both directions; hit
 * tests and culling queries against a scan of every box.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-graph-layout.h"

#define EPS 1e-6

typedef struct {
  guint from;
  guint to;
} TestEdge;

/* Crossings from the final orders, by comparing every pair of segments
 * between adjacent layers (O(E²)), with long edges split at dummy layers
 * the way the layout does: a test independent of the Fenwick count.  Only
 * for graphs without long edges (dummies have no public order). */
static guint64
brute_crossings (WsGraphLayout  *layout,
                 const TestEdge *edges,
                 guint           n_edges)
{
  guint64 c = 0;

  for (guint i = 0; i < n_edges; i++)
    for (guint j = i + 1; j < n_edges; j++)
      {
        guint a0 = edges[i].from, a1 = edges[i].to, b0 = edges[j].from, b1 = edges[j].to;
        guint la0 = ws_graph_layout_get_node_layer (layout, a0);
        guint la1 = ws_graph_layout_get_node_layer (layout, a1);
        guint lb0 = ws_graph_layout_get_node_layer (layout, b0);
        guint lb1 = ws_graph_layout_get_node_layer (layout, b1);
        gint64 d0, d1;

        /* Normalise to upper -> lower. */
        if (la0 > la1) { guint t = a0; a0 = a1; a1 = t; t = la0; la0 = la1; la1 = t; }
        if (lb0 > lb1) { guint t = b0; b0 = b1; b1 = t; t = lb0; lb0 = lb1; lb1 = t; }
        if (la0 != lb0 || la1 != lb1 || la1 != la0 + 1)
          continue;
        d0 = (gint64) ws_graph_layout_get_node_order (layout, a0) - ws_graph_layout_get_node_order (layout, b0);
        d1 = (gint64) ws_graph_layout_get_node_order (layout, a1) - ws_graph_layout_get_node_order (layout, b1);
        if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0))
          c++;
      }
  return c;
}

static WsGraphLayout *
make_layout (const guint    *layers,
             guint           n_nodes,
             const TestEdge *edges,
             guint           n_edges)
{
  WsGraphLayout *layout = ws_graph_layout_new ();

  for (guint i = 0; i < n_nodes; i++)
    g_assert_cmpuint (ws_graph_layout_add_node (layout, 100, 40, layers[i]), ==, i);
  for (guint e = 0; e < n_edges; e++)
    g_assert_cmpuint (ws_graph_layout_add_edge (layout, edges[e].from, edges[e].to), ==, e);
  return layout;
}

/* a0 a1 a2 over b0 b1 b2 wired in reverse: 3 crossings as given, 0 after. */
static void
test_reverse_wiring (void)
{
  static const guint layers[] = { 0, 0, 0, 1, 1, 1 };
  static const TestEdge edges[] = { { 0, 5 }, { 1, 4 }, { 2, 3 } };
  g_autoptr(WsGraphLayout) layout = make_layout (layers, 6, edges, 3);

  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_initial_crossings (layout), ==, 3);
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, 0);
  g_assert_cmpuint (brute_crossings (layout, edges, 3), ==, 0);
  /* The first down sweep sorts layer 1 by its parents: b2 b1 b0. */
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 5), ==, 0);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 4), ==, 1);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 3), ==, 2);
  g_assert_cmpuint (ws_graph_layout_get_n_sweeps (layout), ==, 1);

  /* With no sweeps allowed, the input order stays. */
  ws_graph_layout_set_max_sweeps (layout, 0);
  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, 3);
  g_assert_cmpuint (brute_crossings (layout, edges, 3), ==, 3);
}

/* K(2,2): one crossing whatever the order. */
static void
test_unavoidable (void)
{
  static const guint layers[] = { 0, 0, 1, 1 };
  static const TestEdge edges[] = { { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 } };
  g_autoptr(WsGraphLayout) layout = make_layout (layers, 4, edges, 4);

  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_initial_crossings (layout), ==, 1);
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, 1);
  g_assert_cmpuint (brute_crossings (layout, edges, 4), ==, 1);
}

/*
 * A three-layer graph worked by hand:
 *
 *   layer 0:  r0 r1          (0, 1)
 *   layer 1:  m0 m1 m2 m3    (2, 3, 4, 5)
 *   layer 2:  l0 l1 l2       (6, 7, 8)
 *
 * edges r0-m2, r0-m3, r1-m0, r1-m1, m0-l2, m1-l2, m2-l0, m3-l1.
 * Input order: r0's children (orders 2, 3) come after r1's (0, 1): 4
 * crossings between layers 0 and 1; between 1 and 2 the pairs by m order
 * are (0,2) (1,2) (2,0) (3,1): 4 more inversions.  Total 8.
 * Down sweep: m keys 1, 1, 0, 0 -> m2 m3 m0 m1; l keys: l0 = order(m2) =
 * 0, l1 = order(m3) = 1, l2 = (order(m0) + order(m1)) / 2 = 2.5 -> l0 l1
 * l2, no crossing left.
 */
static void
test_hand_worked (void)
{
  static const guint layers[] = { 0, 0, 1, 1, 1, 1, 2, 2, 2 };
  static const TestEdge edges[] = {
    { 0, 4 }, { 0, 5 }, { 1, 2 }, { 1, 3 },
    { 2, 8 }, { 3, 8 }, { 4, 6 }, { 5, 7 },
  };
  g_autoptr(WsGraphLayout) layout = make_layout (layers, 9, edges, G_N_ELEMENTS (edges));

  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_initial_crossings (layout), ==, 8);
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, 0);
  g_assert_cmpuint (brute_crossings (layout, edges, G_N_ELEMENTS (edges)), ==, 0);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 4), ==, 0);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 5), ==, 1);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 2), ==, 2);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 3), ==, 3);

  /* Fixing layer 1 in its input order: the down sweep sorts layer 2 to
   * l2 l0 l1 (keys 2, 3, 0.5), leaving the 4 crossings above layer 1;
   * the up sweep then swaps layer 0 to r1 r0 (keys 2.5, 0.5). */
  ws_graph_layout_set_layer_fixed (layout, 1, TRUE);
  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 2), ==, 0);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 5), ==, 3);
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==,
                    brute_crossings (layout, edges, G_N_ELEMENTS (edges)));
  g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, 0);
  g_assert_cmpuint (ws_graph_layout_get_node_order (layout, 1), ==, 0);
}

/* All permutations of arr[k..n) in place, calling @cb for each. */
static void
permute (guint   *arr,
         guint    k,
         guint    n,
         void   (*cb) (gpointer),
         gpointer data)
{
  if (k + 1 >= n)
    {
      cb (data);
      return;
    }
  for (guint i = k; i < n; i++)
    {
      guint t = arr[k]; arr[k] = arr[i]; arr[i] = t;
      permute (arr, k + 1, n, cb, data);
      t = arr[k]; arr[k] = arr[i]; arr[i] = t;
    }
}

typedef struct {
  guint          *pos;      /* node -> position in its layer */
  guint          *perm[3];  /* layer -> nodes */
  guint           size[3];
  const TestEdge *edges;
  guint           n_edges;
  const guint    *layer;    /* node -> layer */
  guint64         best;
  guint           level;
} Brute;

static void brute_level (gpointer data);

static void
brute_level (gpointer data)
{
  Brute *b = data;

  if (b->level < 2)
    {
      b->level++;
      permute (b->perm[b->level], 0, b->size[b->level], brute_level, b);
      b->level--;
      return;
    }
  for (guint l = 0; l < 3; l++)
    for (guint i = 0; i < b->size[l]; i++)
      b->pos[b->perm[l][i]] = i;
  {
    guint64 c = 0;
    for (guint i = 0; i < b->n_edges; i++)
      for (guint j = i + 1; j < b->n_edges; j++)
        {
          gint64 d0 = (gint64) b->pos[b->edges[i].from] - b->pos[b->edges[j].from];
          gint64 d1 = (gint64) b->pos[b->edges[i].to] - b->pos[b->edges[j].to];
          if (b->layer[b->edges[i].from] != b->layer[b->edges[j].from])
            continue;
          if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0))
            c++;
        }
    b->best = MIN (b->best, c);
  }
}

/* Random 3-layer graphs with edges only between adjacent layers: the
 * result is never worse than the input, equals the exhaustive count, and
 * is at least the exhaustive optimum; over the whole set the heuristic
 * finds the optimum most of the time. */
static void
test_random_small_vs_brute_force (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  guint optimal = 0, total_initial = 0, total_final = 0;

  for (guint round = 0; round < 60; round++)
    {
      guint size[3], layers[15], n = 0;
      TestEdge edges[40];
      guint n_edges = 0;
      guint start[3];
      g_autoptr(WsGraphLayout) layout = NULL;
      Brute b = { 0 };
      guint pos[15];
      guint perm0[5], perm1[5], perm2[5];

      for (guint l = 0; l < 3; l++)
        {
          size[l] = g_rand_int_range (rand, 2, 6);
          start[l] = n;
          for (guint i = 0; i < size[l]; i++)
            layers[n++] = l;
        }
      for (guint l = 0; l < 2; l++)
        for (guint i = 0; i < size[l]; i++)
          for (guint j = 0; j < size[l + 1]; j++)
            if (g_rand_int_range (rand, 0, 100) < 35 && n_edges < G_N_ELEMENTS (edges))
              {
                edges[n_edges].from = start[l] + i;
                edges[n_edges].to = start[l + 1] + j;
                n_edges++;
              }

      layout = make_layout (layers, n, edges, n_edges);
      ws_graph_layout_run (layout);

      for (guint i = 0; i < size[0]; i++) perm0[i] = start[0] + i;
      for (guint i = 0; i < size[1]; i++) perm1[i] = start[1] + i;
      for (guint i = 0; i < size[2]; i++) perm2[i] = start[2] + i;
      b.pos = pos;
      b.perm[0] = perm0;
      b.perm[1] = perm1;
      b.perm[2] = perm2;
      memcpy (b.size, size, sizeof size);
      b.edges = edges;
      b.n_edges = n_edges;
      b.layer = layers;
      b.best = G_MAXUINT64;
      b.level = 0;
      permute (perm0, 0, size[0], brute_level, &b);

      g_assert_cmpuint (ws_graph_layout_get_crossings (layout), ==, brute_crossings (layout, edges, n_edges));
      g_assert_cmpuint (ws_graph_layout_get_crossings (layout), <=, ws_graph_layout_get_initial_crossings (layout));
      g_assert_cmpuint (ws_graph_layout_get_crossings (layout), >=, b.best);
      if (ws_graph_layout_get_crossings (layout) == b.best)
        optimal++;
      total_initial += ws_graph_layout_get_initial_crossings (layout);
      total_final += ws_graph_layout_get_crossings (layout);
    }
  g_test_message ("optimal in %u of 60; crossings %u -> %u", optimal, total_initial, total_final);
  g_assert_cmpuint (optimal, >=, 40);
  g_assert_cmpuint (total_final * 2, <, total_initial);
}

/* Geometry of any layout: per layer one centre line on the layer axis,
 * layers apart by the gap, boxes in order without overlap, edges from
 * border to border along the layer direction, long edges clear of boxes. */
static void
check_geometry (WsGraphLayout  *layout,
                const guint    *layers,
                guint           n_nodes,
                const TestEdge *edges,
                guint           n_edges,
                double          node_gap,
                double          layer_gap)
{
  gboolean lr = ws_graph_layout_get_direction (layout) == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  guint n_layers = ws_graph_layout_get_n_layers (layout);
  g_autofree double *lo = g_new (double, n_layers);
  g_autofree double *hi = g_new (double, n_layers);
  double width, height;
  guint n_long = 0;

  ws_graph_layout_get_bounds (layout, &width, &height);

#define LA(r) (lr ? (r).x : (r).y)
#define LAS(r) (lr ? (r).width : (r).height)
#define OA(r) (lr ? (r).y : (r).x)
#define OAS(r) (lr ? (r).height : (r).width)

  for (guint l = 0; l < n_layers; l++)
    {
      guint n;
      const guint *nodes = ws_graph_layout_get_layer_nodes (layout, l, &n);
      double centre = 0;

      lo[l] = G_MAXDOUBLE;
      hi[l] = -G_MAXDOUBLE;
      for (guint i = 0; i < n; i++)
        {
          WsGraphRect r, next;

          g_assert_cmpuint (layers[nodes[i]], ==, l);
          ws_graph_layout_get_node_rect (layout, nodes[i], &r);
          g_assert_cmpfloat (r.x, >=, 0);
          g_assert_cmpfloat (r.y, >=, 0);
          g_assert_cmpfloat (r.x + r.width, <=, width + EPS);
          g_assert_cmpfloat (r.y + r.height, <=, height + EPS);
          if (i == 0)
            centre = LA (r) + LAS (r) / 2;
          g_assert_cmpfloat (fabs (LA (r) + LAS (r) / 2 - centre), <, EPS);
          lo[l] = MIN (lo[l], LA (r));
          hi[l] = MAX (hi[l], LA (r) + LAS (r));
          if (i > 0)
            g_assert_cmpuint (ws_graph_layout_get_node_order (layout, nodes[i]), >,
                              ws_graph_layout_get_node_order (layout, nodes[i - 1]));
          if (i + 1 < n)
            {
              ws_graph_layout_get_node_rect (layout, nodes[i + 1], &next);
              g_assert_cmpfloat (OA (next), >=, OA (r) + OAS (r) + node_gap - EPS);
            }
        }
      if (l > 0 && n > 0)
        g_assert_cmpfloat (lo[l], >=, hi[l - 1] + layer_gap - EPS);
    }

  for (guint e = 0; e < n_edges; e++)
    {
      guint n_points;
      const WsGraphPoint *p = ws_graph_layout_get_edge_points (layout, e, &n_points);
      guint la = layers[edges[e].from], lb = layers[edges[e].to];
      WsGraphRect rf, rt;
      WsGraphEdgeShape shape = ws_graph_layout_get_edge_shape (layout, e);

      ws_graph_layout_get_node_rect (layout, edges[e].from, &rf);
      ws_graph_layout_get_node_rect (layout, edges[e].to, &rt);

      if (edges[e].from == edges[e].to)
        {
          g_assert_cmpint (shape, ==, WS_GRAPH_EDGE_LOOP);
          g_assert_cmpuint (n_points, ==, 0);
          continue;
        }
      if (la == lb)
        {
          g_assert_cmpint (shape, ==, WS_GRAPH_EDGE_FLAT);
          g_assert_cmpuint (n_points, ==, 2);
          continue;
        }
      g_assert_cmpint (shape, ==, la < lb ? WS_GRAPH_EDGE_FORWARD : WS_GRAPH_EDGE_BACKWARD);
      /* Two ends plus two points per layer crossed. */
      g_assert_cmpuint (n_points, ==, 2 + 2 * (MAX (la, lb) - MIN (la, lb) - 1));
      if (MAX (la, lb) - MIN (la, lb) > 1)
        n_long += MAX (la, lb) - MIN (la, lb) - 1;

      /* Starts on the source's border facing the target, ends on the
       * target's border facing the source, at the box centres. */
      {
        WsGraphPoint a = p[0], z = p[n_points - 1];
        double ea = la < lb ? LA (rf) + LAS (rf) : LA (rf);
        double ez = la < lb ? LA (rt) : LA (rt) + LAS (rt);

        g_assert_cmpfloat (fabs ((lr ? a.x : a.y) - ea), <, EPS);
        g_assert_cmpfloat (fabs ((lr ? z.x : z.y) - ez), <, EPS);
        g_assert_cmpfloat (fabs ((lr ? a.y : a.x) - (OA (rf) + OAS (rf) / 2)), <, EPS);
        g_assert_cmpfloat (fabs ((lr ? z.y : z.x) - (OA (rt) + OAS (rt) / 2)), <, EPS);
      }
      /* Monotone along the layer axis, in the edge's direction (a layer
       * with no box has no depth: its two points coincide there). */
      for (guint k = 1; k < n_points; k++)
        {
          double d = (lr ? p[k].x - p[k - 1].x : p[k].y - p[k - 1].y);
          if (la < lb)
            g_assert_cmpfloat (d, >=, 0);
          else
            g_assert_cmpfloat (d, <=, 0);
        }
      {
        double d = (lr ? p[n_points - 1].x - p[0].x : p[n_points - 1].y - p[0].y);
        g_assert_cmpfloat (la < lb ? d : -d, >, 0);
      }
      /* Points inside crossed layers miss every box of that layer. */
      for (guint k = 1; k + 1 < n_points; k++)
        {
          double pl = lr ? p[k].x : p[k].y, po = lr ? p[k].y : p[k].x;

          for (guint v = 0; v < n_nodes; v++)
            {
              WsGraphRect r;
              ws_graph_layout_get_node_rect (layout, v, &r);
              if (pl > LA (r) - EPS && pl < LA (r) + LAS (r) + EPS)
                g_assert_false (po > OA (r) - EPS && po < OA (r) + OAS (r) + EPS);
            }
        }
    }
  g_assert_cmpuint (ws_graph_layout_get_n_dummies (layout), ==, n_long);
#undef LA
#undef LAS
#undef OA
#undef OAS
}

static void
run_random_geometry (WsGraphLayoutDirection direction)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (77);

  for (guint round = 0; round < 25; round++)
    {
      guint n_nodes = g_rand_int_range (rand, 5, 60);
      guint n_layers = g_rand_int_range (rand, 1, 7);
      g_autofree guint *layers = g_new (guint, n_nodes);
      g_autofree TestEdge *edges = g_new (TestEdge, n_nodes * 2);
      g_autoptr(WsGraphLayout) layout = ws_graph_layout_new ();
      guint n_edges = 0;

      ws_graph_layout_set_direction (layout, direction);
      ws_graph_layout_set_spacing (layout, 10, 50, 20);
      for (guint i = 0; i < n_nodes; i++)
        {
          layers[i] = g_rand_int_range (rand, 0, n_layers);
          ws_graph_layout_add_node (layout, g_rand_int_range (rand, 20, 200),
                                    g_rand_int_range (rand, 10, 80), layers[i]);
        }
      for (guint e = 0; e < n_nodes * 2; e++)
        {
          edges[n_edges].from = g_rand_int_range (rand, 0, n_nodes);
          edges[n_edges].to = g_rand_int_range (rand, 0, n_nodes);
          ws_graph_layout_add_edge (layout, edges[n_edges].from, edges[n_edges].to);
          n_edges++;
        }
      if (round % 3 == 0)
        ws_graph_layout_set_layer_fixed (layout, 0, TRUE);
      ws_graph_layout_run (layout);
      g_assert_cmpuint (ws_graph_layout_get_crossings (layout), <=,
                        ws_graph_layout_get_initial_crossings (layout));
      check_geometry (layout, layers, n_nodes, edges, n_edges, 10, 50);

      if (round % 3 == 0)
        {
          /* A fixed layer keeps the input order. */
          guint n, prev = 0;
          const guint *nodes = ws_graph_layout_get_layer_nodes (layout, 0, &n);
          for (guint i = 0; i < n; i++)
            {
              if (i > 0)
                g_assert_cmpuint (nodes[i], >, prev);
              prev = nodes[i];
            }
        }

      /* Hit tests and rectangle queries against a scan of every box. */
      for (guint probe = 0; probe < 200; probe++)
        {
          double w, h, x, y;
          guint expect = G_MAXUINT;

          ws_graph_layout_get_bounds (layout, &w, &h);
          x = g_rand_double_range (rand, 0, w);
          y = g_rand_double_range (rand, 0, h);
          for (guint v = 0; v < n_nodes; v++)
            {
              WsGraphRect r;
              ws_graph_layout_get_node_rect (layout, v, &r);
              if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height)
                expect = v;
            }
          g_assert_cmpuint (ws_graph_layout_node_at (layout, x, y), ==, expect);
        }
      for (guint probe = 0; probe < 20; probe++)
        {
          double w, h;
          WsGraphRect q;
          g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint));
          guint expect = 0;

          ws_graph_layout_get_bounds (layout, &w, &h);
          q.x = g_rand_double_range (rand, -50, w);
          q.y = g_rand_double_range (rand, -50, h);
          q.width = g_rand_double_range (rand, 0, w / 2);
          q.height = g_rand_double_range (rand, 0, h / 2);
          ws_graph_layout_query_rect (layout, &q, got);
          for (guint v = 0; v < n_nodes; v++)
            {
              WsGraphRect r;
              gboolean meets;
              ws_graph_layout_get_node_rect (layout, v, &r);
              meets = r.x <= q.x + q.width && r.x + r.width >= q.x &&
                      r.y <= q.y + q.height && r.y + r.height >= q.y;
              if (meets)
                {
                  gboolean found = FALSE;
                  for (guint k = 0; k < got->len; k++)
                    found |= g_array_index (got, guint, k) == v;
                  g_assert_true (found);
                  expect++;
                }
            }
          g_assert_cmpuint (got->len, ==, expect);
        }
    }
}

static void
test_random_geometry_lr (void)
{
  run_random_geometry (WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
}

static void
test_random_geometry_tb (void)
{
  run_random_geometry (WS_GRAPH_LAYOUT_TOP_TO_BOTTOM);
}

/* Exact coordinates: packing, margins, and a parent centred over its
 * children (the last pass). */
static void
test_exact_coordinates (void)
{
  g_autoptr(WsGraphLayout) layout = ws_graph_layout_new ();
  WsGraphRect r0, r1, r2, r3;
  double w, h;

  ws_graph_layout_set_spacing (layout, 10, 50, 20);
  ws_graph_layout_add_node (layout, 100, 40, 0);   /* root */
  ws_graph_layout_add_node (layout, 80, 30, 1);
  ws_graph_layout_add_node (layout, 80, 30, 1);
  ws_graph_layout_add_node (layout, 120, 30, 1);
  ws_graph_layout_add_edge (layout, 0, 1);
  ws_graph_layout_add_edge (layout, 0, 2);
  ws_graph_layout_add_edge (layout, 0, 3);
  ws_graph_layout_run (layout);

  ws_graph_layout_get_node_rect (layout, 0, &r0);
  ws_graph_layout_get_node_rect (layout, 1, &r1);
  ws_graph_layout_get_node_rect (layout, 2, &r2);
  ws_graph_layout_get_node_rect (layout, 3, &r3);

  /* Children packed from the margin: 30 + 10 + 30 + 10 + 30 = 110 tall. */
  g_assert_cmpfloat (fabs (r1.y - 20), <, EPS);
  g_assert_cmpfloat (fabs (r2.y - 60), <, EPS);
  g_assert_cmpfloat (fabs (r3.y - 100), <, EPS);
  /* Root centred on them: centre 20 + 55 = 75. */
  g_assert_cmpfloat (fabs (r0.y + r0.height / 2 - 75), <, EPS);
  /* Layer 0 is 100 wide from x = 20; layer 1 starts 50 further, and its
   * boxes are centred on its widest (120). */
  g_assert_cmpfloat (fabs (r0.x - 20), <, EPS);
  g_assert_cmpfloat (fabs (r3.x - 170), <, EPS);
  g_assert_cmpfloat (fabs (r1.x - 190), <, EPS);
  ws_graph_layout_get_bounds (layout, &w, &h);
  g_assert_cmpfloat (fabs (w - 310), <, EPS);
  g_assert_cmpfloat (fabs (h - 150), <, EPS);
  g_assert_cmpuint (ws_graph_layout_node_at (layout, 25, 60), ==, 0);
  g_assert_cmpuint (ws_graph_layout_node_at (layout, 25, 20), ==, G_MAXUINT);
  g_assert_cmpuint (ws_graph_layout_node_at (layout, 200, 75), ==, 2);
}

/* Layers with no node (a gap in the numbering) still route long edges. */
static void
test_long_edge_over_empty_layer (void)
{
  static const guint layers[] = { 0, 3, 3 };
  static const TestEdge edges[] = { { 0, 1 }, { 2, 0 } };
  g_autoptr(WsGraphLayout) layout = make_layout (layers, 3, edges, 2);

  ws_graph_layout_set_spacing (layout, 10, 50, 20);
  ws_graph_layout_run (layout);
  g_assert_cmpuint (ws_graph_layout_get_n_layers (layout), ==, 4);
  g_assert_cmpuint (ws_graph_layout_get_n_dummies (layout), ==, 4);
  check_geometry (layout, layers, 3, edges, 2, 10, 50);
}

static void
test_empty (void)
{
  g_autoptr(WsGraphLayout) layout = ws_graph_layout_new ();
  double w, h;

  ws_graph_layout_run (layout);
  ws_graph_layout_get_bounds (layout, &w, &h);
  g_assert_cmpuint (ws_graph_layout_get_n_layers (layout), ==, 0);
  g_assert_cmpfloat (w, >, 0);
  g_assert_cmpuint (ws_graph_layout_node_at (layout, 1, 1), ==, G_MAXUINT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph-layout/reverse-wiring", test_reverse_wiring);
  g_test_add_func ("/graph-layout/unavoidable", test_unavoidable);
  g_test_add_func ("/graph-layout/hand-worked", test_hand_worked);
  g_test_add_func ("/graph-layout/random-vs-brute-force", test_random_small_vs_brute_force);
  g_test_add_func ("/graph-layout/geometry-left-to-right", test_random_geometry_lr);
  g_test_add_func ("/graph-layout/geometry-top-to-bottom", test_random_geometry_tb);
  g_test_add_func ("/graph-layout/exact-coordinates", test_exact_coordinates);
  g_test_add_func ("/graph-layout/long-edge-over-empty-layer", test_long_edge_over_empty_layer);
  g_test_add_func ("/graph-layout/empty", test_empty);

  return g_test_run ();
}
