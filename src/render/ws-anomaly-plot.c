/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The anomaly figures, without GTK:
 *
 * - the model view (the patent's Fig. 6): the histogram of a signature's
 *   historical log-durations, the fitted mixture's density over it and
 *   each component dashed (red when the flags call it anomalous), the
 *   threshold with the anomalous side shaded, and the wait being looked
 *   at marked;
 * - the timeline overlay: a bar under each wait coloured by its anomaly
 *   score (yellow at P(D ≥ d) = 50 % to red at the threshold and below;
 *   a flag shows as an outline), and its legend.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "ws-anomaly-plot.h"
#include "ws-marker-labels.h"
#include "ws-render-util.h"
#include "ws-time-format.h"

#define N_BINS 48
#define MARGIN_LEFT 56.0
#define MARGIN_RIGHT 16.0
#define MARGIN_TOP 48.0
#define MARGIN_BOTTOM 40.0

typedef struct {
  double x0, x1;       /* data range (log ns) */
  double top;          /* density at the top of the plot */
  double px, py, pw, ph;
} Frame;

static double
frame_x (const Frame *f, double v)
{
  return f->px + (v - f->x0) / (f->x1 - f->x0) * f->pw;
}

static double
frame_y (const Frame *f, double d)
{
  return f->py + f->ph - MIN (d / f->top, 1.0) * f->ph;
}

static void
label (cairo_t    *cr,
       const char *text,
       double      x,
       double      y,
       gboolean    centred,
       gboolean    bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (bold ? "Sans Bold 9" : "Sans 8");
  int w, h;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, centred ? x - w / 2.0 : x, y);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

static double
label_width (cairo_t    *cr,
             const char *text,
             gboolean    bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (bold ? "Sans Bold 9" : "Sans 8");
  int w, h;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  pango_font_description_free (font);
  g_object_unref (layout);
  return w;
}

static void
frame_init (Frame                *f,
            const WsAnomalyModel *m,
            double                marked,
            double                width,
            double                height,
            double               *bins)
{
  const double *x = (const double *) (gpointer) m->samples->data;
  guint n = m->samples->len, peak = 0;

  f->x0 = G_MAXDOUBLE;
  f->x1 = -G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      f->x0 = MIN (f->x0, x[i]);
      f->x1 = MAX (f->x1, x[i]);
    }
  if (isfinite (marked))
    {
      f->x0 = MIN (f->x0, marked);
      f->x1 = MAX (f->x1, marked);
    }
  if (m->cut < G_MAXDOUBLE / 2)
    f->x1 = MAX (f->x1, m->cut);
  f->x0 -= 0.5;
  f->x1 += 0.5;
  for (guint i = 0; i < n; i++)
    {
      guint b = MIN ((guint) ((x[i] - f->x0) / (f->x1 - f->x0) * N_BINS), N_BINS - 1);
      bins[b] += 1;
    }
  for (guint b = 0; b < N_BINS; b++)
    {
      /* Counts as a density, comparable with the mixture's. */
      bins[b] /= MAX (n, 1) * (f->x1 - f->x0) / N_BINS;
      peak = bins[b] > bins[peak] ? b : peak;
    }
  f->top = bins[peak];
  for (double v = f->x0; v <= f->x1; v += (f->x1 - f->x0) / 200)
    f->top = MAX (f->top, ws_gmm_pdf (&m->gmm, v));
  f->top *= 1.1;
  f->px = MARGIN_LEFT;
  f->py = MARGIN_TOP;
  f->pw = MAX (width - MARGIN_LEFT - MARGIN_RIGHT, 10);
  f->ph = MAX (height - MARGIN_TOP - MARGIN_BOTTOM, 10);
}

static void
draw_axis (cairo_t     *cr,
           const Frame *f,
           WsColor      fg)
{
  ws_render_set_source (cr, &fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, f->px, f->py + f->ph + 0.5);
  cairo_line_to (cr, f->px + f->pw, f->py + f->ph + 0.5);
  cairo_stroke (cr);
  /* Ticks at powers of ten of the duration. */
  for (int e = 0; e <= 13; e++)
    {
      double v = e * G_LN10;
      g_autofree char *text = NULL;

      if (v < f->x0 || v > f->x1)
        continue;
      cairo_move_to (cr, frame_x (f, v) + 0.5, f->py + f->ph);
      cairo_line_to (cr, frame_x (f, v) + 0.5, f->py + f->ph + 4);
      cairo_stroke (cr);
      text = ws_format_duration ((WsTime) pow (10, e));
      label (cr, text, frame_x (f, v), f->py + f->ph + 6, TRUE, FALSE);
    }
}

