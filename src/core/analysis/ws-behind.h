/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * The step behind a cause (docs/attribution.md, "Behind the cause"): who
 * had the CPUs while a thread waited for one, and which other processes
 * were in uninterruptible sleep (their own I/O: the disk's queue) while a
 * thread waited for its own.  One index per trace.
 */
typedef struct _WsBehindIndex WsBehindIndex;

/**
 * WsBehindWhat:
 * @WS_BEHIND_CPU: on a CPU while the thread waited for one
 * @WS_BEHIND_SLEEP: in uninterruptible sleep while the thread waited
 *   for its own I/O (no block requests recorded)
 * @WS_BEHIND_REQUESTS: had block requests in flight on the same device
 *   while the thread waited for its own I/O
 */
typedef enum {
  WS_BEHIND_CPU,
  WS_BEHIND_SLEEP,
  WS_BEHIND_REQUESTS,
} WsBehindWhat;

/* Called for each competing thread with its time inside the window (for
 * requests: the time it had at least one request in flight) and, for
 * requests, their bytes in proportion to their part inside the window,
 * and their device; else 0 and 0. */
typedef void (*WsBehindFunc) (guint    thread,
                              WsTime   time,
                              guint64  bytes,
                              guint32  device,
                              gpointer user_data);

WsBehindIndex *ws_behind_index_new  (WsTrace       *trace);
void           ws_behind_index_free (WsBehindIndex *self);

/* The threads that ran on any CPU in [@start, @end), but @waiting. */
void           ws_behind_index_cpu  (WsBehindIndex *self,
                                     WsTime         start,
                                     WsTime         end,
                                     guint          waiting,
                                     WsBehindFunc   func,
                                     gpointer       user_data);
/* What the disk did meanwhile.  When the trace has block requests: the
 * threads of other processes than @waiting's that had requests in flight
 * on the devices @waiting's process issued to in [@start, @end) (on every
 * device when it issued none there: its I/O went through a kernel
 * worker), each with the time it had one in flight; otherwise the
 * threads of other processes in uninterruptible sleep (state D), each
 * with its overlap.  Returns which of the two it reported. */
WsBehindWhat   ws_behind_index_disk (WsBehindIndex *self,
                                     WsTime         start,
                                     WsTime         end,
                                     guint          waiting,
                                     WsBehindFunc   func,
                                     gpointer       user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsBehindIndex, ws_behind_index_free)

G_END_DECLS
