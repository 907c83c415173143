/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Findings page's asynchronous side: a pin waits for its traces to be
 * hashed on a worker thread (a trace of gigabytes took seconds on the main
 * thread), a moved trace is asked for (Locate…, refused unless it is the
 * same bytes), and closing with unsaved findings asks Save / Discard /
 * Cancel (the window shows the question, this does the saving).
 */
#include "config.h"
#include "ws-chooser-folder.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-findings-page-private.h"
#include "ws-session-trace-check.h"

static void ask_locate (WsFindingsPage *self,
                        guint           index,
                        const char     *refusal);

/* A pin whose traces are being hashed on a worker thread. */
typedef struct {
  WsPin         *pin;
  WsSessionFile *file;     /* the session it was pinned in */
  GPtrArray     *paths;    /* char*, the pin's traces in its order */
  GPtrArray     *sha256;   /* char*, NULL until hashed */
  GArray        *sizes;    /* gint64 */
  guint          n_left;   /* hashes still to come */
  char          *error;    /* set when hashing failed */
} Pending;

static void
pending_free (Pending *p)
{
  g_object_unref (p->pin);
  g_object_unref (p->file);
  g_ptr_array_unref (p->paths);
  g_ptr_array_unref (p->sha256);
  g_array_unref (p->sizes);
  g_free (p->error);
  g_free (p);
}

/* Pins are appended in the order they were made, each once its hashes (and
 * those of the pins before it) are known. */
static void
flush_pending (WsFindingsPage *self)
{
  Pending *p;

  while ((p = g_queue_peek_head (&self->pending)) != NULL && (p->n_left == 0 || p->error != NULL))
    {
      g_queue_pop_head (&self->pending);
      if (p->error != NULL)
        _ws_findings_page_set_message (self, p->error);
      else if (p->file == self->file)
        {
          for (guint i = 0; i < p->paths->len; i++)
            {
              guint index;

              ws_session_file_add_trace_hashed (self->file, g_ptr_array_index (p->paths, i), NULL,
                                                g_ptr_array_index (p->sha256, i),
                                                g_array_index (p->sizes, gint64, i), &index);
              ws_pin_add_trace (p->pin, index);
            }
          ws_pin_list_append (_ws_findings_page_pins (self), p->pin);
          ws_findings_page_select (self, ws_pin_list_get_n (_ws_findings_page_pins (self)) - 1);
          _ws_findings_page_set_message (self, NULL);
        }
      pending_free (p);
    }
}

typedef struct {
  WsFindingsPage *self;   /* a reference: the page outlives the hash */
  Pending        *pending;
  guint           trace;  /* which of the pin's traces */
} HashCall;

static void
hashed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  HashCall *call = user_data;
  g_autoptr(WsFindingsPage) self = call->self;
  g_autoptr(GError) error = NULL;
  Pending *p = call->pending;
  guint trace = call->trace;
  gint64 size = 0;
  char *sha = ws_trace_hasher_hash_finish (WS_TRACE_HASHER (source), result, &size, &error);

  g_free (call);
  /* Cancelled (the page disposed or another session opened): @p is gone
   * with the queue; a cancelled task always returns an error. */
  if (sha == NULL && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                      g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED)))
    return;
  g_ptr_array_index (p->sha256, trace) = sha;
  g_array_index (p->sizes, gint64, trace) = size;
  p->n_left--;
  if (sha == NULL && p->error == NULL)
    p->error = g_strdup (error->message);
  flush_pending (self);
}

void
_ws_findings_page_cancel_pending (WsFindingsPage *self)
{
  if (self->hashing != NULL)
    g_cancellable_cancel (self->hashing);
  g_clear_object (&self->hashing);
  g_queue_clear_full (&self->pending, (GDestroyNotify) pending_free);
}

/**
 * ws_findings_page_add_pin_traces:
 * @traces: (array length=n_traces): the files of the traces the pin is on,
 *   in its order (recorded by content hash)
 *
 * Appends @pin and selects it, so its title can be typed at once.  The
 * traces' contents are hashed on a worker thread first: the pin appears
 * when that is done (at once for traces hashed before), in the order
 * pinned; ws_findings_page_get_n_pending() counts those still waiting.
 */
