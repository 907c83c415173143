/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Flame graph drawing speed: 100,000 distinct folded stacks (synthetic,
 * seeded: call trees of 8–40 frames over a vocabulary that makes them share
 * prefixes as real stacks do), merged into a tree, then full redraws into a
 * 1920-wide image surface as tall as the graph (what the page's chart
 * draws): the whole graph, with a search highlighted, icicle, zoomed to a
 * frame.  Then the SVG of the same tree against flamegraph.pl's SVG from
 * the same folded file, when $FLAMEGRAPH_PL names the script.
 *
 *   bench-flame [N_STACKS [FRAMES]]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-flame-renderer.h"

#define WIDTH 1920

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* Distinct stacks: each frame drawn from a pool that grows with depth,
 * so near the root few names recur and the leaves are varied. */
static GPtrArray *
make_stacks (guint n, GRand *rand)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);

  while (lines->len < n)
    {
      guint depth = g_rand_int_range (rand, 8, 41);

      g_string_truncate (s, 0);
      g_string_append_printf (s, "proc_%u", g_rand_int_range (rand, 0, 12));
      for (guint d = 1; d < depth; d++)
        {
          guint pool = MIN (2 + d * d, 400);
          g_string_append_printf (s, ";module_%u::function_%u", d % 7, g_rand_int_range (rand, 0, pool));
        }
      if (g_hash_table_contains (seen, s->str))
        continue;
      g_string_append_printf (s, " %u", g_rand_int_range (rand, 1, 1000));
      g_ptr_array_add (lines, g_strdup (s->str));
      /* The key is the stack without its count. */
      g_hash_table_add (seen, g_strndup (s->str, strrchr (s->str, ' ') - s->str));
    }
  g_string_free (s, TRUE);
  return lines;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
frames (WsFlameRenderer *renderer, WsFlameGraph *graph, const WsFlameView *view, guint n, double *worst)
{
  double height = ws_flame_renderer_graph_height (renderer, graph->tree);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, (int) height);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      cairo_t *cr = cairo_create (surface);
      double t0 = now_ms (), dt;

      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      ws_flame_renderer_draw (renderer, cr, graph->tree, view, WIDTH, height);
      cairo_surface_flush (surface);
      dt = now_ms () - t0;
      g_array_append_val (times, dt);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (surface);
  g_array_sort (times, compare_double);
  *worst = g_array_index (times, double, times->len - 1);
  return g_array_index (times, double, times->len / 2);
}

