/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * WsMiningItemKind:
 * @WS_MINING_ITEM_CLUSTER: a cluster of patterns (its children)
 * @WS_MINING_ITEM_PATTERN: one costly maximal pattern
 */
typedef enum {
  WS_MINING_ITEM_CLUSTER,
  WS_MINING_ITEM_PATTERN,
} WsMiningItemKind;

/*
 * WsMiningItem: one row of the Mining panel's cluster table: a cluster
 * with its four metrics (StackMine §II.B) and its patterns as children, or
 * a pattern with the same metrics of its own.  The properties are what
 * the table's columns show and sort by.
 */
#define WS_TYPE_MINING_ITEM (ws_mining_item_get_type ())
G_DECLARE_FINAL_TYPE (WsMiningItem, ws_mining_item, WS, MINING_ITEM, GObject)

WsMiningItem     *ws_mining_item_new              (WsMiningItemKind  kind,
                                                   guint             index,
                                                   guint             rank,
                                                   const char       *label,
                                                   const char       *tooltip,
                                                   gint64            total_cost,
                                                   guint             n_streams,
                                                   guint64           n_events);
WsMiningItemKind  ws_mining_item_get_kind         (WsMiningItem     *self);
guint             ws_mining_item_get_index        (WsMiningItem     *self);
guint             ws_mining_item_get_rank         (WsMiningItem     *self);
const char       *ws_mining_item_get_label        (WsMiningItem     *self);
const char       *ws_mining_item_get_tooltip      (WsMiningItem     *self);
gint64            ws_mining_item_get_total_cost   (WsMiningItem     *self);
guint             ws_mining_item_get_n_streams    (WsMiningItem     *self);
guint64           ws_mining_item_get_n_events     (WsMiningItem     *self);
double            ws_mining_item_get_average_cost (WsMiningItem     *self);
guint             ws_mining_item_get_cluster      (WsMiningItem     *self);
void              ws_mining_item_set_cluster      (WsMiningItem     *self,
                                                   guint             cluster);
GListModel       *ws_mining_item_get_children     (WsMiningItem     *self);
void              ws_mining_item_add_child        (WsMiningItem     *self,
                                                   WsMiningItem     *child);
gboolean          ws_mining_item_get_signature    (WsMiningItem     *self);
void              ws_mining_item_set_signature    (WsMiningItem     *self,
                                                   gboolean          signature);
gint64            ws_mining_item_get_discriminative (WsMiningItem   *self);
void              ws_mining_item_set_discriminative (WsMiningItem   *self,
                                                     gint64          score);

G_END_DECLS
