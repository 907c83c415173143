/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path-renderer.h"
#include "ws-graph-scene.h"
#include "ws-stack-search.h"

G_BEGIN_DECLS

/*
 * WsNodeDetails: the graph page's side panel.  For a node of a wait graph
 * or ready tree (or a segment of a critical path) it lists who, when, how
 * long and why, and shows the whole waiting stack and the stack of
 * whoever readied it, leaf on top, with the search's matching frames
 * highlighted.  Its "Show in Timeline" button activates
 * graph.show-in-timeline on the page.
 */
#define WS_TYPE_NODE_DETAILS (ws_node_details_get_type ())
G_DECLARE_FINAL_TYPE (WsNodeDetails, ws_node_details, WS, NODE_DETAILS, GtkWidget)

gboolean    ws_node_details_show_node      (WsNodeDetails  *self,
                                            WsTrace        *trace,
                                            WsGraphScene   *scene,
                                            guint           node,
                                            WsStackSearch  *search);
gboolean    ws_node_details_show_segment   (WsNodeDetails  *self,
                                            WsTrace        *trace,
                                            WsCriticalPath *path,
                                            guint           segment,
                                            WsStackSearch  *search);
void        ws_node_details_add_row        (WsNodeDetails  *self,
                                            const char     *name,
                                            const char     *value);
void        ws_node_details_add_extra      (WsNodeDetails  *self,
                                            GtkWidget      *widget);
const char *ws_node_details_get_title      (WsNodeDetails  *self);
const char *ws_node_details_get_stack_text (WsNodeDetails  *self,
                                            gboolean        readier);

G_END_DECLS
