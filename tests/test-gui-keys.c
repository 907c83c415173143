/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The keyboard all the way, in the real window under Xvfb: walk the waits
 * of a thread and across threads with the timeline's keys, make a wait the
 * selected window and widen it, open an analysis and a page of the lower
 * pane by their accelerators, check that single letters never reach the
 * (unfocused) search entry, that the custom views are real accessible
 * widgets whose description follows the selection, that keyboard focus is
 * drawn, and that the shortcuts window opens without a GTK warning.
 * A wait's context menu opens from the Menu key, Shift+F10 and a right
 * click, and its entries run the same analysis of that wait as the CLI's
 * --event; Ctrl+R opens the Record page.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-alignment-view.h"
#include "ws-critical-path-view.h"
#include "ws-graph-page.h"
#include "ws-graph-view.h"
#include "ws-gui-test-util.h"
#include "ws-ready-tree.h"
#include "ws-wait-graph.h"
#include "ws-window.h"

static WsApplication *the_app;

static char *
description_of (GtkWidget *widget)
{
  /* gtk_test_accessible_check_property returns the value when it is not
   * the one asked for: ask for one it cannot be. */
  char *value = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                    "\x01");

  g_assert_nonnull (value);
  return value;
}

static WsWindow *
open_window (const char  *name,
             WsDocument **document)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  *document = ws_gui_test_open_trace (window, path);
  ws_gui_test_settle (GTK_WIDGET (window));
  return window;
}

static void
press (GtkWidget *widget,
       guint      keyval,
       GdkModifierType state)
{
  g_assert_true (ws_gui_test_press_shortcut_in (widget, keyval, state));
}

/* The detailed action an application accelerator runs, activated as the
 * window would. */
static void
press_accel (WsWindow   *window,
             const char *accel)
{
  g_auto(GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (the_app), accel);
  g_autofree char *name = NULL;
  g_autoptr(GVariant) target = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (actions);
  g_assert_nonnull (actions[0]);
  g_assert_true (g_action_parse_detailed_name (actions[0], &name, &target, &error));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), name, target));
}

static guint
selected (WsTimelineViewport *viewport)
{
  return ws_timeline_viewport_get_selected_event (viewport);
}

