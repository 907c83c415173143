/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-importer.h"
#include "ws-progress.h"
#include "ws-scenario-rules.h"
#include "ws-trace.h"

G_BEGIN_DECLS

const WsImporter *ws_trace_loader_sniff     (const char          *path,
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
GPtrArray     *ws_trace_loader_load_many    (char               **paths,
                                             WsStackTable        *stacks,
                                             WsScenarioRules     *rules,
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
