/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's part in showing what is slow: the "Slowest" button in the
 * header bar (Ctrl+L) with the slowest instances and longest waits of
 * every loaded trace, the jump from a row to the timeline, a thread of
 * the Threads table opening on its longest wait, and a wait's context
 * menu opening the Graph page on that wait.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-window-private.h"

/* Makes @document the one shown, as a click in the sidebar does. */
static gboolean
show_document (WsWindow   *self,
               WsDocument *document)
{
  guint position;

  if (document != self->current && g_list_store_find (self->documents, document, &position))
    gtk_list_box_select_row (self->trace_list, gtk_list_box_get_row_at_index (self->trace_list, position));
  return document == self->current && _ws_window_is_ready (self);
}

/**
 * _ws_window_show_wait:
 *
 * Zooms the timeline to the WAIT @event (with room around it), scrolls
 * to its row and selects it.
 */
void
_ws_window_show_wait (WsWindow *self,
                      guint     event)
{
  WsTrace *trace = ws_document_get_trace (self->current);
  const WsEvent *e;

  if (event >= ws_trace_get_n_events (trace))
    return;
  e = ws_trace_get_event (trace, event);
  ws_timeline_viewport_set_selected_event (ws_document_get_viewport (self->current), event);
  ws_timeline_view_zoom_to_span (self->timeline_view, e->thread, e->time, e->time + MAX (ws_event_duration (e), 1));
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
}

static void
slowest_activated_cb (WsWindow      *self,
                      WsDocument    *document,
                      int            kind,
                      guint          index,
                      WsSlowestList *list)
{
  gtk_menu_button_popdown (self->slowest_button);
  if (!show_document (self, document))
    return;
  if (kind == WS_SLOWEST_WAIT)
    _ws_window_show_wait (self, index);
  else
    {
      /* The instance's window becomes the selection: the analyses'
       * buttons then explain exactly it. */
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (ws_document_get_trace (document), index);

      ws_timeline_viewport_set_selection (ws_document_get_viewport (document), si->thread, si->t0, si->t1);
      ws_timeline_view_zoom_to_span (self->timeline_view, si->thread, si->t0, si->t1);
      gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
    }
}

/* A thread of the Threads table: its longest wait, else just its row. */
static void
thread_activated_cb (WsWindow      *self,
                     guint          thread,
                     WsThreadTable *table)
{
  const WsThreadStats *stats;

  if (!_ws_window_is_ready (self))
    return;
  stats = ws_timeline_lod_get_stats (ws_document_get_lod (self->current), thread);
  if (stats->totals.longest_wait_event != WS_NONE)
    _ws_window_show_wait (self, stats->totals.longest_wait_event);
  else
    {
      ws_timeline_view_reveal_thread (self->timeline_view, thread);
      gtk_widget_grab_focus (GTK_WIDGET (self->timeline_view));
    }
}

/* A wait's context menu: the Graph page on that wait (in the lower pane,
 * which has had at least half the height from the start). */
static void
analyse_wait_cb (WsWindow       *self,
                 int             mode,
                 guint           event,
                 WsTimelineView *view)
{
  if (!_ws_window_is_ready (self))
    return;
  ws_graph_page_show_event (self->graph_page, ws_document_get_trace (self->current), event, mode);
  ws_window_show_details_page (self, "graph");
}

static void
show_slowest_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  gtk_menu_button_popup (WS_WINDOW (widget)->slowest_button);
}

void
_ws_window_class_slowest_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-slowest", NULL, show_slowest_action);
}

void
_ws_window_slowest_init (WsWindow *self)
{
  GtkWidget *header = gtk_widget_get_ancestor (self->zoom_box, ADW_TYPE_HEADER_BAR);
  GtkWidget *content = adw_button_content_new ();
  GtkWidget *popover = gtk_popover_new ();

  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "view-sort-descending-symbolic");
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("_Slowest"));
  adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (content), TRUE);
  self->slowest_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->slowest_button, content);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->slowest_button),
                               _("Slowest Scenario Instances and Longest Waits (Ctrl+L)"));
  self->slowest_list = WS_SLOWEST_LIST (ws_slowest_list_new ());
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->slowest_list));
  gtk_menu_button_set_popover (self->slowest_button, popover);
  ws_slowest_list_set_documents (self->slowest_list, G_LIST_MODEL (self->documents));
  /* Traces load in the background: list what is there when it opens. */
  g_signal_connect_swapped (popover, "show", G_CALLBACK (ws_slowest_list_refresh), self->slowest_list);
  g_signal_connect_swapped (self->slowest_list, "activated", G_CALLBACK (slowest_activated_cb), self);
  if (header != NULL)
    adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->slowest_button));
  _ws_window_update_actions (self);

  g_signal_connect_swapped (self->thread_table, "thread-activated", G_CALLBACK (thread_activated_cb), self);
  g_signal_connect_swapped (self->timeline_view, "analyse-wait", G_CALLBACK (analyse_wait_cb), self);
}

/**
 * ws_window_get_slowest_list:
 *
 * Returns: (transfer none): the list behind the header bar's Slowest
 *   button
 */
WsSlowestList *
ws_window_get_slowest_list (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->slowest_list;
}
