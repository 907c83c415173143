/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A mining run said in words: the Mining page showed "37 patterns in 12
 * clusters · λ 50.0 ms of 4.21 s"; the sentence says what λ is, and the
 * paper's name goes to the tooltip.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-mining-words.h"
#include "ws-time-format.h"

/**
 * ws_mining_dup_summary:
 * @lambda: the cost threshold (ns)
 * @total_cost: what the stacks in scope cost (ns)
 *
 * Returns: (transfer full): "37 call-stack patterns, each costing at least
 *   50.0 ms of the 4.21 s the stacks in scope cost, in 12 clusters"
 */
char *
ws_mining_dup_summary (guint  n_patterns,
                       guint  n_clusters,
                       gint64 lambda,
                       gint64 total_cost)
{
  g_autofree char *l = ws_format_duration (lambda);
  g_autofree char *total = ws_format_duration (total_cost);
  g_autofree char *patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u call-stack pattern",
                                                            "%u call-stack patterns", n_patterns), n_patterns);

  /* Translators: "37 call-stack patterns", the cost threshold, the
   * stacks' total cost, then the number of clusters */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s, each costing at least %s of the %s the stacks in scope cost, in %u cluster",
                                       "%s, each costing at least %s of the %s the stacks in scope cost, in %u clusters",
                                       n_clusters),
                          patterns, l, total, n_clusters);
}

/**
 * ws_mining_dup_terms:
 *
 * Returns: (transfer full): the threshold in the paper's terms, for a tooltip
 */
char *
ws_mining_dup_terms (gint64 lambda)
{
  g_autofree char *l = ws_format_duration (lambda);

  /* Translators: StackMine's name for the cost threshold */
  return g_strdup_printf (_("λ = %s: StackMine's cost threshold (a pattern is kept when its stacks cost at least λ)."), l);
}
