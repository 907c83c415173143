/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-history-store.h"
#include "ws-trace.h"

G_BEGIN_DECLS

guint     ws_anomaly_flag_find_wait (WsTrace       *trace,
                                     gint32         tid,
                                     WsTime         time);
void      ws_anomaly_flag_init      (WsWaitFlag    *flag,
                                     WsTrace       *trace,
                                     const char    *trace_digest,
                                     guint          event,
                                     const char    *signature,
                                     WsAnomalyFlag  verdict);
gboolean  ws_anomaly_flag_for_wait  (WsTrace       *trace,
                                     const char    *trace_digest,
                                     guint          event,
                                     guint          signature_depth,
                                     WsAnomalyFlag  verdict,
                                     gboolean       wait_only,
                                     WsWaitFlag    *flag);

G_END_DECLS
