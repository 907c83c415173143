/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Folded stacks ("comm;caller;…;leaf COUNT"), the input of flame-graph
 * tools.  Samples are folded exactly as stackcollapse-perf.pl folds the
 * same perf script text; waits are folded as off-CPU time, optionally with
 * the waker's stack after a "--" frame as offwaketime prints it.
 */

#include <gio/gio.h>

#include "ws-trace.h"

G_BEGIN_DECLS

typedef enum {
  WS_COLLAPSE_SAMPLES,
  WS_COLLAPSE_WAITS,
  WS_COLLAPSE_SPANS,           /* exact switch-in → switch-out spans (on-CPU time) */
} WsCollapseMode;

typedef enum {
  WS_COLLAPSE_NAME_COMM,       /* "comm" (stackcollapse-perf's default) */
  WS_COLLAPSE_NAME_PID,        /* "comm-PID" (--pid) */
  WS_COLLAPSE_NAME_TID,        /* "comm-PID/TID" (--tid) */
} WsCollapseName;

/**
 * WsCollapseOptions:
 * @mode: samples or waits
 * @event: samples: only this sample event (cycles, cpu-clock…); %NULL for
 *   the first one in the trace, as stackcollapse-perf.pl does
 * @name: how the first frame names the thread
 * @with_waker: waits: append "--", the waker's stack leaf first and its
 *   name (offwaketime's layout)
 * @wait_unit_ns: waits and spans: nanoseconds per count (1000:
 *   microseconds, as offcputime prints them)
 * @has_window: fold only what lies in [@window_start, @window_end): a
 *   sample whose time is in it, the part of a wait or span inside it
 * @threads: (nullable): fold only these threads (indices), @n_threads of
 *   them; %NULL for every thread
 *
 * The scope fields (window, threads) are the flame graph's selection: a
 * flame tree is these same lines, folded into a tree.
 */
typedef struct {
  WsCollapseMode  mode;
  const char     *event;
  WsCollapseName  name;
  gboolean        with_waker;
  WsTime          wait_unit_ns;
  gboolean        has_window;
  WsTime          window_start;
  WsTime          window_end;
  const guint    *threads;
  guint           n_threads;
} WsCollapseOptions;

void      ws_collapse_options_init  (WsCollapseOptions   *options);
char     *ws_collapse_tidy_function (const char          *function,
                                     const char          *module,
                                     gboolean             java);
GHashTable*ws_collapse_counts        (WsTrace             *trace,
                                     const WsCollapseOptions *options,
                                     const char         **event_used);
gboolean  ws_collapse_trace_has_samples (WsTrace         *trace);
GPtrArray*ws_collapse_lines         (WsTrace             *trace,
                                     const WsCollapseOptions *options,
                                     const char         **event_used);
gboolean  ws_collapse_write         (WsTrace             *trace,
                                     const WsCollapseOptions *options,
                                     GOutputStream       *out,
                                     GCancellable        *cancellable,
                                     GError             **error);

G_END_DECLS
