/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Opening files in the window: the Open dialog (ws-trace-chooser.c), drag and drop, the recent list, and what a finished or
 * failed load tells the user.
 */
#include "config.h"

#include "ws-digest.h"

#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-trace-chooser.h"
#include "ws-window-findings.h"
#include "ws-window-anomaly.h"
#include "ws-window-private.h"

#define MAX_RECENT 10

/* Recent traces and sessions alike (app.open-recent opens either). */
void
ws_window_add_recent (WsWindow *self,
                      GFile    *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) recent = NULL;
  guint n = 1;

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (self->settings == NULL)
    return;

  old = g_settings_get_strv (self->settings, "recent-files");
  g_strv_builder_add (builder, uri);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], uri) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) recent);
}

void
_ws_window_update_recent_menu (WsWindow *self)
{
  g_auto(GStrv) recent = NULL;

  g_menu_remove_all (self->recent_section);
  if (self->settings == NULL)
    return;

  recent = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (recent[i]);
      g_autofree char *base = g_file_get_basename (file);
      /* File names are bytes; a menu label must be UTF-8. */
      g_autofree char *name = g_filename_display_name (base ? base : recent[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (name, NULL);

      g_menu_item_set_action_and_target (item, "app.open-recent", "s", recent[i]);
      g_menu_append_item (self->recent_section, item);
    }
  if (recent[0] == NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Traces"), "app.no-recent");
      g_menu_append_item (self->recent_section, item);
    }
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  WsDocument *document = WS_DOCUMENT (source);
  g_autoptr(WsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (ws_document_load_finish (document, result, &error))
    {
      ws_window_add_recent (self, ws_document_get_file (document));
      /* The first answer (ws-overview-page.c) is what a newly opened trace
       * shows under the timeline, unless a page was chosen (a reopened
       * session restores its own). */
      if (g_strcmp0 (gtk_stack_get_visible_child_name (self->details_stack), "details") == 0)
        ws_window_show_details_page (self, "overview");
      if (ws_trace_count_kind (ws_document_get_trace (document), WS_EVENT_WAIT) == 0)
        {
          /* A profile of samples alone: say what would show waits. */
          g_autofree char *text = g_strdup_printf (_("%s has CPU samples but no waits"),
                                                   ws_document_get_title (document));
          AdwToast *t = adw_toast_new (text);

          adw_toast_set_button_label (t, _("How to Record Waits"));
          adw_toast_set_action_name (t, "win.record-waits-help");
          adw_toast_set_timeout (t, 10);
          adw_toast_overlay_add_toast (self->toast_overlay, t);
        }
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
    {
      /* Translators: toast after the user cancelled loading a file */
      g_autofree char *text = g_strdup_printf (_("Stopped loading %s"), ws_document_get_title (document));
      ws_window_show_toast (self, text);
      /* A cancelled load leaves nothing worth a place in the sidebar. */
      _ws_window_close_document (self, document);
      return;
    }

  /* The message names the file and line ("FILE:LINE: …"). */
  {
    g_autofree char *heading = g_strdup_printf (_("Could Not Open %s"), ws_document_get_title (document));
    AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, error->message));

    adw_message_dialog_add_response (dialog, "close", _("_Close"));
    adw_message_dialog_set_default_response (dialog, "close");
    gtk_window_present (GTK_WINDOW (dialog));
  }
}

/**
 * ws_window_open_file:
 *
 * Starts loading @file in the background and shows it.  A file already
 * open in this window is shown again, not loaded twice.
 *
 * Returns: (transfer none): its document
 */
WsDocument *
ws_window_open_file (WsWindow *self,
                     GFile    *file)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* Command line, drag and drop, recent list: a session opens as one,
   * a digest as a fleet (ws-window-digest.c). */
  if (ws_window_findings_open_session (self, self->findings_page, file))
    return NULL;
  if (ws_digest_file_sniff (g_file_peek_path (file)))
    {
      ws_window_open_digest (self, file);
      return NULL;
    }
  return ws_window_open_trace (self, file);
}

/**
 * ws_window_open_trace:
 *
 * ws_window_open_file() for a file that must be a trace: what a session
 * names (its traces, its view) opens as a trace or fails, never as
 * another session (a session naming itself would reopen itself forever).
 *
 * Returns: (transfer none): its document
 */
WsDocument *
ws_window_open_trace (WsWindow *self,
                      GFile    *file)
{
  g_autoptr(WsDocument) document = NULL;
  guint n;

  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->documents));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsDocument) open = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      if (g_file_equal (ws_document_get_file (open), file) &&
          ws_document_get_state (open) != WS_DOCUMENT_FAILED)
        {
          gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, i));
          return open;
        }
    }

  document = ws_document_new (file);
  ws_document_set_record_history (document, ws_session_get_record_history (self->session));
  ws_document_set_history_path (document, ws_session_get_history_path (self->session));
  ws_window_anomaly_prepare_document (self, document);
  g_list_store_append (self->documents, document);
  gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, n));
  ws_document_load_async (document, NULL, load_cb, g_object_ref (self));
  return document;
}

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  WsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);
          ws_window_open_file (self, file);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  GtkFileChooserNative *chooser = ws_trace_chooser_new (GTK_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN,
                                                        _("Open Traces"), _("_Open"));

  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         WsWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l != NULL; l = l->next)
    ws_window_open_file (self, l->data);
  return files != NULL;
}

void
_ws_window_class_files_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
}

void
_ws_window_files_init (WsWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