static void
draw_curves (cairo_t              *cr,
             const Frame          *f,
             const WsAnomalyModel *m,
             WsColor               mixture,
             WsColor               component,
             WsColor               anomalous)
{
  const double step = (f->x1 - f->x0) / 400;

  cairo_set_line_width (cr, 1);
  for (guint k = 0; k < m->gmm.n_components; k++)
    {
      const WsGmmComponent *c = &m->gmm.components[k];
      gboolean marked = (m->marked_components & (1u << k)) != 0;
      double dash[] = { 4, 3 };

      ws_render_set_source (cr, marked ? &anomalous : &component);
      cairo_set_line_width (cr, marked ? 2 : 1);
      cairo_set_dash (cr, dash, 2, 0);
      for (double v = f->x0; v <= f->x1; v += step)
        {
          double d = c->weight * exp (-(v - c->mean) * (v - c->mean) / (2 * c->variance))
                     / sqrt (2 * G_PI * c->variance);
          if (v == f->x0)
            cairo_move_to (cr, frame_x (f, v), frame_y (f, d));
          else
            cairo_line_to (cr, frame_x (f, v), frame_y (f, d));
        }
      cairo_stroke (cr);
      if (marked && c->mean > f->x0 && c->mean < f->x1)
        /* Translators: beside a mixture component the analyst's flags call anomalous */
        label (cr, _("flagged anomalous"), frame_x (f, c->mean) + 3,
               frame_y (f, c->weight / sqrt (2 * G_PI * c->variance)) - 16, FALSE, FALSE);
    }
  cairo_set_dash (cr, NULL, 0, 0);
  ws_render_set_source (cr, &mixture);
  cairo_set_line_width (cr, 2);
  for (double v = f->x0; v <= f->x1; v += step)
    {
      if (v == f->x0)
        cairo_move_to (cr, frame_x (f, v), frame_y (f, ws_gmm_pdf (&m->gmm, v)));
      else
        cairo_line_to (cr, frame_x (f, v), frame_y (f, ws_gmm_pdf (&m->gmm, v)));
    }
  cairo_stroke (cr);
}

static void
draw_titles (cairo_t              *cr,
             const Frame          *f,
             const WsAnomalyModel *m,
             WsColor               fg)
{
  g_autofree char *from = ws_format_duration ((WsTime) ceil (exp (MIN (m->cut, 60.0))));
  g_autofree char *line = NULL;

  ws_render_set_source (cr, &fg);
  label (cr, m->key, f->px, 8, FALSE, TRUE);
  /* Translators: under the model view's title; %s: a duration */
  /* In words: P(D ≥ d) says how rare a wait that long is (the mixture's
   * K and level are in the view's text below). */
  line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u wait · anomalous from %s: at most %.1f %% of waits last that long · "
                                       "flagged %u normal, %u anomalous",
                                       "%u waits · anomalous from %s: at most %.1f %% of waits last that long · "
                                       "flagged %u normal, %u anomalous",
                                       m->samples->len),
                          m->samples->len, from, 100 * m->threshold, m->n_flagged_normal, m->n_flagged_anomalous);
  label (cr, line, f->px, 26, FALSE, FALSE);
}

/**
 * ws_anomaly_plot_draw:
 * @marked_log_duration: the log-duration of the wait looked at, or NAN
 *
 * Draws the model view of @model into @cr (0, 0 at the top left).
 */
