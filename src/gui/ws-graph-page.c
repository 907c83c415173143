/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait graph / ready tree page: it owns the request (trace, symptom,
 * mode and options), builds the analysis and its laid-out scene in a
 * worker thread (a newer request cancels the older and a generation
 * counter drops late results), and keeps the graph, the table and the
 * side panel on one selection.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-graph-export.h"
#include "ws-graph-page.h"
#include "ws-time-format.h"

/* ------------------------------------------------------------------ */
/* Table rows                                                           */

#define WS_TYPE_GRAPH_ROW (ws_graph_row_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphRow, ws_graph_row, WS, GRAPH_ROW, GObject)

struct _WsGraphRow
{
  GObject  parent_instance;
  guint    node;
};

G_DEFINE_FINAL_TYPE (WsGraphRow, ws_graph_row, G_TYPE_OBJECT)

static void ws_graph_row_class_init (WsGraphRowClass *klass) { }
static void ws_graph_row_init (WsGraphRow *self) { }

static WsGraphRow *
ws_graph_row_new (guint node)
{
  WsGraphRow *row = g_object_new (WS_TYPE_GRAPH_ROW, NULL);
  row->node = node;
  return row;
}

typedef enum {
  COLUMN_LAYER,
  COLUMN_KIND,
  COLUMN_THREAD,
  COLUMN_START,
  COLUMN_DURATION,
  COLUMN_FRAME,
  COLUMN_FLAGS,
  N_COLUMNS
} Column;

/* ------------------------------------------------------------------ */

struct _WsGraphPage
{
  GtkWidget          parent_instance;

  /* Template widgets */
  AdwToastOverlay   *toast_overlay;
  GtkDropDown       *mode_dropdown;
  GtkLabel          *metric_label;
  GtkDropDown       *metric_dropdown;
  GtkCheckButton    *lock_only_check;
  GtkSpinButton     *depth_spin;
  GtkSearchEntry    *search_entry;
  GtkLabel          *match_label;
  GtkLabel          *zoom_label;
  GtkStack          *state_stack;
  GtkStack          *view_stack;
  GtkToggleButton   *table_toggle;
  AdwStatusPage     *error_page;
  GtkSpinner        *spinner;
  WsGraphView       *graph_view;
  GtkColumnView     *table;
  GtkLabel          *detail_title;
  GtkLabel          *detail_subtitle;
  GtkBox            *detail_grid;
  GtkButton         *timeline_button;
  GtkLabel          *stack_heading;
  GtkLabel          *stack_label;
  GtkLabel          *readier_heading;
  GtkLabel          *readier_label;
  GtkLabel          *summary_label;

  /* Owned references */
  WsTrace           *trace;
  WsGraphScene      *scene;
  WsStackSearch     *search;
  GArray            *matches;        /* guint scene nodes, reading order */
  GListStore        *rows;
  GtkSingleSelection *selection;
  GCancellable      *cancellable;

  /* The request */
  WsSymptom          symptom;
  gboolean           have_symptom;
  WsGraphMode        mode;
  guint              generation;
  guint              current_match;  /* index into matches, or WS_NONE */
  char              *match_status;
  char              *search_tooltip;
  gboolean           in_selection_sync;
  gboolean           in_request_update;
};

G_DEFINE_FINAL_TYPE (WsGraphPage, ws_graph_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_MODE,
  N_PROPS
};

