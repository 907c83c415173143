/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pinned view of a fleet ranked by what slow traces have more of
 * reopens the same (issue 28), in the real window.
 *
 * Four runs of tests/data/fleet are opened as documents and given classes
 * (two fast, two slow); the Mining page ranks them by the discriminative
 * score and its first cluster is pinned with the page's Pin button.  The
 * oracle is the window's own rows at that moment (the ranked clusters,
 * each named by its costliest pattern's frames, as a pin names them):
 *
 * 1. The pin records the rank (discriminative) and the classes per trace.
 * 2. The session is saved: the file holds the four classes
 *    (`trace_classes`, read back by the core reader).
 * 3. The classes are changed in the window (slow and fast swapped) and the
 *    page mines again with other rows; opening the pin gives the pinned
 *    rows back, ranked by the score, with the pinned cluster selected.
 * 4. A new window opens the saved session: the traces come back with
 *    their classes, and opening the pin gives the same rows again.
 *
 * The history store is off (record-history false, a path that does not
 * exist): a history recorded by the first run would weight the later ones
 * differently, which is not what is tested here.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-application.h"
#include "ws-findings-page.h"
#include "ws-gui-test-util.h"
#include "ws-mining-page.h"
#include "ws-mining-request.h"
#include "ws-pin-mining.h"
#include "ws-session-file.h"
#include "ws-window.h"

#define LAMBDA    1000000   /* 1 ms */
#define THRESHOLD 0.5
#define N_RUNS    4

static WsApplication *the_app;

static const char *names[N_RUNS] = { "fleet/run-01.perf.txt.gz", "fleet/run-03.perf.txt.gz",
                                     "fleet/run-07.perf.txt.gz", "fleet/run-02.perf.txt.gz" };
static const WsRunClass given[N_RUNS] = { WS_RUN_CLASS_FAST, WS_RUN_CLASS_SLOW, WS_RUN_CLASS_SLOW,
                                          WS_RUN_CLASS_FAST };

/* The rows shown: each ranked cluster's costliest pattern, one a line. */
static char *
rows_of (WsMiningPage *page)
{
  WsMiningShown *shown = ws_mining_page_get_shown (page);
  GString *rows = g_string_new (NULL);

  g_assert_nonnull (shown);
  for (guint i = 0; i < ws_cluster_set_get_n_clusters (shown->clusters); i++)
    {
      g_autofree char *signature = ws_mining_cluster_signature (shown->run, i);

      g_string_append_printf (rows, "%u: %s\n", i, signature);
    }
  return g_string_free (rows, FALSE);
}

static gboolean
mined (gpointer data)
{
  return !ws_gui_test_mining_busy (data) && ws_gui_test_mining_cluster_set (data) != NULL;
}

typedef struct {
  WsMiningPage *page;
  WsClusterSet *before;
} Remined;

static gboolean
remined (gpointer data)
{
  Remined *r = data;
  WsClusterSet *now = ws_gui_test_mining_cluster_set (r->page);

  return !ws_gui_test_mining_busy (r->page) && now != NULL && now != r->before;
}

typedef struct {
  WsMiningPage *page;
  WsClusterSet *before;
  guint         cluster;
} Reopened;

/* Mined again since @before, with the pinned cluster selected. */
static gboolean
reopened (gpointer data)
{
  Reopened *r = data;

  return remined (&(Remined) { r->page, r->before }) && ws_mining_page_get_shown_cluster (r->page) == r->cluster;
}

static gboolean
has_pin (gpointer window)
{
  return ws_pin_list_get_n (ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window)))) > 0;
}

static gboolean
documents_ready (gpointer window)
{
  GListModel *documents = ws_session_get_documents (ws_window_get_session (window));
  guint n = g_list_model_get_n_items (documents);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsDocument) d = g_list_model_get_item (documents, i);

      if (ws_document_get_state (d) != WS_DOCUMENT_READY)
        return FALSE;
    }
  return n == N_RUNS;
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

/* Opens @pin as a double click in the Findings list does, and waits for
 * the page to mine again and select its cluster. */
static void
open_pin (WsWindow   *window,
          WsPin      *pin,
          const char *what)
{
  WsMiningPage *page = ws_window_get_mining_page (window);
  WsFindingsPage *findings = ws_window_get_findings_page (window);
  g_autoptr(GFile) first = ws_findings_page_dup_pin_trace (findings, pin, 0);
  Reopened r = { page, ws_gui_test_mining_cluster_set (page), 0 };

  ws_window_show_details_page (window, "details");
  g_signal_emit_by_name (findings, "show-pin", pin, first);
  g_assert_cmpstr (ws_window_get_details_page (window), ==, "mining");
  ws_gui_test_wait_until (reopened, &r, 180, what);
  ws_gui_test_settle (GTK_WIDGET (page));
}

