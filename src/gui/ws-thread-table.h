/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-lod.h"

G_BEGIN_DECLS

/*
 * WsThreadTable: the timeline's data as a sortable table, one row per
 * thread with its run, ready and wait totals: the accessible alternative
 * to the chart, and the quickest way to find the thread that waited most.
 * Activating a row emits ::thread-activated with the thread index.
 */
#define WS_TYPE_THREAD_TABLE (ws_thread_table_get_type ())
G_DECLARE_FINAL_TYPE (WsThreadTable, ws_thread_table, WS, THREAD_TABLE, GtkWidget)

GtkWidget *ws_thread_table_new       (void);
void       ws_thread_table_set_lod   (WsThreadTable *self,
                                      WsTimelineLod *lod);
GListModel*ws_thread_table_get_model (WsThreadTable *self);
guint      ws_thread_table_item_get_thread (gpointer item);

G_END_DECLS
