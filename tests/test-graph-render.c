/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The graph view's scene and renderer on the hand-built trace of
 * test-ready-tree.c (its ready tree is worked out by hand there): the
 * scene's nodes, edges, chain and search matches exactly; then pixels of
 * the drawing: every box where the layout put it with its kind's colours,
 * the anomalous chain's edges red, the others not, search halos and the
 * current-match and selection rings; culling and levels of detail against
 * a brute-force count; exports.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-graph-renderer.h"
#include "ws-trace-loader.h"

/*
 *  T  run [0,100)  wT [100,1000) lock, readied by P  run [1000,1100)
 *     wT0 [1100,2100) select, readied by P (socket)  run [2100,2200)
 *  P  wP0 [0,40) lock by V  run  wP1 [50,200) lock by Q  run  wP2 [300,700) socket by R
 *     run  wP3 [800,890) nanosleep, hrtimer  run [890,2200)
 *  Q  run [0,20)  wQ1 [20,150) lock, no wake-up recorded  run [150,2200)
 *  R  run [0,250)  wR1 [250,450) lock by S  run  wR2 [500,650) lock by S  run [650,2200)
 *  S  run [0,100)  wS1 [100,240) lock by V  run  wS2 [470,600) lock by V  run [600,2200)
 *  V  run [0,2200)
 *
 * Ready tree of wT: 0 wT; 1 wP1, 2 wP2, 3 wP3 (timer); 4 wQ1 (unknown),
 * 5 wR1 (S ran), 6 wR2; 7 wS2 (V ran).  Chains [0,1,4] [0,2,5] [0,2,6,7]
 * [0,3] with average costs 393.3 / 500 / 395 / 495: the anomalous chain
 * by average is [0,2,5], by total [0,2,6,7] (1580).
 */
typedef struct {
  WsTestTrace *tt;
  guint T, P, Q, R, S, V, W;
  guint wT;
} Fixture;

static void
build_trace (Fixture *f)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId lock = ws_test_trace_stack (tt, "main;pthread_mutex_lock;__lll_lock_wait;futex_wait");
  WsStackId release = ws_test_trace_stack (tt, "main;pthread_mutex_unlock;__lll_unlock_wake;futex_wake");
  WsStackId sock = ws_test_trace_stack (tt, "main;read_socket;sock_recvmsg;schedule");
  WsStackId sock_wake = ws_test_trace_stack (tt, "main;send;sock_def_readable;try_to_wake_up");
  WsStackId sleep = ws_test_trace_stack (tt, "main;nanosleep;do_nanosleep;schedule");
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;__hrtimer_run_queues;hrtimer_wakeup;try_to_wake_up");
  WsStackId select = ws_test_trace_stack (tt, "main;select;do_select;schedule");
  WsStackId work = ws_test_trace_stack (tt, "main;work");
  guint wT0, wP0, wP1, wP2, wP3, wQ1, wR1, wR2, wS1, wS2;

  f->T = ws_test_trace_thread (tt, 1, 1, "interest");
  f->P = ws_test_trace_thread (tt, 2, 1, "parent");
  f->Q = ws_test_trace_thread (tt, 3, 1, "q");
  f->R = ws_test_trace_thread (tt, 4, 1, "r");
  f->S = ws_test_trace_thread (tt, 5, 1, "s");
  f->V = ws_test_trace_thread (tt, 6, 1, "v");
  f->W = ws_test_trace_thread (tt, 0, 0, "swapper/0");

  ws_test_trace_run (tt, f->T, 0, 100, work);
  f->wT = ws_test_trace_wait (tt, f->T, 100, 1000, lock);
  ws_test_trace_run (tt, f->T, 1000, 1100, work);
  wT0 = ws_test_trace_wait (tt, f->T, 1100, 2100, select);
  ws_test_trace_run (tt, f->T, 2100, 2200, work);
  wP0 = ws_test_trace_wait (tt, f->P, 0, 40, lock);
  ws_test_trace_run (tt, f->P, 40, 50, work);
  wP1 = ws_test_trace_wait (tt, f->P, 50, 200, lock);
  ws_test_trace_run (tt, f->P, 200, 300, work);
  wP2 = ws_test_trace_wait (tt, f->P, 300, 700, sock);
  ws_test_trace_run (tt, f->P, 700, 800, work);
  wP3 = ws_test_trace_wait (tt, f->P, 800, 890, sleep);
  ws_test_trace_run (tt, f->P, 890, 2200, work);
  ws_test_trace_run (tt, f->Q, 0, 20, work);
  wQ1 = ws_test_trace_wait (tt, f->Q, 20, 150, lock);
  ws_test_trace_run (tt, f->Q, 150, 2200, work);
  ws_test_trace_run (tt, f->R, 0, 250, work);
  wR1 = ws_test_trace_wait (tt, f->R, 250, 450, lock);
  ws_test_trace_run (tt, f->R, 450, 500, work);
  wR2 = ws_test_trace_wait (tt, f->R, 500, 650, lock);
  ws_test_trace_run (tt, f->R, 650, 2200, work);
  ws_test_trace_run (tt, f->S, 0, 100, work);
  wS1 = ws_test_trace_wait (tt, f->S, 100, 240, lock);
  ws_test_trace_run (tt, f->S, 240, 470, work);
  wS2 = ws_test_trace_wait (tt, f->S, 470, 600, lock);
  ws_test_trace_run (tt, f->S, 600, 2200, work);
  ws_test_trace_run (tt, f->V, 0, 2200, work);

  ws_test_trace_wake (tt, f->P, f->wT, release);
  ws_test_trace_wake (tt, f->P, wT0, sock_wake);
  ws_test_trace_wake (tt, f->V, wP0, release);
  ws_test_trace_wake (tt, f->Q, wP1, release);
  ws_test_trace_wake (tt, f->R, wP2, sock_wake);
  ws_test_trace_hw_wake (tt, f->W, wP3, timer);
  ws_test_trace_wake (tt, f->S, wR1, release);
  ws_test_trace_wake (tt, f->S, wR2, release);
  ws_test_trace_wake (tt, f->V, wS1, release);
  ws_test_trace_wake (tt, f->V, wS2, release);
  (void) wQ1;

  ws_test_trace_finish (tt);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  build_trace (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  ws_test_trace_free (f->tt);
}

