/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's part in findings, kept out of ws-window.c: pin what the
 * window shows (Ctrl+D; the Contrast page's graphs by win.pin-contrast), save / open sessions, present (F5), show a pin
 * again in its view, and the view state saved with the session.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include <math.h>

#include "ws-anomaly-state.h"
#include "ws-pin-capture.h"
#include "ws-window-private.h"
#include "ws-window-findings.h"

/* The Findings tab appears once there is something to show in it, so a
 * window without findings keeps its room for the timeline. */
static void
reveal_findings (WsWindow *self,
                 gboolean  show)
{
  GtkWidget *page = GTK_WIDGET (ws_window_get_findings_page (self));
  GtkWidget *stack = gtk_widget_get_parent (page);

  if (GTK_IS_STACK (stack))
    gtk_stack_page_set_visible (gtk_stack_get_page (GTK_STACK (stack), page), TRUE);
  if (show)
    ws_window_show_details_page (self, "findings");
}

/* A pin of what @page shows, added to the findings over its traces;
 * FALSE when the page has nothing to pin and nothing to say (the caller
 * pins the timeline then). */
static gboolean
pin_page (WsWindow   *self,
          WsPage     *page,
          const char *what)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *message = NULL;
  g_autoptr(WsPin) pin = ws_page_capture_pin (page, what, files, &message);

  if (pin == NULL || files->len == 0)
    {
      if (message != NULL)
        ws_window_show_toast (self, message);
      return message != NULL;
    }
  ws_findings_page_add_pin_traces (ws_window_get_findings_page (self), pin, (GFile **) files->pdata, files->len);
  reveal_findings (self, FALSE);
  return TRUE;
}

/* The page shown, if it has a pin of what it shows, else the timeline. */
static void
pin_view (WsWindow *self)
{
  WsDocument *document = ws_window_get_current_document (self);
  GtkWidget *shown = gtk_stack_get_visible_child (self->details_stack);
  g_autoptr(WsPin) pin = NULL;

  if (WS_IS_PAGE (shown) && pin_page (self, WS_PAGE (shown), NULL))
    return;
  if (document == NULL || ws_document_get_state (document) != WS_DOCUMENT_READY)
    return;
  if ((pin = ws_pin_capture_timeline (document)) != NULL)
    {
      ws_findings_page_add_pin (ws_window_get_findings_page (self), pin, ws_document_get_file (document));
      reveal_findings (self, FALSE);
    }
}

/* win.pin-contrast: the page that owns contrast pins, @what as asked. */
static void
pin_contrast (WsWindow   *self,
              const char *what)
{
  WsPage *page = _ws_window_find_pin_page (self, WS_PIN_KIND_CONTRAST);

  if (page != NULL)
    pin_page (self, page, what);
}

/* The model of the wait selected in the timeline (the Wait Model window's
 * Pin button, or the action with a wait selected). */
static void
pin_wait_model (WsWindow *self)
{
  WsDocument *document = ws_window_get_current_document (self);
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  WsAnomalyResult *result = ws_anomaly_state_get_result (state);
  g_autoptr(WsPin) pin = NULL;
  const WsEvent *e;
  WsTrace *trace;
  guint event;

  if (document == NULL || ws_document_get_state (document) != WS_DOCUMENT_READY)
    return;
  trace = ws_document_get_trace (document);
  event = ws_timeline_viewport_get_selected_event (ws_document_get_viewport (document));
  if (event == WS_NONE || ws_trace_get_event (trace, event)->kind != WS_EVENT_WAIT)
    {
      ws_window_show_toast (self, _("Select a finished wait in the timeline first"));
      return;
    }
  e = ws_trace_get_event (trace, event);
  pin = ws_pin_new (WS_PIN_KIND_ANOMALY_MODEL);
  ws_pin_set_tid (pin, ws_trace_get_thread (trace, e->thread)->tid);
  ws_pin_set_window (pin, e->time, e->time + ws_event_duration (e));
  ws_pin_set_event (pin, event);
  if (result != NULL)
    {
      const WsAnomalySettings *settings = ws_anomaly_result_get_settings (result);

      ws_pin_set_setting_int (pin, "threshold_ppm", (gint64) llround (settings->threshold * 1e6));
      ws_pin_set_setting_int (pin, "signature_depth", settings->signature_depth);
    }
  {
    g_autofree char *title = g_strdup_printf (_("Model of a wait of %s (%d)"),
                                              ws_trace_get_thread (trace, e->thread)->name,
                                              ws_trace_get_thread (trace, e->thread)->tid);
    ws_pin_set_title (pin, title);
  }
  ws_findings_page_add_pin (ws_window_get_findings_page (self), pin, ws_document_get_file (document));
  reveal_findings (self, FALSE);
}

