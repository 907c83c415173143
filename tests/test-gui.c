/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The real application window in a real display (Xvfb in the suite): open
 * a shared real trace, wait for the background load, check the timeline
 * draws what the trace holds, select a window of a thread, ask for its
 * ready tree (and build it with the core, as the graph view will), search
 * a frame and step to a match, look at the thread table, export, switch
 * to the dark style, and save a screenshot at each step into
 * WS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "ws-application.h"
#include "ws-error.h"
#include "ws-gui-test-util.h"
#include "ws-ready-tree.h"
#include "ws-window.h"
#include "ws-window-sqlite.h"

/* One application for the whole program: its id can be registered once. */
static WsApplication *the_app;

typedef struct {
  WsApplication *app;
  WsWindow      *window;
  WsDocument    *document;
  WsTrace       *trace;
} Gui;

static gboolean
document_done (gpointer data)
{
  return ws_document_get_state (data) != WS_DOCUMENT_LOADING;
}

/* The window gives the pages under the timeline their share of the height
 * once, at its first layout (ws-window-pages.c): on a busy machine that
 * can come later than any fixed pause. */
static gboolean
pane_arranged (gpointer data)
{
  return g_object_get_data (G_OBJECT (data), "ws-pane-arranged") != NULL;
}

static gboolean
search_done (gpointer data)
{
  return ws_window_get_search (data) != NULL;
}

typedef struct {
  WsWindow *window;
  char     *before;
} StatusChange;

/* A new search's status: done, and not the one before. */
static gboolean
search_status_changed (gpointer data)
{
  StatusChange *c = data;
  const char *now = ws_window_get_search_status (c->window);

  return ws_window_get_search (c->window) != NULL && g_strcmp0 (now, c->before) != 0;
}

/* Search bands: the palette's yellow blended over a light row. */
static gboolean
yellowish (const guchar *p,   /* B G R A */
           gpointer      data)
{
  return p[2] > 230 && p[1] > 200 && p[1] < 245 && p[0] < 180;
}

static guint
count_yellowish (GtkWidget  *window,
                 GdkTexture *texture,
                 GtkWidget  *widget)
{
  return ws_gui_test_count_pixels (window, texture, widget, yellowish, NULL);
}

typedef struct {
  guint          calls;
  WsAnalysisKind kind;
  WsTrace       *trace;
  guint          thread;
  gint64         t0;
  gint64         t1;
  guint          tree_nodes;
  guint          root_thread;
} Request;

static void
analysis_requested_cb (WsWindow *window,
                       int       kind,
                       WsTrace  *trace,
                       guint     thread,
                       gint64    t0,
                       gint64    t1,
                       Request  *request)
{
  WsSymptom symptom = { thread, t0, t1 };
  WsReadyTreeOptions options;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsReadyTree) tree = NULL;

  request->calls++;
  request->kind = kind;
  request->trace = trace;
  request->thread = thread;
  request->t0 = t0;
  request->t1 = t1;

  /* What the ready tree view does with the symptom. */
  ws_ready_tree_options_init (&options);
  options.lock_only = FALSE;
  tree = ws_ready_tree_build_for_symptom (trace, &symptom, &options, &error);
  g_assert_no_error (error);
  request->tree_nodes = ws_ready_tree_get_n_nodes (tree);
  request->root_thread = ws_ready_tree_get_node (tree, 0)->thread;
}

/* The header bar's main menu: the menu button with the "open menu" icon. */
static GtkWidget *
find_main_menu_button (GtkWidget *root)
{
  if (GTK_IS_MENU_BUTTON (root) &&
      g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (root)), "open-menu-symbolic") == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_main_menu_button (c);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
sqlite_export_done (gpointer window)
{
  return !ws_window_get_exporting_sqlite (window);
}

/* "Export as SQLite Database…" (docs/sql.md): the item is in the main
 * menu; the database is written off the main thread and holds every wait
 * of the shown trace. */
static gboolean
unmapped (gpointer widget)
{
  return !gtk_widget_get_mapped (widget);
}

