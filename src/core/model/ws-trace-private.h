/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The building side of WsTrace, for importers only.  An importer creates an
 * empty trace, adds threads and events in any order, then calls
 * ws_trace_finish(), which sorts events by time (remapping the peer links),
 * builds the per-thread indices and the process table.  Events are made
 * with ws_event_init() and the setters of ws-trace.h; a wait's ready
 * latency with ws_trace_set_wait_ready_latency().  A finished trace is
 * immutable but for scenario instances, and may be read from many threads.
 */

#include "ws-trace.h"

G_BEGIN_DECLS

WsTrace  *ws_trace_new               (const char   *path,
                                      WsStackTable *stacks);
void      ws_trace_set_name          (WsTrace      *self,
                                      const char   *name);
guint32   ws_trace_intern_string     (WsTrace      *self,
                                      const char   *str);
guint     ws_trace_ensure_thread     (WsTrace      *self,
                                      gint32        tid,
                                      gint32        pid);
void      ws_trace_forget_tid        (WsTrace      *self,
                                      gint32        tid);
void      ws_trace_bind_tid          (WsTrace      *self,
                                      gint32        tid,
                                      guint         thread);
void      ws_trace_set_thread_name   (WsTrace      *self,
                                      guint         thread,
                                      const char   *name);
void      ws_trace_add_thread_comm   (WsTrace      *self,
                                      guint         thread,
                                      WsTime        time,
                                      const char   *name);
/* perf's task records: when a thread ended, a process's parent, and the
 * header's command line (ws_trace_get_thread_exit_time() …). */
void      ws_trace_set_thread_exit   (WsTrace      *self,
                                      gint32        tid,
                                      WsTime        time);
void      ws_trace_set_process_parent (WsTrace     *self,
                                      gint32        pid,
                                      gint32        parent_pid);
void      ws_trace_set_record_command (WsTrace     *self,
                                      const char   *command);
/* The block layer's requests (ws-block-requests.h), created on first
 * use; ws_trace_finish() pairs them. */
WsBlockRequests *ws_trace_ensure_block_requests (WsTrace   *self);
void      ws_trace_set_process_name  (WsTrace      *self,
                                      gint32        pid,
                                      const char   *name);
guint     ws_trace_add_event         (WsTrace      *self,
                                      const WsEvent *event);
void      ws_trace_reserve_events    (WsTrace      *self,
                                      guint         n_events);
WsEvent  *ws_trace_peek_event        (WsTrace      *self,
                                      guint         index);
void      ws_trace_set_wait_ready_latency (WsTrace *self,
                                      guint         wait,
                                      guint32       latency);
void      ws_trace_add_scenario_instance (WsTrace  *self,
                                      const WsScenarioInstance *instance);
void      ws_trace_finish            (WsTrace      *self);

G_END_DECLS
