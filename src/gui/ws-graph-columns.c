/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The columns of the graph page's node table and segment table: cell
 * text, alignment and sort order.  They read what is shown through a
 * WsGraphShown owned by the page, so that a new graph needs only new rows.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-event-format.h"
#include "ws-graph-columns.h"
#include "ws-time-format.h"

struct _WsGraphRow
{
  GObject  parent_instance;
  guint    index;
};

G_DEFINE_FINAL_TYPE (WsGraphRow, ws_graph_row, G_TYPE_OBJECT)

static void ws_graph_row_class_init (WsGraphRowClass *klass) { }
static void ws_graph_row_init (WsGraphRow *self) { }

WsGraphRow *
ws_graph_row_new (guint index)
{
  WsGraphRow *row = g_object_new (WS_TYPE_GRAPH_ROW, NULL);
  row->index = index;
  return row;
}

guint
ws_graph_row_get_index (WsGraphRow *row)
{
  g_return_val_if_fail (WS_IS_GRAPH_ROW (row), WS_NONE);
  return row->index;
}

/* Replaces the rows by 0 … @n - 1. */
void
ws_graph_columns_fill (GListStore *rows,
                       guint       n)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, ws_graph_row_new (i));
  g_list_store_splice (rows, 0, g_list_model_get_n_items (G_LIST_MODEL (rows)), items->pdata, items->len);
}

/* Selects the row holding @index (unselects for none). */
void
ws_graph_columns_select_index (GtkSingleSelection *selection,
                               guint               index)
{
  GListModel *model = gtk_single_selection_get_model (selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; index != WS_NONE && i < n; i++)
    {
      g_autoptr(WsGraphRow) row = g_list_model_get_item (model, i);
      if (row->index == index)
        {
          gtk_single_selection_set_selected (selection, i);
          return;
        }
    }
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
}

/* ------------------------------------------------------------------ */
/* One selection in the table and the drawing                           */

typedef struct {
  GtkSingleSelection *selection;   /* weak: this is its data */
  gpointer            view;
  char               *property;
  WsGraphIndexFunc    select;
  WsGraphIndexFunc    reveal;
  GCallback           changed;
  gpointer            changed_data;
  gboolean            in_sync;
} SelectionSync;

static void
sync_free (gpointer data)
{
  SelectionSync *sync = data;

  g_free (sync->property);
  g_free (sync);
}

/* Connected swapped, so that it goes with @selection. */
static void
view_changed_cb (GtkSingleSelection *selection,
                 GParamSpec         *pspec,
                 GObject            *view)
{
  SelectionSync *sync = g_object_get_data (G_OBJECT (selection), "ws-selection-sync");
  guint index = WS_NONE;

  if (sync == NULL || sync->in_sync)
    return;
  g_object_get (view, sync->property, &index, NULL);
  sync->in_sync = TRUE;
  ws_graph_columns_select_index (sync->selection, index);
  sync->in_sync = FALSE;
  ((void (*) (gpointer)) sync->changed) (sync->changed_data);
}

static void
table_changed_cb (GtkSingleSelection *selection,
                  GParamSpec         *pspec,
                  SelectionSync      *sync)
{
  WsGraphRow *row = gtk_single_selection_get_selected_item (selection);

  if (sync->in_sync || row == NULL)
    return;
  sync->in_sync = TRUE;
  sync->select (sync->view, row->index);
  sync->reveal (sync->view, row->index);
  sync->in_sync = FALSE;
  ((void (*) (gpointer)) sync->changed) (sync->changed_data);
}

/**
 * ws_graph_columns_bind_selection:
 * @view: a drawn view whose @property (guint) is its selected item
 * @select: selects an item in @view
 * @reveal: scrolls @view to an item chosen in the table
 * @changed: called with @changed_data after either side changed
 *
 * Keeps the table's selection and the drawing's on the same item, for as
 * long as @selection lives.
 */
