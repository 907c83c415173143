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
#include "ws-chooser-folder.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-findings-page-private.h"
#include "ws-pin-kind.h"
#include "ws-presentation.h"
#include "ws-report.h"
#include "ws-time-format.h"
#include "ws-trace-hasher.h"

#define AUTOSAVE_DELAY_S  2
#define COMMIT_DELAY_MS 400


G_DEFINE_FINAL_TYPE (WsFindingsPage, ws_findings_page, WS_TYPE_PAGE)

enum {
  SIGNAL_OPEN_TRACE,
  SIGNAL_SHOW_PIN,
  SIGNAL_COLLECT_VIEW_STATE,
  SIGNAL_RESTORE_VIEW_STATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_ws_findings_page_emit_open_trace (WsFindingsPage *self,
                                   GFile          *file)
{
  g_signal_emit (self, signals[SIGNAL_OPEN_TRACE], 0, file);
}

void
_ws_findings_page_emit_restore_view_state (WsFindingsPage *self)
{
  g_signal_emit (self, signals[SIGNAL_RESTORE_VIEW_STATE], 0, ws_session_file_get_view_state (self->file));
}

WsPinList *
_ws_findings_page_pins (WsFindingsPage *self)
{
  return ws_session_file_get_findings (self->file);
}

void
_ws_findings_page_set_message (WsFindingsPage *self,
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

/* Where Save will write, in full: a session never chooses that itself
 * (a recovered one goes back to the file it stood for). */
static void
set_save_target_tooltip (WsFindingsPage *self,
                         const char     *path)
{
  g_autofree char *tip = NULL;

  if (path == NULL)
    tip = g_strdup (_("Not saved yet: Save asks where"));
  else if (ws_session_file_is_recovery (self->file))
    tip = g_strdup_printf (_("Recovered findings: Save writes them back to %s"), path);
  else
    tip = g_strdup_printf (_("Save writes to %s"), path);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->session_label), tip);
}

static void
update_state (WsFindingsPage *self)
{
  WsPinList *list = _ws_findings_page_pins (self);
  guint n = ws_pin_list_get_n (list);
  const char *path = ws_session_file_get_path (self->file);
  g_autofree char *base = path ? g_path_get_basename (path) : g_strdup (_("Unsaved session"));
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u finding", "%u findings", n), n);
  g_autofree char *label = g_strdup_printf ("%s%s — %s", ws_session_file_get_dirty (self->file) ? "• " : "", base,
                                            count);
  gboolean selected = self->selected < n;

  gtk_label_set_text (self->session_label, label);
  set_save_target_tooltip (self, path);
  gtk_widget_set_sensitive (self->editor, selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.undo", ws_pin_list_can_undo (list));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.delete", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.open-finding", selected);
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

/* A row takes no keyboard focus on a click: what the user was typing in
 * (the note, the title) keeps it.  Tab still reaches the rows. */
static GtkWidget *
create_row_widget (gpointer item,
                   gpointer user_data)
{
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), create_row (item, user_data));
  gtk_widget_set_focus_on_click (row, FALSE);
  return row;
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

void
_ws_findings_page_commit_edit (WsFindingsPage *self)
{
  g_autofree char *note = NULL;
  guint at;

  g_clear_handle_id (&self->commit_id, g_source_remove);
  /* By identity, not position: after a delete or an undo the position may
   * hold another pin, which must not receive this editor's text. */
  at = self->editing ? ws_pin_list_find (_ws_findings_page_pins (self), ws_pin_get_id (self->editing)) : G_MAXUINT;
  if (at == G_MAXUINT || ws_pin_list_get (_ws_findings_page_pins (self), at) != self->editing)
    return;
  note = dup_note_text (self);
  ws_pin_list_edit (_ws_findings_page_pins (self), at, gtk_editable_get_text (GTK_EDITABLE (self->title_entry)), note);
  update_state (self);
}

static gboolean
commit_timeout (gpointer data)
{
  WsFindingsPage *self = data;

  self->commit_id = 0;
  _ws_findings_page_commit_edit (self);
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
  WsPinList *list = _ws_findings_page_pins (self);
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
  _ws_findings_page_commit_edit (self);
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
  _ws_findings_page_commit_edit (self);
}

static GFile *
pin_trace_file (WsFindingsPage *self,
                WsPin          *pin)
{
  if (ws_pin_get_n_traces (pin) == 0)
    return NULL;
  return g_file_new_for_path (ws_session_file_get_trace (self->file, ws_pin_get_trace (pin, 0))->path);
}

/**
 * ws_findings_page_dup_pin_trace:
 *
 * Returns: (transfer full) (nullable): the file of @pin's trace @i, %NULL
 *   if it names fewer
 */
GFile *
ws_findings_page_dup_pin_trace (WsFindingsPage *self,
                                WsPin          *pin,
                                guint           i)
{
  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), NULL);
  if (i >= ws_pin_get_n_traces (pin) || ws_pin_get_trace (pin, i) >= ws_session_file_get_n_traces (self->file))
    return NULL;
  return g_file_new_for_path (ws_session_file_get_trace (self->file, ws_pin_get_trace (pin, i))->path);
}

