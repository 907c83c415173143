/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's search bar: a stack search of the current trace run in a
 * thread (results of a search typed past are dropped), Tab / Shift+Tab
 * and Next / Previous stepping through the matches in the timeline.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-window-private.h"

typedef struct {
  WsTrace *trace;
  char    *pattern;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_clear_object (&job->trace);
  g_free (job->pattern);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  GError *error = NULL;
  WsStackSearch *search = ws_stack_search_new (job->trace, job->pattern, cancellable, &error);

  if (search == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, search, g_object_unref);
}

static void
show_search_status (WsWindow      *self,
                    WsStackSearch *search)
{
  guint n = ws_stack_search_get_n_matches (search);
  g_autofree char *text = NULL;

  if (n == 0)
    text = g_strdup (_("No matches"));
  else
    {
      guint nf = ws_stack_search_get_n_frames (search);
      g_autofree char *events = g_strdup_printf (ngettext ("%u event", "%u events", n), n);
      g_autofree char *frames = g_strdup_printf (ngettext ("%u frame", "%u frames", nf), nf);

      /* Translators: search status: "96 events, 1 frame" (each counted in its own plural) */
      text = g_strdup_printf (_("%s, %s"), events, frames);
    }
  gtk_label_set_text (self->search_status, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_status), NULL);
  if (n == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
}

/* The newest search's result only: WsWorker drops those typed past. */
static void
search_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  job)
{
  WsWindow *self = WS_WINDOW (owner);
  g_autoptr(WsStackSearch) search = result;

  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  if (search == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_label_set_text (self->search_status, _("Invalid expression"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_status), error->message);
      return;
    }

  g_set_object (&self->search, search);
  ws_timeline_view_set_search (self->timeline_view, search);
  show_search_status (self, search);
  _ws_window_update_actions (self);
}

/* Stops the search running, if any, and forgets its result. */
void
_ws_window_drop_search (WsWindow *self)
{
  if (self->search_worker != NULL)
    ws_worker_drop (self->search_worker);
}

static void
start_search (WsWindow   *self,
              const char *text)
{
  SearchJob *job;

  _ws_window_drop_search (self);
  g_clear_object (&self->search);
  ws_timeline_view_set_search (self->timeline_view, NULL);
  if (self->current != NULL)   /* a finding's bridging threads go with its search */
    ws_timeline_viewport_set_highlighted_threads (ws_document_get_viewport (self->current), NULL, 0);
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  _ws_window_update_actions (self);

  if (!_ws_window_is_ready (self) || text == NULL || *text == '\0')
    {
      gtk_label_set_text (self->search_status, "");
      return;
    }

  job = g_new0 (SearchJob, 1);
  job->trace = g_object_ref (ws_document_get_trace (self->current));
  job->pattern = g_strdup (text);
  gtk_label_set_text (self->search_status, _("Searching…"));
  if (self->search_worker == NULL)
    self->search_worker = ws_worker_new ();
  ws_worker_run (self->search_worker, self, job, (GDestroyNotify) search_job_free, search_thread, search_done);
}

static void
search_changed_cb (WsWindow       *self,
                   GtkSearchEntry *entry)
{
  start_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
search_step (WsWindow *self,
             gboolean  forward)
{
  WsTimelineViewport *viewport;
  guint event;

  if (self->search == NULL || !_ws_window_is_ready (self))
    return;
  viewport = ws_document_get_viewport (self->current);
  event = ws_stack_search_next (self->search, ws_timeline_viewport_get_selected_event (viewport), forward);
  if (event == WS_NONE)
    return;

  ws_timeline_viewport_set_selected_event (viewport, event);
  ws_timeline_view_reveal_event (self->timeline_view, event);
  ws_window_show_details_page (self, "details");
  {
    /* Translators: search status: "match 3 of 120" */
    g_autofree char *text = g_strdup_printf (_("Match %u of %u"),
                                             ws_stack_search_get_rank (self->search, event) + 1,
                                             ws_stack_search_get_n_matches (self->search));
    gtk_label_set_text (self->search_status, text);
  }
}

static gboolean
search_key_cb (WsWindow              *self,
               guint                  keyval,
               guint                  keycode,
               GdkModifierType        state,
               GtkEventControllerKey *controller)
{
  /* Tab cycles through the matches, as in the ready-tree patent. */
  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_ISO_Left_Tab)
    {
      search_step (self, keyval == GDK_KEY_Tab && !(state & GDK_SHIFT_MASK));
      return TRUE;
    }
  if (keyval == GDK_KEY_Return && (state & GDK_SHIFT_MASK))
    {
      search_step (self, FALSE);
      return TRUE;
    }
  return FALSE;
}

static void
search_activate_cb (WsWindow       *self,
                    GtkSearchEntry *entry)
{
  search_step (self, TRUE);
}

static void
search_step_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  search_step (WS_WINDOW (widget), g_str_equal (action_name, "win.search-next"));
}

static void
toggle_search_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  gboolean on = !gtk_search_bar_get_search_mode (self->search_bar);

  gtk_search_bar_set_search_mode (self->search_bar, on);
  if (on)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
_ws_window_class_search_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.search", NULL, toggle_search_action);
  gtk_widget_class_install_action (widget_class, "win.search-next", NULL, search_step_action);
  gtk_widget_class_install_action (widget_class, "win.search-previous", NULL, search_step_action);
}

void
_ws_window_search_init (WsWindow *self)
{
  GtkEventController *keys;

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  /* No type-to-search: the views' single-letter keys (f fits the graph,
   * z zooms to the selection) must never land in an unfocused entry.
   * Ctrl+F opens the search. */
  g_object_bind_property (self->search_bar, "search-mode-enabled", self->search_button, "active",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (search_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
}

/**
 * ws_window_get_search:
 * Returns: (transfer none) (nullable): the finished search, if any
 */
WsStackSearch *
ws_window_get_search (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->search;
}

void
ws_window_set_search_text (WsWindow   *self,
                           const char *text)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
}

const char *
ws_window_get_search_status (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->search_status);
}