static WsGraphScene *
tree_scene (Fixture                *f,
            WsChainMetric           metric,
            WsGraphLayoutDirection  direction)
{
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(WsReadyTree) tree =
    ws_ready_tree_build (trace, ws_test_trace_index (f->tt, f->wT), NULL, &error);

  g_assert_no_error (error);
  return ws_graph_scene_new_for_ready_tree (tree, metric, direction);
}

/* ------------------------------------------------------------------ */
/* Scene                                                                */

static void
test_tree_scene (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(WsGraphScene) scene = tree_scene (f, WS_CHAIN_METRIC_AVERAGE, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  g_autoptr(WsGraphScene) by_total = tree_scene (f, WS_CHAIN_METRIC_TOTAL, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsStackSearch) futex = ws_stack_search_new (trace, "futex", NULL, &error);
  g_autoptr(WsStackSearch) nanosleep = ws_stack_search_new (trace, "nanosleep", NULL, &error);
  g_autoptr(GArray) matches = NULL;
  /* The 8 tree nodes, then one readier node per leaf in tree order:
   * 8 = timer of leaf 3, 9 = unknown of leaf 4, 10 = S ran (leaf 5),
   * 11 = V ran (leaf 7). */
  const struct { WsSceneNodeKind kind; guint layer; guint source; } expected[] = {
    { WS_SCENE_NODE_WAIT, 0, 0 }, { WS_SCENE_NODE_WAIT, 1, 1 }, { WS_SCENE_NODE_WAIT, 1, 2 },
    { WS_SCENE_NODE_WAIT, 1, 3 }, { WS_SCENE_NODE_WAIT, 2, 4 }, { WS_SCENE_NODE_WAIT, 2, 5 },
    { WS_SCENE_NODE_WAIT, 2, 6 }, { WS_SCENE_NODE_WAIT, 3, 7 },
    { WS_SCENE_NODE_TIMER, 2, 3 }, { WS_SCENE_NODE_UNKNOWN, 3, 4 },
    { WS_SCENE_NODE_RUN, 3, 5 }, { WS_SCENE_NODE_RUN, 4, 7 },
  };
  const guint chain[] = { 0, 2, 5, 10 };
  const guint total_chain[] = { 0, 2, 6, 7, 11 };
  const guint futex_matches[] = { 0, 1, 4, 5, 6, 7, 10, 11 };
  guint n_chain;
  const guint *c;
  WsChainMetrics m;
  guint n_anomalous_edges = 0;
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_graph_scene_get_n_nodes (scene), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (scene, i);
      g_assert_cmpint (n->kind, ==, expected[i].kind);
      g_assert_cmpuint (n->layer, ==, expected[i].layer);
      g_assert_cmpuint (n->source, ==, expected[i].source);
      g_assert_cmpuint (!!(n->flags & WS_SCENE_NODE_FLAG_READIER), ==, i >= 8);
    }
  g_assert_cmpuint (ws_graph_scene_get_node (scene, 10)->thread, ==, f->S);
  g_assert_cmpuint (ws_graph_scene_get_node (scene, 11)->thread, ==, f->V);
  g_assert_cmpuint (ws_graph_scene_get_node (scene, 8)->thread, ==, WS_NONE);
  g_assert_cmpuint (ws_graph_scene_get_n_edges (scene), ==, 7 + 4);
  g_assert_cmpuint (ws_graph_scene_get_root (scene), ==, 0);
  g_assert_cmpuint (ws_graph_scene_find_event (scene, ws_test_trace_index (f->tt, f->wT)), ==, 0);

  c = ws_graph_scene_get_chain_nodes (scene, &n_chain);
  g_assert_cmpuint (n_chain, ==, G_N_ELEMENTS (chain));
  for (guint i = 0; i < n_chain; i++)
    g_assert_cmpuint (c[i], ==, chain[i]);
  g_assert_cmpuint (ws_graph_scene_get_anomalous_chain (scene), ==, 1);
  ws_graph_scene_get_chain_metrics (scene, &m);
  g_assert_cmpint (m.total, ==, 900 + 400 + 200);
  g_assert_cmpfloat (fabs (m.average - 500), <, 1e-9);
  for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
    {
      const WsSceneEdge *edge = ws_graph_scene_get_edge (scene, e);
      gboolean on_chain = FALSE;

      for (guint i = 0; i + 1 < n_chain; i++)
        on_chain |= edge->from == chain[i] && edge->to == chain[i + 1];
      g_assert_cmpint (edge->anomalous, ==, on_chain);
      n_anomalous_edges += edge->anomalous;
    }
  g_assert_cmpuint (n_anomalous_edges, ==, 3);
  for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
    {
      gboolean on_chain = FALSE;
      for (guint k = 0; k < n_chain; k++)
        on_chain |= chain[k] == i;
      g_assert_cmpint (!!(ws_graph_scene_get_node (scene, i)->flags & WS_SCENE_NODE_FLAG_ANOMALOUS), ==, on_chain);
    }

  c = ws_graph_scene_get_chain_nodes (by_total, &n_chain);
  g_assert_cmpuint (n_chain, ==, G_N_ELEMENTS (total_chain));
  for (guint i = 0; i < n_chain; i++)
    g_assert_cmpuint (c[i], ==, total_chain[i]);

  /* Search: a node matches on its own stack or on the stack that readied
   * it; the order is layer by layer. */
  matches = ws_graph_scene_find_matches (scene, futex);
  g_assert_cmpuint (matches->len, ==, G_N_ELEMENTS (futex_matches));
  {
    guint prev_layer = 0;
    for (guint i = 0; i < matches->len; i++)
      {
        guint v = g_array_index (matches, guint, i);
        gboolean found = FALSE;

        for (guint k = 0; k < G_N_ELEMENTS (futex_matches); k++)
          found |= futex_matches[k] == v;
        g_assert_true (found);
        g_assert_cmpuint (ws_graph_scene_get_node (scene, v)->layer, >=, prev_layer);
        prev_layer = ws_graph_scene_get_node (scene, v)->layer;
      }
  }
  g_array_unref (matches);
  matches = ws_graph_scene_find_matches (scene, nanosleep);
  g_assert_cmpuint (matches->len, ==, 1);
  g_assert_cmpuint (g_array_index (matches, guint, 0), ==, 3);

  /* Words. */
  title = ws_graph_scene_dup_title (scene, 0);
  g_assert_cmpstr (title, ==, "interest · 1");
  detail = ws_graph_scene_dup_detail (scene, 0);
  g_assert_cmpstr (detail, ==, "Wait 900 ns · S · lock");
  /* Leaf-most frame outside the scheduler / futex plumbing. */
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 0), ==, "__lll_lock_wait");
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 2), ==, "sock_recvmsg");
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 3), ==, "do_nanosleep");
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 10), ==, "__lll_unlock_wake");
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 8), ==, "hrtimer_wakeup");
  g_assert_null (ws_graph_scene_get_frame_name (scene, 9));
  g_clear_pointer (&title, g_free);
  title = ws_graph_scene_dup_title (scene, 9);
  g_assert_cmpstr (title, ==, "No wake-up recorded");
  g_clear_pointer (&detail, g_free);
  /* the second line does not repeat the title */
  detail = ws_graph_scene_dup_detail (scene, 9);
  g_assert_cmpstr (detail, !=, title);
}

