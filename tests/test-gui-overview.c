/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Overview page in the real window: opening a trace shows it with no
 * further action, its top cause is the one the core attribution finds
 * over the slowest 10 % of the instances (pg-tpcb: the WAL flush) or over
 * the threads that waited longest (io-fsync: dd's dsync writes), and one
 * click on a row opens the view that proves it.  Below the cluster: the top
 * contrast pattern (pg-tpcb), the same as the core's and as the Contrast
 * page lists first once the row is clicked, and the anomaly summary; without
 * scenarios (io-fsync, at 1280×720) the sentence saying which program the
 * causes start from.  The cluster row is the Mining page's first row once
 * clicked (pg-tpcb, io-fsync).  Screenshots are kept.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-contrast-page.h"
#include "ws-graph-page.h"
#include "ws-mining-form.h"
#include "ws-mining-page.h"
#include "ws-gui-test-util.h"
#include "ws-overview-page.h"
#include "ws-overview.h"
#include "ws-why-targets.h"
#include "ws-window.h"

static WsApplication *the_app;

static WsWindow *
open_window_sized (const char  *trace_name,
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

static WsWindow *
open_window (const char  *trace_name,
             WsDocument **document)
{
  return open_window_sized (trace_name, 1580, 980, document);
}

typedef struct {
  GtkWidget *window;
  int        width_before;
} Grown;

static gboolean
window_grown (gpointer data)
{
  Grown *g = data;
  return gtk_widget_get_width (g->window) > g->width_before;
}

static gboolean
answered (gpointer data)
{
  WsOverviewPage *page = data;
  return !ws_overview_page_get_busy (page) && ws_overview_page_get_top_cause (page) != NULL;
}

static gboolean
has_top_cause (gpointer data)
{
  return ws_overview_page_get_top_cause (data) != NULL;
}

/* The label a boxed list shows while it has no row. */
static const char *
placeholder_text (GtkListBox *list)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (list)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      return gtk_label_get_text (GTK_LABEL (child));
  g_assert_not_reached ();
  return NULL;
}

/* has_top_cause(), and on every look until then a law: while the causes
 * are being found, the cluster and contrast blocks, which come after them
 * in the same job, do not say there is none — they said "No costly
 * pattern…" and "No scenario instances to contrast…" for seconds on a
 * big trace full of instances. */
static gboolean
has_top_cause_and_pending_blocks_say_so (gpointer data)
{
  WsOverviewPage *page = data;

  if (g_str_equal (placeholder_text (ws_overview_page_get_causes_list (page)), _("Finding the causes…")))
    {
      const char *cluster = placeholder_text (ws_overview_page_get_cluster_list (page));
      const char *contrast = placeholder_text (ws_overview_page_get_contrast_list (page));

      if (g_str_has_prefix (cluster, "No ") || g_str_has_prefix (contrast, "No "))
        g_error ("while the causes are being found, the cluster block says “%s” and the contrast block “%s”",
                 cluster, contrast);
    }
  return has_top_cause (page);
}

static WsOverviewPage *
overview_of (WsWindow *window)
{
  GtkWidget *page = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE);

  g_assert_nonnull (page);
  ws_gui_test_wait_until (answered, page, 240, "the overview's first answer");
  return WS_OVERVIEW_PAGE (page);
}

/* The core's answer, computed here the way `waitscope-cli why` does. */
static char *
core_top_cause (WsTrace *trace)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attr = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_slowest_share (traces, NULL, 0.10);
  if (targets->len == 0)
    {
      g_array_unref (targets);
      targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
    }
  attr = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  return g_strdup (ws_attribution_get_cause (attr, 0)->label);
}

/* The title of the first row of @list. */
static const char *
first_title (GtkListBox *list)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, 0);

  g_assert_nonnull (row);
  return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));
}

static gboolean
graph_shows (gpointer data)
{
  return ws_graph_page_get_trace (data) != NULL && !ws_gui_test_graph_busy (data);
}

static gboolean
mining_done (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_status (data) != NULL;
}

/* The cluster row is the Mining page's first row, once the click has
 * mined: same total cost, events and patterns, same costliest pattern. */
