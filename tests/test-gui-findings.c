/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Findings in the real window under Xvfb: three views of py-locks pinned
 * (timeline window, ready tree, critical path) with notes, autosaved,
 * undone, saved, presented, the window closed; the session reopened from
 * its file (as from the command line) with its pins and view state; both
 * report forms exported and checked.  Screenshots in WS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-application.h"
#include "ws-anomaly-state.h"
#include "ws-findings-page.h"
#include "ws-mining-page.h"
#include "ws-model-window.h"
#include "ws-overview-page.h"
#include "ws-chain.h"
#include "ws-contrast-page.h"
#include "ws-duration-histogram.h"
#include "ws-pin-contrast.h"
#include "ws-pin-mining.h"
#include "ws-error.h"
#include "ws-chooser-folder.h"
#include "ws-gui-test-util.h"
#include "ws-presentation.h"
#include "ws-window.h"

static WsApplication *the_app;

#define T0 1987000000000LL

static gboolean
has_two_documents (gpointer data)
{
  return g_list_model_get_n_items (ws_window_get_documents (data)) >= 2;
}

static gboolean
has_current_document (gpointer data)
{
  return ws_window_get_current_document (data) != NULL;
}

static gboolean
document_ready (gpointer data)
{
  return ws_document_get_state (data) != WS_DOCUMENT_LOADING;
}

/* True once the autosave has written a recovery copy that holds all three
 * notes (the last pinned one is the CPU wait).  Autosave runs a couple of
 * seconds after the last change; under load it can take longer, so the
 * test polls instead of sleeping a fixed time. */
static gboolean
recovery_has_all_pins (gpointer data)
{
  g_autoptr(GPtrArray) copies = ws_session_file_list_recoveries ();
  g_autofree char *text = NULL;

  (void) data;
  if (copies->len != 1
      || !g_file_get_contents (g_ptr_array_index (copies, 0), &text, NULL, NULL))
    return FALSE;
  return strstr (text, "waiting for a CPU") != NULL;
}

static WsWindow *
new_window (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
select_window (WsWindow *window,
               WsTime    t0,
               WsTime    t1)
{
  WsDocument *document = ws_window_get_current_document (window);
  WsTrace *trace = ws_document_get_trace (document);

  ws_timeline_viewport_set_selection (ws_document_get_viewport (document),
                                      ws_trace_find_thread (trace, 11588), t0, t1);
}

static void
pin_graph (WsWindow   *window,
           const char *action)
{
  WsGraphPage *graph = ws_window_get_graph_page (window);
  gboolean ready = FALSE;
  gulong id = g_signal_connect (graph, "ready", G_CALLBACK (ws_gui_test_flag_cb), &ready);

  gtk_widget_activate_action (GTK_WIDGET (window), action, NULL);
  ws_gui_test_wait_for_flag (&ready, 60, action);
  g_signal_handler_disconnect (graph, id);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "graph");
}

static WsPinList *
pins_of (WsWindow *window)
{
  return ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window)));
}

typedef struct {
  WsWindow *window;
  guint     n;
} PinCount;

static gboolean
has_pins (gpointer data)
{
  PinCount *c = data;

  return ws_pin_list_get_n (pins_of (c->window)) >= c->n;
}

/* Pinning hashes the trace on a worker thread: the pin is not in the list
 * when the action returns (the main loop has not run), only later. */
static void
pin_and_wait (WsWindow *window,
              guint     n)
{
  WsFindingsPage *page = ws_window_get_findings_page (window);
  PinCount count = { window, n };

  gtk_widget_activate_action (GTK_WIDGET (window), "win.pin-view", NULL);
  g_assert_cmpuint (ws_pin_list_get_n (pins_of (window)), ==, n - 1);
  g_assert_cmpuint (ws_findings_page_get_n_pending (page), ==, 1);
  ws_gui_test_wait_until (has_pins, &count, 60, "the pin's trace to be hashed");
  g_assert_cmpuint (ws_findings_page_get_n_pending (page), ==, 0);
}

static guint
count_in_file (const char *path,
               const char *needle)
{
  g_autofree char *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
pin_three (WsWindow       *window,
           WsFindingsPage *page)
{
  WsPinList *list = pins_of (window);

  /* A loaded trace opens on the Overview, where Ctrl+D pins the
   * attribution once it is computed: the timeline's pin is asked for from
   * the Details tab, however fast the Overview is. */
  ws_window_show_details_page (window, "details");
  select_window (window, T0, T0 + 50000000);
  pin_and_wait (window, 1);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 1);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 0)), ==, WS_PIN_KIND_TIMELINE);
  ws_findings_page_set_note_text (page, "Workers take turns", "Each *worker* runs, then **waits** on the lock.");

  select_window (window, T0, T0 + 1000000000);
  pin_graph (window, "win.show-ready-tree");
  pin_and_wait (window, 2);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 2);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 1)), ==, WS_PIN_KIND_READY_TREE);
  g_assert_cmpint (ws_pin_get_event (ws_pin_list_get (list, 1)), >=, 0);
  ws_findings_page_set_note_text (page, "The chain behind w3", "- root: a futex wait\n- ranked by average");

  select_window (window, T0, T0 + 50000000);
  pin_graph (window, "win.show-critical-path");
  pin_and_wait (window, 3);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 3);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 2)), ==, WS_PIN_KIND_CRITICAL_PATH);
  ws_findings_page_set_note_text (page, "Critical path of w3", "Half of it is `ready`, waiting for a CPU.");
}

static void
check_undo (WsWindow       *window,
            WsFindingsPage *page)
{
  WsPinList *list = pins_of (window);

  ws_findings_page_select (page, 0);
  gtk_widget_activate_action (GTK_WIDGET (page), "findings.delete", NULL);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (page), "findings.undo", NULL);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 3);
  g_assert_cmpstr (ws_pin_get_title (ws_pin_list_get (list, 0)), ==, "Workers take turns");
}