static gboolean
style_dark (gpointer data)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static gboolean
no_documents (gpointer window)
{
  return g_list_model_get_n_items (ws_window_get_documents (window)) == 0;
}

/* The dd rows' D waits drawn in orange (more than 25 pixels) in the
 * window as rendered now. */
static gboolean
dd_rows_drawn (gpointer window)
{
  g_autoptr(GdkTexture) shot = ws_gui_test_render (window);

  return ws_gui_test_count_colour (window, shot, GTK_WIDGET (ws_window_get_timeline_view (window)), 0xc64600, 6) > 25;
}

static void
check_sqlite_export (Gui        *gui,
                     const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "trace.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  GtkWidget *menu_button = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  menu_button = find_main_menu_button (GTK_WIDGET (gui->window));
  g_assert_nonnull (menu_button);
    {
      gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
      ws_gui_test_wait_mapped (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button))), "the main menu");
      /* the popover is a surface of its own: shoot it, not the window */
      shot = ws_gui_test_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button))),
                                     "05b-main-menu-export-sqlite.png");
      gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));
      ws_gui_test_wait_until (unmapped, gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button)), 60,
                              "the main menu to close");
    }

  g_assert_true (ws_window_export_sqlite (gui->window, path, &error));
  g_assert_no_error (error);
  ws_gui_test_wait_until (sqlite_export_done, gui->window, 60, "the SQLite export");
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT COUNT(*) FROM waits", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, ws_trace_count_kind (gui->trace, WS_EVENT_WAIT));
  sqlite3_finalize (stmt);
  sqlite3_close_v2 (db);
  g_unlink (path);
}

/* "Export for Perfetto…": the shown trace as trace-event JSON, one wait
 * slice per wait of the trace, and each flow that starts at a wake-up
 * ends at a wait and the other way round. */
