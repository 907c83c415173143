/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Coverage is only known after whole trace streams are inspected, so each
 * curve is a staircase: flat while the k-th stream is read, rising at k.
 * Drawing the steps rather than joining the points keeps the chart honest
 * about that (a straight line would promise coverage half-way through a
 * stream), and with a handful of streams the markers show every point.
 *
 * Two techniques often pick the same streams in the same order (on a
 * trace with one dominant signature Greedy-Total, Greedy-Max and our
 * ranking are one curve): the later curve would hide under the one drawn
 * over it.  Such a curve is drawn dashed and shifted a few pixels up and
 * right of the curve it equals, and its legend entry says which one.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "ws-coverage-plot.h"
#include "ws-render-util.h"

#define MARGIN_TOP        14.0
#define MARGIN_RIGHT      20.0
#define AXIS_LABEL_WIDTH  44.0
#define AXIS_TITLE_SIZE   18.0
#define TICK_LABEL_HEIGHT 18.0
#define TICK_LENGTH        4.0
#define LEGEND_ROW        22.0
#define LEGEND_SWATCH     26.0
#define LEGEND_GAP        18.0
#define MARKERS_UP_TO     40
#define COINCIDE_SHIFT     3.0   /* px, per curve drawn beside an identical one */

typedef struct {
  char                  *label;
  double                *coverage;
  guint                  n_points;
  WsCoverageSeriesStyle  style;
  WsColor                color;
} Series;

struct _WsCoveragePlot
{
  GObject            parent_instance;

  WsCoveragePalette  palette;
  PangoContext      *context;
  char              *family;
  PangoLayout       *layout;
  PangoLayout       *title;

  GArray            *series;      /* Series */
  double             target;      /* < 0: none */
  guint              n_traces;    /* 0: the longest series */
  double             width;
  double             height;
  char              *x_title;
};

G_DEFINE_FINAL_TYPE (WsCoveragePlot, ws_coverage_plot, G_TYPE_OBJECT)

static void
series_clear (gpointer data)
{
  Series *s = data;
  g_free (s->label);
  g_free (s->coverage);
}

static void
ws_coverage_plot_finalize (GObject *object)
{
  WsCoveragePlot *self = WS_COVERAGE_PLOT (object);

  g_array_unref (self->series);
  g_clear_object (&self->layout);
  g_clear_object (&self->title);
  g_clear_object (&self->context);
  g_free (self->family);
  g_free (self->x_title);

  G_OBJECT_CLASS (ws_coverage_plot_parent_class)->finalize (object);
}

static void
ws_coverage_plot_class_init (WsCoveragePlotClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_coverage_plot_finalize;
}

static void
ws_coverage_plot_init (WsCoveragePlot *self)
{
  ws_coverage_palette_init_light (&self->palette);
  self->series = g_array_new (FALSE, TRUE, sizeof (Series));
  g_array_set_clear_func (self->series, series_clear);
  self->target = -1;
  self->width = 640;
  self->height = 400;
  self->family = g_strdup ("Sans");
  self->context = ws_render_figure_context_new ();
}

WsCoveragePlot *
ws_coverage_plot_new (void)
{
  return g_object_new (WS_TYPE_COVERAGE_PLOT, NULL);
}

void
ws_coverage_palette_init_light (WsCoveragePalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0xffffff, 1);
  p->plot_background = ws_render_rgb (0xfafafa, 1);
  p->foreground = ws_render_rgb (0x241f31, 1);
  p->dim_foreground = ws_render_rgb (0x5e5c64, 1);
  p->grid = ws_render_rgb (0xe6e5e3, 1);
  p->axis = ws_render_rgb (0x77767b, 1);
  p->target = ws_render_rgb (0x26a269, 1);
  /* Ours in the accent blue; baselines in clearly different hues. */
  p->series[0] = ws_render_rgb (0x1c71d8, 1);
  p->series[1] = ws_render_rgb (0x77767b, 1);
  p->series[2] = ws_render_rgb (0xe66100, 1);
  p->series[3] = ws_render_rgb (0x9141ac, 1);
}

