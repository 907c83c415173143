/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-anomaly-detector.h"
#include "ws-critical-path-renderer.h"
#include "ws-graph-scene.h"

G_BEGIN_DECLS

/**
 * WsGraphMode:
 * @WS_GRAPH_MODE_READY_TREE: the patent's ready tree of the window's
 *   longest (lock-related) wait
 * @WS_GRAPH_MODE_WAIT_GRAPH: StackMine's wait graph of the window
 * @WS_GRAPH_MODE_CRITICAL_PATH: the sequence of running and waiting spans
 *   that determined the end of the window (#WsCriticalPath)
 *
 * The values are the positions in the page's mode drop-down.
 */
typedef enum {
  WS_GRAPH_MODE_READY_TREE,
  WS_GRAPH_MODE_WAIT_GRAPH,
  WS_GRAPH_MODE_CRITICAL_PATH,
} WsGraphMode;

/*
 * WsGraphRequest: what the graph page asks for (a symptom, a mode and the
 * ready tree's options), built in a worker thread into a WsGraphResult: a
 * laid-out scene for the graphs, or a critical path.
 */
typedef struct {
  WsTrace       *trace;
  WsSymptom      symptom;
  guint          root_event;      /* the ready tree's root wait, or WS_NONE */
  WsGraphMode    mode;
  WsChainMetric  metric;
  gboolean       lock_only;
  guint          depth;
  WsAnomalyResult *anomalies;     /* (nullable): marks the ready tree's anomalous waits */
  guint          anomaly_trace;
} WsGraphRequest;

typedef struct {
  WsGraphScene   *scene;
  WsCriticalPath *path;
} WsGraphResult;

void  ws_graph_request_free          (WsGraphRequest *request);
void  ws_graph_request_run_in_thread (GTask          *task,
                                      gpointer        source_object,
                                      gpointer        task_data,
                                      GCancellable   *cancellable);
void  ws_graph_result_free           (WsGraphResult  *result);
char *ws_graph_result_dup_summary    (WsGraphResult  *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsGraphResult, ws_graph_result_free)

G_END_DECLS