static GtkWindow *
find_presentation (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
      if (WS_IS_PRESENTATION (w))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
presentation_shown (gpointer data)
{
  GtkWindow *shown = find_presentation ();

  return shown != NULL && gtk_widget_get_mapped (GTK_WIDGET (shown));
}

static gboolean
presentation_gone (gpointer data)
{
  return find_presentation () == NULL;
}

static gboolean
style_dark (gpointer data)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static void
present (WsWindow       *window,
         WsFindingsPage *page)
{
  GtkWindow *shown;

  ws_findings_page_present (page);
  ws_gui_test_wait_until (presentation_shown, NULL, 60, "the presentation window");
  shown = find_presentation ();
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (shown), "findings-present-light.png"));
  /* The figure's text is readable on this screen (14 px at 1080). */
  g_test_message ("presented figure text %.1f px on a %d px high screen",
                  ws_presentation_get_text_px (WS_PRESENTATION (shown)), gtk_widget_get_height (GTK_WIDGET (shown)));
  g_assert_cmpfloat (ws_presentation_get_text_px (WS_PRESENTATION (shown)), >=,
                     14.0 * gtk_widget_get_height (GTK_WIDGET (shown)) / 1080.0 - 0.05);
  g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (shown), GDK_KEY_Right, 0));
  /* It starts on the selected finding (the second). */
  g_assert_cmpuint (ws_presentation_get_position (WS_PRESENTATION (shown)), ==, 2);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  ws_gui_test_wait_until (style_dark, NULL, 60, "the dark style");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (shown), "findings-present-dark.png"));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  g_assert_true (ws_gui_test_press_key_in (GTK_WIDGET (shown), GDK_KEY_Escape, 0));
  ws_gui_test_wait_until (presentation_gone, NULL, 60, "the presentation to close on Escape");
}

static gboolean
span_restored (gpointer data)
{
  gpointer *restored = data;
  JsonObject *span = restored[1];

  return ws_timeline_viewport_get_begin (restored[0]) == json_object_get_int_member (span, "from_ns")
         && ws_timeline_viewport_get_end (restored[0]) == json_object_get_int_member (span, "to_ns");
}

static void
check_reopened (WsWindow   *window,
                const char *session)
{
  WsPinList *list = pins_of (window);
  WsDocument *document;
  WsTimelineViewport *viewport;
  g_autoptr(WsSessionFile) saved = ws_session_file_load (session, NULL);
  JsonObject *span = json_object_get_object_member (ws_session_file_get_view_state (saved), "timeline");

  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 3);
  g_assert_cmpstr (ws_pin_get_title (ws_pin_list_get (list, 1)), ==, "The chain behind w3");
  g_assert_cmpstr (ws_pin_get_note (ws_pin_list_get (list, 2)), ==, "Half of it is `ready`, waiting for a CPU.");
  /* The graph page's default chain metric (issue 8: the top cause). */
  g_assert_cmpstr (ws_pin_get_setting_string (ws_pin_list_get (list, 1), "chain_metric", NULL), ==,
                   ws_chain_metric_to_string (WS_CHAIN_METRIC_DEFAULT));
  g_assert_cmpint (ws_pin_get_tid (ws_pin_list_get (list, 2)), ==, 11588);

  /* The session's traces are checked by content on a worker first. */
  ws_gui_test_wait_until (has_current_document, window, 60, "the session's trace to open");
  document = ws_window_get_current_document (window);
  ws_gui_test_wait_until (document_ready, document, 60, "the session's trace to load");
  viewport = ws_document_get_viewport (document);
  {
    gpointer restored[2] = { viewport, span };

    ws_gui_test_wait_until (span_restored, restored, 60, "the session's timeline span to be restored");
  }
  g_assert_cmpint (ws_timeline_viewport_get_begin (viewport), ==, json_object_get_int_member (span, "from_ns"));
  g_assert_cmpint (ws_timeline_viewport_get_end (viewport), ==, json_object_get_int_member (span, "to_ns"));
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "findings");
}

static void
check_reports (WsFindingsPage *page,
               const char     *dir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *html = g_build_filename (dir, "report.html", NULL);
  g_autofree char *pdf = g_build_filename (dir, "report.pdf", NULL);
  g_autofree char *pdfinfo = g_find_program_in_path ("pdfinfo");

  g_assert_true (ws_findings_page_export_report (page, html, &error));
  g_assert_no_error (error);
  g_assert_true (ws_findings_page_export_report (page, pdf, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in_file (html, "<svg "), ==, 3);
  g_assert_cmpuint (count_in_file (html, "<section class=\"finding\""), ==, 3);
  g_assert_cmpuint (count_in_file (html, " src="), ==, 0);
  g_assert_cmpuint (count_in_file (html, "<strong>waits</strong>"), ==, 1);
  if (pdfinfo != NULL)
    {
      g_autofree char *out = NULL;
      const char *argv[] = { pdfinfo, pdf, NULL };

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, NULL, NULL));
      const char *pages = strstr (out, "Pages:");

      g_assert_nonnull (pages);
      /* Title page, two pages per finding, the appendix. */
      g_assert_cmpint (atoi (pages + 6), ==, 8);
    }
}

static void
test_findings (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-findings-XXXXXX", NULL);
  g_autofree char *recovery = g_build_filename (dir, "recovery", NULL);
  g_autofree char *session = g_build_filename (dir, "review.waitscope", NULL);
  g_autoptr(GFile) session_file = g_file_new_for_path (session);
  g_autoptr(GPtrArray) copies = NULL;
  WsWindow *window;
  WsFindingsPage *page;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", recovery, TRUE);
  window = new_window ();
  page = ws_window_get_findings_page (window);
  ws_gui_test_open_trace (window, trace_path);
  ws_gui_test_settle (GTK_WIDGET (window));
  /* The timeline's details, not the Overview: on the Overview, once its
   * answer is in (how soon depends on the machine), "pin view" pins the
   * attribution instead of the timeline. */
  ws_window_show_details_page (window, "details");

  pin_three (window, page);
  /* Autosave: a couple of seconds after the last change the recovery copy
   * holds all three notes, so a kill -9 now would lose nothing. */
  ws_gui_test_wait_until (recovery_has_all_pins, NULL, 30, "the autosave recovery copy");
  copies = ws_session_file_list_recoveries ();
  g_assert_cmpuint (copies->len, ==, 1);
  g_assert_cmpuint (count_in_file (g_ptr_array_index (copies, 0), "waiting for a CPU"), ==, 1);
  check_undo (window, page);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-findings", NULL);
  ws_findings_page_select (page, 1);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-list.png"));
  g_assert_true (ws_findings_page_save (page, session, NULL));
  {
    /* The saved session is in the recent list (Open Recent opens it). */
    GSettings *settings = ws_session_get_settings (ws_window_get_session (window));
    g_autofree char *uri = g_file_get_uri (session_file);

    if (settings != NULL)
      {
        g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-files");
        g_assert_true (g_strv_contains ((const char * const *) recent, uri));
      }
  }
  g_clear_pointer (&copies, g_ptr_array_unref);
  copies = ws_session_file_list_recoveries ();
  g_assert_cmpuint (copies->len, ==, 0);
  present (window, page);
  ws_gui_test_close_window (GTK_WIDGET (window));

  /* Reopened as the command line would (a .waitscope file to open). */
  window = new_window ();
  page = ws_window_get_findings_page (window);
  g_assert_null (ws_window_open_file (window, session_file));
  check_reopened (window, session);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-reopened.png"));
  check_reports (page, dir);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* ------------------------------------------------------------------ */
/* Closing with unsaved findings; a moved trace                         */

static AdwMessageDialog *
find_alert (GtkWindow  *parent,
            const char *response)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w))
          && gtk_window_get_transient_for (GTK_WINDOW (w)) == parent
          && adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (w), response))
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

