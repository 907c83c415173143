/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Report figure of the Mining page: a cluster of costly patterns aligned
 * to its costliest (StackMine §VI), redrawn by rerunning ws_mining_run()
 * with the pinned settings on the pinned traces and finding the pinned
 * cluster again (ws_pin_find_cluster()).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-alignment-renderer.h"
#include "ws-cluster-grid.h"
#include "ws-coverage-figure.h"
#include "ws-error.h"
#include "ws-pin-mining.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"

typedef struct {
  WsAlignmentGrid *grid;
  gboolean         dark;
} AlignmentJob;

static gboolean
export_alignment (gpointer  user_data,
                  GError  **error)
{
  AlignmentJob *job = user_data;
  g_autoptr(WsAlignmentRenderer) renderer = ws_alignment_renderer_new ();
  WsAlignmentPalette palette;

  if (job->dark)
    ws_alignment_palette_init_dark (&palette);
  else
    ws_alignment_palette_init_light (&palette);
  ws_alignment_renderer_set_palette (renderer, &palette);
  return ws_alignment_renderer_export (renderer, job->grid, "figure.svg", WS_EXPORT_SVG, error);
}

static void
add_cluster_facts (WsReportFigure *figure,
                   WsMiningResult *run,
                   guint           cluster,
                   WsAlignmentGrid *grid)
{
  const WsCluster *cl = ws_cluster_set_get_cluster (run->clusters, cluster);
  g_autofree char *which = g_strdup_printf (_("%u of %u"), cluster + 1, ws_cluster_set_get_n_clusters (run->clusters));
  g_autofree char *total = ws_format_duration (cl->total_cost);
  g_autofree char *average = ws_format_duration ((WsTime) cl->average_cost);
  g_autofree char *lambda = ws_format_duration (run->lambda);
  g_autofree char *share = g_strdup_printf ("%.1f %%", run->total_delay > 0 ? 100.0 * cl->total_cost / run->total_delay : 0.0);
  g_autofree char *patterns = g_strdup_printf ("%u", cl->n_patterns);
  g_autofree char *common = g_strdup_printf ("%u", ws_alignment_grid_count_rows (grid, WS_ALIGNMENT_ROW_COMMON));
  /* Translators: a cluster's events and the trace streams they come from */
  g_autofree char *events = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%llu events in %u stream", "%llu events in %u streams",
                                                          cl->n_streams),
                                             (unsigned long long) cl->n_events, cl->n_streams);

  ws_report_figure_add_fact (figure, _("Cluster"), which);
  ws_report_figure_add_fact (figure, _("Patterns"), patterns);
  ws_report_figure_add_fact (figure, _("Frames in common"), common);
  ws_report_figure_add_fact (figure, _("Total cost"), total);
  ws_report_figure_add_fact (figure, _("Share of the delay mined"), share);
  ws_report_figure_add_fact (figure, _("Average cost"), average);
  ws_report_figure_add_fact (figure, _("Events"), events);
  ws_report_figure_add_fact (figure, _("Cost threshold λ"), lambda);
}

static gboolean
build_alignment (const WsReportContext *ctx,
                 WsReportFigure        *figure,
                 GError               **error)
{
  g_autoptr(WsMiningResult) run = NULL;
  g_autoptr(WsAlignmentGrid) grid = NULL;
  g_autofree char *signature = NULL;
  g_auto(GStrv) frames = NULL;
  WsPinMining mining;
  AlignmentJob job;
  guint cluster;

  if (!ws_pin_get_mining (ctx->finding, ctx->traces, &mining, error))
    return FALSE;
  run = ws_mining_run (ctx->traces, &mining.settings, NULL, NULL, NULL, error);
  ws_pin_mining_clear (&mining);
  if (run == NULL)
    return FALSE;
  cluster = ws_pin_find_cluster (ctx->finding, run);
  if (cluster == G_MAXUINT)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("the mining run has no such cluster any more"));
      return FALSE;
    }
  grid = ws_cluster_grid_new (run->clusters, run->similarity, cluster, NULL);
  job = (AlignmentJob) { grid, ctx->dark };
  if (!ws_export_record (export_alignment, &job, &figure->recording, error))
    return FALSE;
  add_cluster_facts (figure, run, cluster, grid);
  signature = ws_mining_cluster_signature (run, cluster);
  frames = g_strsplit (signature, "\n", -1);
  ws_report_figure_add_frames (figure, _("The costliest pattern, caller first"), (const char * const *) frames);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Bottleneck coverage of the marked signatures (StackMine Fig. 4)      */