/* Opening a finding shows its view on another tab: only on an explicit
 * request (double click, Enter, the Open button), never on the click that
 * selects it, which may come in the middle of typing its note. */
static void
open_pin_at (WsFindingsPage *self,
             guint           position)
{
  WsPin *pin;
  g_autoptr(GFile) trace = NULL;

  if (position >= ws_pin_list_get_n (_ws_findings_page_pins (self)))
    return;
  _ws_findings_page_commit_edit (self);
  pin = ws_pin_list_get (_ws_findings_page_pins (self), position);
  trace = pin_trace_file (self, pin);
  if (trace != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_PIN], 0, pin, trace);
}

static void
row_activated_cb (WsFindingsPage *self,
                  GtkListBoxRow  *row)
{
  open_pin_at (self, (guint) gtk_list_box_row_get_index (row));
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
      _ws_findings_page_set_message (self, error->message);
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
  if (self->selected < ws_pin_list_get_n (_ws_findings_page_pins (self)))
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
      g_signal_handlers_disconnect_by_data (_ws_findings_page_pins (self), self);
    }
  g_set_object (&self->file, file);
  self->selected = G_MAXUINT;
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (_ws_findings_page_pins (self)), create_row_widget, NULL, NULL);
  g_signal_connect_object (file, "notify::dirty", G_CALLBACK (file_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (_ws_findings_page_pins (self), "changed", G_CALLBACK (file_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (_ws_findings_page_pins (self), "items-changed", G_CALLBACK (list_changed_cb), self, G_CONNECT_SWAPPED);
  self->updating_editor = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->session_title), ws_session_file_get_title (file));
  self->updating_editor = FALSE;
  load_editor (self);
}

static void
session_file_cb (WsFindingsPage *self)
{
  set_file (self, ws_session_get_session_file (ws_page_get_session (WS_PAGE (self))));
}

/* The window binds its session once (WsPage's "session"): the page shows
 * that session's findings, and follows it when another file is opened. */
static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (page);
  g_autoptr(GPtrArray) recoveries = NULL;

  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (old_session, self);
  if (session == NULL)
    return;
  g_signal_connect_object (session, "notify::session-file", G_CALLBACK (session_file_cb), self, G_CONNECT_SWAPPED);
  session_file_cb (self);

  recoveries = ws_session_file_list_recoveries ();
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "findings.recover", recoveries->len > 0);
  if (recoveries->len > 0)
    _ws_findings_page_set_message (self, _("Findings from a session that did not close cleanly were kept: use Recover to reopen them."));
}

