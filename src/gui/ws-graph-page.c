/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait graph / ready tree / critical path page: it owns the request
 * (trace, symptom, mode and options), builds the analysis (and, for the
 * graphs, its laid-out scene) in a worker thread (a newer request cancels
 * the older and a generation counter drops late results), and keeps the
 * graph or path, the tables and the side panel on one selection.  The
 * inspector runs in a worker of its own after each build, so that the
 * graph shows first.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-export-dialog.h"
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

/* The critical path's segment table. */
typedef enum {
  SEGMENT_COLUMN_INDEX,
  SEGMENT_COLUMN_THREAD,
  SEGMENT_COLUMN_STATE,
  SEGMENT_COLUMN_START,
  SEGMENT_COLUMN_DURATION,
  SEGMENT_COLUMN_DEPTH,
  SEGMENT_COLUMN_WAIT,
  N_SEGMENT_COLUMNS
} SegmentColumn;

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
  WsCriticalPathView *cp_view;
  GtkColumnView     *segment_table;
  GtkToggleButton   *inspector_toggle;
  AdwButtonContent  *inspector_toggle_content;
  GtkRevealer       *inspector_revealer;
  GtkLabel          *inspector_scope_label;
  GtkSpinner        *inspector_spinner;
  GtkToggleButton   *inspector_graph_button;
  GtkToggleButton   *inspector_trace_button;
  GtkListBox        *inspector_list;

  /* Owned references */
  WsTrace           *trace;
  WsGraphScene      *scene;
  WsCriticalPath    *path;
  GListStore        *segment_rows;
  GtkSingleSelection *segment_selection;
  GPtrArray         *findings;          /* WsFinding, or NULL */
  WsTrace           *inspected_trace;   /* the trace the findings are of */
  WsTrace           *trace_to_inspect;  /* whole-trace scope */
  GCancellable      *inspect_cancellable;
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
  gboolean           in_scope_update;
  gboolean           in_set_text;

  /* The inspector */
  WsInspectorScope   inspector_scope;
  guint              inspect_generation;
  guint              findings_n_waits;  /* the percentages' denominator */
  guint              selected_finding;  /* index chosen last, or WS_NONE */
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
  SHOW_EVENTS,
  INSPECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void rebuild (WsGraphPage *self);
static void update_details (WsGraphPage *self);
static void inspect (WsGraphPage *self,
                     WsWaitGraph *graph);
static void show_segment_in_timeline (WsGraphPage *self,
                                      guint        segment);

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

/* A build's result: a scene, or a critical path. */
typedef struct {
  WsGraphScene   *scene;
  WsCriticalPath *path;
} BuildResult;

static void
build_result_free (BuildResult *result)
{
  g_clear_object (&result->scene);
  g_clear_object (&result->path);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BuildResult, build_result_free)

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildJob *job = task_data;
  g_autoptr(GError) error = NULL;
  WsGraphScene *scene = NULL;

  if (job->mode == WS_GRAPH_MODE_CRITICAL_PATH)
    {
      g_autoptr(WsCriticalPath) path = ws_critical_path_build (job->trace, &job->symptom, NULL, &error);
      BuildResult *result;

      if (path == NULL || g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      result = g_new0 (BuildResult, 1);
      result->path = g_steal_pointer (&path);
      g_task_return_pointer (task, result, (GDestroyNotify) build_result_free);
      return;
    }

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
    {
      BuildResult *result = g_new0 (BuildResult, 1);
      result->scene = scene;
      g_task_return_pointer (task, result, (GDestroyNotify) build_result_free);
    }
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
  double zoom = self->mode == WS_GRAPH_MODE_CRITICAL_PATH ? ws_critical_path_view_get_zoom (self->cp_view)
                                                          : ws_graph_view_get_zoom (self->graph_view);
  g_autofree char *text = g_strdup_printf ("%.0f %%", 100 * zoom);
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

static void
fill_segment_table (WsGraphPage *self)
{
  guint n = self->path ? ws_critical_path_get_n_segments (self->path) : 0;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (rows, ws_graph_row_new (i));
  g_list_store_splice (self->segment_rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->segment_rows)),
                       rows->pdata, rows->len);
}

static void refresh_search (WsGraphPage *self);
static void update_mode_widgets (WsGraphPage *self);

/* Shows @scene or @path (or neither), dropping the other. */
static void
set_result (WsGraphPage    *self,
            WsGraphScene   *scene,
            WsCriticalPath *path)
{
  g_set_object (&self->scene, scene);
  ws_graph_view_set_scene (self->graph_view, scene);
  fill_table (self);
  g_set_object (&self->path, path);
  ws_critical_path_view_set_path (self->cp_view, path);
  fill_segment_table (self);
}

static void
build_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  WsGraphPage *self = WS_GRAPH_PAGE (source);
  BuildJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(BuildResult) built = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *summary = NULL;

  /* A newer request was made meanwhile: its result is the one to show. */
  if (job->generation != self->generation)
    return;

  set_busy (self, FALSE);
  if (built == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_result (self, NULL, NULL);
      adw_status_page_set_description (self->error_page, error ? error->message : "");
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      gtk_label_set_text (self->summary_label, "");
      update_details (self);
      g_signal_emit (self, signals[READY], 0);
      return;
    }

  set_result (self, built->scene, built->path);
  if (built->path != NULL)
    {
      g_autofree char *threads = ws_critical_path_dup_thread_summary (built->path, 3);
      guint n = ws_critical_path_get_n_segments (built->path);

      /* Translators: status line of the critical path: segments, then the
       * busiest threads and their share */
      summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Critical path: %u segment · %s",
                                              "Critical path: %u segments · %s", n),
                                 n, threads);
    }
  else
    summary = ws_graph_scene_dup_summary (built->scene);
  gtk_label_set_text (self->summary_label, summary);
  update_mode_widgets (self);
  gtk_stack_set_visible_child_name (self->state_stack, "graph");
  refresh_search (self);
  if (built->scene != NULL)
    ws_graph_page_select_node (self, ws_graph_scene_get_root (built->scene));
  else
    ws_graph_page_select_segment (self, WS_NONE);
  update_zoom_label (self);
  g_signal_emit (self, signals[READY], 0);

  if (self->inspector_scope == WS_INSPECTOR_SCOPE_GRAPH)
    inspect (self, built->scene && ws_graph_scene_get_kind (built->scene) == WS_GRAPH_SCENE_WAIT_GRAPH
                   ? ws_graph_scene_get_wait_graph (built->scene) : NULL);
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
    job->metric = WS_CHAIN_METRIC_DEFAULT;

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