static void
test_timeline_keys (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineView *view = ws_window_get_timeline_view (window);
  GtkWidget *widget = GTK_WIDGET (view);
  WsTimelineViewport *viewport = ws_timeline_view_get_viewport (view);
  WsGraphPage *page = ws_window_get_graph_page (window);
  guint first, second, below, thread;
  WsTime t0, t1, t1_wider;
  gboolean ready = FALSE;
  g_autofree char *desc = NULL;
  GtkWidget *bar;

  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_ROLE_GRID);
  g_assert_true (gtk_widget_grab_focus (widget));
  g_assert_cmpuint (selected (viewport), ==, WS_NONE);

  /* ] picks the first wait on the top thread; ] again the next one of the
   * same thread; [ goes back; Right, with a wait selected, steps too. */
  press (widget, GDK_KEY_bracketright, 0);
  first = selected (viewport);
  g_assert_cmpuint (first, !=, WS_NONE);
  g_assert_cmpint (ws_trace_get_event (trace, first)->kind, ==, WS_EVENT_WAIT);
  press (widget, GDK_KEY_bracketright, 0);
  second = selected (viewport);
  g_assert_cmpint (ws_trace_get_event (trace, second)->kind, ==, WS_EVENT_WAIT);
  g_assert_cmpuint (ws_trace_get_event (trace, second)->thread, ==, ws_trace_get_event (trace, first)->thread);
  g_assert_cmpint (ws_trace_get_event (trace, second)->time, >, ws_trace_get_event (trace, first)->time);
  press (widget, GDK_KEY_bracketleft, 0);
  g_assert_cmpuint (selected (viewport), ==, first);
  press (widget, GDK_KEY_Right, 0);
  g_assert_cmpuint (selected (viewport), ==, second);

  /* The description says which wait is selected, and changes with it. */
  desc = description_of (widget);
  g_assert_nonnull (strstr (desc, "Selected: "));
  g_test_message ("timeline description: %s", desc);

  /* Down: the nearest wait of another thread, further down. */
  press (widget, GDK_KEY_Down, 0);
  below = selected (viewport);
  g_assert_cmpint (ws_trace_get_event (trace, below)->kind, ==, WS_EVENT_WAIT);
  g_assert_cmpuint (ws_trace_get_event (trace, below)->thread, !=, ws_trace_get_event (trace, second)->thread);
  {
    g_autofree char *after = description_of (widget);
    g_assert_cmpstr (after, !=, desc);
  }

  /* Return: the wait is the selected window; Shift+Right widens it by the
   * next wait of the thread. */
  press (widget, GDK_KEY_Return, 0);
  g_assert_true (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1));
  g_assert_cmpuint (thread, ==, ws_trace_get_event (trace, below)->thread);
  g_assert_cmpint (t0, ==, ws_trace_get_event (trace, below)->time);
  press (widget, GDK_KEY_Right, GDK_SHIFT_MASK);
  g_assert_true (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1_wider));
  g_assert_cmpint (t1_wider, >, t1);
  {
    g_autofree char *with_window = description_of (widget);
    g_assert_nonnull (strstr (with_window, "Window: "));
  }

  /* Ctrl+Shift+R: the ready tree of that window, on the Graph page. */
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);
  press_accel (window, "<Control><Shift>r");
  ws_gui_test_wait_for_flag (&ready, 60, "the ready tree");
  g_assert_nonnull (ws_graph_page_get_shown (page)->scene);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");

  /* Alt+3 and Alt+4: pages of the lower pane, the focus inside them. */
  press_accel (window, "<Alt>3");
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "threads");
  press_accel (window, "<Alt>4");
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
    g_assert_nonnull (focus);
    g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (page)));
  }

  /* Flag and pin have accelerators too (their own tests run them). */
  {
    g_auto(GStrv) flag = gtk_application_get_actions_for_accel (GTK_APPLICATION (the_app), "<Control><Alt>a");
    g_auto(GStrv) pin = gtk_application_get_actions_for_accel (GTK_APPLICATION (the_app), "<Control>d");
    g_assert_cmpstr (flag[0], ==, "win.flag-anomalous");
    g_assert_cmpstr (pin[0], ==, "win.pin-view");
  }

  /* No type-to-search: a letter typed anywhere (f fits the graph) never
   * lands in the timeline's search entry. */
  bar = ws_gui_test_find_child (GTK_WIDGET (window), GTK_TYPE_SEARCH_BAR);
  g_assert_nonnull (bar);
  g_assert_null (gtk_search_bar_get_key_capture_widget (GTK_SEARCH_BAR (bar)));

  /* The graph view: a tree whose description names the selected node. */
  {
    WsGraphView *graph = WS_GRAPH_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_GRAPH_VIEW));
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    gtk_test_accessible_assert_role (GTK_ACCESSIBLE (graph), GTK_ACCESSIBLE_ROLE_TREE);
    g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (graph)));
    press (GTK_WIDGET (graph), GDK_KEY_Home, 0);
    before = description_of (GTK_WIDGET (graph));
    press (GTK_WIDGET (graph), GDK_KEY_Right, 0);
    after = description_of (GTK_WIDGET (graph));
    g_assert_nonnull (strstr (after, "Selected: "));
    g_assert_cmpstr (before, !=, after);
    /* f fits the graph and is not typed into anything. */
    press (GTK_WIDGET (graph), GDK_KEY_f, 0);
  }
  g_assert_false (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (bar)));

  /* Critical path: a list of segments. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_CRITICAL_PATH_VIEW)),
                                   GTK_ACCESSIBLE_ROLE_LIST);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The keyboard focus on a custom view is drawn (an outline), not only
 * known. */