enum {
  SHOW_IN_TIMELINE,
  READY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void rebuild (WsGraphPage *self);
static void update_details (WsGraphPage *self);

static void
toast (WsGraphPage *self,
       const char  *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

/* ------------------------------------------------------------------ */
/* Building, off the main thread                                        */

typedef struct {
  WsTrace       *trace;
  WsSymptom      symptom;
  WsGraphMode    mode;
  WsChainMetric  metric;
  gboolean       lock_only;
  guint          depth;
  guint          generation;
} BuildJob;

static void
build_job_free (BuildJob *job)
{
  g_clear_object (&job->trace);
  g_free (job);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildJob *job = task_data;
  g_autoptr(GError) error = NULL;
  WsGraphScene *scene = NULL;

  if (job->mode == WS_GRAPH_MODE_READY_TREE)
    {
      WsReadyTreeOptions options;
      g_autoptr(WsReadyTree) tree = NULL;

      ws_ready_tree_options_init (&options);
      options.lock_only = job->lock_only;
      options.max_depth = job->depth;
      tree = ws_ready_tree_build_for_symptom (job->trace, &job->symptom, &options, &error);
      if (tree != NULL && !g_cancellable_set_error_if_cancelled (cancellable, &error))
        scene = ws_graph_scene_new_for_ready_tree (tree, job->metric, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
    }
  else
    {
      g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (job->trace, &job->symptom, NULL, cancellable, &error);

      if (graph != NULL && !g_cancellable_set_error_if_cancelled (cancellable, &error))
        scene = ws_graph_scene_new_for_wait_graph_full (graph, job->depth, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
    }

  if (scene == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, scene, g_object_unref);
}

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
  g_autofree char *text = g_strdup_printf ("%.0f %%", 100 * ws_graph_view_get_zoom (self->graph_view));
  gtk_label_set_text (self->zoom_label, text);
}

static void
fill_table (WsGraphPage *self)
{
  guint n = self->scene ? ws_graph_scene_get_n_nodes (self->scene) : 0;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (rows, ws_graph_row_new (i));
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       rows->pdata, rows->len);
}

static void refresh_search (WsGraphPage *self);

static void
build_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  WsGraphPage *self = WS_GRAPH_PAGE (source);
  BuildJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(WsGraphScene) scene = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *summary = NULL;

  /* A newer request was made meanwhile: its result is the one to show. */
  if (job->generation != self->generation)
    return;

  set_busy (self, FALSE);
  if (scene == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_set_object (&self->scene, NULL);
      ws_graph_view_set_scene (self->graph_view, NULL);
      fill_table (self);
      adw_status_page_set_description (self->error_page, error ? error->message : "");
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      gtk_label_set_text (self->summary_label, "");
      update_details (self);
      g_signal_emit (self, signals[READY], 0);
      return;
    }

  g_set_object (&self->scene, scene);
  ws_graph_view_set_scene (self->graph_view, scene);
  fill_table (self);
  summary = ws_graph_scene_dup_summary (scene);
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->state_stack, "graph");
  refresh_search (self);
  ws_graph_page_select_node (self, ws_graph_scene_get_root (scene));
  update_zoom_label (self);
  g_signal_emit (self, signals[READY], 0);
}

static void
rebuild (WsGraphPage *self)
{
  g_autoptr(GTask) task = NULL;
  BuildJob *job;

  if (!self->have_symptom || self->trace == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  job = g_new0 (BuildJob, 1);
  job->trace = g_object_ref (self->trace);
  job->symptom = self->symptom;
  job->mode = self->mode;
  job->metric = gtk_drop_down_get_selected (self->metric_dropdown);
  job->lock_only = gtk_check_button_get_active (self->lock_only_check);
  job->depth = (guint) gtk_spin_button_get_value_as_int (self->depth_spin);
  job->generation = ++self->generation;
  if (job->metric >= WS_N_CHAIN_METRICS)
    job->metric = WS_CHAIN_METRIC_AVERAGE;

  gtk_stack_set_visible_child_name (self->state_stack, "building");
  set_busy (self, TRUE);

  task = g_task_new (self, self->cancellable, build_done, NULL);
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, job, (GDestroyNotify) build_job_free);
  g_task_run_in_thread (task, build_thread);
}

/* ------------------------------------------------------------------ */
/* Search                                                               */

static void
update_match_label (WsGraphPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  guint n = self->matches ? self->matches->len : 0;

  g_clear_pointer (&self->match_status, g_free);
  if (text == NULL || *text == '\0')
    self->match_status = g_strdup ("");
  else if (self->search == NULL)
    self->match_status = g_strdup (_("Invalid"));
  else if (n == 0)
    self->match_status = g_strdup (_("No match"));
  else if (self->current_match == WS_NONE)
    self->match_status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u match", "%u matches", n), n);
  else
    /* Translators: search position, "2 of 8" */
    self->match_status = g_strdup_printf (_("%u of %u"), self->current_match + 1, n);
  gtk_label_set_text (self->match_label, self->match_status);
}

/* Recomputes the matches of the current text on the current scene. */
static void
refresh_search (WsGraphPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->matches, g_array_unref);
  self->current_match = WS_NONE;
  gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), self->search_tooltip);

  if (text != NULL && *text != '\0' && self->trace != NULL)
    {
      if (self->search == NULL || !g_str_equal (ws_stack_search_get_pattern (self->search), text) ||
          ws_stack_search_get_trace (self->search) != self->trace)
        {
          g_clear_object (&self->search);
          self->search = ws_stack_search_new (self->trace, text, NULL, &error);
        }
      if (self->search == NULL)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
          gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), error->message);
        }
      else if (self->scene != NULL)
        self->matches = ws_graph_scene_find_matches (self->scene, self->search);
    }
  else
    g_clear_object (&self->search);

  ws_graph_view_set_matches (self->graph_view, self->matches);
  ws_graph_view_set_current_match (self->graph_view, WS_NONE);
  update_match_label (self);
  update_details (self);
}