static void
check_cluster_is_first_row (WsOverviewPage *page,
                            GtkWidget      *mining)
{
  const WsOverviewCluster *row = ws_overview_page_get_cluster (page);
  WsClusterSet *clusters = ws_gui_test_mining_cluster_set (WS_MINING_PAGE (mining));
  g_autoptr(WsOverviewCluster) shown = ws_overview_cluster_from_run (ws_mining_page_get_shown (WS_MINING_PAGE (mining))->run);
  const WsCluster *first;

  g_assert_nonnull (row);
  g_assert_nonnull (clusters);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), >, 0);
  first = ws_cluster_set_get_cluster (clusters, 0);
  g_test_message ("overview: %s, %" G_GINT64_FORMAT " ns in %" G_GUINT64_FORMAT " events; mining page: %"
                  G_GINT64_FORMAT " ns in %" G_GUINT64_FORMAT " events", row->label, row->total_cost, row->n_events,
                  first->total_cost, first->n_events);
  g_assert_cmpint (row->total_cost, ==, first->total_cost);
  g_assert_cmpuint (row->n_events, ==, first->n_events);
  g_assert_cmpuint (row->n_patterns, ==, first->n_patterns);
  g_assert_cmpstr (row->label, ==, shown->label);
  g_assert_true (g_strv_equal ((const char * const *) row->frames, (const char * const *) shown->frames));
}

/* One click on the cluster row mines, on the Mining page, with the scope
 * the row's cluster came from: the default one of the core, the CLI and
 * the page (issue 8: no idle loops). */
static void
check_cluster_row_mines (WsWindow       *window,
                         WsOverviewPage *page)
{
  GtkWidget *mining = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_MINING_PAGE);
  GtkWidget *form = ws_gui_test_find_child (mining, WS_TYPE_MINING_FORM);
  WsMiningSettings defaults;

  ws_mining_settings_init (&defaults);
  g_assert_cmpint (defaults.scope, ==, WS_MINING_RUN_SCOPE_DELAYING);
  g_assert_cmpint (ws_mining_scope_to_run_scope (ws_mining_scope_default ()), ==, defaults.scope);
  /* The page starts on it too, before any click. */
  g_assert_cmpint (ws_mining_form_get_scope (WS_MINING_FORM (form)), ==, WS_MINING_SCOPE_DELAYING);

  ws_mining_form_set_scope (WS_MINING_FORM (form), WS_MINING_SCOPE_WHOLE_TRACES);
  g_signal_emit_by_name (ws_overview_page_get_cluster_list (page), "row-activated",
                         gtk_list_box_get_row_at_index (ws_overview_page_get_cluster_list (page), 0));
  g_assert_cmpint (ws_mining_form_get_scope (WS_MINING_FORM (form)), ==, WS_MINING_SCOPE_DELAYING);
  g_assert_true (ws_mining_form_get_by_cause (WS_MINING_FORM (form)));
  ws_gui_test_wait_until (mining_done, mining, 600, "mining from the Overview's cluster row");
  g_assert_true (gtk_widget_get_mapped (mining));
  g_test_message ("mining: %s", ws_gui_test_mining_status (WS_MINING_PAGE (mining)));
  check_cluster_is_first_row (page, mining);
}

static gboolean
contrast_done (gpointer data)
{
  return !ws_contrast_page_get_busy (data) && ws_contrast_page_get_result (data) != NULL;
}

/* The contrast row is the core's top contrast pattern of the default
 * run, and one click runs the Contrast page to the same first pattern. */
