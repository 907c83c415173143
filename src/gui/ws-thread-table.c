/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-thread-table.h"
#include "ws-time-format.h"

/* One row: a plain GObject with properties, so that GtkColumnView can sort
 * on them through property expressions. */
#define WS_TYPE_THREAD_ITEM (ws_thread_item_get_type ())
G_DECLARE_FINAL_TYPE (WsThreadItem, ws_thread_item, WS, THREAD_ITEM, GObject)

struct _WsThreadItem
{
  GObject parent_instance;
  guint   thread;
  char   *name;
  char   *process;
  gint64  tid;
  gint64  run;
  gint64  ready;
  gint64  sleep;
  gint64  disk;
  gint64  other;
  gint64  waits;
  gint64  unknown;
  gint64  longest;
};

G_DEFINE_FINAL_TYPE (WsThreadItem, ws_thread_item, G_TYPE_OBJECT)

enum {
  ITEM_PROP_0,
  ITEM_PROP_NAME,
  ITEM_PROP_PROCESS,
  ITEM_PROP_TID,
  ITEM_PROP_RUN,
  ITEM_PROP_READY,
  ITEM_PROP_SLEEP,
  ITEM_PROP_DISK,
  ITEM_PROP_OTHER,
  ITEM_PROP_WAITS,
  ITEM_PROP_UNKNOWN,
  ITEM_PROP_LONGEST,
  ITEM_N_PROPS
};

static void
ws_thread_item_finalize (GObject *object)
{
  WsThreadItem *self = WS_THREAD_ITEM (object);

  g_free (self->name);
  g_free (self->process);
  G_OBJECT_CLASS (ws_thread_item_parent_class)->finalize (object);
}

