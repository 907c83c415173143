/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * File → Open Traces as a Fleet…: many traces mined together without
 * holding them.  A worker calls the core entry point `waitscope-cli mine`
 * and `cluster` over traces call (ws_digest_load_traces*(), one trace per
 * core at a time, each reduced to its digest and freed at once), so the
 * window's memory is the fleet's digest, not its traces' events.  Progress
 * ("trace k of n") and Cancel are on a page of the main stack; the result
 * is shown as an opened digest is (ws-window-digest.c): the fleet keeps
 * what mining reads and no contrast instance, whose wait graphs make the
 * memory grow with the traces again (the thread spans about 5.5 MB a
 * PostgreSQL trace, the scenario instances as much again).  The Contrast
 * page says so and, when the analyst asks, reads the traces again for
 * their thread spans alone (ws_contrast_page_set_fleet()): the fleet's
 * runs are then contrasted slow against fast, never a scenario's
 * instances.
 *
 * A trace that cannot be read is passed by and named, with why, as
 * `waitscope-cli digest` over many traces and the fleet driver
 * (tools/fleet/fleet.py) do: the rest is mined.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-progress-relay.h"
#include "ws-trace-chooser.h"
#include "ws-trace-loader.h"
#include "ws-window-private.h"

/* What the loading thread reads: copies, never the window. */
typedef struct {
  GStrv            paths;
  WsProgressRelay *relay;
} FleetJob;

typedef struct {
  WsDigest  *digest;
  GPtrArray *failed;    /* GError */
} FleetResult;

static void
fleet_job_free (gpointer data)
{
  FleetJob *job = data;

  g_strfreev (job->paths);
  g_clear_object (&job->relay);
  g_free (job);
}

static void
fleet_result_free (gpointer data)
{
  FleetResult *result = data;

  g_clear_pointer (&result->digest, ws_digest_unref);
  g_clear_pointer (&result->failed, g_ptr_array_unref);
  g_free (result);
}

static void
load_in_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FleetJob *job = task_data;
  FleetResult *result = g_new0 (FleetResult, 1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) traces = NULL;
  GError *error = NULL;

  result->failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  /* A folder chosen stands for its traces; one that holds none is said so. */
  for (guint i = 0; job->paths[i] != NULL; i++)
    {
      g_auto(GStrv) some = ws_trace_loader_expand_folder (job->paths[i], &error);

      if (some == NULL)
        g_ptr_array_add (result->failed, g_steal_pointer (&error));
      else if (some[0] == NULL)
        {
          g_autofree char *shown = g_filename_display_name (job->paths[i]);

          g_ptr_array_add (result->failed,
                           g_error_new (WS_ERROR, WS_ERROR_IO, "%s: %s", shown,
                                        _("a folder without trace files (none is named as a trace format names them)")));
        }
      else
        g_strv_builder_addv (builder, (const char **) some);
    }
  traces = g_strv_builder_end (builder);
  /* What mining reads, every area (the page may switch its scope), and
   * nothing else: not the wait samples (only `history add` reads them) nor
   * the contrast instances, whose wait graphs made the window's memory grow
   * by about 11 MB a PostgreSQL trace (50 traces: 732 MB), the thread spans
   * alone 5.5 MB (451 MB; docs/performance.md, "A fleet in the window").
   * The Contrast page reads the spans again when it is asked to. */
  result->digest = ws_digest_load_traces_each (traces, NULL,
                                               WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_INSTANCES,
                                               WS_DIGEST_ALL_AREAS, ws_progress_relay_report, job->relay,
                                               result->failed, cancellable, &error);
  if (result->digest == NULL)
    {
      fleet_result_free (result);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, result, fleet_result_free);
}

/* Back to what was shown before the fleet was asked for. */
static void
leave_progress (WsWindow *self)
{
  const char *back = g_object_get_data (G_OBJECT (self), "ws-fleet-back");

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "fleet") == 0)
    gtk_stack_set_visible_child_name (self->main_stack, back != NULL ? back : "welcome");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-fleet", FALSE);
}

/* Every trace that could not be read, each with why (the loader's message
 * names the file and the place). */
static void
tell_failed (WsWindow        *self,
             const GPtrArray *failed,
             guint            n_read)
{
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;

  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Trace Could Not Be Read",
                                          "%u Traces Could Not Be Read", failed->len), failed->len);
  if (n_read > 0)
    g_string_append_printf (body, g_dngettext (GETTEXT_PACKAGE, "The fleet holds the other trace.",
                                               "The fleet holds the other %u traces.", n_read), n_read);
  else
    g_string_append (body, _("No trace could be read: there is no fleet to show."));
  for (guint i = 0; i < failed->len; i++)
    g_string_append_printf (body, "\n\n%s", ((const GError *) g_ptr_array_index (failed, i))->message);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, body->str));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_default_response (dialog, "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The newest fleet only (WsWorker); none once the window has gone. */
static void
load_done (gpointer  owner,
           gpointer  data,
           GError   *error,
           gpointer  job_data)
{
  WsWindow *self = WS_WINDOW (owner);
  FleetJob *job = job_data;
  FleetResult *result = data;
  g_autofree char *title = NULL;
  guint n;

  ws_progress_relay_cancel_pending (job->relay);
  leave_progress (self);
  if (result == NULL)
    {
      if (g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED) ||
          g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* Translators: toast after the user cancelled opening traces as a fleet */
        ws_window_show_toast (self, _("Stopped opening the traces as a fleet"));
      else
        {
          AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                                                 _("Could Not Open the Fleet"),
                                                                                 error->message));
          adw_message_dialog_add_response (dialog, "close", _("_Close"));
          gtk_window_present (GTK_WINDOW (dialog));
        }
      return;
    }

  n = ws_digest_get_n_traces (result->digest);
  if (result->failed->len > 0)
    tell_failed (self, result->failed, n);
  if (n == 0)
    {
      fleet_result_free (result);
      return;
    }
  if (result->failed->len > 0)
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "A fleet of %u trace, read as it loaded; not read:",
                                          "A fleet of %u traces, read as they loaded; not read:", n), n);
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "A fleet of %u trace, read as it loaded",
                                          "A fleet of %u traces, read as they loaded", n), n);
  _ws_window_show_digest (self, result->digest, title,
                          _("The traces were reduced as they loaded and let go: Mining shows the fleet's costliest "
                            "patterns, or what its slow traces have more of (Trace Classes), and Contrast its slow "
                            "runs against the fast once it has read their wait graphs again, as “waitscope-cli "
                            "mine” and “contrast” do. The timeline, the graphs and the other pages need the traces "
                            "themselves."),
                          FALSE, result->failed);
  ws_contrast_page_set_fleet (self->contrast_page, result->digest);
  fleet_result_free (result);
}

