/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-inspector.h"
#include "ws-stack-search.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsInspectorScope:
 * @WS_INSPECTOR_SCOPE_GRAPH: the wait graph of the page's symptom
 *   (ws_inspect_wait_graph())
 * @WS_INSPECTOR_SCOPE_TRACE: the whole trace (ws_inspect_trace())
 */
typedef enum {
  WS_INSPECTOR_SCOPE_GRAPH,
  WS_INSPECTOR_SCOPE_TRACE,
} WsInspectorScope;

/*
 * WsInspectorPanel: the Inspector under the graph.  It inspects, off the
 * main thread, the wait graph of a symptom or a whole trace (the two
 * scope buttons), lists the over- and under-connections found, and
 * exports them as JSON or Markdown.  Choosing a finding emits
 * ::finding-selected with a search of its waits; ::findings-changed tells
 * the page to update its status-line button (ws_inspector_panel_dup_verdict())
 * and ::inspected that an inspection finished.
 */
#define WS_TYPE_INSPECTOR_PANEL (ws_inspector_panel_get_type ())
G_DECLARE_FINAL_TYPE (WsInspectorPanel, ws_inspector_panel, WS, INSPECTOR_PANEL, GtkWidget)

void              ws_inspector_panel_set_symptom        (WsInspectorPanel *self,
                                                         WsTrace          *trace,
                                                         const WsSymptom  *symptom,
                                                         WsWaitGraph      *graph);
gboolean          ws_inspector_panel_set_whole_trace    (WsInspectorPanel *self,
                                                         WsTrace          *trace);
void              ws_inspector_panel_inspect            (WsInspectorPanel *self);
void              ws_inspector_panel_set_scope          (WsInspectorPanel *self,
                                                         WsInspectorScope  scope);
WsInspectorScope  ws_inspector_panel_get_scope          (WsInspectorPanel *self);
gboolean          ws_inspector_panel_get_busy           (WsInspectorPanel *self);
GPtrArray        *ws_inspector_panel_get_findings       (WsInspectorPanel *self);
WsTrace          *ws_inspector_panel_get_inspected_trace(WsInspectorPanel *self);
char             *ws_inspector_panel_dup_finding_title  (WsInspectorPanel *self,
                                                         guint             finding);
char             *ws_inspector_panel_dup_verdict        (WsInspectorPanel *self,
                                                         const char      **icon_name);
void              ws_inspector_panel_select_finding     (WsInspectorPanel *self,
                                                         guint             finding);
GArray           *ws_inspector_panel_get_bridging_threads
                                                        (WsInspectorPanel *self);
gboolean          ws_inspector_panel_export_findings    (WsInspectorPanel *self,
                                                         const char       *path,
                                                         GError          **error);

G_END_DECLS