typedef struct {
  GtkWindow  *parent;
  const char *response;
} AlertQuery;

static gboolean
alert_shown (gpointer data)
{
  AlertQuery *q = data;

  return find_alert (q->parent, q->response) != NULL;
}

static AdwMessageDialog *
wait_for_alert (GtkWindow  *parent,
                const char *response)
{
  AlertQuery q = { parent, response };

  ws_gui_test_wait_until (alert_shown, &q, 30, response);
  return find_alert (parent, response);
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static WsWindow *
window_with_pin (GFile *trace)
{
  WsWindow *window = new_window ();
  ws_gui_test_open_trace (window, g_file_peek_path (trace));
  select_window (window, T0, T0 + 50000000);
  pin_and_wait (window, 1);
  return window;
}

static void
test_close_asks (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) trace = g_file_new_for_path (trace_path);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-close-XXXXXX", NULL);
  g_autofree char *recovery = g_build_filename (dir, "recovery", NULL);
  g_autofree char *session = g_build_filename (dir, "close.waitscope", NULL);
  g_autoptr(GPtrArray) copies = NULL;
  AdwMessageDialog *alert;
  WsWindow *window;
  gpointer alive;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", recovery, TRUE);

  /* Cancel keeps the window; Save writes the session, then closes. */
  window = window_with_pin (trace);
  alive = window;
  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  gtk_window_close (GTK_WINDOW (window));
  alert = wait_for_alert (GTK_WINDOW (window), "discard");
  g_assert_true (adw_message_dialog_has_response (alert, "save"));
  g_assert_true (adw_message_dialog_has_response (alert, "cancel"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (alert), "findings-close-asks.png"));
  adw_message_dialog_response (alert, "cancel");
  /* The window handles the answer at once; the alert itself stays mapped
   * when answered from code rather than by its button. */
  g_assert_nonnull (alive);
  g_assert_true (ws_findings_page_save (ws_window_get_findings_page (window), session, NULL));
  ws_findings_page_set_note_text (ws_window_get_findings_page (window), "Edited after saving", "unsaved");
  gtk_window_close (GTK_WINDOW (window));
  adw_message_dialog_response (wait_for_alert (GTK_WINDOW (window), "save"), "save");
  ws_gui_test_wait_until (is_null, &alive, 30, "the window to close after saving");
  g_assert_cmpuint (count_in_file (session, "Edited after saving"), ==, 1);

  /* Discard closes and leaves no recovery copy behind. */
  window = window_with_pin (trace);
  alive = window;
  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  gtk_window_close (GTK_WINDOW (window));
  adw_message_dialog_response (wait_for_alert (GTK_WINDOW (window), "discard"), "discard");
  ws_gui_test_wait_until (is_null, &alive, 30, "the window to close after discarding");
  copies = ws_session_file_list_recoveries ();
  g_assert_cmpuint (copies->len, ==, 0);

  /* Nothing unsaved: closes at once. */
  window = new_window ();
  alive = window;
  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  gtk_window_close (GTK_WINDOW (window));
  ws_gui_test_wait_until (is_null, &alive, 30, "a window without findings to close");
}

static gboolean
document_at (gpointer data)
{
  WsWindow *window = ((gpointer *) data)[0];
  const char *path = ((gpointer *) data)[1];
  WsDocument *document = ws_window_get_current_document (window);
  g_autofree char *shown = document ? g_file_get_path (ws_document_get_file (document)) : NULL;

  return shown != NULL && g_str_equal (shown, path) && ws_document_get_state (document) == WS_DOCUMENT_READY;
}

static void
test_locate_moved_trace (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *other_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "hand-built.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-locate-XXXXXX", NULL);
  g_autofree char *first = g_build_filename (dir, "py-locks.perf.txt.gz", NULL);
  g_autofree char *sessions = g_build_filename (dir, "sessions", NULL);
  g_autofree char *session = g_build_filename (sessions, "moved.waitscope", NULL);
  g_autofree char *moved = g_build_filename (dir, "elsewhere.perf.txt.gz", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(WsSessionFile) file = ws_session_file_new ();
  g_autoptr(WsPin) pin = ws_pin_new (WS_PIN_KIND_TIMELINE);
  g_autoptr(GFile) session_file = g_file_new_for_path (session);
  g_autoptr(GFile) wrong = g_file_new_for_path (other_path);
  g_autoptr(GFile) right = g_file_new_for_path (moved);
  g_autoptr(GError) error = NULL;
  AdwMessageDialog *alert;
  WsFindingsPage *page;
  WsWindow *window;
  gsize length;
  guint index;
  gpointer query[2];

  /* A session saved with the trace in one place, the trace then moved
   * (and renamed, so the beside-the-session look-up cannot find it). */
  g_assert_true (g_file_get_contents (trace_path, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (first, contents, length, NULL));
  g_assert_cmpint (g_mkdir (sessions, 0700), ==, 0);
  g_assert_true (ws_session_file_add_trace (file, first, "py-locks", &index, &error));
  ws_pin_add_trace (pin, index);
  ws_pin_set_tid (pin, 11588);
  ws_pin_set_window (pin, T0, T0 + 50000000);
  ws_pin_set_title (pin, "Before the move");
  ws_pin_list_append (ws_session_file_get_findings (file), pin);
  g_assert_true (ws_session_file_save (file, session, &error));
  g_assert_cmpint (g_rename (first, moved), ==, 0);

  window = new_window ();
  page = ws_window_get_findings_page (window);
  g_assert_null (ws_window_open_file (window, session_file));
  alert = wait_for_alert (GTK_WINDOW (window), "locate");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (alert), "py-locks"));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (alert), "findings-locate.png"));
  /* As if Locate… was clicked: the question goes, the chooser answers. */
  gtk_window_destroy (GTK_WINDOW (alert));

  /* Another file: checked on a worker (the window stays responsive),
   * refused with a clear message, and asked again. */
  ws_findings_page_locate_trace (page, 0, wrong);
  alert = wait_for_alert (GTK_WINDOW (window), "locate");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (alert), "is not the trace “py-locks”"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (alert), "its content differs"));
  gtk_window_destroy (GTK_WINDOW (alert));

  /* The same bytes under a new name: accepted, opened, the session changed. */
  ws_findings_page_locate_trace (page, 0, right);
  query[0] = window;
  query[1] = moved;
  ws_gui_test_wait_until (document_at, query, 60, "the relocated trace to open");
  g_assert_cmpstr (ws_session_file_get_trace (ws_session_get_session_file (ws_window_get_session (window)), 0)->path,
                   ==, moved);
  g_assert_true (ws_session_file_get_dirty (ws_session_get_session_file (ws_window_get_session (window))));
  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* ------------------------------------------------------------------ */