static void
test_focus_visible (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  GtkWidget *view = GTK_WIDGET (ws_window_get_timeline_view (window));
  g_autoptr(GdkTexture) unfocused = NULL;
  g_autoptr(GdkTexture) focused = NULL;
  graphene_rect_t b;
  int w, h;
  g_autofree guchar *a = NULL;
  g_autofree guchar *c = NULL;
  guint differ = 0;

  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  unfocused = ws_gui_test_screenshot (GTK_WIDGET (window), "keys-unfocused.png");
  gtk_widget_grab_focus (view);
  gtk_window_set_focus_visible (GTK_WINDOW (window), TRUE);
  focused = ws_gui_test_screenshot (GTK_WIDGET (window), "keys-focus.png");

  w = gdk_texture_get_width (focused);
  h = gdk_texture_get_height (focused);
  g_assert_cmpint (gdk_texture_get_width (unfocused), ==, w);
  a = g_malloc ((gsize) w * h * 4);
  c = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (unfocused, a, w * 4);
  gdk_texture_download (focused, c, w * 4);
  g_assert_true (gtk_widget_compute_bounds (view, GTK_WIDGET (window), &b));
  /* The left and right edges of the view, where the outline goes (the
   * middle may change for other reasons, such as the cursor); a few pixels
   * either way, as the render may sit off the window's coordinates by the
   * width of its frame. */
  for (int y = (int) b.origin.y + 8; y < (int) (b.origin.y + b.size.height) - 8 && y < h; y++)
    for (int dx = -2; dx < 8; dx++)
      {
        int xs[2] = { (int) b.origin.x + dx, (int) (b.origin.x + b.size.width) - 1 - dx };

        for (int k = 0; k < 2; k++)
          if (xs[k] >= 0 && xs[k] < w && memcmp (a + ((gsize) y * w + xs[k]) * 4, c + ((gsize) y * w + xs[k]) * 4, 4) != 0)
            differ++;
      }
  g_test_message ("%u edge pixels of the view at %g,%g %gx%g (render %dx%d) change with the focus",
                  differ, b.origin.x, b.origin.y, b.size.width, b.size.height, w, h);
  g_assert_cmpuint (differ, >, (guint) b.size.height);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The timeline's wait menu: the popover menu among the view's children. */
static GtkWidget *
wait_menu_of (GtkWidget *view)
{
  for (GtkWidget *c = gtk_widget_get_first_child (view); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      return c;
  return NULL;
}

static gboolean
menu_shown (gpointer view)
{
  GtkWidget *menu = wait_menu_of (view);

  return menu != NULL && gtk_widget_get_mapped (menu);
}

static gboolean
menu_hidden (gpointer view)
{
  return !menu_shown (view);
}

/* The menu entry (a GtkModelButton) whose label reads @text. */
static GtkWidget *
find_item (GtkWidget  *root,
           const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (c) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (c)), text) == 0)
        return gtk_widget_get_ancestor (c, g_type_from_name ("GtkModelButton"));
      if ((found = find_item (c, text)) != NULL)
        return found;
    }
  return NULL;
}

/* The menu is open and offers the three analyses of a wait. */
static void
assert_wait_menu (GtkWidget *view)
{
  static const char *const items[] = { "Ready Tree of This Wait", "Wait Graph…", "Critical Path…" };

  ws_gui_test_wait_until (menu_shown, view, 20, "the wait's context menu");
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    if (find_item (wait_menu_of (view), items[i]) == NULL)
      g_error ("the wait's menu has no “%s”", items[i]);
}

static void
close_menu (GtkWidget *view)
{
  gtk_popover_popdown (GTK_POPOVER (wait_menu_of (view)));
  ws_gui_test_wait_until (menu_hidden, view, 20, "the menu to close");
}

/* A right click at (@x, @y), as the view's secondary-button gesture gets it. */
static void
right_click_at (GtkWidget *view,
                double     x,
                double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);
  gboolean clicked = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (c) && gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (c)) == GDK_BUTTON_SECONDARY)
        {
          g_signal_emit_by_name (c, "pressed", 1, x, y);
          g_signal_emit_by_name (c, "released", 1, x, y);
          clicked = TRUE;
        }
    }
  g_assert_true (clicked);
}

