/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Pivot page: a row of drop-downs that choose and order the grouping
 * columns and the scope, an expandable table (GtkTreeListModel in a
 * sortable GtkColumnView, its columns in ws-pivot-columns.c), the total
 * under it, and CSV export.  It runs ws_pivot_run() in a WsWorker each
 * time the columns, the scope, the trace shown or the timeline's
 * selection change (only while it is on screen: a hidden page just
 * remembers to), and writes CSV with ws_pivot_write_csv(), as
 * `waitscope-cli pivot --csv` does.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-export-dialog.h"
#include "ws-pivot-columns.h"
#include "ws-pivot-item.h"
#include "ws-pivot-page.h"
#include "ws-time-format.h"
#include "ws-worker.h"
#include "ws-wrap-layout.h"

#define N_LEVELS 4

struct _WsPivotPage
{
  WsPage            parent_instance;

  GtkWidget        *box;
  GtkDropDown      *levels[N_LEVELS];
  GtkDropDown      *scope;
  GtkWidget        *export_button;
  GtkLabel         *status;
  GtkColumnView    *view;
  GtkColumnViewColumn *row_column;
  GtkLabel         *total_time;
  GtkLabel         *total_count;

  GSignalGroup     *session_signals;
  GSignalGroup     *document_signals;
  GSignalGroup     *viewport_signals;
  WsWorker         *worker;
  GListModel       *list;          /* WsPivotItem of the first column; holds the table */
  gboolean          dirty;         /* a run is due when the page is next shown */
};

G_DEFINE_FINAL_TYPE (WsPivotPage, ws_pivot_page, WS_TYPE_PAGE)

static void session_changed (WsPage    *page,
                             WsSession *old_session,
                             WsSession *session);

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SHOW_IN_TIMELINE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct {
  WsTrace         *trace;
  WsPivotSettings  settings;
  guint32          thread;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->trace);
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
  WsPivot *pivot = ws_pivot_run (job->trace, &job->settings, cancellable, NULL, NULL, &error);

  if (pivot == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, pivot, (GDestroyNotify) ws_pivot_free);
}

/* The trace the window shows, read from the session WsPage holds. */
static WsDocument *
shown_document (WsPivotPage *self)
{
  WsSession *session = ws_page_get_session (WS_PAGE (self));

  return session != NULL ? ws_session_get_current_document (session) : NULL;
}

static WsDocument *
current_document (WsPivotPage *self)
{
  WsDocument *doc = shown_document (self);

  return doc != NULL && ws_document_get_state (doc) == WS_DOCUMENT_READY ? doc : NULL;
}

/* The columns chosen, in order: the first drop-down always names one; a
 * later one adds its column unless it is "None" or already taken. */
static guint
chosen_columns (WsPivotPage   *self,
                WsPivotColumn *columns)
{
  gboolean taken[WS_N_PIVOT_COLUMNS] = { FALSE };
  guint n = 0;

  for (guint l = 0; l < N_LEVELS; l++)
    {
      guint pick = gtk_drop_down_get_selected (self->levels[l]);
      WsPivotColumn c;

      if (l > 0 && pick == 0)
        continue;
      c = l > 0 ? pick - 1 : pick;
      if (c >= WS_N_PIVOT_COLUMNS || taken[c])
        continue;
      taken[c] = TRUE;
      columns[n++] = c;
    }
  return n;
}

static void
set_status (WsPivotPage *self,
            const char  *text)
{
  gtk_label_set_text (self->status, text);
}

static GListModel *
children_of (gpointer item,
             gpointer data)
{
  return ws_pivot_item_get_children (item);
}

