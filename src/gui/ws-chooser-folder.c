/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where a file chooser opens.  Left to itself it opened in the process's
 * working directory (wherever waitscope was started from); the user's
 * files are beside the session, or beside the trace being read.
 */
#include "config.h"

#include "ws-chooser-folder.h"
#include "ws-window.h"

static GFile *
parent_of (const char *path)
{
  g_autofree char *dir = path != NULL ? g_path_get_dirname (path) : NULL;

  return dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR) ? g_file_new_for_path (dir) : NULL;
}

/**
 * ws_chooser_start_folder:
 * @from: a widget of a window
 *
 * Returns: (transfer full): the saved session's folder, else the current
 *   trace's, else the user's documents (or home) folder
 */
GFile *
ws_chooser_start_folder (GtkWidget *from)
{
  GtkRoot *root = from != NULL ? gtk_widget_get_root (from) : NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  GFile *folder = NULL;

  if (WS_IS_WINDOW (root))
    {
      WsWindow *window = WS_WINDOW (root);
      WsSessionFile *session = ws_session_get_session_file (ws_window_get_session (window));
      WsDocument *document = ws_window_get_current_document (window);

      if (session != NULL)
        folder = parent_of (ws_session_file_get_path (session));
      if (folder == NULL && document != NULL && ws_document_get_trace (document) != NULL)
        folder = parent_of (ws_trace_get_path (ws_document_get_trace (document)));
    }
  if (folder == NULL && documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    folder = g_file_new_for_path (documents);
  return folder != NULL ? folder : g_file_new_for_path (g_get_home_dir ());
}

void
ws_chooser_set_start_folder (GtkFileChooser *chooser,
                             GtkWidget      *from)
{
  g_autoptr(GFile) folder = ws_chooser_start_folder (from);

  gtk_file_chooser_set_current_folder (chooser, folder, NULL);
}
