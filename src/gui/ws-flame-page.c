/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Flame Graph page: a bar of choices (mode, scope, orientation, reset
 * zoom, search, export), the chart, and the selected frame's callers and
 * callees beside it.  Runs happen in a WsWorker, only while the page is
 * shown: a selection made in the timeline while another page is up marks
 * the graph stale, and showing the page runs it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-export-dialog.h"
#include "ws-flame-chart.h"
#include "ws-flame-page.h"
#include "ws-flame-pin.h"
#include "ws-flame-renderer.h"
#include "ws-pin-flame.h"
#include "ws-time-format.h"
#include "ws-worker.h"

#define MAX_RELATIVES 12

struct _WsFlamePage {
  WsPage          parent_instance;
  GSignalGroup   *document_signals;
  GSignalGroup   *viewport_signals;
  WsWorker       *worker;
  WsFlameGraph   *graph;
  double         *diff;          /* against the compared trace, or NULL */
  char           *base_name;
  WsTrace        *graph_trace;
  GtkDropDown    *compare;       /* "No Comparison", then the other open traces */
  GPtrArray      *compare_docs;  /* WsDocument, one per item after the first */
  guint8         *matched;
  gboolean        stale;
  gboolean        at_root;          /* the chart's root row is in view */
  guint           scroll_idle;
  /* What the graph shown was folded from, for a pin of it */
  WsDocument     *shown_doc;
  WsDocument     *shown_base_doc;
  WsFlameScope    shown_scope;
  WsFlameSettings shown_settings;
  guint           shown_thread;
  char          **pending_zoom;   /* a pin's zoom, applied to the next graph */

  GtkDropDown    *mode;
  GtkDropDown    *scope;
  GtkToggleButton*icicle;
  GtkSearchEntry *search;
  GtkLabel       *match_status;
  GtkLabel       *status;
  GtkScrolledWindow *chart_scroller;
  WsFlameChart   *chart;
  GtkBox         *relatives;
};

enum { PROP_0, PROP_BUSY, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (WsFlamePage, ws_flame_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

typedef struct {
  WsTrace         *trace;
  WsFlameSettings  settings;
  GArray          *threads;
  gboolean         no_selection;   /* a selection's scope asked, none made */
  WsTrace         *base;           /* differential: the trace compared with */
  WsDocument      *doc;
  WsDocument      *base_doc;
  WsFlameScope     scope;
} Job;

typedef struct {
  WsFlameGraph *graph;
  double       *diff;
} Result;

static void
result_free (gpointer data)
{
  Result *r = data;

  g_clear_pointer (&r->graph, ws_flame_graph_free);
  g_free (r->diff);
  g_free (r);
}

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->trace);
  g_clear_object (&job->base);
  g_clear_object (&job->doc);
  g_clear_object (&job->base_doc);
  g_clear_pointer (&job->threads, g_array_unref);
  g_free (job);
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  Result *r = g_new0 (Result, 1);

  r->graph = ws_flame_run (job->trace, &job->settings, cancellable, NULL, NULL, &error);
  if (r->graph != NULL && job->base != NULL)
    {
      /* The base: the whole compared trace, in the same mode. */
      WsFlameSettings base_settings;
      g_autoptr(WsFlameGraph) base = NULL;

      ws_flame_settings_init (&base_settings);
      base_settings.mode = job->settings.mode;
      base = ws_flame_run (job->base, &base_settings, cancellable, NULL, NULL, &error);
      if (base != NULL)
        r->diff = ws_flame_tree_diff (r->graph->tree, base->tree, FALSE);
    }
  if (error != NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, r, result_free);
}

/* The window's session (WsPage's): %NULL until the window binds it. */
static WsSession *
session_of (WsFlamePage *self)
{
  return ws_page_get_session (WS_PAGE (self));
}

static WsDocument *
current_document (WsFlamePage *self)
{
  WsSession *session = session_of (self);

  return session ? ws_session_get_current_document (session) : NULL;
}

