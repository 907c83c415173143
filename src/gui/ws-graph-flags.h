/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-graph-anomalies.h"
#include "ws-graph-view.h"
#include "ws-node-details.h"
#include "ws-session.h"

G_BEGIN_DECLS

/*
 * WsGraphFlags: the anomaly side of the Graph page, kept out of
 * ws-graph-page.c.  It gives the graph view the anomaly layer of the
 * scene shown (marks, the chain through anomalous waits, the legend),
 * made again whenever the scene or the scores change (after each flag),
 * and the legend of the marks in the side panel when the graph has any,
 * and lets the analyst flag the selected node: a context menu (right
 * click, Menu or Shift+F10 on the graph) and the window's flag keys
 * (Ctrl+Alt+A / N / U act on the graph's node when the graph has the
 * focus); N / Shift+N step through the anomalous nodes (the patent's
 * "Next" key).  Flags go through the session's #WsAnomalyState, like the
 * timeline's: saved at once in the history store, then the models are
 * fitted again and the drawing follows.
 */
#define WS_TYPE_GRAPH_FLAGS (ws_graph_flags_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphFlags, ws_graph_flags, WS, GRAPH_FLAGS, GObject)

WsGraphFlags     *ws_graph_flags_new               (GtkWidget     *page,
                                                    WsGraphView   *view,
                                                    WsNodeDetails *details);
void              ws_graph_flags_set_session       (WsGraphFlags  *self,
                                                    WsSession     *session);
WsGraphAnomalies *ws_graph_flags_get_anomalies     (WsGraphFlags  *self);
void              ws_graph_flags_fill_details      (WsGraphFlags  *self,
                                                    WsNodeDetails *details,
                                                    guint          node);
WsDocument       *ws_graph_flags_get_selected_wait (WsGraphFlags  *self,
                                                    guint         *event);
gboolean          ws_graph_flags_flag_selected     (WsGraphFlags  *self,
                                                    WsAnomalyFlag  verdict,
                                                    GError       **error);
void              ws_graph_flags_popup_menu        (WsGraphFlags  *self,
                                                    double         x,
                                                    double         y);

G_END_DECLS
