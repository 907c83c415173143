/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait graph / ready tree / critical path page: it owns the request
 * (trace, symptom, mode and options), builds the analysis (and, for the
 * graphs, its laid-out scene) through a WsWorker (a newer request cancels
 * the older and drops its late result), and keeps the graph or path, the
 * tables (WsGraphColumns) and the side panel (WsNodeDetails) on one
 * selection.  The search bar is a WsGraphSearch; the Inspector a
 * WsInspectorPanel that inspects after each build, so that the graph
 * shows first.  The export actions are in ws-graph-page-export.c.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-graph-columns.h"
#include "ws-graph-flags.h"
#include "ws-anomaly-state.h"
#include "ws-graph-page-private.h"
#include "ws-pin-capture.h"
#include "ws-wrap-layout.h"
#include "ws-graph-request.h"
#include "ws-graph-search.h"
#include "ws-node-details.h"
#include "ws-time-format.h"
#include "ws-timeline-target.h"
#include "ws-worker.h"

G_DEFINE_FINAL_TYPE (WsGraphPage, ws_graph_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

enum {
  PROP_0,
  PROP_BUSY,
  PROP_MODE,
  N_PROPS
};

enum {
  SHOW_IN_TIMELINE,
  READY,
  SHOW_EVENTS,
  INSPECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_ws_graph_page_toast (WsGraphPage *self,
                      const char  *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

/* ------------------------------------------------------------------ */
/* Building, off the main thread                                        */

static void
set_busy (WsGraphPage *self,
          gboolean     busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
update_zoom_label (WsGraphPage *self)
{
  double zoom = self->mode == WS_GRAPH_MODE_CRITICAL_PATH ? ws_critical_path_view_get_zoom (self->cp_view)
                                                          : ws_graph_view_get_zoom (self->graph_view);
  g_autofree char *text = g_strdup_printf ("%.0f %%", 100 * zoom);
  gtk_label_set_text (self->zoom_label, text);
}

/* The side panel for the selection shown. */
static void
update_details (WsGraphPage *self)
{
  WsStackSearch *search = ws_graph_search_get_search (self->search);
  gboolean shown;

  if (self->shown.path != NULL)
    shown = ws_node_details_show_segment (self->details, self->shown.trace, self->shown.path,
                                          ws_critical_path_view_get_selected_segment (self->cp_view), search);
  else
    {
      shown = ws_node_details_show_node (self->details, self->shown.trace, self->shown.scene,
                                         ws_graph_view_get_selected_node (self->graph_view), search);
      ws_graph_flags_fill_details (self->flags, self->details, ws_graph_view_get_selected_node (self->graph_view));
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.show-in-timeline", shown);
}

/* Shows @scene or @path (or neither), dropping the other. */
static void
set_result (WsGraphPage    *self,
            WsGraphScene   *scene,
            WsCriticalPath *path)
{
  g_set_object (&self->shown.scene, scene);
  ws_graph_view_set_scene (self->graph_view, scene);
  ws_graph_columns_fill (self->rows, scene ? ws_graph_scene_get_n_nodes (scene) : 0);
  g_set_object (&self->shown.path, path);
  ws_critical_path_view_set_path (self->cp_view, path);
  ws_graph_columns_fill (self->segment_rows, path ? ws_critical_path_get_n_segments (path) : 0);
  ws_graph_search_set_target (self->search, self->shown.trace, self->shown.scene, self->shown.path);
}

static void update_mode_widgets (WsGraphPage *self);

static void
show_error (WsGraphPage  *self,
            const GError *error)
{
  set_result (self, NULL, NULL);
  adw_status_page_set_description (self->error_page, error ? error->message : "");
  gtk_stack_set_visible_child_name (self->state_stack, "error");
  gtk_label_set_text (self->summary_label, "");
  update_details (self);
  g_signal_emit (self, signals[READY], 0);
}

static void
build_done (gpointer  owner,
            gpointer  result,
            GError   *error,
            gpointer  job)
{
  WsGraphPage *self = WS_GRAPH_PAGE (owner);
  g_autoptr(WsGraphResult) built = result;
  g_autofree char *summary = NULL;
  WsWaitGraph *graph;

  set_busy (self, FALSE);
  if (built == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  set_result (self, built->scene, built->path);
  summary = ws_graph_result_dup_summary (built);
  gtk_label_set_text (self->summary_label, summary);
  /* Whole in the tooltip when the status line cuts it short. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), summary);
  update_mode_widgets (self);
  gtk_stack_set_visible_child_name (self->state_stack, "graph");
  ws_graph_search_refresh (self->search);
  if (built->scene != NULL)
    ws_graph_page_select_node (self, ws_graph_scene_get_root (built->scene));
  else
    ws_graph_page_select_segment (self, WS_NONE);
  update_zoom_label (self);
  g_signal_emit (self, signals[READY], 0);

  graph = built->scene && ws_graph_scene_get_kind (built->scene) == WS_GRAPH_SCENE_WAIT_GRAPH
          ? ws_graph_scene_get_wait_graph (built->scene) : NULL;
  ws_inspector_panel_set_symptom (self->inspector_panel, self->shown.trace, &self->symptom, graph);
  if (ws_inspector_panel_get_scope (self->inspector_panel) == WS_INSPECTOR_SCOPE_GRAPH)
    ws_inspector_panel_inspect (self->inspector_panel);
}

static void
rebuild (WsGraphPage *self)
{
  WsGraphRequest *job;

  if (!self->have_symptom || self->shown.trace == NULL)
    return;

  job = g_new0 (WsGraphRequest, 1);
  job->trace = g_object_ref (self->shown.trace);
  job->symptom = self->symptom;
  job->root_event = self->root_event;
  job->mode = self->mode;
  job->metric = gtk_drop_down_get_selected (self->metric_dropdown);
  job->lock_only = gtk_check_button_get_active (self->lock_only_check);
  job->depth = (guint) gtk_spin_button_get_value_as_int (self->depth_spin);
  if (job->metric >= WS_N_CHAIN_METRICS)
    job->metric = WS_CHAIN_METRIC_DEFAULT;
  if (ws_page_get_session (WS_PAGE (self)) != NULL)
    {
      WsAnomalyState *state = ws_session_get_anomaly_state (ws_page_get_session (WS_PAGE (self)));
      WsAnomalyResult *scores = ws_anomaly_state_get_result (state);
      guint t = scores ? ws_anomaly_result_find_trace (scores, self->shown.trace) : WS_NONE;

      if (t != WS_NONE)
        {
          job->anomalies = g_object_ref (scores);
          job->anomaly_trace = t;
        }
    }

  gtk_stack_set_visible_child_name (self->state_stack, "building");
  ws_worker_run (self->worker, self, job, (GDestroyNotify) ws_graph_request_free, ws_graph_request_run_in_thread,
                 build_done);
  set_busy (self, TRUE);
}

/* ------------------------------------------------------------------ */
/* Search                                                               */

static void
search_changed_cb (WsGraphPage *self)
{
  GArray *matches = ws_graph_search_get_matches (self->search);

  self->shown.matches = matches;
  ws_graph_view_set_matches (self->graph_view, self->shown.scene ? matches : NULL);
  ws_graph_view_set_current_match (self->graph_view, WS_NONE);
  ws_critical_path_view_set_matches (self->cp_view, self->shown.path ? matches : NULL);
  update_details (self);
}

static void
match_activated_cb (WsGraphPage *self,
                    guint        item)
{
  if (self->shown.path != NULL)
    {
      ws_graph_page_select_segment (self, item);
      ws_critical_path_view_reveal_segment (self->cp_view, item);
    }
  else
    {
      ws_graph_view_set_current_match (self->graph_view, item);
      ws_graph_page_select_node (self, item);
      ws_graph_view_reveal_node (self->graph_view, item);
    }
}

/**
 * ws_graph_page_next_match:
 * @forward: %FALSE for the previous match
 *
 * Makes the next (previous) match current, wrapping around, selects it
 * and scrolls to it.
 */
void
ws_graph_page_next_match (WsGraphPage *self,
                          gboolean     forward)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  ws_graph_search_next (self->search, forward);
}

/* ------------------------------------------------------------------ */
/* Selection, kept the same in graph and table                          */

/**
 * ws_graph_page_select_node:
 * @node: a scene node, or %WS_NONE
 */
void
ws_graph_page_select_node (WsGraphPage *self,
                           guint        node)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));

  ws_graph_view_set_selected_node (self->graph_view, node);
  update_details (self);
}

static void show_segment_in_timeline (WsGraphPage *self, guint segment);

static void
segment_activated_cb (WsGraphPage        *self,
                      guint               segment,
                      WsCriticalPathView *view)
{
  show_segment_in_timeline (self, segment);
}

/**
 * ws_graph_page_select_segment:
 * @segment: a segment of the critical path shown, or %WS_NONE
 */
void
ws_graph_page_select_segment (WsGraphPage *self,
                              guint        segment)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));

  ws_critical_path_view_set_selected_segment (self->cp_view, segment);
  update_details (self);
}



