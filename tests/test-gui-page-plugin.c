/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A page as a plug-in: a small page defined here, with a pin kind of its
 * own, joins the real window through ws_window_add_page() and nothing
 * else.  Its pin is captured by Ctrl+D's action, saved in a session file,
 * reloaded in a new window, and shown again by the page that owns the
 * kind: the window knows neither the page nor the kind.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "ws-anomaly-state.h"
#include "ws-contrast-page.h"
#include "ws-findings-page.h"
#include "ws-flame-page.h"
#include "ws-graph-page.h"
#include "ws-gui-test-util.h"
#include "ws-history-store.h"
#include "ws-mining-page.h"
#include "ws-overview-page.h"
#include "ws-page.h"
#include "ws-pivot-page.h"
#include "ws-pin-kind.h"
#include "ws-session-file.h"
#include "ws-window.h"

#define TEST_PIN_KIND "test-counter"

static WsApplication *the_app;

/* ------------------------------------------------------------------ */
/* The page: a number the user sets; a pin of it keeps the number.      */

#define WS_TYPE_TEST_PAGE (ws_test_page_get_type ())
G_DECLARE_FINAL_TYPE (WsTestPage, ws_test_page, WS, TEST_PAGE, WsPage)

struct _WsTestPage
{
  WsPage          parent_instance;
  GtkSpinButton  *counter;
  guint           sessions_seen;   /* session_changed calls */
  WsSession      *hook_old;        /* what the last call was given (not owned) */
  WsSession      *hook_new;
  WsSession      *hook_current;    /* ws_page_get_session() during the call */
  gboolean        hook_old_alive;  /* the old session still a session then */
};

G_DEFINE_FINAL_TYPE (WsTestPage, ws_test_page, WS_TYPE_PAGE)

static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsTestPage *self = WS_TEST_PAGE (page);

  self->sessions_seen++;
  self->hook_old = old_session;
  self->hook_new = session;
  self->hook_current = ws_page_get_session (page);
  self->hook_old_alive = old_session == NULL || WS_IS_SESSION (old_session);
}

static const char * const *
pin_kinds (WsPage *page)
{
  static const char * const kinds[] = { TEST_PIN_KIND, NULL };

  return kinds;
}

/* Over the trace shown, as a page's pin names the traces it spans. */
static WsPin *
capture_pin (WsPage     *page,
             const char *what,
             GPtrArray  *files,
             char      **message)
{
  WsDocument *document = ws_session_get_current_document (ws_page_get_session (page));
  WsPin *pin;

  if (document == NULL || ws_document_get_state (document) != WS_DOCUMENT_READY)
    {
      *message = g_strdup ("Open a trace first");
      return NULL;
    }
  pin = ws_pin_new (TEST_PIN_KIND);
  ws_pin_set_title (pin, "A counter");
  ws_pin_set_setting_int (pin, "counter", gtk_spin_button_get_value_as_int (WS_TEST_PAGE (page)->counter));
  g_ptr_array_add (files, g_object_ref (ws_document_get_file (document)));
  return pin;
}

static void
apply_pin (WsPage  *page,
           WsPin   *pin,
           GFile  **traces,
           guint    n_traces)
{
  gtk_spin_button_set_value (WS_TEST_PAGE (page)->counter, ws_pin_get_setting_int (pin, "counter", -1));
}

static void
ws_test_page_class_init (WsTestPageClass *klass)
{
  WsPageClass *page_class = WS_PAGE_CLASS (klass);

  page_class->session_changed = session_changed;
  page_class->pin_kinds = pin_kinds;
  page_class->capture_pin = capture_pin;
  page_class->apply_pin = apply_pin;
  ws_page_class_set_title (page_class, "Counter");
  ws_page_class_set_icon_name (page_class, "view-list-symbolic");
}

static void
ws_test_page_init (WsTestPage *self)
{
  self->counter = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1000, 1));
  gtk_widget_set_parent (GTK_WIDGET (self->counter), GTK_WIDGET (self));
}

/* Its kind, registered once per process as a page would at start-up. */
static void
register_kind (void)
{
  static const WsPinKindInfo info = { TEST_PIN_KIND, "Counter", FALSE, FALSE };

  ws_pin_kind_register (&info);
}

/* ------------------------------------------------------------------ */

static WsWindow *
new_window_with_page (WsTestPage **page)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));

  *page = g_object_new (WS_TYPE_TEST_PAGE, NULL);
  ws_window_add_page (window, WS_PAGE (*page), "counter");
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static WsPinList *
pins_of (WsWindow *window)
{
  return ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window)));
}

static gboolean
has_pin (gpointer data)
{
  return ws_pin_list_get_n (pins_of (data)) >= 1;
}