void
ws_graph_columns_bind_selection (GtkSingleSelection *selection,
                                 gpointer            view,
                                 const char         *property,
                                 WsGraphIndexFunc    select,
                                 WsGraphIndexFunc    reveal,
                                 GCallback           changed,
                                 gpointer            changed_data)
{
  SelectionSync *sync = g_new0 (SelectionSync, 1);
  g_autofree char *signal = g_strdup_printf ("notify::%s", property);

  *sync = (SelectionSync) { selection, view, g_strdup (property), select, reveal, changed, changed_data, FALSE };
  g_object_set_data_full (G_OBJECT (selection), "ws-selection-sync", sync, sync_free);
  g_signal_connect (selection, "notify::selected", G_CALLBACK (table_changed_cb), sync);
  g_signal_connect_object (view, signal, G_CALLBACK (view_changed_cb), selection, G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------ */
/* Nodes                                                                */

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

static char *
flags_text (const WsGraphShown *shown,
            const WsSceneNode  *n,
            guint               node)
{
  gboolean chain = (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) != 0;
  gboolean match = FALSE;

  for (guint i = 0; shown->matches && i < shown->matches->len; i++)
    match |= g_array_index (shown->matches, guint, i) == node;
  return g_strdup_printf ("%s%s%s", chain ? _("anomalous chain") : "",
                          chain && match ? ", " : "", match ? _("match") : "");
}

static char *
cell_text (const WsGraphShown *shown,
           guint               node,
           guint               column)
{
  const WsSceneNode *n = ws_graph_scene_get_node (shown->scene, node);

  switch ((Column) column)
    {
    case COLUMN_LAYER:
      return g_strdup_printf ("%u", n->layer);
    case COLUMN_KIND:
      return ws_graph_scene_dup_detail (shown->scene, node);
    case COLUMN_THREAD:
      return ws_graph_scene_dup_title (shown->scene, node);
    case COLUMN_START:
      return g_strdup_printf ("%.6f s", (n->time - ws_trace_get_start_time (shown->trace)) / 1e9);
    case COLUMN_DURATION:
      return ws_format_duration (n->duration);
    case COLUMN_FRAME:
      return g_strdup (ws_graph_scene_get_frame_name (shown->scene, node) ?: "");
    case COLUMN_FLAGS:
      return flags_text (shown, n, node);
    case N_COLUMNS:
    default:
      return g_strdup ("");
    }
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const WsGraphRow *ra = a, *rb = b;
  const WsGraphShown *shown = g_object_get_data (G_OBJECT (data), "shown");
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (data), "column"));
  const WsSceneNode *na, *nb;

  if (shown->scene == NULL)
    return 0;
  na = ws_graph_scene_get_node (shown->scene, ra->index);
  nb = ws_graph_scene_get_node (shown->scene, rb->index);
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
        g_autofree char *ta = cell_text (shown, ra->index, column);
        g_autofree char *tb = cell_text (shown, rb->index, column);
        return g_utf8_collate (ta, tb);
      }
    }
}

/* ------------------------------------------------------------------ */
/* Segments                                                             */

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

static char *
segment_cell_text (const WsGraphShown *shown,
                   guint               segment,
                   guint               column)
{
  const WsCriticalSegment *seg = ws_critical_path_get_segment (shown->path, segment);

  switch ((SegmentColumn) column)
    {
    case SEGMENT_COLUMN_INDEX:
      return g_strdup_printf ("%u", segment + 1);
    case SEGMENT_COLUMN_THREAD:
      return ws_event_format_thread_short (shown->trace, seg->thread);
    case SEGMENT_COLUMN_STATE:
      return g_strdup (ws_critical_path_segment_label (shown->path, segment));
    case SEGMENT_COLUMN_START:
      {
        g_autofree char *d = ws_format_duration (seg->start - ws_critical_path_get_symptom (shown->path)->t0);
        return g_strdup_printf ("+%s", d);
      }
    case SEGMENT_COLUMN_DURATION:
      return ws_format_duration (seg->end - seg->start);
    case SEGMENT_COLUMN_DEPTH:
      return g_strdup_printf ("%u", seg->depth);
    case SEGMENT_COLUMN_WAIT:
      return seg->on_behalf_of == WS_NONE ? g_strdup ("—")
                                          : ws_event_format_wait (shown->trace, seg->on_behalf_of, FALSE);
    case N_SEGMENT_COLUMNS:
    default:
      return g_strdup ("");
    }
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int
compare_segment_rows (gconstpointer a,
                      gconstpointer b,
                      gpointer      data)
{
  const WsGraphRow *ra = a, *rb = b;
  const WsGraphShown *shown = g_object_get_data (G_OBJECT (data), "shown");
  SegmentColumn column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (data), "column"));
  const WsCriticalSegment *sa, *sb;

  if (shown->path == NULL)
    return 0;
  sa = ws_critical_path_get_segment (shown->path, ra->index);
  sb = ws_critical_path_get_segment (shown->path, rb->index);
  switch (column)
    {
    case SEGMENT_COLUMN_INDEX:
    case SEGMENT_COLUMN_START:
      return CMP (ra->index, rb->index);
    case SEGMENT_COLUMN_DURATION:
      return CMP (sa->end - sa->start, sb->end - sb->start);
    case SEGMENT_COLUMN_DEPTH:
      return CMP (sa->depth, sb->depth);
    case SEGMENT_COLUMN_STATE:
      return CMP (sa->state, sb->state);
    case SEGMENT_COLUMN_THREAD:
    case SEGMENT_COLUMN_WAIT:
    case N_SEGMENT_COLUMNS:
    default:
      {
        g_autofree char *ta = segment_cell_text (shown, ra->index, column);
        g_autofree char *tb = segment_cell_text (shown, rb->index, column);
        return g_utf8_collate (ta, tb);
      }
    }
}

/* ------------------------------------------------------------------ */
/* Building a table                                                     */