static void
check_perfetto_export (Gui        *gui,
                       const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "trace.chrome.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) outs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) ins = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  JsonArray *events;
  GHashTableIter iter;
  gpointer id;
  guint waits = 0;

  g_assert_true (ws_window_export_chrome (gui->window, path, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");
      const char *bind = json_object_get_string_member_with_default (e, "bind_id", NULL);

      if (g_str_equal (ph, "X") && g_str_has_prefix (json_object_get_string_member (e, "name"), "Waiting"))
        waits++;
      if (bind != NULL && json_object_get_boolean_member_with_default (e, "flow_out", FALSE))
        g_hash_table_add (outs, (gpointer) bind);
      if (bind != NULL && json_object_get_boolean_member_with_default (e, "flow_in", FALSE))
        g_hash_table_add (ins, (gpointer) bind);
    }
  g_test_message ("Perfetto export: %u wait slices, %u flows", waits, g_hash_table_size (outs));
  g_assert_cmpuint (waits, ==, ws_trace_count_kind (gui->trace, WS_EVENT_WAIT));
  g_assert_cmpuint (g_hash_table_size (outs), >, 100);
  g_assert_cmpuint (g_hash_table_size (ins), ==, g_hash_table_size (outs));
  g_hash_table_iter_init (&iter, ins);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    g_assert_true (g_hash_table_contains (outs, id));
  g_unlink (path);
}

static void
test_window (void)
{
  Gui gui = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsTimelineView *view;
  WsTimelineViewport *viewport;
  WsTimelineHit hit;
  g_autoptr(GdkTexture) shot = NULL;
  Request request = { 0 };
  guint worker, longest_wait = WS_NONE, brute = 0, event;
  WsTime start, t0, t1;
  double row_y;

  gui.app = the_app;
  g_assert_nonnull (ws_application_get_settings (gui.app));

  gui.window = ws_window_new (GTK_APPLICATION (gui.app));
  gtk_window_set_default_size (GTK_WINDOW (gui.window), 1500, 940);
  gtk_window_present (GTK_WINDOW (gui.window));

  /* Open and wait for the worker thread. */
  gui.document = ws_window_open_file (gui.window, file);
  g_assert_true (ws_window_get_current_document (gui.window) == gui.document);
  ws_gui_test_wait_until (document_done, gui.document, 60, "the trace to load");
  g_assert_cmpint (ws_document_get_state (gui.document), ==, WS_DOCUMENT_READY);
  gui.trace = ws_document_get_trace (gui.document);
  g_assert_cmpuint (ws_trace_get_n_events (gui.trace), >, 10000);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (gui.window)), "py-locks"));
  /* Opening the same file again shows it rather than loading it twice. */
  g_assert_true (ws_window_open_file (gui.window, file) == gui.document);
  g_assert_cmpuint (g_list_model_get_n_items (ws_window_get_documents (gui.window)), ==, 1);
  /* It is remembered as a recent file. */
  {
    g_auto(GStrv) recent = g_settings_get_strv (ws_application_get_settings (gui.app), "recent-files");
    g_autofree char *uri = g_file_get_uri (file);
    g_assert_cmpstr (recent[0], ==, uri);
  }

  view = ws_window_get_timeline_view (gui.window);
  viewport = ws_timeline_view_get_viewport (view);
  g_assert_true (viewport == ws_document_get_viewport (gui.document));
  ws_gui_test_settle (GTK_WIDGET (view));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (view)), >, 800);

  /* The chart is an accessible grid (threads by time) with a name and a description of
   * what it shows; it takes the keyboard focus. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_ROLE_GRID);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Thread timeline");
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));

  /* Keyboard zoom (the + and Backspace bindings' actions). */
  {
    WsTime span = ws_timeline_viewport_get_end (viewport) - ws_timeline_viewport_get_begin (viewport);

    gtk_widget_activate_action (GTK_WIDGET (view), "timeline.zoom-in", NULL);
    g_assert_cmpint (ws_timeline_viewport_get_end (viewport) - ws_timeline_viewport_get_begin (viewport), ==,
                     (WsTime) llround (span / 1.5));
    gtk_widget_activate_action (GTK_WIDGET (view), "timeline.pan", "d", 0.15);
    gtk_widget_activate_action (GTK_WIDGET (view), "timeline.back", NULL);
    g_assert_cmpint (ws_timeline_viewport_get_end (viewport) - ws_timeline_viewport_get_begin (viewport), ==, span);
    g_assert_cmpint (ws_timeline_viewport_get_begin (viewport), ==, ws_trace_get_start_time (gui.trace));
  }

  /* 1. The whole trace: the six pylk workers mostly wait (dashed blue)
   * and run in short bursts (green). */
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "01-timeline.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0x1c71d8, 6), >, 2000);
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0x26a269, 6), >, 100);
  g_clear_object (&shot);

  /* 2. A window of pylk-w2: 300 ms from 1 s into the trace. */
  worker = ws_gui_test_find_thread (gui.trace, "pylk-w2");
  g_assert_cmpuint (worker, !=, WS_NONE);
  start = ws_trace_get_start_time (gui.trace);
  t0 = start + 1000000000;
  t1 = start + 1300000000;

  /* The widget maps the worker's row where the layout says it is. */
  {
    WsTimelineLayout *layout = ws_timeline_view_get_layout (view);
    const WsTimelineRow *row = ws_timeline_layout_get_row (layout, ws_timeline_layout_find_thread_row (layout, worker));
    const WsTimelineGeometry *geometry = ws_timeline_renderer_get_geometry (ws_timeline_view_get_renderer (view));

    ws_timeline_view_reveal_thread (view, worker);
    ws_gui_test_settle (GTK_WIDGET (view));
    row_y = geometry->ruler_height + row->y - gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view)));
    g_assert_true (ws_timeline_view_hit_test (view, geometry->label_width + 300, row_y + row->height / 2, &hit));
    g_assert_cmpuint (hit.thread, ==, worker);
    g_assert_cmpint (hit.time, ==, ws_timeline_viewport_x_to_time (viewport, 300));
  }

  ws_timeline_viewport_set_selection (viewport, worker, t0, t1);
  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.zoom-selection", NULL);
  g_assert_cmpint (ws_timeline_viewport_get_begin (viewport), ==, t0);
  g_assert_cmpint (ws_timeline_viewport_get_end (viewport), ==, t1);
  g_assert_true (ws_timeline_viewport_can_go_back (viewport));
  g_assert_nonnull (strstr (ws_details_pane_get_title (ws_window_get_details_pane (gui.window)), "pylk-w2"));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "02-selected-window.png");
  g_clear_object (&shot);

  /* 3. Ready tree of the window: the signal carries the symptom, and the
   * core builds a tree rooted at the worker. */
  g_signal_connect (gui.window, "analysis-requested", G_CALLBACK (analysis_requested_cb), &request);
  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.show-ready-tree", NULL);
  g_assert_cmpuint (request.calls, ==, 1);
  g_assert_cmpint (request.kind, ==, WS_ANALYSIS_READY_TREE);
  g_assert_true (request.trace == gui.trace);
  g_assert_cmpuint (request.thread, ==, worker);
  g_assert_cmpint (request.t0, ==, t0);
  g_assert_cmpint (request.t1, ==, t1);
  g_assert_cmpuint (request.tree_nodes, >=, 2);
  g_assert_cmpuint (request.root_thread, ==, worker);
  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.show-wait-graph", NULL);
  g_assert_cmpuint (request.calls, ==, 2);
  g_assert_cmpint (request.kind, ==, WS_ANALYSIS_WAIT_GRAPH);

  /* Click the longest wait of the window (what the ready tree starts
   * from): the details show it with its readier's stack, the timeline
   * draws the arrow. */
  {
    WsSymptom symptom = { worker, t0, t1 };
    longest_wait = ws_symptom_longest_wait (gui.trace, &symptom, NULL);
    g_assert_cmpuint (longest_wait, !=, WS_NONE);
  }
  ws_timeline_viewport_set_selected_event (viewport, longest_wait);
  ws_timeline_view_reveal_event (view, longest_wait);
  g_assert_nonnull (strstr (ws_details_pane_get_title (ws_window_get_details_pane (gui.window)), "·"));
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "03-readier-arrow.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0xe01b24, 6), >, 20);
  g_clear_object (&shot);

  /* 4. Search a frame: as many matches as a brute-force scan finds, and
   * Next selects a matching event and shows its stack. */
  ws_window_set_search_text (gui.window, "futex_wait");
  ws_gui_test_wait_until (search_done, gui.window, 30, "the search");
  for (guint i = 0; i < ws_trace_get_n_events (gui.trace); i++)
    if (ws_gui_test_stack_has (gui.trace, ws_trace_get_event (gui.trace, i)->stack, "futex_wait"))
      brute++;
  g_assert_cmpuint (brute, >, 100);
  g_assert_cmpuint (ws_stack_search_get_n_matches (ws_window_get_search (gui.window)), ==, brute);
  /* One frame is "1 frame": each count takes its own plural ("96 events,
   * 1 frames" did not). */
  {
    guint n_sched = 0;
    g_autofree char *want = NULL;
    g_autofree char *before = g_strdup (ws_window_get_search_status (gui.window));
    StatusChange change = { gui.window, before };

    ws_window_set_search_text (gui.window, "^__schedule$");
    ws_gui_test_wait_until (search_status_changed, &change, 30, "the search for one frame");
    for (guint i = 0; i < ws_trace_get_n_events (gui.trace); i++)
      {
        guint n = 0;
        const WsFrameId *frames = ws_stack_table_get_stack (ws_trace_get_stack_table (gui.trace),
                                                            ws_trace_get_event (gui.trace, i)->stack, &n);
        for (guint k = 0; k < n; k++)
          if (g_strcmp0 (ws_stack_table_get_frame (ws_trace_get_stack_table (gui.trace), frames[k])->function,
                         "__schedule") == 0)
            {
              n_sched++;
              break;
            }
      }
    want = g_strdup_printf ("%u events, 1 frame", n_sched);
    g_assert_cmpstr (ws_window_get_search_status (gui.window), ==, want);
    g_free (change.before);
    change.before = g_strdup (ws_window_get_search_status (gui.window));
    ws_window_set_search_text (gui.window, "futex_wait");
    ws_gui_test_wait_until (search_status_changed, &change, 30, "the search again");
    g_free (change.before);
    before = NULL;
  }

  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.search-next", NULL);
  event = ws_timeline_viewport_get_selected_event (viewport);
  g_assert_cmpuint (event, !=, WS_NONE);
  g_assert_cmpuint (event, >, longest_wait);
  g_assert_true (ws_gui_test_stack_has (gui.trace, ws_trace_get_event (gui.trace, event)->stack, "futex_wait"));
  /* The match is brought into view, not only selected. */
  {
    const WsEvent *e = ws_trace_get_event (gui.trace, event);

    g_assert_cmpint (e->time + ws_event_duration (e), >=, ws_timeline_viewport_get_begin (viewport));
    g_assert_cmpint (e->time, <=, ws_timeline_viewport_get_end (viewport));
  }
  g_assert_nonnull (strstr (ws_details_pane_get_stack_text (ws_window_get_details_pane (gui.window)), "futex_wait"));
  g_assert_true (g_str_has_prefix (ws_window_get_search_status (gui.window), "Match ") ||
                 strstr (ws_window_get_search_status (gui.window), " ") != NULL);
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "04-search.png");
  g_assert_cmpuint (count_yellowish (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view)), >, 2000);
  g_clear_object (&shot);

  /* 5. The thread table: one row per thread with events, most time
   * asleep first. */
  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.zoom-fit", NULL);
  ws_window_show_details_page (gui.window, "threads");
  {
    GListModel *rows = ws_thread_table_get_model (ws_window_get_thread_table (gui.window));
    guint n = g_list_model_get_n_items (rows);
    gint64 prev = G_MAXINT64;

    g_assert_cmpuint (n, ==, ws_timeline_layout_get_n_visible_threads (ws_timeline_view_get_layout (view)));
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(GObject) item = g_list_model_get_item (rows, i);
        gint64 sleep;
        g_object_get (item, "sleep", &sleep, NULL);
        g_assert_cmpint (sleep, <=, prev);
        prev = sleep;
      }
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "05-threads.png");
  g_clear_object (&shot);
  ws_window_show_details_page (gui.window, "details");

  /* 6. Export what is shown. */
  {
    g_autofree char *dir = g_dir_make_tmp ("ws-gui-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
    cairo_surface_t *image;

    g_assert_true (ws_window_export_timeline (gui.window, png, &error));
    g_assert_no_error (error);
    image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (image), >=, 1200);
    cairo_surface_destroy (image);
    g_assert_false (ws_window_export_timeline (gui.window, "timeline.bmp", &error));
    g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
    g_clear_error (&error);
    g_unlink (png);
    check_perfetto_export (&gui, dir);
    check_sqlite_export (&gui, dir);
    g_rmdir (dir);
  }

  /* 7. Dark style: the chart follows. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  ws_gui_test_wait_until (style_dark, NULL, 60, "the dark style");
  shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "06-dark.png");
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0x1e1e1e, 6) +
                    ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0x262626, 6), >, 10000);
  g_assert_cmpuint (ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (view), 0x62a0ea, 6), >, 1000);
  g_clear_object (&shot);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Closing the trace returns to the welcome page. */
  gtk_widget_activate_action (GTK_WIDGET (gui.window), "win.close-trace", NULL);
  g_assert_null (ws_window_get_current_document (gui.window));
  g_assert_cmpuint (g_list_model_get_n_items (ws_window_get_documents (gui.window)), ==, 0);

  ws_gui_test_close_window (GTK_WIDGET (gui.window));
}