void
ws_coverage_palette_init_dark (WsCoveragePalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0x1e1e1e, 1);
  p->plot_background = ws_render_rgb (0x242424, 1);
  p->foreground = ws_render_rgb (0xffffff, 1);
  p->dim_foreground = ws_render_rgb (0xc0bfbc, 1);
  p->grid = ws_render_rgb (0x3a3a3a, 1);
  p->axis = ws_render_rgb (0x9a9996, 1);
  p->target = ws_render_rgb (0x57e389, 1);
  p->series[0] = ws_render_rgb (0x62a0ea, 1);
  p->series[1] = ws_render_rgb (0xc0bfbc, 1);
  p->series[2] = ws_render_rgb (0xffa348, 1);
  p->series[3] = ws_render_rgb (0xdc8add, 1);
}

void
ws_coverage_plot_set_palette (WsCoveragePlot          *self,
                              const WsCoveragePalette *palette)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_return_if_fail (palette != NULL);

  self->palette = *palette;
  for (guint i = 0; i < self->series->len; i++)
    g_array_index (self->series, Series, i).color = palette->series[i % G_N_ELEMENTS (palette->series)];
}

const WsCoveragePalette *
ws_coverage_plot_get_palette (WsCoveragePlot *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), NULL);
  return &self->palette;
}

void
ws_coverage_plot_set_font (WsCoveragePlot *self,
                           const char     *family)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_return_if_fail (family != NULL);

  g_free (self->family);
  self->family = g_strdup (family);
  g_clear_object (&self->layout);
  g_clear_object (&self->title);
}

void
ws_coverage_plot_clear (WsCoveragePlot *self)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_array_set_size (self->series, 0);
  self->target = -1;
  self->n_traces = 0;
}

/**
 * ws_coverage_plot_add_series:
 * @label: the legend's name for it ("StackMine", "Random"…)
 * @coverage: (array length=n_points): the coverage (0…1) after
 *   inspecting 1, 2, … @n_points trace streams
 *
 * Returns: the series' index; its colour is the palette's series colour
 *   of that index
 */
guint
ws_coverage_plot_add_series (WsCoveragePlot        *self,
                             const char            *label,
                             const double          *coverage,
                             guint                  n_points,
                             WsCoverageSeriesStyle  style)
{
  Series s = { 0 };

  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), 0);
  g_return_val_if_fail (label != NULL, 0);
  g_return_val_if_fail (coverage != NULL || n_points == 0, 0);

  s.label = g_strdup (label);
  s.coverage = g_memdup2 (coverage, sizeof (double) * n_points);
  s.n_points = n_points;
  s.style = style;
  s.color = self->palette.series[self->series->len % G_N_ELEMENTS (self->palette.series)];
  g_array_append_val (self->series, s);
  return self->series->len - 1;
}

guint
ws_coverage_plot_get_n_series (WsCoveragePlot *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), 0);
  return self->series->len;
}

const WsColor *
ws_coverage_plot_get_series_color (WsCoveragePlot *self,
                                   guint           series)
{
  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), NULL);
  g_return_val_if_fail (series < self->series->len, NULL);
  return &g_array_index (self->series, Series, series).color;
}

/**
 * ws_coverage_plot_set_target:
 * @coverage: the coverage of all signatures together (0…1), drawn as a
 *   dotted line, or a negative value for none
 */
void
ws_coverage_plot_set_target (WsCoveragePlot *self,
                             double          coverage)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  self->target = coverage;
}

/* The all-signatures coverage line, or a negative value. */
double
ws_coverage_plot_get_target (WsCoveragePlot *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), -1);
  return self->target;
}

/**
 * ws_coverage_plot_set_n_traces:
 * @n_traces: the end of the x axis, or 0 for the longest series; a
 *   series longer than that is cut at the axis' end
 */
void
ws_coverage_plot_set_n_traces (WsCoveragePlot *self,
                               guint           n_traces)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  self->n_traces = n_traces;
}

guint
ws_coverage_plot_get_n_traces (WsCoveragePlot *self)
{
  guint n;

  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), 0);

  if (self->n_traces > 0)
    return self->n_traces;
  n = 1;
  for (guint i = 0; i < self->series->len; i++)
    n = MAX (n, g_array_index (self->series, Series, i).n_points);
  return n;
}