static void
test_fleet_pin (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-fleet-pin-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "no-history.sqlite", NULL);
  g_autofree char *session_path = g_build_filename (dir, "fleet.waitscope", NULL);
  g_autofree char *pinned_rows = NULL, *swapped_rows = NULL, *rows = NULL;
  GSettings *settings = ws_application_get_settings (the_app);
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;   /* the traces' files, which outlive the first window */
  WsRunClass swapped[N_RUNS];
  g_autoptr(WsSessionFile) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) session_file = NULL;
  WsWindow *window;
  WsMiningPage *page;
  WsClusterSet *before;
  JsonArray *pinned_classes;
  WsPin *pin;

  g_settings_set_boolean (settings, "record-history", FALSE);
  window = ws_gui_test_new_mining_window (the_app, history, LAMBDA, THRESHOLD);
  page = ws_window_get_mining_page (window);
  for (guint i = 0; i < N_RUNS; i++)
    g_strv_builder_add (kept, ws_trace_get_path (ws_document_get_trace (ws_gui_test_open_trace (window, names[i]))));
  paths = g_strv_builder_end (kept);
  ws_run_classes_set_many (ws_session_get_run_classes (ws_window_get_session (window)), (const char * const *) paths,
                           given, N_RUNS);
  ws_window_show_details_page (window, "mining");
  ws_mining_page_run (page);
  ws_gui_test_wait_until (mined, page, 180, "the four runs mined with their classes");
  g_assert_cmpint (ws_mining_page_get_shown (page)->rank, ==, WS_CLUSTER_RANK_DISCRIMINATIVE);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (ws_gui_test_mining_cluster_set (page)), >=, 2);
  pinned_rows = rows_of (page);

  /* 1. The first cluster, pinned with the page's Pin button. */
  g_assert_true (ws_mining_page_select_cluster_index (page, 0));
  ws_gui_test_settle (GTK_WIDGET (page));
  g_signal_emit_by_name (find_icon_button (GTK_WIDGET (page), "view-pin-symbolic"), "clicked");
  ws_gui_test_wait_until (has_pin, window, 60, "the cluster's pin");
  pin = ws_pin_list_get (ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window))), 0);
  g_assert_cmpstr (ws_pin_get_kind (pin), ==, WS_PIN_KIND_ALIGNMENT);
  g_assert_cmpint (ws_pin_get_setting_int (pin, "rank", -1), ==, WS_CLUSTER_RANK_DISCRIMINATIVE);
  g_assert_cmpuint (ws_pin_get_n_traces (pin), ==, N_RUNS);
  pinned_classes = json_object_get_array_member (ws_pin_get_settings (pin), "classes");
  g_assert_nonnull (pinned_classes);
  g_assert_cmpuint (json_array_get_length (pinned_classes), ==, N_RUNS);
  for (guint i = 0; i < N_RUNS; i++)
    g_assert_cmpstr (json_array_get_string_element (pinned_classes, i), ==, ws_run_class_to_string (given[i]));

  /* 2. Saved: the file holds each trace's class, by the session's index. */
  g_assert_true (ws_findings_page_save (ws_window_get_findings_page (window), session_path, &error));
  g_assert_no_error (error);
  saved = ws_session_file_load (session_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_file_get_n_traces (saved), ==, N_RUNS);
  for (guint i = 0; i < N_RUNS; i++)
    {
      guint index = ws_session_file_find_trace (saved, paths[i]);
      WsRunClass klass = WS_RUN_CLASS_NONE;

      g_assert_cmpuint (index, <, N_RUNS);
      g_assert_true (ws_session_file_get_trace_class (saved, index, &klass));
      g_assert_cmpint (klass, ==, given[i]);
    }

  /* 3. Other classes give other rows; the pin brings its own back. */
  for (guint i = 0; i < N_RUNS; i++)
    swapped[i] = given[i] == WS_RUN_CLASS_SLOW ? WS_RUN_CLASS_FAST : WS_RUN_CLASS_SLOW;
  before = ws_gui_test_mining_cluster_set (page);
  ws_run_classes_set_many (ws_session_get_run_classes (ws_window_get_session (window)), (const char * const *) paths,
                           swapped, N_RUNS);
  ws_gui_test_wait_until (remined, &(Remined) { page, before }, 180, "the runs mined with the classes swapped");
  swapped_rows = rows_of (page);
  g_assert_cmpstr (swapped_rows, !=, pinned_rows);
  open_pin (window, pin, "the pin reopened over the swapped classes");
  rows = rows_of (page);
  g_assert_cmpstr (rows, ==, pinned_rows);
  g_assert_cmpint (ws_mining_page_get_shown (page)->rank, ==, WS_CLUSTER_RANK_DISCRIMINATIVE);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-pin-reopened.png"));
  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));

  /* 4. A new window opens the session: classes and rows as pinned. */
  window = ws_gui_test_new_mining_window (the_app, history, LAMBDA, THRESHOLD);
  page = ws_window_get_mining_page (window);
  session_file = g_file_new_for_path (session_path);
  g_assert_true (ws_findings_page_open_session (ws_window_get_findings_page (window), session_file, &error));
  g_assert_no_error (error);
  ws_gui_test_wait_until (documents_ready, window, 180, "the session's four traces");
  for (guint i = 0; i < N_RUNS; i++)
    g_assert_cmpint (ws_run_classes_lookup (ws_session_get_run_classes (ws_window_get_session (window)), paths[i]),
                     ==, given[i]);
  pin = ws_pin_list_get (ws_session_file_get_findings (ws_session_get_session_file (ws_window_get_session (window))), 0);
  open_pin (window, pin, "the saved pin reopened in a new window");
  g_clear_pointer (&rows, g_free);
  rows = rows_of (page);
  g_assert_cmpstr (rows, ==, pinned_rows);
  g_assert_cmpint (ws_mining_page_get_shown (page)->rank, ==, WS_CLUSTER_RANK_DISCRIMINATIVE);
  g_object_unref (ws_gui_test_screenshot (GTK_WIDGET (window), "fleet-pin-session-reopened.png"));
  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));

  g_settings_reset (settings, "record-history");
  g_unlink (session_path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/fleet-pin/save-reload-reopen", test_fleet_pin);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