/* The scene's nodes (in the order Tab visits them) or the path's
 * segments (in time order) that the search matches.  A node matches by
 * its stacks (ws_graph_scene_node_matches()) or by its event, so that a
 * search of events (an inspector finding) highlights them too. */
static GArray *
find_matches (WsGraphPage *self)
{
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->search == NULL || ws_stack_search_get_trace (self->search) != self->trace)
    return matches;

  if (self->scene != NULL)
    {
      WsGraphLayout *layout = ws_graph_scene_get_layout (self->scene);

      for (guint l = 0; l < ws_graph_layout_get_n_layers (layout); l++)
        {
          guint n;
          const guint *nodes = ws_graph_layout_get_layer_nodes (layout, l, &n);

          for (guint i = 0; i < n; i++)
            {
              const WsSceneNode *node = ws_graph_scene_get_node (self->scene, nodes[i]);

              if ((node->event != WS_NONE && ws_stack_search_matches_event (self->search, node->event)) ||
                  ws_graph_scene_node_matches (self->scene, nodes[i], self->search))
                g_array_append_val (matches, nodes[i]);
            }
        }
    }
  else if (self->path != NULL)
    {
      for (guint i = 0; i < ws_critical_path_get_n_segments (self->path); i++)
        if (ws_critical_path_segment_matches (self->path, i, self->search))
          g_array_append_val (matches, i);
    }
  return matches;
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
      else
        self->matches = find_matches (self);
    }
  else
    g_clear_object (&self->search);

  ws_graph_view_set_matches (self->graph_view, self->scene ? self->matches : NULL);
  ws_graph_view_set_current_match (self->graph_view, WS_NONE);
  ws_critical_path_view_set_matches (self->cp_view, self->path ? self->matches : NULL);
  update_match_label (self);
  update_details (self);
}

static void
search_changed_cb (WsGraphPage    *self,
                   GtkSearchEntry *entry)
{
  if (!self->in_set_text)
    refresh_search (self);
}

/* Sets the entry's text without the search the entry would start: a
 * search entry emptied (as setting a text does first) reports it at once,
 * which would drop a search given by events rather than by its text. */
static void
set_entry_text (WsGraphPage *self,
                const char  *text)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text) == 0)
    return;
  self->in_set_text = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  self->in_set_text = FALSE;
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
  if (self->path != NULL)
    {
      ws_graph_page_select_segment (self, node);
      ws_critical_path_view_reveal_segment (self->cp_view, node);
    }
  else
    {
      ws_graph_view_set_current_match (self->graph_view, node);
      ws_graph_page_select_node (self, node);
      ws_graph_view_reveal_node (self->graph_view, node);
    }
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
set_stacks_visible (WsGraphPage *self,
                    gboolean     own,
                    gboolean     readier)
{
  gtk_widget_set_visible (GTK_WIDGET (self->stack_heading), own);
  gtk_widget_set_visible (GTK_WIDGET (self->stack_label), own);
  gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), readier);
  gtk_widget_set_visible (GTK_WIDGET (self->readier_label), readier);
}

static char *
offset_text (WsGraphPage *self,
             WsTime       time)
{
  return g_strdup_printf (_("+%.6f s"), (time - ws_trace_get_start_time (self->trace)) / 1e9);
}

/* A WAIT event as "b · 2, 300 ns" (and "from +0.000100 s" if @when). */
static char *
wait_text (WsGraphPage *self,
           guint        wait,
           gboolean     when)
{
  const WsEvent *w = ws_trace_get_event (self->trace, wait);
  g_autofree char *who = thread_text (self, w->thread);
  g_autofree char *d = ws_format_duration (w->duration);
  g_autofree char *at = offset_text (self, w->time);

  if (!when)
    /* Translators: a wait: thread, duration */
    return g_strdup_printf (_("%s, %s"), who, d);
  /* Translators: a wait: thread, duration, start */
  return g_strdup_printf (_("%s, %s from %s"), who, d, at);
}