static void
findings_action (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  GtkWidget *page = GTK_WIDGET (ws_window_get_findings_page (self));

  if (g_str_equal (name, "win.pin-view"))
    pin_view (self);
  else if (g_str_equal (name, "win.pin-wait-model"))
    pin_wait_model (self);
  else if (g_str_equal (name, "win.pin-contrast"))
    pin_contrast (self, g_variant_get_string (param, NULL));
  else if (g_str_equal (name, "win.present"))
    ws_findings_page_present (WS_FINDINGS_PAGE (page));
  else if (g_str_equal (name, "win.save-session"))
    gtk_widget_activate_action (page, "findings.save", NULL);
  else if (g_str_equal (name, "win.open-session"))
    gtk_widget_activate_action (page, "findings.open", NULL);
  else if (g_str_equal (name, "win.export-report"))
    gtk_widget_activate_action (page, "findings.export", NULL);
  else if (g_str_equal (name, "win.show-findings"))
    reveal_findings (self, TRUE);
}

void
ws_window_findings_install_actions (GtkWidgetClass *widget_class)
{
  static const char * const names[] = {
    "win.pin-view", "win.pin-wait-model", "win.present", "win.save-session", "win.open-session", "win.export-report", "win.show-findings",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    gtk_widget_class_install_action (widget_class, names[i], NULL, findings_action);
  gtk_widget_class_install_action (widget_class, "win.pin-contrast", "s", findings_action);
}

static void
open_trace_cb (WsWindow       *self,
               GFile          *file,
               WsFindingsPage *page)
{
  ws_window_open_trace (self, file);
}

static void
unref_file (gpointer file)
{
  if (file != NULL)
    g_object_unref (file);
}

/* The page that owns the pin's kind shows it; the timeline's own kinds
 * (a window of it, a wait's model) are the window's. */
static void
apply_pin (WsWindow *self,
           WsPin    *pin)
{
  WsDocument *document = ws_window_get_current_document (self);
  WsPage *page = _ws_window_find_pin_page (self, ws_pin_get_kind (pin));
  WsTimelineViewport *viewport;

  if (page != NULL)
    {
      guint n = ws_pin_get_n_traces (pin);
      g_autoptr(GPtrArray) traces = g_ptr_array_new_full (n, unref_file);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (traces, ws_findings_page_dup_pin_trace (ws_window_get_findings_page (self), pin, i));
      gtk_stack_set_visible_child (self->details_stack, GTK_WIDGET (page));
      ws_page_apply_pin (page, pin, (GFile **) traces->pdata, traces->len);
      return;
    }
  if (!ws_pin_select_in_timeline (pin, document))
    return;
  viewport = ws_document_get_viewport (document);
  if (g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_ANOMALY_MODEL) && ws_pin_get_event (pin) >= 0
      && ws_pin_get_event (pin) < ws_trace_get_n_events (ws_document_get_trace (document)))
    {
      ws_timeline_viewport_set_selected_event (viewport, ws_pin_get_event (pin));
      gtk_widget_activate_action (GTK_WIDGET (self), "win.show-wait-model", NULL);
    }
}