static void
ws_thread_item_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WsThreadItem *self = WS_THREAD_ITEM (object);

  switch (prop_id)
    {
    case ITEM_PROP_NAME: g_value_set_string (value, self->name); break;
    case ITEM_PROP_PROCESS: g_value_set_string (value, self->process); break;
    case ITEM_PROP_TID: g_value_set_int64 (value, self->tid); break;
    case ITEM_PROP_RUN: g_value_set_int64 (value, self->run); break;
    case ITEM_PROP_READY: g_value_set_int64 (value, self->ready); break;
    case ITEM_PROP_SLEEP: g_value_set_int64 (value, self->sleep); break;
    case ITEM_PROP_DISK: g_value_set_int64 (value, self->disk); break;
    case ITEM_PROP_OTHER: g_value_set_int64 (value, self->other); break;
    case ITEM_PROP_WAITS: g_value_set_int64 (value, self->waits); break;
    case ITEM_PROP_UNKNOWN: g_value_set_int64 (value, self->unknown); break;
    case ITEM_PROP_LONGEST: g_value_set_int64 (value, self->longest); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_thread_item_class_init (WsThreadItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  static const char *const int_props[] = {
    "tid", "run", "ready", "sleep", "disk", "other", "waits", "unknown", "longest",
  };

  object_class->finalize = ws_thread_item_finalize;
  object_class->get_property = ws_thread_item_get_property;

  g_object_class_install_property (object_class, ITEM_PROP_NAME,
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, ITEM_PROP_PROCESS,
    g_param_spec_string ("process", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  for (guint i = 0; i < G_N_ELEMENTS (int_props); i++)
    g_object_class_install_property (object_class, ITEM_PROP_TID + i,
      g_param_spec_int64 (int_props[i], NULL, NULL, G_MININT64, G_MAXINT64, 0,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
ws_thread_item_init (WsThreadItem *self)
{
}

/* ------------------------------------------------------------------ */

struct _WsThreadTable
{
  GtkWidget       parent_instance;

  GtkWidget      *scroller;
  GtkColumnView  *column_view;
  guint           scroll_tick;      /* tick callback id, 0 when none */
  guint           scroll_frames;    /* frames seen since the re-sort */
  GListStore     *store;
  GtkSortListModel *sorted;
};

G_DEFINE_FINAL_TYPE (WsThreadTable, ws_thread_table, GTK_TYPE_WIDGET)

enum {
  THREAD_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef enum {
  COLUMN_TEXT,
  COLUMN_NUMBER,
  COLUMN_DURATION,
} ColumnKind;

typedef struct {
  const char *title;
  const char *property;
  ColumnKind  kind;
  gboolean    expand;
} ColumnSpec;

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  ColumnKind kind = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), kind == COLUMN_TEXT ? 0 : 1);
  if (kind == COLUMN_TEXT)
    {
      /* Room for "postgres (9054)" at 1280 px (with the cells' narrower
       * padding, style.css); a longer name is cut in
       * the middle (its end and the id tell threads apart) and is whole
       * in the tooltip. */
      gtk_label_set_width_chars (GTK_LABEL (label), 12);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
    }
  else
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  user_data)
{
  GObject *row = gtk_list_item_get_item (item);
  const char *property = g_object_get_data (G_OBJECT (factory), "property");
  ColumnKind kind = GPOINTER_TO_INT (user_data);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_auto(GValue) value = G_VALUE_INIT;
  g_autofree char *text = NULL;

  g_value_init (&value, kind == COLUMN_TEXT ? G_TYPE_STRING : G_TYPE_INT64);
  g_object_get_property (row, property, &value);
  if (kind == COLUMN_TEXT)
    text = g_value_dup_string (&value);
  else if (kind == COLUMN_DURATION)
    text = g_value_get_int64 (&value) ? g_strdup_printf ("%.3f", g_value_get_int64 (&value) / 1e6) : g_strdup ("—");
  else
    text = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (&value));
  gtk_label_set_text (label, text);
  if (kind == COLUMN_TEXT)
    gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
}

static void
activate_cb (WsThreadTable *self,
             guint          position,
             GtkColumnView *view)
{
  g_autoptr(WsThreadItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (item != NULL)
    g_signal_emit (self, signals[THREAD_ACTIVATED], 0, item->thread);
}

static void
ws_thread_table_dispose (GObject *object)
{
  WsThreadTable *self = WS_THREAD_TABLE (object);

  if (self->scroll_tick != 0 && self->scroller != NULL)
    gtk_widget_remove_tick_callback (self->scroller, self->scroll_tick);
  self->scroll_tick = 0;
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (ws_thread_table_parent_class)->dispose (object);
}

static void
ws_thread_table_class_init (WsThreadTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_thread_table_dispose;

  /**
   * WsThreadTable::thread-activated:
   * @thread: the thread index
   */
  signals[THREAD_ACTIVATED] =
    g_signal_new ("thread-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "threadtable");
}

/* Scroll back to the top once the list has laid out its new order: the
 * re-sort's rows are laid out in the frame after it, and scrolling before
 * that makes GTK 4.8 warn that it "failed to scroll to given position"
 * (an idle can run before that frame on a loaded machine), so wait for the
 * second frame. */
static gboolean
scroll_to_top_tick (GtkWidget     *scroller,
                    GdkFrameClock *clock,
                    gpointer       data)
{
  WsThreadTable *self = data;

  (void) clock;
  if (++self->scroll_frames < 2)
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)), 0);
  return G_SOURCE_REMOVE;
}

static void
sort_changed_cb (WsThreadTable *self)
{
  if (self->scroller == NULL)
    return;
  self->scroll_frames = 0;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (self->scroller, scroll_to_top_tick, self, NULL);
}

static void
ws_thread_table_init (WsThreadTable *self)
{
  const ColumnSpec columns[] = {
    { _("Thread"), "name", COLUMN_TEXT, TRUE },
    { _("TID"), "tid", COLUMN_NUMBER, FALSE },
    { _("Process"), "process", COLUMN_TEXT, TRUE },
    /* One unit for every duration, in the headers, so that the column
     * reads as numbers that line up ("1.2 s" beside "980 ms" did not).
     * The unit goes on a second line, so that the eleven columns fit a
     * 1280-px window beside the sidebar (on one line they needed 1361 px
     * of its 1019). */
    /* Translators: a column header on two lines: a state, then the unit */
    { _("Running\nms"), "run", COLUMN_DURATION, FALSE },
    /* Translators: a column header on two lines: a state, then the unit */
    { _("Ready\nms"), "ready", COLUMN_DURATION, FALSE },
    /* Translators: a column header on two lines: a state, then the unit */
    { _("Sleeping (S)\nms"), "sleep", COLUMN_DURATION, FALSE },
    /* Translators: a column header on two lines: a state, then the unit */
    { _("Disk (D)\nms"), "disk", COLUMN_DURATION, FALSE },
    /* Translators: a column header on two lines: a state, then the unit */
    { _("Other waits\nms"), "other", COLUMN_DURATION, FALSE },
    { _("Waits"), "waits", COLUMN_NUMBER, FALSE },
    /* Translators: a column header on two lines: the waits no wake-up ended */
    { _("No wake-up\nrecorded"), "unknown", COLUMN_NUMBER, FALSE },
    /* Translators: a column header on two lines: the longest wait, then the unit */
    { _("Longest wait\nms"), "longest", COLUMN_DURATION, FALSE },
  };
  GtkSelectionModel *selection;
  GtkColumnViewColumn *sort_column = NULL;

  self->store = g_list_store_new (WS_TYPE_THREAD_ITEM);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Threads and their run and wait totals"),
                                  -1);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      GtkExpression *expression;
      GtkSorter *sorter;

      g_object_set_data (G_OBJECT (factory), "property", (gpointer) columns[i].property);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (columns[i].kind));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GINT_TO_POINTER (columns[i].kind));
      column = gtk_column_view_column_new (columns[i].title, factory);
      gtk_column_view_column_set_expand (column, columns[i].expand);
      gtk_column_view_column_set_resizable (column, TRUE);

      expression = gtk_property_expression_new (WS_TYPE_THREAD_ITEM, NULL, columns[i].property);
      if (columns[i].kind == COLUMN_TEXT)
        sorter = GTK_SORTER (gtk_string_sorter_new (expression));
      else
        sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);

      gtk_column_view_append_column (self->column_view, column);
      if (g_str_equal (columns[i].property, "sleep"))
        sort_column = column;
      g_object_unref (column);
    }

  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_column_view_set_model (self->column_view, selection);
  g_object_unref (selection);
  /* Most time asleep first: the threads worth a look. */
  if (sort_column != NULL)
    gtk_column_view_sort_by_column (self->column_view, sort_column, GTK_SORT_DESCENDING);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (activate_cb), self);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  /* A new order starts at its top, not wherever the old one was scrolled. */
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (sort_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
ws_thread_table_new (void)
{
  return g_object_new (WS_TYPE_THREAD_TABLE, NULL);
}

/**
 * ws_thread_table_set_lod:
 * @lod: (nullable): the levels of detail holding the per-thread totals
 */
void
ws_thread_table_set_lod (WsThreadTable *self,
                         WsTimelineLod *lod)
{
  WsTrace *trace;
  g_autoptr(GPtrArray) items = NULL;

  g_return_if_fail (WS_IS_THREAD_TABLE (self));

  g_list_store_remove_all (self->store);
  if (lod == NULL)
    return;

  trace = ws_timeline_lod_get_trace (lod);
  items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      const WsThreadStats *stats = ws_timeline_lod_get_stats (lod, t);
      const WsProcess *process = thread->process != WS_NONE ? ws_trace_get_process (trace, thread->process) : NULL;
      WsThreadItem *item;

      if (thread->n_events == 0)
        continue;
      item = g_object_new (WS_TYPE_THREAD_ITEM, NULL);
      item->thread = t;
      item->name = g_strdup (thread->name);
      g_autofree char *pid = ws_format_pid (process != NULL ? process->pid : thread->pid);

      item->process = process && process->name ? g_strdup_printf ("%s (%s)", process->name, pid)
                                               : g_strdup (pid);
      item->tid = thread->tid;
      item->run = stats->run;
      item->ready = stats->ready;
      item->sleep = stats->wait[0];
      item->disk = stats->wait[1];
      item->other = stats->wait[2];
      item->waits = stats->totals.n_waits;
      item->unknown = stats->totals.n_unknown;
      item->longest = stats->totals.longest_wait;
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->store, 0, 0, items->pdata, items->len);
}

/**
 * ws_thread_table_get_model:
 * Returns: (transfer none): the rows as shown, sorted
 */
GListModel *
ws_thread_table_get_model (WsThreadTable *self)
{
  g_return_val_if_fail (WS_IS_THREAD_TABLE (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

guint
ws_thread_table_item_get_thread (gpointer item)
{
  g_return_val_if_fail (WS_IS_THREAD_ITEM (item), WS_NONE);
  return WS_THREAD_ITEM (item)->thread;
}