static void
test_wait_graph_scene (Fixture       *f,
                       gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->T, 0, 2200 };
  g_autoptr(GError) error = NULL;
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  g_autoptr(WsGraphScene) all = NULL;
  g_autoptr(WsGraphScene) two = NULL;
  guint n_chain, kept = 0, truncated = 0;
  const guint *chain;

  g_assert_no_error (error);
  all = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  two = ws_graph_scene_new_for_wait_graph_full (graph, 1, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);

  g_assert_cmpuint (ws_graph_scene_get_n_nodes (all), ==, ws_wait_graph_get_n_nodes (graph));
  g_assert_cmpuint (ws_graph_scene_get_n_edges (all), ==, ws_wait_graph_get_n_edges (graph));
  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    {
      const WsWaitNode *w = ws_wait_graph_get_node (graph, i);
      const WsSceneNode *n = ws_graph_scene_get_node (all, i);
      static const WsSceneNodeKind kinds[] = {
        [WS_WAIT_NODE_RUN] = WS_SCENE_NODE_RUN, [WS_WAIT_NODE_WAIT] = WS_SCENE_NODE_WAIT,
        [WS_WAIT_NODE_HW_SERVICE] = WS_SCENE_NODE_TIMER, /* the only one is wP3's hrtimer */
        [WS_WAIT_NODE_UNKNOWN_READIER] = WS_SCENE_NODE_UNKNOWN,
      };

      g_assert_cmpint (n->kind, ==, kinds[w->kind]);
      g_assert_cmpuint (n->layer, ==, w->generation);
      if (w->generation <= 1)
        kept++;
    }

  /* Generation limit: a prefix of the nodes, waits pointing past it
   * flagged. */
  g_assert_cmpuint (ws_graph_scene_get_n_nodes (two), ==, kept);
  for (guint i = 0; i < ws_graph_scene_get_n_nodes (two); i++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (two, i);
      guint n_out;
      gboolean beyond = FALSE;
      const WsWaitEdge *out = ws_wait_graph_get_out_edges (graph, n->source, &n_out);

      for (guint k = 0; k < n_out; k++)
        beyond |= ws_wait_graph_get_node (graph, out[k].to)->generation > 1;
      g_assert_cmpint (!!(n->flags & WS_SCENE_NODE_FLAG_TRUNCATED), ==, beyond);
      truncated += beyond;
    }
  g_assert_cmpuint (truncated, >, 0);

  /* In [0, 1050] the symptom's longest wait is wT (over the whole trace
   * it would be wT0, 1000 ns, whose readier has nothing ending inside it).
   * The longest-wait chain starts there (900 ns) and goes one generation at a time to the longest wait pointed at:
   * wP2 (400 ns), then R's longest in it, wR1 (200 ns); S has no event
   * ending inside wR1, so the chain may end there. */
  symptom.t1 = 1050;
  g_clear_object (&graph);
  g_clear_object (&all);
  graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
  g_assert_no_error (error);
  all = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  chain = ws_graph_scene_get_chain_nodes (all, &n_chain);
  g_assert_cmpuint (n_chain, ==, 3);
  g_assert_cmpuint (ws_graph_scene_get_node (all, chain[0])->event, ==, ws_test_trace_index (f->tt, f->wT));
  g_assert_cmpint (ws_graph_scene_get_node (all, chain[1])->duration, ==, 400);
  g_assert_cmpint (ws_graph_scene_get_node (all, chain[2])->duration, ==, 200);
  for (guint i = 1; i < n_chain; i++)
    g_assert_cmpuint (ws_graph_scene_get_node (all, chain[i])->layer, ==,
                      ws_graph_scene_get_node (all, chain[i - 1])->layer + 1);
}