/* A point of the view on a wait other than @not, found by hit-testing. */
static guint
find_wait_point (WsTimelineView *view,
                 WsTrace        *trace,
                 guint           not,
                 double         *x,
                 double         *y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (view));
  int h = gtk_widget_get_height (GTK_WIDGET (view));

  for (int py = 2; py < h; py += 3)
    for (int px = w / 3; px < w; px += 4)
      {
        WsTimelineHit hit;

        if (ws_timeline_view_hit_test (view, px, py, &hit) && hit.event != WS_NONE && hit.event != not &&
            ws_trace_get_event (trace, hit.event)->kind == WS_EVENT_WAIT)
          {
            *x = px;
            *y = py;
            return hit.event;
          }
      }
  return WS_NONE;
}

/* waitscope-cli COMMAND --trace PATH --event EVENT, parsed. */
static JsonObject *
cli_json (const char *command,
          const char *path,
          guint       event)
{
  g_autofree char *index = g_strdup_printf ("%u", event);
  const char *argv[] = { g_getenv ("WS_CLI"), command, "--trace", path, "--event", index, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Activates @text in the open menu and waits for the Graph page; checks
 * that it shows @mode of @wait, the same as the CLI's --event gives. */
static void
run_menu_item (WsWindow   *window,
               GtkWidget  *view,
               const char *text,
               WsGraphMode mode,
               guint       wait,
               const char *path)
{
  WsGraphPage *page = ws_window_get_graph_page (window);
  WsTrace *trace = ws_document_get_trace (ws_window_get_current_document (window));
  const WsGraphShown *shown;
  WsSymptom symptom, expected;
  guint root = WS_NONE;
  gboolean ready = FALSE;
  gulong id = g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);

  g_assert_true (gtk_widget_activate (find_item (wait_menu_of (view), text)));
  ws_gui_test_wait_for_flag (&ready, 60, text);
  g_signal_handler_disconnect (page, id);
  ws_gui_test_wait_until (menu_hidden, view, 20, "the menu to close after its entry ran");
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");
  g_assert_cmpint (ws_gui_test_graph_mode (page), ==, mode);

  /* The window the page analyses is the wait's, as the core defines it. */
  g_assert_true (ws_graph_page_get_symptom (page, &symptom, &root));
  g_assert_true (ws_symptom_from_wait (trace, wait, &expected));
  g_assert_cmpuint (symptom.thread, ==, expected.thread);
  g_assert_cmpint (symptom.t0, ==, expected.t0);
  g_assert_cmpint (symptom.t1, ==, expected.t1);

  shown = ws_graph_page_get_shown (page);
  switch (mode)
    {
    case WS_GRAPH_MODE_READY_TREE:
      {
        g_autoptr(JsonObject) cli = cli_json ("readytree", path, wait);
        WsReadyTree *tree = ws_graph_scene_get_ready_tree (shown->scene);
        JsonArray *nodes = json_object_get_array_member (cli, "nodes");

        g_assert_cmpuint (root, ==, wait);
        g_assert_cmpuint (ws_ready_tree_get_node (tree, 0)->event, ==, wait);
        g_assert_cmpuint (json_array_get_length (nodes), ==, ws_ready_tree_get_n_nodes (tree));
        g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (nodes, 0), "event"), ==, wait);
        g_test_message ("ready tree of wait %u: %u nodes in the GUI and the CLI", wait, ws_ready_tree_get_n_nodes (tree));
      }
      break;
    case WS_GRAPH_MODE_WAIT_GRAPH:
      {
        g_autoptr(JsonObject) cli = cli_json ("waitgraph", path, wait);
        WsWaitGraph *graph = ws_graph_scene_get_wait_graph (shown->scene);

        g_assert_cmpuint (json_array_get_length (json_object_get_array_member (cli, "nodes")), ==,
                          ws_wait_graph_get_n_nodes (graph));
        g_test_message ("wait graph of wait %u: %u nodes in the GUI and the CLI", wait, ws_wait_graph_get_n_nodes (graph));
      }
      break;
    case WS_GRAPH_MODE_CRITICAL_PATH:
    default:
      {
        g_autoptr(JsonObject) cli = cli_json ("critical-path", path, wait);

        g_assert_nonnull (shown->path);
        g_assert_cmpint (json_object_get_int_member (cli, "n_segments"), ==, ws_critical_path_get_n_segments (shown->path));
        g_test_message ("critical path of wait %u: %u segments in the GUI and the CLI", wait,
                        ws_critical_path_get_n_segments (shown->path));
      }
      break;
    }
}