void
ws_findings_page_add_pin_traces (WsFindingsPage *self,
                                 WsPin          *pin,
                                 GFile         **traces,
                                 guint           n_traces)
{
  Pending *p;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));
  g_return_if_fail (WS_IS_PIN (pin));

  p = g_new0 (Pending, 1);
  p->pin = g_object_ref (pin);
  p->file = g_object_ref (self->file);
  p->paths = g_ptr_array_new_with_free_func (g_free);
  p->sha256 = g_ptr_array_new_with_free_func (g_free);
  p->sizes = g_array_new (FALSE, TRUE, sizeof (gint64));
  for (guint i = 0; i < n_traces; i++)
    {
      char *path = g_file_get_path (traces[i]);

      if (path == NULL)
        {
          _ws_findings_page_set_message (self, _("Only a trace in a local file can be pinned"));
          pending_free (p);
          return;
        }
      g_ptr_array_add (p->paths, path);
      g_ptr_array_add (p->sha256, NULL);
    }
  g_array_set_size (p->sizes, n_traces);
  p->n_left = n_traces;
  g_queue_push_tail (&self->pending, p);
  if (self->hashing == NULL)
    self->hashing = g_cancellable_new ();
  _ws_findings_page_set_message (self, _("Pinning: checking the traces’ content…"));
  for (guint i = 0; i < n_traces; i++)
    {
      HashCall *call = g_new0 (HashCall, 1);

      call->self = g_object_ref (self);
      call->pending = p;
      call->trace = i;
      ws_trace_hasher_hash_async (self->hasher, g_ptr_array_index (p->paths, i), self->hashing, hashed_cb, call);
    }
  flush_pending (self);   /* a pin on no trace */
}

/* ws_findings_page_add_pin_traces() for a pin on one trace. */
void
ws_findings_page_add_pin (WsFindingsPage *self,
                          WsPin          *pin,
                          GFile          *trace)
{
  ws_findings_page_add_pin_traces (self, pin, &trace, 1);
}

/* The pins made but not yet in the list (their trace is being hashed). */
guint
ws_findings_page_get_n_pending (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), 0);
  return g_queue_get_length (&self->pending);
}

/* The traces still missing after opening a session, asked for one by one. */
void
_ws_findings_page_ask_next_missing (WsFindingsPage *self)
{
  GArray *missing = g_object_get_data (G_OBJECT (self), "ws-missing");

  if (missing == NULL || missing->len == 0)
    return;
  ask_locate (self, g_array_index (missing, guint, 0), NULL);
}

static void
drop_missing (WsFindingsPage *self,
              guint           index)
{
  GArray *missing = g_object_get_data (G_OBJECT (self), "ws-missing");

  for (guint i = 0; missing != NULL && i < missing->len; i++)
    if (g_array_index (missing, guint, i) == index)
      g_array_remove_index (missing, i--);
}

/* A file the user chose for missing trace @index, checked by content on
 * a worker (the same size means reading the whole file: gigabytes). */
typedef struct {
  WsSessionTrace trace;   /* a copy: the thread never reads the session */
  guint          index;
  char          *path;
  GFile         *file;
} LocateJob;

static void
locate_job_free (gpointer data)
{
  LocateJob *job = data;

  ws_session_trace_clear (&job->trace);
  g_free (job->path);
  g_clear_object (&job->file);
  g_free (job);
}

static void
locate_in_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  LocateJob *job = task_data;
  GError *error = NULL;

  if (!ws_session_trace_check (&job->trace, job->path, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, GUINT_TO_POINTER (TRUE), NULL);
}

static void
located_cb (gpointer  owner,
            gpointer  result,
            GError   *error,
            gpointer  data)
{
  WsFindingsPage *self = owner;
  LocateJob *job = data;

  if (job->index >= ws_session_file_get_n_traces (self->file)
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      _ws_findings_page_set_message (self, error->message);
      ask_locate (self, job->index, error->message);
      return;
    }
  ws_session_file_set_trace_found (self->file, job->index, job->path, NULL);
  _ws_findings_page_set_message (self, NULL);
  drop_missing (self, job->index);
  _ws_findings_page_emit_open_trace (self, job->file);
  _ws_findings_page_ask_next_missing (self);
}

/**
 * ws_findings_page_locate_trace:
 * @index: the session's trace
 * @file: where the user says it is now
 *
 * Points the session's trace @index at @file — only if @file has the
 * bytes the session was saved with, checked on a worker thread (the page
 * says so meanwhile); otherwise the refusal names both files and the user
 * is asked again.
 */
