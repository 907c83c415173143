/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The findings list with undo.  A list of pins is short (tens, not
 * thousands), so undo keeps a deep copy of the whole list before each
 * change: simpler and sturdier than inverse operations, and an edit of a
 * note and a reorder undo the same way.
 */
#include "config.h"

#include "ws-pin-list.h"

#define MAX_UNDO 100

struct _WsPinList
{
  GObject    parent_instance;

  GPtrArray *items;   /* WsPin, owned */
  GPtrArray *undo;    /* GPtrArray of WsPin copies, oldest first */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WsPinList, ws_pin_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
get_item_type (GListModel *model)
{
  return WS_TYPE_PIN;
}

static guint
get_n_items (GListModel *model)
{
  return WS_PIN_LIST (model)->items->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  WsPinList *self = WS_PIN_LIST (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
finding_notify (WsPin     *finding,
                GParamSpec    *pspec,
                WsPinList *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
watch (WsPinList *self,
       WsPin     *finding)
{
  g_signal_connect_object (finding, "notify", G_CALLBACK (finding_notify), self, 0);
}

static void
unwatch (gpointer data,
         gpointer user_data)
{
  g_signal_handlers_disconnect_by_func (data, finding_notify, user_data);
}

static void
ws_pin_list_dispose (GObject *object)
{
  WsPinList *self = WS_PIN_LIST (object);

  if (self->items != NULL)
    g_ptr_array_foreach (self->items, unwatch, self);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->undo, g_ptr_array_unref);

  G_OBJECT_CLASS (ws_pin_list_parent_class)->dispose (object);
}

static void
ws_pin_list_class_init (WsPinListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_pin_list_dispose;

  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_pin_list_init (WsPinList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->undo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
}

WsPinList *
ws_pin_list_new (void)
{
  return g_object_new (WS_TYPE_PIN_LIST, NULL);
}

static void
push_undo (WsPinList *self)
{
  GPtrArray *snapshot = g_ptr_array_new_full (self->items->len, g_object_unref);

  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (snapshot, ws_pin_copy (g_ptr_array_index (self->items, i)));
  g_ptr_array_add (self->undo, snapshot);
  if (self->undo->len > MAX_UNDO)
    g_ptr_array_remove_index (self->undo, 0);
}

static void
changed (WsPinList *self,
         guint          position,
         guint          removed,
         guint          added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

guint
ws_pin_list_get_n (WsPinList *self)
{
  g_return_val_if_fail (WS_IS_PIN_LIST (self), 0);
  return self->items->len;
}

/* Returns: (transfer none): the finding at @position */
WsPin *
ws_pin_list_get (WsPinList *self,
                     guint          position)
{
  g_return_val_if_fail (WS_IS_PIN_LIST (self), NULL);
  g_return_val_if_fail (position < self->items->len, NULL);
  return g_ptr_array_index (self->items, position);
}

/* Returns: the position of the finding with @id, or G_MAXUINT */
guint
ws_pin_list_find (WsPinList *self,
                      const char    *id)
{
  g_return_val_if_fail (WS_IS_PIN_LIST (self), G_MAXUINT);

  for (guint i = 0; i < self->items->len; i++)
    if (g_strcmp0 (ws_pin_get_id (g_ptr_array_index (self->items, i)), id) == 0)
      return i;
  return G_MAXUINT;
}

void
ws_pin_list_append (WsPinList *self,
                        WsPin     *finding)
{
  g_return_if_fail (WS_IS_PIN_LIST (self));
  g_return_if_fail (WS_IS_PIN (finding));

  push_undo (self);
  g_ptr_array_add (self->items, g_object_ref (finding));
  watch (self, finding);
  changed (self, self->items->len - 1, 0, 1);
}

void
ws_pin_list_remove (WsPinList *self,
                        guint          position)
{
  g_return_if_fail (WS_IS_PIN_LIST (self));
  g_return_if_fail (position < self->items->len);

  push_undo (self);
  unwatch (g_ptr_array_index (self->items, position), self);
  g_ptr_array_remove_index (self->items, position);
  changed (self, position, 1, 0);
}

void
ws_pin_list_move (WsPinList *self,
                      guint          from,
                      guint          to)
{
  gpointer item;

  g_return_if_fail (WS_IS_PIN_LIST (self));
  g_return_if_fail (from < self->items->len && to < self->items->len);

  if (from == to)
    return;
  push_undo (self);
  item = g_ptr_array_steal_index (self->items, from);
  g_ptr_array_insert (self->items, to, item);
  changed (self, MIN (from, to), MAX (from, to) - MIN (from, to) + 1, MAX (from, to) - MIN (from, to) + 1);
}

/* An undoable edit: title and/or note (%NULL keeps one as it is). */
void
ws_pin_list_edit (WsPinList *self,
                      guint          position,
                      const char    *title,
                      const char    *note)
{
  WsPin *finding;

  g_return_if_fail (WS_IS_PIN_LIST (self));
  g_return_if_fail (position < self->items->len);

  finding = g_ptr_array_index (self->items, position);
  if ((title == NULL || g_str_equal (title, ws_pin_get_title (finding))) &&
      (note == NULL || g_str_equal (note, ws_pin_get_note (finding))))
    return;
  push_undo (self);
  if (title != NULL)
    ws_pin_set_title (finding, title);
  if (note != NULL)
    ws_pin_set_note (finding, note);
}

/* Empties the list and its undo history (a new or reopened session). */
void
ws_pin_list_clear (WsPinList *self)
{
  guint n;

  g_return_if_fail (WS_IS_PIN_LIST (self));

  n = self->items->len;
  g_ptr_array_foreach (self->items, unwatch, self);
  g_ptr_array_set_size (self->items, 0);
  g_ptr_array_set_size (self->undo, 0);
  if (n > 0)
    changed (self, 0, n, 0);
}

void
ws_pin_list_clear_undo (WsPinList *self)
{
  g_return_if_fail (WS_IS_PIN_LIST (self));
  g_ptr_array_set_size (self->undo, 0);
}

gboolean
ws_pin_list_can_undo (WsPinList *self)
{
  g_return_val_if_fail (WS_IS_PIN_LIST (self), FALSE);
  return self->undo->len > 0;
}

gboolean
ws_pin_list_undo (WsPinList *self)
{
  g_autoptr(GPtrArray) snapshot = NULL;
  guint n_old;

  g_return_val_if_fail (WS_IS_PIN_LIST (self), FALSE);

  if (self->undo->len == 0)
    return FALSE;
  snapshot = g_ptr_array_steal_index (self->undo, self->undo->len - 1);
  n_old = self->items->len;
  g_ptr_array_foreach (self->items, unwatch, self);
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < snapshot->len; i++)
    {
      WsPin *finding = g_ptr_array_index (snapshot, i);
      g_ptr_array_add (self->items, g_object_ref (finding));
      watch (self, finding);
    }
  changed (self, 0, n_old, self->items->len);
  return TRUE;
}