/* A wait of more than a millisecond that another thread ended (its
 * critical path leaves the thread). */
static gboolean
woken_by_thread (WsTrace *trace,
                 guint    wait)
{
  const WsEvent *e = ws_trace_get_event (trace, wait);

  return ws_event_duration (e) > 1000000 && e->peer != WS_NONE && e->peer < ws_trace_get_n_events (trace) &&
         ws_trace_get_event (trace, e->peer)->kind == WS_EVENT_UNWAIT &&
         ws_trace_get_event (trace, e->peer)->thread != e->thread;
}

/* The Menu key, Shift+F10 and a right click open a wait's menu; each
 * entry runs its analysis of that wait, and the CLI agrees. */
static void
test_wait_menu (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineView *view = ws_window_get_timeline_view (window);
  GtkWidget *widget = GTK_WIDGET (view);
  WsTimelineViewport *viewport = ws_timeline_view_get_viewport (view);
  guint wait = WS_NONE, clicked;
  double x = 0, y = 0;

  g_assert_true (gtk_widget_grab_focus (widget));
  /* No wait selected: the Menu key has nothing to offer. */
  g_assert_false (menu_shown (widget));
  /* Walk with ] (and Down at a thread's end) to a wait another thread
   * ended, whose analyses have more than the wait itself. */
  for (guint i = 0; i < 400; i++)
    {
      guint before = selected (viewport);

      press (widget, GDK_KEY_bracketright, 0);
      if (selected (viewport) == before)
        press (widget, GDK_KEY_Down, 0);
      wait = selected (viewport);
      if (wait != WS_NONE && woken_by_thread (trace, wait))
        break;
    }
  g_assert_cmpuint (wait, !=, WS_NONE);
  g_assert_true (woken_by_thread (trace, wait));

  press (widget, GDK_KEY_Menu, 0);
  assert_wait_menu (widget);
  ws_gui_test_screenshot (GTK_WIDGET (window), "keys-wait-menu.png");
  run_menu_item (window, widget, "Ready Tree of This Wait", WS_GRAPH_MODE_READY_TREE, wait, path);

  press (widget, GDK_KEY_F10, GDK_SHIFT_MASK);
  assert_wait_menu (widget);
  run_menu_item (window, widget, "Critical Path…", WS_GRAPH_MODE_CRITICAL_PATH, wait, path);

  /* A right click on another wait selects it and opens its menu. */
  clicked = find_wait_point (view, trace, wait, &x, &y);
  g_assert_cmpuint (clicked, !=, WS_NONE);
  right_click_at (widget, x, y);
  assert_wait_menu (widget);
  g_assert_cmpuint (selected (viewport), ==, clicked);
  run_menu_item (window, widget, "Wait Graph…", WS_GRAPH_MODE_WAIT_GRAPH, clicked, path);

  /* Escape-like close: the menu goes away and nothing runs. */
  press (widget, GDK_KEY_Menu, 0);
  assert_wait_menu (widget);
  close_menu (widget);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* Ctrl+R: the Record page, from a trace and from the welcome page. */
static gboolean
record_shown (gpointer window)
{
  GtkStack *stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "main_stack"));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "record") == 0;
}

static void
test_record_shortcut (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  g_auto(GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (the_app), "<Control>r");

  g_assert_cmpstr (actions[0], ==, "win.record");
  g_assert_false (record_shown (window));
  press_accel (window, "<Control>r");
  ws_gui_test_wait_until (record_shown, window, 20, "the Record page");
  ws_gui_test_close_window (GTK_WIDGET (window));
}