/* ------------------------------------------------------------------ */
/* The inspector                                                        */

static void
findings_changed_cb (WsGraphPage *self)
{
  const char *icon = NULL;
  g_autofree char *label = ws_inspector_panel_dup_verdict (self->inspector_panel, &icon);

  adw_button_content_set_label (self->inspector_toggle_content, label);
  adw_button_content_set_icon_name (self->inspector_toggle_content, icon);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.export-findings",
                                 ws_inspector_panel_get_findings (self->inspector_panel) != NULL);
}

static void
inspected_cb (WsGraphPage *self)
{
  g_signal_emit (self, signals[INSPECTED], 0);
}

/* A finding chosen: its waits become the search (Tab and F3 step through
 * them) and the first is selected; ::show-events asks the timeline to
 * highlight them too. */
static void
finding_selected_cb (WsGraphPage   *self,
                     WsStackSearch *search)
{
  /* The window may hand the search back (ws_graph_page_set_search()), and
   * marks the finding's threads in the timeline. */
  g_signal_emit (self, signals[SHOW_EVENTS], 0, search);
  if (ws_inspector_panel_get_inspected_trace (self->inspector_panel) != self->shown.trace)
    return;
  if (ws_graph_search_get_search (self->search) != search)
    ws_graph_search_set_search (self->search, search);
  if (ws_graph_search_get_n_matches (self->search) > 0)
    ws_graph_search_next (self->search, TRUE);
}

