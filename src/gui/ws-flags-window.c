/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsFlagsWindow (see the header).  It reloads whenever the session's
 * anomaly state changes, so a flag set elsewhere shows at once.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-anomaly-state.h"
#include "ws-flags-window.h"
#include "ws-time-format.h"

struct _WsFlagsWindow
{
  AdwWindow   parent_instance;

  WsSession  *session;
  GtkListBox *list;
  GtkLabel   *empty;
  gulong      changed_id;
};

G_DEFINE_FINAL_TYPE (WsFlagsWindow, ws_flags_window, ADW_TYPE_WINDOW)

static void
ws_flags_window_dispose (GObject *object)
{
  WsFlagsWindow *self = WS_FLAGS_WINDOW (object);

  if (self->session != NULL)
    g_clear_signal_handler (&self->changed_id, ws_session_get_anomaly_state (self->session));
  g_clear_object (&self->session);
  G_OBJECT_CLASS (ws_flags_window_parent_class)->dispose (object);
}

static void
ws_flags_window_class_init (WsFlagsWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_flags_window_dispose;
}

static void
ws_flags_window_init (WsFlagsWindow *self)
{
}

/* The open document with this digest and the flagged wait in it. */
static WsDocument *
find_wait (WsFlagsWindow *self,
           const char    *digest,
           gint64         time,
           gint32         tid,
           guint         *event)
{
  GListModel *docs = ws_session_get_documents (self->session);

  for (guint i = 0; i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (docs, i);
      WsTrace *trace = ws_document_get_trace (doc);
      const WsThread *th;
      guint thread;

      if (trace == NULL || g_strcmp0 (ws_document_get_digest (doc), digest) != 0)
        continue;
      if ((thread = ws_trace_find_thread (trace, tid)) == WS_NONE)
        continue;
      th = ws_trace_get_thread (trace, thread);
      for (guint k = 0; k < th->n_events; k++)
        if (ws_trace_get_event (trace, th->events[k])->time == time
            && ws_trace_get_event (trace, th->events[k])->kind == WS_EVENT_WAIT)
          {
            *event = th->events[k];
            return doc;
          }
    }
  return NULL;
}

/* Centres the wait in the timeline, four times its length wide, and
 * selects it (the details pane then shows its stacks). */
static void
show_event (WsDocument *doc,
            guint       event)
{
  WsTimelineViewport *viewport = ws_document_get_viewport (doc);
  const WsEvent *e = ws_trace_get_event (ws_document_get_trace (doc), event);
  WsTime span = MAX (ws_event_duration (e) * 4, 1000000);

  ws_timeline_viewport_set_visible (viewport, e->time + ws_event_duration (e) / 2 - span / 2,
                                    e->time + ws_event_duration (e) / 2 + span / 2);
  ws_timeline_viewport_set_selected_event (viewport, event);
}

static void
jump_clicked_cb (GtkButton     *button,
                 WsFlagsWindow *self)
{
  const char *digest = g_object_get_data (G_OBJECT (button), "digest");
  gint64 time = *(gint64 *) g_object_get_data (G_OBJECT (button), "time");
  gint32 tid = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "tid"));
  WsDocument *doc;
  guint event;

  if ((doc = find_wait (self, digest, time, tid, &event)) == NULL)
    return;
  ws_session_set_current_document (self->session, doc);
  show_event (doc, event);
}

static GtkWidget *
flag_row (WsFlagsWindow    *self,
          const WsWaitFlag *f)
{
  g_autofree char *dur = ws_format_duration (f->duration);
  g_autofree char *title = NULL, *subtitle = NULL;
  GtkWidget *row = adw_action_row_new (), *button;
  guint event;
  gboolean open = find_wait (self, f->trace_digest, f->event_time, f->tid, &event) != NULL;

  /* Translators: a row of the flag list: verdict, thread id, duration */
  title = g_strdup_printf (_("%s — thread %d, %s"),
                           f->flag == WS_ANOMALY_FLAG_ANOMALOUS ? _("Anomalous") : _("Not anomalous"),
                           f->tid, dur);
  subtitle = g_markup_escape_text (f->signature, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  button = gtk_button_new_with_label (_("Show"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (button, open);
  gtk_widget_set_tooltip_text (button, open ? _("Show this wait in the timeline")
                                            : _("Its trace is not open"));
  g_object_set_data_full (G_OBJECT (button), "digest", g_strdup (f->trace_digest), g_free);
  g_object_set_data_full (G_OBJECT (button), "time", g_memdup2 (&f->event_time, sizeof f->event_time), g_free);
  g_object_set_data (G_OBJECT (button), "tid", GINT_TO_POINTER (f->tid));
  g_signal_connect (button, "clicked", G_CALLBACK (jump_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  return row;
}

void
ws_flags_window_reload (WsFlagsWindow *self)
{
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  flags = ws_anomaly_state_list_flags (ws_session_get_anomaly_state (self->session), &error);
  for (guint i = flags ? flags->len : 0; i > 0; i--)
    gtk_list_box_append (self->list, flag_row (self, &g_array_index (flags, WsWaitFlag, i - 1)));
  gtk_widget_set_visible (GTK_WIDGET (self->empty), flags == NULL || flags->len == 0);
  if (error != NULL)
    gtk_label_set_text (self->empty, error->message);
}

WsFlagsWindow *
ws_flags_window_new (GtkWindow *parent,
                     WsSession *session)
{
  WsFlagsWindow *self = g_object_new (WS_TYPE_FLAGS_WINDOW, "transient-for", parent,
                                      "default-width", 560, "default-height", 480,
                                      "title", _("Anomaly Flags"), NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0), *scrolled;

  self->session = g_object_ref (session);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  self->empty = GTK_LABEL (gtk_label_new (_("No wait is flagged yet.  Select a wait and press Ctrl+Alt+A "
                                            "(anomalous) or Ctrl+Alt+N (not anomalous).")));
  gtk_label_set_wrap (self->empty, TRUE);
  gtk_widget_set_margin_top (GTK_WIDGET (self->empty), 24);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->empty));
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->list), 12);
  gtk_widget_set_valign (GTK_WIDGET (self->list), GTK_ALIGN_START);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flagged waits"), -1);
  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));
  gtk_box_append (GTK_BOX (box), scrolled);
  adw_window_set_content (ADW_WINDOW (self), box);
  self->changed_id = g_signal_connect_swapped (ws_session_get_anomaly_state (session), "changed",
                                               G_CALLBACK (ws_flags_window_reload), self);
  ws_flags_window_reload (self);
  return self;
}
