/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Chain metrics and the anomalous chain of a ready tree (the patent's
 * chain-based anomaly detection): by default the root-to-leaf chain whose
 * waits are longest on average, since then every thread on it waited long.
 */
#include "config.h"

#include <string.h>

#include "ws-chain.h"

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? -1 : x > y;
}

void
ws_chain_metrics_compute (const WsTime   *waits,
                          guint           n,
                          WsChainMetrics *metrics)
{
  g_autofree WsTime *sorted = NULL;

  g_return_if_fail (n == 0 || waits != NULL);
  g_return_if_fail (metrics != NULL);

  memset (metrics, 0, sizeof *metrics);
  if (n == 0)
    return;

  sorted = g_memdup2 (waits, n * sizeof (WsTime));
  qsort (sorted, n, sizeof (WsTime), compare_time);

  metrics->count = n;
  for (guint i = 0; i < n; i++)
    metrics->total += sorted[i];
  metrics->max = sorted[n - 1];
  metrics->average = (double) metrics->total / n;
  metrics->median = n % 2 ? (double) sorted[n / 2]
                          : ((double) sorted[n / 2 - 1] + (double) sorted[n / 2]) / 2.0;
}

double
ws_chain_metrics_get (const WsChainMetrics *metrics,
                      WsChainMetric         metric)
{
  g_return_val_if_fail (metrics != NULL, 0.0);

  switch (metric)
    {
    case WS_CHAIN_METRIC_AVERAGE: return metrics->average;
    case WS_CHAIN_METRIC_MEDIAN:  return metrics->median;
    case WS_CHAIN_METRIC_TOTAL:   return (double) metrics->total;
    case WS_CHAIN_METRIC_COUNT:   return (double) metrics->count;
    case WS_CHAIN_METRIC_MAX:     return (double) metrics->max;
    default:
      g_return_val_if_reached (0.0);
    }
}

void
ws_ready_tree_get_chain_metrics (WsReadyTree    *tree,
                                 guint           chain,
                                 WsChainMetrics *metrics)
{
  g_autofree guint32 *nodes = NULL;
  g_autofree WsTime *waits = NULL;
  guint n = 0;

  g_return_if_fail (WS_IS_READY_TREE (tree));
  g_return_if_fail (chain < ws_ready_tree_get_n_chains (tree));
  g_return_if_fail (metrics != NULL);

  nodes = ws_ready_tree_get_chain (tree, chain, &n);
  waits = g_new (WsTime, n);
  for (guint i = 0; i < n; i++)
    waits[i] = ws_ready_tree_get_node (tree, nodes[i])->duration;
  ws_chain_metrics_compute (waits, n, metrics);
}

guint
ws_ready_tree_anomalous_chain (WsReadyTree   *tree,
                               WsChainMetric  metric)
{
  guint best = WS_NONE;
  double best_value = 0.0;
  guint n_chains;

  g_return_val_if_fail (WS_IS_READY_TREE (tree), WS_NONE);
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, WS_NONE);

  n_chains = ws_ready_tree_get_n_chains (tree);
  for (guint c = 0; c < n_chains; c++)
    {
      WsChainMetrics m;
      double value;

      ws_ready_tree_get_chain_metrics (tree, c, &m);
      value = ws_chain_metrics_get (&m, metric);
      if (best == WS_NONE || value > best_value)
        {
          best = c;
          best_value = value;
        }
    }

  return best;
}

static const char * const metric_names[WS_N_CHAIN_METRICS] = {
  "average", "median", "total", "count", "max",
};

const char *
ws_chain_metric_to_string (WsChainMetric metric)
{
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);
  return metric_names[metric];
}

gboolean
ws_chain_metric_from_string (const char    *str,
                             WsChainMetric *metric)
{
  g_return_val_if_fail (metric != NULL, FALSE);

  for (guint i = 0; i < WS_N_CHAIN_METRICS; i++)
    if (g_strcmp0 (str, metric_names[i]) == 0)
      {
        *metric = i;
        return TRUE;
      }
  return FALSE;
}
