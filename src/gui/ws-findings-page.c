/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Findings page.  The list and its undo live in core (WsPinList, held
 * by the session's WsSessionFile); this page only shows and edits them.
 * Edits of a title or note are committed after a short pause, so undo
 * steps are what a person typed in one go, not single keystrokes.
 * Autosave writes the recovery copy two seconds after any change: a
 * crash loses at most those seconds.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-findings-page.h"
#include "ws-presentation.h"
#include "ws-report.h"
#include "ws-time-format.h"
#include "ws-trace-hasher.h"

#define AUTOSAVE_DELAY_S  2
#define COMMIT_DELAY_MS 400

struct _WsFindingsPage
{
  GtkBox         parent_instance;

  /* Widgets */
  GtkLabel      *message;
  GtkLabel      *session_label;
  GtkListBox    *list;
  GtkWidget     *editor;
  GtkEntry      *title_entry;
  GtkTextView   *note_view;

  /* Owned references */
  WsSession     *session;
  WsSessionFile *file;
  WsPin         *editing;   /* the pin the editor was loaded from */

  WsTraceHasher *hasher;
  GCancellable  *hashing;   /* the pins waiting for their trace's hash */
  GQueue         pending;   /* Pending*, in the order pinned */

  guint          selected;
  guint          autosave_id;
  guint          commit_id;
  gboolean       updating_editor;
};

G_DEFINE_FINAL_TYPE (WsFindingsPage, ws_findings_page, GTK_TYPE_BOX)

enum {
  SIGNAL_OPEN_TRACE,
  SIGNAL_SHOW_PIN,
  SIGNAL_COLLECT_VIEW_STATE,
  SIGNAL_RESTORE_VIEW_STATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static WsPinList *
pins (WsFindingsPage *self)
{
  return ws_session_file_get_findings (self->file);
}

static void
set_message (WsFindingsPage *self,
             const char     *text)
{
  gtk_label_set_text (self->message, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL && *text != '\0');
}

const char *
ws_findings_page_get_message (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);
  return gtk_label_get_text (self->message);
}

static void
update_state (WsFindingsPage *self)
{
  WsPinList *list = pins (self);
  guint n = ws_pin_list_get_n (list);
  const char *path = ws_session_file_get_path (self->file);
  g_autofree char *base = path ? g_path_get_basename (path) : g_strdup (_("Unsaved session"));
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u finding", "%u findings", n), n);
  g_autofree char *label = g_strdup_printf ("%s%s — %s", ws_session_file_get_dirty (self->file) ? "• " : "", base,
                                            count);
  gboolean selected = self->selected < n;

  gtk_label_set_text (self->session_label, label);
  gtk_widget_set_sensitive (self->editor, selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.undo", ws_pin_list_can_undo (list));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.delete", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.up", selected && self->selected > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.down", selected && self->selected + 1 < n);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.export", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.present", n > 0);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                 */

static char *
describe_pin (WsPin *pin)
{
  const WsPinKindInfo *info = ws_pin_kind_lookup (ws_pin_get_kind (pin));
  g_autoptr(GString) s = g_string_new (info ? _(info->label) : ws_pin_get_kind (pin));
  WsTime t0, t1;

  if (ws_pin_get_tid (pin) != WS_PIN_NO_TID)
    g_string_append_printf (s, _(" · tid %d"), ws_pin_get_tid (pin));
  if (ws_pin_get_window (pin, &t0, &t1))
    {
      g_autofree char *d = ws_format_duration (t1 - t0);
      g_string_append_printf (s, _(" · %s window"), d);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  WsPin *pin = item;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  g_autofree char *subtitle_text = describe_pin (pin);
  GtkWidget *subtitle = gtk_label_new (subtitle_text);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (title, "heading");
  g_object_bind_property (pin, "title", title, "label", G_BINDING_SYNC_CREATE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), subtitle);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  return box;
}

/* ------------------------------------------------------------------ */
/* Editing                                                              */

static char *
dup_note_text (WsFindingsPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->note_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
commit_edit (WsFindingsPage *self)
{
  g_autofree char *note = NULL;
  guint at;

  g_clear_handle_id (&self->commit_id, g_source_remove);
  /* By identity, not position: after a delete or an undo the position may
   * hold another pin, which must not receive this editor's text. */
  at = self->editing ? ws_pin_list_find (pins (self), ws_pin_get_id (self->editing)) : G_MAXUINT;
  if (at == G_MAXUINT || ws_pin_list_get (pins (self), at) != self->editing)
    return;
  note = dup_note_text (self);
  ws_pin_list_edit (pins (self), at, gtk_editable_get_text (GTK_EDITABLE (self->title_entry)), note);
  update_state (self);
}

static gboolean
commit_timeout (gpointer data)
{
  WsFindingsPage *self = data;

  self->commit_id = 0;
  commit_edit (self);
  return G_SOURCE_REMOVE;
}

static void
editor_changed_cb (WsFindingsPage *self)
{
  if (self->updating_editor)
    return;
  g_clear_handle_id (&self->commit_id, g_source_remove);
  self->commit_id = g_timeout_add (COMMIT_DELAY_MS, commit_timeout, self);
}

static void
load_editor (WsFindingsPage *self)
{
  WsPinList *list = pins (self);
  WsPin *pin = self->selected < ws_pin_list_get_n (list) ? ws_pin_list_get (list, self->selected) : NULL;

  g_set_object (&self->editing, pin);
  self->updating_editor = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->title_entry), pin ? ws_pin_get_title (pin) : "");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->note_view), pin ? ws_pin_get_note (pin) : "", -1);
  self->updating_editor = FALSE;
  update_state (self);
}