static void
done_cb (gpointer  owner,
         gpointer  result,
         GError   *error,
         gpointer  data)
{
  WsPivotPage *self = owner;
  WsPivot *pivot = result;
  Job *job = data;
  GtkTreeListModel *tree;
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;
  g_autoptr(GString) title = g_string_new (NULL);
  g_autofree char *time = NULL, *count = NULL, *span = NULL, *lost = NULL, *scope = NULL, *status = NULL;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  if (pivot == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, error->message);
      return;
    }

  g_clear_object (&self->list);
  self->list = ws_pivot_item_new_list (pivot);
  tree = gtk_tree_list_model_new (g_object_ref (self->list), FALSE, FALSE,
                                  children_of, NULL, NULL);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree),
                                    GTK_SORTER (gtk_tree_list_row_sorter_new (
                                      g_object_ref (gtk_column_view_get_sorter (self->view)))));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_column_view_set_model (self->view, selection);
  g_object_unref (selection);

  for (guint c = 0; c < pivot->n_columns; c++)
    g_string_append_printf (title, "%s%s", c ? " › " : "", ws_pivot_column_get_label (pivot->columns[c]));
  gtk_column_view_column_set_title (self->row_column, title->str);

  time = ws_format_duration (pivot->root->time);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, pivot->root->count);
  gtk_label_set_text (self->total_time, time);
  gtk_label_set_text (self->total_count, count);

  span = ws_format_duration (pivot->t1 - pivot->t0);
  lost = ws_format_duration (pivot->unrecorded);
  if (job->thread != WS_NONE)
    {
      const WsThread *t = ws_trace_get_thread (job->trace, job->thread);
      /* Translators: the Pivot page's scope: "pylk-w2 11587 over 120 ms" */
      scope = g_strdup_printf (_("%s %d over %s"), t->name ? t->name : "?", t->tid, span);
    }
  else
    /* Translators: the Pivot page's scope: "24 threads over 3.01 s" */
    scope = g_strdup_printf (ngettext ("%u thread over %s", "%u threads over %s", pivot->n_threads),
                             pivot->n_threads, span);
  /* Translators: "24 threads over 3.01 s: 63.0 s in a known state, 3.06 s of their lives not recorded" */
  status = g_strdup_printf (_("%s: %s in a known state, %s of their lives not recorded"), scope, time, lost);
  set_status (self, status);
  gtk_widget_set_sensitive (self->export_button, TRUE);
}

static void
run (WsPivotPage *self)
{
  WsDocument *doc = current_document (self);
  WsTimelineViewport *viewport;
  WsPivotScope scope = gtk_drop_down_get_selected (self->scope);
  guint thread = WS_NONE;
  WsTime t0 = 0, t1 = 0;
  Job *job;

  self->dirty = FALSE;
  if (doc == NULL)
    {
      ws_worker_cancel (self->worker);
      g_clear_object (&self->list);
      gtk_column_view_set_model (self->view, NULL);
      gtk_label_set_text (self->total_time, "—");
      gtk_label_set_text (self->total_count, "—");
      gtk_widget_set_sensitive (self->export_button, FALSE);
      set_status (self, _("Open a trace to see where its threads’ time goes"));
      return;
    }

  job = g_new0 (Job, 1);
  job->trace = g_object_ref (ws_document_get_trace (doc));
  job->thread = WS_NONE;
  job->settings.n_columns = chosen_columns (self, job->settings.columns);
  viewport = ws_document_get_viewport (doc);
  if (scope != WS_PIVOT_SCOPE_TRACE && ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1) && t1 > t0)
    {
      job->settings.t0 = t0;
      job->settings.t1 = t1;
      if (scope == WS_PIVOT_SCOPE_THREAD && thread != WS_NONE)
        {
          job->thread = thread;
          job->settings.threads = &job->thread;
          job->settings.n_threads = 1;
        }
    }
  set_status (self, _("Summing the threads’ time…"));
  ws_worker_run (self->worker, self, job, job_free, run_thread, done_cb);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Runs now if the page is on screen, else when it is next shown. */
static void
schedule_run (WsPivotPage *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    run (self);
  else
    self->dirty = TRUE;
}

static void
map_cb (WsPivotPage *self)
{
  if (self->dirty)
    run (self);
}

static void
current_document_cb (WsPivotPage *self)
{
  WsDocument *doc = shown_document (self);

  g_signal_group_set_target (self->document_signals, doc);
  g_signal_group_set_target (self->viewport_signals, doc ? ws_document_get_viewport (doc) : NULL);
  schedule_run (self);
}

/* Enter or a double click: the row's earliest span in the timeline. */
static void
activate_cb (WsPivotPage   *self,
             guint          position,
             GtkColumnView *view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr(WsPivotItem) item = row ? gtk_tree_list_row_get_item (row) : NULL;
  const WsPivotRow *r;

  if (item == NULL)
    return;
  r = ws_pivot_item_get_row (item);
  if (r->first_thread != WS_NONE)
    g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, ws_pivot_item_get_trace (item),
                   r->first_thread, r->first_event);
}

