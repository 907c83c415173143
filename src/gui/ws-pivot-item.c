/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-pivot-item.h"

/* The table, shared by its items and freed with the last one. */
typedef struct {
  WsPivot *pivot;
} Shared;

struct _WsPivotItem
{
  GObject           parent_instance;
  Shared           *shared;
  const WsPivotRow *row;
};

G_DEFINE_FINAL_TYPE (WsPivotItem, ws_pivot_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LABEL,
  PROP_TIME,
  PROP_COUNT,
  PROP_SHARE,
  N_PROPS
};

static void
shared_clear (gpointer data)
{
  g_clear_pointer (&((Shared *) data)->pivot, ws_pivot_free);
}

static void
shared_release (gpointer data)
{
  g_rc_box_release_full (data, shared_clear);
}

static void
ws_pivot_item_finalize (GObject *object)
{
  WsPivotItem *self = WS_PIVOT_ITEM (object);

  g_rc_box_release_full (self->shared, shared_clear);
  G_OBJECT_CLASS (ws_pivot_item_parent_class)->finalize (object);
}

static void
ws_pivot_item_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WsPivotItem *self = WS_PIVOT_ITEM (object);

  switch (prop_id)
    {
    case PROP_LABEL: g_value_set_string (value, self->row->label); break;
    case PROP_TIME: g_value_set_int64 (value, self->row->time); break;
    case PROP_COUNT: g_value_set_int64 (value, (gint64) self->row->count); break;
    case PROP_SHARE: g_value_set_double (value, ws_pivot_item_get_share (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_pivot_item_class_init (WsPivotItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = ws_pivot_item_finalize;
  object_class->get_property = ws_pivot_item_get_property;
  g_object_class_install_property (object_class, PROP_LABEL, g_param_spec_string ("label", NULL, NULL, NULL, flags));
  g_object_class_install_property (object_class, PROP_TIME,
    g_param_spec_int64 ("time", NULL, NULL, 0, G_MAXINT64, 0, flags));
  g_object_class_install_property (object_class, PROP_COUNT,
    g_param_spec_int64 ("count", NULL, NULL, 0, G_MAXINT64, 0, flags));
  g_object_class_install_property (object_class, PROP_SHARE,
    g_param_spec_double ("share", NULL, NULL, 0, 1, 0, flags));
}

static void
ws_pivot_item_init (WsPivotItem *self)
{
}

static GListModel *
list_of (Shared           *shared,
         const WsPivotRow *parent)
{
  GListStore *store = g_list_store_new (WS_TYPE_PIVOT_ITEM);

  for (guint i = 0; parent->children != NULL && i < parent->children->len; i++)
    {
      WsPivotItem *item = g_object_new (WS_TYPE_PIVOT_ITEM, NULL);

      item->shared = g_rc_box_acquire (shared);
      item->row = g_ptr_array_index (parent->children, i);
      g_list_store_append (store, item);
      g_object_unref (item);
    }
  return G_LIST_MODEL (store);
}

/**
 * ws_pivot_item_new_list:
 * @pivot: (transfer full): a table
 *
 * Returns: (transfer full): the items of the table's first column
 */
GListModel *
ws_pivot_item_new_list (WsPivot *pivot)
{
  Shared *shared = g_rc_box_new0 (Shared);
  GListModel *list;

  shared->pivot = pivot;
  list = list_of (shared, pivot->root);
  /* The list holds the table too, for its total even with no rows. */
  g_object_set_data_full (G_OBJECT (list), "ws-pivot", shared, shared_release);
  return list;
}

/**
 * ws_pivot_item_list_get_pivot:
 * @list: a list made by ws_pivot_item_new_list()
 *
 * Returns: (transfer none): its table, alive as long as @list
 */
const WsPivot *
ws_pivot_item_list_get_pivot (GListModel *list)
{
  Shared *shared = g_object_get_data (G_OBJECT (list), "ws-pivot");

  g_return_val_if_fail (shared != NULL, NULL);
  return shared->pivot;
}

/**
 * ws_pivot_item_get_children:
 * Returns: (transfer full) (nullable): the rows one column further, %NULL
 *   for a leaf (a GtkTreeListModel's create function)
 */
GListModel *
ws_pivot_item_get_children (WsPivotItem *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_ITEM (self), NULL);
  if (self->row->children == NULL || self->row->children->len == 0)
    return NULL;
  return list_of (self->shared, self->row);
}

const WsPivotRow *
ws_pivot_item_get_row (WsPivotItem *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_ITEM (self), NULL);
  return self->row;
}

WsTrace *
ws_pivot_item_get_trace (WsPivotItem *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_ITEM (self), NULL);
  return self->shared->pivot->trace;
}

double
ws_pivot_item_get_share (WsPivotItem *self)
{
  g_return_val_if_fail (WS_IS_PIVOT_ITEM (self), 0);
  return ws_pivot_row_share (self->shared->pivot, self->row);
}
