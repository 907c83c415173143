/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Wait-graph family speed:
 *
 *  1. a synthetic wait graph of at least N nodes (default 10,000): Fig. 2
 *     construction, against the peer, a literal transcription of Fig. 2
 *     (sets, a full scan of the trace per wait); then the ready tree of the
 *     longest wait, the critical path, the inspector, JSON and DOT export,
 *     and the GUI's layered layout (src/render) of that graph, one layer
 *     per generation, as the wait-graph view lays it out;
 *  2. the real pg-tpcb recording: the same for its longest transaction.
 *
 *   bench-wait-graph [MIN_NODES [PG_TPCB_TRACE]]
 *
 * Times are medians of several runs, in milliseconds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ws-synthetic-waits.h"
#include "ws-critical-path.h"
#include "ws-graph-export.h"
#include "ws-graph-layout.h"
#include "ws-inspector.h"
#include "ws-ready-tree.h"
#include "ws-trace-loader.h"

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
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

/* The peer: Fig. 2 to the letter, returning |V|. */
static guint
naive_fig2 (WsTrace         *trace,
            const WsSymptom *s)
{
  const WsEvent *ev = ws_trace_get_events (trace);
  guint n = ws_trace_get_n_events (trace);
  g_autoptr(GHashTable) V = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) Vp = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) E = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint unknown = 0;
  gboolean changed;

  for (guint i = 0; i < n; i++)
    if (ev[i].thread == s->thread && (ev[i].kind == WS_EVENT_RUNNING || ev[i].kind == WS_EVENT_WAIT) &&
        ev[i].time >= s->t0 && ev[i].time + ws_event_duration (&ev[i]) <= s->t1)
      g_hash_table_add (V, GUINT_TO_POINTER (i + 1));

  do
    {
      g_autoptr(GList) keys = g_hash_table_get_keys (V);

      changed = FALSE;
      for (GList *l = keys; l; l = l->next)
        {
          guint i = GPOINTER_TO_UINT (l->data) - 1;
          guint readier;

          if (g_hash_table_contains (Vp, l->data))
            continue;
          g_hash_table_add (Vp, l->data);
          changed = TRUE;
          if (ev[i].kind != WS_EVENT_WAIT)
            continue;
          switch (ws_trace_wait_readier (trace, i, &readier))
            {
            case WS_READIER_UNKNOWN:
              unknown++;
              break;
            case WS_READIER_HARDWARE:
              g_hash_table_add (V, GUINT_TO_POINTER (ev[i].peer + 1));
              break;
            case WS_READIER_THREAD:
              for (guint j = 0; j < n; j++)
                {
                  WsTime end = ev[j].time + ws_event_duration (&ev[j]);
                  if (ev[j].thread == readier && (ev[j].kind == WS_EVENT_RUNNING || ev[j].kind == WS_EVENT_WAIT) &&
                      end >= ev[i].time && end <= ev[i].time + ws_event_duration (&ev[i]))
                    {
                      g_hash_table_add (V, GUINT_TO_POINTER (j + 1));
                      g_hash_table_add (E, g_strdup_printf ("%u:%u", i, j));
                    }
                }
              break;
            }
        }
    }
  while (changed);

  return g_hash_table_size (V) + unknown;
}

