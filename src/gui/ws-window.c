/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The main window.  Each open trace is a WsDocument in the sidebar; the
 * window shows the selected one and forwards the header bar's zoom buttons
 * and the search bar to the timeline.  This file holds the object itself
 * and the selection bar; the rest is split by job over files sharing
 * ws-window-private.h: ws-window-actions.c, ws-window-documents.c (the
 * trace list), ws-window-files.c (opening, drag and drop, recent files),
 * ws-window-search.c, ws-window-pages.c (the lower pane's pages), and
 * ws-window-anomaly.c / ws-window-findings.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-accessible-names.h"
#include "ws-contrast-page.h"
#include "ws-history-store.h"
#include "ws-overview-page.h"
#include "ws-time-format.h"
#include "ws-timeline-legend.h"
#include "ws-window-anomaly.h"
#include "ws-window-record.h"
#include "ws-window-findings.h"
#include "ws-window-private.h"

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  ANALYSIS_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Selection and details                                                */

void
_ws_window_update_selection (WsWindow *self)
{
  WsTimelineViewport *viewport;
  guint thread;
  WsTime t0, t1;

  if (!_ws_window_is_ready (self))
    {
      gtk_revealer_set_reveal_child (self->selection_revealer, FALSE);
      _ws_window_update_actions (self);
      return;
    }

  viewport = ws_document_get_viewport (self->current);
  if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    {
      WsTrace *trace = ws_document_get_trace (self->current);
      const WsThread *t = ws_trace_get_thread (trace, thread);
      g_autofree char *len = ws_format_duration (t1 - t0);
      g_autofree char *from = ws_format_duration (t0 - ws_trace_get_start_time (trace));
      g_autofree char *text = NULL;

      /* Translators: selection bar: thread name, tid, window length, start */
      text = g_strdup_printf (_("%s (%d): %s from +%s"), t->name ? t->name : "?", t->tid, len, from);
      gtk_label_set_text (self->selection_label, text);
      gtk_revealer_set_reveal_child (self->selection_revealer, TRUE);
      /* the Overview explains what is selected (why --tid/--from/--to) */
      ws_overview_page_explain_selection (self->overview_page, trace, thread, t0, t1, WS_NONE);
      if (ws_timeline_viewport_get_selected_event (viewport) == WS_NONE)
        ws_details_pane_show_window (self->details_pane, thread, t0, t1);
    }
  else
    gtk_revealer_set_reveal_child (self->selection_revealer, FALSE);
  _ws_window_update_actions (self);
}

void
_ws_window_update_details (WsWindow *self)
{
  WsTimelineViewport *viewport;
  guint selected, hovered, thread;
  WsTime t0, t1;

  if (!_ws_window_is_ready (self))
    return;
  viewport = ws_document_get_viewport (self->current);
  selected = ws_timeline_viewport_get_selected_event (viewport);
  hovered = ws_timeline_viewport_get_hovered_event (viewport);

  /* A clicked event stays until another is clicked; hovering previews. */
  if (hovered != WS_NONE && hovered != selected)
    ws_details_pane_show_event (self->details_pane, hovered, FALSE);
  else if (selected != WS_NONE)
    {
      WsTrace *trace = ws_document_get_trace (self->current);
      const WsEvent *e = ws_trace_get_event (trace, selected);

      ws_details_pane_show_event (self->details_pane, selected, TRUE);
      /* a clicked wait is explained in the Overview (why --event) */
      if (e->kind == WS_EVENT_WAIT && hovered == WS_NONE)
        ws_overview_page_explain_selection (self->overview_page, trace, e->thread, e->time,
                                            e->time + MAX (ws_event_duration (e), 0), selected);
    }
  else if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    ws_details_pane_show_window (self->details_pane, thread, t0, t1);
  else
    ws_details_pane_clear (self->details_pane);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  _ws_window_drop_search (self);
  g_clear_object (&self->search_worker);
  if (self->digest_reader != NULL)
    ws_worker_drop (self->digest_reader);
  g_clear_object (&self->digest_reader);
  _ws_window_sqlite_dispose (self);
  _ws_window_fleet_dispose (self);
  for (guint i = 0; self->documents && i < g_list_model_get_n_items (G_LIST_MODEL (self->documents)); i++)
    {
      g_autoptr(WsDocument) document = g_list_model_get_item (G_LIST_MODEL (self->documents), i);
      ws_document_cancel (document);
    }
  if (self->document_signals)
    g_signal_group_set_target (self->document_signals, NULL);
  if (self->viewport_signals)
    g_signal_group_set_target (self->viewport_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->current);
  g_clear_object (&self->search);
  g_clear_object (&self->settings);
  g_clear_object (&self->timeline_pane);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  g_clear_object (&self->documents);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_window_dispose;

  /**
   * WsWindow::analysis-requested:
   * @kind: a #WsAnalysisKind
   * @trace: the trace
   * @thread: the thread index of the symptom
   * @t0: start of the window (ns)
   * @t1: end of the window (ns)
   *
   * The user asked for a wait graph or ready tree of a selected window.
   */
  signals[ANALYSIS_REQUESTED] =
    g_signal_new ("analysis-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 5,
                  G_TYPE_INT, WS_TYPE_TRACE, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);

  g_type_ensure (WS_TYPE_TIMELINE_VIEW);
  g_type_ensure (WS_TYPE_TIMELINE_LEGEND);
  g_type_ensure (WS_TYPE_DETAILS_PANE);
  g_type_ensure (WS_TYPE_THREAD_TABLE);
  g_type_ensure (WS_TYPE_MINING_PAGE);
  g_type_ensure (WS_TYPE_FLAME_PAGE);
  g_type_ensure (WS_TYPE_CONTRAST_PAGE);
  g_type_ensure (WS_TYPE_PIVOT_PAGE);
  g_type_ensure (WS_TYPE_GRAPH_PAGE);
  g_type_ensure (WS_TYPE_OVERVIEW_PAGE);
  g_type_ensure (WS_TYPE_FINDINGS_PAGE);
  ws_window_record_install_actions (widget_class);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, search_status);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, trace_list);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, load_progress);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, selection_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, selection_label);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, legend);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, details_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, details_pane);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, thread_table);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, mining_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, flame_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, overview_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, graph_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, findings_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, contrast_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, pivot_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, content_paned);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_section);

  _ws_window_class_files_init (widget_class);
  _ws_window_class_fleet_init (widget_class);
  _ws_window_class_actions_init (widget_class);
  _ws_window_class_search_init (widget_class);
  _ws_window_class_slowest_init (widget_class);
  _ws_window_class_sqlite_init (widget_class);
  ws_window_findings_install_actions (widget_class);
  ws_window_anomaly_install (widget_class);
}

