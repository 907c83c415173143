/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The alignment of one cluster as the Mining page, the report and
 * `waitscope-cli cluster --alignment-figure` all draw it: its patterns,
 * costliest first, each aligned to the costliest (StackMine §VI), headed
 * "cluster.pattern · cost" over "streams · events".  One layout, so a
 * finding's figure is the one the analyst pinned.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-cluster-grid.h"
#include "ws-time-format.h"

/**
 * ws_cluster_grid_new:
 * @similarity: the run's similarity (its frame weights align the patterns)
 * @cluster: the cluster's index in @clusters
 * @columns: (out) (optional) (transfer full): the pattern index (in the
 *   cluster set's pattern set) of each column
 *
 * Returns: (transfer full): the grid of @cluster's first
 *   %WS_CLUSTER_GRID_MAX_PATTERNS patterns, titled
 */
WsAlignmentGrid *
ws_cluster_grid_new (WsClusterSet *clusters,
                     WsSimilarity *similarity,
                     guint         cluster,
                     guint       **columns)
{
  WsPatternSet *patterns = ws_cluster_set_get_pattern_set (clusters);
  const WsCluster *cl = ws_cluster_set_get_cluster (clusters, cluster);
  guint n = MIN (cl->n_patterns, WS_CLUSTER_GRID_MAX_PATTERNS);
  g_autofree const WsFrameId **frames = g_new0 (const WsFrameId *, MAX (n, 1));
  g_autofree guint *lengths = g_new0 (guint, MAX (n, 1));
  WsAlignmentGrid *grid;

  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (patterns, cl->patterns[k]);

      frames[k] = p->frames;
      lengths[k] = p->n_frames;
    }
  /* The cluster lists its patterns by decreasing cost: the first is the
   * one the others are aligned to. */
  grid = ws_alignment_grid_new_aligned (similarity, frames, lengths, n);
  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (patterns, cl->patterns[k]);
      g_autofree char *cost = ws_format_duration (p->cost);
      g_autofree char *title = g_strdup_printf ("%u.%u · %s", cluster + 1, k + 1, cost);
      /* Translators: under a pattern's heading in the alignment */
      g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u stream · %llu events",
                                                                "%u streams · %llu events", p->n_streams),
                                                   p->n_streams, (unsigned long long) p->n_events);

      ws_alignment_grid_set_title (grid, k, title, subtitle);
    }
  if (columns != NULL)
    {
      *columns = g_new (guint, MAX (n, 1));
      memcpy (*columns, cl->patterns, n * sizeof (guint));
    }
  return grid;
}
