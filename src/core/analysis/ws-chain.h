/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ready-tree.h"

G_BEGIN_DECLS

/**
 * WsChainMetric:
 * @WS_CHAIN_METRIC_AVERAGE: mean wait cost of the chain's nodes (the
 *   patent's default: every thread on the chain waited long on average)
 * @WS_CHAIN_METRIC_MEDIAN: median wait cost (mean of the two middle values
 *   for an even count)
 * @WS_CHAIN_METRIC_TOTAL: sum of the wait costs
 * @WS_CHAIN_METRIC_COUNT: number of nodes (waits) on the chain
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
  WS_N_CHAIN_METRICS
} WsChainMetric;

/**
 * WsChainMetrics:
 * @count: number of waits on the chain (root and leaf included)
 * @total: sum of their costs (ns)
 * @max: the longest one (ns)
 * @average: @total / @count (ns)
 * @median: median cost (ns)
 */
typedef struct {
  guint   count;
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

void          ws_ready_tree_get_chain_metrics (WsReadyTree          *tree,
                                               guint                 chain,
                                               WsChainMetrics       *metrics);
/*
 * ws_ready_tree_anomalous_chain:
 * Returns: the chain (see ws_ready_tree_get_chain()) with the largest
 *   @metric; ties go to the lowest chain index.  %WS_NONE for an empty tree.
 */
guint         ws_ready_tree_anomalous_chain   (WsReadyTree          *tree,
                                               WsChainMetric         metric);

const char   *ws_chain_metric_to_string       (WsChainMetric         metric);
gboolean      ws_chain_metric_from_string     (const char           *str,
                                               WsChainMetric        *metric);

G_END_DECLS