static void
test_cancel (void)
{
  WsApplication *app = the_app;
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "io-fsync.perf.txt.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsWindow *window = ws_window_new (GTK_APPLICATION (app));
  g_autoptr(WsDocument) document = NULL;
  Gui gui = { app, window, NULL, NULL };

  /* Tall enough for the dd rows under five tabs and their legend. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  gtk_window_present (GTK_WINDOW (window));
  ws_gui_test_wait_mapped (GTK_WIDGET (window), "the window");

  /* Cancel through the Cancel button's action right after opening (the
   * real traces load in a fraction of a second): the worker stops, the
   * trace leaves the sidebar, the window goes back to its welcome page. */
  document = g_object_ref (ws_window_open_file (window, file));
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_LOADING);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL);
  ws_gui_test_wait_until (document_done, document, 30, "the cancelled load to stop");
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_FAILED);
  g_assert_true (g_error_matches (ws_document_get_error (document), G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                 g_error_matches (ws_document_get_error (document), WS_ERROR, WS_ERROR_CANCELLED));
  ws_gui_test_wait_until (no_documents, window, 60, "the cancelled trace to leave the sidebar");
  g_assert_null (ws_window_get_current_document (window));
  {
    GdkTexture *shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "08-cancelled.png");
    g_object_unref (shot);
  }

  /* Loading the same file again works: cancelling left nothing behind. */
  g_clear_object (&document);
  document = g_object_ref (ws_window_open_file (window, file));
  ws_gui_test_wait_until (document_done, document, 60, "io-fsync to load");
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_READY);
  g_assert_cmpuint (ws_trace_get_n_events (ws_document_get_trace (document)), >, 100000);
  {
    guint orange = 0;
    GtkWidget *timeline = GTK_WIDGET (ws_window_get_timeline_view (window));
    GtkPaned *split = GTK_PANED (gtk_widget_get_ancestor (timeline, GTK_TYPE_PANED));

    /* The pages under the timeline start with most of the height; give
     * the timeline room for the dd rows, as a user drags the divider. */
    ws_gui_test_wait_until (pane_arranged, window, 30, "the window's own first split");
    ws_gui_test_settle (GTK_WIDGET (split));
    gtk_paned_set_position (split, gtk_widget_get_height (GTK_WIDGET (split)) * 6 / 10);
    g_test_message ("split at %d of %d", gtk_paned_get_position (split), gtk_widget_get_height (GTK_WIDGET (split)));

    /* The dd processes wait in D (orange, mostly dotted: 43 % of this
     * trace's blocked waits have no recorded wake-up).  The loading page
     * cross-fades out after the document is ready, so a shot taken too
     * early can still show it: wait for the rows to be drawn. */
    ws_gui_test_wait_until (dd_rows_drawn, window, 60, "the dd rows' orange D waits to be drawn");
    {
      GdkTexture *shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "09-io-fsync.png");

      orange = ws_gui_test_count_colour (GTK_WIDGET (gui.window), shot, GTK_WIDGET (ws_window_get_timeline_view (window)), 0xc64600, 6);
      g_object_unref (shot);
    }
    /* dd rows show above the lower pane, their D waits orange: solid
     * where a wake-up is recorded, dotted where none is (which includes
     * the completions an IPI delivered from an unrecorded sender), so
     * the rows carry about 40 orange pixels in all. */
    g_assert_cmpuint (orange, >, 25);
  }

  ws_gui_test_close_window (GTK_WIDGET (window));
}