static WsTrace *
current_trace (WsFlamePage *self)
{
  WsDocument *doc = current_document (self);

  return doc != NULL ? ws_document_get_trace (doc) : NULL;
}

static void update_search (WsFlamePage *self);
static void request_scroll_to_root (WsFlamePage *self);
static void update_relatives (WsFlamePage *self);

static void
set_status (WsFlamePage *self,
            const char  *text)
{
  gtk_label_set_text (self->status, text);
  /* Cut at 1280 px when it names a comparison: the whole text on hover. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status), text);
}

static void
run_done (gpointer  owner,
          gpointer  result,
          GError   *error,
          gpointer  data)
{
  WsFlamePage *self = owner;
  Job *job = data;
  g_autofree char *title = NULL, *scope = NULL;

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, error->message);
      return;
    }
  ws_flame_chart_set_graph (self->chart, NULL);
  g_clear_pointer (&self->graph, ws_flame_graph_free);
  g_clear_pointer (&self->diff, g_free);
  g_clear_pointer (&self->base_name, g_free);
  g_set_object (&self->graph_trace, job->trace);
  g_set_object (&self->shown_doc, job->doc);
  g_set_object (&self->shown_base_doc, (job->base != NULL ? job->base_doc : NULL));
  self->shown_scope = job->no_selection ? WS_FLAME_SCOPE_TRACE : job->scope;
  self->shown_settings = job->settings;
  self->shown_thread = job->threads != NULL ? g_array_index (job->threads, guint, 0) : WS_NONE;
  self->shown_settings.threads = NULL;
  self->graph = g_steal_pointer (&((Result *) result)->graph);
  self->diff = g_steal_pointer (&((Result *) result)->diff);
  result_free (result);
  ws_flame_chart_set_graph (self->chart, self->graph);
  ws_flame_chart_set_diff (self->chart, self->diff);
  title = ws_flame_graph_title (self->graph, ws_trace_get_name (job->trace));
  if (self->diff != NULL)
    {
      char *t;

      self->base_name = g_strdup (ws_trace_get_name (job->base));
      /* TRANSLATORS: a differential flame graph's title: the graph's, then what it is compared with */
      t = g_strdup_printf (_("%s, against %s (red: more, blue: less)"), title, self->base_name);
      g_free (title);
      title = t;
    }
  if (job->settings.has_window)
    {
      g_autofree char *len = ws_format_duration (job->settings.window_end - job->settings.window_start);
      /* TRANSLATORS: the flame graph's title, then how much of the trace it covers */
      scope = job->threads ? g_strdup_printf (_("%s — one thread over %s"), title, len)
                           : g_strdup_printf (_("%s — every thread over %s"), title, len);
    }
  else if (job->no_selection)
    /* TRANSLATORS: the flame graph's title, then why it shows the whole trace */
    scope = g_strdup_printf (_("%s — no selection in the timeline (drag along a thread to choose a window): whole trace"),
                             title);
  if (ws_flame_tree_get_total (self->graph->tree) == 0)
    set_status (self, self->graph->mode == WS_FLAME_ON_CPU ? _("Nothing ran in this selection")
                                                           : _("Nothing waited in this selection"));
  else
    set_status (self, scope ? scope : title);
  update_search (self);
  if (self->pending_zoom != NULL && !ws_worker_get_busy (self->worker))
    {
      guint zoom = ws_flame_tree_find_zoom (self->graph->tree, self->pending_zoom);

      g_clear_pointer (&self->pending_zoom, g_strfreev);
      if (zoom != G_MAXUINT)
        {
          ws_flame_chart_set_zoom (self->chart, zoom);
          ws_flame_chart_set_selected (self->chart, zoom);
        }
    }
  update_relatives (self);
  request_scroll_to_root (self);
}

/* The root row in view: a flame's bottom, an icicle's top.  The chart
 * sticks there, as a terminal sticks to its last line: while the view is
 * at the root, a change of the scroller's range (a new graph measured, the
 * page resized) keeps it there; once the user scrolls away it stays put. */
