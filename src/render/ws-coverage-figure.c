/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The bottleneck-coverage chart of StackMine Fig. 4 from a #WsCoverage:
 * the curves of the four techniques and how the chart shows them.  The
 * Mining page, `waitscope-cli cluster --coverage-figure` and the report
 * all draw it through here, so a pinned chart is the one on screen.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-coverage-figure.h"

static const char * const ranking_labels[WS_N_RANKINGS] = {
  N_("StackMine ranking"), N_("Random"), N_("Greedy-Total"), N_("Greedy-Max"),
};

/* Translated. */
const char *
ws_coverage_ranking_label (WsRanking ranking)
{
  g_return_val_if_fail (ranking < WS_N_RANKINGS, "");
  return _(ranking_labels[ranking]);
}

void
ws_coverage_curves_free (WsCoverageCurves *curves)
{
  if (curves == NULL)
    return;
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    g_clear_pointer (&curves->curve[r], g_array_unref);
  g_free (curves);
}

/**
 * ws_coverage_curves_compute:
 * @coverage: not changed while this runs (it is read unlocked)
 *
 * Returns: (transfer full) (nullable): the curves, %NULL if cancelled
 */
WsCoverageCurves *
ws_coverage_curves_compute (WsCoverage   *coverage,
                            GCancellable *cancellable)
{
  g_autoptr(WsCoverageCurves) curves = g_new0 (WsCoverageCurves, 1);

  curves->total = ws_coverage_get_total_coverage (coverage);
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return NULL;
      curves->curve[r] = ws_coverage_curve (coverage, r, 0, 1);
      curves->to_half[r] = ws_coverage_streams_to_reach (coverage, r, curves->total / 2, 0, 1);
      curves->to_full[r] = ws_coverage_streams_to_reach (coverage, r, curves->total, 0, 1);
    }
  curves->n_streams = curves->curve[0]->len - 1;
  return g_steal_pointer (&curves);
}

/**
 * ws_coverage_curves_plot:
 *
 * Shows @curves in @plot (cleared first): our ranking emphasized, Random
 * dashed, the coverage of all signatures as the target line.
 */
void
ws_coverage_curves_plot (const WsCoverageCurves *curves,
                         WsCoveragePlot         *plot)
{
  static const WsCoverageSeriesStyle styles[WS_N_RANKINGS] = {
    WS_COVERAGE_SERIES_EMPHASIS, WS_COVERAGE_SERIES_DASHED, WS_COVERAGE_SERIES_SOLID, WS_COVERAGE_SERIES_SOLID,
  };
  double last = 0;
  guint shown;

  ws_coverage_plot_clear (plot);
  for (guint r = 0; r < WS_N_RANKINGS; r++)
    {
      GArray *curve = curves->curve[r];

      /* The curve starts at k = 0 (nothing inspected); the plot at k = 1. */
      ws_coverage_plot_add_series (plot, ws_coverage_ranking_label (r), (const double *) (gpointer) curve->data + 1,
                                   curve->len - 1, styles[r]);
      last = MAX (last, curves->to_full[r]);
    }
  /* After every order has reached the signatures' coverage the curves
   * are flat: show the streams up to there (with a margin), not all
   * 1,360 transactions of a trace. */
  shown = last < 0 ? curves->n_streams : MIN (curves->n_streams, MAX (10, (guint) ceil (last * 1.25)));
  ws_coverage_plot_set_target (plot, curves->total);
  ws_coverage_plot_set_n_traces (plot, shown);
  if (shown < curves->n_streams)
    {
      /* Translators: x axis title when the chart shows the first streams only */
      g_autofree char *title = g_strdup_printf (_("Trace streams inspected (first %u of %u; flat after)"),
                                                shown, curves->n_streams);
      ws_coverage_plot_set_x_title (plot, title);
    }
  else
    ws_coverage_plot_set_x_title (plot, NULL);
}