static void
show_pin_cb (WsWindow       *self,
             WsPin          *pin,
             GFile          *trace,
             WsFindingsPage *page)
{
  WsDocument *document = ws_window_open_trace (self, trace);

  /* A trace still loading: the pin is shown again once it is ready. */
  if (document != NULL && ws_document_get_state (document) == WS_DOCUMENT_READY)
    apply_pin (self, pin);
}

static void
collect_view_state_cb (WsWindow       *self,
                       JsonObject     *state,
                       WsFindingsPage *page)
{
  WsDocument *document = ws_window_get_current_document (self);
  const char *shown = ws_window_get_details_page (self);

  if (shown != NULL)
    json_object_set_string_member (state, "page", shown);
  if (document != NULL && ws_document_get_state (document) == WS_DOCUMENT_READY)
    {
      WsTimelineViewport *viewport = ws_document_get_viewport (document);
      JsonObject *span = json_object_new ();
      g_autofree char *path = g_file_get_path (ws_document_get_file (document));

      json_object_set_int_member (span, "from_ns", ws_timeline_viewport_get_begin (viewport));
      json_object_set_int_member (span, "to_ns", ws_timeline_viewport_get_end (viewport));
      json_object_set_object_member (state, "timeline", span);
      if (path != NULL)
        json_object_set_string_member (state, "current_trace", path);
    }
}

static void
restore_when_ready_cb (WsDocument *document,
                       GParamSpec *pspec,
                       JsonObject *span)
{
  if (ws_document_get_state (document) != WS_DOCUMENT_READY)
    return;
  g_signal_handlers_disconnect_by_func (document, restore_when_ready_cb, span);
  ws_timeline_viewport_set_visible (ws_document_get_viewport (document),
                                    json_object_get_int_member (span, "from_ns"),
                                    json_object_get_int_member (span, "to_ns"));
}

static void
span_free (gpointer  data,
           GClosure *closure)
{
  json_object_unref (data);
}

/* Is @path one of the session's traces, checked by content and open
 * (the check opens each trace it finds before the view is restored)? */
static gboolean
is_session_trace (WsWindow   *self,
                  const char *path)
{
  WsSessionFile *file = ws_session_get_session_file (ws_window_get_session (self));
  GListModel *documents = ws_window_get_documents (self);
  g_autoptr(GFile) wanted = g_file_new_for_path (path);

  if (ws_session_file_find_trace (file, path) == G_MAXUINT)
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (documents); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (documents, i);
      if (g_file_equal (ws_document_get_file (document), wanted))
        return TRUE;
    }
  return FALSE;
}

static void
restore_view_state_cb (WsWindow       *self,
                       JsonObject     *state,
                       WsFindingsPage *page)
{
  const char *shown = json_object_get_string_member_with_default (state, "page", NULL);
  const char *current = json_object_get_string_member_with_default (state, "current_trace", NULL);
  JsonNode *span = json_object_get_member (state, "timeline");

  if (shown != NULL && g_str_equal (shown, "findings"))
    reveal_findings (self, TRUE);
  else if (shown != NULL && (g_str_equal (shown, "details") || g_str_equal (shown, "threads") ||
                             g_str_equal (shown, "graph") || g_str_equal (shown, "mining")))
    ws_window_show_details_page (self, shown);
  /* Only onto a trace of the session's own, already checked by content:
   * a view state naming any other file is ignored. */
  if (current != NULL && span != NULL && JSON_NODE_HOLDS_OBJECT (span) && is_session_trace (self, current))
    {
      g_autoptr(GFile) file = g_file_new_for_path (current);
      WsDocument *document = ws_window_open_trace (self, file);
      JsonObject *copy = json_object_ref (json_node_get_object (span));

      if (document == NULL)
        {
          json_object_unref (copy);
          return;
        }
      g_signal_connect_data (document, "notify::state", G_CALLBACK (restore_when_ready_cb), copy,
                             span_free, 0);
      restore_when_ready_cb (document, NULL, copy);
    }
}

