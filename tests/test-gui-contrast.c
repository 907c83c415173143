/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Contrast page in the real window under a real display (Xvfb in the
 * suite): open the recorded PostgreSQL pair (pgbench alone, and with an
 * fsync-heavy neighbour on the same small disk), choose the transactions
 * and the postgres component, set T_fast and T_slow, analyse, and check
 * against the core run on the same instances: the classes, the ranked
 * patterns (the top one names the disk), the two graphs, the highlighted
 * paths and slow instances of the chosen pattern, the ready tree asked for
 * the slowest, Cancel; with a screenshot into WS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-awg-view.h"
#include "ws-contrast-page.h"
#include "ws-coverage-plot.h"
#include "ws-duration-histogram.h"
#include "ws-fleet-classes.h"
#include "ws-gui-test-util.h"
#include "ws-pattern-coverage-view.h"
#include "ws-window.h"

static guint32
test_rgb (const WsColor *c)
{
  return ((guint32) round (c->red * 255) << 16) | ((guint32) round (c->green * 255) << 8) | (guint32) round (c->blue * 255);
}

#define MS 1000000

static WsApplication *the_app;

static gboolean
not_busy (gpointer data)
{
  return !ws_contrast_page_get_busy (data);
}

static gboolean
has_instances (gpointer data)
{
  guint nf = 0, ns = 0;
  ws_duration_histogram_count_classes (data, &nf, &ns);
  return nf + ns > 0;
}

static void
ready_tree_cb (WsContrastPage *page, WsTrace *trace, guint thread, gint64 t0, gint64 t1, gint64 *duration)
{
  *duration = t1 - t0;
}

/* The @index-th descendant of @root of @type, depth first. */
static GtkWidget *
nth_child (GtkWidget *root, GType type, guint *index)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) && (*index)-- == 0)
        return c;
      if ((found = nth_child (c, type, index)) != NULL)
        return found;
    }
  return NULL;
}

static WsContrastResult *
core_result (WsTrace *a, WsTrace *b, WsTime t_fast, WsTime t_slow)
{
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(GError) error = NULL;
  WsContrastSettings s = { .component = "postgres", .t_fast = t_fast, .t_slow = t_slow };
  WsContrastResult *r;

  ws_instance_set_add_trace (set, a, "transaction");
  ws_instance_set_add_trace (set, b, "transaction");
  s.instances = set;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return r;
}