static void
row_selected_cb (WsFindingsPage *self,
                 GtkListBoxRow  *row)
{
  if (self->file == NULL)
    return;
  commit_edit (self);
  self->selected = row ? (guint) gtk_list_box_row_get_index (row) : G_MAXUINT;
  load_editor (self);
}

void
ws_findings_page_select (WsFindingsPage *self,
                         guint           position)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));
  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, position));
}

/* Title and note of the selected finding, as typed, committed at once. */
void
ws_findings_page_set_note_text (WsFindingsPage *self,
                                const char     *title,
                                const char     *note)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->title_entry), title);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->note_view), note, -1);
  commit_edit (self);
}

static GFile *
pin_trace_file (WsFindingsPage *self,
                WsPin          *pin)
{
  if (ws_pin_get_n_traces (pin) == 0)
    return NULL;
  return g_file_new_for_path (ws_session_file_get_trace (self->file, ws_pin_get_trace (pin, 0))->path);
}

static void
row_activated_cb (WsFindingsPage *self,
                  GtkListBoxRow  *row)
{
  WsPin *pin = ws_pin_list_get (pins (self), gtk_list_box_row_get_index (row));
  g_autoptr(GFile) trace = pin_trace_file (self, pin);

  if (trace != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_PIN], 0, pin, trace);
}

/* ------------------------------------------------------------------ */
/* Autosave                                                             */

