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
#include "ws-graph-page.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
wait_for_flag (gboolean   *flag,
               guint       seconds,
               const char *what)
{
  gboolean expired = FALSE;
  guint id = g_timeout_add_seconds (seconds, timeout_cb, &expired);

  while (!*flag && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (expired)
    g_error ("timed out after %u s waiting for %s", seconds, what);
  g_source_remove (id);
}

static void
ready_cb (WsGraphPage *page,
          gboolean    *flag)
{
  *flag = TRUE;
}

static GdkTexture *
screenshot (GtkWidget  *window,
            const char *name)
{
  const char *dir = g_getenv ("WS_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  GdkTexture *texture;
  int width, height;

  spin (300);
  paintable = gtk_widget_paintable_new (window);
  /* On a loaded machine the window may not be mapped and drawn yet: an
   * unmapped widget snapshots to no node at all.  Give it up to 10 s. */
  for (guint attempt = 0; node == NULL && attempt < 100; attempt++)
    {
      if (attempt > 0)
        spin (100);
      width = gtk_widget_get_width (window);
      height = gtk_widget_get_height (window);
      if (!gtk_widget_get_mapped (window) || width <= 0 || height <= 0)
        continue;
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_mkdir_with_parents (dir, 0755);
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot: %s", path);
    }
  return texture;
}

/* Pixels of @texture inside @widget within 8 of @rgb per channel. */
static guint
count_colour (GtkWidget  *window,
              GdkTexture *texture,
              GtkWidget  *widget,
              guint32     rgb)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) w * h * 4);
  graphene_rect_t b;
  guint n = 0;

  gdk_texture_download (texture, data, w * 4);
  g_assert_true (gtk_widget_compute_bounds (widget, window, &b));
  for (int y = MAX ((int) b.origin.y, 0); y < MIN ((int) (b.origin.y + b.size.height), h); y++)
    for (int x = MAX ((int) b.origin.x, 0); x < MIN ((int) (b.origin.x + b.size.width), w); x++)
      {
        const guchar *p = data + (gsize) y * w * 4 + x * 4;   /* B G R A */
        if (ABS (p[2] - (int) ((rgb >> 16) & 0xff)) <= 8 &&
            ABS (p[1] - (int) ((rgb >> 8) & 0xff)) <= 8 &&
            ABS (p[0] - (int) (rgb & 0xff)) <= 8)
          n++;
      }
  return n;
}

/* The search halo: the palette's yellow over a light background. */
static guint
count_yellowish (GtkWidget  *window,
                 GdkTexture *texture,
                 GtkWidget  *widget)
{
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) w * h * 4);
  graphene_rect_t b;
  guint n = 0;

  gdk_texture_download (texture, data, w * 4);
  g_assert_true (gtk_widget_compute_bounds (widget, window, &b));
  for (int y = MAX ((int) b.origin.y, 0); y < MIN ((int) (b.origin.y + b.size.height), h); y++)
    for (int x = MAX ((int) b.origin.x, 0); x < MIN ((int) (b.origin.x + b.size.width), w); x++)
      {
        const guchar *p = data + (gsize) y * w * 4 + x * 4;   /* B G R A */
        if (p[2] > 230 && p[1] > 200 && p[1] < 235 && p[0] < 120)
          n++;
      }
  return n;
}

static guint
find_thread (WsTrace    *trace,
             const char *name)
{
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, name) == 0)
      return t;
  return WS_NONE;
}

static gboolean
stack_has (WsTrace    *trace,
           WsStackId   stack,
           const char *needle)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  const WsFrameId *frames;
  guint n;

  if (stack == WS_STACK_EMPTY)
    return FALSE;
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[i]);
      g_autofree char *fn = g_ascii_strdown (f->function, -1);
      g_autofree char *mod = g_ascii_strdown (f->module ? f->module : "", -1);
      if (strstr (fn, needle) || strstr (mod, needle))
        return TRUE;
    }
  return FALSE;
}

/* The search entry's own capture-phase key handler, as a key press
 * reaching the entry runs it. */
static gboolean
press_key_in (GtkWidget       *widget,
              guint            keyval,
              GdkModifierType  state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c) &&
          (gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_CAPTURE || !GTK_IS_SEARCH_ENTRY (widget)))
        {
          g_signal_emit_by_name (c, "key-pressed", keyval, 0, state, &handled);
          if (handled)
            return TRUE;
        }
    }
  return FALSE;
}

/* A click of the primary button at widget point (x, y): the view's click
 * gesture's press and release. */