/**
 * ws_coverage_plot_set_x_title:
 * @title: (nullable): the x axis' title; %NULL for "Trace streams inspected"
 */
void
ws_coverage_plot_set_x_title (WsCoveragePlot *self,
                              const char     *title)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_free (self->x_title);
  self->x_title = g_strdup (title);
}

void
ws_coverage_plot_set_size (WsCoveragePlot *self,
                           double          width,
                           double          height)
{
  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
}

static void
ensure_layouts (WsCoveragePlot *self)
{
  PangoFontDescription *font;

  if (self->layout != NULL)
    return;
  font = pango_font_description_new ();
  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, 9 * PANGO_SCALE);
  self->layout = pango_layout_new (self->context);
  pango_layout_set_font_description (self->layout, font);
  pango_font_description_set_size (font, 10 * PANGO_SCALE);
  pango_font_description_set_weight (font, PANGO_WEIGHT_SEMIBOLD);
  self->title = pango_layout_new (self->context);
  pango_layout_set_font_description (self->title, font);
  pango_font_description_free (font);
}

/* The first series with exactly the points of series @i among those
 * drawn over it (lower indices are drawn later), or -1. */
static int
coincides_with (WsCoveragePlot *self,
                guint           i)
{
  const Series *s = &g_array_index (self->series, Series, i);

  for (guint j = 0; j < i; j++)
    {
      const Series *o = &g_array_index (self->series, Series, j);
      gboolean same = o->n_points == s->n_points && s->n_points > 0;

      for (guint k = 0; same && k < s->n_points; k++)
        same = fabs (o->coverage[k] - s->coverage[k]) <= 1e-12;
      if (same)
        return (int) j;
    }
  return -1;
}

/* How many curves series @i is shifted by: 0 unless it equals an earlier
 * one, then 1, 2… in the order of the series equal to that one. */
static guint
coincide_rank (WsCoveragePlot *self,
               guint           i)
{
  int j = coincides_with (self, i);
  guint rank = 1;

  if (j < 0)
    return 0;
  for (guint h = j + 1; h < i; h++)
    if (coincides_with (self, h) == j)
      rank++;
  return rank;
}

/* The legend's (and the description's) name of series @i, saying when
 * it is the same curve as another. */
static char *
series_label (WsCoveragePlot *self,
              guint           i)
{
  int j = coincides_with (self, i);

  if (j < 0)
    return g_strdup (g_array_index (self->series, Series, i).label);
  /* Translators: a coverage curve identical to another one, e.g.
   * "Greedy-Max (same as StackMine ranking)" */
  return g_strdup_printf (_("%s (same as %s)"), g_array_index (self->series, Series, i).label,
                          g_array_index (self->series, Series, j).label);
}

static double
legend_item_width (WsCoveragePlot *self,
                   guint           i)
{
  g_autofree char *label = series_label (self, i);
  int w;

  pango_layout_set_text (self->layout, label, -1);
  pango_layout_get_pixel_size (self->layout, &w, NULL);
  return LEGEND_SWATCH + 6 + w + LEGEND_GAP;
}

/* Rows the legend needs at the plot area's width. */
static guint
legend_rows (WsCoveragePlot *self,
             double          avail)
{
  double x = 0;
  guint rows = self->series->len ? 1 : 0;

  for (guint i = 0; i < self->series->len; i++)
    {
      double w = legend_item_width (self, i);
      if (x > 0 && x + w > avail)
        {
          rows++;
          x = 0;
        }
      x += w;
    }
  return rows;
}

/**
 * ws_coverage_plot_get_area:
 * @area: (out): the rectangle of the axes at the current size: x = 0
 *   streams and coverage = 100 % at its top-left corner
 */
void
ws_coverage_plot_get_area (WsCoveragePlot *self,
                           WsCoverageRect *area)
{
  double left, bottom, w;

  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_return_if_fail (area != NULL);

  ensure_layouts (self);
  left = AXIS_TITLE_SIZE + AXIS_LABEL_WIDTH;
  w = MAX (self->width - left - MARGIN_RIGHT, 10);
  bottom = TICK_LENGTH + TICK_LABEL_HEIGHT + AXIS_TITLE_SIZE + 6 + legend_rows (self, w) * LEGEND_ROW;
  area->x = left;
  area->y = MARGIN_TOP;
  area->width = w;
  area->height = MAX (self->height - MARGIN_TOP - bottom, 10);
}

