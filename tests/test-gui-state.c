/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * State that stays true, in the real window under Xvfb: closing a trace
 * clears the Graph page that showed its ready tree; re-sorting the Threads
 * table scrolls it to the top; an unknown pid (perf layouts with a TID
 * only) reads "?" as in the CLI, never "-1"; one unit for the durations of
 * the Threads table.
 */
#include "config.h"

#include <string.h>

#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-thread-table.h"
#include "ws-window.h"

static WsApplication *the_app;

static WsDocument *
open_trace (WsWindow   *window,
            const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  WsDocument *document = ws_gui_test_open_trace (window, path);
  return document;
}

static WsWindow *
new_window (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
test_close_clears_graph (void)
{
  WsWindow *window = new_window ();
  WsDocument *other = open_trace (window, "io-fsync.perf.txt.gz");
  WsDocument *locks = open_trace (window, "py-locks.perf.txt.gz");
  WsTrace *trace = ws_document_get_trace (locks);
  WsGraphPage *page = ws_window_get_graph_page (window);
  guint worker = ws_gui_test_find_thread (trace, "pylk-w2");
  WsTime start = ws_trace_get_start_time (trace);
  gboolean ready = FALSE;
  g_autoptr(GdkTexture) shot = NULL;

  g_assert_true (ws_window_get_current_document (window) == locks);
  g_signal_connect (page, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);
  ws_timeline_viewport_set_selection (ws_document_get_viewport (locks), worker, start + 1000000000,
                                      start + 1300000000);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-ready-tree", NULL);
  ws_gui_test_wait_for_flag (&ready, 60, "the ready tree");
  g_assert_true (ws_graph_page_get_trace (page) == trace);
  g_assert_nonnull (ws_graph_page_get_shown (page)->scene);

  /* Closing py-locks shows io-fsync; the Graph page no longer shows
   * py-locks' tree, and its controls do not bring it back. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.close-trace", NULL);
  g_assert_true (ws_window_get_current_document (window) == other);
  g_assert_null (ws_graph_page_get_trace (page));
  g_assert_null (ws_graph_page_get_shown (page)->scene);
  ws_graph_page_set_mode (page, WS_GRAPH_MODE_WAIT_GRAPH);
  g_assert_false (ws_gui_test_graph_busy (page));
  g_assert_null (ws_graph_page_get_shown (page)->scene);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "state-closed-graph.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkColumnView *
thread_columns (WsWindow *window)
{
  return GTK_COLUMN_VIEW (ws_gui_test_find_child (GTK_WIDGET (ws_window_get_thread_table (window)),
                                                  GTK_TYPE_COLUMN_VIEW));
}

static gboolean
scrolled_down (gpointer data)
{
  return gtk_adjustment_get_value (data) > 0;
}

static gboolean
scrollable (gpointer data)
{
  return gtk_adjustment_get_upper (data) > gtk_adjustment_get_page_size (data);
}

static gboolean
at_top (gpointer data)
{
  return gtk_adjustment_get_value (data) == 0;
}

static void
test_threads_table (void)
{
  WsWindow *window = new_window ();
  WsDocument *document = open_trace (window, "layouts/sched-tid-nocpu.txt");
  GListModel *rows;
  GtkColumnView *view;
  GtkAdjustment *vadj;
  GListModel *columns;
  guint n_question = 0;

  ws_window_show_details_page (window, "threads");
  rows = ws_thread_table_get_model (ws_window_get_thread_table (window));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 20);

  /* TID-only layout: every pid is unknown, and says so as the CLI does. */
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);
      g_autofree char *process = NULL;

      g_object_get (item, "process", &process, NULL);
      g_assert_null (strstr (process, "-1"));
      n_question += strstr (process, "?") != NULL;
    }
  g_assert_cmpuint (n_question, ==, g_list_model_get_n_items (rows));

  /* One unit per table: the durations' unit is in their headers, on a
   * line of its own. */
  view = thread_columns (window);
  columns = gtk_column_view_get_columns (view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *title = gtk_column_view_column_get_title (column);

      g_test_message ("column: %s", title);
      if (strstr (title, "Running") || strstr (title, "Sleeping") || strstr (title, "Longest"))
        g_assert_true (g_str_has_suffix (title, "\nms"));
    }

  /* Scrolled down, then sorted by another column: back at the top. */
  vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  /* Laid out when it is laid out: a fixed 200 ms was too short under load. */
  ws_gui_test_wait_until (scrollable, vadj, 20, "the table to be taller than its view");
  gtk_adjustment_set_value (vadj, (gtk_adjustment_get_upper (vadj) - gtk_adjustment_get_page_size (vadj)) / 2);
  ws_gui_test_wait_until (scrolled_down, vadj, 20, "the table to scroll");
  {
    g_autoptr(GtkColumnViewColumn) name = g_list_model_get_item (columns, 0);
    gtk_column_view_sort_by_column (view, name, GTK_SORT_ASCENDING);
  }
  ws_gui_test_wait_until (at_top, vadj, 20, "the table back at its top");
  g_assert_true (ws_window_get_current_document (window) == document);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/state/close-clears-graph", test_close_clears_graph);
  g_test_add_func ("/gui/state/threads-table", test_threads_table);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