gboolean
ws_findings_page_autosave_now (WsFindingsPage *self)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (!ws_session_file_get_dirty (self->file))
    return TRUE;
  if (!ws_session_file_save_recovery (self->file, &error))
    {
      set_message (self, error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
autosave_timeout (gpointer data)
{
  WsFindingsPage *self = data;

  self->autosave_id = 0;
  ws_findings_page_autosave_now (self);
  return G_SOURCE_REMOVE;
}

static void
file_changed_cb (WsFindingsPage *self)
{
  update_state (self);
  if (self->autosave_id == 0 && ws_session_file_get_dirty (self->file))
    self->autosave_id = g_timeout_add_seconds (AUTOSAVE_DELAY_S, autosave_timeout, self);
}

static void
list_changed_cb (WsFindingsPage *self,
                 guint           position,
                 guint           removed,
                 guint           added)
{
  /* Keep the selection on the same position (after undo: the same pin). */
  g_clear_handle_id (&self->commit_id, g_source_remove);
  if (self->selected < ws_pin_list_get_n (pins (self)))
    ws_findings_page_select (self, self->selected);
  else
    self->selected = G_MAXUINT;
  load_editor (self);
}

static void
set_file (WsFindingsPage *self,
          WsSessionFile  *file)
{
  if (self->file != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->file, self);
      g_signal_handlers_disconnect_by_data (pins (self), self);
    }
  g_set_object (&self->file, file);
  self->selected = G_MAXUINT;
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (pins (self)), create_row, NULL, NULL);
  g_signal_connect_object (file, "notify::dirty", G_CALLBACK (file_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (pins (self), "changed", G_CALLBACK (file_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (pins (self), "items-changed", G_CALLBACK (list_changed_cb), self, G_CONNECT_SWAPPED);
  load_editor (self);
}

static void
session_file_cb (WsFindingsPage *self)
{
  set_file (self, ws_session_get_session_file (self->session));
}

void
ws_findings_page_set_session (WsFindingsPage *self,
                              WsSession      *session)
{
  g_autoptr(GPtrArray) recoveries = NULL;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));
  g_return_if_fail (WS_IS_SESSION (session));

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_signal_connect_object (session, "notify::session-file", G_CALLBACK (session_file_cb), self, G_CONNECT_SWAPPED);
  session_file_cb (self);

  recoveries = ws_session_file_list_recoveries ();
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.recover", recoveries->len > 0);
  if (recoveries->len > 0)
    set_message (self, _("Findings from a session that did not close cleanly were kept: use Recover to reopen them."));
}

/* ------------------------------------------------------------------ */
/* Pins, sessions, reports                                              */

/**
 * ws_findings_page_add_pin:
 * @trace: the file of the trace the pin is on (recorded by content hash)
 *
 * Appends @pin and selects it, so its title can be typed at once.
 */
/* A pin whose trace is being hashed on a worker thread. */
typedef struct {
  WsPin         *pin;
  WsSessionFile *file;     /* the session it was pinned in */
  char          *path;
  char          *sha256;   /* set when hashed */
  gint64         size;
  char          *error;    /* set when hashing failed */
} Pending;

static void
pending_free (Pending *p)
{
  g_object_unref (p->pin);
  g_object_unref (p->file);
  g_free (p->path);
  g_free (p->sha256);
  g_free (p->error);
  g_free (p);
}

/* Pins are appended in the order they were made, each once its hash (and
 * those of the pins before it) is known. */
static void
flush_pending (WsFindingsPage *self)
{
  Pending *p;

  while ((p = g_queue_peek_head (&self->pending)) != NULL && (p->sha256 != NULL || p->error != NULL))
    {
      g_queue_pop_head (&self->pending);
      if (p->error != NULL)
        set_message (self, p->error);
      else if (p->file == self->file)
        {
          guint index;

          ws_session_file_add_trace_hashed (self->file, p->path, NULL, p->sha256, p->size, &index);
          ws_pin_add_trace (p->pin, index);
          ws_pin_list_append (pins (self), p->pin);
          ws_findings_page_select (self, ws_pin_list_get_n (pins (self)) - 1);
          set_message (self, NULL);
        }
      pending_free (p);
    }
}

typedef struct {
  WsFindingsPage *self;   /* a reference: the page outlives the hash */
  Pending        *pending;
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
  gint64 size = 0;
  char *sha = ws_trace_hasher_hash_finish (WS_TRACE_HASHER (source), result, &size, &error);

  g_free (call);
  /* Cancelled (the page disposed or another session opened): @p is gone
   * with the queue; a cancelled task always returns an error. */
  if (sha == NULL && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                      g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED)))
    return;
  p->sha256 = sha;
  p->size = size;
  if (sha == NULL)
    p->error = g_strdup (error->message);
  flush_pending (self);
}

static void
cancel_pending (WsFindingsPage *self)
{
  if (self->hashing != NULL)
    g_cancellable_cancel (self->hashing);
  g_clear_object (&self->hashing);
  g_queue_clear_full (&self->pending, (GDestroyNotify) pending_free);
}

