/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"
#include "ws-trace-stats.h"

G_BEGIN_DECLS

/* A thread's totals (ws-trace-stats.h), and which thread. */
typedef struct {
  guint          thread;
  WsThreadTotals totals;
} WsThreadSummary;

/* What `info` says of a trace: every thread, most time waiting first
 * (ties by thread index), one entry per thread. */
WsThreadSummary *ws_trace_summary_threads   (WsTrace *trace);
/* The @top costliest waits' event indices, costliest first; equal costs
 * in time order, so the list is stable. */
GArray          *ws_trace_summary_top_waits (WsTrace *trace,
                                             guint    top);
/* The name of event flag bit @bit (WS_EVENT_FLAG_*), or %NULL. */
const char      *ws_event_flag_name         (guint    bit);
/* The name of @thread's process, or %NULL when none was recorded. */
const char      *ws_trace_summary_process_name (WsTrace        *trace,
                                                const WsThread *thread);

G_END_DECLS