static void
search_changed_cb (WsGraphPage    *self,
                   GtkSearchEntry *entry)
{
  refresh_search (self);
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
  guint n, node;

  g_return_if_fail (WS_IS_GRAPH_PAGE (self));

  n = self->matches ? self->matches->len : 0;
  if (n == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  if (self->current_match == WS_NONE)
    self->current_match = forward ? 0 : n - 1;
  else
    self->current_match = (self->current_match + (forward ? 1 : n - 1)) % n;

  node = g_array_index (self->matches, guint, self->current_match);
  ws_graph_view_set_current_match (self->graph_view, node);
  ws_graph_page_select_node (self, node);
  ws_graph_view_reveal_node (self->graph_view, node);
  update_match_label (self);
}

static gboolean
search_key_cb (GtkEventControllerKey *controller,
               guint                  keyval,
               guint                  keycode,
               GdkModifierType        state,
               WsGraphPage           *self)
{
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;

  /* Tab cycles while there are matches; with none it moves the focus on
   * as usual, so the keyboard can always leave the entry. */
  if ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_ISO_Left_Tab || keyval == GDK_KEY_KP_Tab) &&
      !(state & GDK_CONTROL_MASK) && self->matches != NULL && self->matches->len > 0)
    {
      ws_graph_page_next_match (self, !(shift || keyval == GDK_KEY_ISO_Left_Tab));
      return TRUE;
    }
  if (keyval == GDK_KEY_F3)
    {
      ws_graph_page_next_match (self, !shift);
      return TRUE;
    }
  return FALSE;
}

static void
search_activate_cb (WsGraphPage    *self,
                    GtkSearchEntry *entry)
{
  ws_graph_page_next_match (self, TRUE);
}

static void
search_next_cb (WsGraphPage    *self,
                GtkSearchEntry *entry)
{
  ws_graph_page_next_match (self, TRUE);
}

static void
search_previous_cb (WsGraphPage    *self,
                    GtkSearchEntry *entry)
{
  ws_graph_page_next_match (self, FALSE);
}

/* ------------------------------------------------------------------ */
/* Details                                                              */

static gboolean
frame_matches (WsGraphPage *self,
               WsFrameId    frame)
{
  return self->search != NULL && ws_stack_search_matches_frame (self->search, frame);
}

/* The frames of @stack leaf first, one a line, the module dimmed and
 * search matches highlighted. */
static char *
stack_markup (WsGraphPage *self,
              WsStackId    stack)
{
  WsStackTable *stacks = ws_trace_get_stack_table (self->trace);
  const WsFrameId *frames;
  GString *s = g_string_new (NULL);
  guint n;

  if (stack == WS_STACK_EMPTY)
    {
      g_string_append_printf (s, "<i>%s</i>", _("No stack recorded"));
      return g_string_free (s, FALSE);
    }
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint k = n; k > 0; k--)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[k - 1]);
      g_autofree char *function = g_markup_escape_text (f->function ? f->function : "?", -1);
      g_autofree char *base = g_path_get_basename (f->module ? f->module : "?");
      g_autofree char *module = g_markup_escape_text (base, -1);

      if (s->len > 0)
        g_string_append_c (s, '\n');
      if (frame_matches (self, frames[k - 1]))
        g_string_append_printf (s, "<span background=\"#f6d32d\" foreground=\"#000000\">%s</span>", function);
      else
        g_string_append (s, function);
      g_string_append_printf (s, " <span alpha=\"55%%\">%s</span>", module);
    }
  return g_string_free (s, FALSE);
}

/* One "key  value" line of the details.  Values do not wrap (wrapped
 * labels in a scrolled side panel are measured for the wrong width on
 * GTK 4.8): they are short, and ellipsized with the whole text in the
 * tooltip. */
static void
grid_row (WsGraphPage *self,
          int          row,
          const char  *name,
          const char  *value)
{
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *key = gtk_label_new (name);
  GtkWidget *val = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (key), 1);
  gtk_widget_add_css_class (key, "dim-label");
  gtk_label_set_width_chars (GTK_LABEL (key), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (key), 12);
  gtk_label_set_ellipsize (GTK_LABEL (key), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (val), 0);
  gtk_label_set_ellipsize (GTK_LABEL (val), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (val), TRUE);
  gtk_widget_set_tooltip_text (val, value);
  gtk_widget_set_hexpand (val, TRUE);
  gtk_box_append (GTK_BOX (line), key);
  gtk_box_append (GTK_BOX (line), val);
  gtk_box_append (self->detail_grid, line);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (val), GTK_ACCESSIBLE_RELATION_LABELLED_BY, key, NULL, -1);
}

