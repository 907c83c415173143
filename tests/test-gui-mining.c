/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining panel in the real application window under a real display
 * (Xvfb in the suite): open the shared pg-tpcb trace, open the Mining
 * page, mine the waiting stacks of its 1,360 transactions (each one a
 * stream), and check, against the core run independently on the same
 * trace:
 *
 *  - the patterns (count and costs) and the clusters (count, metrics),
 *  - the table: one row per cluster in rank order, patterns as children,
 *    sorting by a column,
 *  - the row-lock wait (XactLockTableWait / LockTuple under heap_update)
 *    among the top clusters, its caller variants in one cluster, and that
 *    cluster's alignment,
 *  - a signature from the cluster's common part, and its coverage,
 *  - "Show Events": the timeline's matches are exactly the events whose
 *    stack holds the pattern (brute force over the trace),
 *  - Cancel, re-running, accessibility, and a screenshot at each step into
 *    WS_SCREENSHOT_DIR,
 *  - and that `waitscope-cli cluster --json` with the same settings gives
 *    the same λ, streams, patterns and clusters (one core run for both).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-aoi.h"
#include "ws-cli-test-util.h"
#include "ws-application.h"
#include "ws-coverage.h"
#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-history-store.h"
#include "ws-miner.h"
#include "ws-mining-form.h"
#include "ws-mining-item.h"
#include "ws-mining-pin.h"
#include "ws-time-format.h"
#include "ws-window.h"

#define LAMBDA     20000000   /* 20 ms */
#define THRESHOLD  0.5

static WsApplication *the_app;

/* Only when screenshots are kept: this test counts no pixels. */
/* The page's form, found in the widget tree as a user finds it. */
static WsMiningForm *
form_of (WsMiningPage *page)
{
  GtkWidget *form = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_MINING_FORM);

  g_assert_nonnull (form);
  return WS_MINING_FORM (form);
}

static void
events_cb (WsMiningPage  *page,
           WsDocument    *document,
           WsStackSearch *search,
           gboolean      *flag)
{
  *flag = TRUE;
}

/* Past the stacks' crossfades, once painted. */
static void
screenshot (GtkWidget  *widget,
            const char *name)
{
  if (g_getenv ("WS_SCREENSHOT_DIR") != NULL)
    g_object_unref (ws_gui_test_screenshot (widget, name));
}

static gboolean
search_on (gpointer window)
{
  return ws_window_get_search (window) != NULL;
}

static gboolean
pattern_has (WsPatternSet *set,
             guint         pattern,
             const char   *function)
{
  WsStackTable *table = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (set));
  const WsPattern *p = ws_pattern_set_get_pattern (set, pattern);

  for (guint k = 0; k < p->n_frames; k++)
    if (g_strcmp0 (ws_stack_table_get_frame (table, p->frames[k])->function, function) == 0)
      return TRUE;
  return FALSE;
}

/* The first cluster (in rank order) with a pattern holding @function. */
static guint
cluster_with (WsClusterSet *clusters,
              const char   *function)
{
  WsPatternSet *set = ws_cluster_set_get_pattern_set (clusters);

  for (guint c = 0; c < ws_cluster_set_get_n_clusters (clusters); c++)
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (clusters, c);
      for (guint k = 0; k < cl->n_patterns; k++)
        if (pattern_has (set, cl->patterns[k], function))
          return c;
    }
  return G_MAXUINT;
}

/* Whether @stack of @trace holds @pattern (frames of another table) as a
 * subsequence, comparing frames by name. */
static gboolean
stack_holds (WsTrace         *trace,
             WsStackId        stack,
             WsStackTable    *pattern_table,
             const WsPattern *pattern)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  guint nf, k = 0;

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  frames = ws_stack_table_get_stack (table, stack, &nf);
  for (guint j = 0; j < nf && k < pattern->n_frames; j++)
    {
      const WsFrame *a = ws_stack_table_get_frame (table, frames[j]);
      const WsFrame *b = ws_stack_table_get_frame (pattern_table, pattern->frames[k]);
      if (g_strcmp0 (a->function, b->function) == 0 && g_strcmp0 (a->module, b->module) == 0)
        k++;
    }
  return k == pattern->n_frames;
}

/* Brute force: the events of @trace whose stack holds @pattern. */
static guint
count_events_with (WsTrace         *trace,
                   WsStackTable    *pattern_table,
                   const WsPattern *pattern)
{
  guint n = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    n += stack_holds (trace, ws_trace_get_event (trace, i)->stack, pattern_table, pattern);
  return n;
}

/* The first WAIT event whose stack holds @pattern, or WS_NONE. */
static guint
first_wait_with (WsTrace         *trace,
                 WsStackTable    *pattern_table,
                 const WsPattern *pattern)
{
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind == WS_EVENT_WAIT && stack_holds (trace, e->stack, pattern_table, pattern))
        return i;
    }
  return WS_NONE;
}

static gboolean
coverage_ready (gpointer page)
{
  return !ws_gui_test_mining_coverage_busy (page);
}

