/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-awg-renderer.h"
#include "ws-coverage-plot.h"
#include "ws-pattern-coverage-view.h"
#include "ws-render-util.h"

#define PAD_L 34.0
#define PAD_R 8.0
#define PAD_T 6.0
#define PAD_B 16.0

/* The colours: the coverage chart's page, frame and labels, and the
 * curve in the pattern colour of the graphs beside it. */
typedef struct {
  WsColor page;
  WsColor frame;
  WsColor text;
  WsColor curve;
} Palette;

struct _WsPatternCoverageView
{
  GtkWidget  parent_instance;

  double     coverage[101];
  gboolean   have;
};

G_DEFINE_FINAL_TYPE (WsPatternCoverageView, ws_pattern_coverage_view, GTK_TYPE_WIDGET)

static PangoLayout *
text_layout (GtkWidget *widget, const char *text, int *w, int *h)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 7.5");

  pango_layout_set_font_description (layout, font);
  pango_layout_get_pixel_size (layout, w, h);
  pango_font_description_free (font);
  return layout;
}

static void
show_text (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, double align)
{
  int w, h;
  g_autoptr(PangoLayout) layout = text_layout (widget, text, &w, &h);

  cairo_move_to (cr, x - w * align, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
}

/* The 10, 20 and 30 % points' labels, each right of its point, moved
 * under the one before when they would overlap (points 10 % of the
 * width apart are closer than a label is wide on a narrow page), and
 * kept inside the plot. */
static void
show_point_labels (WsPatternCoverageView *self, GtkWidget *widget, cairo_t *cr, double w, double pw, double ph)
{
  double prev_right = -G_MAXDOUBLE, prev_bottom = -G_MAXDOUBLE;

  for (guint n = 10; n <= 30; n += 10)
    {
      g_autofree char *label = g_strdup_printf ("%u %%: %.0f %%", n, 100 * self->coverage[n]);
      double x = PAD_L + pw * n / 100, y = PAD_T + ph * (1 - self->coverage[n]), lx, top;
      int lw, lh;
      g_autoptr(PangoLayout) layout = text_layout (widget, label, &lw, &lh);

      cairo_arc (cr, x, y, 2.5, 0, 2 * G_PI);
      cairo_fill (cr);
      lx = MIN (x + 4, w - 2 - lw);
      top = y + 8 - lh / 2.0;
      if (lx < prev_right + 4 && top < prev_bottom + 1 && top + lh > prev_bottom - lh - 1)
        top = prev_bottom + 1;
      cairo_move_to (cr, lx, top);
      pango_cairo_show_layout (cr, layout);
      prev_right = lx + lw;
      prev_bottom = top + lh;
    }
}

/* The chart follows the style as the other figures do (it was a white
 * card in a dark window): the coverage chart's palette, light or dark. */
static void
style_palette (Palette *palette)
{
  WsCoveragePalette coverage;
  WsAwgPalette awg;

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    {
      ws_coverage_palette_init_dark (&coverage);
      ws_awg_palette_init_dark (&awg);
    }
  else
    {
      ws_coverage_palette_init_light (&coverage);
      ws_awg_palette_init_light (&awg);
    }
  *palette = (Palette) { coverage.background, coverage.axis, coverage.dim_foreground, awg.highlight };
}

static void
ws_pattern_coverage_view_css_changed (GtkWidget         *widget,
                                      GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_pattern_coverage_view_parent_class)->css_changed (widget, change);
  /* The style changed (light or dark): draw again in its palette. */
  gtk_widget_queue_draw (widget);
}

static void
draw_axes (GtkWidget *widget, const Palette *palette, cairo_t *cr, double w, double h)
{
  ws_render_set_source (cr, &palette->frame);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, PAD_L + 0.5, PAD_T + 0.5, w - PAD_L - PAD_R, h - PAD_T - PAD_B);
  cairo_stroke (cr);
  ws_render_set_source (cr, &palette->text);
  show_text (widget, cr, "100 %", PAD_L - 3, PAD_T, 1);
  show_text (widget, cr, "0", PAD_L - 3, h - PAD_B, 1);
  show_text (widget, cr, _("top n % of patterns"), (PAD_L + w - PAD_R) / 2, h - PAD_B / 2, 0.5);
}

static void
ws_pattern_coverage_view_snapshot (GtkWidget   *widget,
                                   GtkSnapshot *snapshot)
{
  WsPatternCoverageView *self = WS_PATTERN_COVERAGE_VIEW (widget);
  double w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  double pw = w - PAD_L - PAD_R, ph = h - PAD_T - PAD_B;
  Palette palette;
  cairo_t *cr;

  if (w <= PAD_L + PAD_R || h <= PAD_T + PAD_B)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  style_palette (&palette);
  ws_render_set_source (cr, &palette.page);
  cairo_paint (cr);
  draw_axes (widget, &palette, cr, w, h);
  if (self->have)
    {
      ws_render_set_source (cr, &palette.curve);
      cairo_set_line_width (cr, 1.5);
      for (guint n = 0; n <= 100; n++)
        (n == 0 ? cairo_move_to : cairo_line_to) (cr, PAD_L + pw * n / 100, PAD_T + ph * (1 - self->coverage[n]));
      cairo_stroke (cr);
      show_point_labels (self, widget, cr, w, pw, ph);
    }
  cairo_destroy (cr);
}

static void
ws_pattern_coverage_view_measure (GtkWidget      *widget,
                                  GtkOrientation  orientation,
                                  int             for_size,
                                  int            *minimum,
                                  int            *natural,
                                  int            *minimum_baseline,
                                  int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 90;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 300 : 110;
}

static void
ws_pattern_coverage_view_class_init (WsPatternCoverageViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = ws_pattern_coverage_view_snapshot;
  widget_class->measure = ws_pattern_coverage_view_measure;
  widget_class->css_changed = ws_pattern_coverage_view_css_changed;
  gtk_widget_class_set_css_name (widget_class, "patterncoverageview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_pattern_coverage_view_init (WsPatternCoverageView *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Cost covered by the top n % of contrast patterns"), -1);
}

GtkWidget *
ws_pattern_coverage_view_new (void)
{
  return g_object_new (WS_TYPE_PATTERN_COVERAGE_VIEW, NULL);
}

void
ws_pattern_coverage_view_set_result (WsPatternCoverageView *self,
                                     WsContrastResult      *result)
{
  g_autofree char *text = NULL;

  g_return_if_fail (WS_IS_PATTERN_COVERAGE_VIEW (self));

  self->have = result != NULL && ws_contrast_result_get_n_patterns (result) > 0;
  for (guint n = 0; n <= 100; n++)
    self->coverage[n] = result ? ws_contrast_result_get_coverage (result, n) : 0;
  /* The same figures as a sentence, for screen readers. */
  text = self->have ? g_strdup_printf (_("The top 10 %% of patterns cover %.0f %%, 20 %% cover %.0f %%, 30 %% cover %.0f %%"),
                                       100 * self->coverage[10], 100 * self->coverage[20], 100 * self->coverage[30])
                    : g_strdup (_("No contrast patterns"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