static double
root_position (WsFlamePage *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->chart_scroller);

  return ws_flame_chart_get_icicle (self->chart) ? 0 : gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v);
}

static gboolean
scroll_to_root_idle (gpointer data)
{
  WsFlamePage *self = data;

  self->scroll_idle = 0;
  if (self->at_root)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->chart_scroller), root_position (self));
  return G_SOURCE_REMOVE;
}

/* Outside the size allocation that changed the range: a value set inside
 * it moves the adjustment but not the viewport's drawing. */
static void
apply_scroll_to_root (WsFlamePage *self)
{
  if (self->at_root && self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_to_root_idle, self);
}

static void
scrolled (WsFlamePage *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->chart_scroller);

  self->at_root = ABS (gtk_adjustment_get_value (v) - root_position (self)) < 1;
}

static void
request_scroll_to_root (WsFlamePage *self)
{
  self->at_root = TRUE;
  apply_scroll_to_root (self);
}

static void
run (WsFlamePage *self)
{
  WsTrace *trace = current_trace (self);
  WsDocument *doc;
  Job *job;
  guint thread;
  WsTime t0, t1;
  WsFlameScope scope = gtk_drop_down_get_selected (self->scope);

  if (trace == NULL)
    return;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  doc = current_document (self);
  job = g_new0 (Job, 1);
  job->trace = g_object_ref (trace);
  job->doc = g_object_ref (doc);
  job->scope = scope;
  ws_flame_settings_init (&job->settings);
  job->settings.mode = gtk_drop_down_get_selected (self->mode);
  if (scope != WS_FLAME_SCOPE_TRACE &&
      ws_timeline_viewport_get_selection (ws_document_get_viewport (doc), &thread, &t0, &t1))
    {
      job->settings.has_window = TRUE;
      job->settings.window_start = t0;
      job->settings.window_end = t1;
      if (scope == WS_FLAME_SCOPE_THREAD)
        {
          job->threads = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (job->threads, thread);
          job->settings.threads = (const guint *) job->threads->data;
          job->settings.n_threads = 1;
        }
    }
  else
    job->no_selection = scope != WS_FLAME_SCOPE_TRACE;
  {
    guint c = gtk_drop_down_get_selected (self->compare);

    if (c != GTK_INVALID_LIST_POSITION && c > 0 && c - 1 < self->compare_docs->len)
      {
        WsTrace *base = ws_document_get_trace (g_ptr_array_index (self->compare_docs, c - 1));
        job->base = base ? g_object_ref (base) : NULL;
        job->base_doc = g_object_ref (g_ptr_array_index (self->compare_docs, c - 1));
      }
  }
  set_status (self, _("Building the flame graph…"));
  ws_worker_run (self->worker, self, job, job_free, run_thread, run_done);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
}

static void
update_search (WsFlamePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  g_autoptr(GRegex) regex = NULL;
  g_autofree char *label = NULL;
  guint64 hit, all;

  ws_flame_chart_set_matched (self->chart, NULL);
  g_clear_pointer (&self->matched, g_free);
  if (self->graph == NULL || text[0] == '\0')
    {
      gtk_label_set_text (self->match_status, "");
      return;
    }
  if ((regex = g_regex_new (text, 0, 0, NULL)) == NULL)
    {
      gtk_label_set_text (self->match_status, _("Not a regular expression"));
      return;
    }
  self->matched = g_new0 (guint8, ws_flame_tree_get_n_nodes (self->graph->tree));
  hit = ws_flame_tree_search (self->graph->tree, regex, self->matched);
  all = ws_flame_tree_get_total (self->graph->tree);
  /* TRANSLATORS: the share of the flame graph's time under frames matching the search */
  label = g_strdup_printf (_("Matched: %.2f %%"), all > 0 ? 100.0 * hit / all : 0.0);
  gtk_label_set_text (self->match_status, label);
  ws_flame_chart_set_matched (self->chart, self->matched);
}

