/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A profile of CPU samples alone in the real window: it opens as a
 * timeline of samples, the window offers "How to Record Waits" with the
 * exact perf record line.
 */
#include "config.h"

#include <string.h>

#include "ws-application.h"
#include "ws-overview-page.h"
#include "ws-gui-test-util.h"
#include "ws-perf-importer.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
has_label_with (GtkWidget  *root,
                const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_label (GTK_LABEL (root)), text) != NULL)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_label_with (c, text))
      return TRUE;
  return FALSE;
}

static gboolean
dialog_shown (gpointer data)
{
  GtkWindow *dialog = ws_gui_test_find_toplevel (ADW_TYPE_MESSAGE_DIALOG);

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
overview_says_no_waits (gpointer window)
{
  WsOverviewPage *page = WS_OVERVIEW_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE));

  return !ws_overview_page_get_busy (page) && has_label_with (GTK_WIDGET (page), "no scheduler events") &&
         !has_label_with (GTK_WIDGET (page), "Nothing waited");
}

static void
test_sample_profile (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "layouts", "cpu-default.txt", NULL);
  g_autoptr(GdkTexture) shot = NULL;
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  GtkWindow *dialog = NULL;
  WsDocument *document;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  document = ws_gui_test_open_trace (window, path);
  g_assert_cmpuint (ws_trace_count_kind (ws_document_get_trace (document), WS_EVENT_RUNNING), ==, 40);
  /* The Overview says no wait can be seen, not that nothing waited. */
  ws_window_show_details_page (window, "overview");
  ws_gui_test_wait_until (overview_says_no_waits, window, 60, "the Overview to say the trace shows no waits");
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "profile-01-samples.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record-waits-help", NULL));
  ws_gui_test_wait_until (dialog_shown, NULL, 60, "the dialog with the perf record command");
  dialog = ws_gui_test_find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_true (has_label_with (GTK_WIDGET (dialog), WS_PERF_RECORD_WAITS_COMMAND));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (dialog), "profile-02-record-waits.png");
  gtk_window_destroy (dialog);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/profile/samples-only", test_sample_profile);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
