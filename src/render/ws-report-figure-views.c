/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Report figures of the views that are not graphs of one thread: the
 * root-cause attribution of the Overview page and the model of one wait
 * (the histogram with its mixture, the anomaly view).  Like the others
 * (ws-report-figure.c) each reruns the view's own core entry point on the
 * pinned traces and records the figure in vector.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "ws-anomaly-plot.h"
#include "ws-error.h"
#include "ws-history-store.h"
#include "ws-overview.h"
#include "ws-render-util.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"

#define MODEL_WIDTH        800.0
#define MODEL_HEIGHT       480.0
#define CHART_WIDTH        900.0
#define CHART_ROW          30.0
#define CHART_LABEL_WIDTH  380.0
#define CHART_CAUSES       10

/* ------------------------------------------------------------------ */
/* Anomaly model of one wait                                            */

typedef struct {
  const WsAnomalyModel *model;
  double                marked;
} ModelJob;

static gboolean
export_model (gpointer  user_data,
              GError  **error)
{
  ModelJob *job = user_data;

  return ws_anomaly_plot_export ("figure.svg", job->model, job->marked, MODEL_WIDTH, MODEL_HEIGHT, error);
}

/* The user's history, read only, if there is one: the model the window
 * showed was fitted on it.  Without it the model is fitted on the trace. */
static WsHistoryStore *
open_history (char **path)
{
  g_autoptr(GError) ignored = NULL;

  *path = ws_history_store_default_path ();
  if (!g_file_test (*path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return ws_history_store_open_read_only (*path, &ignored);
}

static void
add_model_facts (WsReportFigure       *figure,
                 const WsAnomalyModel *m,
                 const WsWaitScore    *score,
                 const char           *history)
{
  g_autofree char *cut = ws_format_duration ((WsTime) exp (m->cut));
  g_autofree char *samples = g_strdup_printf (_("%u from the history, %u from this trace"), m->n_history, m->n_current);
  g_autofree char *verdict = g_strdup_printf (_("P(D ≥ d) = %.3g: %s"), score->score,
                                              score->anomalous ? _("anomalous") : _("normal"));

  ws_report_figure_add_fact (figure, _("Wait signature"), m->key);
  ws_report_figure_add_fact (figure, _("Model"), ws_model_level_to_string (m->level));
  ws_report_figure_add_fact (figure, _("Samples"), samples);
  ws_report_figure_add_fact (figure, _("Anomalous from"), cut);
  ws_report_figure_add_fact (figure, _("This wait"), verdict);
  ws_report_figure_add_fact (figure, _("History"), history ? history : _("none: fitted on the trace alone"));
}

static gboolean
build_anomaly_model (const WsReportContext *ctx,
                     WsReportFigure        *figure,
                     GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  gint64 event = ws_pin_get_event (ctx->finding);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsAnomalyResult) result = NULL;
  g_autofree char *history = NULL;
  g_autofree char *digest = NULL;
  const WsWaitScore *score;
  const WsAnomalyModel *model;
  const WsEvent *e;
  WsAnomalySettings settings;
  ModelJob job;

  if (event < 0 || event >= ws_trace_get_n_events (trace) || ws_trace_get_event (trace, event)->kind != WS_EVENT_WAIT)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("event %lld of the trace is not a wait"), (long long) event);
      return FALSE;
    }
  e = ws_trace_get_event (trace, event);
  ws_anomaly_settings_init (&settings);
  settings.threshold = CLAMP (ws_pin_get_setting_int (ctx->finding, "threshold_ppm", settings.threshold * 1e6) / 1e6,
                              1e-6, 0.5);
  settings.signature_depth = CLAMP (ws_pin_get_setting_int (ctx->finding, "signature_depth", settings.signature_depth),
                                    1, WS_WAIT_SIGNATURE_MAX_DEPTH);
  store = open_history (&history);
  digest = ws_history_store_trace_digest (trace, error);
  if (digest == NULL)
    return FALSE;
  result = ws_anomaly_detect (&trace, (const char * const *) &digest, 1, store, &settings, NULL, NULL, NULL, error);
  if (result == NULL)
    return FALSE;
  score = ws_anomaly_result_lookup (result, 0, event);
  if (score == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the wait (event %lld) has no model"), (long long) event);
      return FALSE;
    }
  model = ws_anomaly_result_get_model (result, score->model);
  job.model = model;
  job.marked = log ((double) MAX (ws_event_duration (e), 1));
  if (!ws_export_record (export_model, &job, &figure->recording, error))
    return FALSE;
  add_model_facts (figure, model, score, store ? history : NULL);
  ws_report_figure_add_wait (figure, trace, event, _("The wait"));
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Root-cause attribution (the Overview page)                           */