static void
add_relative_rows (WsFlamePage *self,
                   const char  *heading,
                   GArray      *rows,
                   guint64      all)
{
  GtkWidget *title = gtk_label_new (heading);
  GtkWidget *grid = gtk_grid_new ();

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (self->relatives, title);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  gtk_accessible_update_property (GTK_ACCESSIBLE (grid), GTK_ACCESSIBLE_PROPERTY_LABEL, heading, -1);
  for (guint i = 0; i < MIN (rows->len, MAX_RELATIVES); i++)
    {
      const WsFlameRelative *r = &g_array_index (rows, WsFlameRelative, i);
      g_autofree char *weight = ws_flame_format_weight (self->graph, r->total);
      g_autofree char *share = g_strdup_printf ("%.1f %%", all ? 100.0 * r->total / all : 0.0);
      GtkWidget *name = gtk_label_new (r->name);
      GtkWidget *w = gtk_label_new (weight), *s = gtk_label_new (share);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (name), 14);
      gtk_widget_set_hexpand (name, TRUE);
      gtk_widget_set_tooltip_text (name, r->name);
      gtk_label_set_xalign (GTK_LABEL (w), 1);
      gtk_label_set_xalign (GTK_LABEL (s), 1);
      gtk_widget_add_css_class (w, "numeric");
      gtk_widget_add_css_class (s, "numeric");
      gtk_grid_attach (GTK_GRID (grid), name, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), w, 1, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), s, 2, i, 1, 1);
    }
  if (rows->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("None"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_grid_attach (GTK_GRID (grid), none, 0, 0, 1, 1);
    }
  gtk_box_append (self->relatives, grid);
}

/* The selected frame's callers and callees (recursion counted once). */
static void
update_relatives (WsFlamePage *self)
{
  GtkWidget *child;
  guint sel = ws_flame_chart_get_selected (self->chart);
  g_autoptr(GArray) callers = NULL, callees = NULL;
  g_autofree char *up = NULL, *down = NULL;
  const char *name;
  guint64 total;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->relatives))) != NULL)
    gtk_box_remove (self->relatives, child);
  if (self->graph == NULL || sel == WS_FLAME_NO_NODE || sel == WS_FLAME_ROOT)
    {
      GtkWidget *hint = gtk_label_new (_("Select a frame to see its callers and callees"));
      gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
      gtk_widget_add_css_class (hint, "dim-label");
      gtk_box_append (self->relatives, hint);
      return;
    }
  name = ws_flame_tree_get_node (self->graph->tree, sel)->name;
  total = ws_flame_tree_callers_callees (self->graph->tree, name, &callers, &callees);
  /* TRANSLATORS: heading of the callers table of a frame */
  up = g_strdup_printf (_("Callers of %s"), name);
  down = g_strdup_printf (_("Callees of %s"), name);
  add_relative_rows (self, up, callers, total);
  add_relative_rows (self, down, callees, total);
}

static void
reset_zoom_cb (WsFlamePage *self)
{
  ws_flame_chart_set_zoom (self->chart, WS_FLAME_ROOT);
}

static gboolean
export_figure (GtkWidget   *widget,
               const char  *path,
               GError     **error)
{
  WsFlamePage *self = WS_FLAME_PAGE (widget);
  g_autofree char *title = ws_flame_graph_title (self->graph, self->graph_trace ? ws_trace_get_name (self->graph_trace) : NULL);
  const char *matched = gtk_label_get_text (self->match_status);

  if (self->diff != NULL)
    {
      char *t = g_strdup_printf (_("%s, against %s (red: more, blue: less)"), title, self->base_name);
      g_free (title);
      title = t;
    }
  WsExportFormat format;

  if (!ws_export_format_from_path (path, &format))
    format = WS_EXPORT_SVG;
  return ws_flame_export (path, format, self->graph, ws_flame_chart_get_view (self->chart), title,
                          matched[0] ? matched : NULL, 1200, error);
}

