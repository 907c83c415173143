/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-scenario-rules.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsTraceFormat:
 * @WS_TRACE_FORMAT_UNKNOWN: none that Waitscope reads
 * @WS_TRACE_FORMAT_JSON: the Waitscope JSON trace format
 * @WS_TRACE_FORMAT_PERF_TEXT: `perf script` output
 * @WS_TRACE_FORMAT_PERF_DATA: a binary `perf.data` recording (not read
 *   directly: the error says how to convert it)
 */
typedef enum {
  WS_TRACE_FORMAT_UNKNOWN,
  WS_TRACE_FORMAT_JSON,
  WS_TRACE_FORMAT_PERF_TEXT,
  WS_TRACE_FORMAT_PERF_DATA,
} WsTraceFormat;

WsTraceFormat  ws_trace_loader_sniff        (const char          *path,
                                             gboolean            *compressed,
                                             GCancellable        *cancellable,
                                             GError             **error);
WsTrace       *ws_trace_loader_load         (const char          *path,
                                             WsStackTable        *stacks,
                                             WsProgressFunc       progress,
                                             gpointer             progress_data,
                                             GCancellable        *cancellable,
                                             GError             **error);
WsTrace       *ws_trace_loader_load_full    (const char          *path,
                                             WsStackTable        *stacks,
                                             WsScenarioRules     *rules,
                                             WsProgressFunc       progress,
                                             gpointer             progress_data,
                                             GCancellable        *cancellable,
                                             GError             **error);
void           ws_trace_loader_load_async   (const char          *path,
                                             WsStackTable        *stacks,
                                             WsScenarioRules     *rules,
                                             WsProgressFunc       progress,
                                             gpointer             progress_data,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
WsTrace       *ws_trace_loader_load_finish  (GAsyncResult        *result,
                                             GError             **error);

G_END_DECLS