/* The wait model and the Overview's attribution                        */

static gboolean
overview_done (gpointer data)
{
  WsOverviewPage *page = data;

  return !ws_overview_page_get_busy (page) && ws_overview_page_get_top_cause (page) != NULL;
}

typedef struct {
  WsWindow *window;
  WsDocument *document;
  guint event;
} ModelQuery;

static gboolean
scored (gpointer data)
{
  ModelQuery *q = data;
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (q->window));

  return !ws_anomaly_state_get_busy (state) && ws_anomaly_state_lookup (state, q->document, q->event) != NULL;
}

static GtkWindow *
find_model_window (void)
{
  return ws_gui_test_find_toplevel (WS_TYPE_MODEL_WINDOW);
}

static gboolean
model_shown (gpointer data)
{
  return find_model_window () != NULL;
}

static GtkButton *
find_icon_button (GtkWidget  *root,
                  const char *icon)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), icon) == 0)
    return GTK_BUTTON (root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkButton *b = find_icon_button (c, icon);
      if (b != NULL)
        return b;
    }
  return NULL;
}

/* A wait of w3 (11588) in the first second. */
static guint
a_wait (WsTrace *trace)
{
  guint thread = ws_trace_find_thread (trace, 11588);
  const WsThread *t = ws_trace_get_thread (trace, thread);

  for (guint i = 0; i < t->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[i]);
      if (e->kind == WS_EVENT_WAIT && e->time >= T0 && ws_event_duration (e) > 0)
        return t->events[i];
    }
  g_assert_not_reached ();
}

static void
test_pin_model_and_attribution (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) trace = g_file_new_for_path (trace_path);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-pins-XXXXXX", NULL);
  g_autofree char *html = g_build_filename (dir, "pins.html", NULL);
  WsWindow *window = new_window ();
  WsFindingsPage *page = ws_window_get_findings_page (window);
  WsDocument *document = ws_window_open_file (window, trace);
  WsOverviewPage *overview;
  WsPinList *list = pins_of (window);
  GtkWindow *model;
  ModelQuery q;
  PinCount two = { window, 2 };
  g_autoptr(GError) error = NULL;

  ws_gui_test_wait_until (document_ready, document, 60, "py-locks to load");

  /* The Overview's attribution, over the traces open. */
  ws_window_show_details_page (window, "overview");
  overview = WS_OVERVIEW_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE));
  ws_gui_test_wait_until (overview_done, overview, 120, "the overview");
  pin_and_wait (window, 1);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 0)), ==, WS_PIN_KIND_ATTRIBUTION);
  g_assert_cmpuint (ws_pin_get_n_traces (ws_pin_list_get (list, 0)), ==, 1);

  /* The model of one wait, pinned from the Wait Model window's button. */
  q.window = window;
  q.document = document;
  q.event = a_wait (ws_document_get_trace (document));
  ws_gui_test_wait_until (scored, &q, 120, "the anomaly scores");
  ws_timeline_viewport_set_selected_event (ws_document_get_viewport (document), q.event);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-wait-model", NULL);
  ws_gui_test_wait_until (model_shown, NULL, 30, "the wait model window");
  model = find_model_window ();
  g_signal_emit_by_name (find_icon_button (GTK_WIDGET (model), "view-pin-symbolic"), "clicked");
  ws_gui_test_wait_until (has_pins, &two, 60, "the model's pin");
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 1)), ==, WS_PIN_KIND_ANOMALY_MODEL);
  g_assert_cmpint (ws_pin_get_event (ws_pin_list_get (list, 1)), ==, q.event);
  gtk_window_destroy (model);

  /* Both redrawn in the report, in vector. */
  g_assert_true (ws_findings_page_export_report (page, html, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in_file (html, "<svg "), ==, 2);
  g_assert_cmpuint (count_in_file (html, "data-view=\"attribution\""), ==, 1);
  g_assert_cmpuint (count_in_file (html, "data-view=\"anomaly-model\""), ==, 1);

  /* One click reopens each view. */
  ws_window_show_details_page (window, "details");
  g_signal_emit_by_name (page, "show-pin", ws_pin_list_get (list, 0), trace);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "overview");
  g_signal_emit_by_name (page, "show-pin", ws_pin_list_get (list, 1), trace);
  ws_gui_test_wait_until (model_shown, NULL, 30, "the wait model window again");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (find_model_window ()), "findings-model-reopened.png"));
  gtk_window_destroy (find_model_window ());

  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* ------------------------------------------------------------------ */
/* A Mining cluster with its alignment                                  */

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_cluster_set (data) != NULL;
}

typedef struct {
  WsMiningPage *page;
  guint cluster;
  double threshold;
} ClusterShown;

static gboolean
cluster_shown (gpointer data)
{
  ClusterShown *c = data;

  return !ws_gui_test_mining_busy (c->page) && ws_mining_page_get_shown_cluster (c->page) == c->cluster &&
         ws_mining_form_get_threshold (ws_mining_page_get_form (c->page)) == c->threshold;
}