/* ------------------------------------------------------------------ */
/* The controls */

static gboolean
export_csv (GtkWidget   *widget,
            const char  *path,
            GError     **error)
{
  WsPivotPage *self = WS_PIVOT_PAGE (widget);
  const WsPivot *pivot = ws_pivot_page_get_pivot (self);
  g_autoptr(GString) out = g_string_new (NULL);

  if (pivot == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no table to export yet"));
      return FALSE;
    }
  ws_pivot_write_csv (pivot, out);
  return ws_export_write_text (path, out->str, error);
}

static void
export_clicked_cb (WsPivotPage *self)
{
  ws_export_dialog_show (GTK_WIDGET (self), _("Export the Pivot Table"), "pivot.csv", export_csv, NULL);
}

static GtkDropDown *
level_drop_down (guint level)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GtkDropDown *drop;
  g_autofree char *name = NULL;

  if (level > 0)
    /* Translators: a pivot grouping drop-down left empty */
    g_ptr_array_add (names, (gpointer) _("None"));
  for (guint c = 0; c < WS_N_PIVOT_COLUMNS; c++)
    g_ptr_array_add (names, (gpointer) ws_pivot_column_get_label (c));
  g_ptr_array_add (names, NULL);
  drop = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char * const *) names->pdata));
  /* Translators: the accessible name of the pivot's n-th grouping drop-down */
  name = g_strdup_printf (_("Grouping column %u"), level + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (drop), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (drop), name);
  return drop;
}

static GtkWidget *
build_controls (WsPivotPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *by = gtk_label_new (_("Group by"));
  const char *scopes[] = { N_("Whole trace"), N_("Selected window, all threads"),
                           N_("Selected thread and window"), NULL };
  const char *translated[G_N_ELEMENTS (scopes)];

  /* The row wraps rather than widen the window: at 1280×720 with the
   * sidebar open it has about 1000 px. */
  gtk_widget_set_layout_manager (bar, ws_wrap_layout_new (6, 4));
  gtk_box_append (GTK_BOX (group), by);
  for (guint l = 0; l < N_LEVELS; l++)
    {
      if (l > 0)
        {
          /* each "›" wraps with the drop-down it leads to */
          group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
          gtk_box_append (GTK_BOX (group), gtk_label_new ("›"));
        }
      self->levels[l] = level_drop_down (l);
      gtk_widget_set_name (GTK_WIDGET (self->levels[l]), "pivot-level");
      gtk_drop_down_set_selected (self->levels[l], l == 0 ? WS_PIVOT_PROCESS : l == 1 ? WS_PIVOT_STATE + 1 : 0);
      g_signal_connect_swapped (self->levels[l], "notify::selected", G_CALLBACK (schedule_run), self);
      gtk_box_append (GTK_BOX (group), GTK_WIDGET (self->levels[l]));
      gtk_box_append (GTK_BOX (bar), group);
    }
  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    translated[i] = scopes[i] ? _(scopes[i]) : NULL;
  self->scope = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (translated));
  gtk_drop_down_set_selected (self->scope, WS_PIVOT_SCOPE_WINDOW);
  gtk_widget_set_margin_start (GTK_WIDGET (self->scope), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scope), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scope"), -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope), _("What to sum: follows the timeline’s selection"));
  g_signal_connect_swapped (self->scope, "notify::selected", G_CALLBACK (schedule_run), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->scope));

  self->export_button = gtk_button_new_with_mnemonic (_("_Export CSV…"));
  gtk_widget_set_hexpand (self->export_button, TRUE);
  gtk_widget_set_halign (self->export_button, GTK_ALIGN_END);
  gtk_widget_set_sensitive (self->export_button, FALSE);
  g_signal_connect_swapped (self->export_button, "clicked", G_CALLBACK (export_clicked_cb), self);
  gtk_box_append (GTK_BOX (bar), self->export_button);
  return bar;
}

static GtkWidget *
build_total (WsPivotPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title = gtk_label_new (_("Total"));

  gtk_widget_add_css_class (title, "heading");
  self->total_time = GTK_LABEL (gtk_label_new ("—"));
  self->total_count = GTK_LABEL (gtk_label_new ("—"));
  gtk_widget_set_name (GTK_WIDGET (self->total_time), "pivot-total-time");
  gtk_widget_set_name (GTK_WIDGET (self->total_count), "pivot-total-count");
  gtk_widget_add_css_class (GTK_WIDGET (self->total_time), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (self->total_count), "numeric");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->total_time), GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL, -1);
  gtk_box_append (GTK_BOX (bar), title);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->total_time));
  /* Translators: after the total's count: "7622 spans" */
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->total_count));
  gtk_box_append (GTK_BOX (bar), gtk_label_new (_("spans")));
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->status), "pivot-status");
  gtk_label_set_xalign (self->status, 1);
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->status));
  return bar;
}

