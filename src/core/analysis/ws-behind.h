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

/* Called for each competing thread with its time inside the window. */
typedef void (*WsBehindFunc) (guint    thread,
                              WsTime   time,
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
/* The threads of other processes than @waiting's in uninterruptible
 * sleep (state D) in [@start, @end), each with its overlap. */
void           ws_behind_index_disk (WsBehindIndex *self,
                                     WsTime         start,
                                     WsTime         end,
                                     guint          waiting,
                                     WsBehindFunc   func,
                                     gpointer       user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsBehindIndex, ws_behind_index_free)

G_END_DECLS
