/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's anomaly actions, kept apart from ws-window.c (which is
 * already long): flag the selected wait anomalous or not anomalous, remove
 * its flag, undo the last flag, show its model (Fig. 6), list the flags,
 * and colour the timeline by anomaly score.  They act on the wait selected
 * in the timeline of the current trace, or on the Graph page's selected
 * node when the focus is on that page, through the session only.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-anomaly-state.h"
#include "ws-flags-window.h"
#include "ws-model-window.h"
#include "ws-preferences-window.h"
#include "ws-window-anomaly.h"
#include "ws-window-private.h"

/* The Graph page's selected wait when the keyboard focus is on that page
 * (its graph, table or side panel), so that the same keys flag a node. */
static WsDocument *
graph_wait (WsWindow *self,
            guint    *event)
{
  GtkWidget *page = GTK_WIDGET (ws_window_get_graph_page (self));
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (page == NULL || focus == NULL || (focus != page && !gtk_widget_is_ancestor (focus, page)))
    return NULL;
  return ws_graph_flags_get_selected_wait (ws_graph_page_get_flags (WS_GRAPH_PAGE (page)), event);
}

static WsDocument *
current_wait (WsWindow *self,
              guint    *event)
{
  WsSession *session = ws_window_get_session (self);
  WsDocument *doc = ws_session_get_current_document (session);
  WsDocument *graph_doc = graph_wait (self, event);

  if (graph_doc != NULL)
    return graph_doc;
  if (doc == NULL || ws_document_get_viewport (doc) == NULL)
    return NULL;
  *event = ws_timeline_viewport_get_selected_event (ws_document_get_viewport (doc));
  return *event == WS_NONE ? NULL : doc;
}

static void
apply_flag (WsWindow      *self,
            WsDocument    *doc,
            guint          event,
            WsAnomalyFlag  verdict,
            gboolean       wait_only)
{
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  g_autoptr(GError) error = NULL;

  if (!ws_anomaly_state_flag_scoped (state, doc, event, verdict, wait_only, &error))
    ws_window_show_toast (self, error->message);
  else
    ws_window_show_toast (self, verdict == WS_ANOMALY_FLAG_NONE ? _("Flag removed")
                                : wait_only ? (verdict == WS_ANOMALY_FLAG_ANOMALOUS ? _("Flagged anomalous, this wait only")
                                                                                     : _("Flagged not anomalous, this wait only"))
                                : verdict == WS_ANOMALY_FLAG_ANOMALOUS ? _("Flagged anomalous")
                                : _("Flagged not anomalous"));
}

static void
reach_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   gpointer          data)
{
  WsWindow *self = data;
  WsDocument *doc = g_object_get_data (G_OBJECT (dialog), "ws-document");
  guint event = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "ws-event"));
  WsAnomalyFlag verdict = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "ws-verdict"));

  if (g_str_equal (response, "kind") || g_str_equal (response, "wait"))
    apply_flag (self, doc, event, verdict, g_str_equal (response, "wait"));
}

/* A flag that would change other waits of its kind shows how many
 * before it lands, and lets the analyst keep it to this wait. */
static void
show_reach (WsWindow          *self,
            WsDocument        *doc,
            guint              event,
            WsAnomalyFlag      verdict,
            const WsFlagReach *reach)
{
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  const WsAnomalyModel *model = ws_anomaly_result_get_model (ws_anomaly_state_get_result (state),
                                                             ws_anomaly_state_lookup (state, doc, event)->model);

  g_autofree char *kind = ws_wait_signature_to_display (reach->signature);

  body = g_strdup_printf (_("Its kind learns from the flag: %u other waits of it would become anomalous "
                            "and %u not anomalous (threshold %.3g → %.3g).\n\nKind, caller first: %s"),
                          reach->n_to_anomalous, reach->n_to_normal, model->threshold, reach->threshold,
                          kind);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                       verdict == WS_ANOMALY_FLAG_ANOMALOUS ? _("Flag as Anomalous?")
                                                                                             : _("Flag as Not Anomalous?"),
                                                       body));
  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), "wait", _("This _Wait Only"),
                                    "kind", _("_Apply to Its Kind"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "kind", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "kind");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "ws-document", g_object_ref (doc), g_object_unref);
  g_object_set_data (G_OBJECT (dialog), "ws-event", GUINT_TO_POINTER (event));
  g_object_set_data (G_OBJECT (dialog), "ws-verdict", GINT_TO_POINTER (verdict));
  g_signal_connect_object (dialog, "response", G_CALLBACK (reach_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
flag_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  g_autoptr(GError) error = NULL;
  WsAnomalyFlag verdict = g_str_equal (action_name, "win.flag-anomalous") ? WS_ANOMALY_FLAG_ANOMALOUS
                        : g_str_equal (action_name, "win.flag-normal") ? WS_ANOMALY_FLAG_NORMAL
                        : WS_ANOMALY_FLAG_NONE;
  WsFlagReach reach;
  WsDocument *doc;
  guint event;

  if ((doc = current_wait (self, &event)) == NULL)
    {
      ws_window_show_toast (self, _("Select a wait in the timeline or the graph first"));
      return;
    }
  if (verdict != WS_ANOMALY_FLAG_NONE && ws_anomaly_state_flag_reach (state, doc, event, verdict, &reach)
      && reach.n_to_anomalous + reach.n_to_normal > 0)
    show_reach (self, doc, event, verdict, &reach);
  else
    apply_flag (self, doc, event, verdict, FALSE);
}

static void
undo_flag_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  g_autoptr(GError) error = NULL;

  if (!ws_anomaly_state_can_undo (state))
    ws_window_show_toast (self, _("No flag to undo"));
  else if (!ws_anomaly_state_undo (state, &error))
    ws_window_show_toast (self, error->message);
  else
    ws_window_show_toast (self, _("Flag undone"));
}

