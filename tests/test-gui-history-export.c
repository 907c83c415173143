/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * In the real window under a display (Xvfb in the suite):
 *
 *  - the "record-history" setting: its action in the application, its
 *    check item in the main menu, and traces opened with it on (and only
 *    then) counted in the history store ($WAITSCOPE_HISTORY, a temp file);
 *  - the Mining page's figures: py-locks mined, the first cluster's
 *    alignment and a signature's coverage chart exported as PNG (the size
 *    the renderers measure, the background and the figure's own colours
 *    present), SVG and PDF; and the errors when there is nothing to export
 *    or the name has no known extension.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-application.h"
#include "ws-coverage.h"
#include "ws-gui-test-util.h"
#include "ws-mining-form.h"
#include "ws-history-store.h"
#include "ws-overview-page.h"
#include "ws-window.h"

#define LAMBDA 20000000   /* 20 ms */

/* The margin ws_alignment_renderer_export() puts around the alignment. */
#define ALIGNMENT_EXPORT_MARGIN 16

static WsApplication *the_app;
static char *tmp_dir;

/* The page's form, found in the widget tree as a user finds it. */
static WsMiningForm *
form_of (WsMiningPage *page)
{
  GtkWidget *form = ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_MINING_FORM);

  g_assert_nonnull (form);
  return WS_MINING_FORM (form);
}

static gboolean
not_recording (gpointer document)
{
  return !ws_document_get_recording (document);
}

static WsDocument *
open_and_wait (WsWindow *window, const char *name)
{
  WsDocument *document = ws_gui_test_open_trace (window, name);

  /* The history is written in the background once the trace shows. */
  ws_gui_test_wait_until (not_recording, document, 120, "the trace's waits to be written to the history");
  return document;
}

static gboolean
overview_idle (gpointer page)
{
  return !ws_overview_page_get_busy (page);
}

static guint
n_traces (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return 0;
  store = ws_history_store_open (path, &error);
  g_assert_no_error (error);
  return ws_history_store_get_n_traces (store);
}

static gboolean
menu_has_action (GMenuModel *menu, const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      GMenuLinkIter *links;
      const char *link;
      GMenuModel *child;
      gboolean found = FALSE;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_strcmp0 (name, action) == 0)
        return TRUE;
      links = g_menu_model_iterate_item_links (menu, i);
      while (!found && g_menu_link_iter_get_next (links, &link, &child))
        {
          found = menu_has_action (child, action);
          g_object_unref (child);
        }
      g_object_unref (links);
      if (found)
        return TRUE;
    }
  return FALSE;
}

static GtkWidget *
find_primary_menu_button (GtkWidget *root)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_MENU_BUTTON (c) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (c)))
        return c;
      if ((found = find_primary_menu_button (c)) != NULL)
        return found;
    }
  return NULL;
}

/* The menu button whose menu offers @action. */
static GtkWidget *
find_menu_button_with (GtkWidget *root, const char *action)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_MENU_BUTTON (c) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (c)) != NULL &&
          menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (c)), action))
        return c;
      if ((found = find_menu_button_with (c, action)) != NULL)
        return found;
    }
  return NULL;
}

static gboolean
coverage_ready (gpointer page)
{
  return !ws_gui_test_mining_coverage_busy (page);
}

static void
count_idle_cb (WsMiningPage *page,
               GParamSpec   *pspec,
               guint        *n_idle)
{
  if (!ws_gui_test_mining_coverage_busy (page))
    (*n_idle)++;
}

static void
test_record_setting (void)
{
  g_autofree char *history = g_build_filename (tmp_dir, "record-setting.sqlite", NULL);
  GSettings *settings = ws_application_get_settings (the_app);
  WsWindow *window;
  GAction *action;
  GtkWidget *menu_button;
  g_autoptr(GVariant) state = NULL;

  g_setenv ("WAITSCOPE_HISTORY", history, TRUE);
  g_assert_nonnull (settings);
  g_assert_true (g_settings_get_boolean (settings, "record-history"));   /* the schema's default */

  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_present (GTK_WINDOW (window));

  /* The toggle: a stateful action, in the main menu. */
  action = g_action_map_lookup_action (G_ACTION_MAP (the_app), "record-history");
  g_assert_nonnull (action);
  state = g_action_get_state (action);
  g_assert_true (g_variant_get_boolean (state));
  menu_button = find_primary_menu_button (GTK_WIDGET (window));
  g_assert_nonnull (menu_button);
  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)),
                                  "app.record-history"));

  /* Unticked: a trace opened is not recorded (the store is not even made). */
  g_action_activate (action, NULL);
  g_assert_false (g_settings_get_boolean (settings, "record-history"));
  open_and_wait (window, "build.perf.txt.gz");
  g_assert_false (g_file_test (history, G_FILE_TEST_EXISTS));

  /* Ticked again: the next one is. */
  g_action_activate (action, NULL);
  g_assert_true (g_settings_get_boolean (settings, "record-history"));
  open_and_wait (window, "py-locks.perf.txt.gz");
  /* The Overview's cluster mines both open traces with the setting on:
   * it records neither (build was opened with recording off). */
  {
    GtkWidget *overview = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE);

    g_assert_nonnull (overview);
    ws_gui_test_wait_until (overview_idle, overview, 120, "the Overview's blocks to be filled");
  }
  g_assert_cmpuint (n_traces (history), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pixels of @surface within @tolerance (0…255) of @c. */
static guint
count_colour (cairo_surface_t *surface, const WsColor *c, int tolerance)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guchar *data;
  int r = (int) (c->red * 255 + 0.5), g = (int) (c->green * 255 + 0.5), b = (int) (c->blue * 255 + 0.5);
  guint n = 0;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guchar *p = data + y * stride + 4 * x;   /* BGRA, opaque */
        if (ABS (p[2] - r) <= tolerance && ABS (p[1] - g) <= tolerance && ABS (p[0] - b) <= tolerance)
          n++;
      }
  return n;
}