static void
export_cb (WsFlamePage *self)
{
  if (self->graph != NULL)
    ws_export_dialog_show (GTK_WIDGET (self), _("Export Flame Graph"), "flame-graph.svg", export_figure, NULL);
}

/* "Compare with": the other traces of the session that have loaded. */
static void
update_compare_list (WsFlamePage *self)
{
  GListModel *docs = session_of (self) ? ws_session_get_documents (session_of (self)) : NULL;
  WsDocument *current = current_document (self);
  guint selected = gtk_drop_down_get_selected (self->compare);
  WsDocument *was = selected != GTK_INVALID_LIST_POSITION && selected > 0 && selected - 1 < self->compare_docs->len
                    ? g_object_ref (g_ptr_array_index (self->compare_docs, selected - 1)) : NULL;
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  guint keep = 0;

  gtk_string_list_append (list, _("No Comparison"));
  g_ptr_array_set_size (self->compare_docs, 0);
  for (guint i = 0; docs != NULL && i < g_list_model_get_n_items (docs); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (docs, i);

      if (doc == current || ws_document_get_trace (doc) == NULL)
        continue;
      g_ptr_array_add (self->compare_docs, g_object_ref (doc));
      /* TRANSLATORS: an item of the flame graph's "compare with" list */
      {
        g_autofree char *item = g_strdup_printf (_("Against %s"), ws_document_get_title (doc));
        gtk_string_list_append (list, item);
      }
      if (doc == was)
        keep = self->compare_docs->len;
    }
  g_signal_handlers_block_by_func (self->compare, run, self);
  gtk_drop_down_set_model (self->compare, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->compare, keep);
  g_signal_handlers_unblock_by_func (self->compare, run, self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare), self->compare_docs->len > 0);
  g_clear_object (&was);
}

static void
document_changed (WsFlamePage *self)
{
  update_compare_list (self);
  WsDocument *doc = current_document (self);

  g_signal_group_set_target (self->document_signals, doc);
  g_signal_group_set_target (self->viewport_signals,
                             doc && ws_document_get_trace (doc) ? ws_document_get_viewport (doc) : NULL);
  if (doc == NULL || ws_document_get_trace (doc) == NULL)
    {
      ws_worker_cancel (self->worker);
      ws_flame_chart_set_graph (self->chart, NULL);
      g_clear_pointer (&self->graph, ws_flame_graph_free);
      set_status (self, _("Open a trace to see where its time goes"));
      update_relatives (self);
      return;
    }
  run (self);
}

static void
selection_changed (WsFlamePage *self)
{
  if (gtk_drop_down_get_selected (self->scope) != WS_FLAME_SCOPE_TRACE)
    run (self);
}

static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsFlamePage *self = WS_FLAME_PAGE (page);

  g_return_if_fail (WS_IS_FLAME_PAGE (self));

  if (old_session != NULL)
    {
      g_signal_handlers_disconnect_by_data (old_session, self);
      g_signal_handlers_disconnect_by_data (ws_session_get_documents (old_session), self);
    }
  if (session != NULL)
    {
      g_signal_connect_swapped (session, "notify::current-document", G_CALLBACK (document_changed), self);
      g_signal_connect_swapped (ws_session_get_documents (session), "items-changed",
                                G_CALLBACK (update_compare_list), self);
    }
  document_changed (self);
}

const WsFlameGraph *
ws_flame_page_get_graph (WsFlamePage *self)
{
  g_return_val_if_fail (WS_IS_FLAME_PAGE (self), NULL);
  return self->graph;
}

/* The differences of the graph shown against the compared trace, or NULL. */
const double *
ws_flame_page_get_diff (WsFlamePage *self)
{
  g_return_val_if_fail (WS_IS_FLAME_PAGE (self), NULL);
  return self->diff;
}

void
ws_flame_page_set_mode (WsFlamePage *self,
                        WsFlameMode  mode)
{
  gtk_drop_down_set_selected (self->mode, mode);
}