static void
click_at (GtkWidget *widget,
          double     x,
          double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (c))
        g_signal_emit_by_name (c, "drag-begin", x, y);
    }
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (c))
        {
          g_signal_emit_by_name (c, "pressed", 1, x, y);
          g_signal_emit_by_name (c, "released", 1, x, y);
        }
    }
}

static GtkWidget *
find_child_of_type (GtkWidget *root,
                    GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_child_of_type (c, type);
      if (found)
        return found;
    }
  return NULL;
}

static void
test_graph_page (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
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

  document = ws_window_open_file (window, file);
  while (ws_document_get_state (document) == WS_DOCUMENT_LOADING)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_READY);
  trace = ws_document_get_trace (document);
  viewport = ws_document_get_viewport (document);
  spin (300);

  page = WS_GRAPH_PAGE (find_child_of_type (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE));
  g_assert_nonnull (page);
  view = ws_graph_page_get_view (page);
  g_signal_connect (page, "ready", G_CALLBACK (ready_cb), &ready);

  /* 1. A 300 ms window of pylk-w2, selected in the timeline; Ready Tree. */
  worker = find_thread (trace, "pylk-w2");
  g_assert_cmpuint (worker, !=, WS_NONE);
  start = ws_trace_get_start_time (trace);
  symptom.thread = worker;
  symptom.t0 = start + 1000000000;
  symptom.t1 = start + 1300000000;
  ws_timeline_viewport_set_selection (viewport, worker, symptom.t0, symptom.t1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-ready-tree", NULL);
  g_assert_true (ws_graph_page_get_busy (page));
  wait_for_flag (&ready, 60, "the ready tree");
  g_assert_false (ws_graph_page_get_busy (page));
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (view)));

  /* The same tree as the core builds with the page's defaults. */
  scene = ws_graph_page_get_scene (page);
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
                      ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_AVERAGE));
  }
  /* The root is selected, its stacks in the side panel. */
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, 0);
  g_assert_nonnull (strstr (ws_graph_page_get_stack_text (page, FALSE), "__schedule"));
  g_assert_cmpstr (ws_graph_page_get_stack_text (page, TRUE), !=, "");

  /* An accessible, focusable view with a name and a description. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_ROLE_WIDGET);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Ready tree");
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));

  /* Every node of the anomalous chain shows (the initial view fits the
   * tree, or starts readable at its root): red on screen. */
  shot = screenshot (GTK_WIDGET (window), "graph-01-ready-tree.png");
  g_assert_cmpuint (count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xe01b24), >, 200);
  g_clear_object (&shot);

  /* 2. Search "futex": as many matches as a brute-force scan of the
   * nodes' stacks finds; Tab, Tab, Shift+Tab, Enter, F3 step through. */
  entry = ws_graph_page_get_search_entry (page);
  g_assert_nonnull (entry);
  gtk_widget_grab_focus (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "futex");
  while (ws_graph_page_get_match_status (page)[0] == '\0')
    g_main_context_iteration (NULL, TRUE);   /* the entry's typing delay */
  for (guint i = 0; i < ws_graph_scene_get_n_nodes (scene); i++)
    {
      const WsSceneNode *n = ws_graph_scene_get_node (scene, i);
      if (stack_has (trace, n->stack, "futex") || stack_has (trace, n->unwait_stack, "futex"))
        n_matches++;
    }
  g_assert_cmpuint (n_matches, >=, 3);
  g_assert_cmpuint (ws_graph_page_get_n_matches (page), ==, n_matches);

  g_assert_true (press_key_in (entry, GDK_KEY_Tab, 0));
  g_assert_cmpstr (ws_graph_page_get_match_status (page), ==, g_strdup_printf ("1 of %u", n_matches));
  first = ws_graph_view_get_current_match (view);
  g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, first);
  g_assert_true (press_key_in (entry, GDK_KEY_Tab, 0));
  second = ws_graph_view_get_current_match (view);
  g_assert_cmpuint (second, !=, first);
  g_assert_cmpstr (ws_graph_page_get_match_status (page), ==, g_strdup_printf ("2 of %u", n_matches));
  g_assert_true (press_key_in (entry, GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, first);
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, second);
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.next-match", NULL);   /* F3 */
  g_assert_cmpstr (ws_graph_page_get_match_status (page), ==, g_strdup_printf ("3 of %u", n_matches));
  gtk_widget_activate_action (GTK_WIDGET (page), "graph.previous-match", NULL);   /* Shift+F3 */
  g_assert_cmpuint (ws_graph_view_get_current_match (view), ==, second);
  /* The selected match's stacks hold the frame, highlighted. */
  {
    const WsSceneNode *n = ws_graph_scene_get_node (scene, second);
    g_autofree char *own = g_ascii_strdown (ws_graph_page_get_stack_text (page, FALSE), -1);
    g_autofree char *readier = g_ascii_strdown (ws_graph_page_get_stack_text (page, TRUE), -1);

    g_assert_true (strstr (own, "futex") || strstr (readier, "futex"));
    g_assert_true (stack_has (trace, n->stack, "futex") || stack_has (trace, n->unwait_stack, "futex"));
  }
  shot = screenshot (GTK_WIDGET (window), "graph-02-search-futex.png");
  /* Yellow halos and the orange ring of the current match. */
  g_assert_cmpuint (count_yellowish (GTK_WIDGET (window), shot, GTK_WIDGET (view)), >, 1000);
  g_assert_cmpuint (count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xff7800), >, 50);
  g_clear_object (&shot);

  /* Closer: the current match at actual size, with its full labels. */
  ws_graph_view_set_zoom (view, 1.0);
  ws_graph_view_reveal_node (view, second);
  shot = screenshot (GTK_WIDGET (window), "graph-03-match-actual-size.png");
  g_assert_cmpuint (count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0xff7800), >, 100);
  g_clear_object (&shot);

  /* 3. Click a node; show it in the timeline. */
  {
    WsGraphRect r;
    double x, y;
    guint target = ws_graph_scene_get_chain_nodes (scene, &(guint) { 0 })[1];

    ws_graph_view_reveal_node (view, target);
    ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), target, &r);
    ws_graph_viewport_to_device (ws_graph_view_get_viewport (view), r.x + r.width / 2, r.y + r.height / 2, &x, &y);
    click_at (GTK_WIDGET (view), x, y);
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, target);
    gtk_widget_activate_action (GTK_WIDGET (page), "graph.show-in-timeline", NULL);
    g_assert_cmpuint (ws_timeline_viewport_get_selected_event (viewport), ==,
                      ws_graph_scene_get_node (scene, target)->event);
    /* Clicking empty space clears the selection. */
    click_at (GTK_WIDGET (view), 2, gtk_widget_get_height (GTK_WIDGET (view)) - 2);
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, WS_NONE);
    ws_graph_page_select_node (page, target);
  }

  /* Keyboard: F fits, + zooms in, Right goes to what readied it. */
  {
    double fitted;

    g_assert_true (press_key_in (GTK_WIDGET (view), GDK_KEY_f, 0));
    fitted = ws_graph_view_get_zoom (view);
    g_assert_true (press_key_in (GTK_WIDGET (view), GDK_KEY_plus, 0));
    g_assert_cmpfloat (ws_graph_view_get_zoom (view), >, fitted * 1.3);
    g_assert_true (press_key_in (GTK_WIDGET (view), GDK_KEY_Home, 0));
    g_assert_cmpuint (ws_graph_view_get_selected_node (view), ==, 0);
    g_assert_true (press_key_in (GTK_WIDGET (view), GDK_KEY_Right, 0));
    g_assert_cmpuint (ws_graph_scene_get_node (scene, ws_graph_view_get_selected_node (view))->layer, ==, 1);
    ws_graph_view_fit (view);
  }
  shot = screenshot (GTK_WIDGET (window), "graph-04-fit.png");
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
  wait_for_flag (&ready, 60, "the wait graph");
  scene = ws_graph_page_get_scene (page);
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
  g_assert_cmpuint (ws_graph_page_get_n_matches (page), >, 0);
  shot = screenshot (GTK_WIDGET (window), "graph-05-wait-graph.png");
  g_clear_object (&shot);

  /* 6. The same nodes as a table. */
  ws_graph_page_show_table (page, TRUE);
  {
    GtkColumnView *table = GTK_COLUMN_VIEW (find_child_of_type (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW));
    GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (table));
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, ws_graph_scene_get_n_nodes (scene));
  }
  shot = screenshot (GTK_WIDGET (window), "graph-06-table.png");
  g_clear_object (&shot);
  ws_graph_page_show_table (page, FALSE);

  /* 7. Dark style. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  ready = FALSE;
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_READY_TREE);
  wait_for_flag (&ready, 60, "the ready tree again");
  shot = screenshot (GTK_WIDGET (window), "graph-07-dark.png");
  g_assert_cmpuint (count_colour (GTK_WIDGET (window), shot, GTK_WIDGET (view), 0x1e1e1e), >, 10000);
  g_clear_object (&shot);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display (run the suite under xvfb-run)\n");
      return 77;
    }

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  the_app = ws_application_new ();
  g_application_set_flags (G_APPLICATION (the_app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (the_app), NULL, &error))
    g_error ("could not register the application: %s", error->message);

  g_test_add_func ("/gui/graph/ready-tree-search-wait-graph", test_graph_page);

  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
