/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-critical-path-view.h"
#include "ws-graph-columns.h"
#include "ws-graph-flags.h"
#include "ws-graph-request.h"
#include "ws-graph-view.h"
#include "ws-inspector-panel.h"
#include "ws-page.h"
#include "ws-session.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

#define WS_GRAPH_PAGE_DEFAULT_DEPTH 10

/*
 * WsGraphPage: the wait graph / ready tree / critical path view of a
 * symptom ⟨thread, t0, t1⟩: a toolbar (mode, chain metric, lock-related
 * only, depth limit, a
 * regular-expression search over the nodes' stacks whose matches Tab /
 * Shift+Tab, Enter / F3 / Shift+F3 cycle through, zoom and fit, export as
 * PNG, SVG, PDF, DOT or JSON), the graph (#WsGraphView) or the same nodes
 * as a table, and a side panel with the selected node's details: its
 * whole waiting stack and the stack of whoever readied it, and a button
 * that shows the node in the timeline (::show-in-timeline).
 *
 * In Critical Path mode the graph gives way to a #WsCriticalPathView with
 * a table of the path's segments under it; a click on a segment shows it
 * in the side panel.
 *
 * The Inspector (a toolbar toggle, and ws_graph_page_inspect_trace())
 * lists the over- and under-connections of the symptom's wait graph or of
 * the whole trace; choosing one highlights its waits in the graph or path
 * and asks the timeline to highlight them too (::show-events).
 *
 * Graphs and inspections are built off the main thread; asking for
 * another one cancels the one being built.
 */
#define WS_TYPE_GRAPH_PAGE (ws_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphPage, ws_graph_page, WS, GRAPH_PAGE, WsPage)

GtkWidget      *ws_graph_page_new              (void);
void            ws_graph_page_show_symptom     (WsGraphPage     *self,
                                                WsTrace         *trace,
                                                const WsSymptom *symptom,
                                                WsGraphMode      mode);
void            ws_graph_page_show_event       (WsGraphPage     *self,
                                                WsTrace         *trace,
                                                guint           event,
                                                WsGraphMode      mode);
gboolean        ws_graph_page_get_symptom      (WsGraphPage     *self,
                                                WsSymptom       *symptom,
                                                guint           *root_event);
void            ws_graph_page_set_mode         (WsGraphPage     *self,
                                                WsGraphMode      mode);
void            ws_graph_page_forget_trace     (WsGraphPage     *self,
                                                WsTrace         *trace);
WsTrace        *ws_graph_page_get_trace        (WsGraphPage     *self);
const WsGraphShown *ws_graph_page_get_shown    (WsGraphPage     *self);
WsGraphFlags   *ws_graph_page_get_flags        (WsGraphPage     *self);

void            ws_graph_page_set_search_text  (WsGraphPage     *self,
                                                const char      *text);
void            ws_graph_page_set_search       (WsGraphPage     *self,
                                                WsStackSearch   *search);
void            ws_graph_page_next_match       (WsGraphPage     *self,
                                                gboolean         forward);
void            ws_graph_page_select_node      (WsGraphPage     *self,
                                                guint            node);
void            ws_graph_page_show_table       (WsGraphPage     *self,
                                                gboolean         table);
gboolean        ws_graph_page_export           (WsGraphPage     *self,
                                                const char      *path,
                                                GError         **error);

/* Critical Path mode */
void            ws_graph_page_select_segment         (WsGraphPage     *self,
                                                      guint            segment);

/* The inspector */
void            ws_graph_page_show_inspector         (WsGraphPage     *self,
                                                      gboolean         show);
void            ws_graph_page_inspect_trace          (WsGraphPage     *self,
                                                      WsTrace         *trace);
GArray         *ws_graph_page_get_bridging_threads   (WsGraphPage     *self);

G_END_DECLS