static void
test_mining_page (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-mining-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsStackDb) db = NULL;
  g_autoptr(WsPatternSet) patterns = NULL;
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autoptr(WsSimilarity) similarity = NULL;
  WsWindow *window;
  WsDocument *document;
  WsTrace *trace;
  WsMiningPage *page;
  WsClusterSet *shown;
  WsPatternSet *shown_patterns;
  GtkColumnView *view;
  GListModel *rows;
  gboolean finished = FALSE;
  guint lock_cluster, tuple_cluster;

  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1440, 900);
  gtk_window_present (GTK_WINDOW (window));

  document = ws_gui_test_open_trace (window, path);
  trace = ws_document_get_trace (document);

  page = ws_window_get_mining_page (window);
  g_assert_nonnull (page);
  ws_window_show_details_page (window, "mining");
  ws_session_set_history_path (ws_window_get_session (window), history);
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_INSTANCES);
  ws_mining_form_set_lambda (form_of (page), LAMBDA);
  ws_mining_form_set_threshold (form_of (page), THRESHOLD);
  g_assert_cmpint (ws_mining_form_get_lambda (form_of (page)), ==, LAMBDA);

  g_signal_connect (page, "finished", G_CALLBACK (ws_gui_test_flag_cb), &finished);
  /* The guideline helper: 10 % of 1 trace × 300 ms = 30 ms (StackMine §V,
   * scaled down from its 10 % × 0.3 s × 1000 traces = 30 s). */
  ws_mining_form_set_guideline (form_of (page), 0.10, 300000000);
  gtk_widget_activate_action (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_MINING_FORM), "form.use-guideline",
                              NULL);
  g_assert_cmpint (ws_mining_form_get_lambda (form_of (page)), ==, 30000000);
  ws_mining_form_set_lambda (form_of (page), LAMBDA);

  /* A bad content filter: an error naming it, no crash, nothing mined. */
  ws_mining_form_set_filters (form_of (page), "XactLock(", NULL);
  ws_mining_page_run (page);
  ws_gui_test_wait_for_flag (&finished, 60, "the refused run");
  g_assert_null (ws_gui_test_mining_cluster_set (page));
  g_test_message ("bad filter: %s", ws_gui_test_mining_status (page));
  g_assert_nonnull (strstr (ws_gui_test_mining_status (page), "XactLock("));
  g_assert_true (g_str_has_prefix (ws_gui_test_mining_status (page), "Must contain a frame matching: "));
  screenshot (GTK_WIDGET (window), "mining-bad-filter.png");
  ws_mining_form_set_filters (form_of (page), NULL, NULL);
  finished = FALSE;
  screenshot (GTK_WIDGET (window), "mining-settings.png");

  /* 1. Mine, off the main thread. */
  ws_mining_page_run (page);
  g_assert_true (ws_gui_test_mining_busy (page));
  ws_gui_test_wait_for_flag (&finished, 120, "mining");
  g_assert_false (ws_gui_test_mining_busy (page));
  shown = ws_gui_test_mining_cluster_set (page);
  g_assert_nonnull (shown);
  shown_patterns = ws_cluster_set_get_pattern_set (shown);
  g_test_message ("status: %s", ws_gui_test_mining_status (page));

  /* The same with the core: each transaction a stream, its waiting stacks. */
  {
    g_autoptr(WsAoi) aoi = ws_aoi_new (WS_AOI_WAITING);
    g_autoptr(WsStackTable) table = ws_stack_table_new ();
    g_autoptr(WsHistoryStore) store = NULL;
    g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));

    db = ws_stack_db_new (table);
    g_assert_cmpuint (ws_aoi_extract_instances (aoi, trace, "transaction", db), ==, 1360);
    g_assert_cmpuint (ws_stack_db_get_n_streams (ws_pattern_set_get_stack_db (shown_patterns)), ==, 1360);
    g_assert_cmpint (ws_stack_db_get_total_cost (ws_pattern_set_get_stack_db (shown_patterns)), ==,
                     ws_stack_db_get_total_cost (db));
    patterns = ws_miner_mine (db, LAMBDA, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (ws_pattern_set_get_n_patterns (shown_patterns), ==, ws_pattern_set_get_n_patterns (patterns));
    g_assert_cmpuint (ws_pattern_set_get_n_patterns (patterns), >, 0);
    for (guint p = 0; p < ws_pattern_set_get_n_patterns (patterns); p++)
      {
        g_assert_cmpint (ws_pattern_set_get_pattern (shown_patterns, p)->cost, ==,
                         ws_pattern_set_get_pattern (patterns, p)->cost);
        g_assert_cmpuint (ws_pattern_set_get_pattern (shown_patterns, p)->n_frames, ==,
                          ws_pattern_set_get_pattern (patterns, p)->n_frames);
      }

    /* Function weights from the history store the page recorded into. */
    store = ws_history_store_open (history, &error);
    g_assert_no_error (error);
    g_assert_true (ws_history_store_get_n_traces (store) >= 1);
    similarity = ws_similarity_new (table);
    for (guint p = 0; p < ws_pattern_set_get_n_patterns (patterns); p++)
      {
        const WsPattern *pat = ws_pattern_set_get_pattern (patterns, p);
        g_array_append_vals (frames, pat->frames, pat->n_frames);
      }
    g_assert_true (ws_history_store_fill_similarity (store, similarity, (const WsFrameId *) frames->data,
                                                     frames->len, &error));
    g_assert_no_error (error);
    clusters = ws_clusterer_cluster (patterns, similarity, THRESHOLD, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    ws_cluster_set_rank (clusters, WS_CLUSTER_RANK_TOTAL);
    g_assert_cmpuint (ws_cluster_set_get_n_clusters (shown), ==, ws_cluster_set_get_n_clusters (clusters));
    for (guint c = 0; c < ws_cluster_set_get_n_clusters (clusters); c++)
      {
        const WsCluster *a = ws_cluster_set_get_cluster (shown, c), *b = ws_cluster_set_get_cluster (clusters, c);
        g_assert_cmpint (a->total_cost, ==, b->total_cost);
        g_assert_cmpuint (a->n_streams, ==, b->n_streams);
        g_assert_cmpuint (a->n_events, ==, b->n_events);
        g_assert_cmpuint (a->n_patterns, ==, b->n_patterns);
      }
  }

  /* 2. The row-lock queue (StackMine's point): XactLockTableWait among
   * the top clusters, and its caller variant (LockTuple) in the same one. */
  lock_cluster = cluster_with (shown, "XactLockTableWait");
  tuple_cluster = cluster_with (shown, "LockTuple");
  g_test_message ("row lock in cluster %u, LockTuple in %u of %u", lock_cluster + 1, tuple_cluster + 1,
                  ws_cluster_set_get_n_clusters (shown));
  g_assert_cmpuint (lock_cluster, <, 3);
  g_assert_cmpuint (tuple_cluster, ==, lock_cluster);

  /* 3. The table: one collapsed row per cluster, in rank order. */
  view = GTK_COLUMN_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW));
  rows = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, ws_cluster_set_get_n_clusters (shown));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(WsMiningItem) item = gtk_tree_list_row_get_item (row);
      const WsCluster *cl = ws_cluster_set_get_cluster (shown, i);

      g_assert_cmpint (ws_mining_item_get_kind (item), ==, WS_MINING_ITEM_CLUSTER);
      g_assert_cmpuint (ws_mining_item_get_rank (item), ==, i + 1);
      g_assert_cmpint (ws_mining_item_get_total_cost (item), ==, cl->total_cost);
      g_assert_cmpuint (ws_mining_item_get_n_streams (item), ==, cl->n_streams);
      g_assert_cmpuint (ws_mining_item_get_n_events (item), ==, cl->n_events);
      g_assert_cmpfloat_with_epsilon (ws_mining_item_get_average_cost (item), cl->average_cost, 1e-6);
    }

  /* The row-lock cluster selected and expanded: its patterns as children,
   * its alignment with a common part. */
  ws_mining_page_select_cluster (page, lock_cluster + 1);
  {
    const WsCluster *cl = ws_cluster_set_get_cluster (shown, lock_cluster);
    WsAlignmentGrid *grid = ws_alignment_view_get_grid (WS_ALIGNMENT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_ALIGNMENT_VIEW)));

    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, ws_cluster_set_get_n_clusters (shown) + cl->n_patterns);
    g_assert_nonnull (grid);
    g_assert_cmpuint (ws_alignment_grid_get_n_patterns (grid), ==, MIN (cl->n_patterns, 24));
    g_assert_cmpuint (ws_alignment_grid_count_rows (grid, WS_ALIGNMENT_ROW_COMMON), >, 0);
    if (cl->n_patterns > 1)
      g_assert_cmpuint (ws_alignment_grid_count_rows (grid, WS_ALIGNMENT_ROW_COMMON), <,
                        ws_alignment_grid_get_n_rows (grid));
  }
  screenshot (GTK_WIDGET (window), "mining-results.png");

  /* 4. A signature from the cluster's common part: the coverage chart's
   * line is its coverage, computed here with the core. */
  g_assert_true (ws_mining_page_mark_signature (page));
  g_assert_cmpuint (ws_gui_test_mining_n_signatures (page), ==, 1);
  /* The curves are computed in a thread: the chart says so meanwhile. */
  g_assert_true (ws_gui_test_mining_coverage_busy (page));
  g_assert_cmpuint (ws_coverage_plot_get_n_series (ws_coverage_view_get_plot (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW)))), ==, 0);
  ws_gui_test_wait_until (coverage_ready, page, 60, "the coverage curves");
  {
    WsCoveragePlot *plot = ws_coverage_view_get_plot (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW)));
    g_autoptr(WsCoverage) coverage = ws_coverage_new (db);
    guint n;
    g_autofree WsFrameId *common = ws_coverage_cluster_common_frames (clusters, lock_cluster, &n);

    g_assert_cmpuint (n, >, 0);
    ws_coverage_add_signature (coverage, "row lock", common, n);
    g_test_message ("row-lock signature: %u frames, coverage %.4f", n, ws_coverage_get_total_coverage (coverage));
    g_assert_cmpuint (ws_coverage_plot_get_n_series (plot), ==, WS_N_RANKINGS);
    g_assert_cmpfloat_with_epsilon (ws_coverage_plot_get_target (plot), ws_coverage_get_total_coverage (coverage), 1e-12);
    g_assert_cmpfloat (ws_coverage_plot_get_target (plot), >, 0.3);
  }
  ws_mining_page_show_detail (page, "coverage");
  screenshot (GTK_WIDGET (window), "mining-coverage.png");
  ws_mining_page_show_detail (page, "alignment");

  /* 5. Show Events of the cluster's costliest pattern (its first child). */
  {
    g_autoptr(GtkTreeListRow) row = NULL;
    g_autoptr(WsMiningItem) item = NULL;
    const WsCluster *cl = ws_cluster_set_get_cluster (shown, lock_cluster);
    GtkSelectionModel *selection = gtk_column_view_get_model (view);
    guint position = G_MAXUINT, expected;
    WsStackSearch *search;
    WsGraphPage *graph;
    gboolean shown_events = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (rows) && position == G_MAXUINT; i++)
      {
        g_autoptr(GtkTreeListRow) r = g_list_model_get_item (rows, i);
        g_autoptr(WsMiningItem) it = gtk_tree_list_row_get_item (r);
        if (ws_mining_item_get_kind (it) == WS_MINING_ITEM_PATTERN && ws_mining_item_get_index (it) == cl->patterns[0])
          position = i;
      }
    if (cl->n_patterns > 1)
      {
        g_assert_cmpuint (position, !=, G_MAXUINT);
        gtk_selection_model_select_item (selection, position, TRUE);
        g_assert_cmpuint (ws_alignment_view_get_selected_pattern (WS_ALIGNMENT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_ALIGNMENT_VIEW))), ==, 0);
      }

    /* A wait graph open on one of those waits, to be highlighted too. */
    {
      WsStackTable *ptable = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (shown_patterns));
      guint wait = first_wait_with (trace, ptable, ws_pattern_set_get_pattern (shown_patterns, cl->patterns[0]));
      const WsEvent *e;
      gboolean ready = FALSE;

      g_assert_cmpuint (wait, !=, WS_NONE);
      e = ws_trace_get_event (trace, wait);
      /* The graph page is the Mining page's sibling in the lower pane. */
      graph = WS_GRAPH_PAGE (gtk_stack_get_child_by_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page))),
                                                          "graph"));
      g_assert_nonnull (graph);
      g_signal_connect (graph, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);
      ws_timeline_viewport_set_selection (ws_document_get_viewport (document), e->thread,
                                          e->time - 1000000, e->time + ws_event_duration (e) + 1000000);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-wait-graph", NULL);
      ws_gui_test_wait_for_flag (&ready, 60, "the wait graph");
      ws_window_show_details_page (window, "mining");
    }

    g_signal_connect (page, "show-events", G_CALLBACK (events_cb), &shown_events);
    ws_mining_page_show_events (page);
    ws_gui_test_wait_for_flag (&shown_events, 60, "the pattern's events");
    ws_gui_test_wait_until (search_on, window, 60, "the window's search over the pattern's events");
    search = ws_window_get_search (window);
    g_assert_nonnull (search);
    g_assert_true (ws_stack_search_get_trace (search) == trace);
    expected = count_events_with (trace, ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (shown_patterns)),
                                  ws_pattern_set_get_pattern (shown_patterns, cl->patterns[0]));
    g_test_message ("pattern %u: %u events", cl->patterns[0], expected);
    g_assert_cmpuint (expected, >, 0);
    g_assert_cmpuint (ws_stack_search_get_n_matches (search), ==, expected);
    /* The first match is selected in the timeline. */
    g_assert_cmpuint (ws_timeline_viewport_get_selected_event (ws_document_get_viewport (document)), ==,
                      ws_stack_search_next (search, WS_NONE, TRUE));
    g_assert_true (ws_stack_search_matches_event (search, ws_stack_search_next (search, WS_NONE, TRUE)));

    /* The wait graph highlights its nodes whose stack (or whose readier's
     * stack) holds the pattern, brute force over the nodes, and no other. */
    {
      WsGraphScene *scene = ws_graph_page_get_shown (graph)->scene;
      WsStackTable *ptable = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (shown_patterns));
      const WsPattern *pat = ws_pattern_set_get_pattern (shown_patterns, cl->patterns[0]);
      guint holding = 0;

      for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
        {
          const WsSceneNode *node = ws_graph_scene_get_node (scene, i);
          holding += stack_holds (trace, node->stack, ptable, pat) || stack_holds (trace, node->unwait_stack, ptable, pat);
        }
      g_test_message ("wait graph: %u of %u nodes hold the pattern", holding, ws_graph_scene_get_n_nodes (scene));
      g_assert_cmpuint (holding, >, 0);
      g_assert_cmpuint (ws_gui_test_graph_n_matches (graph), ==, holding);
    }
  }
  screenshot (GTK_WIDGET (window), "mining-events.png");
  ws_window_show_details_page (window, "graph");
  screenshot (GTK_WIDGET (window), "mining-events-graph.png");
  ws_window_show_details_page (window, "mining");

  /* 6. Sorting by a column: the most events first. */
  {
    GListModel *columns = gtk_column_view_get_columns (view);
    g_autoptr(GtkColumnViewColumn) events = NULL;
    g_autoptr(GtkTreeListRow) first = NULL;
    g_autoptr(WsMiningItem) item = NULL;
    guint64 most = 0;

    /* By its title: a run over slow and fast traces adds a column. */
    for (guint i = 0; events == NULL && i < g_list_model_get_n_items (columns); i++)
      {
        g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
        if (g_strcmp0 (gtk_column_view_column_get_title (c), "Events") == 0)
          events = g_steal_pointer (&c);
      }
    g_assert_nonnull (events);
    gtk_column_view_sort_by_column (view, events, GTK_SORT_ASCENDING);
    first = g_list_model_get_item (rows, 0);
    item = gtk_tree_list_row_get_item (first);
    for (guint c = 0; c < ws_cluster_set_get_n_clusters (shown); c++)
      most = MAX (most, ws_cluster_set_get_cluster (shown, c)->n_events);
    g_assert_cmpuint (ws_mining_item_get_n_events (item), ==, most);
    gtk_column_view_sort_by_column (view, NULL, GTK_SORT_ASCENDING);
  }

  /* 7. Accessible custom views. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (WS_ALIGNMENT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_ALIGNMENT_VIEW))), GTK_ACCESSIBLE_ROLE_GRID);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW))), GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (WS_ALIGNMENT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_ALIGNMENT_VIEW))),
                                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW))),
                                                   GTK_ACCESSIBLE_PROPERTY_LABEL));

  /* 8. Cancel a re-run: the previous results stay. */
  finished = FALSE;
  ws_mining_page_run (page);
  g_assert_true (ws_gui_test_mining_busy (page));
  ws_mining_page_cancel (page);
  ws_gui_test_wait_for_flag (&finished, 60, "the cancelled run");
  g_assert_false (ws_gui_test_mining_busy (page));
  g_assert_cmpstr (ws_gui_test_mining_status (page), ==, "Mining cancelled");
  g_assert_true (ws_gui_test_mining_cluster_set (page) == shown);

  /* A re-run replaces the results (a new set, the same numbers). */
  finished = FALSE;
  ws_mining_page_run (page);
  screenshot (GTK_WIDGET (window), "mining-running.png");
  ws_gui_test_wait_for_flag (&finished, 120, "the re-run");
  g_assert_true (ws_gui_test_mining_cluster_set (page) != shown);
  shown = ws_gui_test_mining_cluster_set (page);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (shown), ==, ws_cluster_set_get_n_clusters (clusters));
  /* The signature outlives the run. */
  g_assert_cmpuint (ws_gui_test_mining_n_signatures (page), ==, 1);

  /* 9. The dark style. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  screenshot (GTK_WIDGET (window), "mining-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (history);
  {
    g_autofree char *wal = g_strconcat (history, "-wal", NULL);
    g_autofree char *shm = g_strconcat (history, "-shm", NULL);
    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (dir);
}

static const char *mining_keys[] = {
  "mining-scope", "mining-stack-kind", "mining-must-match", "mining-must-not-match", "mining-threads",
  "mining-lambda-share", "mining-lambda-delay", "mining-threshold", "mining-rank", "mining-linkage",
};

/* The memory backend lives as long as the process: earlier tests' choices
 * stay in the settings unless reset. */