/**
 * ws_graph_page_get_bridging_threads:
 *
 * Returns: (transfer none) (nullable) (element-type guint32): if the
 *   finding chosen last is an over-connection, its bridging daemon or
 *   heartbeat threads (thread indices); else %NULL
 */
GArray *
ws_graph_page_get_bridging_threads (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return ws_inspector_panel_get_bridging_threads (self->inspector_panel);
}

void
ws_graph_page_show_inspector (WsGraphPage *self,
                              gboolean     show)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_toggle_button_set_active (self->inspector_toggle, show);
}

/**
 * ws_graph_page_inspect_trace:
 *
 * Opens the inspector on every wait of @trace (ws_inspect_trace()), with
 * or without a symptom shown.
 */
void
ws_graph_page_inspect_trace (WsGraphPage *self,
                             WsTrace     *trace)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (WS_IS_TRACE (trace));

  ws_inspector_panel_set_whole_trace (self->inspector_panel, trace);
  ws_graph_page_show_inspector (self, TRUE);
  if (ws_inspector_panel_get_scope (self->inspector_panel) == WS_INSPECTOR_SCOPE_TRACE)
    ws_inspector_panel_inspect (self->inspector_panel);
  else
    ws_inspector_panel_set_scope (self->inspector_panel, WS_INSPECTOR_SCOPE_TRACE);
}

static void
toggle_inspector_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  gtk_toggle_button_set_active (self->inspector_toggle, !gtk_toggle_button_get_active (self->inspector_toggle));
}

static void
inspector_toggled_cb (WsGraphPage     *self,
                      GtkToggleButton *toggle)
{
  gboolean active = gtk_toggle_button_get_active (toggle);

  gtk_revealer_set_reveal_child (self->inspector_revealer, active);
  /* The inspector takes the segment table's height, not the chart's:
   * under both, the critical path kept one row at 1280×720. */
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->segment_table)), !active);
  /* Nothing inspected yet (no window chosen when the page was built). */
  if (active && ws_inspector_panel_get_findings (self->inspector_panel) == NULL &&
      !ws_inspector_panel_get_busy (self->inspector_panel))
    ws_inspector_panel_inspect (self->inspector_panel);
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);

  if (self->mode == WS_GRAPH_MODE_CRITICAL_PATH)
    {
      if (g_str_equal (action_name, "graph.zoom-in"))
        ws_critical_path_view_zoom (self->cp_view, 1.5);
      else if (g_str_equal (action_name, "graph.zoom-out"))
        ws_critical_path_view_zoom (self->cp_view, 1 / 1.5);
      else
        ws_critical_path_view_fit (self->cp_view);
      return;
    }
  if (g_str_equal (action_name, "graph.zoom-in"))
    ws_graph_view_zoom (self->graph_view, 1.4);
  else if (g_str_equal (action_name, "graph.zoom-out"))
    ws_graph_view_zoom (self->graph_view, 1 / 1.4);
  else
    ws_graph_view_fit (self->graph_view);
}

