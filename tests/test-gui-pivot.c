/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Pivot page in the real window, on py-locks: grouped by process and
 * state over the whole trace, its total row reads the total of the
 * timeline's own per-thread statistics (the Threads table's run + ready +
 * waits, WsTimelineLod, not the pivot's code), and each state row the
 * sum of that state over the threads; its CSV is byte for byte
 * `waitscope-cli pivot --csv`; a window selected in the timeline is
 * followed (the total is the core's over that window, the thread scope
 * one thread); activating a row selects its first span in the timeline.
 * Screenshots at 1280×720 and 1920×1080.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "ws-gui-test-util.h"
#include "ws-pivot-item.h"
#include "ws-pivot-page.h"
#include "ws-session.h"
#include "ws-thread-state.h"
#include "ws-time-format.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
settled (gpointer data)
{
  WsPivotPage *page = data;
  return !ws_pivot_page_get_busy (page) && ws_pivot_page_get_pivot (page) != NULL;
}

static const WsPivot *
wait_for_table (WsPivotPage *page)
{
  ws_gui_test_wait_until (settled, page, 60, "the pivot table");
  return ws_pivot_page_get_pivot (page);
}

static WsWindow *
open_window (int          width,
             int          height,
             WsDocument **doc_out)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  WsDocument *doc;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  doc = ws_gui_test_open_trace (window, path);
  ws_window_show_details_page (window, "pivot");
  *doc_out = doc;
  return window;
}

static WsPivotPage *
page_of (WsWindow *window)
{
  GtkWidget *page = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_PIVOT_PAGE);

  g_assert_nonnull (page);
  return WS_PIVOT_PAGE (page);
}

/* The row of @parent whose key is @key, or NULL. */
static const WsPivotRow *
child_keyed (const WsPivotRow *parent,
             const char       *key)
{
  for (guint i = 0; parent->children && i < parent->children->len; i++)
    {
      const WsPivotRow *r = g_ptr_array_index (parent->children, i);
      if (g_strcmp0 (r->key, key) == 0)
        return r;
    }
  return NULL;
}

