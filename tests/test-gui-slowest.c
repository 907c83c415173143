/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Show what is slow" in the real window, on real traces: the Slowest
 * list is sorted and its first rows are the trace's longest wait and
 * slowest instance (found here from the events, not from the list's own
 * source); activating a row zooms to it and selects it; a wait's context
 * menu opens the Graph page on that very wait (its own ready tree, the
 * wait graph and critical path of its span); activating a thread of the
 * Threads table selects its longest wait.  Screenshots at 1280×720 and
 * 1600×1000 are kept (WS_SCREENSHOT_DIR).
 */
#include "config.h"

#include <math.h>

#include <adwaita.h>

#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-timeline-renderer.h"
#include "ws-ready-tree.h"
#include "ws-window.h"

static WsApplication *the_app;

static WsWindow *
open_window (const char  *trace_name,
             int          width,
             int          height,
             WsDocument **document)
{
  g_autofree char *base = g_strdup_printf ("%s.perf.txt.gz", trace_name);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), base, NULL);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  *document = ws_gui_test_open_trace (window, path);
  return window;
}

/* Kernel housekeeping and the recorder, by name: nobody's delay. */
static gboolean
is_housekeeping (const char *name)
{
  static const char *const prefixes[] = { "migration/", "kworker/", "ksoftirqd/", "rcu", "watchdog", "perf", NULL };

  for (guint i = 0; name != NULL && prefixes[i] != NULL; i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* The longest WAIT of @thread, or for WS_NONE the longest that another
 * thread ended of a thread that is not housekeeping, straight from the
 * events. */
static guint
longest_wait (WsTrace *trace,
              guint    thread)
{
  guint best = WS_NONE;
  WsTime best_d = -1;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      guint readier;

      if (e->kind == WS_EVENT_WAIT && (thread == WS_NONE || e->thread == thread) && ws_event_duration (e) > best_d &&
          (thread != WS_NONE || (ws_trace_wait_readier (trace, i, &readier) == WS_READIER_THREAD
                                 && !is_housekeeping (ws_trace_get_thread (trace, e->thread)->name))))
        {
          best = i;
          best_d = ws_event_duration (e);
        }
    }
  return best;
}

static void
assert_sorted (WsSlowestList *list,
               WsSlowestKind  kind)
{
  WsTime prev = G_MAXINT64, d;

  for (guint i = 0; ws_slowest_list_get_row (list, kind, i, NULL, NULL, &d); i++)
    {
      g_assert_cmpint (d, <=, prev);
      prev = d;
    }
}

/* The wait is selected, its row shown and the view holds it with room,
 * not much more than the wait itself. */
static void
assert_zoomed_to_wait (WsWindow   *window,
                       WsDocument *document,
                       guint       event)
{
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  const WsEvent *e = ws_trace_get_event (ws_document_get_trace (document), event);
  WsTime begin = ws_timeline_viewport_get_begin (viewport), end = ws_timeline_viewport_get_end (viewport);

  g_assert_cmpuint (ws_timeline_viewport_get_selected_event (viewport), ==, event);
  g_assert_cmpint (begin, <, e->time);
  g_assert_cmpint (end, >, e->time + ws_event_duration (e));
  g_assert_cmpint (end - begin, <, 3 * MAX (ws_event_duration (e), WS_TIMELINE_MIN_SPAN));
}

static gboolean
popover_shown (gpointer data)
{
  GtkWidget *popover = data;
  return gtk_widget_get_mapped (popover);
}

static gboolean
graph_ready (gpointer data)
{
  WsGraphPage *page = data;
  return !ws_gui_test_graph_busy (page) &&
         (ws_graph_page_get_shown (page)->scene != NULL || ws_graph_page_get_shown (page)->path != NULL);
}

static void
ask_for (WsWindow    *window,
         const char  *action,
         WsGraphMode  mode,
         guint        event)
{
  WsGraphPage *page = ws_window_get_graph_page (window);
  WsTrace *trace = ws_document_get_trace (ws_window_get_current_document (window));
  const WsEvent *e = ws_trace_get_event (trace, event);
  WsSymptom symptom;
  guint root;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (ws_window_get_timeline_view (window)), action, NULL));
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");
  g_assert_cmpint (ws_gui_test_graph_mode (page), ==, mode);
  g_assert_true (ws_graph_page_get_symptom (page, &symptom, &root));
  g_assert_cmpuint (symptom.thread, ==, e->thread);
  g_assert_cmpint (symptom.t0, ==, e->time);
  g_assert_cmpint (symptom.t1, ==, e->time + ws_event_duration (e));
  g_assert_cmpuint (root, ==, event);
  ws_gui_test_wait_until (graph_ready, page, 120, action);
}