/* ------------------------------------------------------------------ */
/* Pixels                                                               */

typedef struct {
  double r, g, b;
} Rgb;

static Rgb
pixel (cairo_surface_t *surface,
       double           x,
       double           y)
{
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  int ix = (int) floor (x), iy = (int) floor (y);
  guint32 v;
  Rgb c;

  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (surface));
  cairo_surface_flush (surface);
  v = *(const guint32 *) (data + iy * stride + ix * 4);
  c.r = (v >> 16) & 0xff;
  c.g = (v >> 8) & 0xff;
  c.b = v & 0xff;
  return c;
}

static Rgb
over (const WsColor *top,
      double         alpha,
      Rgb            under)
{
  double a = top->alpha * alpha;
  Rgb c = {
    top->red * 255 * a + under.r * (1 - a),
    top->green * 255 * a + under.g * (1 - a),
    top->blue * 255 * a + under.b * (1 - a),
  };
  return c;
}

static Rgb
solid (const WsColor *c)
{
  Rgb white = { 255, 255, 255 };
  return over (c, 1, white);
}

#define assert_rgb(got, want, tol) G_STMT_START {                                   \
    Rgb g_ = (got), w_ = (want);                                                   \
    if (fabs (g_.r - w_.r) > (tol) || fabs (g_.g - w_.g) > (tol) || fabs (g_.b - w_.b) > (tol)) \
      g_error ("%s:%d: pixel (%.0f, %.0f, %.0f), expected (%.0f, %.0f, %.0f)",      \
               __FILE__, __LINE__, g_.r, g_.g, g_.b, w_.r, w_.g, w_.b);           \
  } G_STMT_END

