/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-inspector.h"
#include "ws-progress.h"
#include "ws-symptom.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsInspectorSettings:
 * @symptom: the wait graph to inspect; a thread of %WS_NONE inspects every
 *   wait of the trace instead (only the checks that need no graph)
 * @graph: (nullable): an already built wait graph of @symptom, reused
 *   instead of building it again
 * @options: what counts as a finding (see #WsInspectorOptions); its
 *   classifier also builds the graph
 *
 * Initialise with ws_inspector_settings_init().
 */
typedef struct {
  WsSymptom           symptom;
  WsWaitGraph        *graph;
  WsInspectorOptions  options;
} WsInspectorSettings;

/**
 * WsInspectorResult:
 * @findings: (element-type WsFinding): the findings, most severe first
 * @n_waits: how many waits were inspected (the graph's, or the trace's)
 * @graph: (nullable): the wait graph inspected, %NULL for the whole trace
 */
typedef struct {
  GPtrArray   *findings;
  guint        n_waits;
  WsWaitGraph *graph;
} WsInspectorResult;

void               ws_inspector_settings_init (WsInspectorSettings       *settings,
                                               const WsSymptom           *symptom);
void               ws_inspector_result_free   (WsInspectorResult         *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsInspectorResult, ws_inspector_result_free)

/*
 * ws_inspector_run:
 * The one entry point of the inspector, for the CLI and the GUI alike.
 * May run in any thread.  @progress (nullable) is called from that thread
 * as the graph is built and as it is inspected; @cancellable is polled
 * between those steps and while the graph grows.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *   (WS_ERROR_INVALID for a bad thread or window, G_IO_ERROR_CANCELLED)
 */
WsInspectorResult *ws_inspector_run           (WsTrace                   *trace,
                                               const WsInspectorSettings *settings,
                                               GCancellable              *cancellable,
                                               WsProgressFunc             progress,
                                               gpointer                   progress_data,
                                               GError                   **error);

G_END_DECLS