/**
 * ws_findings_page_add_pin:
 * @trace: the file of the trace the pin is on (recorded by content hash)
 *
 * Appends @pin and selects it, so its title can be typed at once.  The
 * trace's content is hashed on a worker thread first: the pin appears
 * when that is done (at once for a trace hashed before), in the order
 * pinned; ws_findings_page_get_n_pending() counts those still waiting.
 */
void
ws_findings_page_add_pin (WsFindingsPage *self,
                          WsPin          *pin,
                          GFile          *trace)
{
  g_autofree char *path = g_file_get_path (trace);
  Pending *p;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));
  g_return_if_fail (WS_IS_PIN (pin));

  if (path == NULL)
    {
      set_message (self, _("Only a trace in a local file can be pinned"));
      return;
    }
  p = g_new0 (Pending, 1);
  p->pin = g_object_ref (pin);
  p->file = g_object_ref (self->file);
  p->path = g_steal_pointer (&path);
  g_queue_push_tail (&self->pending, p);
  if (self->hashing == NULL)
    self->hashing = g_cancellable_new ();
  set_message (self, _("Pinning: checking the trace’s content…"));
  {
    HashCall *call = g_new0 (HashCall, 1);

    call->self = g_object_ref (self);
    call->pending = p;
    ws_trace_hasher_hash_async (self->hasher, p->path, self->hashing, hashed_cb, call);
  }
}

/* The pins made but not yet in the list (their trace is being hashed). */
guint
ws_findings_page_get_n_pending (WsFindingsPage *self)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), 0);
  return g_queue_get_length (&self->pending);
}

static void ask_next_missing (WsFindingsPage *self);

/* Opens the session's traces in the window; a missing or changed trace
 * is named in the message (the session stays open without it), and the
 * first missing one is asked for. */
static void
open_traces (WsFindingsPage *self)
{
  GArray *missing = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) problems = g_string_new (NULL);

  g_object_set_data_full (G_OBJECT (self), "ws-missing", missing, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < ws_session_file_get_n_traces (self->file); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) file = NULL;

      if (!ws_session_file_resolve_trace (self->file, i, NULL, &error))
        {
          g_string_append_printf (problems, "%s%s", problems->len ? "\n" : "", error->message);
          if (g_error_matches (error, WS_ERROR, WS_ERROR_IO))
            g_array_append_val (missing, i);
          continue;
        }
      file = g_file_new_for_path (ws_session_file_get_trace (self->file, i)->path);
      g_signal_emit (self, signals[SIGNAL_OPEN_TRACE], 0, file);
    }
  set_message (self, problems->str);
  ask_next_missing (self);
}

gboolean
ws_findings_page_open_session (WsFindingsPage  *self,
                               GFile           *file,
                               GError         **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(WsSessionFile) loaded = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  loaded = path ? ws_session_file_load (path, &local) : NULL;
  if (loaded == NULL)
    {
      set_message (self, local ? local->message : _("Only a session in a local file can be opened"));
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (self->file != NULL)
    ws_session_file_discard_recovery (self->file);
  cancel_pending (self);   /* pins of the session being replaced */
  ws_session_set_session_file (self->session, loaded);
  open_traces (self);
  g_signal_emit (self, signals[SIGNAL_RESTORE_VIEW_STATE], 0, ws_session_file_get_view_state (loaded));
  if (ws_pin_list_get_n (pins (self)) > 0)
    ws_findings_page_select (self, 0);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), g_file_get_uri (file));
  return TRUE;
}