void
ws_anomaly_plot_draw (cairo_t              *cr,
                      double                width,
                      double                height,
                      const WsAnomalyModel *model,
                      double                marked_log_duration,
                      gboolean              dark)
{
  double bins[N_BINS] = { 0 };
  WsColor bg = dark ? ws_render_rgb (0x242424, 1) : ws_render_rgb (0xffffff, 1);
  WsColor fg = dark ? ws_render_rgb (0xffffff, 1) : ws_render_rgb (0x241f31, 1);
  WsColor bar = ws_render_rgb (0x99c1f1, 1);
  WsColor shade = ws_render_rgb (0xe01b24, 0.12);
  WsColor red = ws_render_rgb (0xc01c28, 1);
  WsColor mixture = ws_render_rgb (0x1a5fb4, 1);
  WsColor component = ws_render_rgb (0x613583, 0.8);
  Frame f;

  g_return_if_fail (model != NULL && model->samples != NULL);

  ws_render_set_source (cr, &bg);
  cairo_paint (cr);
  if (model->samples->len == 0 || model->gmm.n_components == 0)
    return;
  frame_init (&f, model, marked_log_duration, width, height, bins);

  if (model->cut < f.x1)
    {
      ws_render_set_source (cr, &shade);
      cairo_rectangle (cr, frame_x (&f, model->cut), f.py, f.px + f.pw - frame_x (&f, model->cut), f.ph);
      cairo_fill (cr);
    }
  ws_render_set_source (cr, &bar);
  for (guint b = 0; b < N_BINS; b++)
    {
      double v0 = f.x0 + b * (f.x1 - f.x0) / N_BINS, v1 = v0 + (f.x1 - f.x0) / N_BINS;
      cairo_rectangle (cr, frame_x (&f, v0), frame_y (&f, bins[b]), frame_x (&f, v1) - frame_x (&f, v0) - 1,
                       f.py + f.ph - frame_y (&f, bins[b]));
    }
  cairo_fill (cr);
  draw_curves (cr, &f, model, mixture, component, red);

  {
    /* The two markers' labels never over each other or out of the plot
     * (a wait about as long as the threshold put them on one spot). */
    gboolean has_cut = model->cut < f.x1, has_wait = isfinite (marked_log_duration);
    WsMarkerLabel cut_label = {
      .line_x = has_cut ? frame_x (&f, model->cut) : -G_MAXDOUBLE,
      .width = has_cut ? label_width (cr, _("threshold"), FALSE) : 0,
    };
    WsMarkerLabel wait_label = {
      .line_x = has_wait ? frame_x (&f, marked_log_duration) : G_MAXDOUBLE,
      .width = has_wait ? label_width (cr, _("this wait"), TRUE) : 0,
    };

    ws_marker_labels_place (&cut_label, &wait_label, f.px, f.px + f.pw, 6);
    if (has_cut)
      {
        ws_render_set_source (cr, &red);
        cairo_set_line_width (cr, 1.5);
        cairo_move_to (cr, cut_label.line_x, f.py);
        cairo_line_to (cr, cut_label.line_x, f.py + f.ph);
        cairo_stroke (cr);
        label (cr, _("threshold"), cut_label.x, f.py + 2 + 16 * cut_label.row, FALSE, FALSE);
      }
    if (has_wait)
      {
        double x = wait_label.line_x;

        ws_render_set_source (cr, &fg);
        cairo_set_line_width (cr, 2);
        cairo_move_to (cr, x, f.py + 14);
        cairo_line_to (cr, x, f.py + f.ph);
        cairo_stroke (cr);
        cairo_move_to (cr, x, f.py + 14);
        cairo_line_to (cr, x - 5, f.py + 6);
        cairo_line_to (cr, x + 5, f.py + 6);
        cairo_close_path (cr);
        cairo_fill (cr);
        label (cr, _("this wait"), wait_label.x, f.py + 4 + 16 * wait_label.row, FALSE, TRUE);
      }
  }
  draw_axis (cr, &f, fg);
  draw_titles (cr, &f, model, fg);
}

typedef struct {
  const WsAnomalyModel *model;
  double                marked;
} PlotData;

static void
draw_for_export (cairo_t  *cr,
                 double    width,
                 double    height,
                 gpointer  user_data)
{
  PlotData *d = user_data;
  ws_anomaly_plot_draw (cr, width, height, d->model, d->marked, FALSE);
}

/**
 * ws_anomaly_plot_export:
 * @path: where; PNG, SVG or PDF by its extension
 *
 * Writes the model view, as the GUI's export and `waitscope-cli model show
 * --figure` do.
 */
gboolean
ws_anomaly_plot_export (const char           *path,
                        const WsAnomalyModel *model,
                        double                marked_log_duration,
                        double                width,
                        double                height,
                        GError              **error)
{
  PlotData d = { model, marked_log_duration };
  WsExportFormat format;

  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: unknown figure format (use .png, .svg or .pdf)"), path);
      return FALSE;
    }
  return ws_export_draw (path, format, width, height, draw_for_export, &d, error);
}

/* ------------------------------------------------------------------ */
/* Timeline overlay                                                     */

/**
 * ws_anomaly_score_color:
 *
 * Returns: the colour of a wait of score @score: red at or below the
 *   threshold (or when flagged anomalous), orange to yellow up to 50 %,
 *   transparent above
 */
WsColor
ws_anomaly_score_color (double   score,
                        double   threshold,
                        gboolean anomalous)
{
  double t;

  if (anomalous)
    return ws_render_rgb (0xe01b24, 1);
  if (score >= 0.5)
    return ws_render_rgb (0, 0);
  /* 0 at 50 %, 1 at the threshold, on a log scale. */
  t = CLAMP (log (0.5 / score) / log (0.5 / MAX (threshold, 1e-12)), 0, 1);
  return (WsColor) { 0.96, 0.83 - 0.45 * t, 0.18 * (1 - t), 0.35 + 0.55 * t };
}

