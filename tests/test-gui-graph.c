/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait graph / ready tree view in the real application window under a
 * real display (Xvfb in the suite): open the shared py-locks trace, select
 * a window of a pylk-w worker in the timeline, ask for its ready tree, wait
 * for the background build, then check the page against the core built
 * independently; search a frame and cycle the matches with Tab, Shift+Tab,
 * Enter and F3; click a node and show it in the timeline; switch to the
 * wait graph and to the table; export every format; and save a screenshot
 * at each step into WS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-application.h"
#include "ws-cause-chain.h"
#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-node-details.h"
#include "ws-window.h"

static WsApplication *the_app;

/* The search halo: the palette's yellow over a light background. */
/* The page's side panel, found in the widget tree. */
static WsNodeDetails *
details_of (WsGraphPage *page)
{
  GtkWidget *details = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_NODE_DETAILS);

  g_assert_nonnull (details);
  return WS_NODE_DETAILS (details);
}

static gboolean
yellowish (const guchar *p,   /* B G R A */
           gpointer      data)
{
  return p[2] > 230 && p[1] > 200 && p[1] < 235 && p[0] < 120;
}

static guint
count_yellowish (GtkWidget  *window,
                 GdkTexture *texture,
                 GtkWidget  *widget)
{
  return ws_gui_test_count_pixels (window, texture, widget, yellowish, NULL);
}

