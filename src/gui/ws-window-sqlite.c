/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Export as SQLite Database…": the shown trace written by the core's
 * ws_trace_db_save() (the same as `waitscope-cli export-sqlite`), in a
 * worker thread, since a big trace takes seconds; the toast says when it
 * is written.  The database's schema is docs/sql.md.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-chooser-folder.h"
#include "ws-document.h"
#include "ws-trace-db.h"
#include "ws-window-private.h"
#include "ws-window-sqlite.h"
#include "ws-worker.h"

/* Everything the thread reads: its own reference to the trace, the path. */
typedef struct {
  WsTrace *trace;
  char    *path;
} ExportJob;

static void
export_job_free (gpointer data)
{
  ExportJob *job = data;

  g_object_unref (job->trace);
  g_free (job->path);
  g_free (job);
}

static void
export_in_thread (GTask        *task,
                  gpointer      source,
                  gpointer      data,
                  GCancellable *cancellable)
{
  ExportJob *job = data;
  GError *error = NULL;

  if (ws_trace_db_save (job->trace, job->path, cancellable, NULL, NULL, &error))
    g_task_return_pointer (task, g_path_get_basename (job->path), g_free);
  else
    g_task_return_error (task, error);
}

static void
export_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  data)
{
  WsWindow *self = WS_WINDOW (owner);
  g_autofree char *name = result;
  g_autofree char *message = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    ws_window_show_toast (self, error->message);
  else
    {
      /* Translators: toast once the database is written; %s is its file name */
      message = g_strdup_printf (_("Exported “%s”"), name);
      ws_window_show_toast (self, message);
    }
}

/**
 * ws_window_export_sqlite:
 * @path: the database file to write (replaced only once complete)
 *
 * Writes the shown trace as an SQLite database in a worker thread, as
 * "Export as SQLite Database…" does once a file is chosen; a toast says
 * how it went.  ws_window_get_exporting_sqlite() is true until then.
 *
 * Returns: %FALSE with @error set if no trace is shown
 */
gboolean
ws_window_export_sqlite (WsWindow    *self,
                         const char  *path,
                         GError     **error)
{
  ExportJob *job;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!_ws_window_is_ready (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No trace is shown"));
      return FALSE;
    }
  if (self->sqlite_export == NULL)
    self->sqlite_export = ws_worker_new ();
  job = g_new0 (ExportJob, 1);
  job->trace = g_object_ref (ws_document_get_trace (self->current));
  job->path = g_strdup (path);
  ws_worker_run (self->sqlite_export, self, job, export_job_free, export_in_thread, export_done);
  return TRUE;
}

/**
 * ws_window_get_exporting_sqlite:
 *
 * Returns: whether a database is being written
 */
gboolean
ws_window_get_exporting_sqlite (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  return self->sqlite_export != NULL && ws_worker_get_busy (self->sqlite_export);
}

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             WsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        ws_window_show_toast (self, _("Only local files can be written"));
      else if (!ws_window_export_sqlite (self, path, &error))
        ws_window_show_toast (self, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_sqlite_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (!_ws_window_is_ready (self))
    return;
  name = g_strdup_printf ("%s.db", ws_document_get_title (self->current));
  chooser = gtk_file_chooser_native_new (_("Export as SQLite Database"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("SQLite databases"));
  gtk_file_filter_add_pattern (filter, "*.db");
  gtk_file_filter_add_pattern (filter, "*.sqlite");
  gtk_file_filter_add_mime_type (filter, "application/vnd.sqlite3");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (chooser), widget);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_ws_window_sqlite_dispose (WsWindow *self)
{
  if (self->sqlite_export != NULL)
    ws_worker_drop (self->sqlite_export);
  g_clear_object (&self->sqlite_export);
}

void
_ws_window_class_sqlite_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-sqlite", NULL, export_sqlite_action);
}