static void
match_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  ws_graph_page_next_match (WS_GRAPH_PAGE (widget), g_str_equal (action_name, "graph.next-match"));
}

static void
emit_target (WsGraphPage            *self,
             const WsTimelineTarget *target)
{
  g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, target->thread, target->event,
                 (gint64) target->t0, (gint64) target->t1);
}

static void
show_segment_in_timeline (WsGraphPage *self,
                          guint        segment)
{
  WsTimelineTarget target;

  if (ws_timeline_target_for_segment (&target, self->shown.trace, self->shown.path, segment))
    emit_target (self, &target);
}

static void
show_in_timeline (WsGraphPage *self,
                  guint        node)
{
  WsTimelineTarget target;

  if (ws_timeline_target_for_node (&target, self->shown.scene, node))
    emit_target (self, &target);
}

static void
show_in_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);

  if (self->shown.path != NULL)
    show_segment_in_timeline (self, ws_critical_path_view_get_selected_segment (self->cp_view));
  else
    show_in_timeline (self, ws_graph_view_get_selected_node (self->graph_view));
}

static void
node_activated_cb (WsGraphPage *self,
                   guint        node,
                   WsGraphView *view)
{
  show_in_timeline (self, node);
}

/* Which view and which options apply to the mode. */
static void
update_mode_widgets (WsGraphPage *self)
{
  gboolean tree = self->mode == WS_GRAPH_MODE_READY_TREE;
  gboolean path = self->mode == WS_GRAPH_MODE_CRITICAL_PATH;

  /* Chains and the lock-only rule belong to the ready tree; the path
   * follows every readier to the start of the window. */
  /* Settings that do not apply to the mode are hidden, not greyed: at
   * 1280×720 their room is what keeps the toolbar on one row. */
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->metric_dropdown)), tree);
  gtk_widget_set_visible (GTK_WIDGET (self->lock_only_check), tree);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->depth_spin)), !path);
  /* The path's segment table is always under it. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->table_toggle), !path);
  if (path)
    gtk_stack_set_visible_child_name (self->view_stack, "critical-path");
  else
    gtk_stack_set_visible_child_name (self->view_stack,
                                      gtk_toggle_button_get_active (self->table_toggle) ? "table" : "graph");
  update_zoom_label (self);
}

static void
options_changed_cb (WsGraphPage *self)
{
  guint selected;

  if (self->in_request_update)
    return;
  selected = gtk_drop_down_get_selected (self->mode_dropdown);
  self->mode = selected <= WS_GRAPH_MODE_CRITICAL_PATH ? (WsGraphMode) selected : WS_GRAPH_MODE_READY_TREE;
  update_mode_widgets (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
  rebuild (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
ws_graph_page_new (void)
{
  return g_object_new (WS_TYPE_GRAPH_PAGE, NULL);
}

static void
anomalies_changed_cb (WsGraphPage *self)
{
  if (self->mode == WS_GRAPH_MODE_READY_TREE
      && gtk_drop_down_get_selected (self->metric_dropdown) == WS_CHAIN_METRIC_ANOMALOUS)
    rebuild (self);
}

/**
 * session_changed:
 * @session: (nullable): the window's shared state
 */
