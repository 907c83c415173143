/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The default anomalous chain: the one that ends where the root wait's top
 * cause (ws-attribution.h) was spent.  The critical path of the root wait
 * gives, for every moment of it, the deepest thread holding it up and the
 * cause; the chain whose leaf wait holds the most time of the top cause —
 * on the leaf's own thread (it was blocked there) or, when the leaf's
 * readier simply ran, on that readier — is the chain that explains the
 * root.  Ties go to the longer total, then to the lower chain index.
 */
#include "config.h"

#include <string.h>

#include "ws-attribution.h"
#include "ws-cause-chain.h"
#include "ws-ready-tree.h"
#include "ws-critical-path.h"

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
guint
ws_ready_tree_cause_chain (WsReadyTree *tree)
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
      if ((best = ws_ready_tree_cause_chain (tree)) != WS_NONE)
        return best;
      metric = WS_CHAIN_METRIC_TOTAL;   /* no chain ends at the top cause */
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