gboolean
ws_findings_page_save (WsFindingsPage  *self,
                       const char      *path,
                       GError         **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  commit_edit (self);
  g_signal_emit (self, signals[SIGNAL_COLLECT_VIEW_STATE], 0, ws_session_file_get_view_state (self->file));
  if (!ws_session_file_save (self->file, path, &local))
    {
      set_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  set_message (self, NULL);
  update_state (self);
  return TRUE;
}

gboolean
ws_findings_page_export_report (WsFindingsPage  *self,
                                const char      *path,
                                GError         **error)
{
  g_autoptr(WsReport) report = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  commit_edit (self);
  report = ws_report_new (self->file, &local);
  if (report == NULL || !ws_report_write (report, path, &local))
    {
      set_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

void
ws_findings_page_present (WsFindingsPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsReport) report = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWindow *window;

  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  commit_edit (self);
  if (ws_pin_list_get_n (pins (self)) == 0)
    return;
  report = ws_report_new (self->file, &error);
  if (report == NULL)
    {
      set_message (self, error->message);
      return;
    }
  window = ws_presentation_new (report, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                self->selected < ws_pin_list_get_n (pins (self)) ? self->selected : 0);
  gtk_window_present (window);
}

/* Reopens the newest recovery copy as the window's (changed) session. */
gboolean
ws_findings_page_recover (WsFindingsPage *self)
{
  g_autoptr(GPtrArray) recoveries = ws_session_file_list_recoveries ();
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  if (recoveries->len == 0)
    return FALSE;
  file = g_file_new_for_path (g_ptr_array_index (recoveries, 0));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.recover", FALSE);
  return ws_findings_page_open_session (self, file, NULL);
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

typedef void (*ChosenFunc) (WsFindingsPage *self, GFile *file);

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  WsFindingsPage *self = user_data;
  ChosenFunc func = g_object_get_data (G_OBJECT (dialog), "ws-chosen");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      func (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
choose_file (WsFindingsPage       *self,
             const char           *title,
             GtkFileChooserAction  action,
             const char           *suggested,
             const char           *pattern,
             ChosenFunc            func)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, action, NULL, NULL);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_filter_set_name (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (suggested != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
  g_object_set_data (G_OBJECT (dialog), "ws-chosen", func);
  g_signal_connect (dialog, "response", G_CALLBACK (chooser_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_chosen (WsFindingsPage *self,
             GFile          *file)
{
  ws_findings_page_open_session (self, file, NULL);
}

static void
save_chosen (WsFindingsPage *self,
             GFile          *file)
{
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL)
    ws_findings_page_save (self, path, NULL);
}

static void
export_chosen (WsFindingsPage *self,
               GFile          *file)
{
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL && ws_findings_page_export_report (self, path, NULL))
    {
      g_autofree char *text = g_strdup_printf (_("Report written to %s"), path);
      set_message (self, text);
    }
}

static void ask_locate (WsFindingsPage *self,
                        guint           index,
                        const char     *refusal);

/* The traces still missing after opening a session, asked for one by one. */
static void
ask_next_missing (WsFindingsPage *self)
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

/**
 * ws_findings_page_locate_trace:
 *
 * The user's answer for the missing trace @index: accepted (and opened)
 * only if @file has the bytes the session was saved with; otherwise the
 * error names both and the user is asked again.
 */
gboolean
ws_findings_page_locate_trace (WsFindingsPage  *self,
                               guint            index,
                               GFile           *file,
                               GError         **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  if (index >= ws_session_file_get_n_traces (self->file))
    return FALSE;
  if (path == NULL)
    g_set_error (&local, WS_ERROR, WS_ERROR_IO, _("Only a trace in a local file can be used"));
  else
    ws_session_file_relocate_trace (self->file, index, path, &local);
  if (local != NULL)
    {
      set_message (self, local->message);
      ask_locate (self, index, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  set_message (self, NULL);
  drop_missing (self, index);
  g_signal_emit (self, signals[SIGNAL_OPEN_TRACE], 0, file);
  ask_next_missing (self);
  return TRUE;
}

static void
locate_chosen (WsFindingsPage *self,
               GFile          *file)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), "ws-relocate-index"));

  ws_findings_page_locate_trace (self, index, file, NULL);
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
      ask_next_missing (self);
      return;
    }
  if (index >= ws_session_file_get_n_traces (self->file))
    return;
  title = g_strdup_printf (_("Where Is the Trace “%s” Now?"), ws_session_file_get_trace (self->file, index)->name);
  g_object_set_data (G_OBJECT (self), "ws-relocate-index", GUINT_TO_POINTER (index));
  choose_file (self, title, GTK_FILE_CHOOSER_ACTION_OPEN, NULL, "*", locate_chosen);
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

  commit_edit (self);
  if (!g_queue_is_empty (&self->pending))
    return TRUE;
  if (!ws_session_file_get_dirty (self->file))
    return FALSE;
  return ws_pin_list_get_n (pins (self)) > 0 || ws_session_file_get_path (self->file) != NULL;
}

/* The user chose to lose the changes: no recovery copy to offer later. */
void
ws_findings_page_discard (WsFindingsPage *self)
{
  g_return_if_fail (WS_IS_FINDINGS_PAGE (self));

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_clear_handle_id (&self->commit_id, g_source_remove);
  cancel_pending (self);
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

static void
page_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (widget);

  if (g_str_equal (name, "findings.open"))
    choose_file (self, _("Open Session"), GTK_FILE_CHOOSER_ACTION_OPEN, NULL, "*.waitscope", open_chosen);
  else if (g_str_equal (name, "findings.save") && ws_session_file_get_path (self->file) != NULL)
    ws_findings_page_save (self, NULL, NULL);
  else if (g_str_equal (name, "findings.save") || g_str_equal (name, "findings.save-as"))
    choose_file (self, _("Save Session"), GTK_FILE_CHOOSER_ACTION_SAVE, _("findings.waitscope"), "*.waitscope",
                 save_chosen);
  else if (g_str_equal (name, "findings.export"))
    choose_file (self, _("Export Report (.html or .pdf)"), GTK_FILE_CHOOSER_ACTION_SAVE, _("report.html"),
                 "*.html", export_chosen);
  else if (g_str_equal (name, "findings.present"))
    ws_findings_page_present (self);
  else if (g_str_equal (name, "findings.recover"))
    ws_findings_page_recover (self);
}

static void
edit_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (widget);
  guint at = self->selected;

  commit_edit (self);
  if (g_str_equal (name, "findings.undo"))
    ws_pin_list_undo (pins (self));
  else if (at >= ws_pin_list_get_n (pins (self)))
    return;
  else if (g_str_equal (name, "findings.delete"))
    ws_pin_list_remove (pins (self), at);
  else if (g_str_equal (name, "findings.up") && at > 0)
    {
      ws_pin_list_move (pins (self), at, at - 1);
      ws_findings_page_select (self, at - 1);
    }
  else if (g_str_equal (name, "findings.down") && at + 1 < ws_pin_list_get_n (pins (self)))
    {
      ws_pin_list_move (pins (self), at, at + 1);
      ws_findings_page_select (self, at + 1);
    }
  update_state (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_findings_page_dispose (GObject *object)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (object);

  g_clear_handle_id (&self->commit_id, g_source_remove);
  cancel_pending (self);
  g_clear_object (&self->hasher);
  if (self->list != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->list, self);
      gtk_list_box_bind_model (self->list, NULL, NULL, NULL, NULL);
      self->list = NULL;
    }
  /* A window closed with unsaved findings keeps its recovery copy. */
  if (self->autosave_id != 0)
    ws_findings_page_autosave_now (self);
  if (self->file != NULL && !ws_session_file_get_dirty (self->file))
    ws_session_file_discard_recovery (self->file);
  if (self->file != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->file, self);
      g_signal_handlers_disconnect_by_data (pins (self), self);
    }
  g_clear_object (&self->file);
  g_clear_object (&self->session);
  g_clear_object (&self->editing);

  G_OBJECT_CLASS (ws_findings_page_parent_class)->dispose (object);
}