static char *
thread_text (WsGraphPage *self,
             guint        thread)
{
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (self->trace))
    return g_strdup (_("none"));
  t = ws_trace_get_thread (self->trace, thread);
  /* Translators: thread name and thread id */
  return g_strdup_printf (_("%s · %d"), t->name ? t->name : "?", t->tid);
}

static const char *
wake_text (WsWakeKind wake)
{
  switch (wake)
    {
    case WS_WAKE_THREAD:    return _("a thread");
    case WS_WAKE_TIMER:     return _("a timer (false run)");
    case WS_WAKE_INTERRUPT: return _("an interrupt (hardware)");
    case WS_WAKE_HEARTBEAT: return _("a heartbeat thread (false run)");
    case WS_WAKE_UNKNOWN:
    default:                return _("not recorded");
    }
}

static const char *
stop_text (WsReadyStop stop)
{
  switch (stop)
    {
    case WS_READY_STOP_READIER_RAN:      return _("the readier was running all along");
    case WS_READY_STOP_NOT_LOCK_RELATED: return _("not lock-related");
    case WS_READY_STOP_DEPTH_LIMIT:      return _("depth limit");
    case WS_READY_STOP_TRACE_START:      return _("the readier's history starts before the trace");
    case WS_READY_STOP_FALSE_RUN:        return _("woken by a timer or heartbeat (false run)");
    case WS_READY_STOP_HARDWARE:         return _("woken by hardware");
    case WS_READY_STOP_UNKNOWN_READIER:  return _("no wake-up recorded");
    case WS_READY_STOP_NODE_LIMIT:       return _("node limit");
    case WS_READY_STOP_NONE:
    case WS_N_READY_STOPS:
    default:                             return NULL;
    }
}

static void
update_details (WsGraphPage *self)
{
  guint node = ws_graph_view_get_selected_node (self->graph_view);
  const WsSceneNode *n;
  GtkWidget *child;
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *start = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *thread = NULL;
  g_autofree char *stack = NULL;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->detail_grid))) != NULL)
    gtk_box_remove (self->detail_grid, child);

  if (self->scene == NULL || node == WS_NONE)
    {
      gtk_label_set_text (self->detail_title, _("Nothing selected"));
      gtk_label_set_text (self->detail_subtitle, _("Click a node to see its stacks."));
      gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_heading), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_label), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->readier_label), FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.show-in-timeline", FALSE);
      return;
    }

  n = ws_graph_scene_get_node (self->scene, node);
  title = ws_graph_scene_dup_title (self->scene, node);
  detail = ws_graph_scene_dup_detail (self->scene, node);
  gtk_label_set_text (self->detail_title, title);
  gtk_label_set_text (self->detail_subtitle, detail);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), TRUE);

  thread = thread_text (self, n->thread);
  start = g_strdup_printf (_("+%.6f s"),
                           (n->time - ws_trace_get_start_time (self->trace)) / 1e9);
  duration = ws_format_duration (n->duration);

  grid_row (self, row++, _("Thread"), thread);
  if (n->thread != WS_NONE && n->thread < ws_trace_get_n_threads (self->trace))
    {
      const WsThread *t = ws_trace_get_thread (self->trace, n->thread);
      const WsProcess *p = ws_trace_get_process (self->trace, t->process);
      g_autofree char *process = g_strdup_printf ("%s · %d", p && p->name ? p->name : "?", t->pid);
      grid_row (self, row++, _("Process"), process);
    }
  grid_row (self, row++, _("Kind"), ws_scene_node_kind_to_string (n->kind));
  grid_row (self, row++, n->kind == WS_SCENE_NODE_WAIT ? _("Blocked at") : _("At"), start);
  if (n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN)
    grid_row (self, row++, _("Duration"), (n->flags & WS_SCENE_NODE_FLAG_READIER) ? "—" : duration);
  if (n->kind == WS_SCENE_NODE_WAIT)
    {
      g_autofree char *state = g_strdup_printf ("%c%s", n->state ? n->state : '?',
                                                (n->flags & WS_SCENE_NODE_FLAG_LOCK) ? _(", lock-related") : "");
      g_autofree char *readier = thread_text (self, n->readier_thread);
      g_autofree char *woken = n->wake == WS_WAKE_THREAD && n->readier_thread != WS_NONE
                               ? g_strdup (readier) : g_strdup (wake_text (n->wake));

      grid_row (self, row++, _("State"), state);
      grid_row (self, row++, _("Woken by"), woken);
      if (stop_text (n->stop))
        grid_row (self, row++, _("Not followed"), stop_text (n->stop));
    }
  grid_row (self, row++, _("Chain"),
            (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) ? _("on the anomalous chain") : _("no"));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.show-in-timeline", TRUE);

  /* The full stacks, leaf on top. */
  gtk_widget_set_visible (GTK_WIDGET (self->stack_heading), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->stack_label), TRUE);
  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_WAIT:
      gtk_label_set_text (self->stack_heading, _("Waiting stack"));
      break;
    case WS_SCENE_NODE_RUN:
      gtk_label_set_text (self->stack_heading, (n->flags & WS_SCENE_NODE_FLAG_READIER)
                                               ? _("Readier's stack when it woke the wait")
                                               : _("Stack"));
      break;
    case WS_SCENE_NODE_HARDWARE:
    case WS_SCENE_NODE_TIMER:
      gtk_label_set_text (self->stack_heading, _("Wake-up stack (interrupt context)"));
      break;
    case WS_SCENE_NODE_UNKNOWN:
    case WS_N_SCENE_NODE_KINDS:
    default:
      gtk_label_set_text (self->stack_heading, _("Stack"));
      break;
    }
  stack = stack_markup (self, n->stack);
  gtk_label_set_markup (self->stack_label, stack);

  if (n->kind == WS_SCENE_NODE_WAIT)
    {
      g_autofree char *readier = stack_markup (self, n->unwait_stack);

      gtk_label_set_text (self->readier_heading, _("Readier's stack (what woke it)"));
      gtk_label_set_markup (self->readier_label, readier);
      gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->readier_label), TRUE);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->readier_label), FALSE);
    }
}

