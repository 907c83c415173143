/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Files dropped on the window open, whatever their format: a perf
 * recording, folded stacks, a JSON trace, a trace-cmd .dat file, an LTTng
 * trace and a Perfetto protobuf trace, each
 * given to the window's drop target as a drag from a file manager hands
 * them over (a GdkFileList), then loaded by the importer the registry
 * picks from the bytes.  The drop itself is the controller's "drop"
 * signal: Xvfb has no drag source to start a real one from.
 */
#include "config.h"

#include "ws-application.h"
#include "ws-gui-test-util.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
document_ready (gpointer data)
{
  return ws_document_get_state (data) != WS_DOCUMENT_LOADING;
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (c))
        return GTK_DROP_TARGET (c);
    }
  return NULL;
}

/* @shot: (nullable): a screenshot's name, taken at 1280×720 and 1920×1080
 * once the trace is open. */
static void
drop_path (const char *path,
           const char *shot)
{
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  GtkDropTarget *drop;
  GSList *files = g_slist_prepend (NULL, gfile);
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;
  WsDocument *document;

  gtk_window_present (GTK_WINDOW (window));
  drop = find_drop_target (GTK_WIDGET (window));
  g_assert_nonnull (drop);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_signal_emit_by_name (drop, "drop", &value, 100.0, 100.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  document = ws_window_get_current_document (window);
  g_assert_nonnull (document);
  ws_gui_test_wait_until (document_ready, document, 120, "the dropped trace to load");
  g_assert_cmpint (ws_document_get_state (document), ==, WS_DOCUMENT_READY);
  g_assert_cmpuint (ws_trace_get_n_threads (ws_document_get_trace (document)), >, 0);
  if (shot != NULL)
    {
      static const int sizes[][2] = { { 1280, 720 }, { 1920, 1080 } };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%d.png", shot, sizes[i][0]);
          g_autoptr(GdkTexture) texture = NULL;

          gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
          texture = ws_gui_test_screenshot (GTK_WIDGET (window), name);
          g_assert_nonnull (texture);
        }
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
check_drop (gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), (const char *) data, NULL);

  drop_path (path, NULL);
}

/* A Perfetto trace (converted from a real perf recording, gzip). */
static void
check_drop_perfetto (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "perfetto", "oversub.pftrace.gz", NULL);

  drop_path (path, "drop-perfetto");
}

#ifdef HAVE_BABELTRACE2
/* An LTTng trace is a directory: dropped as one, once unpacked. */
static void
check_drop_ctf_directory (void)
{
  g_autofree char *archive = g_build_filename (g_getenv ("WS_TEST_DATA"), "ctf", "bug446190.tar.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("test-gui-drop-XXXXXX", NULL);
  g_autofree char *trace_dir = g_build_filename (dir, "bug446190", NULL);
  const char *tar[] = { "tar", "xzf", archive, "-C", dir, NULL };
  const char *rm[] = { "rm", "-rf", dir, NULL };
  int status = 1;

  g_assert_true (g_spawn_sync (NULL, (char **) tar, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  drop_path (trace_dir, NULL);
  g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}
#endif

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_data_func ("/gui/drop/perf-text", "py-locks.perf.txt.gz", check_drop);
  g_test_add_data_func ("/gui/drop/json-trace", "hand-built.json", check_drop);
  g_test_add_data_func ("/gui/drop/folded", "layouts/cpu-default.folded", check_drop);
  g_test_add_func ("/gui/drop/perfetto", check_drop_perfetto);
#ifdef HAVE_LIBTRACECMD
  g_test_add_data_func ("/gui/drop/trace-cmd", "tracecmd/oversub.dat", check_drop);
#endif
#ifdef HAVE_BABELTRACE2
  g_test_add_data_func ("/gui/drop/lttng-ctf", "ctf/bug446190.tar.gz", check_drop);
  g_test_add_func ("/gui/drop/lttng-ctf-directory", check_drop_ctf_directory);
#endif
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