static void
reset_mining_settings (void)
{
  GSettings *settings = ws_application_get_settings (the_app);

  for (guint i = 0; i < G_N_ELEMENTS (mining_keys); i++)
    g_settings_reset (settings, mining_keys[i]);
}

/* A window with the bundled trace @name open, its Mining page shown. */
static WsWindow *
open_trace (const char    *name,
            WsMiningPage **page)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_present (GTK_WINDOW (window));
  ws_gui_test_open_trace (window, path);
  *page = ws_window_get_mining_page (window);
  ws_window_show_details_page (window, "mining");
  return window;
}

/* A window with py-locks open, its Mining page shown. */
static WsWindow *
open_py_locks (WsMiningPage **page)
{
  return open_trace ("py-locks.perf.txt.gz", page);
}

static void
mine_and_wait (WsMiningPage *page)
{
  gboolean finished = FALSE;
  gulong id = g_signal_connect (page, "finished", G_CALLBACK (ws_gui_test_flag_cb), &finished);

  ws_mining_page_run (page);
  ws_gui_test_wait_for_flag (&finished, 60, "a mining run");
  g_signal_handler_disconnect (page, id);
  g_test_message ("mined: %s", ws_gui_test_mining_status (page));
  g_assert_nonnull (ws_gui_test_mining_cluster_set (page));
}

