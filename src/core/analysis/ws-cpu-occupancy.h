/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsCpuOccupancy: which thread was on which CPU when, from the trace's
 * exact on-CPU spans (RUNNING events with %WS_EVENT_FLAG_SPAN, derived
 * from sched_switch pairs; the idle task has none).  Answers "who had the
 * CPUs while this thread waited for one" — the step behind a wait for a
 * CPU — for the thread picker and attribution.
 */
typedef struct _WsCpuOccupancy WsCpuOccupancy;

/* Called for each thread that ran in a window, with its time there (ns). */
typedef void (*WsCpuOccupancyFunc) (guint    thread,
                                    WsTime   time,
                                    gpointer user_data);

WsCpuOccupancy *ws_cpu_occupancy_new     (WsTrace        *trace);
void            ws_cpu_occupancy_free    (WsCpuOccupancy *self);
/* Whether the trace has on-CPU spans at all (sched_switch recorded). */
gboolean        ws_cpu_occupancy_has_spans (WsCpuOccupancy *self);
/*
 * ws_cpu_occupancy_foreach:
 * Calls @func for every piece of on-CPU time in [@start, @end) on any CPU
 * (a thread may be reported more than once: once per span).
 *
 * Returns: the summed time reported
 */
WsTime          ws_cpu_occupancy_foreach (WsCpuOccupancy     *self,
                                          WsTime              start,
                                          WsTime              end,
                                          WsCpuOccupancyFunc  func,
                                          gpointer            user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCpuOccupancy, ws_cpu_occupancy_free)

G_END_DECLS