static void
test_pin_mining_cluster (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) trace = g_file_new_for_path (trace_path);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-mining-pin-XXXXXX", NULL);
  g_autofree char *html = g_build_filename (dir, "mining.html", NULL);
  WsWindow *window = new_window ();
  WsFindingsPage *page = ws_window_get_findings_page (window);
  WsDocument *document = ws_window_open_file (window, trace);
  WsMiningPage *mining = ws_window_get_mining_page (window);
  WsPinList *list = pins_of (window);
  PinCount one = { window, 1 };
  ClusterShown want = { mining, 1, 0.6 };
  g_autoptr(GError) error = NULL;
  WsPin *pin;

  ws_gui_test_wait_until (document_ready, document, 60, "py-locks to load");
  ws_window_show_details_page (window, "mining");
  ws_mining_form_set_threshold (ws_mining_page_get_form (mining), 0.6);
  /* Choices of the area of interest the pin must bring back. */
  ws_mining_form_set_threads (ws_mining_page_get_form (mining), ".");
  ws_mining_form_set_critical_path (ws_mining_page_get_form (mining), TRUE);
  ws_mining_page_run (mining);
  ws_gui_test_wait_until (mined, mining, 120, "mining");
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (mining)), >=, 2);

  /* The second cluster, pinned with the page's own Pin button. */
  g_assert_true (ws_mining_page_select_cluster_index (mining, 1));
  ws_gui_test_wait_until (cluster_shown, &want, 30, "the second cluster's alignment");
  g_signal_emit_by_name (find_icon_button (GTK_WIDGET (mining), "view-pin-symbolic"), "clicked");
  ws_gui_test_wait_until (has_pins, &one, 60, "the cluster's pin");
  pin = ws_pin_list_get (list, 0);
  g_assert_cmpstr (ws_pin_get_kind (pin), ==, WS_PIN_KIND_ALIGNMENT);
  g_assert_cmpint (ws_pin_get_setting_int (pin, "cluster", -1), ==, 1);
  g_assert_cmpint (ws_pin_get_setting_int (pin, "lambda", 0), >, 0);
  g_assert_nonnull (ws_pin_get_setting_string (pin, "cluster_signature", NULL));
  g_assert_cmpstr (ws_pin_get_setting_string (pin, "threads", NULL), ==, ".");
  g_assert_true (ws_pin_get_setting_bool (pin, "critical_path", FALSE));
  g_assert_false (ws_pin_get_setting_bool (pin, "running", TRUE));

  /* Redrawn in the report from the trace, in vector. */
  g_assert_true (ws_findings_page_export_report (page, html, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in_file (html, "data-view=\"alignment\""), ==, 1);
  g_assert_cmpuint (count_in_file (html, "<svg "), ==, 1);
  g_assert_cmpuint (count_in_file (html, "Frames in common"), ==, 1);

  /* One click reopens the page with the cluster: at once on the same run… */
  ws_mining_page_select_cluster_index (mining, 0);
  ws_window_show_details_page (window, "details");
  g_signal_emit_by_name (page, "show-pin", pin, trace);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "mining");
  ws_gui_test_wait_until (cluster_shown, &want, 30, "the pinned cluster selected");

  /* …and after mining again with the pin's settings on another run: the
   * form set back as pinned (stack kind, threads, critical path too). */
  ws_mining_form_set_threshold (ws_mining_page_get_form (mining), 0.3);
  ws_mining_page_run (mining);
  ws_gui_test_wait_until (mined, mining, 120, "mining at another threshold");
  ws_mining_form_set_threads (ws_mining_page_get_form (mining), "");
  ws_mining_form_set_critical_path (ws_mining_page_get_form (mining), FALSE);
  ws_mining_form_set_running (ws_mining_page_get_form (mining), TRUE);
  ws_window_show_details_page (window, "details");
  g_signal_emit_by_name (page, "show-pin", pin, trace);
  ws_gui_test_wait_until (cluster_shown, &want, 120, "the pin's run and cluster");
  g_assert_cmpstr (ws_mining_form_get_threads (ws_mining_page_get_form (mining)), ==, ".");
  g_assert_true (ws_mining_form_get_critical_path (ws_mining_page_get_form (mining)));
  g_assert_false (ws_mining_form_get_running (ws_mining_page_get_form (mining)));
  g_assert_cmpint (ws_mining_scope_to_run_scope (ws_mining_form_get_scope (ws_mining_page_get_form (mining))), ==,
                   ws_pin_get_setting_int (pin, "scope", -1));
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-mining-reopened.png"));

  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));
}


/* ------------------------------------------------------------------ */
/* A contrast pattern, an aggregated wait graph and a coverage chart    */

#define MS 1000000

static gboolean
contrast_ready (gpointer data)
{
  WsContrastPage *page = data;

  return !ws_contrast_page_get_busy (page) && ws_contrast_page_get_result (page) != NULL;
}

static gboolean
has_instances (gpointer data)
{
  guint nf = 0, ns = 0;

  ws_duration_histogram_count_classes (data, &nf, &ns);
  return nf + ns > 0;
}

static gboolean
coverage_ready (gpointer data)
{
  WsMiningPage *page = data;
  WsSignaturePanel *panel = ws_mining_page_get_signature_panel (page);

  return !ws_gui_test_mining_busy (page) && ws_signature_panel_get_n_signatures (panel) > 0 &&
         !ws_signature_panel_get_busy (panel);
}

typedef struct {
  WsContrastPage *page;
  WsPin          *pin;
} PatternShown;

/* The page analysed again with the pin's settings, its pattern chosen. */
static gboolean
pattern_shown (gpointer data)
{
  PatternShown *p = data;
  WsContrastResult *result = ws_contrast_page_get_result (p->page);

  return !ws_contrast_page_get_busy (p->page) && result != NULL &&
         ws_contrast_result_get_t_slow (result) == ws_pin_get_setting_int (p->pin, "t_slow_ns", -1) &&
         ws_contrast_page_get_selected_pattern (p->page) == ws_pin_find_contrast_pattern (p->pin, result);
}

static WsDocument *
open_data (WsWindow   *window,
           const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsDocument *document = ws_window_open_file (window, file);

  ws_gui_test_wait_until (document_ready, document, 60, name);
  return document;
}

/* Analyses the pg pair on the Contrast page and pins its first pattern
 * (Ctrl+D) and AWG_slow (the page's pin menu). */