static guint64
store_n_traces (const char *history)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (history, &error);
  WsHistoryStats stats;

  g_assert_no_error (error);
  g_assert_true (ws_history_store_get_stats (store, &stats, &error));
  g_assert_no_error (error);
  return stats.n_traces;
}

/* The "record-history" setting off: mining reads the store but adds
 * nothing to it (and creates none); on: the mined trace is recorded. */
static void
test_mining_record_history (void)
{
  GSettings *settings = ws_application_get_settings (the_app);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-mining-history-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  WsMiningPage *page;
  WsWindow *window;

  g_assert_nonnull (settings);
  reset_mining_settings ();
  g_settings_set_boolean (settings, "record-history", FALSE);
  window = open_py_locks (&page);
  ws_session_set_history_path (ws_window_get_session (window), history);
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_WHOLE_TRACES);
  ws_mining_form_set_filters (form_of (page), NULL, NULL);
  ws_mining_form_set_lambda (form_of (page), 1000000);

  /* Off, no store: none is created. */
  mine_and_wait (page);
  g_assert_false (g_file_test (history, G_FILE_TEST_EXISTS));

  /* Off, an empty store: still empty after the run. */
  g_assert_cmpuint (store_n_traces (history), ==, 0);
  mine_and_wait (page);
  g_assert_cmpuint (store_n_traces (history), ==, 0);

  /* On: the mined trace is recorded, once. */
  g_settings_set_boolean (settings, "record-history", TRUE);
  mine_and_wait (page);
  g_assert_cmpuint (store_n_traces (history), ==, 1);

  ws_gui_test_close_window (GTK_WIDGET (window));
  g_settings_reset (settings, "record-history");
  {
    g_autofree char *wal = g_strconcat (history, "-wal", NULL);
    g_autofree char *shm = g_strconcat (history, "-shm", NULL);
    g_unlink (history);
    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (dir);
}

