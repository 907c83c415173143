/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's peak memory over N copies of one trace, opened two ways in
 * one process each (bench-gui-fleet.sh runs both and prints the ratio):
 *
 *   bench-gui-fleet documents N [TRACE]   each copy a document (File → Open)
 *   bench-gui-fleet fleet N [TRACE]       the copies as a fleet (File → Open
 *                                         Traces as a Fleet…), until mined
 *   bench-gui-fleet fleet-contrast N [TRACE]  then the Contrast page's "Read
 *                                         the Wait Graphs", until read
 *
 * The copies are symbolic links to TRACE (default tests/data/pg-tpcb):
 * the same stacks in every copy, so memory bounded by the fleet's digest
 * stays flat where holding the traces grows with N.  Prints one line:
 * MODE N peak-RSS-MB wall-seconds (fleet-contrast: the wall time of the
 * second reading alone).  Needs a display (xvfb-run).
 */
#include "config.h"

#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "ws-contrast-page.h"
#include "ws-gui-test-util.h"

static gboolean
documents_loaded (gpointer data)
{
  GListModel *documents = ws_session_get_documents (ws_window_get_session (data));

  for (guint i = 0; i < g_list_model_get_n_items (documents); i++)
    {
      g_autoptr(WsDocument) d = g_list_model_get_item (documents, i);

      if (ws_document_get_state (d) == WS_DOCUMENT_LOADING)
        return FALSE;
    }
  return TRUE;
}

static gboolean
fleet_mined (gpointer data)
{
  WsMiningPage *page = ws_window_get_mining_page (data);

  return !ws_window_get_fleet_busy (data) && !ws_gui_test_mining_busy (page)
         && ws_gui_test_mining_cluster_set (page) != NULL;
}

static gboolean
spans_read (gpointer data)
{
  WsContrastPage *page = data;
  WsDigest *digest = ws_contrast_page_get_digest (page);

  return !ws_contrast_page_get_busy (page) && digest != NULL && ws_digest_count_instances (digest) > 0;
}

int
main (int   argc,
      char *argv[])
{
  WsApplication *app = ws_gui_test_init (&argc, &argv);
  g_autofree char *dir = g_dir_make_tmp ("ws-bench-gui-fleet-XXXXXX", NULL);
  g_autofree char *source = NULL;
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func (g_free);
  gboolean fleet, contrast;
  struct rusage usage;
  gint64 start;
  WsWindow *window;
  guint n;

  if (argc < 3 || (!g_str_equal (argv[1], "documents") && !g_str_equal (argv[1], "fleet")
                    && !g_str_equal (argv[1], "fleet-contrast")))
    {
      g_printerr ("usage: bench-gui-fleet documents|fleet|fleet-contrast N [TRACE]\n");
      return 2;
    }
  contrast = g_str_equal (argv[1], "fleet-contrast");
  fleet = contrast || g_str_equal (argv[1], "fleet");
  n = (guint) g_ascii_strtoull (argv[2], NULL, 10);
  source = argc > 3 ? g_canonicalize_filename (argv[3], NULL)
                    : g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("copy-%04u.perf.txt.gz", i);
      char *link = g_build_filename (dir, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (link);

      if (symlink (source, link) != 0)
        g_error ("cannot link %s", link);
      g_ptr_array_add (links, link);
      g_list_store_append (files, file);
    }

  window = ws_gui_test_new_window (app, 1280, 720);
  start = g_get_monotonic_time ();
  if (fleet)
    {
      ws_window_open_fleet (window, G_LIST_MODEL (files));
      ws_gui_test_wait_until (fleet_mined, window, 3600, "the fleet mined");
      if (contrast)
        {
          WsContrastPage *page = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window),
                                                                          WS_TYPE_CONTRAST_PAGE));

          ws_window_show_details_page (window, "contrast");
          start = g_get_monotonic_time ();
          if (!gtk_widget_activate_action (GTK_WIDGET (page), "contrast.read-spans", NULL))
            g_error ("the Contrast page offers no reading of the spans");
          ws_gui_test_wait_until (spans_read, page, 3600, "the spans read");
        }
    }
  else
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (G_LIST_MODEL (files), i);
          ws_window_open_file (window, file);
        }
      ws_gui_test_wait_until (documents_loaded, window, 3600, "every document loaded");
    }
  ws_gui_test_settle (GTK_WIDGET (window));
  getrusage (RUSAGE_SELF, &usage);
  g_print ("%s %u %.0f %.1f\n", argv[1], n, usage.ru_maxrss / 1024.0,
           (g_get_monotonic_time () - start) / 1e6);

  ws_gui_test_close_window (GTK_WIDGET (window));
  for (guint i = 0; i < links->len; i++)
    g_unlink (g_ptr_array_index (links, i));
  g_rmdir (dir);
  g_object_unref (app);
  return 0;
}