/* ------------------------------------------------------------------ */
/* Selection, kept the same in graph and table                          */

static void
sync_table_selection (WsGraphPage *self,
                      guint        node)
{
  GListModel *model = gtk_single_selection_get_model (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(WsGraphRow) row = g_list_model_get_item (model, i);
      if (row->node == node)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

static void
view_selection_changed_cb (WsGraphPage *self,
                           GParamSpec  *pspec,
                           WsGraphView *view)
{
  if (self->in_selection_sync)
    return;
  self->in_selection_sync = TRUE;
  sync_table_selection (self, ws_graph_view_get_selected_node (view));
  self->in_selection_sync = FALSE;
  update_details (self);
}

static void
table_selection_changed_cb (WsGraphPage        *self,
                            GParamSpec         *pspec,
                            GtkSingleSelection *selection)
{
  WsGraphRow *row = gtk_single_selection_get_selected_item (selection);

  if (self->in_selection_sync || row == NULL)
    return;
  self->in_selection_sync = TRUE;
  ws_graph_view_set_selected_node (self->graph_view, row->node);
  ws_graph_view_reveal_node (self->graph_view, row->node);
  self->in_selection_sync = FALSE;
  update_details (self);
}

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

/* ------------------------------------------------------------------ */
/* Table columns                                                        */

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);
  Column column = GPOINTER_TO_UINT (data);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_DURATION || column == COLUMN_START ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == COLUMN_FRAME)
    gtk_widget_add_css_class (label, "monospace");
  if (column == COLUMN_DURATION || column == COLUMN_START)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static char *