static void
ws_findings_page_class_init (WsFindingsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const page_actions[] = {
    "findings.open", "findings.save", "findings.save-as", "findings.export", "findings.present", "findings.recover",
  };
  static const char * const edit_actions[] = {
    "findings.undo", "findings.delete", "findings.up", "findings.down",
  };

  object_class->dispose = ws_findings_page_dispose;
  gtk_widget_class_set_css_name (widget_class, "findings-page");

  signals[SIGNAL_OPEN_TRACE] =
    g_signal_new ("open-trace", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);
  signals[SIGNAL_SHOW_PIN] =
    g_signal_new ("show-pin", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, WS_TYPE_PIN, G_TYPE_FILE);
  signals[SIGNAL_COLLECT_VIEW_STATE] =
    g_signal_new ("collect-view-state", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_RESTORE_VIEW_STATE] =
    g_signal_new ("restore-view-state", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  for (guint i = 0; i < G_N_ELEMENTS (page_actions); i++)
    gtk_widget_class_install_action (widget_class, page_actions[i], NULL, page_action);
  for (guint i = 0; i < G_N_ELEMENTS (edit_actions); i++)
    gtk_widget_class_install_action (widget_class, edit_actions[i], NULL, edit_action);
}

static GtkWidget *
button (const char *icon,
        const char *action,
        const char *tooltip)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  return b;
}