static void
show_model_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (self));
  const WsWaitScore *score;
  WsDocument *doc;
  guint event;

  if ((doc = current_wait (self, &event)) == NULL
      || (score = ws_anomaly_state_lookup (state, doc, event)) == NULL)
    {
      ws_window_show_toast (self, _("Select a finished wait in the timeline or the graph first"));
      return;
    }
  gtk_window_present (GTK_WINDOW (ws_model_window_new (GTK_WINDOW (self), ws_anomaly_state_get_result (state), score,
                                                       ws_event_duration (ws_trace_get_event (ws_document_get_trace (doc), event)))));
}

static void
show_flags_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);

  gtk_window_present (GTK_WINDOW (ws_flags_window_new (GTK_WINDOW (self), ws_window_get_session (self))));
}

/* The colours are the "anomaly-colours" setting (Preferences shows it
 * too); without settings, a per-window switch.  Off to start with: on by
 * default they painted most waits red before the detector had learnt
 * what is usual. */
static gboolean
colours_off (WsWindow *self)
{
  GSettings *settings = ws_session_get_settings (ws_window_get_session (self));

  if (settings != NULL)
    return !g_settings_get_boolean (settings, "anomaly-colours");
  return !GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "ws-anomaly-colours-on"));
}

static void
anomaly_colours_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  GSettings *settings = ws_session_get_settings (ws_window_get_session (self));
  gboolean off = colours_off (self);

  if (settings != NULL)
    g_settings_set_boolean (settings, "anomaly-colours", off);   /* changed:: updates */
  else
    {
      g_object_set_data (G_OBJECT (self), "ws-anomaly-colours-on", GINT_TO_POINTER (off));
      ws_window_anomaly_update (self);
    }
}

static void
preferences_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  WsWindow *self = WS_WINDOW (widget);
  GSettings *settings = ws_session_get_settings (ws_window_get_session (self));

  if (settings == NULL)
    {
      ws_window_show_toast (self, _("The settings schema is not installed"));
      return;
    }
  gtk_window_present (GTK_WINDOW (ws_preferences_window_new (GTK_WINDOW (self), settings)));
}

void
ws_window_anomaly_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.flag-anomalous", NULL, flag_action);
  gtk_widget_class_install_action (widget_class, "win.flag-normal", NULL, flag_action);
  gtk_widget_class_install_action (widget_class, "win.unflag", NULL, flag_action);
  gtk_widget_class_install_action (widget_class, "win.undo-flag", NULL, undo_flag_action);
  gtk_widget_class_install_action (widget_class, "win.show-wait-model", NULL, show_model_action);
  gtk_widget_class_install_action (widget_class, "win.show-flags", NULL, show_flags_action);
  gtk_widget_class_install_action (widget_class, "win.anomaly-colours", NULL, anomaly_colours_action);
  /* Here with the anomaly settings it mostly shows (ws-window.c is being
   * split): every setting of the schema. */
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_action);
}

/**
 * ws_window_anomaly_update:
 *
 * Hands the current trace's scores to the timeline (or none when the
 * colours are off); called when the scores or the current trace change.
 */
void
ws_window_anomaly_update (WsWindow *self)
{
  WsSession *session = ws_window_get_session (self);
  WsAnomalyState *state = ws_session_get_anomaly_state (session);
  WsDocument *doc = ws_session_get_current_document (session);
  guint trace = doc ? ws_anomaly_state_find_trace (state, doc) : WS_NONE;
  gboolean off = colours_off (self);

  WsAnomalyResult *shown = trace == WS_NONE || off ? NULL : ws_anomaly_state_get_result (state);

  ws_timeline_view_set_anomalies (ws_window_get_timeline_view (self), shown, trace);
  /* The colours' key under the timeline, where it hides no thread. */
  ws_timeline_legend_set_anomaly_threshold (self->legend,
                                            shown ? ws_anomaly_result_get_settings (shown)->threshold : NAN);
}

static void
recording_cb (WsDocument *document,
              GParamSpec *pspec,
              WsWindow   *self)
{
  const GError *error = ws_document_get_history_error (document);

  if (ws_document_get_recording (document) || error == NULL)
    return;
  {
    /* Translators: toast when a trace opened fine but the history store failed */
    g_autofree char *text = g_strdup_printf (_("%s was not recorded in the history: %s"),
                                             ws_document_get_title (document), error->message);
    ws_window_show_toast (self, text);
  }
}

/**
 * ws_window_anomaly_prepare_document:
 *
 * Before @document loads: its wait history is recorded at the signature
 * depth of the settings, in the background once it shows; a failure to
 * record is said in a toast then.
 */
void
ws_window_anomaly_prepare_document (WsWindow   *self,
                                    WsDocument *document)
{
  GSettings *settings = ws_session_get_settings (ws_window_get_session (self));

  if (settings != NULL)
    ws_document_set_signature_depth (document, g_settings_get_uint (settings, "anomaly-signature-depth"));
  g_signal_connect_object (document, "notify::recording", G_CALLBACK (recording_cb), self, 0);
}

void
ws_window_anomaly_attach (WsWindow *self)
{
  WsSession *session = ws_window_get_session (self);

  g_signal_connect_object (ws_session_get_anomaly_state (session), "changed",
                           G_CALLBACK (ws_window_anomaly_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::current-document",
                           G_CALLBACK (ws_window_anomaly_update), self, G_CONNECT_SWAPPED);
  if (ws_session_get_settings (session) != NULL)
    g_signal_connect_object (ws_session_get_settings (session), "changed::anomaly-colours",
                             G_CALLBACK (ws_window_anomaly_update), self, G_CONNECT_SWAPPED);
}
