/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * The hand-built two-thread trace of the timeline tests (times in ns):
 *
 *   A (pid 10, tid 10, "waiter"):
 *     RUN   [1000, 1600)
 *     WAIT  [1600, 2600) S, stack main→lock_acquire→futex_wait,
 *           woken by B's UNWAIT at 2600, ready latency 100 → READY [2600, 2700)
 *     RUN   [2700, 3000)
 *     PREEMPT [3000, 3050)
 *     RUN   [3050, 3200), CPU sample at 3100
 *     WAIT  [3200, 5000) D, no wake-up recorded (readier unknown)
 *   B (pid 20, tid 20, "waker"):
 *     RUN   [2500, 2700), UNWAIT of A at 2600, stack main→unlock→futex_wake
 */
typedef struct {
  guint thread_a;
  guint thread_b;
  guint wait_s;      /* event index of A's S wait */
  guint wait_d;      /* event index of A's D wait */
  guint unwait;      /* event index of B's UNWAIT */
  guint run_b;       /* B's run span */
} WsTestTimelineTrace;

WsTrace *ws_test_timeline_trace_new (WsTestTimelineTrace *ids);

G_END_DECLS
