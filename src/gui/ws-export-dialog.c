/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * "Save a figure": the file chooser every page's Export menu opens, and
 * the toast that says what came of it.  The pages only say how to write
 * a file of the chosen name.
 */
#include "config.h"
#include "ws-chooser-folder.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-atomic-file.h"
#include "ws-export-dialog.h"

typedef struct {
  GtkWidget    *widget;
  WsExportFunc  export_func;
  WsToastFunc   toast_func;
} Request;

static void
request_free (Request *r)
{
  g_object_unref (r->widget);
  g_free (r);
}

static void
show_toast (Request    *r,
            const char *message)
{
  GtkWidget *overlay;

  if (r->toast_func != NULL)
    {
      r->toast_func (r->widget, message);
      return;
    }
  overlay = gtk_widget_get_ancestor (r->widget, ADW_TYPE_TOAST_OVERLAY);
  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
}

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             Request         *r)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        show_toast (r, _("Only local files can be written"));
      else if (!r->export_func (r->widget, path, &error))
        show_toast (r, error->message);
      else
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *message = g_strdup_printf (_("Exported “%s”"), base);
          show_toast (r, message);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  request_free (r);
}

/**
 * ws_export_dialog_show:
 * @widget: the page exporting; kept alive until the dialog closes
 * @title: the dialog's title, e.g. "Export the Graph"
 * @suggested_name: the file name offered, with the extension of the
 *   format picked in the menu
 * @export_func: writes the file once the user chose it
 * @toast_func: (nullable): shows the outcome; %NULL for a toast in the
 *   nearest #AdwToastOverlay above @widget
 *
 * Asks where to save (a #GtkFileChooserNative, modal to @widget's
 * window), then calls @export_func and toasts "Exported “NAME”" or the
 * error's message.
 */
void
ws_export_dialog_show (GtkWidget    *widget,
                       const char   *title,
                       const char   *suggested_name,
                       WsExportFunc  export_func,
                       WsToastFunc   toast_func)
{
  GtkRoot *root;
  GtkFileChooserNative *chooser;
  Request *r;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (title != NULL && suggested_name != NULL);
  g_return_if_fail (export_func != NULL);

  root = gtk_widget_get_root (widget);
  chooser = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (chooser), widget);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested_name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  r = g_new0 (Request, 1);
  r->widget = g_object_ref (widget);
  r->export_func = export_func;
  r->toast_func = toast_func;
  g_signal_connect (chooser, "response", G_CALLBACK (response_cb), r);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/**
 * ws_export_write_text:
 *
 * Writes @text (DOT, JSON, Markdown) to @path, with an error that names
 * the file.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_export_write_text (const char  *path,
                      const char  *text,
                      GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (ws_atomic_file_set_contents (path, text, -1, FALSE, &local))
    return TRUE;
  g_set_error (error, local->domain, local->code, _("Could not write “%s”: %s"), path, local->message);
  return FALSE;
}