static const WsColor *
kind_color (const WsGraphPalette *p,
            const WsSceneNode    *n)
{
  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_RUN:      return &p->run;
    case WS_SCENE_NODE_WAIT:     return (n->flags & WS_SCENE_NODE_FLAG_DISK) ? &p->disk : &p->sleep;
    case WS_SCENE_NODE_HARDWARE: return &p->hardware;
    case WS_SCENE_NODE_TIMER:    return &p->timer;
    default:                     return &p->unknown;
    }
}

/* The layer band colour under a layout point's layer (odd layers are
 * banded). */
static Rgb
ground (const WsGraphPalette *p,
        guint                 layer)
{
  Rgb bg = solid (&p->background);
  return layer % 2 ? over (&p->band, 1, bg) : bg;
}

static void
test_tree_pixels (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(WsGraphScene) scene = tree_scene (f, WS_CHAIN_METRIC_AVERAGE, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  const WsGraphPalette *p = ws_graph_renderer_get_palette (renderer);
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(WsStackSearch) search = ws_stack_search_new (trace, "futex", NULL, NULL);
  g_autoptr(GArray) matches = ws_graph_scene_find_matches (scene, search);
  g_autofree guint8 *bits = g_new0 (guint8, ws_graph_scene_get_n_nodes (scene));
  cairo_surface_t *surface;
  cairo_t *cr;
  WsGraphViewport vp;
  WsGraphDrawStats stats;
  double bw, bh;
  guint n_anomalous = 0, n_normal = 0;

  for (guint i = 0; i < matches->len; i++)
    bits[g_array_index (matches, guint, i)] = 1;

  ws_graph_layout_get_bounds (layout, &bw, &bh);
  ws_graph_viewport_init (&vp);
  vp.width = ceil (bw);
  vp.height = ceil (bh) + WS_GRAPH_HEADER_HEIGHT;
  vp.matches = bits;
  vp.current_match = 7;   /* a match */
  vp.selected = 4;        /* on no red edge; node 4 matches too */

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) vp.width, (int) vp.height);
  cr = cairo_create (surface);
  ws_graph_renderer_draw (renderer, cr, scene, &vp);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  ws_graph_renderer_get_stats (renderer, &stats);
  g_assert_cmpuint (stats.nodes, ==, 12);
  g_assert_cmpuint (stats.edges, ==, 11);
  g_assert_cmpuint (stats.labels, ==, 12);
  g_assert_false (stats.simplified);

  /* Every box where the layout put it: its body tinted with its kind's
   * colour right of the text, its strip (or, for hexagons, the body) in
   * the kind's colour, and the layer's ground just outside. */
  for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (scene, v);
      const WsColor *c = kind_color (p, n);
      WsGraphRect r;
      double x, y;

      ws_graph_layout_get_node_rect (layout, v, &r);
      ws_graph_viewport_to_device (&vp, r.x, r.y, &x, &y);
      assert_rgb (pixel (surface, x + r.width - 6, y + r.height / 2),
                  over (c, 0.14, solid (&p->background)), 2);
      if (n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN)
        assert_rgb (pixel (surface, x + 3, y + r.height / 2), solid (c), 2);
      /* Right of the box, above its edges' level: nothing but ground. */
      if (!bits[v] && v != vp.current_match && v != vp.selected)
        assert_rgb (pixel (surface, x + r.width + 12, y + 4), ground (p, n->layer), 2);
    }

  /* Edge midpoints: the S-curves are symmetric, so the middle of the
   * curve is the middle of its two ends. */
  for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
    {
      const WsSceneEdge *edge = ws_graph_scene_get_edge (scene, e);
      guint n_points;
      const WsGraphPoint *pt = ws_graph_layout_get_edge_points (layout, e, &n_points);
      double mx, my;
      Rgb got;

      g_assert_cmpuint (n_points, ==, 2);
      ws_graph_viewport_to_device (&vp, (pt[0].x + pt[1].x) / 2, (pt[0].y + pt[1].y) / 2, &mx, &my);
      got = pixel (surface, mx, my);
      if (edge->anomalous)
        {
          assert_rgb (got, solid (&p->anomalous), 3);
          n_anomalous++;
        }
      else
        {
          /* Not red, and darker than the ground (an edge is there). */
          g_assert_false (fabs (got.r - 0xe0) < 20 && got.g < 60 && got.b < 60);
          g_assert_cmpfloat (got.r + got.g + got.b, <, 3 * 250);
          n_normal++;
        }
    }
  g_assert_cmpuint (n_anomalous, ==, 3);
  g_assert_cmpuint (n_normal, ==, 8);

  /* Search halos above matching boxes, none above the others; the
   * current match ringed; the selection ringed. */
  for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (scene, v);
      WsGraphRect r;
      double x, y;

      ws_graph_layout_get_node_rect (layout, v, &r);
      ws_graph_viewport_to_device (&vp, r.x, r.y, &x, &y);
      if (v == vp.selected)
        assert_rgb (pixel (surface, x + r.width / 2, y - 4.5), solid (&p->selection), 2);
      else if (bits[v])
        assert_rgb (pixel (surface, x + r.width / 2, y - 3), over (&p->search_match, 1, ground (p, n->layer)), 2);
      else
        assert_rgb (pixel (surface, x + r.width / 2, y - 3), ground (p, n->layer), 2);
      if (v == vp.current_match)
        assert_rgb (pixel (surface, x + r.width / 2, y - 9), solid (&p->current_match), 2);
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Top to bottom: same boxes, rotated placement. */
static void
test_tree_pixels_top_to_bottom (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(WsGraphScene) scene = tree_scene (f, WS_CHAIN_METRIC_AVERAGE, WS_GRAPH_LAYOUT_TOP_TO_BOTTOM);
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  const WsGraphPalette *p = ws_graph_renderer_get_palette (renderer);
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  cairo_surface_t *surface;
  cairo_t *cr;
  WsGraphViewport vp;
  double bw, bh;
  WsGraphRect r0, r1;

  ws_graph_layout_get_bounds (layout, &bw, &bh);
  ws_graph_viewport_init (&vp);
  vp.show_header = FALSE;
  vp.width = ceil (bw);
  vp.height = ceil (bh);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) vp.width, (int) vp.height);
  cr = cairo_create (surface);
  ws_graph_renderer_draw (renderer, cr, scene, &vp);

  ws_graph_layout_get_node_rect (layout, 0, &r0);
  ws_graph_layout_get_node_rect (layout, 1, &r1);
  g_assert_cmpfloat (r1.y, >, r0.y + r0.height);   /* children below */
  for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
    {
      WsGraphRect r;
      ws_graph_layout_get_node_rect (layout, v, &r);
      assert_rgb (pixel (surface, r.x + r.width - 6, r.y + r.height / 2),
                  over (kind_color (p, ws_graph_scene_get_node (scene, v)), 0.14, solid (&p->background)), 2);
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* Culling and levels of detail on the whole wait graph, against a brute
 * force over every box. */
static void
test_culling_and_lod (Fixture       *f,
                      gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->T, 0, 2200 };
  g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);
  g_autoptr(WsGraphScene) scene = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  const WsGraphPalette *p = ws_graph_renderer_get_palette (renderer);
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 500, 400);
  cairo_t *cr = cairo_create (surface);
  WsGraphViewport vp;
  WsGraphDrawStats stats;
  const double scales[] = { 1.0, 0.6, 0.4, 0.1, 0.02 };
  double s0, d0, s1, layer_gap;

  ws_graph_viewport_init (&vp);
  vp.width = 500;
  vp.height = 400;
  ws_graph_layout_get_layer_extent (layout, 0, &s0, &d0);
  ws_graph_layout_get_layer_extent (layout, 1, &s1, NULL);
  layer_gap = s1 - s0 - d0;
  g_assert_cmpfloat (layer_gap * 0.02, <, 3);

  for (guint s = 0; s < G_N_ELEMENTS (scales); s++)
    for (guint probe = 0; probe < 4; probe++)
      {
        double bw, bh, lx0, ly0, lx1, ly1;
        guint expect_nodes = 0, expect_edges = 0;

        ws_graph_layout_get_bounds (layout, &bw, &bh);
        vp.scale = scales[s];
        vp.x = probe * bw / 5 - 40;
        vp.y = probe * bh / 6 - 30;
        ws_graph_renderer_draw (renderer, cr, scene, &vp);
        ws_graph_renderer_get_stats (renderer, &stats);

        ws_graph_viewport_to_layout (&vp, 0, WS_GRAPH_HEADER_HEIGHT, &lx0, &ly0);
        ws_graph_viewport_to_layout (&vp, vp.width, vp.height, &lx1, &ly1);
        for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
          {
            WsGraphRect r;
            ws_graph_layout_get_node_rect (layout, v, &r);
            if (r.x <= lx1 && r.x + r.width >= lx0 && r.y <= ly1 && r.y + r.height >= ly0)
              expect_nodes++;
          }
        for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
          {
            WsGraphRect r;
            double pad = 14;   /* arrowheads stick out of the bounds */

            /* Layers under 3 px apart: only the chain's edges are drawn. */
            if (layer_gap * vp.scale < 3 && !ws_graph_scene_get_edge (scene, e)->anomalous)
              continue;
            ws_graph_layout_get_edge_bounds (layout, e, &r);
            if (r.x <= lx1 + pad && r.x + r.width >= lx0 - pad && r.y <= ly1 + pad && r.y + r.height >= ly0 - pad)
              expect_edges++;
          }
        g_assert_cmpuint (stats.nodes, ==, expect_nodes);
        g_assert_cmpuint (stats.edges, ==, expect_edges);
        g_assert_cmpuint (stats.labels, ==, vp.scale >= WS_GRAPH_TEXT_MIN_SCALE ? expect_nodes : 0);
        /* Between the two zooms, one-line labels where they fit; none
         * elsewhere. */
        if (vp.scale >= WS_GRAPH_TEXT_MIN_SCALE || vp.scale < WS_GRAPH_COMPACT_MIN_SCALE)
          g_assert_cmpuint (stats.compact_labels, ==, 0);
        else
          {
            g_assert_cmpuint (stats.compact_labels, <=, expect_nodes);
            if (expect_nodes > 3)
              g_assert_cmpuint (stats.compact_labels, >, 0);
          }
        g_assert_cmpint (stats.simplified, ==, WS_SCENE_NODE_HEIGHT * vp.scale < 10);
      }

  /* Zoomed out, a box is a plain rectangle in its kind's colour (at 0.1),
   * then one colour per device pixel (at 0.03: the chain first, then the
   * selection, matches, the kind), and the number of fills no longer
   * grows with the nodes. */
  for (guint pass = 0; pass < 2; pass++)
    {
      double scale = pass == 0 ? 0.1 : 0.03;
      gboolean dots = WS_SCENE_NODE_HEIGHT * scale < 2.5;

      ws_graph_viewport_init (&vp);
      vp.width = 500;
      vp.height = 400;
      vp.scale = scale;
      vp.x = -10;
      vp.y = -10;
      g_assert_cmpint (dots, ==, pass == 1);
      ws_graph_renderer_draw (renderer, cr, scene, &vp);
      ws_graph_renderer_get_stats (renderer, &stats);
      g_assert_true (stats.simplified);
      g_assert_cmpuint (stats.nodes, ==, ws_graph_scene_get_n_nodes (scene));
      g_assert_cmpuint (stats.cairo_fills, <=, 12);

      for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
        {
          const WsSceneNode *n = ws_graph_scene_get_node (scene, v);
          const WsColor *want = kind_color (p, n);
          WsGraphRect r;
          double x, y;

          ws_graph_layout_get_node_rect (layout, v, &r);
          ws_graph_viewport_to_device (&vp, r.x + r.width / 2, r.y + r.height / 2, &x, &y);
          if (!dots)
            {
              if (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS)
                continue;   /* outlined in red */
              assert_rgb (pixel (surface, x, y), solid (want), 2);
              continue;
            }

          /* Brute force: the highest-ranked node covering this pixel. */
          {
            int px = (int) floor (x), py = (int) floor (y), best_rank = -1;

            for (guint u = 0; u < ws_graph_scene_get_n_nodes (scene); u++)
              {
                const WsSceneNode *m = ws_graph_scene_get_node (scene, u);
                WsGraphRect q;
                double x0, y0, x1, y1;
                int rank;

                ws_graph_layout_get_node_rect (layout, u, &q);
                ws_graph_viewport_to_device (&vp, q.x, q.y, &x0, &y0);
                ws_graph_viewport_to_device (&vp, q.x + q.width, q.y + q.height, &x1, &y1);
                if (px < (int) floor (x0) || px > (int) floor (x1) ||
                    py < (int) floor (y0) || py > (int) floor (y1))
                  continue;
                rank = (m->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) ? 100 : (int) m->kind;
                if (rank > best_rank)
                  {
                    best_rank = rank;
                    want = (m->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) ? &p->anomalous : kind_color (p, m);
                  }
              }
            assert_rgb (pixel (surface, x, y), solid (want), 0);
          }
        }
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_viewport (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(WsGraphScene) scene = tree_scene (f, WS_CHAIN_METRIC_AVERAGE, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  WsGraphViewport vp;
  double lx, ly, lx2, ly2, px, py;
  WsGraphRect r;

  ws_graph_viewport_init (&vp);
  vp.width = 400;
  vp.height = 300;
  ws_graph_viewport_fit (&vp, scene, 1);
  for (guint v = 0; v < ws_graph_scene_get_n_nodes (scene); v++)
    {
      ws_graph_layout_get_node_rect (layout, v, &r);
      g_assert_true (ws_graph_viewport_node_visible (&vp, &r));
    }

  /* Zooming keeps the point under the pointer. */
  ws_graph_viewport_to_layout (&vp, 123, 145, &lx, &ly);
  ws_graph_viewport_zoom_at (&vp, 2.5, 123, 145);
  ws_graph_viewport_to_layout (&vp, 123, 145, &lx2, &ly2);
  g_assert_cmpfloat (fabs (lx - lx2), <, 1e-9);
  g_assert_cmpfloat (fabs (ly - ly2), <, 1e-9);
  ws_graph_viewport_to_device (&vp, lx, ly, &px, &py);
  g_assert_cmpfloat (fabs (px - 123), <, 1e-9);
  g_assert_cmpfloat (fabs (py - 145), <, 1e-9);

  /* Centring on a node puts its centre in the middle of the graph area. */
  ws_graph_layout_get_node_rect (layout, 7, &r);
  ws_graph_viewport_center_on (&vp, &r);
  ws_graph_viewport_to_device (&vp, r.x + r.width / 2, r.y + r.height / 2, &px, &py);
  g_assert_cmpfloat (fabs (px - 200), <, 1e-9);
  g_assert_cmpfloat (fabs (py - (WS_GRAPH_HEADER_HEIGHT + (300 - WS_GRAPH_HEADER_HEIGHT) / 2)), <, 1e-9);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(WsGraphScene) scene = tree_scene (f, WS_CHAIN_METRIC_AVERAGE, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  g_autofree char *dir = g_dir_make_tmp ("ws-graph-XXXXXX", NULL);
  const char *names[] = { "tree.png", "tree.svg", "tree.pdf" };
  const WsExportFormat formats[] = { WS_EXPORT_PNG, WS_EXPORT_SVG, WS_EXPORT_PDF };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };
  double bw, bh;

  ws_graph_layout_get_bounds (ws_graph_scene_get_layout (scene), &bw, &bh);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      g_assert_true (ws_graph_renderer_export (renderer, scene, NULL, path, formats[i], &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      g_assert_cmpuint (len, >, 1000);
      g_assert_true (memcmp (contents, magic[i], strlen (magic[i])) == 0);
      if (formats[i] == WS_EXPORT_PNG)
        {
          cairo_surface_t *png = cairo_image_surface_create_from_png (path);
          g_assert_cmpint (cairo_image_surface_get_width (png), ==, (int) MAX (bw, 720));
          /* Title, header, graph and at least one legend row. */
          g_assert_cmpint (cairo_image_surface_get_height (png), >, bh + WS_GRAPH_HEADER_HEIGHT + 36 + 22);
          cairo_surface_destroy (png);
        }
      g_unlink (path);
    }

  /* An unwritable path is an error naming it, not a crash. */
  {
    g_autoptr(GError) error = NULL;
    g_assert_false (ws_graph_renderer_export (renderer, scene, NULL, "/nonexistent-dir/x.png",
                                              WS_EXPORT_PNG, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.png"));
  }
  g_rmdir (dir);
}

/* A wait's box names the code that decided to wait: a pg_sleep() on
 * PostgreSQL's latch showed "do_epoll_wait", the kernel function every
 * latch wait goes through; it shows the user-space caller, as the
 * Overview's causes name it ("epoll_wait ← pg_sleep"). */
static void
test_wait_label_names_the_caller (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "causes", "pg-advisory.perf.txt.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  WsStackTable *stacks;
  guint root = WS_NONE;

  g_assert_no_error (error);
  stacks = ws_trace_get_stack_table (trace);
  /* The first wait whose stack is pg_sleep → WaitLatch → epoll_wait. */
  for (guint i = 0; i < ws_trace_get_n_events (trace) && root == WS_NONE; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      const WsFrameId *frames;
      guint n = 0;

      if (e->kind != WS_EVENT_WAIT || e->stack == WS_STACK_EMPTY)
        continue;
      frames = ws_stack_table_get_stack (stacks, e->stack, &n);
      for (guint k = 0; k + 1 < n; k++)
        if (g_strcmp0 (ws_stack_table_get_frame (stacks, frames[k])->function, "pg_sleep") == 0 &&
            g_strcmp0 (ws_stack_table_get_frame (stacks, frames[k + 1])->function, "WaitLatch") == 0)
          root = i;
    }
  g_assert_cmpuint (root, !=, WS_NONE);
  tree = ws_ready_tree_build (trace, root, NULL, &error);
  g_assert_no_error (error);
  scene = ws_graph_scene_new_for_ready_tree (tree, WS_CHAIN_METRIC_DEFAULT, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  g_assert_cmpstr (ws_graph_scene_get_frame_name (scene, 0), ==, "pg_sleep");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/graph-render/tree-scene", test_tree_scene);
  ADD ("/graph-render/wait-graph-scene", test_wait_graph_scene);
  ADD ("/graph-render/tree-pixels", test_tree_pixels);
  ADD ("/graph-render/tree-pixels-top-to-bottom", test_tree_pixels_top_to_bottom);
  ADD ("/graph-render/culling-and-lod", test_culling_and_lod);
  ADD ("/graph-render/viewport", test_viewport);
  ADD ("/graph-render/export", test_export);
#undef ADD
  g_test_add_func ("/graph-render/wait-label-names-the-caller", test_wait_label_names_the_caller);

  return g_test_run ();
}
