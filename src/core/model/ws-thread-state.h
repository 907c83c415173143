/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsThreadState:
 * @WS_THREAD_STATE_RUN: on a CPU (an exact switch-in → switch-out span)
 * @WS_THREAD_STATE_READY: runnable but not running: preempted, or woken
 *   and not yet switched in (the ready latency)
 * @WS_THREAD_STATE_SLEEP: blocked in S (interruptible sleep: locks, I/O
 *   waits in user space, timers)
 * @WS_THREAD_STATE_DISK: blocked in D (uninterruptible, mostly disk I/O)
 * @WS_THREAD_STATE_OTHER: blocked in another state (I idle, T, …)
 * @WS_THREAD_STATE_SLEEP_UNKNOWN: like SLEEP, but no wake-up was recorded:
 *   the readier is unknown
 * @WS_THREAD_STATE_DISK_UNKNOWN: like DISK, readier unknown
 * @WS_THREAD_STATE_OTHER_UNKNOWN: like OTHER, readier unknown
 *
 * What a timeline row shows at each instant.  Waits are the states from
 * SLEEP on; ws_thread_state_is_wait() tells.
 */
typedef enum {
  WS_THREAD_STATE_RUN,
  WS_THREAD_STATE_READY,
  WS_THREAD_STATE_SLEEP,
  WS_THREAD_STATE_DISK,
  WS_THREAD_STATE_OTHER,
  WS_THREAD_STATE_SLEEP_UNKNOWN,
  WS_THREAD_STATE_DISK_UNKNOWN,
  WS_THREAD_STATE_OTHER_UNKNOWN,
  WS_N_THREAD_STATES
} WsThreadState;

/* The states of the legend, the Threads table and the SQL view
 * thread_state_spans: the _UNKNOWN waits fold into their own state. */
#define WS_N_LEGEND_STATES (WS_THREAD_STATE_OTHER + 1)

/**
 * WsStateSpan:
 * @t0: start
 * @t1: end (> @t0)
 * @event: the event the span comes from: the RUNNING span, the PREEMPT,
 *   or the WAIT (for the wait itself and for the ready latency after it)
 * @state: its #WsThreadState
 *
 * One stretch of a timeline row, exact (level 0 of the timeline).
 */
typedef struct {
  WsTime  t0;
  WsTime  t1;
  guint32 event;
  guint8  state;
} WsStateSpan;

WsThreadState  ws_thread_state_for_wait       (const WsEvent  *wait);
gboolean       ws_thread_state_is_wait        (WsThreadState   state);
gboolean       ws_thread_state_is_unknown     (WsThreadState   state);
WsThreadState  ws_thread_state_to_legend      (WsThreadState   state);
const char    *ws_thread_state_get_label      (WsThreadState   state);
const char    *ws_thread_state_get_name       (WsThreadState   state);
const char    *ws_thread_state_to_string      (WsThreadState   state);

guint          ws_state_spans_of_event        (WsTrace        *trace,
                                               const WsEvent  *event,
                                               guint32         index,
                                               WsStateSpan     spans[2]);
void           ws_state_spans_normalize       (GArray         *spans);
GArray        *ws_thread_state_spans          (WsTrace        *trace,
                                               guint           thread);
guint          ws_state_spans_lower_bound     (const WsStateSpan *spans,
                                               guint           n,
                                               WsTime          time);

G_END_DECLS
