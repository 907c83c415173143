/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-importer.h"
#include "ws-progress.h"
#include "ws-scenario-rules.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsTraceMapFunc:
 * @index: the trace's place among the paths
 *
 * What ws_trace_loader_fold_many() keeps of one loaded trace (it must not
 * point into the trace); called on a loading thread.
 *
 * Returns: (transfer full): the part, or %NULL with @error set
 */
typedef gpointer (*WsTraceMapFunc)  (guint          index,
                                     WsTrace       *trace,
                                     gpointer       data,
                                     GCancellable  *cancellable,
                                     GError       **error);
/**
 * WsTraceFoldFunc:
 * @part: (transfer full): a #WsTraceMapFunc's part, taken even on failure
 *
 * Returns: %FALSE with @error set to stop the fold
 */
typedef gboolean (*WsTraceFoldFunc) (guint          index,
                                     gpointer       part,
                                     gpointer       data,
                                     GError       **error);

/**
 * WsTraceFailFunc:
 * @index: the trace's place among the paths
 * @error: (transfer full): why it could not be loaded or mapped (the
 *   loader's message names the file and the place)
 *
 * Takes a trace ws_trace_loader_fold_many_full() passes by.
 */
typedef void     (*WsTraceFailFunc) (guint          index,
                                     GError        *error,
                                     gpointer       data);

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
gboolean       ws_trace_loader_fold_many    (char               **paths,
                                             WsScenarioRules     *rules,
                                             GCancellable        *cancellable,
                                             WsTraceMapFunc       map,
                                             WsTraceFoldFunc      fold,
                                             GDestroyNotify       free_part,
                                             gpointer             data,
                                             GError             **error);
gboolean       ws_trace_loader_fold_many_full (char             **paths,
                                               WsScenarioRules   *rules,
                                               GCancellable      *cancellable,
                                               WsTraceMapFunc     map,
                                               WsTraceFoldFunc    fold,
                                               WsTraceFailFunc    failed,
                                               GDestroyNotify     free_part,
                                               gpointer           data,
                                               GError           **error);
GStrv          ws_trace_loader_expand_folder (const char       *path,
                                              GError          **error);
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