int
main (int argc, char *argv[])
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  guint n_frames = argc > 2 ? (guint) atoi (argv[2]) : 20;
  g_autoptr(GRand) rand = g_rand_new_with_seed (100000);
  g_autoptr(GPtrArray) lines = make_stacks (n, rand);
  g_autoptr(WsFlameRenderer) renderer = ws_flame_renderer_new ();
  g_autoptr(GRegex) regex = g_regex_new ("function_1[0-9]$", 0, 0, NULL);
  g_autofree guint8 *matched = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-bench-flame-XXXXXX", NULL);
  g_autofree char *folded = g_build_filename (dir, "stacks.folded", NULL);
  g_autofree char *ours = g_build_filename (dir, "ours.svg", NULL);
  g_autofree char *theirs = g_build_filename (dir, "flamegraph-pl.svg", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  WsFlameGraph graph = { 0 };
  WsFlameView view;
  double t0, build_ms, worst, worst_all = 0, m, svg_ms;
  guint zoom = WS_FLAME_ROOT;
  const char *peer = g_getenv ("FLAMEGRAPH_PL");

  t0 = now_ms ();
  graph.tree = ws_flame_tree_new ();
  graph.mode = WS_FLAME_ON_CPU;
  graph.unit = WS_FLAME_UNIT_NS;
  for (guint i = 0; i < lines->len; i++)
    {
      g_autofree char *stack = g_strdup (g_ptr_array_index (lines, i));
      char *space = strrchr (stack, ' ');
      *space = '\0';
      ws_flame_tree_add_folded (graph.tree, stack, g_ascii_strtoull (space + 1, NULL, 10));
    }
  ws_flame_tree_finish (graph.tree);
  build_ms = now_ms () - t0;
  g_print ("%u distinct stacks, %u nodes, depth %u: tree built in %.1f ms\n", lines->len,
           ws_flame_tree_get_n_nodes (graph.tree), ws_flame_tree_get_max_depth (graph.tree) + 1, build_ms);

  ws_flame_view_init (&view);
  m = frames (renderer, &graph, &view, n_frames, &worst);
  worst_all = MAX (worst_all, m);
  g_print ("frame, whole graph (flame), %d px wide: median %.2f ms, worst %.2f ms\n", WIDTH, m, worst);

  matched = g_new0 (guint8, ws_flame_tree_get_n_nodes (graph.tree));
  ws_flame_tree_search (graph.tree, regex, matched);
  view.matched = matched;
  m = frames (renderer, &graph, &view, n_frames, &worst);
  worst_all = MAX (worst_all, m);
  g_print ("frame, search highlighted: median %.2f ms, worst %.2f ms\n", m, worst);

  view.icicle = TRUE;
  m = frames (renderer, &graph, &view, n_frames, &worst);
  worst_all = MAX (worst_all, m);
  g_print ("frame, icicle: median %.2f ms, worst %.2f ms\n", m, worst);

  /* Zoomed to the heaviest frame at depth 3. */
  for (guint i = 1; i < ws_flame_tree_get_n_nodes (graph.tree); i++)
    if (ws_flame_tree_get_node (graph.tree, i)->depth == 3 &&
        (zoom == WS_FLAME_ROOT || ws_flame_tree_get_node (graph.tree, i)->total > ws_flame_tree_get_node (graph.tree, zoom)->total))
      zoom = i;
  view.zoom = zoom;
  m = frames (renderer, &graph, &view, n_frames, &worst);
  worst_all = MAX (worst_all, m);
  g_print ("frame, zoomed to a depth-3 frame (%.1f %% of all): median %.2f ms, worst %.2f ms\n",
           100.0 * ws_flame_tree_get_node (graph.tree, zoom)->total / ws_flame_tree_get_total (graph.tree), m, worst);
  g_print ("worst median frame: %.2f ms (goal: 16 ms)\n", worst_all);

  /* SVG: ours from the tree just built (plus the build), and flamegraph.pl's from the folded file. */
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (text, g_ptr_array_index (lines, i));
      g_string_append_c (text, '\n');
    }
  g_file_set_contents (folded, text->str, text->len, NULL);
  ws_flame_view_init (&view);
  t0 = now_ms ();
  if (!ws_flame_export (ours, WS_EXPORT_SVG, &graph, &view, "bench", NULL, 1200, NULL))
    return 1;
  svg_ms = now_ms () - t0 + build_ms;
  g_print ("SVG, 1200 wide (tree build + write): %.0f ms\n", svg_ms);
  if (peer != NULL && g_file_test (peer, G_FILE_TEST_EXISTS))
    {
      g_autofree char *cmd = g_strdup_printf ("perl '%s' '%s' > '%s'", peer, folded, theirs);
      const char *argv_sh[] = { "/bin/sh", "-c", cmd, NULL };
      int status;

      t0 = now_ms ();
      if (!g_spawn_sync (NULL, (char **) argv_sh, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL) ||
          status != 0)
        g_print ("flamegraph.pl failed\n");
      else
        {
          double peer_ms = now_ms () - t0;
          g_print ("flamegraph.pl SVG from the same folded file: %.0f ms; ours %.1f times faster\n",
                   peer_ms, peer_ms / svg_ms);
        }
    }
  else
    g_print ("flamegraph.pl: set FLAMEGRAPH_PL to its path for the peer ratio\n");
  ws_flame_tree_unref (graph.tree);
  return worst_all <= 16.0 ? 0 : 1;
}
