/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Chain metrics and the anomalous chain of a ready tree (the patent's
 * chain-based anomaly detection): by default the root-to-leaf chain whose
 * waits are longest on average, since then every thread on it waited long.
 */
#include "config.h"

#include <string.h>

#include "ws-attribution.h"
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
    case WS_CHAIN_METRIC_TOTAL:
    case WS_CHAIN_METRIC_CAUSE:   return (double) metrics->total;
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

/* The overlap of [a0, a1) and [b0, b1). */
static WsTime
overlap (WsTime a0, WsTime a1, WsTime b0, WsTime b1)
{
  return MAX (0, MIN (a1, b1) - MAX (a0, b0));
}

/* The critical path of the root wait, and per segment whether it is the
 * top cause (@is_top, one gboolean per segment), ranked as the
 * attribution ranks: most time, then key. */
static WsCriticalPath *
top_cause_path (WsReadyTree  *tree,
                GArray      **is_top)
{
  const WsReadyNode *root = ws_ready_tree_get_node (tree, 0);
  WsTrace *trace = ws_ready_tree_get_trace (tree);
  WsSymptom symptom = { root->thread, root->time, root->time + root->duration };
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (trace, &symptom, NULL, NULL);
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer k, v;
  const char *top = NULL;
  WsTime top_time = 0;
  guint n;

  if (path == NULL)
    return NULL;
  n = ws_critical_path_get_n_segments (path);
  for (guint s = 0; s < n; s++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, s);
      char *key = ws_attribution_segment_cause_key (trace, seg, NULL);
      WsTime *t = g_hash_table_lookup (times, key);

      g_ptr_array_add (keys, key);
      if (t == NULL)
        g_hash_table_insert (times, key, (t = g_new0 (WsTime, 1)));
      *t += seg->end - seg->start;
    }

  g_hash_table_iter_init (&iter, times);
  while (g_hash_table_iter_next (&iter, &k, &v))
    if (top == NULL || *(WsTime *) v > top_time || (*(WsTime *) v == top_time && strcmp (k, top) < 0))
      {
        top = k;
        top_time = *(WsTime *) v;
      }

  *is_top = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), n);
  for (guint s = 0; s < n; s++)
    {
      gboolean flag = top != NULL && g_str_equal (g_ptr_array_index (keys, s), top);
      g_array_append_val (*is_top, flag);
    }
  return g_steal_pointer (&path);
}

/* The chain whose leaf holds the most time of the root's top cause;
 * WS_NONE if none holds any. */
static guint
cause_chain (WsReadyTree *tree)
{
  g_autoptr(GArray) is_top = NULL;
  g_autoptr(WsCriticalPath) path = top_cause_path (tree, &is_top);
  guint n_chains = ws_ready_tree_get_n_chains (tree);
  guint best = WS_NONE;
  WsTime best_score = 0;
  double best_total = 0.0;

  if (path == NULL)
    return WS_NONE;
  for (guint c = 0; c < n_chains; c++)
    {
      const WsReadyNode *leaf = ws_ready_tree_get_node (tree, ws_ready_tree_get_chain_leaf (tree, c));
      WsTime score = 0;
      WsChainMetrics m;

      for (guint s = 0; s < ws_critical_path_get_n_segments (path); s++)
        {
          const WsCriticalSegment *seg = ws_critical_path_get_segment (path, s);

          if (!g_array_index (is_top, gboolean, s))
            continue;
          if (seg->thread == leaf->thread ||
              (leaf->stop == WS_READY_STOP_READIER_RAN && seg->thread == leaf->readier_thread))
            score += overlap (seg->start, seg->end, leaf->time, leaf->time + leaf->duration);
        }
      ws_ready_tree_get_chain_metrics (tree, c, &m);
      if (score > 0 && (score > best_score || (score == best_score && m.total > best_total)))
        {
          best = c;
          best_score = score;
          best_total = m.total;
        }
    }
  return best;
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

  if (metric == WS_CHAIN_METRIC_CAUSE)
    {
      best = ws_ready_tree_get_n_chains (tree) > 0 ? cause_chain (tree) : WS_NONE;
      if (best != WS_NONE)
        return best;
      metric = WS_CHAIN_METRIC_TOTAL;
    }

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
  "average", "median", "total", "count", "max", "cause",
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
