/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-history-store.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* A flag saved under this prefix and its wait's signature judges that
 * wait only: the learning rule does not learn from it, so no other wait
 * changes (the GUI's "This Wait Only", `flag add --this-wait-only`). */
#define WS_ANOMALY_WAIT_ONLY_PREFIX "wait-only:"


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

void      ws_anomaly_flag_to_wait_only (WsWaitFlag *flag);

G_END_DECLS
