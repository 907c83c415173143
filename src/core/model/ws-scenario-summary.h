/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsScenarioSummary:
 * @name: the scenario's name
 * @durations: (element-type WsTime): its instances' durations over every
 *   trace, ascending
 *
 * What `scenarios` says of one scenario over all the traces given.
 */
typedef struct {
  char   *name;
  GArray *durations;
} WsScenarioSummary;

/* Per scenario name, in order of first appearance over @traces.
 * (element-type WsScenarioSummary) */
GPtrArray *ws_scenario_summarize       (WsTrace * const *traces,
                                        guint            n_traces);
/* Nearest rank: the smallest value with at least @percent % of the
 * values at or below it, i.e. sorted[⌈p·n/100⌉ − 1]; @n > 0. */
WsTime     ws_time_percentile          (const WsTime    *sorted,
                                        gsize            n,
                                        guint            percent);

G_END_DECLS
