/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-coverage-plot.h"
#include "ws-duration-histogram.h"
#include "ws-render-util.h"
#include "ws-time-format.h"

#define N_BINS 60
#define PAD_L 8.0
#define PAD_R 8.0
#define PAD_B 18.0
#define GRAB 8.0

struct _WsDurationHistogram
{
  GtkWidget  parent_instance;

  GArray    *durations;   /* WsTime, sorted */
  WsTime     max;         /* right edge of the axis */
  WsTime     t_fast;
  WsTime     t_slow;
  int        dragging;    /* 0 none, 1 fast, 2 slow */
  double     drag_x0;
};

G_DEFINE_FINAL_TYPE (WsDurationHistogram, ws_duration_histogram, GTK_TYPE_WIDGET)

enum { SIGNAL_THRESHOLDS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
ws_duration_histogram_finalize (GObject *object)
{
  g_array_unref (WS_DURATION_HISTOGRAM (object)->durations);
  G_OBJECT_CLASS (ws_duration_histogram_parent_class)->finalize (object);
}

double
ws_duration_histogram_time_to_x (WsDurationHistogram *self,
                                 WsTime               t)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self)) - PAD_L - PAD_R;
  return PAD_L + (self->max > 0 ? CLAMP ((double) t / self->max, 0, 1) : 0) * MAX (w, 1);
}

static WsTime
x_to_time (WsDurationHistogram *self, double x)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self)) - PAD_L - PAD_R;
  return (WsTime) (CLAMP ((x - PAD_L) / MAX (w, 1), 0, 1) * self->max);
}

static void
draw_bars (WsDurationHistogram *self, cairo_t *cr, double height)
{
  guint counts[N_BINS] = { 0 }, top = 1;
  double w = gtk_widget_get_width (GTK_WIDGET (self)) - PAD_L - PAD_R, bin_w = w / N_BINS;

  for (guint i = 0; i < self->durations->len; i++)
    {
      WsTime d = g_array_index (self->durations, WsTime, i);
      guint b = self->max > 0 ? (guint) MIN ((double) d / self->max * N_BINS, N_BINS - 1) : 0;
      top = MAX (top, ++counts[b]);
    }
  for (guint b = 0; b < N_BINS; b++)
    {
      WsTime mid = (WsTime) ((b + 0.5) * self->max / N_BINS);
      double h = (height - PAD_B - 4) * counts[b] / top;

      if (mid <= self->t_fast)
        cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
      else if (mid >= self->t_slow)
        cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      else
        cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
      cairo_rectangle (cr, PAD_L + b * bin_w + 0.5, height - PAD_B - h, MAX (bin_w - 1, 1), h);
      cairo_fill (cr);
    }
}

static void
draw_line (WsDurationHistogram *self, cairo_t *cr, const WsColor *ink, WsTime t, double height, const char *name)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  g_autofree char *d = ws_format_duration (t);
  g_autofree char *text = g_strdup_printf ("%s %s", name, d);
  double x = round (ws_duration_histogram_time_to_x (self, t)) + 0.5;
  int tw, th;

  ws_render_set_source (cr, ink);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, x, 2);
  cairo_line_to (cr, x, height - PAD_B);
  cairo_stroke (cr);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, MIN (x + 3, gtk_widget_get_width (GTK_WIDGET (self)) - tw - 2), height - th);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
ws_duration_histogram_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  WsDurationHistogram *self = WS_DURATION_HISTOGRAM (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  WsCoveragePalette palette;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  /* The page and ink of the charts beside it, light or dark as the style
   * (a white chart glared in a dark window). */
  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    ws_coverage_palette_init_dark (&palette);
  else
    ws_coverage_palette_init_light (&palette);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_render_set_source (cr, &palette.background);
  cairo_paint (cr);
  if (self->durations->len > 0)
    {
      draw_bars (self, cr, height);
      /* Translators: the line under which instances are fast (T_fast) */
      draw_line (self, cr, &palette.foreground, self->t_fast, height, _("fast under"));
      /* Translators: the line over which instances are slow (T_slow) */
      draw_line (self, cr, &palette.foreground, self->t_slow, height, _("slow over"));
    }
  cairo_destroy (cr);
}

static void
ws_duration_histogram_css_changed (GtkWidget         *widget,
                                   GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_duration_histogram_parent_class)->css_changed (widget, change);
  /* The style changed (light or dark): draw again in its palette. */
  gtk_widget_queue_draw (widget);
}

static void
ws_duration_histogram_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 90;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 110;
}

