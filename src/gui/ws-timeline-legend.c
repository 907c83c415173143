/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-anomaly-plot.h"
#include "ws-timeline-legend.h"

/* The anomaly colours' key goes at the right end of the legend strip,
 * under the timeline: drawn over the timeline's corner it hid the last
 * thread row's waits. */
#define ANOMALY_KEY_WIDTH  336
#define ANOMALY_KEY_HEIGHT 20

struct _WsTimelineLegend
{
  GtkWidget           parent_instance;
  WsTimelineRenderer *renderer;
  double              anomaly_threshold;   /* NAN: no anomaly colours shown */
};

static gboolean
has_anomaly_key (WsTimelineLegend *self)
{
  return !isnan (self->anomaly_threshold);
}

/* The width left to the timeline's own legend. */
static int
states_width (WsTimelineLegend *self,
              int               width)
{
  return has_anomaly_key (self) ? MAX (120, width - ANOMALY_KEY_WIDTH - 12) : width;
}

G_DEFINE_FINAL_TYPE (WsTimelineLegend, ws_timeline_legend, GTK_TYPE_WIDGET)

static void
ws_timeline_legend_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  WsTimelineLegend *self = WS_TIMELINE_LEGEND (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 200 + (has_anomaly_key (self) ? ANOMALY_KEY_WIDTH + 12 : 0);
      *natural = 900 + (has_anomaly_key (self) ? ANOMALY_KEY_WIDTH + 12 : 0);
    }
  else
    {
      int width = states_width (self, for_size > 0 ? for_size : 900);
      double h = self->renderer ? ws_timeline_renderer_measure_legend (self->renderer, width) : 16;

      if (has_anomaly_key (self))
        h = MAX (h, ANOMALY_KEY_HEIGHT);
      *minimum = *natural = (int) ceil (h) + 2;
    }
}

static GtkSizeRequestMode
ws_timeline_legend_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
ws_timeline_legend_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_timeline_legend_parent_class)->css_changed (widget, change);
  /* The timeline swaps the shared palette on the same theme change. */
  gtk_widget_queue_draw (widget);
}

static void
ws_timeline_legend_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  WsTimelineLegend *self = WS_TIMELINE_LEGEND (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->renderer == NULL || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_timeline_renderer_draw_legend (self->renderer, cr, 0, 1, states_width (self, width));
  if (has_anomaly_key (self))
    {
      graphene_rect_t key;

      ws_timeline_legend_get_anomaly_key_bounds (self, &key);
      ws_anomaly_overlay_legend (cr, key.origin.x, key.origin.y + 4, self->anomaly_threshold,
                                 adw_style_manager_get_dark (adw_style_manager_get_default ()));
    }
  cairo_destroy (cr);
}

static void
ws_timeline_legend_dispose (GObject *object)
{
  g_clear_object (&WS_TIMELINE_LEGEND (object)->renderer);
  G_OBJECT_CLASS (ws_timeline_legend_parent_class)->dispose (object);
}

static void
ws_timeline_legend_class_init (WsTimelineLegendClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_timeline_legend_dispose;
  widget_class->measure = ws_timeline_legend_measure;
  widget_class->get_request_mode = ws_timeline_legend_get_request_mode;
  widget_class->css_changed = ws_timeline_legend_css_changed;
  widget_class->snapshot = ws_timeline_legend_snapshot;
  gtk_widget_class_set_css_name (widget_class, "timelinelegend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_timeline_legend_init (WsTimelineLegend *self)
{
  self->anomaly_threshold = NAN;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline legend"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Green solid bars: running. Dashed lines: waiting, blue when sleeping (S), "
                                    "orange in uninterruptible disk waits (D), grey for other waits; dotted when "
                                    "no wake-up was recorded. Yellow dots: ready to run but not on a CPU. "
                                    "Red ticks: the thread woke another thread. A wait of 1 ms or more is also shaded, "
                                    "thicker and darker the longer it lasted, on a log scale from 1 ms to 1 s, with "
                                    "its duration written on it when it fits; a black triangle marks the longest "
                                    "waits of the trace (its 1 % longest) at any zoom. Purple slices above a "
                                    "thread: its scenario instances, darker the slower, with name and duration."),
                                  -1);
}

GtkWidget *
ws_timeline_legend_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_LEGEND, NULL);
}

void
ws_timeline_legend_set_renderer (WsTimelineLegend   *self,
                                 WsTimelineRenderer *renderer)
{
  g_return_if_fail (WS_IS_TIMELINE_LEGEND (self));
  if (g_set_object (&self->renderer, renderer))
    gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * ws_timeline_legend_set_anomaly_threshold:
 * @threshold: the anomaly scores' threshold, or NAN when the timeline
 *   shows no anomaly colours
 *
 * Shows (or hides) the key of the anomaly colours at the strip's right.
 */
void
ws_timeline_legend_set_anomaly_threshold (WsTimelineLegend *self,
                                          double            threshold)
{
  g_return_if_fail (WS_IS_TIMELINE_LEGEND (self));
  if (self->anomaly_threshold == threshold || (isnan (threshold) && isnan (self->anomaly_threshold)))
    return;
  self->anomaly_threshold = threshold;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * ws_timeline_legend_get_anomaly_key_bounds:
 *
 * Returns: whether the anomaly key is shown; @bounds its rectangle in the
 * legend's coordinates.
 */
gboolean
ws_timeline_legend_get_anomaly_key_bounds (WsTimelineLegend *self,
                                           graphene_rect_t  *bounds)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LEGEND (self), FALSE);
  graphene_rect_init (bounds, MAX (0, gtk_widget_get_width (GTK_WIDGET (self)) - ANOMALY_KEY_WIDTH), 0,
                      ANOMALY_KEY_WIDTH, ANOMALY_KEY_HEIGHT);
  return has_anomaly_key (self);
}