static void
test_totals (void)
{
  WsDocument *doc;
  WsWindow *window = open_window (1280, 720, &doc);
  WsPivotPage *page = page_of (window);
  WsTrace *trace = ws_document_get_trace (doc);
  WsTimelineLod *lod = ws_document_get_lod (doc);
  const WsPivotColumn by_state[] = { WS_PIVOT_STATE };
  const WsPivotColumn by_process_state[] = { WS_PIVOT_PROCESS, WS_PIVOT_STATE };
  WsTime states[WS_N_LEGEND_STATES] = { 0 }, all = 0;
  const WsPivot *pivot;
  GtkWidget *label;
  g_autofree char *expected_text = NULL;
  g_autofree char *cli_out = NULL;
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *cmd = NULL;
  int status;

  /* The timeline's own totals, thread by thread (the Threads table). */
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThreadStats *st = ws_timeline_lod_get_stats (lod, t);
      states[WS_THREAD_STATE_RUN] += st->run;
      states[WS_THREAD_STATE_READY] += st->ready;
      for (guint k = 0; k < 3; k++)
        states[WS_THREAD_STATE_SLEEP + k] += st->wait[k];
    }
  for (guint s = 0; s < WS_N_LEGEND_STATES; s++)
    all += states[s];
  g_assert_cmpint (all, >, 0);

  /* Alt+8 brings the page up with the keyboard focus inside it */
  ws_window_show_details_page (window, "overview");
  {
    g_auto(GStrv) actions = gtk_application_get_actions_for_accel (GTK_APPLICATION (the_app), "<Alt>8");
    g_autofree char *name = NULL;
    g_autoptr(GVariant) target = NULL;

    g_assert_nonnull (actions);
    g_assert_nonnull (actions[0]);
    g_assert_true (g_action_parse_detailed_name (actions[0], &name, &target, NULL));
    g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), name, target));
  }
  ws_gui_test_settle (GTK_WIDGET (window));
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "pivot");
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
    g_assert_nonnull (focus);
    g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (page)));
  }

  ws_pivot_page_set_scope (page, WS_PIVOT_SCOPE_TRACE);
  ws_pivot_page_set_columns (page, by_state, 1);
  pivot = wait_for_table (page);
  g_assert_cmpint (pivot->root->time, ==, all);
  for (guint s = 0; s < WS_N_LEGEND_STATES; s++)
    {
      const WsPivotRow *row = child_keyed (pivot->root, ws_thread_state_to_string (s));
      g_assert_cmpint (row ? row->time : 0, ==, states[s]);
    }

  ws_pivot_page_set_columns (page, by_process_state, 2);
  pivot = wait_for_table (page);
  g_assert_cmpuint (pivot->n_columns, ==, 2);
  g_assert_cmpint (pivot->root->time, ==, all);
  /* what the user reads in the total row */
  label = ws_gui_test_find_named (GTK_WIDGET (page), "pivot-total-time");
  expected_text = ws_format_duration (all);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected_text);

  /* the export is the CLI's CSV */
  ws_pivot_write_csv (pivot, csv);
  cmd = g_strdup_printf ("'%s' pivot --by process,state --csv '%s'", g_getenv ("WS_CLI"), ws_trace_get_path (trace));
  g_assert_true (g_spawn_command_line_sync (cmd, &cli_out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (csv->str, ==, cli_out);

  /* the first row opened, for the picture */
  {
    GtkWidget *view = ws_gui_test_find_named (GTK_WIDGET (page), "pivot-table");
    GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
    g_autoptr(GtkTreeListRow) first = g_list_model_get_item (model, 0);
    g_autoptr(GdkTexture) shot = NULL;

    g_assert_nonnull (first);
    /* + on the selected row opens it, − closes it */
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view))), 0, TRUE);
    g_assert_true (ws_gui_test_press_shortcut_in (view, GDK_KEY_plus, 0));
    g_assert_true (gtk_tree_list_row_get_expanded (first));
    g_assert_cmpuint (g_list_model_get_n_items (model), >, pivot->root->children->len);
    g_assert_true (ws_gui_test_press_shortcut_in (view, GDK_KEY_minus, 0));
    g_assert_false (gtk_tree_list_row_get_expanded (first));
    gtk_tree_list_row_set_expanded (first, TRUE);
    shot = ws_gui_test_screenshot (GTK_WIDGET (window), "pivot-1280x720");
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_selection (void)
{
  WsDocument *doc;
  WsWindow *window = open_window (1920, 1080, &doc);
  WsPivotPage *page = page_of (window);
  WsTrace *trace = ws_document_get_trace (doc);
  WsTimelineViewport *viewport = ws_document_get_viewport (doc);
  WsTime start = ws_trace_get_start_time (trace), end = ws_trace_get_end_time (trace);
  WsTime t0 = start + (end - start) / 3, t1 = start + 2 * (end - start) / 3;
  guint thread = ws_gui_test_find_thread (trace, "pylk-w2");
  WsPivotSettings settings = { { WS_PIVOT_PROCESS, WS_PIVOT_STATE }, 2, NULL, 0, t0, t1 };
  g_autoptr(WsPivot) core = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  const WsPivot *pivot;
  GtkWidget *view;
  GListModel *model;

  g_assert_cmpuint (thread, !=, WS_NONE);
  ws_pivot_page_set_scope (page, WS_PIVOT_SCOPE_WINDOW);
  pivot = wait_for_table (page);
  g_assert_cmpint (pivot->t0, ==, start);   /* nothing selected: the whole trace */

  ws_timeline_viewport_set_selection (viewport, thread, t0, t1);
  pivot = wait_for_table (page);
  g_assert_cmpint (pivot->t0, ==, t0);
  g_assert_cmpint (pivot->t1, ==, t1);
  core = ws_pivot_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_cmpint (pivot->root->time, ==, core->root->time);
  g_assert_cmpuint (pivot->n_threads, ==, core->n_threads);
  g_assert_cmpint (pivot->root->time, <=, (t1 - t0) * (WsTime) pivot->n_threads);

  ws_pivot_page_set_scope (page, WS_PIVOT_SCOPE_THREAD);
  pivot = wait_for_table (page);
  g_assert_cmpuint (pivot->n_threads, ==, 1);
  g_assert_cmpint (pivot->root->time, <=, t1 - t0);
  g_assert_cmpint (pivot->root->time, >, 0);

  /* Enter on the first row: its earliest span is selected in the timeline */
  ws_pivot_page_set_scope (page, WS_PIVOT_SCOPE_WINDOW);
  pivot = wait_for_table (page);
  view = ws_gui_test_find_named (GTK_WIDGET (page), "pivot-table");
  model = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
  {
    g_autoptr(GtkTreeListRow) first = g_list_model_get_item (model, 0);
    g_autoptr(WsPivotItem) item = gtk_tree_list_row_get_item (first);
    const WsPivotRow *row = ws_pivot_item_get_row (item);

    gtk_tree_list_row_set_expanded (first, TRUE);
    /* the rows are sorted by time, longest first */
    g_assert_true (row == g_ptr_array_index (pivot->root->children, 0));
    g_signal_emit_by_name (view, "activate", 0);
    g_assert_cmpuint (ws_timeline_viewport_get_selected_event (viewport), ==, row->first_event);
    g_assert_cmpint (row->first_time, >=, t0);
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "pivot-1920x1080");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);
  if (g_getenv ("WS_TEST_DATA") == NULL || g_getenv ("WS_CLI") == NULL)
    return 77;

  g_test_add_func ("/gui/pivot/totals", test_totals);
  g_test_add_func ("/gui/pivot/selection", test_selection);
  return g_test_run ();
}
