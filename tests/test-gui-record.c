/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Getting a trace in, in the real window: a plain start shows the welcome
 * page (not the demo), with the perf record line and the recent sessions
 * and traces, one click from reopening; the Record page shows the line it
 * will run and, where perf may record here, records a real short command
 * and opens the result.  Screenshots at 1280×720.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ws-application.h"
#include "ws-gui-test-util.h"
#include "ws-perf-importer.h"
#include "ws-record-page.h"
#include "ws-recorder.h"
#include "ws-welcome-page.h"
#include "ws-window.h"

static WsApplication *the_app;

static GtkStack *
main_stack (WsWindow *window)
{
  return GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (window), WS_TYPE_WINDOW, "main_stack"));
}

static guint
n_rows (GtkListBox *list)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (list)); c != NULL; c = gtk_widget_get_next_sibling (c))
    n++;
  return n;
}

static gboolean
has_documents (gpointer window)
{
  return g_list_model_get_n_items (ws_window_get_documents (window)) > 0;
}

static gboolean
current_ready (gpointer window)
{
  WsDocument *d = ws_window_get_current_document (window);
  return d != NULL && ws_document_get_state (d) != WS_DOCUMENT_LOADING;
}

static gboolean
record_finished (gpointer page)
{
  return !ws_record_page_get_running (page);
}

static void
test_welcome (void)
{
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *session = g_build_filename (g_getenv ("WS_TEST_DATA"), "session-v1.waitscope", NULL);
  g_autofree char *trace_uri = g_filename_to_uri (trace, NULL, NULL);
  g_autofree char *session_uri = g_filename_to_uri (session, NULL, NULL);
  GSettings *settings = ws_application_get_settings (the_app);
  const char *recent[] = { session_uri, trace_uri, "file:///nonexistent/gone.perf.txt", NULL };
  g_autoptr(GdkTexture) shot = NULL;
  WsWelcomePage *welcome;
  WsWindow *window;
  GtkWidget *row;

  g_settings_set_strv (settings, "recent-files", recent);
  /* A plain start, as the desktop launches it: the welcome page, no demo. */
  g_application_activate (G_APPLICATION (the_app));
  window = WS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (the_app)));
  g_assert_nonnull (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  g_assert_cmpuint (g_list_model_get_n_items (ws_window_get_documents (window)), ==, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (main_stack (window)), ==, "welcome");

  welcome = WS_WELCOME_PAGE (gtk_stack_get_visible_child (main_stack (window)));
  g_assert_cmpstr (ws_welcome_page_get_record_line (welcome), ==, WS_PERF_RECORD_WAITS_COMMAND);
  /* The session and the trace that exist, not the one that is gone. */
  g_assert_cmpuint (n_rows (ws_welcome_page_get_recent_list (welcome, TRUE)), ==, 1);
  g_assert_cmpuint (n_rows (ws_welcome_page_get_recent_list (welcome, FALSE)), ==, 1);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "record-01-welcome.png");

  /* One click on the recent trace opens it. */
  row = gtk_widget_get_first_child (GTK_WIDGET (ws_welcome_page_get_recent_list (welcome, FALSE)));
  g_assert_true (gtk_widget_activate (row));
  ws_gui_test_wait_until (has_documents, window, 30, "the recent trace to open");
  ws_gui_test_wait_until (current_ready, window, 60, "the recent trace to load");
  g_assert_cmpint (ws_document_get_state (ws_window_get_current_document (window)), ==, WS_DOCUMENT_READY);
  g_assert_cmpstr (g_file_peek_path (ws_document_get_file (ws_window_get_current_document (window))), ==, trace);
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "recent-files");
}