static void
ws_window_init (WsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->session = ws_session_new (NULL);
  self->documents = g_object_ref (G_LIST_STORE (ws_session_get_documents (self->session)));
  _ws_window_documents_init (self);
  _ws_window_search_init (self);

  self->viewport_signals = g_signal_group_new (WS_TYPE_TIMELINE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed", G_CALLBACK (_ws_window_update_selection), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::hovered-event", G_CALLBACK (_ws_window_update_details), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::selected-event", G_CALLBACK (_ws_window_update_details), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::can-go-back", G_CALLBACK (_ws_window_update_actions), self);

  ws_timeline_legend_set_renderer (self->legend, ws_timeline_view_get_renderer (self->timeline_view));
  _ws_window_pages_init (self);
  _ws_window_slowest_init (self);
  _ws_window_files_init (self);
  _ws_window_fleet_init (self);

  _ws_window_show_document (self, NULL);
  ws_accessible_names_apply (GTK_WIDGET (self));
}

/* The application's settings, asked for by property so that the window
 * needs no header of the application's (which creates windows). */
static GSettings *
application_settings (GtkApplication *application)
{
  GSettings *settings = NULL;

  if (application != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (application), "settings") != NULL)
    g_object_get (application, "settings", &settings, NULL);
  return settings;
}

/**
 * ws_window_new:
 * @application: a #WsApplication (its settings keep the window size and
 *   recent files)
 */
WsWindow *
ws_window_new (GtkApplication *application)
{
  WsWindow *self = g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
  GSettings *settings = application_settings (application);
  g_autofree char *history = NULL;

  if (settings != NULL)
    {
      self->settings = settings;
      g_settings_bind (settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (settings, "show-sidebar", self->sidebar_button, "active", G_SETTINGS_BIND_DEFAULT);
      g_signal_connect_object (settings, "changed::recent-files", G_CALLBACK (_ws_window_update_recent_menu), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (settings, "changed::timeline-row-height", G_CALLBACK (_ws_window_document_state_changed), self,
                               G_CONNECT_SWAPPED);
    }
  /* The pages share the window's state through the session, settings and
   * history store included: chosen here once, so every page, the anomaly
   * flags and the traces' recording read one value. */
  ws_session_set_settings (self->session, settings);
  history = ws_history_store_default_path ();
  ws_session_set_history_path (self->session, history);
  _ws_window_bind_pages (self);
  ws_window_findings_init (self, self->findings_page);
  ws_window_record_init (self, settings);
  ws_window_anomaly_attach (self);
  _ws_window_update_recent_menu (self);
  return self;
}

/**
 * ws_window_get_session:
 * Returns: (transfer none): the state the window's pages share
 */
WsSession *
ws_window_get_session (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->session;
}

void
ws_window_show_toast (WsWindow   *self,
                      const char *message)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

WsTimelineView *
ws_window_get_timeline_view (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->timeline_view;
}

WsDetailsPane *
ws_window_get_details_pane (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->details_pane;
}

WsThreadTable *
ws_window_get_thread_table (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->thread_table;
}