static void
pin_contrast_views (WsWindow *window)
{
  WsContrastPage *contrast = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  GtkWidget *histogram = ws_gui_test_find_child (GTK_WIDGET (contrast), WS_TYPE_DURATION_HISTOGRAM);
  PinCount two = { window, 2 };

  ws_window_show_details_page (window, "contrast");
  ws_contrast_page_set_scenario (contrast, "transaction");
  ws_gui_test_wait_until (has_instances, histogram, 30, "the transactions of both traces");
  ws_contrast_page_set_thresholds (contrast, 40 * MS, 120 * MS);
  ws_contrast_page_set_component (contrast, "postgres");
  ws_contrast_page_set_impact_components (contrast, "LockAcquire|ProcSleep");
  ws_contrast_page_run (contrast);
  ws_gui_test_wait_until (contrast_ready, contrast, 120, "the contrast analysis");
  g_assert_cmpuint (ws_contrast_page_get_selected_pattern (contrast), ==, 0);
  /* Typed after the run: the pin keeps what the result was made with. */
  ws_contrast_page_set_impact_components (contrast, "");
  pin_and_wait (window, 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pin-contrast", "s", "slow");
  ws_gui_test_wait_until (has_pins, &two, 60, "the AWG's pin");
}

/* Mines the pair, marks the first cluster with a common part as a
 * signature and pins the coverage chart from the Coverage tab. */
static void
pin_coverage (WsWindow *window)
{
  WsMiningPage *mining = ws_window_get_mining_page (window);
  PinCount three = { window, 3 };
  gboolean marked = FALSE;

  ws_window_show_details_page (window, "mining");
  ws_mining_page_set_rank (mining, WS_CLUSTER_RANK_AVERAGE);   /* not the default */
  ws_mining_page_run (mining);
  ws_gui_test_wait_until (mined, mining, 120, "mining the pair");
  for (guint c = 0; !marked && c < ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (mining)); c++)
    if (ws_mining_page_select_cluster_index (mining, c))   /* shows its alignment at once */
      marked = ws_mining_page_mark_signature (mining);
  g_assert_true (marked);
  ws_mining_page_show_detail (mining, "coverage");
  ws_gui_test_wait_until (coverage_ready, mining, 120, "the coverage curves");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pin-view", NULL);
  ws_gui_test_wait_until (has_pins, &three, 60, "the coverage chart's pin");
}

static void
check_contrast_pins (WsPinList *list)
{
  WsPin *pattern = ws_pin_list_get (list, 0), *awg = ws_pin_list_get (list, 1), *coverage = ws_pin_list_get (list, 2);

  g_assert_cmpstr (ws_pin_get_kind (pattern), ==, WS_PIN_KIND_CONTRAST);
  g_assert_cmpuint (ws_pin_get_n_traces (pattern), ==, 2);
  g_assert_cmpstr (ws_pin_get_setting_string (pattern, "scenario", NULL), ==, "transaction");
  g_assert_cmpstr (ws_pin_get_setting_string (pattern, "component", NULL), ==, "postgres");
  g_assert_cmpint (ws_pin_get_setting_int (pattern, "t_fast_ns", 0), ==, 40 * MS);
  g_assert_cmpint (ws_pin_get_setting_int (pattern, "t_slow_ns", 0), ==, 120 * MS);
  g_assert_nonnull (strstr (ws_pin_get_setting_string (pattern, "pattern_tuple", ""), "DiskService"));
  g_assert_cmpstr (ws_pin_get_setting_string (pattern, "impact_components", NULL), ==, "LockAcquire|ProcSleep");
  g_assert_cmpstr (ws_pin_get_kind (awg), ==, WS_PIN_KIND_AWG);
  g_assert_cmpstr (ws_pin_get_setting_string (awg, "class", NULL), ==, "slow");
  g_assert_cmpstr (ws_pin_get_kind (coverage), ==, WS_PIN_KIND_COVERAGE);
  g_assert_cmpuint (ws_pin_get_n_signatures (coverage), ==, 1);
  g_assert_cmpint (ws_pin_get_setting_int (coverage, "lambda", 0), >, 0);
  g_assert_cmpint (ws_pin_get_setting_int (coverage, "rank", -1), ==, WS_CLUSTER_RANK_AVERAGE);
  g_assert_cmpint (ws_pin_get_setting_int (coverage, "linkage", -1), ==, WS_LINKAGE_AVERAGE);
}

static void
check_contrast_reports (WsFindingsPage *page,
                        const char     *dir)
{
  g_autofree char *html = g_build_filename (dir, "contrast.html", NULL);
  g_autofree char *pdf = g_build_filename (dir, "contrast.pdf", NULL);
  g_autofree char *pdfinfo = g_find_program_in_path ("pdfinfo");
  g_autoptr(GError) error = NULL;

  g_assert_true (ws_findings_page_export_report (page, html, &error));
  g_assert_no_error (error);
  g_assert_true (ws_findings_page_export_report (page, pdf, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in_file (html, "<svg "), ==, 3);
  g_assert_cmpuint (count_in_file (html, "data-view=\"contrast\""), ==, 1);
  g_assert_cmpuint (count_in_file (html, "data-view=\"awg\""), ==, 1);
  g_assert_cmpuint (count_in_file (html, "data-view=\"coverage\""), ==, 1);
  g_assert_cmpuint (count_in_file (html, " src="), ==, 0);
  g_assert_cmpuint (count_in_file (html, "href=\"http"), ==, 0);
  g_assert_cmpuint (count_in_file (html, "Call chains (waiting, waking it, running)"), ==, 1);
  g_assert_cmpuint (count_in_file (html, "All signatures together"), ==, 1);
  if (pdfinfo != NULL)
    {
      g_autofree char *out = NULL;
      const char *argv[] = { pdfinfo, pdf, NULL };
      const char *pages;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, NULL, NULL));
      pages = strstr (out, "Pages:");
      g_assert_nonnull (pages);
      g_assert_cmpint (atoi (pages + 6), ==, 2 + 2 * 3);
    }
}

