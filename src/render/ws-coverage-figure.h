/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-coverage.h"
#include "ws-coverage-plot.h"

G_BEGIN_DECLS

/**
 * WsCoverageCurves:
 * @curve: per technique, the coverage after inspecting k = 0…n streams
 * @to_half: streams needed to reach half of @total, or -1 (never)
 * @to_full: streams needed to reach @total, or -1
 * @total: the coverage of all signatures together
 * @n_streams: the streams there are
 *
 * What the bottleneck-coverage chart (StackMine Fig. 4) and its table
 * show.  The Random curve averages shuffles and each "streams to reach"
 * replays the orders: seconds on thousands of streams, so the Mining page
 * computes this in a thread.
 */
typedef struct {
  GArray *curve[WS_N_RANKINGS];
  double  to_half[WS_N_RANKINGS];
  double  to_full[WS_N_RANKINGS];
  double  total;
  guint   n_streams;
} WsCoverageCurves;

WsCoverageCurves *ws_coverage_curves_compute (WsCoverage             *coverage,
                                              GCancellable           *cancellable);
void              ws_coverage_curves_free    (WsCoverageCurves       *curves);
void              ws_coverage_curves_plot    (const WsCoverageCurves *curves,
                                              WsCoveragePlot         *plot);
const char       *ws_coverage_ranking_label  (WsRanking               ranking);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCoverageCurves, ws_coverage_curves_free)

G_END_DECLS
