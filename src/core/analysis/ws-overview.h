/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-attribution.h"
#include "ws-frame-classifier.h"
#include "ws-mining-run.h"
#include "ws-progress.h"
#include "ws-thread-picker.h"
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

/**
 * WsOverviewContrast:
 * @scenario: the scenario contrasted (that of the slowest instance)
 * @component: the component regex: the slowest instance's program
 * @pattern: the top contrast pattern, "⟨{w…}, {u…}, {r…}⟩", or %NULL when
 *   the run found none
 * @cost_per_occurrence: its P.C / P.N (ns)
 * @occurrences: its P.N
 * @high_impact: its costliest execution is longer than @t_slow
 * @n_patterns: contrast patterns found
 * @t_fast, @t_slow: the proposed thresholds (median, 90th percentile)
 * @n_fast, @n_slow: instances in each class
 *
 * The top contrast pattern between fast and slow scenario instances, with
 * the defaults of `waitscope-cli contrast` (ws_overview_top_contrast()).
 */
typedef struct {
  char    *scenario;
  char    *component;
  char    *pattern;
  WsTime   cost_per_occurrence;
  guint64  occurrences;
  gboolean high_impact;
  guint    n_patterns;
  WsTime   t_fast;
  WsTime   t_slow;
  guint    n_fast;
  guint    n_slow;
} WsOverviewContrast;

void ws_overview_contrast_free (WsOverviewContrast *contrast);
void ws_overview_cluster_free  (WsOverviewCluster  *cluster);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsOverviewCluster, ws_overview_cluster_free)

WsOverviewCluster        *ws_overview_cluster_from_run   (WsMiningResult         *run);
WsOverviewCluster        *ws_overview_top_cluster        (GPtrArray              *traces,
                                                          const WsMiningSettings *settings,
                                                          GCancellable           *cancellable,
                                                          GError                **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsOverviewContrast, ws_overview_contrast_free)

/*
 * ws_overview_top_contrast:
 * @classifier: (nullable)
 * The Overview's contrast line: contrast the fast and slow instances of the
 * slowest instance's scenario, component = that instance's program (its
 * process name, as `contrast --component postgres`).  Separate from
 * ws_overview_compute() because it costs as much again: reports that
 * embed the overview's causes do not pay for it.
 * Returns: (transfer full) (nullable): %NULL without scenario instances
 *   (no error) or with @error set
 */
WsOverviewContrast       *ws_overview_top_contrast       (GPtrArray         *traces,
                                                          WsFrameClassifier *classifier,
                                                          GCancellable      *cancellable,
                                                          GError           **error);

/*
 * WsOverview: the first answer to "what made it slow?" for a set of traces
 * — what the Overview page shows (docs/attribution.md):
 *
 *  - the scenario instances and their durations, sorted;
 *  - the slowest instances, each with its top cause;
 *  - the attribution summed over the slowest 10 % of the instances, or,
 *    with no instances, over the threads that waited longest for other
 *    threads (ws_attribution_targets_waiting_threads());
 *  The top cluster of the waits that delayed another thread (the
 *    default mining scope, ws_aoi_scope_delaying()) is apart:
 *    ws_overview_top_cluster(), so that the Overview mines with the Mining
 *    page's settings.
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

/* The same, explaining the program @choice names (nullable: the picker's;
 * the Overview's switch to the runner-up, `why --comm`). */
WsOverview               *ws_overview_compute_for        (GPtrArray                   *traces,
                                                          const WsAttributionSettings *settings,
                                                          const WsPickChoice          *choice,
                                                          GError                     **error);
/* (nullable): without scenario instances, the picker's choice in the
 * @index-th trace that had one. */
const WsThreadPick       *ws_overview_get_pick           (WsOverview *self,
                                                          guint       index);

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
/* (nullable): without scenario instances, one sentence per trace saying
 * which program the causes start from and why (ws_thread_pick_describe()). */
const char               *ws_overview_get_pick_reason    (WsOverview *self);
gboolean                  ws_overview_get_has_waits      (WsOverview *self);

G_END_DECLS
