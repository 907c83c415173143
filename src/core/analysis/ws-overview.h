/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-attribution.h"
#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsOverviewInstance:
 * @target: the instance (trace, thread, window, instance index)
 * @top_cause: (nullable): the label of its top cause
 * @top_share: that cause's share of the instance
 */
typedef struct {
  WsAttributionTarget target;
  char               *top_cause;
  double              top_share;
} WsOverviewInstance;

/**
 * WsOverviewCluster:
 * @label: what the top cluster's costliest pattern blocks in, as a cause
 *   signature ("epoll_wait ← ProcSleep"), or its leaf function
 * @frames: (array zero-terminated=1): that pattern, "function (module)"
 *   lines, caller first
 * @total_cost: the cluster's total cost (ns)
 * @n_events: its events
 * @n_patterns: its patterns
 * @n_left_out: waits the default scope left out (delayed nobody)
 * @left_out_time: their time (ns)
 */
typedef struct {
  char    *label;
  char   **frames;
  gint64   total_cost;
  guint64  n_events;
  guint    n_patterns;
  guint64  n_left_out;
  gint64   left_out_time;
} WsOverviewCluster;

/*
 * WsOverview: the first answer to "what made it slow?" for a set of traces
 * — what the Overview page shows (docs/attribution.md):
 *
 *  - the scenario instances and their durations, sorted;
 *  - the slowest instances, each with its top cause;
 *  - the attribution summed over the slowest 10 % of the instances, or,
 *    with no instances, over the threads that waited longest for other
 *    threads (ws_attribution_targets_waiting_threads());
 *  - the top cluster of the waits that delayed another thread (the
 *    default mining scope, ws_aoi_scope_delaying()).
 */
#define WS_TYPE_OVERVIEW (ws_overview_get_type ())
G_DECLARE_FINAL_TYPE (WsOverview, ws_overview, WS, OVERVIEW, GObject)

#define WS_OVERVIEW_N_SLOWEST 5

/*
 * ws_overview_compute:
 * @traces: (element-type WsTrace): the traces
 * @settings: (nullable): classifier, cancellable, progress
 *
 * Returns: (transfer full): the overview, or %NULL with @error set
 *   (WS_ERROR_CANCELLED)
 */
WsOverview               *ws_overview_compute            (GPtrArray                   *traces,
                                                          const WsAttributionSettings *settings,
                                                          GError                     **error);

/* Durations of every scenario instance, ascending (ns). */
const WsTime             *ws_overview_get_durations      (WsOverview *self,
                                                          guint      *n);
guint                     ws_overview_get_n_slowest      (WsOverview *self);
const WsOverviewInstance *ws_overview_get_slowest        (WsOverview *self,
                                                          guint       index);
WsAttribution            *ws_overview_get_attribution    (WsOverview *self);
/* What the attribution explains, translated ("the slowest 10 % …"). */
const char               *ws_overview_get_explained      (WsOverview *self);
/* The targets the attribution summed, slowest first. */
GArray                   *ws_overview_get_targets        (WsOverview *self);
/* (nullable): no cluster when nothing was mined. */
const WsOverviewCluster  *ws_overview_get_top_cluster    (WsOverview *self);

G_END_DECLS
