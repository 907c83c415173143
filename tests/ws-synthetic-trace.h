/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * A reproducible synthetic trace for rendering tests and benchmarks:
 * @n_processes processes of @threads_per_process threads, each thread
 * alternating exact run spans and waits (S 70 %, D 20 %, I 10 %), waits
 * ended by an UNWAIT of another thread (75 %), from interrupt context
 * (10 %) or not recorded at all (15 %, readier unknown), with ready
 * latencies, preemptions and 500 Hz CPU samples, until about @n_events
 * events exist.  Stacks come from a small fixed set of realistic frames.
 */
WsTrace *ws_synthetic_trace_new (guint   n_processes,
                                 guint   threads_per_process,
                                 guint   n_events,
                                 guint32 seed);

G_END_DECLS