static GtkWidget *
page_child (WsMiningPage *page,
            const char   *name)
{
  GtkWidget *form = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_MINING_FORM);
  GObject *child = gtk_widget_get_template_child (form, WS_TYPE_MINING_FORM, name);

  /* The form's choices, else the results' (the rank). */
  if (child == NULL)
    child = gtk_widget_get_template_child (GTK_WIDGET (page), WS_TYPE_MINING_PAGE, name);
  return GTK_WIDGET (child);
}

/* The mining settings set on one page show on a page created later. */
static void
test_mining_settings_kept (void)
{
  GSettings *settings = ws_application_get_settings (the_app);
  WsWindow *window;
  WsMiningPage *page;

  reset_mining_settings ();
  window = ws_window_new (GTK_APPLICATION (the_app));
  page = ws_window_get_mining_page (window);

  /* A fresh page shows the defaults: the core's scope (the waits that
   * delayed another thread, as `waitscope-cli mine`), the schema's rest. */
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (page_child (page, "scope_row"))), ==, WS_MINING_SCOPE_DELAYING);
  g_assert_cmpuint (ws_mining_form_get_scope (form_of (page)), ==, ws_mining_scope_default ());
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (page_child (page, "threshold_spin"))), ==, 0.5);

  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_INSTANCE_GRAPHS);
  adw_combo_row_set_selected (ADW_COMBO_ROW (page_child (page, "kind_row")), 1);
  ws_mining_form_set_filters (form_of (page), "Lock", "^idle");
  gtk_editable_set_text (GTK_EDITABLE (page_child (page, "threads_row")), "postgres");
  ws_mining_form_set_guideline (form_of (page), 0.25, 1500000);
  ws_mining_form_set_threshold (form_of (page), 0.75);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (page_child (page, "rank_dropdown")), 3);
  gtk_window_destroy (GTK_WINDOW (window));

  g_assert_cmpuint (g_settings_get_uint (settings, "mining-scope"), ==, WS_MINING_SCOPE_INSTANCE_GRAPHS);
  g_assert_cmpfloat (g_settings_get_double (settings, "mining-lambda-delay"), ==, 1.5);

  window = ws_window_new (GTK_APPLICATION (the_app));
  page = ws_window_get_mining_page (window);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (page_child (page, "scope_row"))), ==,
                    WS_MINING_SCOPE_INSTANCE_GRAPHS);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (page_child (page, "kind_row"))), ==, 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (page_child (page, "include_row"))), ==, "Lock");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (page_child (page, "exclude_row"))), ==, "^idle");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (page_child (page, "threads_row"))), ==, "postgres");
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (page_child (page, "share_spin"))), ==, 25);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (page_child (page, "delay_spin"))), ==, 1.5);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (page_child (page, "threshold_spin"))), ==, 0.75);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (page_child (page, "rank_dropdown"))), ==, 3);
  ws_gui_test_close_window (GTK_WIDGET (window));
  reset_mining_settings ();
}

