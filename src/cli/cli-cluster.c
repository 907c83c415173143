/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli cluster TRACE…: mine the costly maximal patterns as `mine`
 * does, then group the variants of one problem (StackMine §VI): the
 * alignment similarity weighted by the history's unigram and bigram
 * counts, agglomerative clustering down to a threshold, and the clusters
 * ranked by one of the four metrics of §II.B.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "cli-common.h"
#include "cli-mine.h"
#include "ws-alignment-renderer.h"
#include "ws-cluster-grid.h"
#include "ws-clusterer.h"
#include "ws-coverage.h"
#include "ws-coverage-figure.h"
#include "ws-coverage-plot.h"

int cli_cluster (int argc, char **argv);

static gboolean
parse_linkage (const char *text,
               WsLinkage  *linkage)
{
  static const char * const names[] = { "average", "complete", "single" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *linkage = i;
        return TRUE;
      }
  return FALSE;
}

static void
print_coverage (WsCoverage *cov)
{
  printf ("\n%s\n", _("Signatures and bottleneck coverage"));
  for (guint i = 0; i < ws_coverage_get_n_signatures (cov); i++)
    {
      g_autofree char *cost = cli_format_duration (ws_coverage_get_signature_cost (cov, i));

      printf ("  %-40s %10s %6.2f %%  ", ws_coverage_get_signature_name (cov, i), cost,
              100 * ws_coverage_get_signature_coverage (cov, i));
      printf (g_dngettext (GETTEXT_PACKAGE, "%u stream\n", "%u streams\n",
                           ws_coverage_get_signature_n_streams (cov, i)),
              ws_coverage_get_signature_n_streams (cov, i));
    }
  printf (_("  all together: %.2f %%\n"), 100 * ws_coverage_get_total_coverage (cov));

  printf ("\n%s\n  %-14s", _("Trace streams to inspect to reach a coverage (StackMine Fig. 4)"), _("COVERAGE"));
  for (guint k = 0; k < WS_FIG4_N_FRACTIONS; k++)
    printf (" %9.2f%%", 100 * ws_fig4_fractions[k] * ws_coverage_get_total_coverage (cov));
  printf ("\n");
  for (WsRanking r = 0; r < WS_N_RANKINGS; r++)
    {
      printf ("  %-14s", ws_ranking_to_string (r));
      for (guint k = 0; k < WS_FIG4_N_FRACTIONS; k++)
        printf (" %10.1f", ws_fig4_streams_to_reach (cov, r, ws_fig4_fractions[k]));
      printf ("\n");
    }
}

/* ------------------------------------------------------------------ */
/* Figures, as the Mining page draws them                               */

#define COVERAGE_FIGURE_WIDTH  960
#define COVERAGE_FIGURE_HEIGHT 540

static gboolean
check_figure_path (const char *option,
                   const char *path,
                   int        *status)
{
  WsExportFormat format;

  if (path == NULL || ws_export_format_from_path (path, &format))
    return TRUE;
  *status = cli_usage_error ("cluster", _("%s: “%s” does not end in .png, .svg or .pdf"), option, path);
  return FALSE;
}

/* The cluster's patterns (the costliest first) aligned to its costliest. */
static gboolean
write_alignment (WsClusterSet   *clusters,
                 WsSimilarity   *sim,
                 guint           cluster,
                 const char     *path,
                 GError        **error)
{
  g_autoptr(WsAlignmentGrid) grid = ws_cluster_grid_new (clusters, sim, cluster, NULL);
  g_autoptr(WsAlignmentRenderer) renderer = ws_alignment_renderer_new ();
  WsExportFormat format;

  ws_export_format_from_path (path, &format);
  return ws_alignment_renderer_export (renderer, grid, path, format, error);
}

/* StackMine Fig. 4, as the Mining page draws it (ws-coverage-figure.c). */
static gboolean
write_coverage (WsCoverage     *cov,
                const char     *path,
                GError        **error)
{
  g_autoptr(WsCoveragePlot) plot = ws_coverage_plot_new ();
  g_autoptr(WsCoverageCurves) curves = ws_coverage_curves_compute (cov, NULL);
  WsExportFormat format;

  ws_coverage_curves_plot (curves, plot);
  ws_export_format_from_path (path, &format);
  return ws_coverage_plot_export (plot, path, format, COVERAGE_FIGURE_WIDTH, COVERAGE_FIGURE_HEIGHT, error);
}