/* A session saved or opened joins the recent list (the menu's Open
 * Recent and the start screen's). */
static void
session_path_cb (WsWindow *self)
{
  WsSessionFile *file = ws_session_get_session_file (ws_window_get_session (self));
  const char *path = ws_session_file_get_path (file);

  if (path != NULL && !ws_session_file_is_recovery (file))
    {
      g_autoptr(GFile) gfile = g_file_new_for_path (path);
      ws_window_add_recent (self, gfile);
    }
}

static void
session_file_cb (WsWindow *self)
{
  WsSessionFile *file = ws_session_get_session_file (ws_window_get_session (self));

  g_signal_connect_object (file, "notify::path", G_CALLBACK (session_path_cb), self, G_CONNECT_SWAPPED);
  session_path_cb (self);
}

/* ------------------------------------------------------------------ */
/* Closing with unsaved findings: Save / Discard / Cancel               */

#define CLOSE_CONFIRMED "ws-close-confirmed"

static void
close_now (WsWindow *self)
{
  g_object_set_data (G_OBJECT (self), CLOSE_CONFIRMED, GINT_TO_POINTER (TRUE));
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
close_idle (gpointer data)
{
  close_now (data);
  return G_SOURCE_REMOVE;
}

static void
saved_before_close_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(WsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* Not saved (cancelled, or the error is shown in the Findings tab): stay. */
  if (ws_findings_page_save_finish (WS_FINDINGS_PAGE (source), result, &error))
    close_now (self);
  else
    reveal_findings (self, TRUE);
}

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   WsWindow         *self)
{
  WsFindingsPage *page = ws_window_get_findings_page (self);

  if (g_str_equal (response, "save"))
    ws_findings_page_save_async (page, saved_before_close_cb, g_object_ref (self));
  else if (g_str_equal (response, "discard"))
    {
      ws_findings_page_discard (page);
      /* Once the dialog has closed: it is transient for this window. */
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_idle, g_object_ref (self), g_object_unref);
    }
}

static gboolean
close_request_cb (WsWindow *self)
{
  WsFindingsPage *page = ws_window_get_findings_page (self);
  WsSessionFile *file = ws_session_get_session_file (ws_window_get_session (self));
  const char *path = ws_session_file_get_path (file);
  g_autofree char *name = path ? g_path_get_basename (path) : NULL;
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  if (g_object_get_data (G_OBJECT (self), CLOSE_CONFIRMED) || !ws_findings_page_has_unsaved (page))
    return FALSE;
  body = name != NULL
         ? g_strdup_printf (_("The findings in “%s” have changes that are not saved. Discarded changes are lost."), name)
         : g_strdup (_("The findings of this window are not saved in a session file. Discarded findings are lost."));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("Save Findings?"), body));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "discard", _("_Discard"),
                                    "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

void
ws_window_findings_init (WsWindow       *self,
                         WsFindingsPage *page)
{
  g_signal_connect_object (ws_window_get_session (self), "notify::session-file", G_CALLBACK (session_file_cb),
                           self, G_CONNECT_SWAPPED);
  session_file_cb (self);
  g_signal_connect_object (page, "open-trace", G_CALLBACK (open_trace_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "show-pin", G_CALLBACK (show_pin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "collect-view-state", G_CALLBACK (collect_view_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "restore-view-state", G_CALLBACK (restore_view_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);
}

/* Returns: %TRUE if @file is a session (opened here, or the error shown). */
gboolean
ws_window_findings_open_session (WsWindow       *self,
                                 WsFindingsPage *page,
                                 GFile          *file)
{
  g_autofree char *name = g_file_get_basename (file);

  if (name == NULL || !g_str_has_suffix (name, ".waitscope"))
    return FALSE;
  ws_findings_page_open_session (page, file, NULL);
  reveal_findings (self, TRUE);
  return TRUE;
}