static void
test_pg_slowest (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("pg-tpcb", 1280, 720, &document);
  WsTrace *trace = ws_document_get_trace (document);
  WsSlowestList *list = ws_window_get_slowest_list (window);
  WsTimelineView *view = ws_window_get_timeline_view (window);
  GtkWidget *popover;
  guint event, instance, slowest = 0;
  WsDocument *row_doc;
  const WsScenarioInstance *si;
  g_autoptr(GdkTexture) shot = NULL;

  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-1280x720.png");

  /* The popover opens from the header bar (Ctrl+L's action) and lists
   * both kinds, longest first. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-slowest", NULL));
  popover = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_POPOVER);
  ws_gui_test_wait_until (popover_shown, popover, 20, "the Slowest popover");
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-popover.png");
  g_assert_cmpuint (ws_slowest_list_get_n_rows (list, WS_SLOWEST_WAIT), >, 1);
  g_assert_cmpuint (ws_slowest_list_get_n_rows (list, WS_SLOWEST_INSTANCE), ==, WS_SLOWEST_LIST_MAX_ROWS);
  assert_sorted (list, WS_SLOWEST_WAIT);
  assert_sorted (list, WS_SLOWEST_INSTANCE);
  /* No row is the kernel's housekeeping or the recorder's. */
  for (guint i = 0; ws_slowest_list_get_row (list, WS_SLOWEST_WAIT, i, NULL, &event, NULL); i++)
    g_assert_false (is_housekeeping (ws_trace_get_thread (trace, ws_trace_get_event (trace, event)->thread)->name));

  g_assert_true (ws_slowest_list_get_row (list, WS_SLOWEST_WAIT, 0, &row_doc, &event, NULL));
  g_assert_true (row_doc == document);
  g_assert_cmpint (ws_event_duration (ws_trace_get_event (trace, event)), ==,
                   ws_event_duration (ws_trace_get_event (trace, longest_wait (trace, WS_NONE))));
  for (guint i = 1; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *a = ws_trace_get_scenario_instance (trace, i);
      const WsScenarioInstance *b = ws_trace_get_scenario_instance (trace, slowest);
      if (a->t1 - a->t0 > b->t1 - b->t0)
        slowest = i;
    }
  g_assert_true (ws_slowest_list_get_row (list, WS_SLOWEST_INSTANCE, 0, NULL, &instance, NULL));
  si = ws_trace_get_scenario_instance (trace, instance);
  g_assert_cmpint (si->t1 - si->t0, ==, ws_trace_get_scenario_instance (trace, slowest)->t1 -
                                        ws_trace_get_scenario_instance (trace, slowest)->t0);

  /* The slowest instance: zoomed to, its window the selection. */
  ws_slowest_list_activate_row (list, WS_SLOWEST_INSTANCE, 0);
  {
    guint thread;
    WsTime t0, t1;
    g_assert_true (ws_timeline_viewport_get_selection (ws_document_get_viewport (document), &thread, &t0, &t1));
    g_assert_cmpuint (thread, ==, si->thread);
    g_assert_cmpint (t0, ==, si->t0);
    g_assert_cmpint (t1, ==, si->t1);
  }
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-instance.png");

  /* The second-longest wait: zoomed to and selected. */
  g_assert_true (ws_slowest_list_get_row (list, WS_SLOWEST_WAIT, 1, NULL, &event, NULL));
  ws_slowest_list_activate_row (list, WS_SLOWEST_WAIT, 1);
  assert_zoomed_to_wait (window, document, event);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-wait.png");

  /* Its context menu (Menu / Shift+F10's action), then each analysis. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "timeline.wait-menu", NULL));
  popover = ws_gui_test_find_child (GTK_WIDGET (view), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (popover);
  ws_gui_test_wait_until (popover_shown, popover, 20, "the wait's context menu");
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-wait-menu.png");
  gtk_popover_popdown (GTK_POPOVER (popover));

  ask_for (window, "timeline.ready-tree", WS_GRAPH_MODE_READY_TREE, event);
  {
    WsReadyTree *tree = ws_graph_scene_get_ready_tree (ws_graph_page_get_shown (ws_window_get_graph_page (window))->scene);
    g_assert_cmpuint (ws_ready_tree_get_node (tree, 0)->event, ==, event);
  }
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-ready-tree.png");
  ask_for (window, "timeline.wait-graph", WS_GRAPH_MODE_WAIT_GRAPH, event);
  ask_for (window, "timeline.critical-path", WS_GRAPH_MODE_CRITICAL_PATH, event);
  g_assert_nonnull (ws_graph_page_get_shown (ws_window_get_graph_page (window))->path);

  g_clear_object (&shot);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Activating a thread of the Threads table selects its longest wait. */
static void
test_threads_table (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("py-locks", 1600, 1000, &document);
  WsTrace *trace = ws_document_get_trace (document);
  guint thread = ws_gui_test_find_thread (trace, "pylk-w3");
  guint expected = longest_wait (trace, thread);
  g_autoptr(GdkTexture) shot = NULL;

  g_assert_cmpuint (expected, !=, WS_NONE);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-py-locks-1600x1000.png");
  ws_window_show_details_page (window, "threads");
  g_signal_emit_by_name (ws_window_get_thread_table (window), "thread-activated", thread);
  assert_zoomed_to_wait (window, document, expected);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (ws_window_get_timeline_view (window))));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-py-locks-thread-longest-wait.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static guint32