/* The shown run's clusters are the core's clustering of its patterns
 * with @linkage: the same clusters, cluster by cluster. */
static gboolean
clustered_with (WsMiningShown *shown,
                WsLinkage      linkage)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsClusterSet) core = ws_clusterer_cluster (shown->patterns, shown->similarity, THRESHOLD, linkage,
                                                       NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  ws_cluster_set_rank (core, WS_CLUSTER_RANK_TOTAL);
  if (ws_cluster_set_get_n_clusters (core) != ws_cluster_set_get_n_clusters (shown->clusters))
    return FALSE;
  for (guint c = 0; c < ws_cluster_set_get_n_clusters (core); c++)
    {
      const WsCluster *a = ws_cluster_set_get_cluster (shown->clusters, c), *b = ws_cluster_set_get_cluster (core, c);

      if (a->total_cost != b->total_cost || a->n_patterns != b->n_patterns || a->n_streams != b->n_streams)
        return FALSE;
    }
  return TRUE;
}

static gboolean
laid_out (gpointer widget)
{
  return gtk_widget_get_height (widget) > 0;
}

/* The Linkage row of the form's Clustering group: reached with Tab, its
 * choice used by every run (the page used to go back to average after
 * each), kept in the settings, and set by a reopened pin.  The compiler
 * trace, weighted by its own stacks (no history store), has 30 patterns
 * at λ = 1 ms that the three linkages cluster differently (16, 17 and 14
 * clusters by `cluster --no-history` at 0.5). */