static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsGraphPage *self = WS_GRAPH_PAGE (page);

  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));
  if (old_session != NULL)
    g_signal_handlers_disconnect_by_data (ws_session_get_anomaly_state (old_session), self);
  ws_graph_flags_set_session (self->flags, session);
  /* A flag changes which waits are anomalous: the anomalous chain is
   * chosen again when that is the metric. */
  if (session != NULL)
    g_signal_connect_object (ws_session_get_anomaly_state (session), "changed",
                             G_CALLBACK (anomalies_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
show_symptom_full (WsGraphPage     *self,
                   WsTrace         *trace,
                   const WsSymptom *symptom,
                   guint            root_event,
                   WsGraphMode      mode)
{
  if (g_set_object (&self->shown.trace, trace))
    {
      ws_graph_search_clear (self->search);
      /* The whole-trace inspection follows the trace shown. */
      if (ws_inspector_panel_set_whole_trace (self->inspector_panel, trace) &&
          ws_inspector_panel_get_scope (self->inspector_panel) == WS_INSPECTOR_SCOPE_TRACE)
        ws_inspector_panel_inspect (self->inspector_panel);
    }
  self->symptom = *symptom;
  self->root_event = root_event;
  self->have_symptom = TRUE;
  ws_inspector_panel_set_symptom (self->inspector_panel, trace, symptom, NULL);
  self->in_request_update = TRUE;
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
  self->in_request_update = FALSE;
  options_changed_cb (self);
}


/**
 * ws_graph_page_show_symptom:
 *
 * Builds and shows the @mode graph of ⟨@trace, @symptom⟩ (in the
 * background: ::ready is emitted when it shows).
 */
void
ws_graph_page_show_symptom (WsGraphPage     *self,
                            WsTrace         *trace,
                            const WsSymptom *symptom,
                            WsGraphMode      mode)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (WS_IS_TRACE (trace));
  g_return_if_fail (symptom != NULL);

  show_symptom_full (self, trace, symptom, WS_NONE, mode);
}

/**
 * ws_graph_page_show_event:
 * @event: a WAIT event of @trace
 *
 * Shows the @mode analysis of one wait: its own ready tree (the wait is
 * the root), or the wait graph or critical path of its thread over the
 * wait's span.
 */
void
ws_graph_page_show_event (WsGraphPage *self,
                          WsTrace     *trace,
                          guint        event,
                          WsGraphMode  mode)
{
  const WsEvent *e;
  WsSymptom symptom;

  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (WS_IS_TRACE (trace));
  g_return_if_fail (event < ws_trace_get_n_events (trace));

  e = ws_trace_get_event (trace, event);
  /* The same window as the CLI's --event: one core definition. */
  if (ws_symptom_from_wait (trace, event, &symptom))
    show_symptom_full (self, trace, &symptom, event, mode);
  else
    {
      symptom = (WsSymptom) { e->thread, e->time, e->time + MAX (ws_event_duration (e), 1) };
      show_symptom_full (self, trace, &symptom, WS_NONE, mode);
    }
}

/**
 * ws_graph_page_get_symptom:
 * @symptom: (out caller-allocates):
 * @root_event: (out) (optional): the wait whose own ready tree is asked
 *   for, or %WS_NONE
 *
 * Returns: %FALSE if nothing was asked for yet
 */
gboolean
ws_graph_page_get_symptom (WsGraphPage *self,
                           WsSymptom   *symptom,
                           guint       *root_event)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  g_return_val_if_fail (symptom != NULL, FALSE);

  *symptom = self->symptom;
  if (root_event != NULL)
    *root_event = self->root_event;
  return self->have_symptom;
}

/**
 * ws_graph_page_forget_trace:
 * @trace: a trace being closed
 *
 * If the page shows (or is building) a graph of @trace, it drops it and
 * its inspection and shows its empty state: a closed trace's tree must not
 * stay under another trace's title, nor be rebuilt by the page's controls.
 */
void
ws_graph_page_forget_trace (WsGraphPage *self,
                            WsTrace     *trace)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));

  if (trace == NULL || self->shown.trace != trace)
    return;
  ws_worker_drop (self->worker);
  set_busy (self, FALSE);
  ws_graph_search_clear (self->search);
  self->have_symptom = FALSE;
  g_clear_object (&self->shown.trace);
  set_result (self, NULL, NULL);
  gtk_label_set_text (self->summary_label, "");
  gtk_stack_set_visible_child_name (self->state_stack, "empty");
  ws_inspector_panel_set_symptom (self->inspector_panel, NULL, NULL, NULL);
  ws_inspector_panel_set_whole_trace (self->inspector_panel, NULL);
  ws_inspector_panel_inspect (self->inspector_panel);
  update_mode_widgets (self);
  update_details (self);
}

void
ws_graph_page_set_mode (WsGraphPage *self,
                        WsGraphMode  mode)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (mode <= WS_GRAPH_MODE_CRITICAL_PATH);
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
}




/* Returns: (transfer none): the anomaly marks and flags of the graph */
WsGraphFlags *
ws_graph_page_get_flags (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->flags;
}

/* Returns: (transfer none) (nullable): */
WsTrace *
ws_graph_page_get_trace (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->shown.trace;
}

