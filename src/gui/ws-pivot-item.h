/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-pivot.h"

G_BEGIN_DECLS

/*
 * WsPivotItem: one row of a pivot table as a GObject, so that a
 * GtkColumnView can sort on its properties ("label", "time", "count",
 * "share") and a GtkTreeListModel can ask for its children.  Items of one
 * table share the table (reference counted), so a row outlives a newer
 * run while GTK still holds it.
 */
#define WS_TYPE_PIVOT_ITEM (ws_pivot_item_get_type ())
G_DECLARE_FINAL_TYPE (WsPivotItem, ws_pivot_item, WS, PIVOT_ITEM, GObject)

GListModel       *ws_pivot_item_new_list     (WsPivot           *pivot);
const WsPivot    *ws_pivot_item_list_get_pivot (GListModel     *list);
GListModel       *ws_pivot_item_get_children (WsPivotItem       *self);
const WsPivotRow *ws_pivot_item_get_row      (WsPivotItem       *self);
WsTrace          *ws_pivot_item_get_trace    (WsPivotItem       *self);
double            ws_pivot_item_get_share    (WsPivotItem       *self);

G_END_DECLS