/* The side panel for the selected critical path segment. */
static void
update_segment_details (WsGraphPage *self)
{
  guint segment = ws_critical_path_view_get_selected_segment (self->cp_view);
  const WsCriticalSegment *seg;
  const WsSymptom *symptom;
  g_autofree char *thread = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *share = NULL;
  g_autofree char *depth = NULL;
  int row = 0;

  if (segment == WS_NONE)
    {
      gtk_label_set_text (self->detail_title, _("Nothing selected"));
      gtk_label_set_text (self->detail_subtitle, _("Click a segment of the path to see which thread it was on, in what state, and the wait it was on behalf of."));
      gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), FALSE);
      set_stacks_visible (self, FALSE, FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.show-in-timeline", FALSE);
      return;
    }

  seg = ws_critical_path_get_segment (self->path, segment);
  symptom = ws_critical_path_get_symptom (self->path);
  thread = thread_text (self, seg->thread);
  gtk_label_set_text (self->detail_title, thread);
  gtk_label_set_text (self->detail_subtitle, ws_critical_state_get_label (seg->state));
  gtk_widget_set_visible (GTK_WIDGET (self->detail_grid), TRUE);

  from = offset_text (self, seg->start);
  to = offset_text (self, seg->end);
  duration = ws_format_duration (seg->end - seg->start);
  share = g_strdup_printf (_("%.1f %% of the window"),
                           symptom->t1 > symptom->t0 ? 100.0 * (seg->end - seg->start) / (symptom->t1 - symptom->t0) : 0);
  if (seg->depth == 0)
    depth = g_strdup (_("the thread of interest"));
  else
    depth = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u readier hop", "%u readier hops", seg->depth),
                             seg->depth);

  grid_row (self, row++, _("Thread"), thread);
  {
    const WsThread *t = ws_trace_get_thread (self->trace, seg->thread);
    const WsProcess *p = ws_trace_get_process (self->trace, t->process);
    g_autofree char *process = g_strdup_printf ("%s · %d", p && p->name ? p->name : "?", t->pid);
    grid_row (self, row++, _("Process"), process);
  }
  grid_row (self, row++, _("State"), ws_critical_state_get_label (seg->state));
  grid_row (self, row++, _("From"), from);
  grid_row (self, row++, _("To"), to);
  grid_row (self, row++, _("Duration"), duration);
  grid_row (self, row++, _("Share"), share);
  grid_row (self, row++, _("Depth"), depth);
  if (seg->event != WS_NONE)
    {
      const WsEvent *e = ws_trace_get_event (self->trace, seg->event);
      g_autofree char *what = e->kind == WS_EVENT_WAIT ? wait_text (self, seg->event, TRUE)
                                                       : g_strdup (_("preempted while runnable"));
      grid_row (self, row++, e->kind == WS_EVENT_WAIT ? _("In the wait") : _("Event"), what);
    }
  if (seg->on_behalf_of != WS_NONE)
    {
      g_autofree char *wait = wait_text (self, seg->on_behalf_of, TRUE);
      grid_row (self, row++, _("On behalf of"), wait);
    }
  else
    grid_row (self, row++, _("On behalf of"), _("itself"));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.show-in-timeline", TRUE);

  /* Stacks: the wait's own and what ended it; for a readier's work, its
   * stack when it readied the wait the path is following. */
  set_stacks_visible (self, FALSE, FALSE);
  if (seg->event != WS_NONE)
    {
      const WsEvent *e = ws_trace_get_event (self->trace, seg->event);
      g_autofree char *own = stack_markup (self, e->stack);

      gtk_label_set_text (self->stack_heading, e->kind == WS_EVENT_WAIT ? _("Waiting stack") : _("Stack when preempted"));
      gtk_label_set_markup (self->stack_label, own);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_heading), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_label), TRUE);
      if (e->kind == WS_EVENT_WAIT && e->peer != WS_NONE)
        {
          const WsEvent *u = ws_trace_get_event (self->trace, e->peer);
          g_autofree char *readier = stack_markup (self, u->stack);

          gtk_label_set_text (self->readier_heading, u->kind == WS_EVENT_HW_SERVICE
                                                     ? _("Wake-up stack (interrupt context)")
                                                     : _("Readier's stack (what woke it)"));
          gtk_label_set_markup (self->readier_label, readier);
          gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), TRUE);
          gtk_widget_set_visible (GTK_WIDGET (self->readier_label), TRUE);
        }
    }
  else if (seg->on_behalf_of != WS_NONE)
    {
      const WsEvent *w = ws_trace_get_event (self->trace, seg->on_behalf_of);

      if (w->peer != WS_NONE && ws_trace_get_event (self->trace, w->peer)->thread == seg->thread)
        {
          g_autofree char *readier = stack_markup (self, ws_trace_get_event (self->trace, w->peer)->stack);

          gtk_label_set_text (self->readier_heading, _("Its stack when it readied that wait"));
          gtk_label_set_markup (self->readier_label, readier);
          gtk_widget_set_visible (GTK_WIDGET (self->readier_heading), TRUE);
          gtk_widget_set_visible (GTK_WIDGET (self->readier_label), TRUE);
        }
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

  if (self->path != NULL)
    {
      update_segment_details (self);
      return;
    }
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
/* The critical path's segments: table and selection                    */

static void
segment_cell_setup_cb (GtkSignalListItemFactory *factory,
                       GtkListItem              *item,
                       gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);
  SegmentColumn column = GPOINTER_TO_UINT (data);
  gboolean number = column == SEGMENT_COLUMN_INDEX || column == SEGMENT_COLUMN_START ||
                    column == SEGMENT_COLUMN_DURATION || column == SEGMENT_COLUMN_DEPTH;

  gtk_label_set_xalign (GTK_LABEL (label), number ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (number)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static char *
segment_cell_text (WsGraphPage   *self,
                   guint          segment,
                   SegmentColumn  column)
{
  const WsCriticalSegment *seg = ws_critical_path_get_segment (self->path, segment);

  switch (column)
    {
    case SEGMENT_COLUMN_INDEX:
      return g_strdup_printf ("%u", segment + 1);
    case SEGMENT_COLUMN_THREAD:
      return thread_text (self, seg->thread);
    case SEGMENT_COLUMN_STATE:
      return g_strdup (ws_critical_state_get_label (seg->state));
    case SEGMENT_COLUMN_START:
      {
        g_autofree char *d = ws_format_duration (seg->start - ws_critical_path_get_symptom (self->path)->t0);
        return g_strdup_printf ("+%s", d);
      }
    case SEGMENT_COLUMN_DURATION:
      return ws_format_duration (seg->end - seg->start);
    case SEGMENT_COLUMN_DEPTH:
      return g_strdup_printf ("%u", seg->depth);
    case SEGMENT_COLUMN_WAIT:
      return seg->on_behalf_of == WS_NONE ? g_strdup ("—") : wait_text (self, seg->on_behalf_of, FALSE);
    case N_SEGMENT_COLUMNS:
    default:
      return g_strdup ("");
    }
}

static void
segment_cell_bind_cb (GtkSignalListItemFactory *factory,
                      GtkListItem              *item,
                      gpointer                  data)
{
  WsGraphPage *self = g_object_get_data (G_OBJECT (factory), "page");
  WsGraphRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = NULL;

  if (self->path == NULL || row->node >= ws_critical_path_get_n_segments (self->path))
    return;
  text = segment_cell_text (self, row->node, GPOINTER_TO_UINT (data));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static int
compare_segment_rows (gconstpointer a,
                      gconstpointer b,
                      gpointer      data)
{
  const WsGraphRow *ra = a, *rb = b;
  WsGraphPage *self = g_object_get_data (G_OBJECT (data), "page");
  SegmentColumn column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (data), "column"));
  const WsCriticalSegment *sa, *sb;

  if (self->path == NULL)
    return 0;
  sa = ws_critical_path_get_segment (self->path, ra->node);
  sb = ws_critical_path_get_segment (self->path, rb->node);
  switch (column)
    {
    case SEGMENT_COLUMN_INDEX:
    case SEGMENT_COLUMN_START:
      return (ra->node > rb->node) - (ra->node < rb->node);
    case SEGMENT_COLUMN_DURATION:
      return ((sa->end - sa->start) > (sb->end - sb->start)) - ((sa->end - sa->start) < (sb->end - sb->start));
    case SEGMENT_COLUMN_DEPTH:
      return (sa->depth > sb->depth) - (sa->depth < sb->depth);
    case SEGMENT_COLUMN_STATE:
      return (sa->state > sb->state) - (sa->state < sb->state);
    case SEGMENT_COLUMN_THREAD:
    case SEGMENT_COLUMN_WAIT:
    case N_SEGMENT_COLUMNS:
    default:
      {
        g_autofree char *ta = segment_cell_text (self, ra->node, column);
        g_autofree char *tb = segment_cell_text (self, rb->node, column);
        return g_utf8_collate (ta, tb);
      }
    }
}

static void
segment_table_selection_changed_cb (WsGraphPage        *self,
                                    GParamSpec         *pspec,
                                    GtkSingleSelection *selection)
{
  WsGraphRow *row = gtk_single_selection_get_selected_item (selection);

  if (self->in_selection_sync || row == NULL)
    return;
  self->in_selection_sync = TRUE;
  ws_critical_path_view_set_selected_segment (self->cp_view, row->node);
  ws_critical_path_view_reveal_segment (self->cp_view, row->node);
  self->in_selection_sync = FALSE;
  update_details (self);
}

static void
add_segment_columns (WsGraphPage *self)
{
  const char *titles[N_SEGMENT_COLUMNS] = {
    N_("#"), N_("Thread"), N_("State"), N_("Start"), N_("Duration"), N_("Depth"), N_("On behalf of the wait of"),
  };
  g_autoptr(GtkSortListModel) sorted = NULL;

  for (SegmentColumn c = 0; c < N_SEGMENT_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      GtkSorter *sorter;

      g_object_set_data (G_OBJECT (factory), "page", self);
      g_signal_connect (factory, "setup", G_CALLBACK (segment_cell_setup_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (segment_cell_bind_cb), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (c == SEGMENT_COLUMN_WAIT || c == SEGMENT_COLUMN_STATE || c == SEGMENT_COLUMN_THREAD)
        gtk_column_view_column_set_expand (column, TRUE);

      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_segment_rows, NULL, NULL));
      g_object_set_data (G_OBJECT (sorter), "page", self);
      g_object_set_data (G_OBJECT (sorter), "column", GUINT_TO_POINTER (c));
      gtk_custom_sorter_set_sort_func (GTK_CUSTOM_SORTER (sorter), compare_segment_rows, sorter, NULL);
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);

      gtk_column_view_append_column (self->segment_table, column);
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->segment_rows)),
                                    g_object_ref (gtk_column_view_get_sorter (self->segment_table)));
  self->segment_selection = gtk_single_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));
  gtk_single_selection_set_autoselect (self->segment_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->segment_selection, TRUE);
  gtk_column_view_set_model (self->segment_table, GTK_SELECTION_MODEL (self->segment_selection));
  g_signal_connect_object (self->segment_selection, "notify::selected",
                           G_CALLBACK (segment_table_selection_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
sync_segment_table_selection (WsGraphPage *self,
                              guint        segment)
{
  GListModel *model = gtk_single_selection_get_model (self->segment_selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; segment != WS_NONE && i < n; i++)
    {
      g_autoptr(WsGraphRow) row = g_list_model_get_item (model, i);
      if (row->node == segment)
        {
          gtk_single_selection_set_selected (self->segment_selection, i);
          return;
        }
    }
  gtk_single_selection_set_selected (self->segment_selection, GTK_INVALID_LIST_POSITION);
}

static void
cp_selection_changed_cb (WsGraphPage        *self,
                         GParamSpec         *pspec,
                         WsCriticalPathView *view)
{
  if (self->in_selection_sync)
    return;
  self->in_selection_sync = TRUE;
  sync_segment_table_selection (self, ws_critical_path_view_get_selected_segment (view));
  self->in_selection_sync = FALSE;
  update_details (self);
}

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

/* Returns: the selected segment of the critical path, or %WS_NONE */
guint
ws_graph_page_get_selected_segment (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), WS_NONE);
  return self->path ? ws_critical_path_view_get_selected_segment (self->cp_view) : WS_NONE;
}