static void
progress_published (double      fraction,
                    const char *message,
                    gpointer    owner)
{
  WsWindow *self = WS_WINDOW (owner);

  if (!ws_worker_get_busy (self->fleet_loader))
    return;
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->fleet_progress, fraction);
  if (message != NULL)
    adw_status_page_set_description (self->fleet_page, message);
}

/**
 * ws_window_open_fleet:
 * @files: (element-type GFile): the traces
 *
 * Loads @files as one fleet, holding none of them (a folder among them
 * stands for its traces: ws_trace_loader_expand_folder()), and shows it as an
 * opened digest is shown: what File → Open Traces as a Fleet… does once
 * the files are chosen.  A fleet asked for while another loads replaces it.
 */
void
ws_window_open_fleet (WsWindow   *self,
                      GListModel *files)
{
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  g_autofree char *title = NULL;
  const char *shown;
  gboolean folder = FALSE;
  FleetJob *job;
  guint n = 0;

  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (G_IS_LIST_MODEL (files));

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *path = g_file_get_path (file);

      /* The file chooser gives local paths; a URI without one is not a trace the loader reads. */
      if (path != NULL)
        {
          folder = folder || g_file_test (path, G_FILE_TEST_IS_DIR);
          g_strv_builder_add (paths, path);
          n++;
        }
    }
  if (n == 0)
    return;

  job = g_new0 (FleetJob, 1);
  job->paths = g_strv_builder_end (paths);
  job->relay = g_object_ref (self->fleet_relay);

  shown = gtk_stack_get_visible_child_name (self->main_stack);
  if (g_strcmp0 (shown, "fleet") != 0)
    g_object_set_data_full (G_OBJECT (self), "ws-fleet-back", g_strdup (shown), g_free);
  /* A folder's traces are counted in the thread: "Trace k of n" says how many. */
  title = folder ? g_strdup (_("Opening Traces as a Fleet"))
                 : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Opening %u Trace as a Fleet",
                                                 "Opening %u Traces as a Fleet", n), n);
  adw_status_page_set_title (self->fleet_page, title);
  adw_status_page_set_description (self->fleet_page,
                                   _("Each trace is reduced to what mining needs as it loads, and let go."));
  gtk_progress_bar_set_fraction (self->fleet_progress, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "fleet");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-fleet", TRUE);
  ws_worker_run (self->fleet_loader, self, job, fleet_job_free, load_in_thread, load_done);
}

/**
 * ws_window_get_fleet_busy:
 *
 * Returns: whether traces are being opened as a fleet
 */
gboolean
ws_window_get_fleet_busy (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  return ws_worker_get_busy (self->fleet_loader);
}

static void
cancel_fleet_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  ws_worker_cancel (WS_WINDOW (widget)->fleet_loader);
}

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  WsWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      ws_window_open_fleet (self, files);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* Folders: each stands for its traces (ws_trace_loader_expand_folder()). */
static void
open_fleet_folder_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  GtkFileChooserNative *chooser = ws_trace_chooser_new (GTK_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                        _("Open Folders of Traces as a Fleet"),
                                                        _("_Open as a Fleet"));

  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_fleet_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  GtkFileChooserNative *chooser = ws_trace_chooser_new (GTK_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN,
                                                        _("Open Traces as a Fleet"), _("_Open as a Fleet"));

  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The page that stands in the main stack while the fleet loads. */
static GtkWidget *
build_progress_page (WsWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));

  self->fleet_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->fleet_page, "view-list-symbolic");
  self->fleet_progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (box, 360, -1);
  gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (cancel, "pill");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-fleet");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->fleet_progress));
  gtk_box_append (GTK_BOX (box), cancel);
  adw_status_page_set_child (self->fleet_page, box);
  return GTK_WIDGET (self->fleet_page);
}

void
_ws_window_class_fleet_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-fleet", NULL, open_fleet_action);
  gtk_widget_class_install_action (widget_class, "win.open-fleet-folder", NULL, open_fleet_folder_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-fleet", NULL, cancel_fleet_action);
}

void
_ws_window_fleet_init (WsWindow *self)
{
  self->fleet_loader = ws_worker_new ();
  self->fleet_relay = ws_progress_relay_new_for_owner (self, progress_published);
  gtk_stack_add_named (self->main_stack, build_progress_page (self), "fleet");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-fleet", FALSE);
}

void
_ws_window_fleet_dispose (WsWindow *self)
{
  if (self->fleet_loader != NULL)
    ws_worker_drop (self->fleet_loader);
  g_clear_object (&self->fleet_loader);
  if (self->fleet_relay != NULL)
    ws_progress_relay_cancel_pending (self->fleet_relay);
  g_clear_object (&self->fleet_relay);
}
