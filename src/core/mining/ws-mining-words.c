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

/**
 * ws_mining_dup_unclassed_note:
 * @n_traces: the traces mined together
 *
 * Over a fleet with no slow or fast class the costliest patterns are what
 * every trace does most (a service's pacing sleep, its idle reads), not
 * what the slow traces have more of.  This is the sentence that says so,
 * under the CLI's header and on the Mining page; each front-end adds how
 * it takes classes.
 *
 * Returns: (transfer full) (nullable): "24 traces, no slow or fast class:
 *   ranked by cost over all of them.", or %NULL for a single trace
 */
char *
ws_mining_dup_unclassed_note (guint n_traces)
{
  if (n_traces < 2)
    return NULL;
  /* Translators: a fleet mined without slow and fast classes */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u trace, no slow or fast class: ranked by cost over all of them.",
                                       "%u traces, no slow or fast class: ranked by cost over all of them.",
                                       n_traces),
                          n_traces);
}

/**
 * ws_mining_dup_discriminative:
 * @score: a pattern's or cluster's discriminative score (ns)
 * @magnitude: |@score| as the front-end writes durations
 *
 * Returns: (transfer full): "+25.82 ms per slow trace" (a negative score:
 *   "−…": fast traces have more of it)
 */
char *
ws_mining_dup_discriminative (gint64      score,
                              const char *magnitude)
{
  /* Translators: a pattern's discriminative score: how much more it costs
   * a slow trace than a fast one, on average; the sign, then the time */
  return g_strdup_printf (_("%s%s per slow trace"), score < 0 ? "−" : "+", magnitude);
}