/* The two-item drop-down of the page (the scenario one lists scenarios). */
static GtkDropDown *
find_rank_dropdown (GtkWidget *w)
{
  if (GTK_IS_DROP_DOWN (w) && gtk_drop_down_get_model (GTK_DROP_DOWN (w)) != NULL
      && GTK_IS_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w)))
      && g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w))), 1),
                    _("average cost (C/N)")) == 0)
    return GTK_DROP_DOWN (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkDropDown *found = find_rank_dropdown (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The text of every mapped label under @w, and of the tooltips there. */
static void
collect_labels (GtkWidget *w,
                GString   *shown,
                GString   *tips)
{
  if (!gtk_widget_get_mapped (w))
    return;
  if (GTK_IS_LABEL (w))
    g_string_append_printf (shown, "%s\n", gtk_label_get_text (GTK_LABEL (w)));
  if (gtk_widget_get_tooltip_text (w) != NULL)
    g_string_append_printf (tips, "%s\n", gtk_widget_get_tooltip_text (w));
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, shown, tips);
}

/* The page says what it shows in words: the paper's terms only in
 * tooltips, and the summary's shares those of the core's result. */
static void
check_plain_words (WsContrastPage   *page,
                   WsContrastResult *expect)
{
  const char * const paper[] = { "C/N", "IA_wait", "IA_run", "IA_opt", "ITC", "TTC", "T_fast", "T_slow", "AWG",
                                 "Meta-pattern", "meta-pattern", "D_wait" };
  g_autoptr(GString) shown = g_string_new (NULL);
  g_autoptr(GString) tips = g_string_new (NULL);
  g_autofree char *ttc = g_strdup_printf ("explain %.0f %%", 100 * ws_contrast_result_get_ttc (expect));
  g_autofree char *itc = g_strdup_printf ("(%.0f %% in chains", 100 * ws_contrast_result_get_itc (expect));
  const WsContrastPattern *top = ws_contrast_result_get_pattern (expect, 0);
  g_autofree char *times = g_strdup_printf (" · %" G_GUINT64_FORMAT " times · ", top->n);

  collect_labels (GTK_WIDGET (page), shown, tips);
  g_test_message ("contrast page labels: %.400s", shown->str);
  for (guint i = 0; i < G_N_ELEMENTS (paper); i++)
    if (strstr (shown->str, paper[i]) != NULL)
      g_error ("the Contrast page shows the paper's “%s”: %s", paper[i], strstr (shown->str, paper[i]));
  g_assert_nonnull (strstr (shown->str, ttc));
  g_assert_nonnull (strstr (shown->str, itc));
  g_assert_nonnull (strstr (shown->str, times));
  g_assert_nonnull (strstr (tips->str, "C/N"));
  g_assert_nonnull (strstr (tips->str, "TTC"));
  g_assert_nonnull (strstr (tips->str, "IA_wait"));
  g_assert_nonnull (strstr (tips->str, "(AWG)"));
}

static void
test_contrast_page (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  WsDocument *fast_doc, *slow_doc;
  WsContrastPage *page;
  WsDurationHistogram *histogram;
  WsContrastResult *shown;
  g_autoptr(WsContrastResult) expect = NULL;
  g_autofree char *top_shown = NULL, *top_expect = NULL;
  GtkWidget *view;
  gint64 asked = 0;
  guint nf, ns;

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_window_present (GTK_WINDOW (window));
  fast_doc = ws_gui_test_open_trace (window, "pg-contrast-fast.perf.txt.gz");
  slow_doc = ws_gui_test_open_trace (window, "pg-contrast-slow.perf.txt.gz");

  page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  g_assert_nonnull (page);
  ws_window_show_details_page (window, "contrast");
  histogram = WS_DURATION_HISTOGRAM (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_DURATION_HISTOGRAM));
  ws_contrast_page_set_scenario (page, "transaction");
  ws_gui_test_wait_until (has_instances, histogram, 30, "the transactions of both traces");

  /* Thresholds: the class counts follow. */
  ws_contrast_page_set_thresholds (page, 40 * MS, 120 * MS);
  ws_duration_histogram_count_classes (histogram, &nf, &ns);
  expect = core_result (ws_document_get_trace (fast_doc), ws_document_get_trace (slow_doc), 40 * MS, 120 * MS);
  g_assert_cmpuint (nf, ==, ws_instance_set_get_n (ws_contrast_result_get_fast (expect)));
  g_assert_cmpuint (ns, ==, ws_instance_set_get_n (ws_contrast_result_get_slow (expect)));

  /* Cancel at once: nothing shown, the page idle again. */
  ws_contrast_page_set_component (page, "postgres");
  gtk_widget_activate_action (GTK_WIDGET (page), "contrast.run", NULL);
  g_assert_true (ws_contrast_page_get_busy (page));
  gtk_widget_activate_action (GTK_WIDGET (page), "contrast.cancel", NULL);
  ws_gui_test_wait_until (not_busy, page, 60, "the cancelled analysis");
  g_assert_null (ws_contrast_page_get_result (page));

  ws_contrast_page_set_impact_components (page, "XLogFlush|XLogBackgroundFlush; LockAcquire|ProcSleep");
  ws_contrast_page_run (page);
  ws_gui_test_wait_until (not_busy, page, 120, "the contrast analysis");

  shown = ws_contrast_page_get_result (page);
  g_assert_nonnull (shown);
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (shown), ==, ws_contrast_result_get_n_patterns (expect));
  g_assert_cmpuint (ws_awg_get_n_nodes (ws_contrast_result_get_awg_slow (shown)), ==,
                    ws_awg_get_n_nodes (ws_contrast_result_get_awg_slow (expect)));
  top_shown = ws_contrast_result_format_pattern (shown, ws_contrast_result_get_top_pattern (shown));
  top_expect = ws_contrast_result_format_pattern (expect, ws_contrast_result_get_top_pattern (expect));
  g_test_message ("top pattern %s", top_shown);
  g_assert_cmpstr (top_shown, ==, top_expect);
  g_assert_true (ws_contrast_pattern_has (shown, ws_contrast_result_get_top_pattern (shown), 2, "DiskService"));
  check_plain_words (page, expect);
  /* The page ranks as the CLI does by default: by total cost. */
  g_assert_cmpint (ws_contrast_result_get_rank (shown), ==, WS_CONTRAST_RANK_TOTAL);
  for (guint i = 1; i < ws_contrast_result_get_n_patterns (shown); i++)
    g_assert_cmpint (ws_contrast_result_get_pattern (shown, i - 1)->c, >=, ws_contrast_result_get_pattern (shown, i)->c);

  /* The first pattern is chosen: its paths lit in the slow graph, which
   * scrolls to show them. */
  {
    guint second = 1;
    view = nth_child (GTK_WIDGET (page), WS_TYPE_AWG_VIEW, &second);
  }
  g_assert_nonnull (view);
  g_assert_true (ws_awg_view_get_renderer (WS_AWG_VIEW (view)) != NULL);
  g_assert_true (ws_awg_renderer_get_awg (ws_awg_view_get_renderer (WS_AWG_VIEW (view)))
                 == ws_contrast_result_get_awg_slow (shown));
  ws_contrast_page_select_pattern (page, 1);
  ws_contrast_page_select_pattern (page, 0);
  g_assert_cmpuint (ws_awg_renderer_get_n_highlighted (ws_awg_view_get_renderer (WS_AWG_VIEW (view))), >=, 2);
  ws_gui_test_settle (view);
  {
    GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (
      GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW)));
    g_test_message ("slow view scrolled to x %.0f of %.0f", gtk_adjustment_get_value (h), gtk_adjustment_get_upper (h));
  }
  {
    /* Issue 14: the graph's page follows the style (it stayed white in
     * the dark style), with the dark palette of the other figures. */
    g_autoptr(GdkTexture) light = ws_gui_test_screenshot (GTK_WIDGET (window), "contrast-page");
    g_autoptr(GdkTexture) dark = NULL;
    WsAwgPalette pal;
    GtkWidget *shown_part = gtk_widget_get_ancestor (view, GTK_TYPE_SCROLLED_WINDOW);
    guint n_light, n_dark, area = gtk_widget_get_width (shown_part) * gtk_widget_get_height (shown_part);

    /* The small coverage chart and the duration histogram too (they
     * stayed white): their page in the coverage chart's palette, the
     * curve in the pattern colour. */
    GtkWidget *chart = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_PATTERN_COVERAGE_VIEW);
    guint chart_area = gtk_widget_get_width (chart) * gtk_widget_get_height (chart);
    guint chart_light, chart_dark, curve_light, curve_dark, histo_light, histo_dark;
    guint histo_area = gtk_widget_get_width (GTK_WIDGET (histogram)) * gtk_widget_get_height (GTK_WIDGET (histogram));
    WsCoveragePalette cpal;

    ws_awg_palette_init_light (&pal);
    ws_coverage_palette_init_light (&cpal);
    n_light = ws_gui_test_count_colour (GTK_WIDGET (window), light, shown_part, test_rgb (&pal.background), 2);
    chart_light = ws_gui_test_count_colour (GTK_WIDGET (window), light, chart, test_rgb (&cpal.background), 2);
    curve_light = ws_gui_test_count_colour (GTK_WIDGET (window), light, chart, test_rgb (&pal.highlight), 24);
    histo_light = ws_gui_test_count_colour (GTK_WIDGET (window), light, GTK_WIDGET (histogram),
                                            test_rgb (&cpal.background), 2);
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
    dark = ws_gui_test_screenshot (GTK_WIDGET (window), "contrast-page-dark");
    ws_awg_palette_init_dark (&pal);
    ws_coverage_palette_init_dark (&cpal);
    n_dark = ws_gui_test_count_colour (GTK_WIDGET (window), dark, shown_part, test_rgb (&pal.background), 2);
    chart_dark = ws_gui_test_count_colour (GTK_WIDGET (window), dark, chart, test_rgb (&cpal.background), 2);
    curve_dark = ws_gui_test_count_colour (GTK_WIDGET (window), dark, chart, test_rgb (&pal.highlight), 24);
    histo_dark = ws_gui_test_count_colour (GTK_WIDGET (window), dark, GTK_WIDGET (histogram),
                                           test_rgb (&cpal.background), 2);
    adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
    g_test_message ("AWG view %u px: %u light page, %u dark page", area, n_light, n_dark);
    g_test_message ("coverage chart %u px: %u light page, %u dark page; curve %u light, %u dark px",
                    chart_area, chart_light, chart_dark, curve_light, curve_dark);
    g_test_message ("histogram %u px: %u light page, %u dark page", histo_area, histo_light, histo_dark);
    g_assert_cmpuint (n_light, >, area / 4);
    g_assert_cmpuint (n_dark, >, area / 4);
    g_assert_cmpuint (chart_light, >, chart_area / 2);
    g_assert_cmpuint (chart_dark, >, chart_area / 2);
    g_assert_cmpuint (curve_light, >, 50);
    g_assert_cmpuint (curve_dark, >, 50);
    g_assert_cmpuint (histo_light, >, histo_area / 2);
    g_assert_cmpuint (histo_dark, >, histo_area / 2);
  }
  {
    GtkWidget *paned = ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_PANED);
    int min = 0, nat = 0;
    gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (GTK_WIDGET (page)), &min, &nat, NULL, NULL);
    g_test_message ("page %d (min %d nat %d), paned %d at %d", gtk_widget_get_height (GTK_WIDGET (page)), min, nat,
                    gtk_widget_get_height (paned), gtk_paned_get_position (GTK_PANED (paned)));
    /* Both the graphs and the lists below them get room. */
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), >, 150);
    g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), <, gtk_widget_get_height (paned) - 150);
  }

  /* The ready tree of the slowest instance holding it. */
  g_signal_connect (page, "open-ready-tree", G_CALLBACK (ready_tree_cb), &asked);
  {
    g_autoptr(GArray) inst = ws_contrast_result_dup_pattern_instances (shown, 0);
    WsInstanceSet *slow = ws_contrast_result_get_slow (shown);
    WsTime longest = 0;

    g_assert_cmpuint (inst->len, >, 0);
    for (guint i = 0; i < inst->len; i++)
      longest = MAX (longest, ws_instance_set_get (slow, g_array_index (inst, guint32, i))->duration);
    gtk_widget_activate_action (GTK_WIDGET (page), "contrast.open-slowest", NULL);
    g_assert_cmpint (asked, ==, longest);
  }
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "contrast-ready-tree"));

  /* Rank by C/N instead (the paper's order): the shown result is rerun in
   * that order, the same patterns. */
  {
    guint n = ws_contrast_result_get_n_patterns (shown);
    GtkDropDown *rank = find_rank_dropdown (GTK_WIDGET (page));

    g_assert_nonnull (rank);
    g_assert_cmpuint (gtk_drop_down_get_selected (rank), ==, 0);
    gtk_drop_down_set_selected (rank, 1);
    g_assert_true (ws_contrast_page_get_busy (page));
    ws_gui_test_wait_until (not_busy, page, 120, "the contrast analysis ranked by C/N");
    shown = ws_contrast_page_get_result (page);
    g_assert_cmpint (ws_contrast_result_get_rank (shown), ==, WS_CONTRAST_RANK_AVERAGE);
    g_assert_cmpuint (ws_contrast_result_get_n_patterns (shown), ==, n);
    for (guint i = 1; i < n; i++)
      {
        const WsContrastPattern *a = ws_contrast_result_get_pattern (shown, i - 1), *b = ws_contrast_result_get_pattern (shown, i);
        g_assert_cmpfloat ((double) a->c / a->n, >=, (double) b->c / b->n);
      }
    g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "contrast-rank-average"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The drop-down of the page whose second item is @item. */
static GtkDropDown *
find_dropdown_with (GtkWidget *w, const char *item)
{
  if (GTK_IS_DROP_DOWN (w) && gtk_drop_down_get_model (GTK_DROP_DOWN (w)) != NULL
      && GTK_IS_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w)))
      && g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w))), 1),
                    item) == 0)
    return GTK_DROP_DOWN (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkDropDown *found = find_dropdown_with (c, item);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_result (gpointer data)
{
  return !ws_contrast_page_get_busy (data) && ws_contrast_page_get_result (data) != NULL;
}

/* Whole traces of the recorded fleet (no scenario markers), each made
 * fast or slow on the page: the page runs what `contrast --fast/--slow`
 * runs (the same core call on the same classes), and the top pattern is
 * the rare slow path those slow runs took: the flush under the cache lock. */
static void
test_fleet_traces (void)
{
  const char *names[] = { "run-01.perf.txt.gz", "run-02.perf.txt.gz", "run-03.perf.txt.gz", "run-07.perf.txt.gz" };
  const WsRunClass want[] = { WS_RUN_CLASS_FAST, WS_RUN_CLASS_FAST, WS_RUN_CLASS_SLOW, WS_RUN_CLASS_SLOW };
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_auto(WsFleetClasses) fleet = { 0 };
  g_autoptr(WsContrastResult) expect = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *top_shown = NULL, *top_expect = NULL, *component = NULL;
  WsContrastSettings s = { 0 };
  WsContrastPage *page;
  GtkDropDown *compare, *second;
  WsContrastResult *shown;
  GtkWidget *flow;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_build_filename ("fleet", names[i], NULL);
      g_ptr_array_add (traces, ws_document_get_trace (ws_gui_test_open_trace (window, name)));
    }
  page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  ws_window_show_details_page (window, "contrast");
  compare = find_dropdown_with (GTK_WIDGET (page), _("open traces, slow against fast"));
  g_assert_nonnull (compare);
  gtk_drop_down_set_selected (compare, 1);

  /* One chip per trace, the first fast and the others slow by default:
   * make the second fast too. */
  flow = ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_FLOW_BOX);
  g_assert_true (gtk_widget_get_visible (flow));
  second = find_dropdown_with (gtk_widget_get_next_sibling (gtk_widget_get_first_child (flow)), _("slow"));
  g_assert_nonnull (second);
  g_assert_cmpuint (gtk_drop_down_get_selected (second), ==, 1);
  gtk_drop_down_set_selected (second, 0);

  ws_contrast_page_run (page);
  ws_gui_test_wait_until (has_result, page, 120, "the contrast of the fleet's traces");
  shown = ws_contrast_page_get_result (page);

  g_assert_true (ws_fleet_classes_build (&fleet, traces, want, NULL, NULL, &error));
  g_assert_no_error (error);
  component = ws_instance_set_dup_default_component (fleet.all);
  s.component = component;
  s.fast = fleet.fast;
  s.slow = fleet.slow;
  s.t_fast = fleet.t_fast;
  s.t_slow = fleet.t_slow;
  expect = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_get_n (ws_contrast_result_get_fast (shown)), ==, ws_instance_set_get_n (fleet.fast));
  g_assert_cmpuint (ws_instance_set_get_n (ws_contrast_result_get_slow (shown)), ==, ws_instance_set_get_n (fleet.slow));
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (shown), ==, ws_contrast_result_get_n_patterns (expect));
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (shown), >, 0);
  top_shown = ws_contrast_result_format_pattern (shown, ws_contrast_result_get_top_pattern (shown));
  top_expect = ws_contrast_result_format_pattern (expect, ws_contrast_result_get_top_pattern (expect));
  g_assert_cmpstr (top_shown, ==, top_expect);
  g_assert_nonnull (strstr (top_shown, "lookup_cache"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "contrast-fleet-traces"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/contrast/pg-pair", test_contrast_page);
  g_test_add_func ("/gui/contrast/fleet-traces", test_fleet_traces);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