static void
test_record_page (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  g_autoptr(WsRecordSystem) system = ws_record_system_probe ();
  g_autoptr(GdkTexture) shot = NULL;
  WsRecordPage *page;
  WsTrace *trace;
  gboolean sleep_waited = FALSE;
  g_autofree char *shown_output = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (main_stack (window)), ==, "record");
  page = WS_RECORD_PAGE (gtk_stack_get_visible_child (main_stack (window)));
  /* The whole system by default: the line every hint prints, but with
   * the file it really writes (it showed "-o perf.data" and wrote a dated
   * file in the recordings folder). */
  {
    g_autofree char *recordings = g_build_filename (g_get_user_data_dir (), "waitscope", "recordings", NULL);
    g_autofree char *want = g_strdup_printf (" -o %s/record-", recordings);
    const char *line = ws_record_page_get_perf_line (page);
    const char *hint_tail = strstr (WS_PERF_RECORD_WAITS_COMMAND, " -o perf.data");

    g_assert_nonnull (hint_tail);
    g_assert_true (strncmp (line, WS_PERF_RECORD_WAITS_COMMAND, hint_tail - WS_PERF_RECORD_WAITS_COMMAND) == 0);
    g_assert_nonnull (strstr (line, want));
    g_assert_true (g_str_has_suffix (line, ".perf.data -- sleep 5"));
  }
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "record-02-record-page.png");

  ws_record_page_set_command (page, "sh -c 'sleep 0.2; sleep 0.1'");
  g_assert_true (g_str_has_suffix (ws_record_page_get_perf_line (page), ".perf.data -- sh -c 'sleep 0.2; sleep 0.1'"));
  /* A command is recorded with every CPU too: its wakers are other tasks. */
  g_assert_true (strstr (ws_record_page_get_perf_line (page), " -a ") != NULL);
  /* Not allowed here: the page says why and what to change, and cannot start. */
  {
    WsRecordSystem user = { 1000, 2, FALSE, (char *) "/usr/bin/perf", NULL, NULL };
    g_autoptr(GdkTexture) denied = NULL;

    ws_record_page_set_system (page, &user);
    g_assert_nonnull (strstr (ws_record_page_get_access_message (page), "perf_event_paranoid is 2"));
    g_assert_false (gtk_widget_activate_action (GTK_WIDGET (page), "record.start", NULL) &&
                    ws_record_page_get_running (page));
    denied = ws_gui_test_screenshot (GTK_WIDGET (window), "record-02b-not-allowed.png");
    user.pkexec = (char *) "/usr/bin/pkexec";
    ws_record_page_set_system (page, &user);
    g_assert_nonnull (strstr (ws_record_page_get_access_message (page), "pkexec"));
    ws_record_page_set_system (page, system);
    if (ws_record_access_decide (system, NULL) == WS_RECORD_ACCESS_DIRECT)
      g_assert_cmpstr (ws_record_page_get_access_message (page), ==, "");
  }
  /* Back returns to the welcome page. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "record.close", NULL));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (main_stack (window)), ==, "welcome");

  if (ws_record_access_decide (system, NULL) != WS_RECORD_ACCESS_DIRECT)
    {
      g_test_skip ("perf may not record scheduler events here");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  {
    /* The file named in the line is the one written. */
    const char *line = ws_record_page_get_perf_line (page);
    const char *o = strstr (line, " -o ");
    const char *end = o ? strstr (o + 4, " -- ") : NULL;

    g_assert_nonnull (end);
    shown_output = g_strndup (o + 4, end - (o + 4));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "record.start", NULL));
  g_assert_true (ws_record_page_get_running (page));
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "record-03-recording.png");
  ws_gui_test_wait_until (record_finished, page, 60, "perf record to finish");
  g_assert_true (g_str_has_prefix (ws_record_page_get_status (page), "Recorded "));
  {
    g_autofree char *said = g_strdup_printf ("Recorded %s.", shown_output);
    g_assert_cmpstr (ws_record_page_get_status (page), ==, said);
  }
  ws_gui_test_wait_until (current_ready, window, 60, "the recording to load");
  trace = ws_document_get_trace (ws_window_get_current_document (window));
  g_assert_nonnull (trace);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->kind == WS_EVENT_WAIT && g_str_equal (ws_trace_get_thread (trace, e->thread)->name, "sleep"))
        sleep_waited = TRUE;
    }
  g_assert_true (sleep_waited);
  g_clear_object (&shot);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "record-04-recorded.png");
  g_unlink (g_file_peek_path (ws_document_get_file (ws_window_get_current_document (window))));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = g_dir_make_tmp ("ws-gui-record-XXXXXX", NULL);
  g_autofree char *recordings = g_build_filename (data_home, "waitscope", "recordings", NULL);
  g_autofree char *waitscope = g_path_get_dirname (recordings);
  int status;

  /* Recordings go to a scratch directory, not the user's data directory. */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/record/welcome", test_welcome);
  g_test_add_func ("/gui/record/record-page", test_record_page);
  status = g_test_run ();
  g_object_unref (the_app);
  g_rmdir (recordings);
  g_rmdir (waitscope);
  g_rmdir (data_home);
  return status;
}