typedef struct {
  const char *title;
  gboolean    expand;
  gboolean    numeric;     /* right-aligned, tabular figures */
  gboolean    monospace;
} ColumnSpec;

/* One kind of table: its columns, how many rows what is shown has, a
 * cell's text and the order of two rows. */
typedef struct {
  const ColumnSpec *columns;
  guint             n_columns;
  guint           (*n_rows) (const WsGraphShown *shown);
  char           *(*text)   (const WsGraphShown *shown,
                             guint               row,
                             guint               column);
  GCompareDataFunc  compare;
} TableSpec;

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               const ColumnSpec         *spec)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), spec->numeric ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (spec->monospace)
    gtk_widget_add_css_class (label, "monospace");
  if (spec->numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  data)
{
  const WsGraphShown *shown = g_object_get_data (G_OBJECT (factory), "shown");
  const TableSpec *table = g_object_get_data (G_OBJECT (factory), "table");
  WsGraphRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = NULL;

  if (row->index >= table->n_rows (shown))
    return;
  text = table->text (shown, row->index, GPOINTER_TO_UINT (data));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
  /* A word column cut short ("Ready, waitin…") is whole in its tooltip. */
  if (!gtk_widget_has_css_class (gtk_list_item_get_child (item), "numeric"))
    gtk_widget_set_tooltip_text (gtk_list_item_get_child (item), text);
}

static GtkSingleSelection *
add_columns (GtkColumnView      *view,
             GListStore         *rows,
             const WsGraphShown *shown,
             const TableSpec    *table)
{
  g_autoptr(GtkSortListModel) sorted = NULL;
  GtkSingleSelection *selection;

  for (guint c = 0; c < table->n_columns; c++)
    {
      const ColumnSpec *spec = &table->columns[c];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      GtkSorter *sorter;

      g_object_set_data (G_OBJECT (factory), "shown", (gpointer) shown);
      g_object_set_data (G_OBJECT (factory), "table", (gpointer) table);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), (gpointer) spec);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(spec->title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, spec->expand);

      sorter = GTK_SORTER (gtk_custom_sorter_new (table->compare, NULL, NULL));
      g_object_set_data (G_OBJECT (sorter), "shown", (gpointer) shown);
      g_object_set_data (G_OBJECT (sorter), "column", GUINT_TO_POINTER (c));
      gtk_custom_sorter_set_sort_func (GTK_CUSTOM_SORTER (sorter), table->compare, sorter, NULL);
      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);

      gtk_column_view_append_column (view, column);
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (rows)),
                                    g_object_ref (gtk_column_view_get_sorter (view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  return selection;
}

static guint
n_nodes (const WsGraphShown *shown)
{
  return shown->scene ? ws_graph_scene_get_n_nodes (shown->scene) : 0;
}

/**
 * ws_graph_columns_add_node_columns:
 * @shown: read by the cells; must outlive @table
 *
 * Returns: (transfer full): the table's selection, over @rows sorted by
 *   the column the user chose
 */
GtkSingleSelection *
ws_graph_columns_add_node_columns (GtkColumnView      *table,
                                   GListStore         *rows,
                                   const WsGraphShown *shown)
{
  static const ColumnSpec columns[N_COLUMNS] = {
    { N_("Depth"), FALSE, FALSE, FALSE }, { N_("What"), TRUE, FALSE, FALSE }, { N_("Thread"), FALSE, FALSE, FALSE },
    { N_("Start"), FALSE, TRUE, FALSE }, { N_("Duration"), FALSE, TRUE, FALSE }, { N_("Frame"), TRUE, FALSE, TRUE },
    { N_("Highlight"), FALSE, FALSE, FALSE },
  };
  static const TableSpec spec = { columns, N_COLUMNS, n_nodes, cell_text, compare_rows };

  return add_columns (table, rows, shown, &spec);
}

static guint
n_segments (const WsGraphShown *shown)
{
  return shown->path ? ws_critical_path_get_n_segments (shown->path) : 0;
}

/* As ws_graph_columns_add_node_columns(), for the critical path's segments. */
GtkSingleSelection *
ws_graph_columns_add_segment_columns (GtkColumnView      *table,
                                      GListStore         *rows,
                                      const WsGraphShown *shown)
{
  static const ColumnSpec columns[N_SEGMENT_COLUMNS] = {
    { N_("#"), FALSE, TRUE, FALSE }, { N_("Thread"), TRUE, FALSE, FALSE }, { N_("State"), TRUE, FALSE, FALSE },
    { N_("Start"), FALSE, TRUE, FALSE }, { N_("Duration"), FALSE, TRUE, FALSE }, { N_("Depth"), FALSE, TRUE, FALSE },
    { N_("On behalf of the wait of"), TRUE, FALSE, FALSE },
  };
  static const TableSpec spec = { columns, N_SEGMENT_COLUMNS, n_segments, segment_cell_text, compare_segment_rows };

  return add_columns (table, rows, shown, &spec);
}