/* The size the Mining page exports the chart at. */
#define COVERAGE_WIDTH  960.0
#define COVERAGE_HEIGHT 540.0

static gboolean
export_coverage (gpointer  user_data,
                 GError  **error)
{
  return ws_coverage_plot_export (user_data, "figure.svg", WS_EXPORT_SVG, COVERAGE_WIDTH, COVERAGE_HEIGHT, error);
}

/* "after 1 stream", "after 2.5 streams" (Random averages), "never". */
static char *
streams_text (double streams)
{
  if (streams < 0)
    return g_strdup (_("never"));
  if (streams == 1)
    return g_strdup (_("after 1 stream"));
  return g_strdup_printf (_("after %.3g streams"), streams);
}

static void
add_coverage_facts (WsReportFigure         *figure,
                    WsCoverage             *coverage,
                    const WsCoverageCurves *curves,
                    guint                   n_missing)
{
  g_autofree char *all = g_strdup_printf ("%.1f %%", 100 * curves->total);

  for (guint i = 0; i < ws_coverage_get_n_signatures (coverage); i++)
    {
      guint n = ws_coverage_get_signature_n_streams (coverage, i);
      g_autofree char *value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%.1f %% of the delay · %u stream",
                                                             "%.1f %% of the delay · %u streams", n),
                                                100 * ws_coverage_get_signature_coverage (coverage, i), n);

      ws_report_figure_add_fact (figure, ws_coverage_get_signature_name (coverage, i), value);
    }
  ws_report_figure_add_fact (figure, _("All signatures together"), all);
  if (n_missing > 0)
    {
      g_autofree char *missing = g_strdup_printf ("%u", n_missing);
      ws_report_figure_add_fact (figure, _("Signatures not in the rerun's stacks (left out)"), missing);
    }
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      GArray *curve = curves->curve[r];
      g_autofree char *half = streams_text (curves->to_half[r]);
      g_autofree char *full = streams_text (curves->to_full[r]);
      g_autofree char *value = g_strdup_printf (_("%.1f %% after 1 stream; half of it reached %s, all of it %s"),
                                                100 * (curve->len > 1 ? g_array_index (curve, double, 1) : 0), half, full);

      ws_report_figure_add_fact (figure, ws_coverage_ranking_label (r), value);
    }
}

static gboolean
build_coverage (const WsReportContext *ctx,
                WsReportFigure        *figure,
                GError               **error)
{
  g_autoptr(WsMiningResult) run = NULL;
  g_autoptr(WsCoverage) coverage = NULL;
  g_autoptr(WsCoverageCurves) curves = NULL;
  g_autoptr(WsCoveragePlot) plot = NULL;
  WsPinMining mining;
  guint n_missing = 0;

  if (ws_pin_get_n_signatures (ctx->finding) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("the coverage pin names no signature"));
      return FALSE;
    }
  if (!ws_pin_get_mining (ctx->finding, ctx->traces, &mining, error))
    return FALSE;
  mining.settings.cluster = FALSE;
  run = ws_mining_run (ctx->traces, &mining.settings, NULL, NULL, NULL, error);
  ws_pin_mining_clear (&mining);
  if (run == NULL)
    return FALSE;
  coverage = ws_pin_get_coverage (ctx->finding, run, &n_missing);
  if (ws_coverage_get_n_signatures (coverage) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("none of the pinned signatures is in the rerun's stacks"));
      return FALSE;
    }
  curves = ws_coverage_curves_compute (coverage, NULL);
  plot = ws_coverage_plot_new ();
  if (ctx->dark)
    {
      WsCoveragePalette palette;
      ws_coverage_palette_init_dark (&palette);
      ws_coverage_plot_set_palette (plot, &palette);
    }
  ws_coverage_curves_plot (curves, plot);
  if (!ws_export_record (export_coverage, plot, &figure->recording, error))
    return FALSE;
  add_coverage_facts (figure, coverage, curves, n_missing);
  return TRUE;
}

void
ws_report_figure_register_mining (GHashTable *builders)
{
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_ALIGNMENT, build_alignment);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_COVERAGE, build_coverage);
}
