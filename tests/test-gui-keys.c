/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The keyboard all the way, in the real window under Xvfb: walk the waits
 * of a thread and across threads with the timeline's keys, make a wait the
 * selected window and widen it, open an analysis and a page of the lower
 * pane by their accelerators, check that single letters never reach the
 * (unfocused) search entry, that the custom views are real accessible
 * widgets whose description follows the selection, that keyboard focus is
 * drawn, and that the shortcuts window opens without a GTK warning.
 */
#include "config.h"

#include <string.h>

#include "ws-alignment-view.h"
#include "ws-critical-path-view.h"
#include "ws-graph-page.h"
#include "ws-graph-view.h"
#include "ws-gui-test-util.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
document_done (gpointer data)
{
  return ws_document_get_state (data) != WS_DOCUMENT_LOADING;
}

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
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  *document = ws_window_open_file (window, file);
  ws_gui_test_wait_until (document_done, *document, 60, "the trace to load");
  g_assert_cmpint (ws_document_get_state (*document), ==, WS_DOCUMENT_READY);
  ws_gui_test_spin (200);
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
  gtk_window_destroy (GTK_WINDOW (window));
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
  gtk_window_destroy (GTK_WINDOW (window));
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

/* The shortcuts window opens, shows both sections and lays out without
 * a warning (the log writer in ws-gui-test-util.c fails on any). */
static void
test_shortcuts_window (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks.perf.txt.gz", &document);
  GtkWindow *shortcuts = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  static const char *const sections[] = { "shortcuts", "timeline", "analysis", "mining" };

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
  gtk_window_destroy (shortcuts);
  gtk_window_destroy (GTK_WINDOW (window));
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
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