static void
test_mining_linkage (void)
{
  GSettings *settings = ws_application_get_settings (the_app);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-mining-linkage-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "none.sqlite", NULL);
  GtkWidget *row, *focus = NULL;
  WsMiningShown *shown;
  WsMiningPage *page;
  WsWindow *window;
  g_autoptr(WsPin) pin = NULL;

  reset_mining_settings ();
  g_settings_set_boolean (settings, "record-history", FALSE);
  window = open_trace ("build.perf.txt.gz", &page);
  ws_session_set_history_path (ws_window_get_session (window), history);
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_WHOLE_TRACES);
  ws_mining_form_set_filters (form_of (page), NULL, NULL);
  ws_mining_form_set_lambda (form_of (page), 1000000);
  ws_mining_form_set_threshold (form_of (page), THRESHOLD);
  row = page_child (page, "linkage_row");
  g_assert_true (ADW_IS_COMBO_ROW (row));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Linkage");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, WS_LINKAGE_AVERAGE);

  /* Tab from the similarity threshold reaches it, once the form is laid out. */
  ws_gui_test_wait_until (laid_out, row, 20, "the Mining form's layout");
  gtk_widget_grab_focus (page_child (page, "threshold_spin"));
  for (guint i = 0; i < 8; i++)
    {
      gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (focus == row || (focus != NULL && gtk_widget_is_ancestor (focus, row)))
        break;
    }
  g_assert_true (focus == row || (focus != NULL && gtk_widget_is_ancestor (focus, row)));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "mining-linkage"));
  {
    /* In view: the form scrolled down to it. */
    GtkWidget *scroller = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
    graphene_rect_t b;

    g_assert_true (gtk_widget_compute_bounds (row, scroller, &b));
    g_test_message ("linkage row at y %.0f..%.0f of the form's %d px", b.origin.y, b.origin.y + b.size.height,
                    gtk_widget_get_height (scroller));
    g_assert_cmpfloat (b.origin.y, >=, 0);
    g_assert_cmpfloat (b.origin.y + b.size.height, <=, gtk_widget_get_height (scroller));
  }

  /* Complete linkage, twice: both runs use it. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), WS_LINKAGE_COMPLETE);
  for (guint run = 0; run < 2; run++)
    {
      mine_and_wait (page);
      shown = ws_mining_page_get_shown (page);
      g_assert_cmpint (ws_pin_get_setting_int (shown->pin, "linkage", -1), ==, WS_LINKAGE_COMPLETE);
      g_assert_false (shown->history_used);
      g_assert_true (clustered_with (shown, WS_LINKAGE_COMPLETE));
      g_assert_false (clustered_with (shown, WS_LINKAGE_AVERAGE));
      g_test_message ("complete linkage: %u clusters of %u patterns",
                      ws_cluster_set_get_n_clusters (shown->clusters), ws_pattern_set_get_n_patterns (shown->patterns));
    }
  g_assert_cmpuint (g_settings_get_uint (settings, "mining-linkage"), ==, WS_LINKAGE_COMPLETE);

  /* A pin mined with single linkage sets the row and runs with it. */
  pin = ws_pin_copy (shown->pin);
  ws_pin_set_setting_int (pin, "linkage", WS_LINKAGE_SINGLE);
  {
    gboolean finished = FALSE;
    gulong id = g_signal_connect (page, "finished", G_CALLBACK (ws_gui_test_flag_cb), &finished);

    ws_mining_pin_apply (page, pin, NULL, 0);
    ws_gui_test_wait_for_flag (&finished, 60, "the pin's mining run");
    g_signal_handler_disconnect (page, id);
  }
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, WS_LINKAGE_SINGLE);
  shown = ws_mining_page_get_shown (page);
  g_assert_cmpint (ws_pin_get_setting_int (shown->pin, "linkage", -1), ==, WS_LINKAGE_SINGLE);
  g_assert_true (clustered_with (shown, WS_LINKAGE_SINGLE));
  g_assert_false (clustered_with (shown, WS_LINKAGE_AVERAGE));
  g_test_message ("single linkage: %u clusters", ws_cluster_set_get_n_clusters (shown->clusters));

  ws_gui_test_close_window (GTK_WIDGET (window));
  reset_mining_settings ();
  g_settings_reset (settings, "record-history");
  g_assert_false (g_file_test (history, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* `waitscope-cli cluster --json` on the same trace and settings. */
static JsonObject *
cli_cluster_json (const char *trace,
                  const char *history)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *lambda = g_strdup_printf ("%dns", 1000000);
  g_autofree char *threshold = g_strdup_printf ("%g", THRESHOLD);
  const char *args[] = { "cluster", trace, "--scope", "all", "--lambda", lambda, "--threshold", threshold,
                         "--history", history, "--top", "0", "--json", NULL };
  g_auto(WsCliRun) run = { 0 };

  ws_cli_run_argv (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* A pattern of the GUI's run against one of the CLI's JSON. */
static void
assert_same_pattern (WsStackTable    *table,
                     const WsPattern *p,
                     JsonObject      *json)
{
  JsonArray *frames = json_object_get_array_member (json, "frames");

  g_assert_cmpint (json_object_get_int_member (json, "cost"), ==, p->cost);
  g_assert_cmpint (json_object_get_int_member (json, "events"), ==, p->n_events);
  g_assert_cmpint (json_object_get_int_member (json, "streams"), ==, p->n_streams);
  g_assert_cmpuint (json_array_get_length (frames), ==, p->n_frames);
  for (guint k = 0; k < p->n_frames; k++)
    {
      g_autofree char *frame = ws_stack_table_format_frame (table, p->frames[k]);
      g_assert_cmpstr (json_array_get_string_element (frames, k), ==, frame);
    }
}

/* The status page saying there were no costly patterns under @w, or NULL. */
static AdwStatusPage *
mapped_status_page (GtkWidget *w)
{
  if (ADW_IS_STATUS_PAGE (w) && gtk_widget_get_mapped (w) &&
      g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (w)), _("No Costly Patterns")) == 0)
    return ADW_STATUS_PAGE (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      AdwStatusPage *found = mapped_status_page (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
status_page_shown (gpointer page)
{
  return mapped_status_page (page) != NULL;
}

/* Mining scenario instances of a trace that has none says which scope
 * came out empty and what to choose instead, not only "widen the scope". */
static void
test_mining_empty_scope (void)
{
  WsMiningPage *page;
  WsWindow *window;
  gboolean finished = FALSE;
  gulong id;
  AdwStatusPage *status;
  const char *desc;

  reset_mining_settings ();
  window = open_py_locks (&page);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_INSTANCES);
  ws_mining_form_set_filters (form_of (page), "pthread_mutex_lock", NULL);
  id = g_signal_connect (page, "finished", G_CALLBACK (ws_gui_test_flag_cb), &finished);
  ws_mining_page_run (page);
  ws_gui_test_wait_for_flag (&finished, 60, "a mining run over no instances");
  g_signal_handler_disconnect (page, id);
  ws_gui_test_wait_until (status_page_shown, page, 60, "the empty run's status page");
  status = mapped_status_page (GTK_WIDGET (page));
  g_assert_nonnull (status);
  desc = adw_status_page_get_description (status);
  g_test_message ("empty mining: %s: %s (status %s)", adw_status_page_get_title (status), desc,
                  ws_gui_test_mining_status (page));
  g_assert_nonnull (strstr (desc, "scope “Scenario instances”"));
  g_assert_nonnull (strstr (desc, "stacks with “pthread_mutex_lock”"));
  g_assert_nonnull (strstr (desc, "no scenario instances"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "mining-empty-scope-1280x720.png"));
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The first mapped label under @w whose text holds @needle. */
static GtkWidget *
find_label_containing (GtkWidget  *w,
                       const char *needle)
{
  if (GTK_IS_LABEL (w) && gtk_widget_get_mapped (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), needle) != NULL)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_containing (c, needle);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Mining page and `waitscope-cli cluster` call the one core run
 * (ws_mining_run()): the same settings give the same λ, streams, weights,
 * patterns and clusters, cluster by cluster and frame by frame. */
static void
test_mining_same_as_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-mining-cli-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(JsonObject) cli = NULL;
  WsClusterSet *clusters;
  WsPatternSet *set;
  WsStackDb *db;
  JsonArray *json_clusters;
  WsMiningPage *page;
  WsWindow *window;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  reset_mining_settings ();
  window = open_py_locks (&page);
  ws_session_set_history_path (ws_window_get_session (window), history);
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_WHOLE_TRACES);
  ws_mining_form_set_filters (form_of (page), NULL, NULL);
  ws_mining_form_set_lambda (form_of (page), 1000000);
  ws_mining_form_set_threshold (form_of (page), THRESHOLD);
  mine_and_wait (page);

  /* The GUI recorded the trace; the CLI finds it there: the same weights. */
  cli = cli_cluster_json (trace, history);
  clusters = ws_gui_test_mining_cluster_set (page);
  set = ws_cluster_set_get_pattern_set (clusters);
  db = ws_pattern_set_get_stack_db (set);
  g_assert_cmpstr (json_object_get_string_member (cli, "weights"), ==, "history");
  g_assert_cmpint (json_object_get_int_member (cli, "lambda"), ==, 1000000);
  g_assert_cmpint (json_object_get_int_member (cli, "streams"), ==, ws_stack_db_get_n_streams (db));
  g_assert_cmpint (json_object_get_int_member (cli, "events"), ==, ws_stack_db_get_n_events (db));
  g_assert_cmpint (json_object_get_int_member (cli, "total_cost"), ==, ws_stack_db_get_total_cost (db));
  g_assert_cmpint (json_object_get_int_member (cli, "n_patterns"), ==, ws_pattern_set_get_n_patterns (set));
  g_assert_cmpint (json_object_get_int_member (cli, "n_clusters"), ==, ws_cluster_set_get_n_clusters (clusters));
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), >, 1);

  json_clusters = json_object_get_array_member (cli, "clusters");
  for (guint c = 0; c < ws_cluster_set_get_n_clusters (clusters); c++)
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (clusters, c);
      JsonObject *jc = json_array_get_object_element (json_clusters, c);
      JsonArray *patterns = json_object_get_array_member (jc, "patterns");

      g_assert_cmpint (json_object_get_int_member (jc, "total_cost"), ==, cl->total_cost);
      g_assert_cmpint (json_object_get_int_member (jc, "streams"), ==, cl->n_streams);
      g_assert_cmpint (json_object_get_int_member (jc, "events"), ==, cl->n_events);
      g_assert_cmpuint (json_array_get_length (patterns), ==, cl->n_patterns);
      for (guint k = 0; k < cl->n_patterns; k++)
        assert_same_pattern (ws_stack_db_get_stack_table (db), ws_pattern_set_get_pattern (set, cl->patterns[k]),
                             json_array_get_object_element (patterns, k));
    }
  g_test_message ("GUI and CLI: %u patterns in %u clusters, identical", ws_pattern_set_get_n_patterns (set),
                  ws_cluster_set_get_n_clusters (clusters));

  /* The summary says in words what λ is, with the CLI's numbers: the
   * threshold, the patterns, the clusters and the stacks' total cost. */
  {
    GtkWidget *label = find_label_containing (GTK_WIDGET (page), "call-stack pattern");
    g_autofree char *lambda = ws_format_duration (json_object_get_int_member (cli, "lambda"));
    g_autofree char *total = ws_format_duration (json_object_get_int_member (cli, "total_cost"));
    g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT " call-stack pattern",
                                              json_object_get_int_member (cli, "n_patterns"));
    g_autofree char *least = g_strdup_printf ("each costing at least %s of the %s", lambda, total);
    g_autofree char *clusters_n = g_strdup_printf ("in %" G_GINT64_FORMAT " cluster",
                                                   json_object_get_int_member (cli, "n_clusters"));
    const char *text;

    g_assert_nonnull (label);
    text = gtk_label_get_text (GTK_LABEL (label));
    g_test_message ("mining summary: %s", text);
    g_assert_true (g_str_has_prefix (text, start));
    g_assert_nonnull (strstr (text, least));
    g_assert_nonnull (strstr (text, clusters_n));
    g_assert_null (strstr (text, "λ"));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (label), "λ"));
  }

  ws_gui_test_close_window (GTK_WIDGET (window));
  {
    g_autofree char *wal = g_strconcat (history, "-wal", NULL);
    g_autofree char *shm = g_strconcat (history, "-shm", NULL);
    g_unlink (history);
    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);

  g_test_add_func ("/gui/mining/pg-tpcb-transactions", test_mining_page);
  g_test_add_func ("/gui/mining/record-history", test_mining_record_history);
  g_test_add_func ("/gui/mining/settings-kept", test_mining_settings_kept);
  g_test_add_func ("/gui/mining/linkage", test_mining_linkage);
  g_test_add_func ("/gui/mining/same-as-cli", test_mining_same_as_cli);
  g_test_add_func ("/gui/mining/empty-scope", test_mining_empty_scope);

  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