static void
bench_symptom (const char      *label,
               WsTrace         *trace,
               const WsSymptom *s,
               gboolean         with_peer)
{
  double t[9];
  double build[7], tree[7], path[7], inspect[7], json[7], dot[7], layout_ms[5];
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsReadyTree) rtree = NULL;
  g_autoptr(WsCriticalPath) cpath = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  guint peer_nodes = 0, n_nodes;
  double peer = 0;

  for (guint r = 0; r < G_N_ELEMENTS (build); r++)
    {
      g_autoptr(WsWaitGraph) g = NULL;
      g_autoptr(WsReadyTree) rt = NULL;
      g_autoptr(WsCriticalPath) cp = NULL;
      g_autoptr(GPtrArray) f = NULL;
      g_autoptr(JsonNode) j = NULL;
      g_autofree char *d = NULL;

      t[0] = now_ms ();
      g = ws_wait_graph_build (trace, s, NULL, NULL, NULL);
      t[1] = now_ms ();
      rt = ws_ready_tree_build_for_symptom (trace, s, NULL, NULL);
      t[2] = now_ms ();
      cp = ws_critical_path_build (trace, s, NULL, NULL);
      t[3] = now_ms ();
      f = ws_inspect_wait_graph (g, NULL);
      t[4] = now_ms ();
      j = ws_graph_export_wait_graph_json (g);
      t[5] = now_ms ();
      d = ws_graph_export_wait_graph_dot (g);
      t[6] = now_ms ();

      build[r] = t[1] - t[0];
      tree[r] = t[2] - t[1];
      path[r] = t[3] - t[2];
      inspect[r] = t[4] - t[3];
      json[r] = t[5] - t[4];
      dot[r] = t[6] - t[5];
      if (r == 0)
        {
          graph = g_steal_pointer (&g);
          rtree = g_steal_pointer (&rt);
          cpath = g_steal_pointer (&cp);
          findings = g_steal_pointer (&f);
        }
    }

  for (guint r = 0; r < G_N_ELEMENTS (layout_ms); r++)
    {
      g_autoptr(WsGraphLayout) layout = ws_graph_layout_new ();
      const WsWaitNode *nodes = ws_wait_graph_get_nodes (graph);

      t[7] = now_ms ();
      ws_graph_layout_set_direction (layout, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
      for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
        ws_graph_layout_add_node (layout, 150, 44, nodes[i].generation);
      for (guint e = 0; e < ws_wait_graph_get_n_edges (graph); e++)
        ws_graph_layout_add_edge (layout, ws_wait_graph_get_edge (graph, e)->from, ws_wait_graph_get_edge (graph, e)->to);
      ws_graph_layout_set_layer_fixed (layout, 0, TRUE);
      ws_graph_layout_run (layout);
      t[8] = now_ms ();
      layout_ms[r] = t[8] - t[7];
    }

  n_nodes = ws_wait_graph_get_n_nodes (graph);
  if (with_peer)
    {
      double p0 = now_ms ();
      peer_nodes = naive_fig2 (trace, s);
      peer = now_ms () - p0;
      if (peer_nodes != n_nodes)
        g_error ("the peer found %u nodes, the wait graph %u", peer_nodes, n_nodes);
    }

  printf ("%s: %u events; wait graph %u nodes, %u edges, %u threads, %u generations\n",
          label, ws_trace_get_n_events (trace), n_nodes, ws_wait_graph_get_n_edges (graph),
          ws_wait_graph_get_n_threads (graph), ws_wait_graph_get_n_generations (graph));
  printf ("  wait graph (Fig. 2)      %9.3f ms", median (build, G_N_ELEMENTS (build)));
  if (with_peer)
    printf ("   literal Fig. 2 (peer) %9.1f ms   ratio %.0fx", peer, peer / median (build, G_N_ELEMENTS (build)));
  printf ("\n");
  printf ("  ready tree               %9.3f ms   (%u nodes, %u chains)\n", median (tree, G_N_ELEMENTS (tree)),
          rtree ? ws_ready_tree_get_n_nodes (rtree) : 0, rtree ? ws_ready_tree_get_n_chains (rtree) : 0);
  {
    /* Every wait of the thread as a root: the trees a user clicks through. */
    const WsThread *th = ws_trace_get_thread (trace, s->thread);
    guint n_trees = 0, largest = 0;
    double a = now_ms ();

    for (guint k = 0; k < th->n_events; k++)
      {
        guint e = th->events[k];
        g_autoptr(WsReadyTree) one = NULL;

        if (ws_trace_get_event (trace, e)->kind != WS_EVENT_WAIT)
          continue;
        one = ws_ready_tree_build (trace, e, NULL, NULL);
        largest = MAX (largest, ws_ready_tree_get_n_nodes (one));
        n_trees++;
      }
    printf ("  ready trees of all waits %9.3f ms   (%u trees, largest %u nodes)\n", now_ms () - a, n_trees, largest);
  }
  printf ("  critical path            %9.3f ms   (%u segments)\n", median (path, G_N_ELEMENTS (path)),
          ws_critical_path_get_n_segments (cpath));
  printf ("  inspector                %9.3f ms   (%u findings)\n", median (inspect, G_N_ELEMENTS (inspect)), findings->len);
  printf ("  JSON export              %9.3f ms\n", median (json, G_N_ELEMENTS (json)));
  printf ("  DOT export               %9.3f ms\n", median (dot, G_N_ELEMENTS (dot)));
  printf ("  layered layout (render)  %9.3f ms   (budget 50 ms for 10,000 nodes)\n", median (layout_ms, G_N_ELEMENTS (layout_ms)));
}

int
main (int   argc,
      char *argv[])
{
  guint min_nodes = argc > 1 ? (guint) atoi (argv[1]) : 10000;
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *pg = argc > 2 ? g_strdup (argv[2])
                                 : dir ? g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL) : NULL;
  g_autoptr(WsWaitGraph) synthetic = NULL;
  double t0, t1;

  t0 = now_ms ();
  synthetic = ws_synthetic_wait_graph (min_nodes, 1);
  t1 = now_ms ();
  printf ("synthetic trace and graph generated in %.1f ms\n", t1 - t0);
  bench_symptom ("synthetic", ws_wait_graph_get_trace (synthetic), ws_wait_graph_get_symptom (synthetic), TRUE);

  if (pg != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load (pg, NULL, NULL, NULL, NULL, &error);
      guint longest = WS_NONE;
      WsSymptom s;

      if (trace == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      if (ws_trace_get_n_scenario_instances (trace) == 0)
        ws_trace_add_scenario_instances (trace, "transaction", "sdt_postgresql:transaction__start",
                                         "sdt_postgresql:transaction__commit");
      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const WsScenarioInstance *a = ws_trace_get_scenario_instance (trace, i);
          const WsScenarioInstance *b = longest != WS_NONE ? ws_trace_get_scenario_instance (trace, longest) : NULL;
          if (b == NULL || a->t1 - a->t0 > b->t1 - b->t0)
            longest = i;
        }
      if (longest != WS_NONE && ws_symptom_from_scenario_instance (trace, longest, &s))
        bench_symptom ("pg-tpcb, longest transaction", trace, &s, TRUE);

      /* The whole recording as the window of that backend: the largest graph the trace holds. */
      s.t0 = ws_trace_get_start_time (trace);
      s.t1 = ws_trace_get_end_time (trace);
      bench_symptom ("pg-tpcb, that backend over the whole trace", trace, &s, FALSE);
    }

  return 0;
}