/* Returns: (transfer none) (nullable): the critical path shown */
WsCriticalPath *
ws_graph_page_get_critical_path (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->path;
}

/* Returns: (transfer none): */
WsCriticalPathView *
ws_graph_page_get_critical_path_view (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->cp_view;
}

/* The side panel's title (the selected node's or segment's thread). */
const char *
ws_graph_page_get_detail_title (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return gtk_label_get_text (self->detail_title);
}

/* ------------------------------------------------------------------ */
/* The inspector                                                        */

typedef struct {
  WsTrace     *trace;
  WsWaitGraph *graph;        /* nullable: built from the symptom if not given */
  WsSymptom    symptom;
  gboolean     whole_trace;
  guint        generation;
} InspectJob;

typedef struct {
  GPtrArray *findings;
  guint      n_waits;
} InspectResult;

static void
inspect_job_free (InspectJob *job)
{
  g_clear_object (&job->trace);
  g_clear_object (&job->graph);
  g_free (job);
}

static void
inspect_result_free (InspectResult *result)
{
  g_clear_pointer (&result->findings, g_ptr_array_unref);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (InspectResult, inspect_result_free)

static void
inspect_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  InspectJob *job = task_data;
  InspectResult *result = g_new0 (InspectResult, 1);
  WsInspectorOptions options;

  ws_inspector_options_init (&options);
  /* Every wait of a finding, so that all of them can be highlighted. */
  options.top_n = G_MAXUINT;
  if (job->whole_trace)
    {
      result->findings = ws_inspect_trace (job->trace, &options);
      result->n_waits = ws_trace_count_kind (job->trace, WS_EVENT_WAIT);
    }
  else
    {
      g_autoptr(WsWaitGraph) graph = job->graph ? g_object_ref (job->graph) : NULL;
      g_autoptr(GError) error = NULL;

      if (graph == NULL)
        graph = ws_wait_graph_build (job->trace, &job->symptom, NULL, cancellable, &error);
      if (graph == NULL)
        {
          inspect_result_free (result);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      result->findings = ws_inspect_wait_graph (graph, &options);
      for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
        result->n_waits += ws_wait_graph_get_node (graph, i)->kind == WS_WAIT_NODE_WAIT;
    }
  g_task_return_pointer (task, result, (GDestroyNotify) inspect_result_free);
}

static char *
group_digits (guint n)
{
  /* The locale's thousands separator ("1,234" in English). */
  return g_strdup_printf ("%'u", n);
}

/**
 * ws_graph_page_dup_finding_title:
 *
 * Returns: (transfer full): the headline of finding @finding, e.g.
 *   "1,234 waits (30 %) have no recorded readier"
 */
char *
ws_graph_page_dup_finding_title (WsGraphPage *self,
                                 guint        finding)
{
  const WsFinding *f;
  g_autofree char *count = NULL;

  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  g_return_val_if_fail (self->findings != NULL && finding < self->findings->len, NULL);

  f = g_ptr_array_index (self->findings, finding);
  count = group_digits (f->count);
  switch (f->kind)
    {
    case WS_FINDING_UNDER_CONNECTION:
      {
        double pct = self->findings_n_waits > 0 ? 100.0 * f->count / self->findings_n_waits : 0;
        g_autofree char *share = pct >= 10 || pct == 0 ? g_strdup_printf ("%.0f %%", pct)
                                                       : g_strdup_printf ("%.1f %%", pct);
        /* Translators: under-connection headline: number of waits, their
         * share of all waits */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s wait (%s) has no recorded readier",
                                             "%s waits (%s) have no recorded readier", f->count),
                                count, share);
      }
    case WS_FINDING_INTERRUPT_READIER:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%s wake-up from interrupt context is recorded in a thread",
                                           "%s wake-ups from interrupt context are recorded in a thread", f->count),
                              count);
    case WS_FINDING_OVER_CONNECTION:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Unrelated processes joined through a daemon or heartbeat thread (%s wait)",
                                           "Unrelated processes joined through a daemon or heartbeat thread (%s waits)",
                                           f->count),
                              count);
    }
}