static gboolean
counter_is (gpointer data)
{
  WsTestPage *page = data;

  return gtk_spin_button_get_value_as_int (page->counter) == 42;
}

static void
test_page_pin_round_trip (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) trace = g_file_new_for_path (trace_path);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-page-plugin-XXXXXX", NULL);
  g_autofree char *session = g_build_filename (dir, "counter.waitscope", NULL);
  g_autoptr(GFile) session_file = g_file_new_for_path (session);
  g_autofree char *recovery = g_build_filename (dir, "recovery", NULL);
  GtkStack *stack;
  WsTestPage *page;
  WsWindow *window;
  WsPin *pin;

  g_setenv ("WAITSCOPE_RECOVERY_DIR", recovery, TRUE);
  register_kind ();
  window = new_window_with_page (&page);

  /* Bound once, titled by the page, a tab like the others. */
  g_assert_true (ws_page_get_session (WS_PAGE (page)) == ws_window_get_session (window));
  g_assert_cmpuint (page->sessions_seen, ==, 1);
  stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page)));
  g_assert_cmpstr (gtk_stack_page_get_title (gtk_stack_get_page (stack, GTK_WIDGET (page))), ==, "Counter");
  /* The Findings page too: a page bound and titled by the same loop. */
  {
    WsFindingsPage *findings = ws_window_get_findings_page (window);

    g_assert_true (WS_IS_PAGE (findings));
    g_assert_true (ws_page_get_session (WS_PAGE (findings)) == ws_window_get_session (window));
    g_assert_true (gtk_widget_get_parent (GTK_WIDGET (findings)) == GTK_WIDGET (stack));
    g_assert_cmpstr (gtk_stack_page_get_title (gtk_stack_get_page (stack, GTK_WIDGET (findings))), ==,
                     ws_page_get_title (WS_PAGE (findings)));
    g_assert_cmpstr (ws_page_get_title (WS_PAGE (findings)), ==, "Findings");
  }

  /* Captured by the window's own "pin view" on the page shown. */
  ws_gui_test_open_trace (window, trace_path);
  ws_window_show_details_page (window, "counter");
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "counter");
  gtk_spin_button_set_value (page->counter, 42);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.pin-view", NULL);
  ws_gui_test_wait_until (has_pin, window, 60, "the counter's pin");
  pin = ws_pin_list_get (pins_of (window), 0);
  g_assert_cmpstr (ws_pin_get_kind (pin), ==, TEST_PIN_KIND);
  g_assert_cmpint (ws_pin_get_setting_int (pin, "counter", -1), ==, 42);
  g_assert_cmpuint (ws_pin_get_n_traces (pin), ==, 1);
  g_assert_true (ws_findings_page_save (ws_window_get_findings_page (window), session, NULL));
  ws_gui_test_close_window (GTK_WIDGET (window));

  /* A new window: the session reloaded, the pin shown again by the page. */
  window = new_window_with_page (&page);
  g_assert_null (ws_window_open_file (window, session_file));
  ws_gui_test_wait_until (has_pin, window, 60, "the reloaded pin");
  pin = ws_pin_list_get (pins_of (window), 0);
  g_assert_cmpstr (ws_pin_get_kind (pin), ==, TEST_PIN_KIND);
  ws_gui_test_open_trace (window, trace_path);
  ws_window_show_details_page (window, "details");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (page->counter), ==, 0);
  g_signal_emit_by_name (ws_window_get_findings_page (window), "show-pin", pin, trace);
  ws_gui_test_wait_until (counter_is, page, 30, "the counter restored");
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "counter");
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "page-plugin-reopened.png"));

  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));
}

/* The session has one home, the page's "session" property: the hook is
 * told the session it replaces (alive until the hook returns, so it can
 * disconnect) and reads the new one from the page.  The window's seven
 * pages, handed a second session, keep no reference to the first. */