/* ------------------------------------------------------------------ */
/* Pins, sessions, reports                                              */


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
      _ws_findings_page_set_message (self, local ? local->message : _("Only a session in a local file can be opened"));
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (self->file != NULL)
    ws_session_file_discard_recovery (self->file);
  _ws_findings_page_cancel_pending (self);   /* pins of the session being replaced */
  ws_session_set_session_file (ws_page_get_session (WS_PAGE (self)), loaded);
  /* The traces are checked by content on a worker; they open, and the
   * view is restored onto them, when that is done. */
  _ws_findings_page_open_traces (self);
  if (ws_pin_list_get_n (_ws_findings_page_pins (self)) > 0)
    ws_findings_page_select (self, 0);
  {
    g_autofree char *uri = g_file_get_uri (file);

    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  }
  return TRUE;
}

gboolean
ws_findings_page_save (WsFindingsPage  *self,
                       const char      *path,
                       GError         **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (WS_IS_FINDINGS_PAGE (self), FALSE);

  _ws_findings_page_commit_edit (self);
  g_signal_emit (self, signals[SIGNAL_COLLECT_VIEW_STATE], 0, ws_session_file_get_view_state (self->file));
  if (!ws_session_file_save (self->file, path, &local))
    {
      _ws_findings_page_set_message (self, local->message);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  _ws_findings_page_set_message (self, NULL);
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

  _ws_findings_page_commit_edit (self);
  report = ws_report_new (self->file, &local);
  if (report == NULL || !ws_report_write (report, path, &local))
    {
      _ws_findings_page_set_message (self, local->message);
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

  _ws_findings_page_commit_edit (self);
  if (ws_pin_list_get_n (_ws_findings_page_pins (self)) == 0)
    return;
  report = ws_report_new (self->file, &error);
  if (report == NULL)
    {
      _ws_findings_page_set_message (self, error->message);
      return;
    }
  window = ws_presentation_new (report, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                self->selected < ws_pin_list_get_n (_ws_findings_page_pins (self)) ? self->selected : 0);
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


static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  WsFindingsPage *self = user_data;
  WsFindingsChosenFunc func = g_object_get_data (G_OBJECT (dialog), "ws-chosen");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      func (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

void
_ws_findings_page_choose_file (WsFindingsPage       *self,
                               const char           *title,
                               GtkFileChooserAction  action,
                               const char           *suggested,
                               const char           *pattern,
                               WsFindingsChosenFunc            func)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, action, NULL, NULL);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_filter_set_name (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  ws_chooser_set_start_folder (GTK_FILE_CHOOSER (dialog), GTK_WIDGET (self));
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
      _ws_findings_page_set_message (self, text);
    }
}

static void
page_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  WsFindingsPage *self = WS_FINDINGS_PAGE (widget);

  if (g_str_equal (name, "findings.open"))
    _ws_findings_page_choose_file (self, _("Open Session"), GTK_FILE_CHOOSER_ACTION_OPEN, NULL, "*.waitscope", open_chosen);
  else if (g_str_equal (name, "findings.save") && ws_session_file_get_path (self->file) != NULL)
    ws_findings_page_save (self, NULL, NULL);
  else if (g_str_equal (name, "findings.save") || g_str_equal (name, "findings.save-as"))
    _ws_findings_page_choose_file (self, _("Save Session"), GTK_FILE_CHOOSER_ACTION_SAVE, _("findings.waitscope"), "*.waitscope",
                 save_chosen);
  else if (g_str_equal (name, "findings.export"))
    _ws_findings_page_choose_file (self, _("Export Report (.html or .pdf)"), GTK_FILE_CHOOSER_ACTION_SAVE, _("report.html"),
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

  _ws_findings_page_commit_edit (self);
  if (g_str_equal (name, "findings.undo"))
    ws_pin_list_undo (_ws_findings_page_pins (self));
  else if (at >= ws_pin_list_get_n (_ws_findings_page_pins (self)))
    return;
  else if (g_str_equal (name, "findings.open-finding"))
    open_pin_at (self, at);
  else if (g_str_equal (name, "findings.delete"))
    ws_pin_list_remove (_ws_findings_page_pins (self), at);
  else if (g_str_equal (name, "findings.up") && at > 0)
    {
      ws_pin_list_move (_ws_findings_page_pins (self), at, at - 1);
      ws_findings_page_select (self, at - 1);
    }
  else if (g_str_equal (name, "findings.down") && at + 1 < ws_pin_list_get_n (_ws_findings_page_pins (self)))
    {
      ws_pin_list_move (_ws_findings_page_pins (self), at, at + 1);
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
  _ws_findings_page_cancel_pending (self);
  if (self->trace_checker != NULL)
    ws_worker_drop (self->trace_checker);
  g_clear_object (&self->trace_checker);
  if (self->locator != NULL)
    ws_worker_drop (self->locator);
  g_clear_object (&self->locator);
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
      g_signal_handlers_disconnect_by_data (_ws_findings_page_pins (self), self);
    }
  g_clear_object (&self->file);
  g_clear_object (&self->editing);

  G_OBJECT_CLASS (ws_findings_page_parent_class)->dispose (object);
}

static void
ws_findings_page_class_init (WsFindingsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  static const char * const page_actions[] = {
    "findings.open", "findings.save", "findings.save-as", "findings.export", "findings.present", "findings.recover",
  };
  static const char * const edit_actions[] = {
    "findings.undo", "findings.delete", "findings.up", "findings.down", "findings.open-finding",
  };

  object_class->dispose = ws_findings_page_dispose;
  page_class->session_changed = session_changed;
  ws_page_class_set_title (page_class, N_("Findings"));
  gtk_widget_class_set_css_name (widget_class, "findings-page");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);

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

/* The session's title is the report's cover title: asked for here, in
 * words, rather than left to the "Waitscope findings" fallback. */
static void
session_title_changed_cb (WsFindingsPage *self)
{
  if (self->updating_editor || self->file == NULL)
    return;
  ws_session_file_set_title (self->file, gtk_editable_get_text (GTK_EDITABLE (self->session_title)));
}

static GtkWidget *
build_title_row (WsFindingsPage *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("Report _title"));

  self->session_title = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->session_title), "session-title");
  gtk_entry_set_placeholder_text (self->session_title,
                                  _("What is this investigation about? (the report's cover title)"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->session_title),
                               _("The session's title: the cover page of the exported report and of the presentation"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->session_title));
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_hexpand (GTK_WIDGET (self->session_title), TRUE);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->session_title));
  g_signal_connect_swapped (self->session_title, "changed", G_CALLBACK (session_title_changed_cb), self);
  return row;
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
  {
    GtkWidget *open = gtk_button_new_with_mnemonic (_("_Open"));

    gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "findings.open-finding");
    gtk_widget_set_tooltip_text (open, _("Show this finding's view (or double-click it, or press Enter on it)"));
    gtk_widget_add_css_class (open, "suggested-action");
    gtk_widget_set_hexpand (open, TRUE);
    gtk_widget_set_halign (open, GTK_ALIGN_START);
    gtk_box_append (GTK_BOX (moves), open);
  }
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
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 6);
  self->selected = G_MAXUINT;
  self->hasher = ws_trace_hasher_new ();
  g_queue_init (&self->pending);

  gtk_widget_set_parent (build_title_row (self), GTK_WIDGET (self));
  gtk_widget_set_parent (build_toolbar (self), GTK_WIDGET (self));
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "warning");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->message), GTK_WIDGET (self));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Findings"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 320, -1);
  /* A click selects; a double click or Enter opens (row-activated). */
  gtk_list_box_set_activate_on_single_click (self->list, FALSE);
  g_signal_connect_swapped (self->list, "row-selected", G_CALLBACK (row_selected_cb), self);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  self->editor = build_editor (self);
  gtk_box_append (GTK_BOX (panes), scroll);
  gtk_box_append (GTK_BOX (panes), self->editor);
  gtk_widget_set_vexpand (panes, TRUE);
  gtk_widget_set_parent (panes, GTK_WIDGET (self));
}