void
ws_flame_page_set_scope (WsFlamePage  *self,
                         WsFlameScope  scope)
{
  gtk_drop_down_set_selected (self->scope, scope);
}

/**
 * ws_flame_page_get_shown:
 * @pin: (out): the mode, scope, zoom, search and orientation shown;
 *   free with ws_pin_flame_clear()
 * @settings: (out): what the graph was folded with (its threads unset)
 * @thread: (out): the thread of the thread scope, or %WS_NONE
 * @base: (out) (transfer none) (nullable): the differential's document
 *
 * Returns: (transfer none) (nullable): the document of the graph shown,
 *   %NULL when none is (or one is being built)
 */
WsDocument *
ws_flame_page_get_shown (WsFlamePage     *self,
                         WsPinFlame      *pin,
                         WsFlameSettings *settings,
                         guint           *thread,
                         WsDocument     **base)
{
  const char *text;

  g_return_val_if_fail (WS_IS_FLAME_PAGE (self), NULL);
  if (self->graph == NULL || self->shown_doc == NULL || ws_worker_get_busy (self->worker))
    return NULL;
  text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  memset (pin, 0, sizeof *pin);
  pin->mode = self->graph->mode;
  pin->scope = self->shown_scope;
  pin->zoom = ws_flame_tree_dup_path (self->graph->tree, ws_flame_chart_get_zoom (self->chart));
  if (pin->zoom[0] == NULL)
    g_clear_pointer (&pin->zoom, g_strfreev);
  pin->search = text[0] != '\0' ? g_strdup (text) : NULL;
  pin->icicle = ws_flame_chart_get_icicle (self->chart);
  *settings = self->shown_settings;
  *thread = self->shown_thread;
  *base = self->diff != NULL ? self->shown_base_doc : NULL;
  return self->shown_doc;
}

/**
 * ws_flame_page_show_pinned:
 * @base: (nullable): the differential's document, loaded
 *
 * Shows @pin's view: its mode, scope, search, orientation and comparison
 * now, its zoom once the graph they ask for is built.  The timeline's
 * selection (the scope's thread and window) is the caller's.
 */
void
ws_flame_page_show_pinned (WsFlamePage      *self,
                           const WsPinFlame *pin,
                           WsDocument       *base)
{
  guint compare = 0;

  g_return_if_fail (WS_IS_FLAME_PAGE (self));
  update_compare_list (self);
  for (guint i = 0; base != NULL && i < self->compare_docs->len; i++)
    if (g_ptr_array_index (self->compare_docs, i) == base)
      compare = i + 1;
  g_strfreev (self->pending_zoom);
  self->pending_zoom = pin->zoom != NULL ? g_strdupv (pin->zoom) : NULL;
  ws_flame_chart_set_zoom (self->chart, WS_FLAME_ROOT);
  gtk_toggle_button_set_active (self->icicle, pin->icicle);
  gtk_editable_set_text (GTK_EDITABLE (self->search), pin->search ? pin->search : "");
  g_signal_handlers_block_by_func (self->mode, run, self);
  g_signal_handlers_block_by_func (self->scope, run, self);
  g_signal_handlers_block_by_func (self->compare, run, self);
  gtk_drop_down_set_selected (self->mode, pin->mode);
  gtk_drop_down_set_selected (self->scope, pin->scope);
  gtk_drop_down_set_selected (self->compare, compare);
  g_signal_handlers_unblock_by_func (self->mode, run, self);
  g_signal_handlers_unblock_by_func (self->scope, run, self);
  g_signal_handlers_unblock_by_func (self->compare, run, self);
  /* One run for all the choices; an unmapped page runs when shown. */
  run (self);
}