rgb_of (const WsColor *c)
{
  return ((guint32) round (c->red * 255) << 16) | ((guint32) round (c->green * 255) << 8) | (guint32) round (c->blue * 255);
}

/* The whole pg-tpcb trace at 1600×1000, for a look at the encoding: all
 * of it in view, and the states its threads are in drawn in the legend's
 * colours. */
static void
test_pg_whole_1600 (void)
{
  WsDocument *document;
  WsWindow *window = open_window ("pg-tpcb", 1600, 1000, &document);
  WsTrace *trace = ws_document_get_trace (document);
  WsTimelineViewport *viewport = ws_document_get_viewport (document);
  GtkWidget *view = GTK_WIDGET (ws_window_get_timeline_view (window));
  g_autoptr(GdkTexture) shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-pg-tpcb-1600x1000.png");
  WsTimelinePalette palette;
  guint run_px, sleep_px;

  g_assert_cmpint (ws_timeline_viewport_get_begin (viewport), <=, ws_trace_get_start_time (trace));
  g_assert_cmpint (ws_timeline_viewport_get_end (viewport), >=, ws_trace_get_end_time (trace));
  g_assert_cmpint (gtk_widget_get_width (view), >=, 800);
  /* Its threads run and wait (the trace says so), so both are drawn. */
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_RUNNING), >, 0);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), >, 0);
  ws_timeline_palette_init_light (&palette);
  run_px = ws_gui_test_count_colour (GTK_WIDGET (window), shot, view, rgb_of (&palette.states[WS_THREAD_STATE_RUN]), 8);
  sleep_px = ws_gui_test_count_colour (GTK_WIDGET (window), shot, view, rgb_of (&palette.states[WS_THREAD_STATE_SLEEP]), 8);
  g_test_message ("pg-tpcb at 1600×1000: %u running pixels, %u sleeping pixels", run_px, sleep_px);
  g_assert_cmpuint (run_px, >, 0);
  g_assert_cmpuint (sleep_px, >, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The header bar's menu button whose popover holds the Slowest list. */
static GtkWidget *
find_slowest_button (GtkWidget *widget,
                     GtkWidget *list)
{
  if (GTK_IS_MENU_BUTTON (widget))
    {
      GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (widget));

      if (popover != NULL && gtk_popover_get_child (popover) == list)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_slowest_button (child, list);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Issue 13: like every other trace-dependent control, the Slowest button
 * and Ctrl+L are not there on the welcome page; they come with a trace
 * and go with it. */
static void
test_welcome_hides_slowest (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  GtkWidget *list = GTK_WIDGET (ws_window_get_slowest_list (window));
  GtkWidget *button;
  g_autoptr(GdkTexture) shot = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-welcome-1280x720.png");
  button = find_slowest_button (GTK_WIDGET (window), list);
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_mapped (button));
  /* Ctrl+L's action is off: it opens nothing. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-slowest", NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)))));

  ws_gui_test_open_trace (window, path);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-py-locks-header-1280x720.png");
  g_assert_true (gtk_widget_get_mapped (button));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-trace", NULL);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "slowest-closed-1280x720.png");
  g_assert_false (gtk_widget_get_mapped (button));
  /* Ctrl+L's action is off: it opens nothing. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-slowest", NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)))));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);

  g_test_add_func ("/gui/slowest/welcome-hides-button", test_welcome_hides_slowest);
  g_test_add_func ("/gui/slowest/pg-tpcb", test_pg_slowest);
  g_test_add_func ("/gui/slowest/threads-table", test_threads_table);
  g_test_add_func ("/gui/slowest/pg-tpcb-1600", test_pg_whole_1600);
  return g_test_run ();
}
