/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A contrast result said in words.  The Contrast page spoke the paper
 * (ASPLOS'14 §5: "C/N", "ITC/TTC", "IA_wait", "meta-patterns (k = 5)");
 * these sentences say what the numbers mean, and the *_terms() functions
 * give the paper's names for a tooltip.  The window and the CLI print the
 * same strings.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-contrast-words.h"
#include "ws-time-format.h"

/**
 * ws_contrast_result_dup_summary:
 * @by_trace: the classes are whole traces (their thresholds say nothing)
 *
 * Returns: (transfer full): what the result shows, with its key numbers
 *   in words: "72 fast, 14 slow instances: fast under 40.0 ms, slow over
 *   120 ms. 24 contrast patterns: call chains found only, or much more
 *   costly, in the slow instances. They explain 58 % of …"
 */
char *
ws_contrast_result_dup_summary (WsContrastResult *result,
                                gboolean          by_trace)
{
  g_autofree char *tf = ws_format_duration (ws_contrast_result_get_t_fast (result));
  g_autofree char *ts = ws_format_duration (ws_contrast_result_get_t_slow (result));
  guint n_fast = ws_instance_set_get_n (ws_contrast_result_get_fast (result));
  guint n_slow = ws_instance_set_get_n (ws_contrast_result_get_slow (result));
  guint n_patterns = ws_contrast_result_get_n_patterns (result);
  g_autofree char *classes = NULL, *patterns = NULL, *bounds = NULL;

  /* Translators: the contrast summary's classes; the noun goes with the
   * slow count */
  classes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u fast, %u slow instance", "%u fast, %u slow instances",
                                          n_slow), n_fast, n_slow);
  patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u contrast pattern", "%u contrast patterns", n_patterns),
                              n_patterns);
  bounds = by_trace ? g_strdup (_("the classes of the open traces"))
           /* Translators: the two bounds of the contrast summary */
           : g_strdup_printf (_("fast under %s, slow over %s"), tf, ts);
  /* Translators: the contrast summary: the classes ("3 fast, 5 slow
   * instances") with the two bounds, then the number of contrast patterns
   * ("12 contrast patterns"), then three shares */
  return g_strdup_printf (_("%s: %s. %s: call chains found only, or much more "
                            "costly, in the slow instances. They explain %.0f %% of the slow instances' time in "
                            "these components (%.0f %% in chains that alone take longer than a slow instance); "
                            "the top tenth of them %.0f %% of that."),
                          classes, bounds, patterns, 100 * ws_contrast_result_get_ttc (result),
                          100 * ws_contrast_result_get_itc (result), 100 * ws_contrast_result_get_coverage (result, 10));
}

/**
 * ws_contrast_result_dup_terms:
 *
 * Returns: (transfer full): the same numbers in the paper's terms, for a
 *   tooltip
 */
char *
ws_contrast_result_dup_terms (WsContrastResult *result)
{
  g_autofree char *tf = ws_format_duration (ws_contrast_result_get_t_fast (result));
  g_autofree char *ts = ws_format_duration (ws_contrast_result_get_t_slow (result));
  guint mf, ms, mc;

  ws_contrast_result_get_meta_counts (result, &mf, &ms, &mc);
  /* Translators: the contrast summary's tooltip, in the paper's terms */
  return g_strdup_printf (_("In the paper's terms (ASPLOS'14 §5): T_fast %s, T_slow %s; "
                            "meta-patterns (k = %u): %u fast, %u slow, %u contrast; TTC "
                            "%.1f %%, ITC %.1f %% (high-impact patterns); coverage of the "
                            "top 10 %% %.1f %%. Patterns are ranked as Rank by says: by "
                            "C, their total cost (the default), or by C/N, the average "
                            "cost of one execution (the paper's order)."),
                          tf, ts, ws_contrast_result_get_k (result), mf, ms, mc,
                          100 * ws_contrast_result_get_ttc (result), 100 * ws_contrast_result_get_itc (result),
                          100 * ws_contrast_result_get_coverage (result, 10));
}

/**
 * ws_contrast_pattern_dup_cost:
 *
 * Returns: (transfer full): a pattern's cost in words: "641 ms over the
 *   slow instances · 78 times · 8.22 ms each"
 */
char *
ws_contrast_pattern_dup_cost (const WsContrastPattern *pattern)
{
  g_autofree char *c = ws_format_duration (pattern->c);
  g_autofree char *each = ws_format_duration (pattern->n ? pattern->c / (gint64) pattern->n : 0);
  guint n = (guint) MIN (pattern->n, G_MAXUINT);

  /* Translators: a contrast pattern's total cost C, its count N (%u) and
   * its average cost C/N */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s over the slow instances · %u time · %s each",
                                       "%s over the slow instances · %u times · %s each", n),
                          c, n, each);
}

/**
 * ws_contrast_pattern_dup_terms:
 *
 * Returns: (transfer full): the same in the paper's terms ("C (total
 *   cost) …"): a tooltip says whose terms, a report's fact names them
 */
char *
ws_contrast_pattern_dup_terms (const WsContrastPattern *pattern)
{
  g_autofree char *c = ws_format_duration (pattern->c);
  g_autofree char *each = ws_format_duration (pattern->n ? pattern->c / (gint64) pattern->n : 0);
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, pattern->n);

  /* Translators: a contrast pattern in the paper's terms: C, N, C/N */
  return g_strdup_printf (_("C (total cost) %s, N (executions) %s, C/N (average cost) %s%s"),
                          c, n, each,
                          pattern->high_impact ? _("; high impact: one execution takes longer than a slow instance")
                                               : "");
}

/**
 * ws_impact_dup_words:
 *
 * Returns: (transfer full): what one component costs the instances, in
 *   words: "its waits 12.0 % of the instances' time · running in it
 *   3.0 % · waits shared by several instances 1.5 %"
 */
char *
ws_impact_dup_words (const WsImpact *impact)
{
  /* Translators: the impact of one component: the share of the
   * instances' time in its waits, running in it, and in waits that
   * several instances share (what removing the duplicates would save) */
  return g_strdup_printf (_("waiting in it %.1f %% of the instances' time · running in it %.1f %% · "
                            "in waits several instances share %.1f %%"),
                          100 * impact->ia_wait, 100 * impact->ia_run, 100 * impact->ia_opt);
}

/**
 * ws_impact_dup_terms:
 *
 * Returns: (transfer full): the same in the paper's terms, for a tooltip
 */
char *
ws_impact_dup_terms (const WsImpact *impact)
{
  g_autofree char *wait = ws_format_duration (impact->d_wait);
  g_autofree char *dist = ws_format_duration (impact->d_waitdist);

  /* Translators: a component's impact in the paper's terms */
  return g_strdup_printf (_("In the paper's terms (ASPLOS'14 §3): IA_wait %.1f %%, IA_run %.1f %%, IA_opt %.1f %%; "
                            "D_wait %s, D_waitdist %s, D_wait/D_waitdist %.2f"),
                          100 * impact->ia_wait, 100 * impact->ia_run, 100 * impact->ia_opt, wait, dist,
                          impact->wait_ratio);
}
