/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path-renderer.h"
#include "ws-graph-scene.h"

G_BEGIN_DECLS

/*
 * WsGraphColumns: the graph page's two tables, the accessible twins of
 * its drawings: the scene's nodes (depth, what, thread, start, duration,
 * frame, highlight) and the critical path's segments.  Each row is a
 * #WsGraphRow holding an index; the columns read the scene, path and
 * matches shown from the #WsGraphShown the page keeps up to date.
 */
typedef struct {
  WsTrace        *trace;
  WsGraphScene   *scene;
  WsCriticalPath *path;
  GArray         *matches;   /* guint, nullable */
} WsGraphShown;

#define WS_TYPE_GRAPH_ROW (ws_graph_row_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphRow, ws_graph_row, WS, GRAPH_ROW, GObject)

WsGraphRow         *ws_graph_row_new                  (guint               index);
guint               ws_graph_row_get_index            (WsGraphRow         *row);

void                ws_graph_columns_fill             (GListStore         *rows,
                                                       guint               n);
GtkSingleSelection *ws_graph_columns_add_node_columns (GtkColumnView      *table,
                                                       GListStore         *rows,
                                                       const WsGraphShown *shown);
GtkSingleSelection *ws_graph_columns_add_segment_columns
                                                      (GtkColumnView      *table,
                                                       GListStore         *rows,
                                                       const WsGraphShown *shown);
void                ws_graph_columns_select_index     (GtkSingleSelection *selection,
                                                       guint               index);

/**
 * WsGraphIndexFunc:
 * @view: the drawn view
 * @index: a node or segment, or %WS_NONE
 */
typedef void (*WsGraphIndexFunc) (gpointer view,
                                  guint    index);

void                ws_graph_columns_bind_selection   (GtkSingleSelection *selection,
                                                       gpointer            view,
                                                       const char         *property,
                                                       WsGraphIndexFunc    select,
                                                       WsGraphIndexFunc    reveal,
                                                       GCallback           changed,
                                                       gpointer            changed_data);

G_END_DECLS