/**
 * ws_coverage_plot_to_device:
 * @traces: streams inspected (x)
 * @coverage: coverage, 0…1 (y)
 * @px: (out): the device x of that point
 * @py: (out): its device y
 */
void
ws_coverage_plot_to_device (WsCoveragePlot *self,
                            double          traces,
                            double          coverage,
                            double         *px,
                            double         *py)
{
  WsCoverageRect a;

  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));

  ws_coverage_plot_get_area (self, &a);
  if (px != NULL)
    *px = a.x + traces / ws_coverage_plot_get_n_traces (self) * a.width;
  if (py != NULL)
    *py = a.y + a.height - CLAMP (coverage, 0, 1) * a.height;
}

/* 1, 2 or 5 × 10^k streams between labelled ticks, labels >= @min_px apart. */
static guint
tick_step (guint  n,
           double width,
           double min_px)
{
  static const guint mult[] = { 1, 2, 5 };

  for (guint p = 1; p < 1000000000u; p *= 10)
    for (guint i = 0; i < G_N_ELEMENTS (mult); i++)
      if ((double) p * mult[i] / n * width >= min_px)
        return p * mult[i];
  return n;
}

static void
show_centered (WsCoveragePlot *self,
               cairo_t        *cr,
               PangoLayout    *layout,
               const char     *text,
               double          cx,
               double          y)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  cairo_move_to (cr, cx - w / 2.0, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_axes (WsCoveragePlot       *self,
           cairo_t              *cr,
           const WsCoverageRect *a)
{
  guint n = ws_coverage_plot_get_n_traces (self);
  guint step = tick_step (n, a->width, 44);
  guint ystep = a->height >= 320 ? 10 : a->height >= 140 ? 20 : 50;

  /* Horizontal grid with percent labels. */
  for (guint pct = 0; pct <= 100; pct += ystep)
    {
      double y = round (a->y + a->height - pct / 100.0 * a->height) + 0.5;
      g_autofree char *label = g_strdup_printf (C_("coverage axis tick", "%u %%"), pct);
      int w, h;

      ws_render_set_source (cr, &self->palette.grid);
      cairo_move_to (cr, a->x, y);
      cairo_line_to (cr, a->x + a->width, y);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);

      ws_render_set_source (cr, &self->palette.dim_foreground);
      pango_layout_set_text (self->layout, label, -1);
      pango_layout_get_pixel_size (self->layout, &w, &h);
      cairo_move_to (cr, a->x - TICK_LENGTH - 4 - w, y - h / 2.0);
      pango_cairo_show_layout (cr, self->layout);
    }

  /* Vertical ticks at whole streams. */
  for (guint k = 0; k <= n; k += step)
    {
      double x = round (a->x + (double) k / n * a->width) + 0.5;
      g_autofree char *label = g_strdup_printf ("%u", k);

      if (k > 0)
        {
          ws_render_set_source (cr, &self->palette.grid);
          cairo_move_to (cr, x, a->y);
          cairo_line_to (cr, x, a->y + a->height);
          cairo_stroke (cr);
        }
      ws_render_set_source (cr, &self->palette.axis);
      cairo_move_to (cr, x, a->y + a->height);
      cairo_line_to (cr, x, a->y + a->height + TICK_LENGTH);
      cairo_stroke (cr);
      ws_render_set_source (cr, &self->palette.dim_foreground);
      show_centered (self, cr, self->layout, label, x, a->y + a->height + TICK_LENGTH + 1);
    }

  /* The axes themselves. */
  ws_render_set_source (cr, &self->palette.axis);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, round (a->x) + 0.5, a->y);
  cairo_line_to (cr, round (a->x) + 0.5, round (a->y + a->height) + 0.5);
  cairo_line_to (cr, a->x + a->width, round (a->y + a->height) + 0.5);
  cairo_stroke (cr);

  /* Axis titles. */
  ws_render_set_source (cr, &self->palette.foreground);
  show_centered (self, cr, self->title, self->x_title ? self->x_title : _("Trace streams inspected"),
                 a->x + a->width / 2,
                 a->y + a->height + TICK_LENGTH + TICK_LABEL_HEIGHT + 2);
  cairo_save (cr);
  cairo_translate (cr, 2, a->y + a->height / 2);
  cairo_rotate (cr, -G_PI / 2);
  show_centered (self, cr, self->title, _("Bottleneck coverage"), 0, 0);
  cairo_restore (cr);
}

