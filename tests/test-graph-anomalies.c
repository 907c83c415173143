/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The anomaly layer of the graph view (ws-graph-anomalies.c) on the real
 * py-locks trace, scored without a history (the trace is its own data):
 * the ready tree of its most anomalous wait and the wait graph of that
 * wait's window.  Each wait node's mark is its score's verdict; the chain
 * through anomalous waits follows edges, ends on an anomalous wait and
 * holds as many anomalous waits as the best root-to-leaf chain found by
 * brute force (ready tree) or by an independent memoised search (wait
 * graph); "next anomalous" visits every anomalous node; the export draws
 * the marks (vermillion pixels) and names them in the legend.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-graph-renderer.h"
#include "ws-ready-tree-run.h"
#include "ws-trace-loader.h"
#include "ws-wait-graph-run.h"

typedef struct {
  WsTrace         *trace;
  WsAnomalyResult *result;
  guint            worst;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GError) error = NULL;
  WsAnomalySettings settings;
  const char *digest = "test";
  const WsWaitScore *s;
  guint n;

  f->trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ws_anomaly_settings_init (&settings);
  f->result = ws_anomaly_detect (&f->trace, &digest, 1, NULL, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s = ws_anomaly_result_get_scores (f->result, 0, &n);
  f->worst = WS_NONE;
  for (guint i = 0; i < n; i++)
    if (s[i].anomalous && (f->worst == WS_NONE || s[i].score < ws_anomaly_result_lookup (f->result, 0, f->worst)->score))
      f->worst = s[i].event;
  g_assert_cmpuint (f->worst, !=, WS_NONE);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->result);
  g_clear_object (&f->trace);
}

static gboolean
anomalous_node (WsGraphAnomalies *a,
                guint             v)
{
  WsGraphMark m = ws_graph_anomalies_get_mark (a, v);
  return m == WS_GRAPH_MARK_ANOMALOUS || m == WS_GRAPH_MARK_FLAGGED_ANOMALOUS;
}

static gboolean
has_edge (WsGraphScene *scene,
          guint         from,
          guint         to)
{
  for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
    if (ws_graph_scene_get_edge (scene, e)->from == from && ws_graph_scene_get_edge (scene, e)->to == to)
      return TRUE;
  return FALSE;
}

/* The most anomalous waits on any path from @v along forward edges. */
static guint
best_from (WsGraphScene     *scene,
           WsGraphAnomalies *a,
           guint             v,
           int              *memo)
{
  guint best = 0;

  if (memo[v] >= 0)
    return memo[v];
  for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
    {
      const WsSceneEdge *se = ws_graph_scene_get_edge (scene, e);
      if (se->from == v && ws_graph_scene_get_node (scene, se->to)->layer > ws_graph_scene_get_node (scene, v)->layer)
        best = MAX (best, best_from (scene, a, se->to, memo));
    }
  memo[v] = best + anomalous_node (a, v);
  return memo[v];
}

static void
check_layer (Fixture          *f,
             WsGraphScene     *scene,
             WsGraphAnomalies *a)
{
  guint n = ws_graph_scene_get_n_nodes (scene), n_chain, on_chain = 0, best = 0, visited = 0;
  const guint *chain = ws_graph_anomalies_get_chain (a, &n_chain);
  g_autofree int *memo = g_new (int, n);

  for (guint v = 0; v < n; v++)
    {
      const WsSceneNode *node = ws_graph_scene_get_node (scene, v);
      const WsWaitScore *s = ws_graph_anomalies_get_score (a, v);

      memo[v] = -1;
      if (node->kind == WS_SCENE_NODE_WAIT && !(node->flags & WS_SCENE_NODE_FLAG_READIER))
        g_assert_true (s == ws_anomaly_result_lookup (f->result, 0, node->event));
      else
        g_assert_null (s);
      g_assert_cmpint (anomalous_node (a, v), ==, s != NULL && s->anomalous);
    }
  g_assert_cmpuint (ws_graph_anomalies_get_n_anomalous (a), >=, 1);
  g_assert_cmpuint (n_chain, >=, 1);
  g_assert_cmpuint (ws_graph_scene_get_node (scene, chain[0])->layer, ==, 0);
  g_assert_true (anomalous_node (a, chain[n_chain - 1]));
  for (guint i = 0; i < n_chain; i++)
    {
      on_chain += anomalous_node (a, chain[i]);
      if (i > 0)
        g_assert_true (has_edge (scene, chain[i - 1], chain[i]));
    }
  for (guint v = 0; v < n; v++)
    if (ws_graph_scene_get_node (scene, v)->layer == 0)
      best = MAX (best, best_from (scene, a, v, memo));
  g_test_message ("%u nodes, %u anomalous, chain of %u with %u anomalous (best possible %u)",
                  n, ws_graph_anomalies_get_n_anomalous (a), n_chain, on_chain, best);
  g_assert_cmpuint (on_chain, ==, best);

  /* "Next" visits every anomalous node once, then wraps. */
  for (guint v = ws_graph_anomalies_next_anomalous (a, WS_NONE, TRUE), first = v;
       v != WS_NONE; v = ws_graph_anomalies_next_anomalous (a, v, TRUE))
    {
      g_assert_true (anomalous_node (a, v));
      if (++visited > 1 && v == first)
        break;
    }
  g_assert_cmpuint (visited - 1, ==, ws_graph_anomalies_get_n_anomalous (a));
}