cell_text (WsGraphPage *self,
           guint        node,
           Column       column)
{
  const WsSceneNode *n = ws_graph_scene_get_node (self->scene, node);

  switch (column)
    {
    case COLUMN_LAYER:
      return g_strdup_printf ("%u", n->layer);
    case COLUMN_KIND:
      return ws_graph_scene_dup_detail (self->scene, node);
    case COLUMN_THREAD:
      return ws_graph_scene_dup_title (self->scene, node);
    case COLUMN_START:
      return g_strdup_printf ("%.6f s", (n->time - ws_trace_get_start_time (self->trace)) / 1e9);
    case COLUMN_DURATION:
      return ws_format_duration (n->duration);
    case COLUMN_FRAME:
      return g_strdup (ws_graph_scene_get_frame_name (self->scene, node) ?: "");
    case COLUMN_FLAGS:
      {
        gboolean chain = (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) != 0;
        gboolean match = FALSE;

        for (guint i = 0; self->matches && i < self->matches->len; i++)
          match |= g_array_index (self->matches, guint, i) == node;
        return g_strdup_printf ("%s%s%s", chain ? _("anomalous chain") : "",
                                chain && match ? ", " : "", match ? _("match") : "");
      }
    case N_COLUMNS:
    default:
      return g_strdup ("");
    }
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  data)
{
  WsGraphPage *self = g_object_get_data (G_OBJECT (factory), "page");
  WsGraphRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = NULL;

  if (self->scene == NULL || row->node >= ws_graph_scene_get_n_nodes (self->scene))
    return;
  text = cell_text (self, row->node, GPOINTER_TO_UINT (data));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const WsGraphRow *ra = a, *rb = b;
  WsGraphPage *self = g_object_get_data (G_OBJECT (data), "page");
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (data), "column"));
  const WsSceneNode *na, *nb;

  if (self->scene == NULL)
    return 0;
  na = ws_graph_scene_get_node (self->scene, ra->node);
  nb = ws_graph_scene_get_node (self->scene, rb->node);
  switch (column)
    {
    case COLUMN_LAYER:    return (na->layer > nb->layer) - (na->layer < nb->layer);
    case COLUMN_START:    return (na->time > nb->time) - (na->time < nb->time);
    case COLUMN_DURATION: return (na->duration > nb->duration) - (na->duration < nb->duration);
    case COLUMN_KIND:
    case COLUMN_THREAD:
    case COLUMN_FRAME:
    case COLUMN_FLAGS:
    case N_COLUMNS:
    default:
      {
        g_autofree char *ta = cell_text (self, ra->node, column);
        g_autofree char *tb = cell_text (self, rb->node, column);
        return g_utf8_collate (ta, tb);
      }
    }
}