static void
set_style (cairo_t       *cr,
           const Series  *s,
           guint          rank)
{
  static const double dash[] = { 6, 4 };
  static const double coincident[] = { 5, 3 };

  ws_render_set_source (cr, &s->color);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (rank > 0)
    {
      /* Beside an identical curve: dashed (each with its own phase), so
       * that it reads as a second line, not as a shadow. */
      cairo_set_line_width (cr, 2);
      cairo_set_dash (cr, coincident, G_N_ELEMENTS (coincident), rank * 4);
      return;
    }
  switch (s->style)
    {
    case WS_COVERAGE_SERIES_EMPHASIS:
      cairo_set_line_width (cr, 3);
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    case WS_COVERAGE_SERIES_DASHED:
      cairo_set_line_width (cr, 2);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      break;
    case WS_COVERAGE_SERIES_SOLID:
    default:
      cairo_set_line_width (cr, 2);
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

static void
draw_series (WsCoveragePlot *self,
             cairo_t        *cr,
             guint           index)
{
  const Series *s = &g_array_index (self->series, Series, index);
  guint rank = coincide_rank (self, index);
  double x, y, prev = 0;
  guint n = MIN (s->n_points, ws_coverage_plot_get_n_traces (self));

  if (n == 0)
    return;

  cairo_save (cr);
  /* Up and right: an identical curve drawn over it would hide it. */
  cairo_translate (cr, rank * COINCIDE_SHIFT, -(rank * COINCIDE_SHIFT));
  set_style (cr, s, rank);
  ws_coverage_plot_to_device (self, 0, 0, &x, &y);
  cairo_move_to (cr, x, y);
  for (guint k = 0; k < n; k++)
    {
      ws_coverage_plot_to_device (self, k + 1, prev, &x, &y);
      cairo_line_to (cr, x, y);
      ws_coverage_plot_to_device (self, k + 1, s->coverage[k], &x, &y);
      cairo_line_to (cr, x, y);
      prev = s->coverage[k];
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  if (n <= MARKERS_UP_TO)
    for (guint k = 0; k < n; k++)
      {
        ws_coverage_plot_to_device (self, k + 1, s->coverage[k], &x, &y);
        cairo_arc (cr, x, y, s->style == WS_COVERAGE_SERIES_EMPHASIS && rank == 0 ? 4 : 3, 0, 2 * G_PI);
        cairo_fill (cr);
      }
  cairo_restore (cr);
}

static void
draw_legend (WsCoveragePlot       *self,
             cairo_t              *cr,
             const WsCoverageRect *a)
{
  double x = a->x, y = a->y + a->height + TICK_LENGTH + TICK_LABEL_HEIGHT + AXIS_TITLE_SIZE + 6;

  for (guint i = 0; i < self->series->len; i++)
    {
      const Series *s = &g_array_index (self->series, Series, i);
      double w = legend_item_width (self, i);
      g_autofree char *label = series_label (self, i);
      int th;

      if (x > a->x && x + w > a->x + a->width)
        {
          x = a->x;
          y += LEGEND_ROW;
        }
      set_style (cr, s, coincide_rank (self, i));
      cairo_move_to (cr, x, y + LEGEND_ROW / 2);
      cairo_line_to (cr, x + LEGEND_SWATCH, y + LEGEND_ROW / 2);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);

      ws_render_set_source (cr, &self->palette.foreground);
      pango_layout_set_text (self->layout, label, -1);
      pango_layout_get_pixel_size (self->layout, NULL, &th);
      cairo_move_to (cr, x + LEGEND_SWATCH + 6, y + (LEGEND_ROW - th) / 2);
      pango_cairo_show_layout (cr, self->layout);
      x += w;
    }
}

/**
 * ws_coverage_plot_draw:
 *
 * Draws the chart at the size given to ws_coverage_plot_set_size(), its
 * top-left corner at the origin of @cr.
 */
void
ws_coverage_plot_draw (WsCoveragePlot *self,
                       cairo_t        *cr)
{
  WsCoverageRect a;

  g_return_if_fail (WS_IS_COVERAGE_PLOT (self));
  g_return_if_fail (cr != NULL);

  ensure_layouts (self);
  ws_coverage_plot_get_area (self, &a);

  cairo_save (cr);
  ws_render_set_source (cr, &self->palette.background);
  cairo_rectangle (cr, 0, 0, self->width, self->height);
  cairo_fill (cr);
  ws_render_set_source (cr, &self->palette.plot_background);
  cairo_rectangle (cr, a.x, a.y, a.width, a.height);
  cairo_fill (cr);

  draw_axes (self, cr, &a);

  if (self->target >= 0)
    {
      static const double dots[] = { 1, 3 };
      double y;
      g_autofree char *label = NULL;
      int w;

      ws_coverage_plot_to_device (self, 0, self->target, NULL, &y);
      ws_render_set_source (cr, &self->palette.target);
      cairo_set_line_width (cr, 1.5);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_set_dash (cr, dots, 2, 0);
      cairo_move_to (cr, a.x, y);
      cairo_line_to (cr, a.x + a.width, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      /* Translators: label of the line at the coverage of all signatures */
      label = g_strdup_printf (_("All signatures: %.1f %%"), self->target * 100);
      pango_layout_set_text (self->layout, label, -1);
      pango_layout_get_pixel_size (self->layout, &w, NULL);
      cairo_move_to (cr, a.x + a.width - w - 4, self->target > 0.9 ? y + 3 : y - 17);
      pango_cairo_show_layout (cr, self->layout);
    }

  /* Clip the curves to the axes so thick lines at 0 % / 100 % stay inside. */
  cairo_save (cr);
  cairo_rectangle (cr, a.x - 5, a.y - 5, a.width + 10, a.height + 5);
  cairo_clip (cr);
  /* Baselines first, our ranking on top. */
  for (guint i = self->series->len; i-- > 0;)
    draw_series (self, cr, i);
  cairo_restore (cr);

  draw_legend (self, cr, &a);
  cairo_restore (cr);
}

/* Streams needed to reach @goal, or 0 if never reached. */
static guint
streams_to_reach (const Series *s,
                  double        goal)
{
  for (guint k = 0; k < s->n_points; k++)
    if (s->coverage[k] >= goal - 1e-12)
      return k + 1;
  return 0;
}

/**
 * ws_coverage_plot_describe:
 *
 * Returns: (transfer full): the chart in words, for screen readers
 */
char *
ws_coverage_plot_describe (WsCoveragePlot *self)
{
  GString *s;

  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, _("Bottleneck coverage against trace streams inspected, out of %u."),
                          ws_coverage_plot_get_n_traces (self));
  for (guint i = 0; i < self->series->len; i++)
    {
      const Series *se = &g_array_index (self->series, Series, i);
      double final = se->n_points ? se->coverage[se->n_points - 1] : 0;
      guint k = streams_to_reach (se, final);
      g_autofree char *label = series_label (self, i);

      g_string_append_c (s, ' ');
      /* Translators: series name, coverage reached, streams needed to reach it */
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s reaches %.1f %% after %u stream.",
                                                "%s reaches %.1f %% after %u streams.", k),
                              label, final * 100, k);
    }
  return g_string_free (s, FALSE);
}

typedef struct {
  WsCoveragePlot *self;
} ExportData;

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ws_coverage_plot_draw (((ExportData *) user_data)->self, cr);
}

gboolean
ws_coverage_plot_export (WsCoveragePlot  *self,
                         const char      *path,
                         WsExportFormat   format,
                         double           width,
                         double           height,
                         GError         **error)
{
  ExportData ex = { self };
  double old_w, old_h;
  gboolean ok;

  g_return_val_if_fail (WS_IS_COVERAGE_PLOT (self), FALSE);

  old_w = self->width;
  old_h = self->height;
  ws_coverage_plot_set_size (self, width, height);
  ok = ws_export_draw (path, format, width, height, export_draw, &ex, error);
  ws_coverage_plot_set_size (self, old_w, old_h);
  return ok;
}