static void
assert_starts_with (const char *path, const char *prefix)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, strlen (prefix));
  g_assert_true (g_str_has_prefix (contents, prefix));
}

static void
test_mining_export (void)
{
  g_autofree char *history = g_build_filename (tmp_dir, "mining.sqlite", NULL);
  g_autofree char *align_png = g_build_filename (tmp_dir, "alignment.png", NULL);
  g_autofree char *align_svg = g_build_filename (tmp_dir, "alignment.svg", NULL);
  g_autofree char *align_pdf = g_build_filename (tmp_dir, "alignment.pdf", NULL);
  g_autofree char *cov_png = g_build_filename (tmp_dir, "coverage.png", NULL);
  g_autofree char *cov_svg = g_build_filename (tmp_dir, "coverage.svg", NULL);
  g_autofree char *bad = g_build_filename (tmp_dir, "alignment.txt", NULL);
  g_autoptr(GError) error = NULL;
  WsWindow *window;
  WsMiningPage *page;
  WsAlignmentView *view;
  WsAlignmentRenderer *renderer;
  WsAlignmentGrid *grid;
  const WsAlignmentPalette *ap;
  const WsCoveragePalette *cp;
  cairo_surface_t *surface;
  gboolean finished = FALSE;
  double width, height;
  guint n_background, n_common, total;

  g_setenv ("WAITSCOPE_HISTORY", history, TRUE);
  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  open_and_wait (window, "py-locks.perf.txt.gz");

  page = ws_window_get_mining_page (window);
  ws_window_show_details_page (window, "mining");
  ws_session_set_history_path (ws_window_get_session (window), history);
  /* Enough clusters for three signatures: the whole trace. */
  ws_mining_form_set_scope (form_of (page), WS_MINING_SCOPE_WHOLE_TRACES);
  ws_mining_form_set_lambda (form_of (page), LAMBDA);

  /* Nothing mined yet: nothing to export, said so. */
  g_assert_false (ws_mining_page_export_alignment (page, align_png, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_false (ws_mining_page_export_coverage (page, cov_png, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_false (g_file_test (align_png, G_FILE_TEST_EXISTS));

  g_signal_connect (page, "finished", G_CALLBACK (ws_gui_test_flag_cb), &finished);
  ws_mining_page_run (page);
  ws_gui_test_wait_for_flag (&finished, 120, "mining py-locks");
  g_assert_nonnull (ws_gui_test_mining_cluster_set (page));
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (page)), >, 0);
  ws_mining_page_select_cluster (page, 1);
  ws_mining_page_show_detail (page, "alignment");
  g_assert_nonnull (find_menu_button_with (GTK_WIDGET (page), "mining.export-alignment"));
  g_assert_nonnull (find_menu_button_with (GTK_WIDGET (page), "mining.export-coverage"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "mining-export-alignment.png"));

  /* The alignment: the size the renderer measures plus the margin, mostly
   * background, with the common part's fill where the grid has common rows. */
  view = WS_ALIGNMENT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_ALIGNMENT_VIEW));
  grid = ws_alignment_view_get_grid (view);
  g_assert_nonnull (grid);
  renderer = ws_alignment_view_get_renderer (view);
  ap = ws_alignment_renderer_get_palette (renderer);
  ws_alignment_renderer_measure (renderer, grid, NULL, &width, &height);

  g_assert_true (ws_mining_page_export_alignment (page, align_png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (align_png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, (int) (width + 2 * ALIGNMENT_EXPORT_MARGIN));
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, (int) (height + 2 * ALIGNMENT_EXPORT_MARGIN));
  total = cairo_image_surface_get_width (surface) * cairo_image_surface_get_height (surface);
  n_background = count_colour (surface, &ap->background, 2);
  n_common = count_colour (surface, &ap->common, 2);
  g_test_message ("alignment %d×%d: %u background, %u common of %u pixels, %u common rows",
                  cairo_image_surface_get_width (surface), cairo_image_surface_get_height (surface),
                  n_background, n_common, total, ws_alignment_grid_count_rows (grid, WS_ALIGNMENT_ROW_COMMON));
  g_assert_cmpuint (n_background, >, 0);
  g_assert_cmpuint (n_background, <, total);
  if (ws_alignment_grid_count_rows (grid, WS_ALIGNMENT_ROW_COMMON) > 0)
    g_assert_cmpuint (n_common, >, 0);
  cairo_surface_destroy (surface);

  g_assert_true (ws_mining_page_export_alignment (page, align_svg, &error));
  g_assert_true (ws_mining_page_export_alignment (page, align_pdf, &error));
  g_assert_no_error (error);
  assert_starts_with (align_svg, "<?xml");
  assert_starts_with (align_pdf, "%PDF-");

  g_assert_false (ws_mining_page_export_alignment (page, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_clear_error (&error);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  /* The coverage chart, once a signature gives it curves: 960 × 540. */
  g_assert_true (ws_mining_page_mark_signature (page));
  g_assert_cmpuint (ws_gui_test_mining_n_signatures (page), ==, 1);
  /* The curves are computed in a thread: the chart says so meanwhile. */
  g_assert_true (ws_gui_test_mining_coverage_busy (page));
  g_assert_cmpuint (ws_coverage_plot_get_n_series (ws_coverage_view_get_plot (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW)))), ==, 0);
  g_assert_false (ws_mining_page_export_coverage (page, cov_png, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
  g_clear_error (&error);
  g_assert_false (g_file_test (cov_png, G_FILE_TEST_EXISTS));
  ws_gui_test_wait_until (coverage_ready, page, 60, "the coverage curves");
  ws_mining_page_show_detail (page, "coverage");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "mining-export-coverage.png"));
  cp = ws_coverage_plot_get_palette (ws_coverage_view_get_plot (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW))));
  g_assert_true (ws_mining_page_export_coverage (page, cov_png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (cov_png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 960);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 540);
  n_background = count_colour (surface, &cp->background, 2) + count_colour (surface, &cp->plot_background, 2);
  g_test_message ("coverage: %u background, %u of the first series' colour of %u pixels",
                  n_background, count_colour (surface, &cp->series[0], 24), 960 * 540);
  g_assert_cmpuint (n_background, >, 960 * 540 / 2);
  g_assert_cmpuint (n_background, <, 960 * 540);
  g_assert_cmpuint (count_colour (surface, &cp->series[0], 24), >, 100);
  cairo_surface_destroy (surface);
  g_assert_true (ws_mining_page_export_coverage (page, cov_svg, &error));
  g_assert_no_error (error);
  assert_starts_with (cov_svg, "<?xml");

  /* Two more signatures marked back to back: the first computation is
   * superseded, so the chart leaves "Computing…" once, with the curves of
   * all three. */
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (page)), >=, 3);
  {
    guint n_idle = 0;
    gulong id = g_signal_connect (page, "notify::coverage-busy", G_CALLBACK (count_idle_cb), &n_idle);

    ws_mining_page_select_cluster (page, 2);
    g_assert_true (ws_mining_page_mark_signature (page));
    g_assert_true (ws_gui_test_mining_coverage_busy (page));
    ws_mining_page_select_cluster (page, 3);
    g_assert_true (ws_mining_page_mark_signature (page));
    g_assert_cmpuint (ws_gui_test_mining_n_signatures (page), ==, 3);
    ws_gui_test_wait_until (coverage_ready, page, 60, "the coverage curves of three signatures");
    ws_gui_test_settle (GTK_WIDGET (page));   /* and whatever that queued has run */
    g_assert_cmpuint (n_idle, ==, 1);
    g_assert_cmpuint (ws_coverage_plot_get_n_series (ws_coverage_view_get_plot (WS_COVERAGE_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), WS_TYPE_COVERAGE_VIEW)))),
                      ==, WS_N_RANKINGS);
    g_signal_handler_disconnect (page, id);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cmd = NULL;
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  tmp_dir = g_dir_make_tmp ("ws-gui-history-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/gui/history/record-setting", test_record_setting);
  g_test_add_func ("/gui/mining/export-figures", test_mining_export);
  status = g_test_run ();

  cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  if (system (cmd) != 0)
    g_printerr ("could not remove %s\n", tmp_dir);
  g_free (tmp_dir);
  g_object_unref (the_app);
  return status;
}
