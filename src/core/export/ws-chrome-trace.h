/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The Chrome / Perfetto trace event JSON ("JSON Array Format" wrapped in an
 * object), so a trace opens in ui.perfetto.dev and chrome://tracing.
 */

#include <gio/gio.h>

#include "ws-trace.h"

G_BEGIN_DECLS

gboolean  ws_chrome_trace_write  (WsTrace       *trace,
                                  GOutputStream *out,
                                  GCancellable  *cancellable,
                                  GError       **error);
gboolean  ws_chrome_trace_save   (WsTrace       *trace,
                                  const char    *path,
                                  GCancellable  *cancellable,
                                  GError       **error);

G_END_DECLS