static void
print_text (CliMineOptions *options,
            CliMineResult  *result,
            WsClusterSet   *clusters,
            const char     *rank)
{
  WsStackTable *table = ws_stack_db_get_stack_table (result->db);
  guint n = ws_cluster_set_get_n_clusters (clusters);
  guint shown = options->top == 0 ? n : MIN ((guint) options->top, n);
  g_autofree char *lambda = cli_format_duration (result->lambda);
  g_autofree char *patterns = NULL;

  cli_mine_print_scope_note (options, result);
  patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pattern", "%u patterns",
                                           ws_pattern_set_get_n_patterns (result->patterns)),
                              ws_pattern_set_get_n_patterns (result->patterns));
  /* Translators: the second %s is "37 patterns" */
  printf (g_dngettext (GETTEXT_PACKAGE, "λ = %s: %s in %u cluster (similarity ≥ %.2f), ranked by %s\n",
                       "λ = %s: %s in %u clusters (similarity ≥ %.2f), ranked by %s\n", n),
          lambda, patterns, n,
          ws_cluster_set_get_threshold (clusters), rank);

  for (guint c = 0; c < shown; c++)
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (clusters, c);
      g_autofree char *total = cli_format_duration (cl->total_cost);
      g_autofree char *avg = cli_format_duration ((WsTime) cl->average_cost);
      g_autofree WsFrameId *common = NULL;
      guint n_common;

      printf ("\n");
      {
        g_autofree char *streams = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u stream", "%u streams", cl->n_streams),
                                                    cl->n_streams);
        g_autofree char *events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%llu event", "%llu events", cl->n_events),
                                                   (unsigned long long) cl->n_events);
        g_autofree char *patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pattern", "%u patterns",
                                                                  cl->n_patterns), cl->n_patterns);

        /* Translators: cluster number, total cost, "3 streams", "120 events",
         * average cost, "4 patterns" */
        printf (_("Cluster %u: total %s, %s, %s, average %s, %s\n"), c + 1, total, streams, events, avg, patterns);
      }
      common = ws_coverage_cluster_common_frames (clusters, c, &n_common);
      printf ("  %s\n", _("Common frames (caller first):"));
      cli_mine_print_frames (table, common, n_common, "    ");
      for (guint k = 0; k < cl->n_patterns; k++)
        {
          const WsPattern *p = ws_pattern_set_get_pattern (result->patterns, cl->patterns[k]);
          g_autofree char *cost = cli_format_duration (p->cost);
          g_autofree char *text = ws_pattern_format (p, table, " → ");

          printf ("  • %s  %s\n", cost, text);
        }
    }
}

/* The options of `cluster` beyond those of `mine`. */
typedef struct {
  double         threshold;
  char          *linkage_name;
  char          *rank_name;
  char         **signatures;
  char          *alignment_figure;
  char          *coverage_figure;
  int            figure_cluster;
  WsLinkage      linkage;
  WsClusterRank  rank;
} ClusterOptions;

static void
cluster_options_clear (ClusterOptions *o)
{
  g_free (o->linkage_name);
  g_free (o->rank_name);
  g_strfreev (o->signatures);
  g_free (o->alignment_figure);
  g_free (o->coverage_figure);
}

/* The checks made before any trace is read: -1, or the usage error's
 * status. */
static int
check_options (ClusterOptions *o)
{
  int status;

  if (o->threshold < 0 || o->threshold > 1)
    return cli_usage_error ("cluster", "%s", _("--threshold must be in [0, 1]"));
  if (o->linkage_name != NULL && !parse_linkage (o->linkage_name, &o->linkage))
    return cli_usage_error ("cluster", _("unknown linkage “%s”"), o->linkage_name);
  if (o->rank_name != NULL && !ws_cluster_rank_from_string (o->rank_name, &o->rank))
    return cli_usage_error ("cluster", _("unknown metric “%s”: use total, streams, events, average or discriminative"), o->rank_name);
  if (!check_figure_path ("--alignment-figure", o->alignment_figure, &status) ||
      !check_figure_path ("--coverage-figure", o->coverage_figure, &status))
    return status;
  if (o->figure_cluster < 1)
    return cli_usage_error ("cluster", "%s", _("--figure-cluster counts from 1"));
  if (o->coverage_figure != NULL && o->signatures == NULL)
    return cli_usage_error ("cluster", "%s", _("--coverage-figure needs at least one --signature"));
  return -1;
}