static void
add_columns (WsGraphPage *self)
{
  const char *titles[N_COLUMNS] = {
    N_("Depth"), N_("What"), N_("Thread"), N_("Start"), N_("Duration"), N_("Frame"), N_("Highlight"),
  };
  g_autoptr(GtkSortListModel) sorted = NULL;

  for (Column c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      GtkSorter *sorter;

      g_object_set_data (G_OBJECT (factory), "page", self);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (c == COLUMN_FRAME || c == COLUMN_KIND)
        gtk_column_view_column_set_expand (column, TRUE);

      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, NULL, NULL));
      g_object_set_data (G_OBJECT (sorter), "page", self);
      g_object_set_data (G_OBJECT (sorter), "column", GUINT_TO_POINTER (c));
      gtk_custom_sorter_set_sort_func (GTK_CUSTOM_SORTER (sorter), compare_rows, sorter, NULL);
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);

      gtk_column_view_append_column (self->table, column);
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                    g_object_ref (gtk_column_view_get_sorter (self->table)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (table_selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------ */
/* Export                                                               */

static gboolean
write_text (const char  *path,
            const char  *text,
            GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (g_file_set_contents (path, text, -1, &local))
    return TRUE;
  g_set_error (error, local->domain, local->code, _("Could not write “%s”: %s"), path, local->message);
  return FALSE;
}

/**
 * ws_graph_page_export:
 * @path: ends in .png, .svg, .pdf (a picture of the whole graph, with the
 *   selection and search highlights), .dot or .json (the analysis, see
 *   ws-graph-export.h: for a wait graph the whole graph, whatever the
 *   depth shown)
 *
 * Returns: %TRUE if written
 */
gboolean
ws_graph_page_export (WsGraphPage  *self,
                      const char   *path,
                      GError      **error)
{
  g_autofree char *lower = NULL;
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->scene == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no graph to export"));
      return FALSE;
    }

  lower = g_ascii_strdown (path, -1);
  if (ws_export_format_from_path (path, &format))
    return ws_graph_renderer_export (ws_graph_view_get_renderer (self->graph_view), self->scene,
                                     ws_graph_view_get_viewport (self->graph_view), path, format, error);

  if (g_str_has_suffix (lower, ".dot") || g_str_has_suffix (lower, ".gv"))
    {
      g_autofree char *dot = NULL;

      if (ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE)
        dot = ws_graph_export_ready_tree_dot (ws_graph_scene_get_ready_tree (self->scene),
                                              ws_graph_scene_get_metric (self->scene));
      else
        dot = ws_graph_export_wait_graph_dot (ws_graph_scene_get_wait_graph (self->scene));
      return write_text (path, dot, error);
    }
  if (g_str_has_suffix (lower, ".json"))
    {
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *json = NULL;

      if (ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE)
        node = ws_graph_export_ready_tree_json (ws_graph_scene_get_ready_tree (self->scene),
                                                ws_graph_scene_get_metric (self->scene));
      else
        node = ws_graph_export_wait_graph_json (ws_graph_scene_get_wait_graph (self->scene));
      json = ws_graph_export_json_to_string (node);
      return write_text (path, json, error);
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
               _("“%s” does not end in .png, .svg, .pdf, .dot or .json"), path);
  return FALSE;
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    WsGraphPage     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        toast (self, _("Only local files can be written"));
      else if (!ws_graph_page_export (self, path, &error))
        toast (self, error->message);
      else
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *message = g_strdup_printf (_("Exported “%s”"), base);
          toast (self, message);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  const char *ext = g_variant_get_string (param, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;

  if (self->scene == NULL)
    return;

  chooser = gtk_file_chooser_native_new (_("Export the Graph"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  name = g_strdup_printf ("%s.%s",
                          ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE ? "ready-tree" : "wait-graph",
                          ext);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);

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
show_in_timeline (WsGraphPage *self,
                  guint        node)
{
  const WsSceneNode *n;
  guint thread;

  if (self->scene == NULL || node == WS_NONE)
    return;
  n = ws_graph_scene_get_node (self->scene, node);
  thread = n->thread;
  /* A wake-up or unknown-readier node has no thread of its own: show the
   * wait it ended. */
  if (thread == WS_NONE || n->kind == WS_SCENE_NODE_HARDWARE)
    for (guint e = 0; e < ws_graph_scene_get_n_edges (self->scene); e++)
      {
        const WsSceneEdge *edge = ws_graph_scene_get_edge (self->scene, e);
        if (edge->to == node)
          {
            const WsSceneNode *w = ws_graph_scene_get_node (self->scene, edge->from);
            g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, w->thread, w->event,
                           (gint64) w->time, (gint64) (w->time + w->duration));
            return;
          }
      }
  g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, thread, n->event,
                 (gint64) n->time, (gint64) (n->time + n->duration));
}

static void
show_in_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  show_in_timeline (self, ws_graph_view_get_selected_node (self->graph_view));
}

static void
node_activated_cb (WsGraphPage *self,
                   guint        node,
                   WsGraphView *view)
{
  show_in_timeline (self, node);
}

static void
options_changed_cb (WsGraphPage *self)
{
  gboolean tree;

  if (self->in_request_update)
    return;
  self->mode = gtk_drop_down_get_selected (self->mode_dropdown) == 1 ? WS_GRAPH_MODE_WAIT_GRAPH
                                                                     : WS_GRAPH_MODE_READY_TREE;
  tree = self->mode == WS_GRAPH_MODE_READY_TREE;
  /* Chains and the lock-only rule belong to the ready tree. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_dropdown), tree);
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_label), tree);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lock_only_check), tree);
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

  if (g_set_object (&self->trace, trace))
    g_clear_object (&self->search);
  self->symptom = *symptom;
  self->have_symptom = TRUE;
  self->in_request_update = TRUE;
  gtk_drop_down_set_selected (self->mode_dropdown, mode == WS_GRAPH_MODE_WAIT_GRAPH ? 1 : 0);
  self->in_request_update = FALSE;
  options_changed_cb (self);
}

void
ws_graph_page_set_mode (WsGraphPage *self,
                        WsGraphMode  mode)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_drop_down_set_selected (self->mode_dropdown, mode == WS_GRAPH_MODE_WAIT_GRAPH ? 1 : 0);
}

WsGraphMode
ws_graph_page_get_mode (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), WS_GRAPH_MODE_READY_TREE);
  return self->mode;
}

/* Whether a graph is being built. */
gboolean
ws_graph_page_get_busy (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  return gtk_spinner_get_spinning (self->spinner);
}

/* Returns: (transfer none): */
WsGraphView *
ws_graph_page_get_view (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->graph_view;
}

/* Returns: (transfer none): the search entry (for tests and focus) */
GtkWidget *
ws_graph_page_get_search_entry (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return GTK_WIDGET (self->search_entry);
}

/* Returns: (transfer none) (nullable): the scene shown */
WsGraphScene *
ws_graph_page_get_scene (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->scene;
}

/* Returns: (transfer none) (nullable): */
WsTrace *
ws_graph_page_get_trace (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->trace;
}

void
ws_graph_page_set_search_text (WsGraphPage *self,
                               const char  *text)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  /* Not waiting for the entry's typing delay. */
  refresh_search (self);
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
  g_return_if_fail (WS_IS_STACK_SEARCH (search));

  if (self->trace == NULL || ws_stack_search_get_trace (search) != self->trace)
    return;
  /* refresh_search() keeps a search whose description is the entry's text. */
  g_set_object (&self->search, search);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), ws_stack_search_get_pattern (search));
  refresh_search (self);
}