static void
test_pin_contrast_awg_coverage (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-contrast-pins-XXXXXX", NULL);
  g_autofree char *session = g_build_filename (dir, "contrast.waitscope", NULL);
  g_autoptr(GFile) session_file = g_file_new_for_path (session);
  g_autofree char *fast_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-contrast-fast.perf.txt.gz", NULL);
  g_autoptr(GFile) fast = g_file_new_for_path (fast_path);
  WsWindow *window = new_window ();
  WsFindingsPage *page = ws_window_get_findings_page (window);
  WsContrastPage *contrast;
  WsMiningPage *mining;
  WsPinList *list;
  PatternShown shown;
  WsTime tf = 0, ts = 0;

  open_data (window, "pg-contrast-fast.perf.txt.gz");
  open_data (window, "pg-contrast-slow.perf.txt.gz");
  pin_contrast_views (window);
  pin_coverage (window);
  check_contrast_pins (pins_of (window));
  g_assert_true (ws_findings_page_save (page, session, NULL));
  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));

  /* Reopened from the file: the pins, and one click on each reopens its
   * view, analysing again with the pinned settings. */
  window = new_window ();
  page = ws_window_get_findings_page (window);
  g_assert_null (ws_window_open_file (window, session_file));
  list = pins_of (window);
  g_assert_cmpuint (ws_pin_list_get_n (list), ==, 3);
  check_contrast_pins (list);
  {
    g_autoptr(GListModel) documents = G_LIST_MODEL (g_object_ref (ws_window_get_documents (window)));

    /* Opened once checked by content, on a worker. */
    ws_gui_test_wait_until (has_two_documents, window, 60, "the session's traces to open");
    for (guint i = 0; i < g_list_model_get_n_items (documents); i++)
      {
        g_autoptr(WsDocument) document = g_list_model_get_item (documents, i);
        ws_gui_test_wait_until (document_ready, document, 60, "the session's traces");
      }
  }
  contrast = WS_CONTRAST_PAGE (ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_CONTRAST_PAGE));
  shown = (PatternShown) { contrast, ws_pin_list_get (list, 0) };
  g_signal_emit_by_name (page, "show-pin", shown.pin, fast);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "contrast");
  ws_gui_test_wait_until (pattern_shown, &shown, 120, "the pinned pattern analysed again and chosen");
  ws_duration_histogram_get_thresholds (WS_DURATION_HISTOGRAM (ws_gui_test_find_child (GTK_WIDGET (contrast), WS_TYPE_DURATION_HISTOGRAM)),
                                        &tf, &ts);
  g_assert_cmpint (tf, ==, 40 * MS);
  g_assert_cmpint (ts, ==, 120 * MS);
  /* Issue 14: the impact table's components come back with the pin. */
  g_assert_cmpstr (ws_contrast_page_get_result_impact_components (contrast), ==, "LockAcquire|ProcSleep");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-contrast-reopened.png"));

  ws_window_show_details_page (window, "findings");
  g_signal_emit_by_name (page, "show-pin", ws_pin_list_get (list, 1), fast);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "contrast");
  g_assert_false (ws_contrast_page_get_busy (contrast));   /* the same run: not analysed again */

  mining = ws_window_get_mining_page (window);
  ws_mining_page_set_rank (mining, WS_CLUSTER_RANK_TOTAL);
  g_signal_emit_by_name (page, "show-pin", ws_pin_list_get (list, 2), fast);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "mining");
  g_assert_cmpstr (ws_mining_page_get_detail (mining), ==, "coverage");
  ws_gui_test_wait_until (coverage_ready, mining, 180, "the pinned coverage chart");
  g_assert_cmpuint (ws_signature_panel_get_n_signatures (ws_mining_page_get_signature_panel (mining)), ==, 1);
  /* Issue 14: and the ranking the pinned run was made with. */
  g_assert_cmpint (ws_mining_page_get_rank (mining), ==, WS_CLUSTER_RANK_AVERAGE);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-coverage-reopened.png"));
  ws_mining_page_set_rank (mining, WS_CLUSTER_RANK_TOTAL);

  check_contrast_reports (page, dir);
  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* ------------------------------------------------------------------ */
/* A click selects, an explicit request opens                           */

static char *
buffer_text (GtkTextView *view)
{
  GtkTextIter a, b;

  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (view), &a, &b);
  return gtk_text_buffer_get_text (gtk_text_view_get_buffer (view), &a, &b, FALSE);
}

static gboolean
on_graph_page (gpointer data)
{
  return g_strcmp0 (ws_window_get_details_page (data), "graph") == 0;
}

