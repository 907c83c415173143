/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The flame graph's one entry point: a selection of a trace (every thread
 * or some, the whole trace or a window) folded as `collapse` folds it,
 * merged into a WsFlameTree.  The GUI's page and `waitscope-cli
 * flamegraph` both call ws_flame_run().
 */

#include <gio/gio.h>

#include "ws-flame-tree.h"
#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsFlameMode:
 * @WS_FLAME_ON_CPU: where the CPU time went: the trace's CPU samples
 *   (weighted by their period), or its switch-in → switch-out spans when
 *   it has no samples
 * @WS_FLAME_OFF_CPU: where threads blocked: each wait under its waiting
 *   stack, width = blocked time
 * @WS_FLAME_OFF_WAKE: off-CPU with the readier's stack stacked above each
 *   waiting stack after a "--" frame, leaf first, as offwaketime draws it
 */
typedef enum {
  WS_FLAME_ON_CPU,
  WS_FLAME_OFF_CPU,
  WS_FLAME_OFF_WAKE,
  WS_N_FLAME_MODES
} WsFlameMode;

/**
 * WsFlameScope:
 * @WS_FLAME_SCOPE_TRACE: every thread over the whole trace
 * @WS_FLAME_SCOPE_WINDOW: every thread over the window selected
 * @WS_FLAME_SCOPE_THREAD: the selected thread over the window selected
 *
 * What the Flame Graph page folds; a flame pin keeps it by name
 * ("trace", "window", "thread").
 */
typedef enum {
  WS_FLAME_SCOPE_TRACE,
  WS_FLAME_SCOPE_WINDOW,
  WS_FLAME_SCOPE_THREAD,
} WsFlameScope;

/* One table for the CLI's option values and the GUI's dropdown. */
typedef struct {
  WsFlameMode  mode;
  const char  *name;     /* "on-cpu", in JSON and options */
  const char  *label;    /* N_(): "On-CPU" */
} WsFlameModeInfo;

const WsFlameModeInfo *ws_flame_mode_get_info (WsFlameMode mode);

/**
 * WsFlameUnit:
 * @WS_FLAME_UNIT_NS: weights are nanoseconds (waits, spans, and samples of
 *   a clock event such as cpu-clock)
 * @WS_FLAME_UNIT_PERIOD: weights are the sample periods of @event (cycles,
 *   instructions…), or sample counts where the samples had none
 */
typedef enum {
  WS_FLAME_UNIT_NS,
  WS_FLAME_UNIT_PERIOD,
} WsFlameUnit;

/**
 * WsFlameSettings:
 * @mode: what the widths measure
 * @event: (nullable): on-CPU: the sample event (default: the first)
 * @has_window: only [@window_start, @window_end): samples taken in it, the
 *   part of each wait or span inside it
 * @threads: (nullable) (array length=n_threads): only these threads
 *   (indices into the trace); %NULL: every thread
 */
typedef struct {
  WsFlameMode  mode;
  const char  *event;
  gboolean     has_window;
  WsTime       window_start;
  WsTime       window_end;
  const guint *threads;
  guint        n_threads;
} WsFlameSettings;

void ws_flame_settings_init (WsFlameSettings *settings);

/**
 * WsFlameGraph:
 * @tree: the frames
 * @mode: as asked
 * @unit: what a weight counts
 * @event: (nullable): on-CPU from samples: the event folded
 * @from_spans: on-CPU: the trace had no samples, the spans were folded
 */
typedef struct {
  WsFlameTree *tree;
  WsFlameMode  mode;
  WsFlameUnit  unit;
  char        *event;
  gboolean     from_spans;
} WsFlameGraph;

WsFlameGraph *ws_flame_run        (WsTrace               *trace,
                                   const WsFlameSettings *settings,
                                   GCancellable          *cancellable,
                                   WsProgressFunc         progress,
                                   gpointer               progress_data,
                                   GError               **error);
void          ws_flame_graph_free (WsFlameGraph          *graph);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFlameGraph, ws_flame_graph_free)

G_END_DECLS