static const WsColor cause_colors[WS_N_CAUSE_KINDS] = {
  { 0.20, 0.52, 0.89, 1 },   /* running */
  { 0.90, 0.65, 0.04, 1 },   /* ready */
  { 0.88, 0.11, 0.14, 1 },   /* blocked */
  { 0.60, 0.60, 0.60, 1 },   /* no data */
};

static void
draw_text (cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      width,
           gboolean    right)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 10");
  int w, h;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, right ? x + width - w : x, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

typedef struct {
  WsAttribution *attribution;
  gboolean       dark;
} ChartJob;

static guint
chart_rows (WsAttribution *attribution)
{
  return MIN (ws_attribution_get_n_causes (attribution), CHART_CAUSES);
}

/* One bar per cause, longest first, as wide as its share of the time. */
static void
draw_chart (cairo_t  *cr,
            double    width,
            double    height,
            gpointer  user_data)
{
  ChartJob *job = user_data;
  double bar_x = CHART_LABEL_WIDTH + 16, bar_width = width - bar_x - 120;
  double fg = job->dark ? 0.92 : 0.1;

  cairo_set_source_rgb (cr, job->dark ? 0.14 : 1, job->dark ? 0.14 : 1, job->dark ? 0.14 : 1);
  cairo_paint (cr);
  for (guint i = 0; i < chart_rows (job->attribution); i++)
    {
      const WsCause *c = ws_attribution_get_cause (job->attribution, i);
      const WsColor *color = &cause_colors[MIN ((guint) c->kind, WS_N_CAUSE_KINDS - 1)];
      double y = 12 + i * CHART_ROW + CHART_ROW / 2;
      g_autofree char *time = ws_format_duration (c->time);
      g_autofree char *value = g_strdup_printf ("%.1f %%  %s", 100 * c->share, time);

      cairo_set_source_rgb (cr, fg, fg, fg);
      draw_text (cr, c->label, 8, y, CHART_LABEL_WIDTH, TRUE);
      cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
      cairo_rectangle (cr, bar_x, y - CHART_ROW * 0.35, MAX (1.0, bar_width * CLAMP (c->share, 0, 1)), CHART_ROW * 0.7);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, fg, fg, fg);
      draw_text (cr, value, bar_x + MAX (1.0, bar_width * CLAMP (c->share, 0, 1)) + 6, y, 200, FALSE);
    }
}

static gboolean
export_chart (gpointer  user_data,
              GError  **error)
{
  ChartJob *job = user_data;
  double height = 24 + MAX (1u, chart_rows (job->attribution)) * CHART_ROW;

  return ws_export_draw ("figure.svg", WS_EXPORT_SVG, CHART_WIDTH, height, draw_chart, job, error);
}

static gboolean
build_attribution (const WsReportContext *ctx,
                   WsReportFigure        *figure,
                   GError               **error)
{
  g_autoptr(WsOverview) overview = NULL;
  WsAttributionSettings settings;
  WsAttribution *attribution;
  ChartJob job = { NULL, ctx->dark };
  g_autofree char *total = NULL;

  ws_attribution_settings_init (&settings);
  overview = ws_overview_compute (ctx->traces, &settings, error);
  if (overview == NULL)
    return FALSE;
  attribution = ws_overview_get_attribution (overview);
  job.attribution = attribution;
  if (!ws_export_record (export_chart, &job, &figure->recording, error))
    return FALSE;
  total = ws_format_duration (ws_attribution_get_total (attribution));
  ws_report_figure_add_fact (figure, _("What is explained"), ws_overview_get_explained (overview));
  ws_report_figure_add_fact (figure, _("Time explained"), total);
  for (guint i = 0; i < chart_rows (attribution) && i < 5; i++)
    {
      const WsCause *c = ws_attribution_get_cause (attribution, i);
      g_autofree char *what = g_strdup_printf (_("Cause %u"), i + 1);
      g_autofree char *time = ws_format_duration (c->time);
      g_autofree char *value = g_strdup_printf ("%s: %.1f %% (%s)", c->label, 100 * c->share, time);
      g_autofree char *title = g_strdup_printf (_("Cause %u, an example: stack"), i + 1);

      ws_report_figure_add_fact (figure, what, value);
      if (c->example_stack != NULL && c->example_stack[0] != NULL)
        ws_report_figure_add_frames (figure, title, (const char * const *) c->example_stack);
    }
  return TRUE;
}

void
ws_report_figure_register_views (GHashTable *builders)
{
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_ANOMALY_MODEL, build_anomaly_model);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_ATTRIBUTION, build_attribution);
}