static void
test_graph_page (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GdkTexture) shot = NULL;
  g_autoptr(GError) error = NULL;
  WsWindow *window;
  WsDocument *document;
  WsTrace *trace;
  WsTimelineViewport *viewport;
  WsGraphPage *page;
  WsGraphView *view;
  WsGraphScene *scene;
  GtkWidget *entry;
  gboolean ready = FALSE;
  guint worker, n_matches = 0, first, second;
  WsTime start;
  WsSymptom symptom;

  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));

  document = ws_gui_test_open_trace (window, path);
  trace = ws_document_get_trace (document);
  viewport = ws_document_get_viewport (document);
  ws_gui_test_settle (GTK_WIDGET (window));

  page = WS_GRAPH_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE));
  g_assert_nonnull (page);
  view = WS_GRAPH_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_GRAPH_VIEW));
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);

  /* 1. A 300 ms window of pylk-w2, selected in the timeline; Ready Tree. */
  worker = ws_gui_test_find_thread (trace, "pylk-w2");
  g_assert_cmpuint (worker, !=, WS_NONE);
  start = ws_trace_get_start_time (trace);
  symptom.thread = worker;
  symptom.t0 = start + 1000000000;
  symptom.t1 = start + 1300000000;
  ws_timeline_viewport_set_selection (viewport, worker, symptom.t0, symptom.t1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-ready-tree", NULL);
  g_assert_true (ws_gui_test_graph_busy (page));
  ws_gui_test_wait_for_flag (&ready, 60, "the ready tree");
  g_assert_false (ws_gui_test_graph_busy (page));
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (view)));

  /* The same tree as the core builds with the page's defaults. */
  scene = ws_graph_page_get_shown (page)->scene;
  g_assert_nonnull (scene);
  g_assert_cmpint (ws_graph_scene_get_kind (scene), ==, WS_GRAPH_SCENE_READY_TREE);
  {
    WsReadyTreeOptions options;
    g_autoptr(WsReadyTree) tree = NULL;
    guint leaves_with_readier = 0;

    ws_ready_tree_options_init (&options);
    options.max_depth = WS_GRAPH_PAGE_DEFAULT_DEPTH;
    tree = ws_ready_tree_build_for_symptom (trace, &symptom, &options, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
      {
        const WsReadyNode *n = ws_ready_tree_get_node (tree, i);
        if (n->n_children == 0 &&
            (n->stop == WS_READY_STOP_READIER_RAN || n->stop == WS_READY_STOP_FALSE_RUN ||
             n->stop == WS_READY_STOP_HARDWARE || n->stop == WS_READY_STOP_UNKNOWN_READIER))
          leaves_with_readier++;
      }
    g_assert_cmpuint (ws_graph_scene_get_n_nodes (scene), ==, ws_ready_tree_get_n_nodes (tree) + leaves_with_readier);
    g_assert_cmpuint (ws_graph_scene_get_node (scene, 0)->event, ==, ws_ready_tree_get_node (tree, 0)->event);
    g_assert_cmpuint (ws_graph_scene_get_node (scene, 0)->thread, ==, worker);
    g_assert_cmpuint (ws_graph_scene_get_anomalous_chain (scene), ==,
                      ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_DEFAULT));
  }
  /* The root is selected, its stacks in the side panel. */
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, 0);
  g_assert_nonnull (strstr (ws_node_details_get_stack_text (details_of (page), FALSE), "__schedule"));
  g_assert_cmpstr (ws_node_details_get_stack_text (details_of (page), TRUE), !=, "");

  /* An accessible, focusable view with a name and a description. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_ROLE_TREE);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Ready tree");
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));

  /* Every node of the anomalous chain shows (the initial view fits the
   * tree, or starts readable at its root): red on screen. */
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-01-ready-tree.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xe01b24, 8), >, 200);
  g_clear_object (&shot);

  /* 2. Search "futex": as many matches as a brute-force scan of the
   * nodes' stacks finds; Tab, Tab, Shift+Tab, Enter, F3 step through. */
  entry = ws_gui_test_find_named (GTK_WIDGET (page), "graph-search");
  g_assert_nonnull (entry);
  gtk_widget_grab_focus (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "futex");
  while (ws_gui_test_graph_match_status (page)[0] == '\0')
    g_main_context_iteration (NULL, TRUE);   /* the entry's typing delay */
  for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (scene, i);
      if (ws_gui_test_stack_has (trace, n->stack, "futex") || ws_gui_test_stack_has (trace, n->unwait_stack, "futex"))
        n_matches++;
    }
  g_assert_cmpuint (n_matches, >=, 3);
  g_assert_cmpuint (ws_gui_test_graph_n_matches (page), ==, n_matches);

  g_assert_true (ws_gui_test_press_key_in (entry, GDK_KEY_Tab, 0));
  g_assert_cmpstr (ws_gui_test_graph_match_status (page), ==, g_strdup_printf ("1 of %u", n_matches));
  first = ws_graph_view_get_current_match (view);
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, first);
  g_assert_true (ws_gui_test_press_key_in (entry, GDK_KEY_Tab, 0));
  second = ws_graph_view_get_current_match (view);
  g_assert_cmpuint (second, !=, first);
  g_assert_cmpstr (ws_gui_test_graph_match_status (page), ==, g_strdup_printf ("2 of %u", n_matches));
  g_assert_true (ws_gui_test_press_key_in (entry, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, first);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, second);
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.next-match", NULL);   /* F3 */
  g_assert_cmpstr (ws_gui_test_graph_match_status (page), ==, g_strdup_printf ("3 of %u", n_matches));
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.previous-match", NULL);   /* Shift+F3 */
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, second);
  /* The selected match's stacks hold the frame, highlighted. */
  {
    const WsSceneNode *n = ws_graph_scene_get_node (scene, second);
    g_autofree char *own = g_ascii_strdown (ws_node_details_get_stack_text (details_of (page), FALSE), -1);
    g_autofree char *readier = g_ascii_strdown (ws_node_details_get_stack_text (details_of (page), TRUE), -1);

    g_assert_true (strstr (own, "futex") || strstr (readier, "futex"));
    g_assert_true (ws_gui_test_stack_has (trace, n->stack, "futex") || ws_gui_test_stack_has (trace, n->unwait_stack, "futex"));
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-02-search-futex.png");
  /* Yellow halos and the orange ring of the current match. */
  g_assert_cmpuint (count_yellowish (GTK_WIDGET (window), shot, GTK_WIDGET (view)), >, 1000);
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xff7800, 8), >, 50);
  g_clear_object (&shot);

  /* Closer: the current match at actual size, with its full labels. */
  ws_graph_view_set_zoom (view, 1.0);
  ws_graph_view_reveal_node (view, second);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-03-match-actual-size.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xff7800, 8), >, 100);
  g_clear_object (&shot);

  /* 3. Click a node; show it in the timeline. */
  {
    WsGraphRect r;
    double x, y;
    guint target = ws_graph_scene_get_chain_nodes (scene, &(guint) { 0 })[1];

    ws_graph_view_reveal_node (view, target);
    ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), target, &r);
    ws_graph_viewport_to_device (ws_graph_view_get_viewport (view), r.x + r.width / 2, r.y + r.height / 2, &x, &y);
    ws_gui_test_click_at (GTK_WIDGET (view), x, y);
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, target);
    gtk_widget_activate_action (GTK_WIDGET (page), "graph.show-in-timeline", NULL);
    g_assert_cmpuint (ws_timeline_viewport_get_selected_event (viewport), ==,
                      ws_graph_scene_get_node (scene, target)->event);
    /* Clicking empty space clears the selection. */
    ws_gui_test_click_at (GTK_WIDGET (view), 2, gtk_widget_get_height (GTK_WIDGET (view)) - 2);
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, WS_NONE);
    ws_graph_page_select_node (page, target);
  }

  /* Keyboard: F fits, + zooms in, Right goes to what readied it. */
  {
    double fitted;

    g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_f, 0));
    fitted = ws_graph_view_get_zoom (view);
    g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_plus, 0));
    g_assert_cmpfloat (ws_graph_view_get_zoom (view), >, fitted * 1.3);
    g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_Home, 0));
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, 0);
    g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (view), GDK_KEY_Right, 0));
    g_assert_cmpuint (ws_graph_scene_get_node (scene, ws_graph_view_get_selected_node (view))->layer, ==, 1);
    ws_graph_view_fit (view);
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-04-fit.png");
  g_clear_object (&shot);

  /* 4. Export in every format. */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-gui-graph-XXXXXX", NULL);
    const char *names[] = { "tree.png", "tree.svg", "tree.pdf", "tree.dot", "tree.json" };
    const char *magic[] = { "\x89PNG", "<?xml", "%PDF", "digraph", "{" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *out = g_build_filename (dir, names[i], NULL);
        g_autofree char *contents = NULL;
        gsize len;

        g_assert_true (ws_graph_page_export (page, out, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
        g_assert_true (g_str_has_prefix (contents, magic[i]));
        if (g_str_has_suffix (names[i], ".json"))
          {
            g_autoptr(JsonParser) parser = json_parser_new ();
            JsonObject *root;

            g_assert_true (json_parser_load_from_data (parser, contents, len, &error));
            root = json_node_get_object (json_parser_get_root (parser));
            g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "nodes")), ==,
                              ws_ready_tree_get_n_nodes (ws_graph_scene_get_ready_tree (scene)));
          }
        g_unlink (out);
      }
    g_assert_false (ws_graph_page_export (page, "/tmp/tree.bmp", &error));
    g_clear_error (&error);
    g_rmdir (dir);
  }

  /* 5. The wait graph of the same window. */
  ready = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_WAIT_GRAPH);
  ws_gui_test_wait_for_flag (&ready, 60, "the wait graph");
  scene = ws_graph_page_get_shown (page)->scene;
  g_assert_cmpint (ws_graph_scene_get_kind (scene), ==, WS_GRAPH_SCENE_WAIT_GRAPH);
  {
    g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);
    guint kept = 0;

    g_assert_no_error (error);
    for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
      kept += ws_wait_graph_get_node (graph, i)->generation <= WS_GRAPH_PAGE_DEFAULT_DEPTH;
    g_assert_cmpuint (ws_graph_scene_get_n_nodes (scene), ==, kept);
  }
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Wait graph");
  /* The search carries over to the new graph. */
  g_assert_cmpuint (ws_gui_test_graph_n_matches (page), >, 0);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-05-wait-graph.png");
  g_clear_object (&shot);

  /* 6. The same nodes as a table. */
  ws_graph_page_show_table (page, TRUE);
  {
    GtkColumnView *table = GTK_COLUMN_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW));
    GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (table));
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, ws_graph_scene_get_n_nodes (scene));
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-06-table.png");
  g_clear_object (&shot);
  ws_graph_page_show_table (page, FALSE);

  /* 7. Dark style. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  ready = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_READY_TREE);
  ws_gui_test_wait_for_flag (&ready, 60, "the ready tree again");
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "graph-07-dark.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x1e1e1e, 8), >, 10000);
  g_clear_object (&shot);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  ws_gui_test_close_window (GTK_WIDGET (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);

  g_test_add_func ("/gui/graph/ready-tree-search-wait-graph", test_graph_page);

  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