guint
ws_graph_page_get_n_matches (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), 0);
  return self->matches ? self->matches->len : 0;
}

/* The text of the "n of m" label. */
const char *
ws_graph_page_get_match_status (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->match_status ? self->match_status : "";
}

/**
 * ws_graph_page_get_stack_text:
 * @readier: the readier's (unwait) stack rather than the node's own
 *
 * Returns: the stack the side panel shows for the selected node, one frame
 *   a line, leaf first ("" if none)
 */
const char *
ws_graph_page_get_stack_text (WsGraphPage *self,
                              gboolean     readier)
{
  GtkLabel *label;

  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);

  label = readier ? self->readier_label : self->stack_label;
  return gtk_widget_get_visible (GTK_WIDGET (label)) ? gtk_label_get_text (label) : "";
}

/* Shows the nodes as a table (the accessible alternative) or as a graph. */
void
ws_graph_page_show_table (WsGraphPage *self,
                          gboolean     table)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_toggle_button_set_active (self->table_toggle, table);
}

static void
table_toggled_cb (WsGraphPage     *self,
                  GtkToggleButton *toggle)
{
  gtk_stack_set_visible_child_name (self->view_stack, gtk_toggle_button_get_active (toggle) ? "table" : "graph");
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
      g_value_set_boolean (value, ws_graph_page_get_busy (self));
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

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* Late results find a generation that no longer matches. */
  self->generation++;

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_GRAPH_PAGE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->scene);
  g_clear_object (&self->search);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->match_status, g_free);
  g_clear_pointer (&self->search_tooltip, g_free);

  G_OBJECT_CLASS (ws_graph_page_parent_class)->dispose (object);
}

static void
ws_graph_page_class_init (WsGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ws_graph_page_get_property;
  object_class->dispose = ws_graph_page_dispose;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, WS_GRAPH_MODE_READY_TREE, WS_GRAPH_MODE_WAIT_GRAPH,
                      WS_GRAPH_MODE_READY_TREE,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

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

  g_type_ensure (WS_TYPE_GRAPH_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/waitscope/Waitscope/ws-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, toast_overlay);
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
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, detail_title);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, detail_subtitle);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, detail_grid);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, timeline_button);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, stack_heading);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, stack_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, readier_heading);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, readier_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, summary_label);

  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "graph.next-match", NULL, match_action);
  gtk_widget_class_install_action (widget_class, "graph.previous-match", NULL, match_action);
  gtk_widget_class_install_action (widget_class, "graph.show-in-timeline", NULL, show_in_timeline_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "graph.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK, "graph.previous-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "graph.next-match", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "graph.previous-match", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "graphpage");
}

static void
ws_graph_page_init (WsGraphPage *self)
{
  GtkEventController *keys;

  self->current_match = WS_NONE;
  self->mode = WS_GRAPH_MODE_READY_TREE;
  self->rows = g_list_store_new (WS_TYPE_GRAPH_ROW);

  gtk_widget_init_template (GTK_WIDGET (self));
  add_columns (self);
  self->search_tooltip = g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (self->search_entry)));

  gtk_spin_button_set_value (self->depth_spin, WS_GRAPH_PAGE_DEFAULT_DEPTH);

  g_signal_connect_swapped (self->mode_dropdown, "notify::selected", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->metric_dropdown, "notify::selected", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->lock_only_check, "toggled", G_CALLBACK (options_changed_cb), self);
  g_signal_connect_swapped (self->depth_spin, "value-changed", G_CALLBACK (options_changed_cb), self);

  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
  g_signal_connect_swapped (self->search_entry, "next-match", G_CALLBACK (search_next_cb), self);
  g_signal_connect_swapped (self->search_entry, "previous-match", G_CALLBACK (search_previous_cb), self);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (search_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);

  g_signal_connect_swapped (self->table_toggle, "toggled", G_CALLBACK (table_toggled_cb), self);
  g_signal_connect_swapped (self->graph_view, "notify::selected-node", G_CALLBACK (view_selection_changed_cb), self);
  g_signal_connect_swapped (self->graph_view, "notify::zoom", G_CALLBACK (update_zoom_label), self);
  g_signal_connect_swapped (self->graph_view, "node-activated", G_CALLBACK (node_activated_cb), self);

  gtk_stack_set_visible_child_name (self->state_stack, "empty");
  update_zoom_label (self);
  update_match_label (self);
  update_details (self);
}
