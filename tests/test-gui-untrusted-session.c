/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A session from someone else, opened in the real window: its view state
 * may name the session itself (which once reopened itself until the stack
 * overflowed) or a file the session never listed (which was opened
 * without its content check).  The view is restored only onto the
 * session's own traces, checked by content; anything else is ignored.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ws-application.h"
#include "ws-findings-page.h"
#include "ws-gui-test-util.h"
#include "ws-session-file.h"
#include "ws-window.h"

static WsApplication *the_app;

static gboolean
has_document (gpointer data)
{
  return g_list_model_get_n_items (ws_window_get_documents (data)) > 0;
}

#define SPAN_FROM 1987000000000
#define SPAN_TO   1987100000000

/* A session on py-locks whose view state names @current. */
static char *
write_session (const char *dir,
               const char *name,
               const char *current)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(WsSessionFile) session = ws_session_file_new ();
  char *path = g_build_filename (dir, name, NULL);
  JsonObject *state = ws_session_file_get_view_state (session);
  JsonObject *span = json_object_new ();

  g_assert_true (ws_session_file_add_trace (session, trace, "py-locks", NULL, &error));
  json_object_set_int_member (span, "from_ns", SPAN_FROM);
  json_object_set_int_member (span, "to_ns", SPAN_TO);
  json_object_set_object_member (state, "timeline", span);
  json_object_set_string_member (state, "current_trace", current ? current : path);
  g_assert_true (ws_session_file_save (session, path, &error));
  return path;
}

static void
open_and_check (const char *session_path,
                const char *not_opened)
{
  g_autoptr(GFile) file = g_file_new_for_path (session_path);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  GListModel *documents = ws_window_get_documents (window);
  g_autoptr(WsDocument) only = NULL;
  g_autofree char *opened = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (ws_window_open_file (window, file));
  ws_gui_test_wait_until (has_document, window, 60, "the session's trace to open");
  /* The view state is restored in the same step that opens the session's
   * checked traces: a file it wrongly named would be in the list already. */
  /* The session's one trace, and nothing the view state named besides. */
  g_assert_cmpuint (g_list_model_get_n_items (documents), ==, 1);
  only = g_list_model_get_item (documents, 0);
  opened = g_file_get_path (ws_document_get_file (only));
  g_assert_true (g_str_has_suffix (opened, "py-locks.perf.txt.gz"));
  if (not_opened != NULL)
    g_assert_cmpstr (opened, !=, not_opened);
  g_assert_cmpstr (ws_session_file_get_path (ws_session_get_session_file (ws_window_get_session (window))), ==,
                   session_path);
  ws_findings_page_discard (ws_window_get_findings_page (window));
  ws_gui_test_close_window (GTK_WIDGET (window));
}

static void
test_view_names_itself (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-untrusted-XXXXXX", NULL);
  g_autofree char *path = write_session (dir, "self.waitscope", NULL);

  open_and_check (path, path);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_view_names_other_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-untrusted-XXXXXX", NULL);
  g_autofree char *other = g_build_filename (g_getenv ("WS_TEST_DATA"), "io-fsync.perf.txt.gz", NULL);
  g_autofree char *path = write_session (dir, "other.waitscope", other);

  open_and_check (path, other);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/untrusted-session/view-names-itself", test_view_names_itself);
  g_test_add_func ("/gui/untrusted-session/view-names-other-file", test_view_names_other_file);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