static void
test_bad_file (void)
{
  WsApplication *app = the_app;
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "broken.perf.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsWindow *window;
  WsDocument *document;

  /* A perf script line cut in the middle of its header. */
  g_assert_true (g_file_set_contents (path, "pylk-w1 11583/11586 [000] 1986.603075: 1 sched:sched_waking: comm=x pid=\n"
                                            "garbage that is not perf output\n", -1, NULL));
  window = ws_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));

  document = ws_window_open_file (window, file);
  ws_gui_test_wait_until (document_done, document, 60, "the broken trace to fail");
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_FAILED);
  /* The error names the file (and the importer's line). */
  g_assert_nonnull (ws_document_get_error (document));
  g_assert_nonnull (strstr (ws_document_get_error (document)->message, "broken.perf.txt"));
  {
    Gui gui = { app, window, document, NULL };
    g_autoptr(GdkTexture) shot = ws_gui_test_screenshot (GTK_WIDGET (gui.window), "07-load-error.png");
  }

  ws_gui_test_close_window (GTK_WIDGET (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);

  g_test_add_func ("/gui/window/timeline-ready-tree-search", test_window);
  g_test_add_func ("/gui/window/cancel", test_cancel);
  g_test_add_func ("/gui/window/bad-file", test_bad_file);

  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