static void
map_cb (WsFlamePage *self)
{
  update_compare_list (self);
  if (self->stale || (self->graph == NULL && current_trace (self) != NULL))
    run (self);
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  WsFlamePage *self = WS_FLAME_PAGE (object);

  switch (prop_id)
    {
    case PROP_BUSY: g_value_set_boolean (value, ws_worker_get_busy (self->worker)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dispose (GObject *object)
{
  WsFlamePage *self = WS_FLAME_PAGE (object);

  if (self->worker)
    ws_worker_drop (self->worker);
  if (self->chart)
    g_signal_handlers_disconnect_by_data (self->chart, self);
  if (self->chart_scroller)
    g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_vadjustment (self->chart_scroller), self);
  g_clear_handle_id (&self->scroll_idle, g_source_remove);
  if (session_of (self) != NULL)
    {
      g_signal_handlers_disconnect_by_data (session_of (self), self);
      g_signal_handlers_disconnect_by_data (ws_session_get_documents (session_of (self)), self);
    }
  g_clear_pointer (&self->compare_docs, g_ptr_array_unref);
  g_clear_object (&self->shown_doc);
  g_clear_object (&self->shown_base_doc);
  g_clear_pointer (&self->pending_zoom, g_strfreev);
  g_clear_pointer (&self->diff, g_free);
  g_clear_pointer (&self->base_name, g_free);
  if (self->document_signals)
    g_signal_group_set_target (self->document_signals, NULL);
  if (self->viewport_signals)
    g_signal_group_set_target (self->viewport_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->viewport_signals);
  if (self->chart)
    ws_flame_chart_set_graph (self->chart, NULL);
  g_clear_pointer (&self->graph, ws_flame_graph_free);
  g_clear_pointer (&self->matched, g_free);
  g_clear_object (&self->graph_trace);
  g_clear_object (&self->worker);
  G_OBJECT_CLASS (ws_flame_page_parent_class)->dispose (object);
}

static void
ws_flame_page_class_init (WsFlamePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);

  page_class->session_changed = session_changed;
  ws_flame_pin_class_init (page_class);
  ws_page_class_set_title (page_class, N_("Flame Graph"));
  ws_page_class_set_icon_name (page_class, "utilities-system-monitor-symbolic");
  object_class->dispose = dispose;
  object_class->get_property = get_property;
  props[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BOX_LAYOUT);
}

/* The compare list names traces: its items are cut with "…" past 22
 * characters, so that a long trace name cannot widen the page past a
 * 1280-pixel window. */
static void
compare_item_setup (GtkSignalListItemFactory *factory,
                    GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  gtk_label_set_width_chars (GTK_LABEL (label), 12);
  gtk_list_item_set_child (item, label);
}

static void
compare_item_bind (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  GtkStringObject *s = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), gtk_string_object_get_string (s));
  gtk_widget_set_tooltip_text (label, gtk_string_object_get_string (s));
}