static void
check_contrast_row (WsWindow       *window,
                    WsOverviewPage *page,
                    WsTrace        *trace)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(WsOverviewContrast) expected = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *contrast;
  WsContrastResult *result;
  g_autofree char *first = NULL;

  g_ptr_array_add (traces, trace);
  expected = ws_overview_top_contrast (traces, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (expected);
  g_assert_cmpstr (expected->component, ==, "postgres");
  g_assert_nonnull (expected->pattern);
  g_assert_cmpstr (first_title (ws_overview_page_get_contrast_list (page)), ==, expected->pattern);

  contrast = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE);
  g_signal_emit_by_name (ws_overview_page_get_contrast_list (page), "row-activated",
                         gtk_list_box_get_row_at_index (ws_overview_page_get_contrast_list (page), 0));
  ws_gui_test_wait_until (contrast_done, contrast, 600, "the contrast run from the Overview's row");
  g_assert_true (gtk_widget_get_mapped (contrast));
  result = ws_contrast_page_get_result (WS_CONTRAST_PAGE (contrast));
  first = ws_contrast_result_format_pattern (result, ws_contrast_result_get_top_pattern (result));
  g_assert_cmpstr (first, ==, expected->pattern);
}

static gboolean
has_anomaly_row (gpointer data)
{
  return gtk_list_box_get_row_at_index (data, 0) != NULL;
}

/* The anomaly summary: the count and the most unusual wait; a click opens
 * that wait's ready tree. */
static void
check_anomaly_row (WsWindow       *window,
                   WsOverviewPage *page)
{
  GtkListBox *list = ws_overview_page_get_anomaly_list (page);
  GtkWidget *graph = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE);

  ws_gui_test_wait_until (has_anomaly_row, list, 600, "the anomaly summary");
  g_test_message ("anomalies: %s", first_title (list));
  g_assert_nonnull (strstr (first_title (list), "anomalous wait"));
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 0));
  ws_gui_test_wait_until (graph_shows, graph, 60, "the most unusual wait's ready tree");
  g_assert_cmpint (ws_gui_test_graph_mode (WS_GRAPH_PAGE (graph)), ==, WS_GRAPH_MODE_READY_TREE);
}

static void
test_pg_overview (void)
{
  WsDocument *document = NULL;
  WsWindow *window = open_window ("pg-tpcb", &document);
  WsOverviewPage *page;

  /* The answer of `why` shows first; mining and the contrast follow. */
  page = WS_OVERVIEW_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE));
  ws_gui_test_wait_until (has_top_cause_and_pending_blocks_say_so, page, 240, "the overview's answer");
  g_assert_true (ws_overview_page_get_busy (page));
  g_assert_null (ws_overview_page_get_cluster (page));
  page = overview_of (window);
  g_autofree char *expected = core_top_cause (ws_document_get_trace (document));
  GtkWidget *graph;
  GtkAdjustment *scroller;
  g_autoptr(GdkTexture) shot = NULL;

  /* Shown on opening, no action needed; the top cause is on screen. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpstr (ws_overview_page_get_top_cause (page), ==, expected);
  g_assert_nonnull (strstr (expected, "fdatasync ← XLogFlush"));
  g_assert_nonnull (strstr (first_title (ws_overview_page_get_causes_list (page)), expected));
  g_assert_nonnull (strstr (first_title (ws_overview_page_get_slowest_list (page)), "Instance"));
  /* The cluster is by cause: the WAL flush the lock holders made, not
   * the lock waiters' ProcSleep queue behind them. */
  g_test_message ("cluster: %s", first_title (ws_overview_page_get_cluster_list (page)));
  g_assert_nonnull (strstr (first_title (ws_overview_page_get_cluster_list (page)), "XLogFlush"));
  /* With scenario instances nothing was picked. */
  g_assert_null (ws_overview_page_get_pick_reason (page));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-tpcb");
  g_assert_nonnull (shot);

  /* One click: the slowest instance's ready tree, in the graph page. */
  graph = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_GRAPH_PAGE);
  g_signal_emit_by_name (ws_overview_page_get_slowest_list (page), "row-activated",
                         gtk_list_box_get_row_at_index (ws_overview_page_get_slowest_list (page), 0));
  ws_gui_test_wait_until (graph_shows, graph, 60, "the slowest instance's ready tree");
  g_assert_true (gtk_widget_get_mapped (graph));
  g_assert_cmpint (ws_gui_test_graph_mode (WS_GRAPH_PAGE (graph)), ==, WS_GRAPH_MODE_READY_TREE);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-tpcb-ready-tree");

  check_cluster_row_mines (window, page);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-tpcb-mining");

  /* The sections below the cluster, scrolled into view. */
  scroller = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
    ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_SCROLLED_WINDOW)));
  ws_gui_test_wait_until (has_anomaly_row, ws_overview_page_get_anomaly_list (page), 600, "the anomaly summary");
  ws_window_show_details_page (window, "overview");
  gtk_adjustment_set_value (scroller, gtk_adjustment_get_upper (scroller));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-tpcb-sections");

  check_contrast_row (window, page, ws_document_get_trace (document));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-tpcb-contrast");
  check_anomaly_row (window, page);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Which program the core's picker chose, in its own words. */