static const char *
severity_icon (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:   return "dialog-error-symbolic";
    case WS_SEVERITY_WARNING: return "dialog-warning-symbolic";
    case WS_SEVERITY_INFO:
    default:                  return "dialog-information-symbolic";
    }
}

static const char *
severity_name (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:   return _("Error");
    case WS_SEVERITY_WARNING: return _("Warning");
    case WS_SEVERITY_INFO:
    default:                  return _("Information");
    }
}

static GtkWidget *
finding_row (WsGraphPage *self,
             guint        index)
{
  const WsFinding *f = g_ptr_array_index (self->findings, index);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *numbers = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (f->severity));
  g_autofree char *title = ws_graph_page_dup_finding_title (self, index);
  g_autofree char *cost = ws_format_duration (f->cost);
  g_autofree char *count = group_digits (f->count);
  g_autofree char *count_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s wait", "%s waits", f->count), count);
  g_autofree char *cost_text = g_strdup_printf (_("%s waited"), cost);
  g_autofree char *accessible = NULL;
  GtkWidget *label;

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_set_margin_top (icon, 2);
  gtk_widget_add_css_class (icon, f->severity == WS_SEVERITY_ERROR ? "error"
                                  : f->severity == WS_SEVERITY_WARNING ? "warning" : "accent");
  gtk_widget_set_tooltip_text (icon, severity_name (f->severity));
  gtk_box_append (GTK_BOX (box), icon);

  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (text), label);
  label = gtk_label_new (f->message);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (text), label);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), text);

  label = gtk_label_new (count_text);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (numbers), label);
  label = gtk_label_new (cost_text);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (numbers), label);
  gtk_box_append (GTK_BOX (box), numbers);

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "finding", GUINT_TO_POINTER (index));
  /* Translators: accessible name of an inspector finding: severity,
   * headline, count, time */
  accessible = g_strdup_printf (_("%s: %s; %s, %s"), severity_name (f->severity), title, count_text, cost_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, f->message, -1);
  return row;
}

static void
update_inspector_toggle (WsGraphPage *self)
{
  guint n = self->findings ? self->findings->len : 0;
  WsSeverity worst = WS_SEVERITY_INFO;
  g_autofree char *label = NULL;

  for (guint i = 0; i < n; i++)
    worst = MAX (worst, ((const WsFinding *) g_ptr_array_index (self->findings, i))->severity);
  if (self->findings == NULL)
    label = g_strdup (_("_Inspector"));
  else if (n == 0)
    label = g_strdup (_("_Inspector: nothing suspicious"));
  else
    {
      guint under = WS_NONE;
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint i = 0; i < n; i++)
        if (((const WsFinding *) g_ptr_array_index (self->findings, i))->kind == WS_FINDING_UNDER_CONNECTION)
          under = i;
      if (under != WS_NONE)
        {
          const WsFinding *f = g_ptr_array_index (self->findings, under);
          g_autofree char *count = group_digits (f->count);

          /* Translators: the inspector's button in the status line */
          g_string_printf (text, g_dngettext (GETTEXT_PACKAGE, "_Inspector: %s wait with no readier",
                                              "_Inspector: %s waits with no readier", f->count), count);
          if (n > 1)
            g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, " · %u more finding", " · %u more findings",
                                                       n - 1), n - 1);
        }
      else
        g_string_printf (text, g_dngettext (GETTEXT_PACKAGE, "_Inspector: %u finding", "_Inspector: %u findings", n), n);
      label = g_string_free (g_steal_pointer (&text), FALSE);
    }
  adw_button_content_set_label (self->inspector_toggle_content, label);
  adw_button_content_set_icon_name (self->inspector_toggle_content,
                                    self->findings == NULL ? "dialog-warning-symbolic"
                                    : n == 0 ? "object-select-symbolic" : severity_icon (worst));
}

static void
set_inspector_placeholder (WsGraphPage *self,
                           const char  *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_list_box_set_placeholder (self->inspector_list, label);
}

static void
fill_findings (WsGraphPage *self)
{
  GtkWidget *child;

  self->in_scope_update = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->inspector_list))) != NULL)
    gtk_list_box_remove (self->inspector_list, child);
  for (guint i = 0; self->findings && i < self->findings->len; i++)
    gtk_list_box_append (self->inspector_list, finding_row (self, i));
  self->in_scope_update = FALSE;
  self->selected_finding = WS_NONE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.export-findings", self->findings != NULL);
  update_inspector_toggle (self);
}

