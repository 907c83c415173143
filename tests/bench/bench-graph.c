/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait-graph view at 10,000 nodes: the layered layout alone, the
 * scene plus layout the view builds (off the main thread), and frames
 * drawn into a 1600×1000 image surface at the zooms a user goes through:
 * everything fitted (boxes become specks), the smallest zoom that still
 * draws shapes, a middle zoom with one-line labels, and zoom 1 with full
 * text (first frame, which lays the labels out, and later ones).
 *
 *   bench-graph [MIN_NODES]
 *
 * Goals (issue 3): layout <= 50 ms, a frame <= 16 ms.  Times are medians
 * (and maxima) over several runs, in milliseconds of this thread's CPU
 * time: the machines these run on are shared, and wall-clock time there
 * measures the neighbours as much as the code.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ws-synthetic-waits.h"
#include "ws-graph-renderer.h"

#define WIDTH  1600
#define HEIGHT 1000

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
maximum (const double *v,
         guint         n)
{
  double m = 0;
  for (guint i = 0; i < n; i++)
    m = MAX (m, v[i]);
  return m;
}

/* The layout alone, fed the scene's boxes and edges. */
static double
time_layout (WsGraphScene *scene,
             guint64      *initial,
             guint64      *final)
{
  g_autoptr(WsGraphLayout) layout = ws_graph_layout_new ();
  WsGraphLayout *ref = ws_graph_scene_get_layout (scene);
  double t0;

  for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
    {
      WsGraphRect r;
      ws_graph_layout_get_node_rect (ref, i, &r);
      ws_graph_layout_add_node (layout, r.width, r.height, ws_graph_scene_get_node (scene, i)->layer);
    }
  for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
    {
      const WsSceneEdge *edge = ws_graph_scene_get_edge (scene, e);
      ws_graph_layout_add_edge (layout, edge->from, edge->to);
    }
  ws_graph_layout_set_layer_fixed (layout, 0, TRUE);
  ws_graph_layout_set_spacing (layout, 14, 84, 32);

  t0 = now_ms ();
  ws_graph_layout_run (layout);
  t0 = now_ms () - t0;
  *initial = ws_graph_layout_get_initial_crossings (layout);
  *final = ws_graph_layout_get_crossings (layout);
  return t0;
}

static void
time_frames (const char      *what,
             WsGraphRenderer *renderer,
             WsGraphScene    *scene,
             WsGraphViewport *vp,
             cairo_t         *cr,
             guint            n_frames)
{
  g_autofree double *t = g_new (double, n_frames);
  WsGraphDrawStats stats;
  double first;

  first = now_ms ();
  ws_graph_renderer_draw (renderer, cr, scene, vp);
  first = now_ms () - first;
  for (guint i = 0; i < n_frames; i++)
    {
      double t0 = now_ms ();
      /* Scroll a little each frame, as a drag does. */
      vp->x += 3 / vp->scale;
      ws_graph_renderer_draw (renderer, cr, scene, vp);
      cairo_surface_flush (cairo_get_target (cr));
      t[i] = now_ms () - t0;
    }
  ws_graph_renderer_get_stats (renderer, &stats);
  printf ("  frame, %-28s zoom %6.3f  %5u boxes %5u edges %4u labels %4u one-line  first %7.2f  median %6.2f  max %6.2f ms\n",
          what, vp->scale, stats.nodes, stats.edges, stats.labels, stats.compact_labels, first,
          median (t, n_frames), maximum (t, n_frames));
}

int
main (int argc, char **argv)
{
  guint min_nodes = argc > 1 ? (guint) atoi (argv[1]) : 10000;
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  cairo_surface_t *surface;
  cairo_t *cr;
  double scene_t[5], layout_t[5];
  guint64 initial = 0, final = 0;
  WsGraphViewport vp;
  WsGraphRect root;
  double bw, bh, t0;

  t0 = now_ms ();
  graph = ws_synthetic_wait_graph (min_nodes, 7);
  printf ("bench-graph: synthetic wait graph, %u nodes, %u edges, %u generations (built in %.1f ms)\n",
          ws_wait_graph_get_n_nodes (graph), ws_wait_graph_get_n_edges (graph),
          ws_wait_graph_get_n_generations (graph), now_ms () - t0);

  for (guint i = 0; i < G_N_ELEMENTS (scene_t); i++)
    {
      g_clear_object (&scene);
      t0 = now_ms ();
      scene = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
      scene_t[i] = now_ms () - t0;
      layout_t[i] = time_layout (scene, &initial, &final);
    }
  ws_graph_layout_get_bounds (ws_graph_scene_get_layout (scene), &bw, &bh);
  printf ("  layout alone                %7.2f ms median, %7.2f max  (goal <= 50 ms); crossings %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT "; %.0f x %.0f units\n",
          median (layout_t, G_N_ELEMENTS (layout_t)), maximum (layout_t, G_N_ELEMENTS (layout_t)),
          initial, final, bw, bh);
  printf ("  scene + layout              %7.2f ms median, %7.2f max\n",
          median (scene_t, G_N_ELEMENTS (scene_t)), maximum (scene_t, G_N_ELEMENTS (scene_t)));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (surface);
  ws_graph_viewport_init (&vp);
  vp.width = WIDTH;
  vp.height = HEIGHT;
  vp.selected = ws_graph_scene_get_root (scene);
  ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), ws_graph_scene_get_root (scene), &root);

  ws_graph_viewport_fit (&vp, scene, 1);
  time_frames ("everything fitted", renderer, scene, &vp, cr, 20);

  vp.scale = 10.0 / WS_SCENE_NODE_HEIGHT;
  ws_graph_viewport_center_on (&vp, &root);
  time_frames ("smallest zoom with shapes", renderer, scene, &vp, cr, 20);

  vp.scale = 0.3;
  ws_graph_viewport_center_on (&vp, &root);
  time_frames ("one-line labels", renderer, scene, &vp, cr, 20);

  vp.scale = 1;
  ws_graph_viewport_center_on (&vp, &root);
  time_frames ("zoom 1, text", renderer, scene, &vp, cr, 20);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