static GtkWidget *
build_toolbar (WsFindingsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  gtk_box_append (GTK_BOX (bar), button ("view-pin-symbolic", "win.pin-view", _("Pin the current view (Ctrl+D)")));
  gtk_box_append (GTK_BOX (bar), button ("document-open-symbolic", "findings.open", _("Open a session")));
  gtk_box_append (GTK_BOX (bar), button ("document-save-symbolic", "findings.save", _("Save the session")));
  gtk_box_append (GTK_BOX (bar), button ("document-save-as-symbolic", "findings.save-as", _("Save the session as…")));
  gtk_box_append (GTK_BOX (bar), button ("document-send-symbolic", "findings.export", _("Export the report (HTML or PDF)")));
  gtk_box_append (GTK_BOX (bar), button ("x-office-presentation-symbolic", "findings.present", _("Present (F5)")));
  gtk_box_append (GTK_BOX (bar), button ("edit-undo-symbolic", "findings.undo", _("Undo")));
  gtk_box_append (GTK_BOX (bar), button ("document-revert-symbolic", "findings.recover", _("Recover unsaved findings")));
  self->session_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->session_label), TRUE);
  gtk_label_set_xalign (self->session_label, 1);
  gtk_widget_add_css_class (GTK_WIDGET (self->session_label), "dim-label");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->session_label));
  return bar;
}

static GtkWidget *
build_editor (WsFindingsPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *moves = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *scroll = gtk_scrolled_window_new ();

  self->title_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->title_entry, _("Title of the finding"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->title_entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Finding title"), -1);
  self->note_view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_wrap_mode (self->note_view, GTK_WRAP_WORD_CHAR);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->note_view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Finding note: *emphasis*, **strong**, `code`, “- ” list items"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->note_view));
  gtk_widget_set_vexpand (scroll, TRUE);
  gtk_widget_add_css_class (scroll, "frame");
  gtk_box_append (GTK_BOX (moves), button ("go-up-symbolic", "findings.up", _("Move up")));
  gtk_box_append (GTK_BOX (moves), button ("go-down-symbolic", "findings.down", _("Move down")));
  gtk_box_append (GTK_BOX (moves), button ("user-trash-symbolic", "findings.delete", _("Delete the finding")));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->title_entry));
  gtk_box_append (GTK_BOX (box), scroll);
  gtk_box_append (GTK_BOX (box), moves);
  g_signal_connect_swapped (self->title_entry, "changed", G_CALLBACK (editor_changed_cb), self);
  g_signal_connect_swapped (gtk_text_view_get_buffer (self->note_view), "changed", G_CALLBACK (editor_changed_cb), self);
  gtk_widget_set_hexpand (box, TRUE);
  return box;
}

static void
ws_findings_page_init (WsFindingsPage *self)
{
  GtkWidget *panes = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *scroll = gtk_scrolled_window_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 6);
  self->selected = G_MAXUINT;
  self->hasher = ws_trace_hasher_new ();
  g_queue_init (&self->pending);

  gtk_box_append (GTK_BOX (self), build_toolbar (self));
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "warning");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->message));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Findings"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 320, -1);
  g_signal_connect_swapped (self->list, "row-selected", G_CALLBACK (row_selected_cb), self);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  self->editor = build_editor (self);
  gtk_box_append (GTK_BOX (panes), scroll);
  gtk_box_append (GTK_BOX (panes), self->editor);
  gtk_widget_set_vexpand (panes, TRUE);
  gtk_box_append (GTK_BOX (self), panes);
}