static void
inspect_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  WsGraphPage *self = WS_GRAPH_PAGE (source);
  InspectJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(InspectResult) inspected = g_task_propagate_pointer (G_TASK (result), &error);

  if (job->generation != self->inspect_generation)
    return;
  gtk_spinner_set_spinning (self->inspector_spinner, FALSE);

  g_clear_pointer (&self->findings, g_ptr_array_unref);
  if (inspected == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      set_inspector_placeholder (self, error ? error->message : "");
    }
  else
    {
      self->findings = g_steal_pointer (&inspected->findings);
      self->findings_n_waits = inspected->n_waits;
      g_set_object (&self->inspected_trace, job->trace);
      set_inspector_placeholder (self, _("No suspicious connection found: every wait has a readier, and no "
                                         "daemon or heartbeat thread joins unrelated processes."));
    }
  fill_findings (self);
  g_signal_emit (self, signals[INSPECTED], 0);
}

/* Inspects the current scope: @graph is the symptom's wait graph if the
 * caller has it (built anew otherwise). */
static void
inspect (WsGraphPage *self,
         WsWaitGraph *graph)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *scope = NULL;
  gboolean whole = self->inspector_scope == WS_INSPECTOR_SCOPE_TRACE;
  WsTrace *trace = whole ? self->trace_to_inspect : self->trace;
  InspectJob *job;

  g_cancellable_cancel (self->inspect_cancellable);
  g_clear_object (&self->inspect_cancellable);
  self->inspect_generation++;
  g_clear_pointer (&self->findings, g_ptr_array_unref);

  if (trace == NULL || (!whole && !self->have_symptom))
    {
      gtk_spinner_set_spinning (self->inspector_spinner, FALSE);
      gtk_label_set_text (self->inspector_scope_label, "");
      set_inspector_placeholder (self, _("Select a window of a thread in the timeline, or inspect the whole trace."));
      fill_findings (self);
      return;
    }

  if (whole)
    /* Translators: what the inspector looked at: a trace's name */
    scope = g_strdup_printf (_("every wait of %s"), ws_trace_get_name (trace));
  else
    {
      g_autofree char *who = thread_text (self, self->symptom.thread);
      g_autofree char *span = ws_format_duration (self->symptom.t1 - self->symptom.t0);
      g_autofree char *at = offset_text (self, self->symptom.t0);
      /* Translators: what the inspector looked at: thread, window length, start */
      scope = g_strdup_printf (_("the wait graph of %s, %s from %s"), who, span, at);
    }
  gtk_label_set_text (self->inspector_scope_label, scope);
  set_inspector_placeholder (self, _("Inspecting…"));
  fill_findings (self);
  gtk_spinner_set_spinning (self->inspector_spinner, TRUE);

  self->inspect_cancellable = g_cancellable_new ();
  job = g_new0 (InspectJob, 1);
  job->trace = g_object_ref (trace);
  job->graph = graph ? g_object_ref (graph) : NULL;
  job->symptom = self->symptom;
  job->whole_trace = whole;
  job->generation = self->inspect_generation;

  task = g_task_new (self, self->inspect_cancellable, inspect_done, NULL);
  g_task_set_source_tag (task, inspect);
  g_task_set_task_data (task, job, (GDestroyNotify) inspect_job_free);
  g_task_run_in_thread (task, inspect_thread);
}

static void
inspector_scope_toggled_cb (WsGraphPage     *self,
                            GtkToggleButton *button)
{
  WsInspectorScope scope;

  if (!gtk_toggle_button_get_active (button) || self->in_scope_update)
    return;
  scope = button == self->inspector_trace_button ? WS_INSPECTOR_SCOPE_TRACE : WS_INSPECTOR_SCOPE_GRAPH;
  if (scope == self->inspector_scope)
    return;
  self->inspector_scope = scope;
  inspect (self, scope == WS_INSPECTOR_SCOPE_GRAPH && self->scene &&
                 ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_WAIT_GRAPH
                 ? ws_graph_scene_get_wait_graph (self->scene) : NULL);
}

static void
finding_selected_cb (WsGraphPage   *self,
                     GtkListBoxRow *row,
                     GtkListBox    *list)
{
  if (row == NULL || self->in_scope_update)
    return;
  ws_graph_page_select_finding (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "finding")));
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
  const WsFinding *f;

  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);

  if (self->findings == NULL || self->selected_finding >= self->findings->len)
    return NULL;
  f = g_ptr_array_index (self->findings, self->selected_finding);
  return f->kind == WS_FINDING_OVER_CONNECTION ? f->threads : NULL;
}

/**
 * ws_graph_page_select_finding:
 *
 * Highlights the waits of finding @finding (an index into
 * ws_graph_page_get_findings()) in the graph or path shown, as a search
 * whose matches Tab and F3 step through, selects the first, and emits
 * ::show-events so that the timeline highlights them too.
 */
void
ws_graph_page_select_finding (WsGraphPage *self,
                              guint        finding)
{
  const WsFinding *f;
  g_autoptr(WsStackSearch) search = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;

  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (self->findings != NULL && finding < self->findings->len);

  f = g_ptr_array_index (self->findings, finding);
  title = ws_graph_page_dup_finding_title (self, finding);
  /* Translators: the search text standing for an inspector finding */
  description = g_strdup_printf (_("Inspector: %s"), title);
  search = ws_stack_search_new_for_events (self->inspected_trace, description,
                                           (const guint32 *) f->events->data, f->events->len);

  {
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->inspector_list, finding);
    if (row != NULL && gtk_list_box_get_selected_row (self->inspector_list) != row)
      {
        self->in_scope_update = TRUE;
        gtk_list_box_select_row (self->inspector_list, row);
        self->in_scope_update = FALSE;
      }
  }

  self->selected_finding = finding;
  /* The window may hand the search back (ws_graph_page_set_search()), and
   * marks the finding's threads in the timeline. */
  g_signal_emit (self, signals[SHOW_EVENTS], 0, search);
  if (self->inspected_trace == self->trace)
    {
      if (self->search != search)
        {
          g_set_object (&self->search, search);
          set_entry_text (self, description);
          refresh_search (self);
        }
      if (self->matches != NULL && self->matches->len > 0)
        ws_graph_page_next_match (self, TRUE);
    }
}

/* Returns: (transfer none) (nullable) (element-type WsFinding): the
 *   inspector's findings, or %NULL while it works (or has nothing to
 *   inspect) */
GPtrArray *
ws_graph_page_get_findings (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), NULL);
  return self->findings;
}

/* Whether the inspector is working. */
gboolean
ws_graph_page_get_inspecting (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  return gtk_spinner_get_spinning (self->inspector_spinner);
}

void
ws_graph_page_show_inspector (WsGraphPage *self,
                              gboolean     show)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_toggle_button_set_active (self->inspector_toggle, show);
}