/**
 * ws_graph_page_get_shown:
 *
 * What the page shows, the model its views and tables draw from: the
 * trace, the scene (wait graph or ready tree) or critical path built
 * last, and the search's matches.  Pins are captured from it.
 *
 * Returns: (transfer none): valid until the page shows something else
 */
const WsGraphShown *
ws_graph_page_get_shown (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return &self->shown;
}

void
ws_graph_page_set_search_text (WsGraphPage *self,
                               const char  *text)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  ws_graph_search_set_text (self->search, text);
}

/**
 * ws_graph_page_set_search:
 * @search: matches decided elsewhere, e.g. the events holding a mined
 *   pattern (ws_stack_search_new_from_stacks()); ignored unless of the
 *   graph's trace
 *
 * Highlights @search's matches as if typed; the entry shows its
 * description, and typing replaces it with a regular-expression search.
 */
void
ws_graph_page_set_search (WsGraphPage   *self,
                          WsStackSearch *search)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  ws_graph_search_set_search (self->search, search);
}



/* Shows the nodes as a table (the accessible alternative) or as a graph. */
void
ws_graph_page_show_table (WsGraphPage *self,
                          gboolean     table)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_toggle_button_set_active (self->table_toggle, table);
}

/* ------------------------------------------------------------------ */
/* GObject                                                              */

static void
ws_graph_page_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WsGraphPage *self = WS_GRAPH_PAGE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, gtk_spinner_get_spinning (self->spinner));
      break;
    case PROP_MODE:
      g_value_set_int (value, self->mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_graph_page_dispose (GObject *object)
{
  WsGraphPage *self = WS_GRAPH_PAGE (object);

  /* A late build finds a generation that no longer matches. */
  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  g_clear_object (&self->search);
  g_clear_object (&self->flags);
  /* The panel says its findings changed as it goes away: not to us. */
  if (self->inspector_panel != NULL)
    g_signal_handlers_disconnect_by_data (self->inspector_panel, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_GRAPH_PAGE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->segment_selection);
  g_clear_object (&self->segment_rows);
  g_clear_object (&self->shown.path);
  g_clear_object (&self->shown.scene);
  g_clear_object (&self->shown.trace);
  self->shown.matches = NULL;

  G_OBJECT_CLASS (ws_graph_page_parent_class)->dispose (object);
}

static void
install_signals (GObjectClass *klass)
{
  /**
   * WsGraphPage::show-in-timeline:
   * @thread: thread index
   * @event: the event to select, or %WS_NONE
   * @t0: start (ns)
   * @t1: end (ns)
   *
   * The user asked to see a node in the timeline.
   */
  signals[SHOW_IN_TIMELINE] =
    g_signal_new ("show-in-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_UINT, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);

  /**
   * WsGraphPage::ready:
   *
   * A requested graph is showing (or its error is).
   */
  signals[READY] =
    g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * WsGraphPage::show-events:
   * @search: the events to highlight (an inspector finding's waits)
   *
   * The user chose a finding: the timeline should highlight its events.
   */
  signals[SHOW_EVENTS] =
    g_signal_new ("show-events", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, WS_TYPE_STACK_SEARCH);

  /**
   * WsGraphPage::inspected:
   *
   * The inspector's findings are in (or its error is).
   */
  signals[INSPECTED] =
    g_signal_new ("inspected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
bind_template (GtkWidgetClass *widget_class)
{
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, metric_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, lock_only_check);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, depth_spin);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, match_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, zoom_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, table_toggle);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, graph_view);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, table);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, details);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, cp_view);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, segment_table);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_toggle);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_toggle_content);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_panel);
}

static void
ws_graph_page_class_init (WsGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  page_class->session_changed = session_changed;
  ws_graph_pin_class_init (page_class);
  ws_page_class_set_title (page_class, N_("Graph"));
  ws_page_class_set_icon_name (page_class, "network-workgroup-symbolic");
  object_class->get_property = ws_graph_page_get_property;
  object_class->dispose = ws_graph_page_dispose;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, WS_GRAPH_MODE_READY_TREE, WS_GRAPH_MODE_CRITICAL_PATH,
                      WS_GRAPH_MODE_READY_TREE,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  install_signals (object_class);

  g_type_ensure (WS_TYPE_GRAPH_VIEW);
  g_type_ensure (WS_TYPE_CRITICAL_PATH_VIEW);
  g_type_ensure (WS_TYPE_NODE_DETAILS);
  g_type_ensure (WS_TYPE_INSPECTOR_PANEL);
  bind_template (widget_class);

  _ws_graph_page_class_export_init (widget_class);
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.next-match", NULL, match_action);
  gtk_widget_class_install_action (widget_class, "graph.previous-match", NULL, match_action);
  gtk_widget_class_install_action (widget_class, "graph.show-in-timeline", NULL, show_in_timeline_action);
  gtk_widget_class_install_action (widget_class, "graph.toggle-inspector", NULL, toggle_inspector_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "graph.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK, "graph.previous-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "graph.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "graph.previous-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "graph.toggle-inspector", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "graphpage");
}

