/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A digest opened in the window (File → Open, drag and drop, the command
 * line): a fleet of traces without their events.  The Mining page mines
 * it as `waitscope-cli mine` does (ws_mining_run_digest()), the Contrast
 * page contrasts its scenario or its traces run against run, as
 * `waitscope-cli contrast` over it does; where the
 * timeline would be, a status page says that a digest holds no events, so
 * the timeline, the graphs and the other pages need the traces.  Opening a
 * trace afterwards puts the timeline back.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-digest.h"
#include "ws-mining-page.h"
#include "ws-window-private.h"

static void
read_in_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  g_autofree char *path = g_file_get_path (task_data);
  GError *error = NULL;
  WsDigest *digest = path ? ws_digest_read (path, &error) : NULL;

  if (digest == NULL && error == NULL)
    /* Translators: a digest must be a local file */
    error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s", _("a digest must be a local file"));
  if (digest != NULL)
    g_task_return_pointer (task, digest, (GDestroyNotify) ws_digest_unref);
  else
    g_task_return_error (task, error);
}

/* The status page that stands for the timeline while a digest is shown. */
static GtkWidget *
no_events_page (WsWindow   *self,
                const char *name,
                guint       n_traces)
{
  GtkWidget *page = adw_status_page_new ();
  g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: a Digest of %u Trace",
                                                         "%s: a Digest of %u Traces", n_traces), name, n_traces);

  /* Compact and without an icon: at 1280×720 the pane above the pages is short. */
  gtk_widget_add_css_class (page, "compact");
  adw_status_page_set_title (ADW_STATUS_PAGE (page), title);
  adw_status_page_set_description (ADW_STATUS_PAGE (page),
    _("A digest holds no events: Mining shows the fleet's costliest patterns and Contrast what its "
      "slow runs do that the fast ones do not, as “waitscope-cli mine” and “contrast” over the digest do. "
      "The timeline, the Overview, the graphs and the other pages need the traces themselves: open them "
      "to see those."));
  gtk_widget_set_vexpand (page, TRUE);
  return page;
}

/* Puts the timeline back where the digest's status page stood. */
void
_ws_window_digest_leave (WsWindow *self)
{
  if (self->timeline_pane == NULL)
    return;
  gtk_paned_set_start_child (self->content_paned, self->timeline_pane);
  gtk_paned_set_position (self->content_paned, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self->timeline_pane),
                                                                                   "ws-paned-position")));
  g_clear_object (&self->timeline_pane);
  ws_mining_page_set_digest (self->mining_page, NULL);
  ws_contrast_page_set_digest (self->contrast_page, NULL);
}

static void
read_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;
  WsWindow *self = WS_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsDigest) digest = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *shown = g_filename_display_name (name);

  if (digest == NULL)
    {
      /* The reader's message names the file and the place in it. */
      g_autofree char *heading = g_strdup_printf (_("Could Not Open %s"), shown);
      AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading,
                                                                             error->message));

      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  /* No trace is current: the pages that need one show their empty state. */
  gtk_list_box_unselect_all (self->trace_list);
  _ws_window_show_document (self, NULL);
  gtk_stack_set_visible_child_name (self->main_stack, "trace");
  if (self->timeline_pane == NULL)
    {
      self->timeline_pane = g_object_ref (gtk_paned_get_start_child (self->content_paned));
      g_object_set_data (G_OBJECT (self->timeline_pane), "ws-paned-position",
                         GINT_TO_POINTER (gtk_paned_get_position (self->content_paned)));
    }
  gtk_paned_set_start_child (self->content_paned, no_events_page (self, shown, ws_digest_get_n_traces (digest)));
  /* A few lines of text: the rest of the height is the pages'. */
  gtk_paned_set_position (self->content_paned, 150);
  ws_window_show_details_page (self, "mining");
  ws_mining_page_set_digest (self->mining_page, digest);
  ws_contrast_page_set_digest (self->contrast_page, digest);
  ws_window_add_recent (self, file);
}

/**
 * ws_window_open_digest:
 *
 * Reads the digest @file in a thread and shows its fleet in the Mining
 * page.
 */
void
ws_window_open_digest (WsWindow *self,
                       GFile    *file)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, read_done, g_object_ref (file));

  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, read_in_thread);
}