static GtkWidget *
find_label_button (GtkWidget  *root,
                   const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_button (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
click_middle (GtkWidget *widget,
              guint      n_press)
{
  g_assert_true (ws_gui_test_real_click (widget, gtk_widget_get_width (widget) / 2.0,
                                         gtk_widget_get_height (widget) / 2.0, n_press));
}

/* A single click on a finding used to open its view: the window jumped to
 * the Graph tab and the note being typed went on into the ready tree's
 * Depth spin button.  Real clicks and keys (XTEST): a click selects and
 * leaves the keyboard focus in the note, the note typed so far is kept
 * and typing goes on into the newly selected finding's note; a double
 * click, Enter or the Open button open it.  The session's title, typed in
 * its row, is the report's cover title. */
static void
test_click_selects (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) trace = g_file_new_for_path (trace_path);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-click-XXXXXX", NULL);
  g_autofree char *html = g_build_filename (dir, "cover.html", NULL);
  WsWindow *window = new_window ();
  WsFindingsPage *page = ws_window_get_findings_page (window);
  WsDocument *document = ws_window_open_file (window, trace);
  WsPinList *list = pins_of (window);
  GtkListBox *rows;
  GtkTextView *note;
  GtkWidget *title, *open;
  g_autofree char *typed = NULL;

  ws_gui_test_wait_until (document_ready, document, 60, "py-locks to load");
  ws_window_show_details_page (window, "details");
  select_window (window, T0, T0 + 50000000);
  pin_and_wait (window, 1);
  select_window (window, T0, T0 + 1000000000);
  pin_graph (window, "win.show-ready-tree");
  pin_and_wait (window, 2);
  g_assert_cmpstr (ws_pin_get_kind (ws_pin_list_get (list, 1)), ==, WS_PIN_KIND_READY_TREE);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-findings", NULL);
  ws_gui_test_wait_mapped (GTK_WIDGET (page), "the findings page");
  rows = GTK_LIST_BOX (ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_LIST_BOX));
  note = GTK_TEXT_VIEW (ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_TEXT_VIEW));
  ws_findings_page_select (page, 0);
  gtk_widget_grab_focus (GTK_WIDGET (note));
  if (!ws_gui_test_real_type (GTK_WIDGET (note), "lock order"))
    {
      g_test_skip ("no X display with XTEST to click and type with");
      ws_findings_page_discard (page);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  typed = buffer_text (note);
  g_assert_cmpstr (typed, ==, "lock order");

  /* One click on the other finding: selected, nothing opened. */
  click_middle (GTK_WIDGET (gtk_list_box_get_row_at_index (rows, 1)), 1);
  g_assert_true (gtk_list_box_get_selected_row (rows) == gtk_list_box_get_row_at_index (rows, 1));
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "findings");
  g_assert_cmpstr (ws_pin_get_note (ws_pin_list_get (list, 0)), ==, "lock order");
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (note));
  g_assert_true (ws_gui_test_real_type (GTK_WIDGET (note), "w2 first"));
  g_clear_pointer (&typed, g_free);
  typed = buffer_text (note);
  g_assert_cmpstr (typed, ==, "w2 first");
  /* A second click on the selected finding changes nothing either. */
  click_middle (GTK_WIDGET (gtk_list_box_get_row_at_index (rows, 1)), 1);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "findings");
  g_assert_cmpstr (ws_pin_get_note (ws_pin_list_get (list, 1)), ==, "w2 first");
  g_assert_cmpstr (ws_pin_get_note (ws_pin_list_get (list, 0)), ==, "lock order");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "findings-click-selects.png"));

  /* The title row: typed into, it is the report's cover title. */
  title = ws_gui_test_find_named (GTK_WIDGET (page), "session-title");
  g_assert_nonnull (title);
  click_middle (title, 1);
  g_assert_true (ws_gui_test_real_type (title, "lock convoy in py locks"));
  g_assert_cmpstr (ws_session_file_get_title (ws_session_get_session_file (ws_window_get_session (window))), ==,
                   "lock convoy in py locks");
  g_assert_true (ws_findings_page_export_report (page, html, NULL));
  g_assert_cmpuint (count_in_file (html, "lock convoy in py locks"), >=, 1);
  g_assert_cmpuint (count_in_file (html, "Waitscope findings"), ==, 0);

  /* Opening is explicit: a double click… */
  click_middle (GTK_WIDGET (gtk_list_box_get_row_at_index (rows, 1)), 2);
  ws_gui_test_wait_until (on_graph_page, window, 60, "the double-clicked finding's ready tree");
  /* …Enter on the finding… */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-findings", NULL);
  ws_gui_test_wait_mapped (GTK_WIDGET (page), "the findings page");
  gtk_widget_grab_focus (GTK_WIDGET (gtk_list_box_get_row_at_index (rows, 1)));
  g_assert_true (ws_gui_test_real_type (GTK_WIDGET (rows), "\n"));
  ws_gui_test_wait_until (on_graph_page, window, 60, "the finding opened with Enter");
  /* …or the Open button. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-findings", NULL);
  ws_gui_test_wait_mapped (GTK_WIDGET (page), "the findings page");
  open = find_label_button (GTK_WIDGET (page), "_Open");
  g_assert_nonnull (open);
  g_assert_true (gtk_widget_get_mapped (open) && gtk_widget_is_sensitive (open));
  click_middle (open, 1);
  ws_gui_test_wait_until (on_graph_page, window, 60, "the finding opened with its button");

  /* File choosers open beside the trace, then beside the saved session,
   * not in the process's working directory. */
  {
    g_autoptr(GFile) start = ws_chooser_start_folder (GTK_WIDGET (page));
    g_autoptr(GFile) trace_dir = g_file_get_parent (trace);
    g_autofree char *saved = g_build_filename (dir, "click.waitscope", NULL);
    g_autoptr(GFile) dir_file = g_file_new_for_path (dir);

    g_assert_true (g_file_equal (start, trace_dir));
    g_assert_true (ws_findings_page_save (page, saved, NULL));
    g_clear_object (&start);
    start = ws_chooser_start_folder (GTK_WIDGET (page));
    g_assert_true (g_file_equal (start, dir_file));
  }

  ws_findings_page_discard (page);
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The Findings page, a page of the lower pane like the others, at the
 * two sizes people use: its tab, the finding's row and its editor shown. */
static void
test_sizes (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-findings-XXXXXX", NULL);
  g_autofree char *recovery = g_build_filename (dir, "recovery", NULL);
  static const int sizes[][2] = { { 1280, 720 }, { 1920, 1080 } };

  g_setenv ("WAITSCOPE_RECOVERY_DIR", recovery, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
      WsFindingsPage *page = ws_window_get_findings_page (window);
      GtkListBox *rows = GTK_LIST_BOX (ws_gui_test_find_child (GTK_WIDGET (page), GTK_TYPE_LIST_BOX));
      g_autofree char *name = g_strdup_printf ("findings-%dx%d.png", sizes[i][0], sizes[i][1]);
      GtkWidget *row;

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
      gtk_window_present (GTK_WINDOW (window));
      ws_gui_test_open_trace (window, trace_path);
      ws_window_show_details_page (window, "details");
      select_window (window, T0, T0 + 50000000);
      pin_and_wait (window, 1);
      ws_findings_page_set_note_text (page, "Workers take turns", "Each *worker* runs, then **waits** on the lock.");
      gtk_widget_activate_action (GTK_WIDGET (window), "win.show-findings", NULL);
      ws_gui_test_wait_mapped (GTK_WIDGET (page), "the findings page");
      g_assert_cmpstr (ws_window_get_details_page (window), ==, "findings");
      ws_findings_page_select (page, 0);
      row = GTK_WIDGET (gtk_list_box_get_row_at_index (rows, 0));
      g_assert_nonnull (row);
      ws_gui_test_settle (GTK_WIDGET (window));
      g_assert_true (gtk_widget_get_mapped (row));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (page)), >, sizes[i][0] / 2);
      g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), name));
      ws_findings_page_discard (page);
      ws_gui_test_close_window (GTK_WIDGET (window));
    }
  g_unsetenv ("WAITSCOPE_RECOVERY_DIR");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/findings/pin-save-reopen-present-export", test_findings);
  g_test_add_func ("/gui/findings/close-asks-to-save", test_close_asks);
  g_test_add_func ("/gui/findings/locate-moved-trace", test_locate_moved_trace);
  g_test_add_func ("/gui/findings/pin-model-and-attribution", test_pin_model_and_attribution);
  g_test_add_func ("/gui/findings/pin-mining-cluster", test_pin_mining_cluster);
  g_test_add_func ("/gui/findings/pin-contrast-awg-coverage", test_pin_contrast_awg_coverage);
  g_test_add_func ("/gui/findings/click-selects-keeps-note", test_click_selects);
  g_test_add_func ("/gui/findings/sizes", test_sizes);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
