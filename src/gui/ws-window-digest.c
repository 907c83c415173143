/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A digest opened in the window (File → Open, drag and drop, the command
 * line): a fleet of traces without their events.  The Mining page mines
 * it as `waitscope-cli mine` does (ws_mining_run_digest()), the Contrast
 * page contrasts its scenario or its traces run against run, as
 * `waitscope-cli contrast` over it does; where the
 * timeline would be, a few lines say that a digest holds no events, so
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

/* What stands for the timeline while a digest is shown: a heading and a
 * few lines, no taller than they need (an AdwStatusPage asked for 210 px
 * of the 720 and squeezed the Contrast page); under them, the traces a
 * fleet could not read, each with why. */
static GtkWidget *
no_events_page (WsWindow          *self,
                const char        *title,
                const char        *body,
                const GPtrArray   *failed)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4), *scrolled;
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *text = gtk_label_new (body);

  gtk_widget_add_css_class (heading, "title-4");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);

  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_widget_add_css_class (text, "dim-label");
  gtk_box_append (GTK_BOX (box), heading);
  /* Right under the heading, where the few lines the pane gives are: a
   * trace not read must never go unnoticed.  Each message names the file
   * and why. */
  if (failed != NULL && failed->len > 0)
    {
      g_autoptr(GString) list = g_string_new (NULL);
      GtkWidget *not_read;

      for (guint i = 0; i < failed->len; i++)
        g_string_append_printf (list, "%s%s", i > 0 ? "\n" : "", ((const GError *) g_ptr_array_index (failed, i))->message);
      not_read = gtk_label_new (list->str);
      gtk_label_set_xalign (GTK_LABEL (not_read), 0);
      gtk_label_set_wrap (GTK_LABEL (not_read), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (not_read), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (not_read), TRUE);
      gtk_widget_add_css_class (not_read, "error");
      gtk_box_append (GTK_BOX (box), not_read);
    }
  gtk_box_append (GTK_BOX (box), text);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  /* In a scrolled window: a vertical paned asks its child how wide it
   * must be at the height it has, and a wrapping label, short of lines,
   * then asked for the whole text on one line. */
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* Room for up to four traces not read (a message may wrap); the rest scrolls. */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled),
                                              72 + 28 * (int) MIN (failed != NULL ? failed->len : 0, 4));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  return scrolled;
}

/* Puts the timeline back where the digest's status page stood. */
void
_ws_window_digest_leave (WsWindow *self)
{
  int position;

  if (self->timeline_pane == NULL)
    return;
  position = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self->timeline_pane), "ws-paned-position"));

  gtk_paned_set_start_child (self->content_paned, self->timeline_pane);
  gtk_paned_set_shrink_start_child (self->content_paned, TRUE);
  if (position >= 0)
    gtk_paned_set_position (self->content_paned, position);
  else
    _ws_window_arrange_split_again (self);
  g_clear_object (&self->timeline_pane);
  gtk_widget_set_visible (GTK_WIDGET (self->legend), TRUE);
  ws_mining_page_set_digest (self->mining_page, NULL);
  ws_contrast_page_set_digest (self->contrast_page, NULL);
}

/**
 * _ws_window_show_digest:
 * @title: the heading of what stands for the timeline
 * @body: (nullable): the lines under it; %NULL: what a digest file holds
 * @contrast: whether the Contrast page contrasts @digest (it needs the
 *   digest's contrast instances: an opened digest file has them; a fleet
 *   read from traces has none, and the Contrast page reads its thread
 *   spans again when asked, ws_digest_load_spans())
 * @failed: (nullable) (element-type GError): traces of the fleet that
 *   could not be read, listed under it
 *
 * Shows a fleet's digest as an opened digest file is shown: no trace
 * current, a few lines where the timeline was, the Mining page mining it
 * and the Contrast page ready to contrast it.
 */
void
_ws_window_show_digest (WsWindow        *self,
                        WsDigest        *digest,
                        const char      *title,
                        const char      *body,
                        gboolean         contrast,
                        const GPtrArray *failed)
{
  if (body == NULL)
    body = _("A digest holds no events: Mining shows the fleet's costliest patterns and Contrast what its "
             "slow runs do that the fast ones do not, as “waitscope-cli mine” and “contrast” over the digest do. "
             "The timeline, the Overview, the graphs and the other pages need the traces themselves: open them "
             "to see those.");
  /* No trace is current: the pages that need one show their empty state. */
  gtk_list_box_unselect_all (self->trace_list);
  _ws_window_show_document (self, NULL);
  gtk_stack_set_visible_child_name (self->main_stack, "trace");
  if (self->timeline_pane == NULL)
    {
      self->timeline_pane = g_object_ref (gtk_paned_get_start_child (self->content_paned));
      /* Where the divider was, unless the window had not placed it yet. */
      g_object_set_data (G_OBJECT (self->timeline_pane), "ws-paned-position",
                         GINT_TO_POINTER (g_object_get_data (G_OBJECT (self), "ws-pane-arranged") != NULL
                                          ? gtk_paned_get_position (self->content_paned) : -1));
    }
  _ws_window_hold_split (self);
  gtk_paned_set_start_child (self->content_paned, no_events_page (self, title, body, failed));
  /* A few lines of text: the rest of the height is the pages'; the
   * timeline's legend has nothing to explain. */
  gtk_paned_set_shrink_start_child (self->content_paned, FALSE);
  gtk_paned_set_position (self->content_paned, 1);   /* the scrolled window's 72 px */
  gtk_widget_set_visible (GTK_WIDGET (self->legend), FALSE);
  ws_window_show_details_page (self, "mining");
  ws_mining_page_set_digest (self->mining_page, digest);
  ws_contrast_page_set_digest (self->contrast_page, contrast ? digest : NULL);
}

/* The newest read only (WsWorker); none once the window has gone. */
static void
read_done (gpointer  owner,
           gpointer  result,
           GError   *error,
           gpointer  job)
{
  GFile *file = job;
  WsWindow *self = WS_WINDOW (owner);
  g_autoptr(WsDigest) digest = result;
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
  {
    g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: a digest of %u trace",
                                                           "%s: a digest of %u traces",
                                                           ws_digest_get_n_traces (digest)),
                                              shown, ws_digest_get_n_traces (digest));

    _ws_window_show_digest (self, digest, title, NULL, TRUE, NULL);
  }
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
  if (self->digest_reader == NULL)
    self->digest_reader = ws_worker_new ();
  ws_worker_run (self->digest_reader, self, g_object_ref (file), g_object_unref, read_in_thread, read_done);
}