void
ws_findings_page_locate_trace (WsFindingsPage *self,
                               guint           index,
                               GFile          *file)
{
  g_autofree char *path = g_file_get_path (file);
  LocateJob *job;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  if (index >= ws_session_file_get_n_traces (self->file))
    return;
  if (path == NULL)
    {
      const char *message = _("Only a trace in a local file can be used");

      _ws_findings_page_set_message (self, message);
      ask_locate (self, index, message);
      return;
    }
  job = g_new0 (LocateJob, 1);
  job->trace = ws_session_trace_copy (ws_session_file_get_trace (self->file, index));
  job->index = index;
  job->path = g_canonicalize_filename (path, NULL);
  job->file = g_object_ref (file);
  _ws_findings_page_set_message (self, _("Checking the chosen file by its content…"));
  if (self->locator == NULL)
    self->locator = ws_worker_new ();
  ws_worker_run (self->locator, self, job, locate_job_free, locate_in_thread, located_cb);
}

static void
locate_chosen (WsFindingsPage *self,
               GFile          *file)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), "ws-relocate-index"));

  ws_findings_page_locate_trace (self, index, file);
}

static void
locate_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    WsFindingsPage   *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "ws-index"));
  g_autofree char *title = NULL;

  if (!g_str_equal (response, "locate"))
    {
      /* Skipped: the session stays open without it, the next is asked for. */
      drop_missing (self, index);
      _ws_findings_page_ask_next_missing (self);
      return;
    }
  if (index >= ws_session_file_get_n_traces (self->file))
    return;
  title = g_strdup_printf (_("Where Is the Trace “%s” Now?"), ws_session_file_get_trace (self->file, index)->name);
  g_object_set_data (G_OBJECT (self), "ws-relocate-index", GUINT_TO_POINTER (index));
  _ws_findings_page_choose_file (self, title, GTK_FILE_CHOOSER_ACTION_OPEN, NULL, "*", locate_chosen);
}

/* "The trace … is missing": Skip, or Locate… it (a file chooser). After a
 * refused file, the same question with the reason. */
static void
ask_locate (WsFindingsPage *self,
            guint           index,
            const char     *refusal)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const WsSessionTrace *t = ws_session_file_get_trace (self->file, index);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (refusal != NULL)
    body = g_strdup_printf (_("%s\n\nChoose the file that holds the trace “%s”, or skip it."), refusal, t->name);
  else
    body = g_strdup_printf (_("The trace “%s” is no longer at “%s” nor beside the session file. "
                              "Locate it to see its findings, or skip it."), t->name, t->path);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       refusal ? _("Not the Same Trace") : _("Trace Missing"),
                                                       body));
  adw_message_dialog_add_responses (dialog, "skip", _("_Skip"), "locate", _("_Locate…"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "locate", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "locate");
  adw_message_dialog_set_close_response (dialog, "skip");
  g_object_set_data (G_OBJECT (dialog), "ws-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (dialog, "response", G_CALLBACK (locate_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------ */
/* Closing with unsaved findings                                        */

/**
 * ws_findings_page_has_unsaved:
 *
 * Whether closing now would lose work: findings (or a saved session's
 * changes) not written to a session file, counting a note being typed
 * and pins whose trace is still being hashed.
 */
gboolean
ws_findings_page_has_unsaved (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  _ws_findings_page_commit_edit (self);
  if (!g_queue_is_empty (&self->pending))
    return TRUE;
  if (!ws_session_file_get_dirty (self->file))
    return FALSE;
  return ws_pin_list_get_n (_ws_findings_page_pins (self)) > 0 || ws_session_file_get_path (self->file) != NULL;
}

/* The user chose to lose the changes: no recovery copy to offer later. */
void
ws_findings_page_discard (WsFindingsPage *self)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_clear_handle_id (&self->commit_id, g_source_remove);
  _ws_findings_page_cancel_pending (self);
  ws_session_file_discard_recovery (self->file);
  ws_session_file_set_dirty (self->file, FALSE);
}

static void
save_chosen_for_task (GtkNativeDialog *dialog,
                      int              response,
                      gpointer         user_data)
{
  g_autoptr(GTask) task = user_data;
  WsFindingsPage *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL && ws_findings_page_save (self, path, &error))
        g_task_return_boolean (task, TRUE);
      else if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_boolean (task, FALSE);
    }
  else
    g_task_return_boolean (task, FALSE);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * ws_findings_page_save_async:
 *
 * Save, as the Save button does: in place when the session has a file,
 * else after asking where.  Finishes %FALSE (no error) when the user
 * cancelled the file chooser.
 */
