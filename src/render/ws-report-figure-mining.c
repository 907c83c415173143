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
#include "ws-error.h"
#include "ws-pin-mining.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"

/* As many columns as the page shows: more is unreadable. */
#define MAX_ALIGNED_PATTERNS 24

static WsAlignmentGrid *
cluster_grid (WsMiningResult *run,
              guint           cluster)
{
  const WsCluster *cl = ws_cluster_set_get_cluster (run->clusters, cluster);
  guint n = MIN (cl->n_patterns, MAX_ALIGNED_PATTERNS);
  g_autofree const WsFrameId **frames = g_new0 (const WsFrameId *, n);
  g_autofree guint *lengths = g_new0 (guint, n);
  WsAlignmentGrid *grid;

  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (run->patterns, cl->patterns[k]);

      frames[k] = p->frames;
      lengths[k] = p->n_frames;
    }
  grid = ws_alignment_grid_new_aligned (run->similarity, frames, lengths, n);
  for (guint k = 0; k < n; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (run->patterns, cl->patterns[k]);
      g_autofree char *cost = ws_format_duration (p->cost);
      g_autofree char *title = g_strdup_printf ("%u.%u · %s", cluster + 1, k + 1, cost);
      g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u trace · %llu events",
                                                                "%u traces · %llu events", p->n_streams),
                                                   p->n_streams, (unsigned long long) p->n_events);

      ws_alignment_grid_set_title (grid, k, title, subtitle);
    }
  return grid;
}

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
  grid = cluster_grid (run, cluster);
  job = (AlignmentJob) { grid, ctx->dark };
  if (!ws_export_record (export_alignment, &job, &figure->recording, error))
    return FALSE;
  add_cluster_facts (figure, run, cluster, grid);
  signature = ws_mining_cluster_signature (run, cluster);
  frames = g_strsplit (signature, "\n", -1);
  ws_report_figure_add_frames (figure, _("The costliest pattern, caller first"), (const char * const *) frames);
  return TRUE;
}

void
ws_report_figure_register_mining (GHashTable *builders)
{
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_ALIGNMENT, build_alignment);
}