/* The figures asked for: -1, or the exit status of a failure. */
static int
write_figures (ClusterOptions *o,
               CliMineResult  *result)
{
  WsClusterSet *clusters = result->run->clusters;
  g_autoptr(GError) error = NULL;

  if (o->alignment_figure != NULL)
    {
      if ((guint) o->figure_cluster > ws_cluster_set_get_n_clusters (clusters))
        return cli_usage_error ("cluster", g_dngettext (GETTEXT_PACKAGE, "--figure-cluster %d: there is %u cluster",
                                                              "--figure-cluster %d: there are %u clusters",
                                                              ws_cluster_set_get_n_clusters (clusters)),
                                o->figure_cluster,
                                ws_cluster_set_get_n_clusters (clusters));
      if (!write_alignment (clusters, result->run->similarity, o->figure_cluster - 1,
                            o->alignment_figure, &error))
        return cli_fail (error);
    }
  if (o->coverage_figure != NULL && !write_coverage (result->run->coverage, o->coverage_figure, &error))
    return cli_fail (error);
  return -1;
}

static void
print_result (CliMineOptions *options,
              ClusterOptions *o,
              CliMineResult  *result)
{
  WsClusterSet *clusters = result->run->clusters;
  WsCoverage *coverage = result->run->coverage;

  if (options->json)
    {
      g_autofree char *note = NULL;
      WsMiningExportOptions export;
      g_autoptr(JsonNode) json = NULL;

      cli_mine_export_options (options, result, &export, &note);
      export.linkage = o->linkage_name ? o->linkage_name : "average";
      export.rank = ws_cluster_rank_to_string (o->rank);
      json = ws_mining_export_clusters_json (result->run, &export);
      cli_print_json_node (json);
    }
  else
    {
      print_text (options, result, clusters, ws_cluster_rank_to_string (o->rank));
      if (coverage != NULL)
        print_coverage (coverage);
    }
}

int
cli_cluster (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  CliMineOptions options;
  WsMiningSettings settings;
  CliMineResult result = { 0 };
  ClusterOptions o = {
    .threshold = 0.6,
    .figure_cluster = 1,
    .linkage = WS_LINKAGE_AVERAGE,
    .rank = WS_CLUSTER_RANK_TOTAL,
  };
  int status;
  const GOptionEntry entries[] = {
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &o.threshold,
      N_("Do not merge clusters less similar than this (0…1, default 0.6)"), N_("T") },
    { "linkage", 0, 0, G_OPTION_ARG_STRING, &o.linkage_name,
      N_("average (default), complete or single"), N_("LINKAGE") },
    { "rank", 0, 0, G_OPTION_ARG_STRING, &o.rank_name,
      N_("Rank clusters by total (default), streams, events or average cost, or by the discriminative score (with --slow and --fast, or --classes)"), N_("METRIC") },
    { "signature", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.signatures,
      N_("A performance signature: functions, caller first; prints its bottleneck coverage and "
         "the Fig. 4 comparison; repeatable"), N_("F1,F2,…") },
    { "alignment-figure", 0, 0, G_OPTION_ARG_FILENAME, &o.alignment_figure,
      N_("Draw a cluster's patterns aligned (as the Mining page does) to FILE.png, .svg or .pdf"), N_("FILE") },
    { "figure-cluster", 0, 0, G_OPTION_ARG_INT, &o.figure_cluster,
      N_("The cluster (by rank) that --alignment-figure draws (default 1)"), N_("N") },
    { "coverage-figure", 0, 0, G_OPTION_ARG_FILENAME, &o.coverage_figure,
      N_("Draw the signatures' bottleneck coverage (StackMine Fig. 4) to FILE.png, .svg or .pdf"), N_("FILE") },
    { NULL }
  };

  cli_mine_options_init (&options);
  ws_mining_settings_init (&settings);
  context = g_option_context_new (_("TRACE… — clusters of similar costly call-stack patterns (StackMine)"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_mine_add_entries (context, &options);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Mines as `waitscope-cli mine` does, then clusters the patterns: similarity of their "
      "optimal alignment, each function weighted by how rare it and its caller/callee pairs are "
      "in every trace ever recorded in the history store (or, with --no-history, in the traces "
      "given).  A cluster's total cost counts each event whose stack holds one of its patterns "
      "once."));

  if (!cli_parse_options (context, "cluster", &argc, &argv, &status) || (status = check_options (&o)) >= 0)
    goto out;

  settings.cluster = TRUE;
  settings.threshold = o.threshold;
  settings.linkage = o.linkage;
  settings.rank = o.rank;
  settings.signatures = (const char *const *) o.signatures;
  if ((status = cli_mine_run ("cluster", &options, &settings, argc, argv, &result)) >= 0 ||
      (status = write_figures (&o, &result)) >= 0)
    goto out;
  print_result (&options, &o, &result);
  status = CLI_EXIT_OK;

out:
  cli_mine_result_clear (&result);
  cli_mine_options_clear (&options);
  cluster_options_clear (&o);
  return status;
}
