/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The Waitscope JSON trace format (docs/trace-format.md): a documented,
 * versioned, lossless serialisation of a #WsTrace, and a form people can
 * write by hand.  Reading streams the input (no document tree in memory) and
 * reports errors as "FILE:LINE: …"; writing streams too.
 */

#include <gio/gio.h>

#include "ws-importer.h"
#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

#define WS_JSON_TRACE_FORMAT  "waitscope-trace"
#define WS_JSON_TRACE_VERSION 1

WsImporterLoadFileFunc ws_json_trace_load;
WsTrace  *ws_json_trace_load_stream  (GInputStream   *stream,
                                      const char     *display_name,
                                      WsStackTable   *stacks,
                                      WsProgressFunc  progress,
                                      gpointer        progress_data,
                                      GCancellable   *cancellable,
                                      GError        **error);
WsImporterSniffFunc    ws_json_trace_sniff;

gboolean  ws_json_trace_save         (WsTrace        *trace,
                                      const char     *path,
                                      GCancellable   *cancellable,
                                      GError        **error);
void      ws_json_append_string      (GString        *buf,
                                      const char     *str);
gboolean  ws_json_trace_write_stream (WsTrace        *trace,
                                      GOutputStream  *stream,
                                      GCancellable   *cancellable,
                                      GError        **error);

G_END_DECLS