static char *
core_pick_reason (WsTrace *trace)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) targets = NULL;

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_waiting_threads_full (traces, NULL, 3, &picks);
  g_assert_cmpuint (picks->len, ==, 1);
  return ws_thread_pick_describe (g_ptr_array_index (picks, 0));
}

static void
test_io_overview (void)
{
  WsDocument *document = NULL;
  WsWindow *window = open_window_sized ("io-fsync", 1280, 720, &document);
  WsOverviewPage *page = overview_of (window);
  g_autofree char *expected = core_top_cause (ws_document_get_trace (document));
  g_autofree char *reason = core_pick_reason (ws_document_get_trace (document));
  g_autoptr(GdkTexture) shot = NULL;

  g_assert_cmpstr (ws_overview_page_get_top_cause (page), ==, expected);
  /* The picker says which program it chose and why, on the page. */
  g_assert_cmpstr (ws_overview_page_get_pick_reason (page), ==, reason);
  /* the dd runs of the io_fsync.sh loops (one parent), not the loops
   * waiting for them to end */
  g_assert_nonnull (strstr (reason, "Explained from dd"));
  g_assert_nonnull (strstr (expected, "uninterruptible in write"));
  g_assert_nonnull (strstr (first_title (ws_overview_page_get_causes_list (page)), expected));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-io-fsync-1280x720");
  /* Here the old copy of the mining pipeline (no function weights) named
   * a cluster twice the size of the page's first one. */
  check_cluster_row_mines (window, page);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A database beside a disk hog, recorded with block requests: under the
 * top cause (the WAL flush) the Overview names the dd whose requests were
 * on the same device, the line the core gives. */
static void
test_device_queue_overview (void)
{
  WsDocument *document = NULL;
  WsWindow *window = open_window_sized ("causes/pg-dd", 1280, 720, &document);
  WsOverviewPage *page = overview_of (window);
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (ws_overview_page_get_causes_list (page), 0);
  g_autoptr(WsAttribution) attribution = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GArray) targets = NULL;
  g_autofree char *behind = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  const char *subtitle;

  g_ptr_array_add (traces, ws_document_get_trace (document));
  targets = ws_attribution_targets_waiting_threads (traces, NULL, 3);
  attribution = ws_attribution_compute (targets, NULL, NULL);
  behind = ws_cause_describe_behind (ws_attribution_get_cause (attribution, 0), 3);
  g_assert_nonnull (strstr (behind, "requests in flight on the same device meanwhile: dd "));

  g_assert_nonnull (row);
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  g_test_message ("top cause: %s", subtitle);
  g_assert_nonnull (strstr (subtitle, behind));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-dd-1280x720");
  g_clear_object (&shot);
  {
    /* As large as the screen lets it be (Xvfb's may be smaller). */
    Grown grown = { GTK_WIDGET (window), gtk_widget_get_width (GTK_WIDGET (window)) };

    gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1080);
    ws_gui_test_wait_until (window_grown, &grown, 60, "the window to grow towards 1920×1080");
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-pg-dd-1920x1080");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);
  if (g_getenv ("WS_TEST_DATA") == NULL)
    return 77;

  g_test_add_func ("/gui/overview/pg-tpcb", test_pg_overview);
  g_test_add_func ("/gui/overview/io-fsync", test_io_overview);
  g_test_add_func ("/gui/overview/device-queue", test_device_queue_overview);

  return g_test_run ();
}