void
ws_anomaly_overlay_draw (cairo_t                  *cr,
                         const WsTimelineGeometry *geometry,
                         WsTimelineLayout         *layout,
                         WsTimelineViewport       *viewport,
                         double                    scroll_y,
                         double                    width,
                         double                    height,
                         WsAnomalyResult          *result,
                         guint                     trace_index)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, trace_index);
  WsTime begin = ws_timeline_viewport_get_begin (viewport), end = ws_timeline_viewport_get_end (viewport);
  const WsWaitScore *s;
  guint n;

  cairo_save (cr);
  cairo_rectangle (cr, geometry->label_width, geometry->ruler_height, width - geometry->label_width,
                   height - geometry->ruler_height);
  cairo_clip (cr);
  s = ws_anomaly_result_get_scores (result, trace_index, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, s[i].event);
      const WsAnomalyModel *m;
      guint row_index;
      const WsTimelineRow *row;
      WsColor c;
      double x0, x1, y;

      /* Only the waits that delayed another thread, and flagged ones: an idle
       * worker's or a daemon's wait is coloured by nobody's cost. */
      if (e->time > end || e->time + ws_event_duration (e) < begin || (s[i].score >= 0.5 && !s[i].anomalous && !s[i].flag)
          || (s[i].delay_caused == 0 && s[i].flag == WS_ANOMALY_FLAG_NONE))
        continue;
      row_index = ws_timeline_layout_find_thread_row (layout, e->thread);
      if (row_index == WS_NONE)
        continue;
      row = ws_timeline_layout_get_row (layout, row_index);
      y = geometry->ruler_height + row->y - scroll_y;
      if (y + row->height < 0 || y > height)
        continue;
      m = ws_anomaly_result_get_model (result, s[i].model);
      c = ws_anomaly_score_color (s[i].score, m->threshold, s[i].anomalous);
      x0 = geometry->label_width + ws_timeline_viewport_time_to_x (viewport, MAX (e->time, begin));
      x1 = geometry->label_width + ws_timeline_viewport_time_to_x (viewport, MIN (e->time + ws_event_duration (e), end));
      x1 = MAX (x1, x0 + 3);
      ws_render_set_source (cr, &c);
      cairo_rectangle (cr, x0, y + row->height - 5, x1 - x0, 4);
      cairo_fill (cr);
      if (s[i].flag != WS_ANOMALY_FLAG_NONE)
        {
          WsColor ring = s[i].flag == WS_ANOMALY_FLAG_ANOMALOUS ? ws_render_rgb (0xa51d2d, 1)
                                                                 : ws_render_rgb (0x26a269, 1);
          ws_render_set_source (cr, &ring);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x0 - 1, y + 1, x1 - x0 + 2, row->height - 2);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
}

/**
 * ws_anomaly_overlay_legend:
 *
 * Draws the score ramp's legend at (@x, @y).
 *
 * Returns: its width
 */
double
ws_anomaly_overlay_legend (cairo_t *cr,
                           double   x,
                           double   y,
                           double   threshold,
                           gboolean dark)
{
  WsColor fg = dark ? ws_render_rgb (0xffffff, 1) : ws_render_rgb (0x241f31, 1);
  WsColor box = dark ? ws_render_rgb (0x303030, 0.92) : ws_render_rgb (0xffffff, 0.92);
  const double scores[] = { 0.4, 0.2, 0.1, threshold };
  double cx = x + 6;

  ws_render_set_source (cr, &box);
  cairo_rectangle (cr, x, y - 4, 64 * (G_N_ELEMENTS (scores) + 1) + 8, 20);
  cairo_fill (cr);
  ws_render_set_source (cr, &fg);
  label (cr, _("P(D ≥ d):"), cx, y - 2, FALSE, FALSE);
  cx += 64;
  for (guint i = 0; i < G_N_ELEMENTS (scores); i++)
    {
      WsColor c = ws_anomaly_score_color (scores[i], threshold, i == G_N_ELEMENTS (scores) - 1);
      /* The last swatch is the verdict: under the default rule (false
       * discoveries over each kind) no single P bar makes a wait
       * anomalous, so it is named, not numbered. */
      g_autofree char *text = i == G_N_ELEMENTS (scores) - 1 ? g_strdup (_("anomalous"))
                                                             : g_strdup_printf ("%g", scores[i]);

      ws_render_set_source (cr, &c);
      cairo_rectangle (cr, cx, y + 4, 18, 5);
      cairo_fill (cr);
      ws_render_set_source (cr, &fg);
      label (cr, text, cx + 22, y - 2, FALSE, FALSE);
      cx += 64;
    }
  return cx - x;
}