static void
check_export (WsGraphScene     *scene,
              WsGraphAnomalies *a)
{
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-graph-anomalies-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "g.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "g.png", NULL);
  g_autofree char *text = NULL;
  cairo_surface_t *surface;
  guint vermillion = 0;

  ws_graph_renderer_set_anomalies (renderer, a);
  g_assert_true (ws_graph_renderer_export (renderer, scene, NULL, svg, WS_EXPORT_SVG, &error));
  g_assert_true (ws_graph_renderer_export (renderer, scene, NULL, png, WS_EXPORT_PNG, &error));
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<svg"));
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  {
    int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
    int stride = cairo_image_surface_get_stride (surface);
    const guchar *data = cairo_image_surface_get_data (surface);

    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        {
          const guchar *p = data + y * stride + 4 * x;   /* BGRA */
          vermillion += ABS (p[2] - 0xd5) < 10 && ABS (p[1] - 0x5e) < 10 && ABS (p[0] - 0x00) < 10;
        }
  }
  cairo_surface_destroy (surface);
  g_test_message ("export: %u vermillion pixels", vermillion);
  g_assert_cmpuint (vermillion, >, 50);
  g_unlink (svg);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_ready_tree (Fixture       *f,
                 gconstpointer  data)
{
  const WsEvent *e = ws_trace_get_event (f->trace, f->worst);
  WsSymptom symptom = { e->thread, e->time, e->time + ws_event_duration (e) };
  WsReadyTreeSettings settings;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  g_autoptr(WsGraphAnomalies) a = NULL;

  ws_ready_tree_settings_init (&settings, &symptom);
  settings.root_event = f->worst;
  tree = ws_ready_tree_run (f->trace, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ws_anomaly_result_mark_ready_tree (f->result, 0, tree);
  scene = ws_graph_scene_new_for_ready_tree (tree, WS_CHAIN_METRIC_DEFAULT, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  a = ws_graph_anomalies_new (scene, f->result, 0);
  g_assert_cmpint (ws_graph_anomalies_get_mark (a, ws_graph_scene_get_root (scene)), ==, WS_GRAPH_MARK_ANOMALOUS);
  check_layer (f, scene, a);
  check_export (scene, a);
}

static void
test_wait_graph (Fixture       *f,
                 gconstpointer  data)
{
  const WsEvent *e = ws_trace_get_event (f->trace, f->worst);
  WsSymptom symptom = { e->thread, e->time, e->time + ws_event_duration (e) };
  WsWaitGraphSettings settings;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  g_autoptr(WsGraphAnomalies) a = NULL;

  ws_wait_graph_settings_init (&settings, &symptom);
  graph = ws_wait_graph_run (f->trace, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  scene = ws_graph_scene_new_for_wait_graph_full (graph, 6, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  a = ws_graph_anomalies_new (scene, f->result, 0);
  check_layer (f, scene, a);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/graph-anomalies/ready-tree", Fixture, NULL, fixture_setup, test_ready_tree, fixture_teardown);
  g_test_add ("/graph-anomalies/wait-graph", Fixture, NULL, fixture_setup, test_wait_graph, fixture_teardown);
  return g_test_run ();
}
