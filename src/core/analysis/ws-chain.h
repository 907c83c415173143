/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsChainMetric:
 * @WS_CHAIN_METRIC_AVERAGE: mean wait cost of the chain's nodes (the
 *   patent's default: every thread on the chain waited long on average)
 * @WS_CHAIN_METRIC_MEDIAN: median wait cost (mean of the two middle values
 *   for an even count)
 * @WS_CHAIN_METRIC_TOTAL: sum of the wait costs
 * @WS_CHAIN_METRIC_COUNT: number of nodes (waits) on the chain
 * @WS_CHAIN_METRIC_ANOMALOUS: number of anomalous waits on the chain (the
 *   patent's "greatest number of anomalous wait periods"; anomalous as
 *   marked by ws_ready_tree_mark_anomalous() from the anomaly models and
 *   the analyst's flags), ties to the longer average wait
 * @WS_CHAIN_METRIC_MAX: longest single wait (the patent warns the root's
 *   wait often dominates it)
 *
 * How to rank the root-to-leaf chains of a ready tree.
 */
typedef enum {
  WS_CHAIN_METRIC_AVERAGE,
  WS_CHAIN_METRIC_MEDIAN,
  WS_CHAIN_METRIC_TOTAL,
  WS_CHAIN_METRIC_COUNT,
  WS_CHAIN_METRIC_MAX,
  WS_CHAIN_METRIC_ANOMALOUS,
  WS_N_CHAIN_METRICS
} WsChainMetric;

/* The metric used when none is chosen (CLI, GUI, exports). */
#define WS_CHAIN_METRIC_DEFAULT WS_CHAIN_METRIC_AVERAGE

/**
 * WsChainMetrics:
 * @count: number of waits on the chain (root and leaf included)
 * @total: sum of their costs (ns)
 * @max: the longest one (ns)
 * @average: @total / @count (ns)
 * @median: median cost (ns)
 * @n_anomalous: waits on the chain marked anomalous
 */
typedef struct {
  guint   count;
  guint   n_anomalous;
  WsTime  total;
  WsTime  max;
  double  average;
  double  median;
} WsChainMetrics;

/* Metrics of @n wait costs (any order); all zero for @n = 0. */
void          ws_chain_metrics_compute        (const WsTime         *waits,
                                               guint                 n,
                                               WsChainMetrics       *metrics);
double        ws_chain_metrics_get            (const WsChainMetrics *metrics,
                                               WsChainMetric         metric);

/* The metrics in enum order, with their names, labels and descriptions,
 * come from one table in ws-chain.c: lists of metrics (the GUI's dropdown,
 * the CLI's help) are built from it, never typed again. */
const char   *ws_chain_metric_to_string       (WsChainMetric         metric);
/* Translated, for a menu or dropdown ("Average wait"). */
const char   *ws_chain_metric_get_label       (WsChainMetric         metric);
/* Translated, one line: what choosing this metric means. */
const char   *ws_chain_metric_get_description (WsChainMetric         metric);
char         *ws_chain_metric_dup_names       (const char           *separator);
gboolean      ws_chain_metric_from_string     (const char           *str,
                                               WsChainMetric        *metric);

G_END_DECLS
