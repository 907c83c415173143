/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The findings list with undo.  A list of pins is short (tens, not
 * thousands), so undo keeps a deep copy of the whole list before each
 * change: simpler and sturdier than inverse operations, and an edit of a
 * note and a reorder undo the same way.
 */
#include "config.h"

#include "ws-finding-list.h"

#define MAX_UNDO 100

struct _WsFindingList
{
  GObject    parent_instance;

  GPtrArray *items;   /* WsFinding, owned */
  GPtrArray *undo;    /* GPtrArray of WsFinding copies, oldest first */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WsFindingList, ws_finding_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
get_item_type (GListModel *model)
{
  return WS_TYPE_FINDING;
}

static guint
get_n_items (GListModel *model)
{
  return WS_FINDING_LIST (model)->items->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  WsFindingList *self = WS_FINDING_LIST (model);

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
finding_notify (WsFinding     *finding,
                GParamSpec    *pspec,
                WsFindingList *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
watch (WsFindingList *self,
       WsFinding     *finding)
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
ws_finding_list_dispose (GObject *object)
{
  WsFindingList *self = WS_FINDING_LIST (object);

  if (self->items != NULL)
    g_ptr_array_foreach (self->items, unwatch, self);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->undo, g_ptr_array_unref);

  G_OBJECT_CLASS (ws_finding_list_parent_class)->dispose (object);
}

static void
ws_finding_list_class_init (WsFindingListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_finding_list_dispose;

  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_finding_list_init (WsFindingList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->undo = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
}

WsFindingList *
ws_finding_list_new (void)
{
  return g_object_new (WS_TYPE_FINDING_LIST, NULL);
}

static void
push_undo (WsFindingList *self)
{
  GPtrArray *snapshot = g_ptr_array_new_full (self->items->len, g_object_unref);

  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (snapshot, ws_finding_copy (g_ptr_array_index (self->items, i)));
  g_ptr_array_add (self->undo, snapshot);
  if (self->undo->len > MAX_UNDO)
    g_ptr_array_remove_index (self->undo, 0);
}

static void
changed (WsFindingList *self,
         guint          position,
         guint          removed,
         guint          added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

guint
ws_finding_list_get_n (WsFindingList *self)
{
  g_return_val_if_fail (WS_IS_FINDING_LIST (self), 0);
  return self->items->len;
}

/* Returns: (transfer none): the finding at @position */
WsFinding *
ws_finding_list_get (WsFindingList *self,
                     guint          position)
{
  g_return_val_if_fail (WS_IS_FINDING_LIST (self), NULL);
  g_return_val_if_fail (position < self->items->len, NULL);
  return g_ptr_array_index (self->items, position);
}

/* Returns: the position of the finding with @id, or G_MAXUINT */
guint
ws_finding_list_find (WsFindingList *self,
                      const char    *id)
{
  g_return_val_if_fail (WS_IS_FINDING_LIST (self), G_MAXUINT);

  for (guint i = 0; i < self->items->len; i++)
    if (g_strcmp0 (ws_finding_get_id (g_ptr_array_index (self->items, i)), id) == 0)
      return i;
  return G_MAXUINT;
}

void
ws_finding_list_append (WsFindingList *self,
                        WsFinding     *finding)
{
  g_return_if_fail (WS_IS_FINDING_LIST (self));
  g_return_if_fail (WS_IS_FINDING (finding));

  push_undo (self);
  g_ptr_array_add (self->items, g_object_ref (finding));
  watch (self, finding);
  changed (self, self->items->len - 1, 0, 1);
}

void
ws_finding_list_remove (WsFindingList *self,
                        guint          position)
{
  g_return_if_fail (WS_IS_FINDING_LIST (self));
  g_return_if_fail (position < self->items->len);

  push_undo (self);
  unwatch (g_ptr_array_index (self->items, position), self);
  g_ptr_array_remove_index (self->items, position);
  changed (self, position, 1, 0);
}

void
ws_finding_list_move (WsFindingList *self,
                      guint          from,
                      guint          to)
{
  gpointer item;

  g_return_if_fail (WS_IS_FINDING_LIST (self));
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
ws_finding_list_edit (WsFindingList *self,
                      guint          position,
                      const char    *title,
                      const char    *note)
{
  WsFinding *finding;

  g_return_if_fail (WS_IS_FINDING_LIST (self));
  g_return_if_fail (position < self->items->len);

  finding = g_ptr_array_index (self->items, position);
  if ((title == NULL || g_str_equal (title, ws_finding_get_title (finding))) &&
      (note == NULL || g_str_equal (note, ws_finding_get_note (finding))))
    return;
  push_undo (self);
  if (title != NULL)
    ws_finding_set_title (finding, title);
  if (note != NULL)
    ws_finding_set_note (finding, note);
}

/* Empties the list and its undo history (a new or reopened session). */
void
ws_finding_list_clear (WsFindingList *self)
{
  guint n;

  g_return_if_fail (WS_IS_FINDING_LIST (self));

  n = self->items->len;
  g_ptr_array_foreach (self->items, unwatch, self);
  g_ptr_array_set_size (self->items, 0);
  g_ptr_array_set_size (self->undo, 0);
  if (n > 0)
    changed (self, 0, n, 0);
}

void
ws_finding_list_clear_undo (WsFindingList *self)
{
  g_return_if_fail (WS_IS_FINDING_LIST (self));
  g_ptr_array_set_size (self->undo, 0);
}

gboolean
ws_finding_list_can_undo (WsFindingList *self)
{
  g_return_val_if_fail (WS_IS_FINDING_LIST (self), FALSE);
  return self->undo->len > 0;
}

gboolean
ws_finding_list_undo (WsFindingList *self)
{
  g_autoptr(GPtrArray) snapshot = NULL;
  guint n_old;

  g_return_val_if_fail (WS_IS_FINDING_LIST (self), FALSE);

  if (self->undo->len == 0)
    return FALSE;
  snapshot = g_ptr_array_steal_index (self->undo, self->undo->len - 1);
  n_old = self->items->len;
  g_ptr_array_foreach (self->items, unwatch, self);
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < snapshot->len; i++)
    {
      WsFinding *finding = g_ptr_array_index (snapshot, i);
      g_ptr_array_add (self->items, g_object_ref (finding));
      watch (self, finding);
    }
  changed (self, 0, n_old, self->items->len);
  return TRUE;
}