static void
test_page_session_handover (void)
{
  const GType real_pages[] = {
    WS_TYPE_OVERVIEW_PAGE, WS_TYPE_GRAPH_PAGE, WS_TYPE_MINING_PAGE,
    WS_TYPE_CONTRAST_PAGE, WS_TYPE_PIVOT_PAGE, WS_TYPE_FLAME_PAGE, WS_TYPE_FINDINGS_PAGE,
  };
  WsTestPage *page = g_object_ref_sink (g_object_new (WS_TYPE_TEST_PAGE, NULL));
  WsSession *first = ws_session_new (NULL);
  WsSession *second = ws_session_new (NULL);

  ws_page_set_session (WS_PAGE (page), first);
  g_assert_null (page->hook_old);
  g_assert_true (page->hook_new == first && page->hook_current == first);

  /* The page's reference is the last one to the first session. */
  g_object_add_weak_pointer (G_OBJECT (first), (gpointer *) &first);
  g_object_unref (first);
  g_assert_nonnull (first);
  ws_page_set_session (WS_PAGE (page), second);
  g_assert_cmpuint (page->sessions_seen, ==, 2);
  g_assert_true (page->hook_old_alive);
  g_assert_true (page->hook_new == second && page->hook_current == second);
  g_assert_null (first);   /* released after the hook */

  ws_page_set_session (WS_PAGE (page), second);   /* the same: no call */
  g_assert_cmpuint (page->sessions_seen, ==, 2);
  ws_page_set_session (WS_PAGE (page), NULL);
  g_assert_true (page->hook_old == second && page->hook_new == NULL && page->hook_current == NULL);
  g_object_unref (page);

  for (guint i = 0; i < G_N_ELEMENTS (real_pages); i++)
    {
      WsPage *real = g_object_ref_sink (g_object_new (real_pages[i], NULL));
      WsSession *old = ws_session_new (NULL);

      ws_page_set_session (real, old);
      ws_page_set_session (real, second);
      g_assert_true (ws_page_get_session (real) == second);
      g_object_add_weak_pointer (G_OBJECT (old), (gpointer *) &old);
      g_object_unref (old);
      if (old != NULL)
        g_error ("%s keeps the session it was given before", g_type_name (real_pages[i]));
      g_object_unref (real);
    }
  g_object_unref (second);
}

typedef struct {
  WsAnomalyState *state;
  WsDocument     *document;
} Scored;

/* Recorded in the store and scored by the anomaly models. */
static gboolean
recorded_and_scored (gpointer data)
{
  Scored *s = data;

  return !ws_document_get_recording (s->document) && !ws_anomaly_state_get_busy (s->state)
         && ws_anomaly_state_find_trace (s->state, s->document) != WS_NONE;
}

/* The window sets its session's history store once, to the default one
 * ($WAITSCOPE_HISTORY here), and every reader follows that one value: a
 * trace opened is recorded there and a wait flagged is saved there, also
 * when a store is chosen after the window was made. */
static void
test_one_history_store (void)
{
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-history-path-XXXXXX", NULL);
  g_autofree char *chosen = g_build_filename (dir, "chosen.sqlite", NULL);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GError) error = NULL;
  WsTestPage *page;
  WsWindow *window = new_window_with_page (&page);
  WsSession *session = ws_window_get_session (window);
  Scored s;
  guint event = WS_NONE;
  WsTrace *trace;

  g_assert_nonnull (g_getenv ("WAITSCOPE_HISTORY"));
  g_assert_cmpstr (ws_session_get_history_path (session), ==, g_getenv ("WAITSCOPE_HISTORY"));
  g_assert_cmpstr (ws_session_get_history_path (ws_page_get_session (WS_PAGE (page))), ==,
                   g_getenv ("WAITSCOPE_HISTORY"));

  ws_session_set_history_path (session, chosen);
  s.state = ws_session_get_anomaly_state (session);
  s.document = ws_gui_test_open_trace (window, trace_path);
  ws_gui_test_wait_until (recorded_and_scored, &s, 120, "the trace recorded and scored");
  g_assert_null (ws_document_get_history_error (s.document));

  /* Recorded in the chosen store, not in the default one. */
  store = ws_history_store_open_read_only (chosen, &error);
  g_assert_no_error (error);
  g_assert_true (ws_history_store_has_trace (store, ws_document_get_digest (s.document)));
  g_clear_object (&store);

  /* A flag goes to the chosen store too. */
  trace = ws_document_get_trace (s.document);
  for (guint e = 0; e < ws_trace_get_n_events (trace) && event == WS_NONE; e++)
    if (ws_anomaly_state_lookup (s.state, s.document, e) != NULL)
      event = e;
  g_assert_cmpuint (event, !=, WS_NONE);
  g_assert_true (ws_anomaly_state_flag (s.state, s.document, event, WS_ANOMALY_FLAG_NORMAL, &error));
  g_assert_no_error (error);
  store = ws_history_store_open_read_only (chosen, &error);
  g_assert_no_error (error);
  flags = ws_history_store_list_flags (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (flags->len, ==, 1);
  g_assert_cmpstr (g_array_index (flags, WsAnomalyRecord, 0).trace_digest, ==, ws_document_get_digest (s.document));

  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));
  g_clear_object (&store);
  g_remove (chosen);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/page-plugin/pin-round-trip", test_page_pin_round_trip);
  g_test_add_func ("/gui/page-plugin/session-handover", test_page_session_handover);
  g_test_add_func ("/gui/page-plugin/one-history-store", test_one_history_store);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