static void
update_accessible (WsDurationHistogram *self)
{
  g_autofree char *tf = ws_format_duration (self->t_fast);
  g_autofree char *ts = ws_format_duration (self->t_slow);
  g_autofree char *text = NULL;
  guint nf, ns;

  ws_duration_histogram_count_classes (self, &nf, &ns);
  text = g_strdup_printf (ngettext ("%u instance; fast under %s (%u fast), slow over %s (%u slow)",
                                    "%u instances; fast under %s (%u fast), slow over %s (%u slow)", self->durations->len),
                          self->durations->len, tf, nf, ts, ns);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
drag_begin_cb (GtkGestureDrag *drag, double x, double y, WsDurationHistogram *self)
{
  double xf = ws_duration_histogram_time_to_x (self, self->t_fast);
  double xs = ws_duration_histogram_time_to_x (self, self->t_slow);

  self->dragging = 0;
  if (fabs (x - xs) <= GRAB && fabs (x - xs) <= fabs (x - xf))
    self->dragging = 2;
  else if (fabs (x - xf) <= GRAB)
    self->dragging = 1;
  self->drag_x0 = x;
  if (self->dragging == 0)
    gtk_gesture_set_state (GTK_GESTURE (drag), GTK_EVENT_SEQUENCE_DENIED);
}

static void
drag_update_cb (GtkGestureDrag *drag, double dx, double dy, WsDurationHistogram *self)
{
  WsTime t = x_to_time (self, self->drag_x0 + dx);

  if (self->dragging == 1)
    ws_duration_histogram_set_thresholds (self, MIN (t, self->t_slow), self->t_slow);
  else if (self->dragging == 2)
    ws_duration_histogram_set_thresholds (self, self->t_fast, MAX (t, self->t_fast));
}

static void
ws_duration_histogram_class_init (WsDurationHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_duration_histogram_finalize;
  widget_class->snapshot = ws_duration_histogram_snapshot;
  widget_class->measure = ws_duration_histogram_measure;
  widget_class->css_changed = ws_duration_histogram_css_changed;

  signals[SIGNAL_THRESHOLDS_CHANGED] = g_signal_new ("thresholds-changed", G_TYPE_FROM_CLASS (klass),
                                                     G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "durationhistogram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_duration_histogram_init (WsDurationHistogram *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Instance durations with the fast and slow thresholds"), -1);
}

GtkWidget *
ws_duration_histogram_new (void)
{
  return g_object_new (WS_TYPE_DURATION_HISTOGRAM, NULL);
}

static int
compare_time (gconstpointer a, gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? -1 : x > y;
}

void
ws_duration_histogram_set_durations (WsDurationHistogram *self,
                                     const WsTime        *durations,
                                     guint                n)
{
  g_return_if_fail (WS_IS_DURATION_HISTOGRAM (self));

  g_array_set_size (self->durations, 0);
  g_array_append_vals (self->durations, durations, n);
  g_array_sort (self->durations, compare_time);
  /* The axis ends a little past the 99th percentile: one outlier should
   * not squeeze everything else into the first bars. */
  self->max = n > 0 ? g_array_index (self->durations, WsTime, MIN (n - 1, (guint) (n * 0.99))) * 11 / 10 : 0;
  self->max = MAX (self->max, 1);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_duration_histogram_set_thresholds (WsDurationHistogram *self,
                                      WsTime               t_fast,
                                      WsTime               t_slow)
{
  g_return_if_fail (WS_IS_DURATION_HISTOGRAM (self));

  if (t_fast == self->t_fast && t_slow == self->t_slow)
    return;
  self->t_fast = t_fast;
  self->t_slow = MAX (t_slow, t_fast);
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_THRESHOLDS_CHANGED], 0);
}

void
ws_duration_histogram_get_thresholds (WsDurationHistogram *self,
                                      WsTime              *t_fast,
                                      WsTime              *t_slow)
{
  g_return_if_fail (WS_IS_DURATION_HISTOGRAM (self));
  *t_fast = self->t_fast;
  *t_slow = self->t_slow;
}

void
ws_duration_histogram_count_classes (WsDurationHistogram *self,
                                     guint               *n_fast,
                                     guint               *n_slow)
{
  g_return_if_fail (WS_IS_DURATION_HISTOGRAM (self));
  *n_fast = *n_slow = 0;
  for (guint i = 0; i < self->durations->len; i++)
    {
      WsTime d = g_array_index (self->durations, WsTime, i);
      *n_fast += d <= self->t_fast;
      *n_slow += d >= self->t_slow && d > self->t_fast;
    }
}
