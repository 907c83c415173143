/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Contrast page's trace classes (one chip per trace) over fleets of
 * 4, 24 and 50 traces, at 1280×720 and 1920×1080 (issue 28: at 1280×720
 * the area showed a row of chips and a third of the next, cut through).
 *
 * The oracle is the chips' own rows, measured in the window: the area
 * that holds them (scrolling when there are many) must end where a row
 * ends, never inside one, and must show at least two rows (all of them
 * when there are fewer).  The fleets are links to the recorded runs of
 * tests/data/fleet, opened as File → Open Traces as a Fleet… opens them;
 * a screenshot of each is saved for a person to look at.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "ws-application.h"
#include "ws-contrast-page.h"
#include "ws-gui-test-util.h"
#include "ws-run-class-chips.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
fleet_shown (gpointer window)
{
  return !ws_window_get_fleet_busy (window) &&
         ws_gui_test_find_label_containing (window, "read as they loaded") != NULL;
}

/* @n links to the recorded runs, in a fresh folder: a fleet of @n traces. */
static GListModel *
fleet_of (guint       n,
          const char *dir)
{
  GListStore *files = g_list_store_new (G_TYPE_FILE);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *run = g_strdup_printf ("fleet/run-%02u.perf.txt.gz", i % 24 + 1);
      g_autofree char *source = ws_gui_test_data_path (run);
      g_autofree char *name = g_strdup_printf ("run-%02u-copy-%02u.perf.txt.gz", i % 24 + 1, i);
      g_autofree char *link = g_build_filename (dir, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (link);

      g_assert_cmpint (symlink (source, link), ==, 0);
      g_list_store_append (files, file);
    }
  return G_LIST_MODEL (files);
}

/* The bottom edge of each row of chips, in the flow box's coordinates. */
static GArray *
row_bottoms (GtkWidget *flow)
{
  GArray *bottoms = g_array_new (FALSE, FALSE, sizeof (double));

  for (GtkWidget *c = gtk_widget_get_first_child (flow); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t r;
      double bottom;

      g_assert_true (gtk_widget_compute_bounds (c, flow, &r));
      bottom = r.origin.y + r.size.height;
      if (bottoms->len == 0 || bottom > g_array_index (bottoms, double, bottoms->len - 1) + 0.5)
        g_array_append_val (bottoms, bottom);
    }
  return bottoms;
}

static void
check_chips (WsWindow   *window,
             guint       n,
             const char *size)
{
  GtkWidget *page = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE);
  GtkWidget *chips = ws_gui_test_find_child (page, WS_TYPE_RUN_CLASS_CHIPS);
  GtkWidget *flow = ws_gui_test_find_child (chips, GTK_TYPE_FLOW_BOX);
  GtkWidget *scroller = gtk_widget_get_ancestor (flow, GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GArray) bottoms = NULL;
  g_autofree char *shot = g_strdup_printf ("fleet-chips-%u-%s.png", n, size);
  graphene_rect_t top_chip;
  double shown;
  guint whole = 0;

  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), shot));
  g_assert_true (gtk_widget_get_mapped (chips));
  bottoms = row_bottoms (flow);
  g_assert_cmpuint (bottoms->len, >=, 1);
  g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_first_child (flow), flow, &top_chip));
  /* What the area shows of the flow box, scrolled to its top. */
  shown = gtk_widget_get_height (scroller);
  for (guint i = 0; i < bottoms->len; i++)
    if (g_array_index (bottoms, double, i) <= shown + 0.5)
      whole = i + 1;
  g_test_message ("%u traces at %s: %u rows of chips (%.0f px each), %.0f px shown: %u whole rows",
                  n, size, bottoms->len, top_chip.size.height, shown, whole);
  /* All the rows, or at least two whole ones... */
  g_assert_cmpuint (whole, >=, MIN (bottoms->len, 2));
  /* ...and no row cut through: the area ends on a row's bottom edge (a
   * row's spacing below it at most), or holds them all. */
  if (whole < bottoms->len)
    g_assert_cmpfloat (shown - g_array_index (bottoms, double, whole - 1), <,
                       (g_array_index (bottoms, double, whole) - g_array_index (bottoms, double, whole - 1)) / 4);
}

static void
test_chips (gconstpointer data)
{
  guint n = GPOINTER_TO_UINT (data);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-chips-XXXXXX", NULL);
  g_autoptr(GListModel) files = fleet_of (n, dir);
  WsWindow *window = ws_gui_test_new_window (the_app, 1280, 720);

  ws_window_open_fleet (window, files);
  ws_gui_test_wait_until (fleet_shown, window, 300, "the fleet shown");
  ws_window_show_details_page (window, "contrast");
  ws_gui_test_settle (GTK_WIDGET (window));
  check_chips (window, n, "1280x720");
  ws_gui_test_resize_and_wait (window, 1920, 1080);
  check_chips (window, n, "1920x1080");
  ws_gui_test_close_window (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *path = g_file_get_path (file);
      g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_data_func ("/gui/fleet-chips/4", GUINT_TO_POINTER (4), test_chips);
  g_test_add_data_func ("/gui/fleet-chips/24", GUINT_TO_POINTER (24), test_chips);
  g_test_add_data_func ("/gui/fleet-chips/50", GUINT_TO_POINTER (50), test_chips);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