/**
 * ws_graph_page_set_inspector_scope:
 *
 * Inspects the symptom's wait graph or the whole trace (re-inspecting if
 * the scope changes).
 */
void
ws_graph_page_set_inspector_scope (WsGraphPage      *self,
                                   WsInspectorScope  scope)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  gtk_toggle_button_set_active (scope == WS_INSPECTOR_SCOPE_TRACE ? self->inspector_trace_button
                                                                  : self->inspector_graph_button, TRUE);
}

WsInspectorScope
ws_graph_page_get_inspector_scope (WsGraphPage *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), WS_INSPECTOR_SCOPE_GRAPH);
  return self->inspector_scope;
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

  g_set_object (&self->trace_to_inspect, trace);
  ws_graph_page_show_inspector (self, TRUE);
  if (self->inspector_scope == WS_INSPECTOR_SCOPE_TRACE)
    inspect (self, NULL);
  else
    ws_graph_page_set_inspector_scope (self, WS_INSPECTOR_SCOPE_TRACE);
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
  /* Nothing inspected yet (no window chosen when the page was built). */
  if (active && self->findings == NULL && !gtk_spinner_get_spinning (self->inspector_spinner))
    inspect (self, NULL);
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
 *   selection and search highlights; of a critical path, the span shown
 *   with every lane), .dot or .json (the analysis, see ws-graph-export.h:
 *   for a wait graph the whole graph, whatever the depth shown)
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

  if (self->scene == NULL && self->path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no graph to export"));
      return FALSE;
    }

  lower = g_ascii_strdown (path, -1);
  if (self->path != NULL)
    {
      if (ws_export_format_from_path (path, &format))
        return ws_critical_path_renderer_export (ws_critical_path_view_get_renderer (self->cp_view), path, format,
                                                 MAX (1200, gtk_widget_get_width (GTK_WIDGET (self->cp_view))), error);
      if (g_str_has_suffix (lower, ".dot") || g_str_has_suffix (lower, ".gv"))
        {
          g_autofree char *dot = ws_graph_export_critical_path_dot (self->path);
          return write_text (path, dot, error);
        }
      if (g_str_has_suffix (lower, ".json"))
        {
          g_autoptr(JsonNode) node = ws_graph_export_critical_path_json (self->path);
          g_autofree char *json = ws_graph_export_json_to_string (node);
          return write_text (path, json, error);
        }
    }
  else if (ws_export_format_from_path (path, &format))
    return ws_graph_renderer_export (ws_graph_view_get_renderer (self->graph_view), self->scene,
                                     ws_graph_view_get_viewport (self->graph_view), path, format, error);

  else if (g_str_has_suffix (lower, ".dot") || g_str_has_suffix (lower, ".gv"))
    {
      g_autofree char *dot = NULL;

      if (ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE)
        dot = ws_graph_export_ready_tree_dot (ws_graph_scene_get_ready_tree (self->scene),
                                              ws_graph_scene_get_metric (self->scene));
      else
        dot = ws_graph_export_wait_graph_dot (ws_graph_scene_get_wait_graph (self->scene));
      return write_text (path, dot, error);
    }
  else if (g_str_has_suffix (lower, ".json"))
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

static const char *
severity_label (WsSeverity severity)
{
  switch (severity)
    {
    case WS_SEVERITY_ERROR:
      return _("Error");
    case WS_SEVERITY_WARNING:
      return _("Warning");
    case WS_SEVERITY_INFO:
    default:
      return _("Note");
    }
}

/* The findings as a Markdown list: each headline as shown in the panel,
 * then the inspector's explanation and the threads involved. */
static char *
findings_markdown (WsGraphPage *self)
{
  GString *text = g_string_new (NULL);

  /* Translators: heading of the exported inspector findings; then what was inspected */
  g_string_append_printf (text, "# %s\n\n%s\n\n", _("Inspector findings"),
                          gtk_label_get_text (self->inspector_scope_label));
  for (guint i = 0; i < self->findings->len; i++)
    {
      const WsFinding *f = g_ptr_array_index (self->findings, i);
      g_autofree char *title = ws_graph_page_dup_finding_title (self, i);

      g_string_append_printf (text, "%u. **%s:** %s\n", i + 1, severity_label (f->severity), title);
      if (f->message != NULL && *f->message != '\0')
        g_string_append_printf (text, "   %s\n", f->message);
      if (f->threads != NULL && f->threads->len > 0)
        {
          /* Translators: label before the list of threads of a finding */
          g_string_append_printf (text, "   %s", _("Threads:"));
          for (guint t = 0; t < f->threads->len; t++)
            {
              const WsThread *thread = ws_trace_get_thread (self->inspected_trace,
                                                            g_array_index (f->threads, guint32, t));
              g_string_append_printf (text, "%s %s (%d)", t > 0 ? "," : "",
                                      thread->name ? thread->name : "?", thread->tid);
            }
          g_string_append_c (text, '\n');
        }
    }
  if (self->findings->len == 0)
    g_string_append_printf (text, "%s\n", _("No suspicious connection found."));
  return g_string_free (text, FALSE);
}

