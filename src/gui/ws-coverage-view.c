/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-coverage-view.h"
#include "ws-view-style.h"

struct _WsCoverageView
{
  GtkWidget       parent_instance;

  WsCoveragePlot *plot;
};

G_DEFINE_FINAL_TYPE (WsCoverageView, ws_coverage_view, GTK_TYPE_WIDGET)

static void
update_accessible (WsCoverageView *self)
{
  g_autofree char *desc = NULL;

  if (ws_coverage_plot_get_n_series (self->plot) == 0)
    desc = g_strdup (_("No signatures marked yet"));
  else
    desc = ws_coverage_plot_describe (self->plot);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc, -1);
}

static void
ws_coverage_view_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  WsCoverageView *self = WS_COVERAGE_VIEW (widget);
  WsViewStyle style;
  WsCoveragePalette palette;

  GTK_WIDGET_CLASS (ws_coverage_view_parent_class)->css_changed (widget, change);

  ws_view_style_read (widget, &style);
  if (style.dark)
    ws_coverage_palette_init_dark (&palette);
  else
    ws_coverage_palette_init_light (&palette);
  /* Our ranking in the desktop's accent colour. */
  if (style.has_accent)
    palette.series[0] = style.accent;
  ws_coverage_plot_set_palette (self->plot, &palette);
  if (style.font_family != NULL)
    ws_coverage_plot_set_font (self->plot, style.font_family);
  gtk_widget_queue_draw (widget);
}

static void
ws_coverage_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  WsCoverageView *self = WS_COVERAGE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_coverage_plot_set_size (self->plot, width, height);
  ws_coverage_plot_draw (self->plot, cr);
  cairo_destroy (cr);
}

static void
ws_coverage_view_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 280 : 200;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 560 : 320;
}

static void
ws_coverage_view_dispose (GObject *object)
{
  WsCoverageView *self = WS_COVERAGE_VIEW (object);

  g_clear_object (&self->plot);
  G_OBJECT_CLASS (ws_coverage_view_parent_class)->dispose (object);
}

static void
ws_coverage_view_class_init (WsCoverageViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_coverage_view_dispose;
  widget_class->snapshot = ws_coverage_view_snapshot;
  widget_class->measure = ws_coverage_view_measure;
  widget_class->css_changed = ws_coverage_view_css_changed;

  gtk_widget_class_set_css_name (widget_class, "coverageview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_coverage_view_init (WsCoverageView *self)
{
  self->plot = ws_coverage_plot_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Bottleneck coverage by trace streams inspected"),
                                  -1);
  update_accessible (self);
}

GtkWidget *
ws_coverage_view_new (void)
{
  return g_object_new (WS_TYPE_COVERAGE_VIEW, NULL);
}

/**
 * ws_coverage_view_get_plot:
 * Returns: (transfer none): the plot to fill
 */
WsCoveragePlot *
ws_coverage_view_get_plot (WsCoverageView *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE_VIEW (self), NULL);
  return self->plot;
}

/* Redraws and re-describes after the plot's data changed. */
void
ws_coverage_view_changed (WsCoverageView *self)
{
  g_return_if_fail (WS_IS_COVERAGE_VIEW (self));
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