static GtkWidget *
build_bar (WsFlamePage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *modes[WS_N_FLAME_MODES + 1];
  const char *scopes[] = { _("Whole Trace"), _("Selected Window"), _("Selected Thread"), NULL };
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset Zoom"));
  GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export…"));

  for (guint m = 0; m < WS_N_FLAME_MODES; m++)
    modes[m] = _(ws_flame_mode_get_info (m)->label);
  modes[WS_N_FLAME_MODES] = NULL;
  self->mode = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (modes));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->mode),
                               _("On-CPU: where the CPU time went; Off-CPU: where threads waited; "
                                 "Off-wake: each wait with the stack of the thread that readied it above it"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->mode), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Mode"), -1);
  self->scope = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (scopes));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope), _("The whole trace, or the window selected in the timeline "
                                                           "(every thread, or the selected one)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scope), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scope"), -1);
  self->compare = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *[]) { _("No Comparison"), NULL }));
  gtk_widget_set_name (GTK_WIDGET (self->compare), "flame-compare");
  {
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

    g_signal_connect (factory, "setup", G_CALLBACK (compare_item_setup), NULL);
    g_signal_connect (factory, "bind", G_CALLBACK (compare_item_bind), NULL);
    gtk_drop_down_set_factory (self->compare, factory);
    g_object_unref (factory);
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->compare),
                               _("A differential flame graph: frames in red hold more time than in the other "
                                 "trace (its whole graph, same mode), in blue less"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->compare), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Compare with"), -1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare), FALSE);
  self->icicle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Icicle")));
  gtk_widget_set_name (GTK_WIDGET (self->icicle), "flame-icicle");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->icicle), _("Draw the root at the top"));
  gtk_widget_set_tooltip_text (reset, _("Show the whole graph again (Escape)"));
  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->search), "flame-search");
  g_object_set (self->search, "placeholder-text", _("Search frames (regular expression)"), NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->search), 260, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search frames"), -1);
  self->match_status = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->match_status), "flame-match-status");
  gtk_label_set_width_chars (self->match_status, 16);
  gtk_widget_add_css_class (GTK_WIDGET (self->match_status), "numeric");

  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->mode));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->scope));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->compare));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->icicle));
  gtk_box_append (GTK_BOX (bar), reset);
  gtk_widget_set_hexpand (export, TRUE);
  gtk_widget_set_halign (export, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (bar), export);

  g_signal_connect_swapped (self->mode, "notify::selected", G_CALLBACK (run), self);
  g_signal_connect_swapped (self->scope, "notify::selected", G_CALLBACK (run), self);
  g_signal_connect_swapped (self->compare, "notify::selected", G_CALLBACK (run), self);
  g_object_bind_property (self->icicle, "active", self->chart, "icicle", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (reset, "clicked", G_CALLBACK (reset_zoom_cb), self);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_cb), self);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (update_search), self);
  return bar;
}

static void
ws_flame_page_init (WsFlamePage *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *side = gtk_scrolled_window_new ();
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  /* Laid out as the vertical box it was before it became a WsPage. */
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  self->worker = ws_worker_new ();
  self->compare_docs = g_ptr_array_new_with_free_func (g_object_unref);
  self->chart = WS_FLAME_CHART (ws_flame_chart_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->chart), TRUE);

  gtk_widget_set_parent (build_bar (self), GTK_WIDGET (self));
  self->status = GTK_LABEL (gtk_label_new (_("Open a trace to see where its time goes")));
  gtk_widget_set_name (GTK_WIDGET (self->status), "flame-status");
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  {
    /* The second row: what is shown, and the search over it. */
    GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->status));
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->search));
    gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->match_status));
    gtk_widget_set_parent (row, GTK_WIDGET (self));
  }

  self->chart_scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->chart_scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (self->chart_scroller, GTK_WIDGET (self->chart));
  gtk_widget_set_vexpand (GTK_WIDGET (self->chart_scroller), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->chart), GTK_ALIGN_END);

  self->relatives = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  /* Frame names are long: headings are cut in the middle, rows at the end
   * (each row's whole name is its tooltip). */
  gtk_widget_add_css_class (GTK_WIDGET (self->relatives), "ws-may-ellipsize");
  gtk_widget_set_margin_start (GTK_WIDGET (self->relatives), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->relatives), 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (side), GTK_WIDGET (self->relatives));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (side), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (side, 240, -1);

  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->chart_scroller));
  gtk_paned_set_end_child (GTK_PANED (paned), side);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));

  self->document_signals = g_signal_group_new (WS_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::state", G_CALLBACK (document_changed), self);
  self->viewport_signals = g_signal_group_new (WS_TYPE_TIMELINE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed", G_CALLBACK (selection_changed), self);
  g_signal_connect_swapped (self->chart, "notify::selected", G_CALLBACK (update_relatives), self);
  g_signal_connect_swapped (self->chart, "notify::zoom", G_CALLBACK (request_scroll_to_root), self);
  g_signal_connect_swapped (self->chart, "notify::icicle", G_CALLBACK (request_scroll_to_root), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->chart_scroller), "changed",
                            G_CALLBACK (apply_scroll_to_root), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->chart_scroller), "value-changed",
                            G_CALLBACK (scrolled), self);
  self->at_root = TRUE;
  g_signal_connect_swapped (self, "map", G_CALLBACK (map_cb), self);
  update_relatives (self);
}