void
ws_findings_page_save_async (WsFindingsPage      *self,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  GError *error = NULL;

  if (ws_session_file_get_path (self->file) != NULL)
    {
      if (ws_findings_page_save (self, NULL, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  dialog = gtk_file_chooser_native_new (_("Save Session"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, NULL, NULL);
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (dialog), GTK_WIDGET (self));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), _("findings.waitscope"));
  g_signal_connect (dialog, "response", G_CALLBACK (save_chosen_for_task), g_steal_pointer (&task));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

gboolean
ws_findings_page_save_finish (WsFindingsPage  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}


/* ------------------------------------------------------------------ */
/* An opened session's traces, checked by content on a worker          */

/* Copies of the session's trace records: the thread reads these, never
 * the session itself. */
typedef struct {
  GArray     *traces;     /* WsSessionTrace, deep copies */
  char       *session_path;
  GPtrArray  *found;      /* char*, NULL where not found */
  GPtrArray  *errors;     /* GError*, NULL where found */
} CheckJob;

static void
error_free_nullable (gpointer data)
{
  if (data != NULL)
    g_error_free (data);
}

static void
check_job_free (gpointer data)
{
  CheckJob *job = data;

  g_array_unref (job->traces);
  g_free (job->session_path);
  g_ptr_array_unref (job->found);
  g_ptr_array_unref (job->errors);
  g_free (job);
}

static void
check_in_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  CheckJob *job = task_data;

  for (guint i = 0; i < job->traces->len; i++)
    {
      GError *error = NULL;
      char *found = ws_session_trace_locate (&g_array_index (job->traces, WsSessionTrace, i),
                                             job->session_path, cancellable, &error);

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_free (found);
          g_clear_error (&error);
          g_task_return_new_error (task, WS_ERROR, WS_ERROR_CANCELLED, "cancelled");
          return;
        }
      g_ptr_array_add (job->found, found);
      g_ptr_array_add (job->errors, error);
    }
  g_task_return_pointer (task, GUINT_TO_POINTER (TRUE), NULL);
}

/* Opens the traces found; a missing or changed trace is named in the
 * message (the session stays open without it), and the first missing one
 * is asked for.  Then the saved view is restored, onto those traces only. */
static void
checked_cb (gpointer  owner,
            gpointer  result,
            GError   *error,
            gpointer  data)
{
  WsFindingsPage *self = owner;
  CheckJob *job = data;
  GArray *missing;
  g_autoptr(GString) problems = g_string_new (NULL);

  if (error != NULL)
    return;   /* cancelled: another session, or the page went away */
  missing = g_array_new (FALSE, FALSE, sizeof (guint));
  g_object_set_data_full (G_OBJECT (self), "ws-missing", missing, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < job->found->len && i < ws_session_file_get_n_traces (self->file); i++)
    {
      const char *found = g_ptr_array_index (job->found, i);
      GError *problem = g_ptr_array_index (job->errors, i);
      g_autoptr(GFile) file = NULL;

      if (found == NULL)
        {
          g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "", problem->message);
          if (g_error_matches (problem, WS_ERROR, WS_ERROR_IO))
            g_array_append_val (missing, i);
          continue;
        }
      ws_session_file_set_trace_found (self->file, i, found, NULL);
      file = g_file_new_for_path (found);
      _ws_findings_page_emit_open_trace (self, file);
    }
  _ws_findings_page_set_message (self, problems->len ? problems->str : NULL);
  /* The saved classes, onto the traces where they were found. */
  if (ws_page_get_session (WS_PAGE (self)) != NULL)
    ws_session_restore_run_classes (ws_page_get_session (WS_PAGE (self)));
  _ws_findings_page_emit_restore_view_state (self);
  _ws_findings_page_ask_next_missing (self);
}

void
_ws_findings_page_open_traces (WsFindingsPage *self)
{
  CheckJob *job = g_new0 (CheckJob, 1);
  guint n = ws_session_file_get_n_traces (self->file);

  g_object_set_data (G_OBJECT (self), "ws-missing", NULL);
  job->traces = g_array_sized_new (FALSE, TRUE, sizeof (WsSessionTrace), n);
  g_array_set_clear_func (job->traces, ws_session_trace_clear);
  for (guint i = 0; i < n; i++)
    {
      WsSessionTrace copy = ws_session_trace_copy (ws_session_file_get_trace (self->file, i));
      g_array_append_val (job->traces, copy);
    }
  job->session_path = g_strdup (ws_session_file_get_path (self->file));
  job->found = g_ptr_array_new_with_free_func (g_free);
  job->errors = g_ptr_array_new_with_free_func (error_free_nullable);
  if (n > 0)
    _ws_findings_page_set_message (self, _("Checking the session’s traces by their content…"));
  if (self->trace_checker == NULL)
    self->trace_checker = ws_worker_new ();
  ws_worker_run (self->trace_checker, self, job, check_job_free, check_in_thread, checked_cb);
}
