/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsThreadTotals:
 * @wait_total: the waits' costs summed, ns (as the events give them)
 * @run_total: exact on-CPU spans summed, ns
 * @sampled_total: CPU samples: count × period, ns
 * @preempt_total: preemptions summed, ns
 * @n_waits: WAIT events
 * @n_unknown: finished waits with no wake-up recorded
 *   (ws_wait_readier_is_unknown())
 * @n_hardware: waits ended from interrupt context
 * @n_samples: CPU samples
 * @longest_wait: the longest single wait, ns
 * @longest_wait_event: its event index (the first of equal ones), or
 *   %WS_NONE without waits
 *
 * One thread's totals over its events: `info` prints them, the Threads
 * table shows the counts (its times are the row's disjoint state spans,
 * ws-thread-state.h).
 */
typedef struct {
  WsTime wait_total;
  WsTime run_total;
  WsTime sampled_total;
  WsTime preempt_total;
  guint  n_waits;
  guint  n_unknown;
  guint  n_hardware;
  guint  n_samples;
  WsTime longest_wait;
  guint  longest_wait_event;
} WsThreadTotals;

void            ws_thread_totals_init      (WsThreadTotals *totals);
void            ws_thread_totals_add_event (WsThreadTotals *totals,
                                            WsTrace        *trace,
                                            guint           event);
WsThreadTotals *ws_trace_thread_totals     (WsTrace        *trace);
void            ws_thread_totals_in_window (WsTrace        *trace,
                                            guint           thread,
                                            WsTime          t0,
                                            WsTime          t1,
                                            WsThreadTotals *totals);

G_END_DECLS