static void
ws_pivot_page_dispose (GObject *object)
{
  WsPivotPage *self = WS_PIVOT_PAGE (object);

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_object (&self->worker);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->list);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_pivot_page_parent_class)->dispose (object);
}

static void
ws_pivot_page_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY: g_value_set_boolean (value, ws_pivot_page_get_busy (WS_PIVOT_PAGE (object))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_pivot_page_class_init (WsPivotPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  WsPageClass *page_class = WS_PAGE_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  page_class->session_changed = session_changed;
  ws_page_class_set_title (page_class, N_("Pivot"));
  ws_page_class_set_icon_name (page_class, "view-list-symbolic");
  object_class->dispose = ws_pivot_page_dispose;
  object_class->get_property = ws_pivot_page_get_property;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsPivotPage::show-in-timeline:
   * @trace: the trace of the row
   * @thread: the thread of the row's earliest span
   * @event: that span's event
   */
  signals[SHOW_IN_TIMELINE] =
    g_signal_new ("show-in-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, WS_TYPE_TRACE, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pivotpage");
}

static void
ws_pivot_page_init (WsPivotPage *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->worker = ws_worker_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (self->box, 8);
  gtk_widget_set_margin_end (self->box, 8);
  gtk_widget_set_margin_top (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (self->box), build_controls (self));

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->view), "pivot-table");
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Time by the grouping columns: expand a row for the next column, "
                                    "Enter shows its first span in the timeline"), -1);
  ws_pivot_columns_add (self->view, &self->row_column);
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (activate_cb), self);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_box_append (GTK_BOX (self->box), build_total (self));

  self->session_signals = g_signal_group_new (WS_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::current-document",
                                  G_CALLBACK (current_document_cb), self);
  self->document_signals = g_signal_group_new (WS_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::state", G_CALLBACK (current_document_cb), self);
  self->viewport_signals = g_signal_group_new (WS_TYPE_TIMELINE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed", G_CALLBACK (schedule_run), self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
  set_status (self, _("Open a trace to see where its threads’ time goes"));
}

/**
 * session_changed:
 * @session: the window's session: the trace shown and its selection
 */
static void
session_changed (WsPage    *page,
                 WsSession *old_session,
                 WsSession *session)
{
  WsPivotPage *self = WS_PIVOT_PAGE (page);

  g_return_if_fail (WS_IS_PIVOT_PAGE (self));

  g_signal_group_set_target (self->session_signals, session);
  current_document_cb (self);
}

/**
 * ws_pivot_page_set_columns:
 * @columns: (array length=n_columns): 1 to 4 columns, outermost first
 *
 * Sets the drop-downs, as a user would pick them.
 */
void
ws_pivot_page_set_columns (WsPivotPage         *self,
                           const WsPivotColumn *columns,
                           guint                n_columns)
{
  g_return_if_fail (WS_IS_PIVOT_PAGE (self));
  g_return_if_fail (n_columns >= 1);

  for (guint l = 0; l < N_LEVELS; l++)
    gtk_drop_down_set_selected (self->levels[l], l >= n_columns ? 0 : l == 0 ? columns[l] : columns[l] + 1);
}

void
ws_pivot_page_set_scope (WsPivotPage  *self,
                         WsPivotScope  scope)
{
  g_return_if_fail (WS_IS_PIVOT_PAGE (self));
  gtk_drop_down_set_selected (self->scope, scope);
}

gboolean
ws_pivot_page_get_busy (WsPivotPage *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_PAGE (self), FALSE);
  return ws_worker_get_busy (self->worker);
}

/**
 * ws_pivot_page_get_pivot:
 * Returns: (transfer none) (nullable): the table shown
 */
const WsPivot *
ws_pivot_page_get_pivot (WsPivotPage *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_PAGE (self), NULL);
  return self->list ? ws_pivot_item_list_get_pivot (self->list) : NULL;
}