static void
connect_signals (WsGraphPage *self)
{
  g_signal_connect_swapped (self->mode_dropdown, "notify::selected", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->metric_dropdown, "notify::selected", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->lock_only_check, "toggled", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->depth_spin, "value-changed", G_CALLBACK (options_changed_cb), self);

  g_signal_connect_swapped (self->search, "changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->search, "match-activated", G_CALLBACK (match_activated_cb), self);

  g_signal_connect_swapped (self->table_toggle, "toggled", G_CALLBACK (update_mode_widgets), self);
  g_signal_connect_swapped (self->graph_view, "notify::zoom", G_CALLBACK (update_zoom_label), self);
  g_signal_connect_swapped (self->graph_view, "node-activated", G_CALLBACK (node_activated_cb), self);
  g_signal_connect_swapped (self->cp_view, "notify::zoom", G_CALLBACK (update_zoom_label), self);
  g_signal_connect_swapped (self->cp_view, "segment-activated", G_CALLBACK (segment_activated_cb), self);
  ws_graph_columns_bind_selection (self->selection, self->graph_view, "selected-node",
                                   (WsGraphIndexFunc) ws_graph_view_set_selected_node,
                                   (WsGraphIndexFunc) ws_graph_view_reveal_node, G_CALLBACK (update_details), self);
  ws_graph_columns_bind_selection (self->segment_selection, self->cp_view, "selected-segment",
                                   (WsGraphIndexFunc) ws_critical_path_view_set_selected_segment,
                                   (WsGraphIndexFunc) ws_critical_path_view_reveal_segment,
                                   G_CALLBACK (update_details), self);
  g_signal_connect_swapped (self->inspector_toggle, "toggled", G_CALLBACK (inspector_toggled_cb), self);
  /* An inspection running in a worker keeps the panel alive past the
   * page: its late signals must not reach a finalized page. */
  g_signal_connect_object (self->inspector_panel, "findings-changed", G_CALLBACK (findings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->inspector_panel, "inspected", G_CALLBACK (inspected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->inspector_panel, "finding-selected", G_CALLBACK (finding_selected_cb), self, G_CONNECT_SWAPPED);
}

/* The dropdown's items are the core's metric table, in enum order, so the
 * selected position is the metric. */
static void
fill_metric_dropdown (GtkDropDown *dropdown)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  for (guint m = 0; m < WS_N_CHAIN_METRICS; m++)
    gtk_string_list_append (labels, ws_chain_metric_get_label (m));
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (dropdown, WS_CHAIN_METRIC_DEFAULT);
}

static void
ws_graph_page_init (WsGraphPage *self)
{
  self->mode = WS_GRAPH_MODE_READY_TREE;
  self->root_event = WS_NONE;
  self->rows = g_list_store_new (WS_TYPE_GRAPH_ROW);
  self->segment_rows = g_list_store_new (WS_TYPE_GRAPH_ROW);
  self->worker = ws_worker_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_layout_manager (self->toolbar, ws_wrap_layout_new (6, 4));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.export-findings", FALSE);
  self->selection = ws_graph_columns_add_node_columns (self->table, self->rows, &self->shown);
  self->segment_selection = ws_graph_columns_add_segment_columns (self->segment_table, self->segment_rows,
                                                                  &self->shown);
  self->search = ws_graph_search_new (self->search_entry, self->match_label);
  self->flags = ws_graph_flags_new (GTK_WIDGET (self), self->graph_view, self->details);
  gtk_spin_button_set_value (self->depth_spin, WS_GRAPH_PAGE_DEFAULT_DEPTH);
  fill_metric_dropdown (self->metric_dropdown);
  connect_signals (self);

  gtk_stack_set_visible_child_name (self->state_stack, "empty");
  update_zoom_label (self);
  update_details (self);
  findings_changed_cb (self);
}