/**
 * ws_graph_page_export_findings:
 * @path: ends in .json (ws_graph_export_findings_json()) or .md / .txt
 *   (a Markdown list of the headlines shown in the panel)
 *
 * Writes the inspector's current findings.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_graph_page_export_findings (WsGraphPage  *self,
                               const char   *path,
                               GError      **error)
{
  g_autofree char *lower = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (WS_IS_GRAPH_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->findings == NULL || self->inspected_trace == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There are no findings to export"));
      return FALSE;
    }
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".json"))
    {
      g_autoptr(JsonNode) node = ws_graph_export_findings_json (self->inspected_trace, self->findings);
      text = ws_graph_export_json_to_string (node);
    }
  else if (g_str_has_suffix (lower, ".md") || g_str_has_suffix (lower, ".txt"))
    text = findings_markdown (self);
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .json, .md or .txt"), path);
      return FALSE;
    }
  return write_text (path, text, error);
}

static gboolean
export_findings_to (GtkWidget   *widget,
                    const char  *path,
                    GError     **error)
{
  return ws_graph_page_export_findings (WS_GRAPH_PAGE (widget), path, error);
}

static gboolean
export_to (GtkWidget   *widget,
           const char  *path,
           GError     **error)
{
  return ws_graph_page_export (WS_GRAPH_PAGE (widget), path, error);
}

static void
export_toast (GtkWidget  *widget,
              const char *message)
{
  toast (WS_GRAPH_PAGE (widget), message);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  const char *ext = g_variant_get_string (param, NULL);
  g_autofree char *name = NULL;

  if (self->scene == NULL && self->path == NULL)
    return;

  name = g_strdup_printf ("%s.%s",
                          self->path ? "critical-path"
                          : ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE ? "ready-tree" : "wait-graph",
                          ext);
  ws_export_dialog_show (widget, self->path ? _("Export the Critical Path") : _("Export the Graph"),
                         name, export_to, export_toast);
}

static void
export_findings_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  WsGraphPage *self = WS_GRAPH_PAGE (widget);
  g_autofree char *name = NULL;

  if (self->findings == NULL)
    return;
  name = g_strdup_printf ("findings.%s", g_variant_get_string (param, NULL));
  ws_export_dialog_show (widget, _("Export the Findings"), name, export_findings_to, export_toast);
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

/* The thread's exact run span covering @time, or %WS_NONE. */
static guint
run_span_at (WsTrace *trace,
             guint    thread,
             WsTime   time)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  guint pos = ws_trace_thread_lower_bound (trace, thread, time + 1);

  /* Spans do not overlap; a few events back is enough (samples and
   * wake-ups of others sit between them). */
  for (guint k = 0; k < 64 && pos > 0; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[--pos]);

      if (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN) &&
          e->time <= time && time < e->time + e->duration)
        return t->events[pos];
    }
  return WS_NONE;
}

static void
show_segment_in_timeline (WsGraphPage *self,
                          guint        segment)
{
  const WsCriticalSegment *seg;
  guint event;

  if (self->path == NULL || segment >= ws_critical_path_get_n_segments (self->path))
    return;
  seg = ws_critical_path_get_segment (self->path, segment);
  event = seg->event != WS_NONE ? seg->event : run_span_at (self->trace, seg->thread, seg->start);
  g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, seg->thread, event, (gint64) seg->start, (gint64) seg->end);
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

  if (self->path != NULL)
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_dropdown), tree);
  gtk_widget_set_sensitive (GTK_WIDGET (self->metric_label), tree);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lock_only_check), tree);
  gtk_widget_set_sensitive (GTK_WIDGET (self->depth_spin), !path);
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
    {
      g_clear_object (&self->search);
      /* The whole-trace inspection follows the trace shown. */
      if (g_set_object (&self->trace_to_inspect, trace) && self->inspector_scope == WS_INSPECTOR_SCOPE_TRACE)
        inspect (self, NULL);
    }
  self->symptom = *symptom;
  self->have_symptom = TRUE;
  self->in_request_update = TRUE;
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
  self->in_request_update = FALSE;
  options_changed_cb (self);
}

void
ws_graph_page_set_mode (WsGraphPage *self,
                        WsGraphMode  mode)
{
  g_return_if_fail (WS_IS_GRAPH_PAGE (self));
  g_return_if_fail (mode <= WS_GRAPH_MODE_CRITICAL_PATH);
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
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

  set_entry_text (self, text ? text : "");
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
  set_entry_text (self, ws_stack_search_get_pattern (search));
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
  update_mode_widgets (self);
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
  g_cancellable_cancel (self->inspect_cancellable);
  g_clear_object (&self->inspect_cancellable);
  /* Late results find a generation that no longer matches. */
  self->generation++;
  self->inspect_generation++;

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_GRAPH_PAGE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->segment_selection);
  g_clear_object (&self->segment_rows);
  g_clear_object (&self->path);
  g_clear_pointer (&self->findings, g_ptr_array_unref);
  g_clear_object (&self->inspected_trace);
  g_clear_object (&self->trace_to_inspect);
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
    g_param_spec_int ("mode", NULL, NULL, WS_GRAPH_MODE_READY_TREE, WS_GRAPH_MODE_CRITICAL_PATH,
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

  g_type_ensure (WS_TYPE_GRAPH_VIEW);
  g_type_ensure (WS_TYPE_CRITICAL_PATH_VIEW);

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
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, cp_view);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, segment_table);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_toggle);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_toggle_content);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_scope_label);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_spinner);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_graph_button);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_trace_button);
  gtk_widget_class_bind_template_child (widget_class, WsGraphPage, inspector_list);

  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "graph.export-findings", "s", export_findings_action);
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
  GtkEventController *keys;

  self->current_match = WS_NONE;
  self->mode = WS_GRAPH_MODE_READY_TREE;
  self->rows = g_list_store_new (WS_TYPE_GRAPH_ROW);
  self->segment_rows = g_list_store_new (WS_TYPE_GRAPH_ROW);
  self->inspector_scope = WS_INSPECTOR_SCOPE_GRAPH;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->selected_finding = WS_NONE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.export-findings", FALSE);
  add_columns (self);
  add_segment_columns (self);
  self->search_tooltip = g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (self->search_entry)));

  gtk_spin_button_set_value (self->depth_spin, WS_GRAPH_PAGE_DEFAULT_DEPTH);
  fill_metric_dropdown (self->metric_dropdown);

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
  g_signal_connect_swapped (self->cp_view, "notify::selected-segment", G_CALLBACK (cp_selection_changed_cb), self);
  g_signal_connect_swapped (self->cp_view, "notify::zoom", G_CALLBACK (update_zoom_label), self);
  g_signal_connect_swapped (self->cp_view, "segment-activated", G_CALLBACK (segment_activated_cb), self);

  g_signal_connect_swapped (self->inspector_toggle, "toggled", G_CALLBACK (inspector_toggled_cb), self);
  g_signal_connect_swapped (self->inspector_graph_button, "toggled", G_CALLBACK (inspector_scope_toggled_cb), self);
  g_signal_connect_swapped (self->inspector_trace_button, "toggled", G_CALLBACK (inspector_scope_toggled_cb), self);
  g_signal_connect_swapped (self->inspector_list, "row-selected", G_CALLBACK (finding_selected_cb), self);

  gtk_stack_set_visible_child_name (self->state_stack, "empty");
  update_zoom_label (self);
  update_match_label (self);
  update_details (self);
  set_inspector_placeholder (self, _("Select a window of a thread in the timeline, or inspect the whole trace."));
  update_inspector_toggle (self);
}