static GtkWidget *
window_child (WsWindow   *window,
              const char *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, name));
}

static gboolean
sidebar_shown (gpointer window)
{
  return gtk_widget_get_mapped (window_child (window, "sidebar"));
}

/* The welcome page stands alone: no empty list of open traces beside it
 * (nor its button, nor F9); the list comes back with the first trace. */
static void
test_welcome_sidebar (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  GtkWidget *button = window_child (window, "sidebar_button");

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  ws_gui_test_settle (GTK_WIDGET (window));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
  g_assert_false (gtk_widget_get_visible (window_child (window, "sidebar")));
  g_assert_false (gtk_widget_get_visible (button));
  /* F9 does nothing yet. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
  ws_gui_test_screenshot (GTK_WIDGET (window), "keys-welcome.png");

  ws_gui_test_open_trace (window, path);
  ws_gui_test_wait_until (sidebar_shown, window, 20, "the list of open traces");
  g_assert_true (gtk_widget_get_visible (button));
  ws_gui_test_close_window (GTK_WIDGET (window));
}

static gboolean
shortcuts_window_shown (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_SHORTCUTS_WINDOW (w) && gtk_widget_get_mapped (GTK_WIDGET (w)))
        {
          *(GtkWindow **) data = w;
          return TRUE;
        }
    }
  return FALSE;
}

/* The shortcuts window opens, shows every section and lays out without
 * a warning (the log writer in ws-gui-test-util.c fails on any), and fits
 * a 1280×720 screen. */
static void
test_shortcuts_window (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  GtkWindow *shortcuts = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  static const char *const sections[] = { "shortcuts", "timeline", "analyses", "wait-graph", "critical-path",
                                          "anomalies", "mining" };

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  ws_gui_test_wait_until (shortcuts_window_shown, &shortcuts, 20, "the shortcuts window");
  /* Every section, each on one page (a section too tall for two columns
   * gets numbered page buttons, whose labels GTK 4.8 measures at -3 px). */
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      g_autofree char *name = g_strdup_printf ("keys-shortcuts-%s.png", sections[i]);

      g_object_set (shortcuts, "section-name", sections[i], NULL);
      g_clear_object (&shot);
      shot = ws_gui_test_screenshot (GTK_WIDGET (shortcuts), name);
    }
  /* It fits a 1280×720 laptop screen: the window is as large as its
   * largest section wants (GtkStack), whatever the screen here. */
  {
    int min_w, nat_w, min_h, nat_h;

    gtk_widget_measure (GTK_WIDGET (shortcuts), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
    gtk_widget_measure (GTK_WIDGET (shortcuts), GTK_ORIENTATION_VERTICAL, nat_w, &min_h, &nat_h, NULL, NULL);
    g_test_message ("shortcuts window: natural %d×%d, shown %d×%d", nat_w, nat_h,
                    gtk_widget_get_width (GTK_WIDGET (shortcuts)), gtk_widget_get_height (GTK_WIDGET (shortcuts)));
    g_assert_cmpint (nat_w, <=, 1280);
    g_assert_cmpint (nat_h, <=, 720);
  }
  /* Each window is closed and finalized before the next test opens one,
   * so that no test runs beside the last one's teardown (the merged
   * fleet-pages branch made a Gtk-CRITICAL, then a crash, there; it was
   * taken out).  The shortcuts window is the main window's help overlay,
   * which holds it: it goes with the main window. */
  gtk_window_destroy (shortcuts);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/keys/timeline-analyses-pages", test_timeline_keys);
  g_test_add_func ("/gui/keys/focus-visible", test_focus_visible);
  g_test_add_func ("/gui/keys/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/gui/keys/wait-menu", test_wait_menu);
  g_test_add_func ("/gui/keys/record-shortcut", test_record_shortcut);
  g_test_add_func ("/gui/keys/welcome-sidebar", test_welcome_sidebar);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
