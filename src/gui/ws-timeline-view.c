/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline widget: input handling and scrolling around the shared
 * Cairo renderer.  A frame is drawn into an image surface of the widget's
 * size (so the renderer can take its direct-to-pixels path) and handed to
 * GTK as a texture; the texture is kept and reused until something that
 * changes the picture happens.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-event-format.h"
#include "ws-timing.h"
#include "ws-time-format.h"
#include "ws-anomaly-plot.h"
#include "ws-timeline-keys.h"
#include "ws-timeline-view-private.h"
#include "ws-view-style.h"

static void scrollable_iface_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (WsTimelineView, ws_timeline_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, scrollable_iface_init))

enum {
  PROP_0,
  PROP_VIEWPORT,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];
guint ws_timeline_view_signals[N_VIEW_SIGNALS];

static void scrollable_iface_init (GtkScrollableInterface *iface) { }

double
ws_timeline_view_label_width (WsTimelineView *self)
{
  return ws_timeline_renderer_get_geometry (self->renderer)->label_width;
}

static double
ruler_height (WsTimelineView *self)
{
  return ws_timeline_renderer_get_geometry (self->renderer)->ruler_height;
}

void
ws_timeline_view_invalidate (WsTimelineView *self)
{
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------ */
/* Adjustments                                                          */

static void
update_accessible_description (WsTimelineView *self)
{
  g_autofree char *desc = NULL;

  if (self->lod == NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No trace loaded"),
                                      -1);
      return;
    }
  else
    {
      WsTrace *trace = ws_timeline_lod_get_trace (self->lod);
      WsTime origin = ws_timeline_viewport_get_min (self->viewport);
      g_autofree char *span = ws_format_duration (ws_timeline_viewport_get_end (self->viewport) -
                                                  ws_timeline_viewport_get_begin (self->viewport));
      g_autofree char *from = ws_format_duration (ws_timeline_viewport_get_begin (self->viewport) - origin);

      g_autofree char *selection = ws_timeline_keys_describe_selection (self);

      /* Translators: accessible description of the timeline chart; the
       * last %s is the selection in words, or nothing */
      guint n_threads = ws_timeline_layout_get_n_visible_threads (self->layout);
      guint n_processes = ws_trace_get_n_processes (trace);
      g_autofree char *threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);
      g_autofree char *processes = g_strdup_printf (ngettext ("%u process", "%u processes", n_processes), n_processes);

      /* Translators: the first two %s are "12 threads" and "3 processes" */
      desc = g_strdup_printf (_("Run and wait timeline of %s in %s of %s, "
                                "showing %s from %s after the start. The Threads table lists the same data. %s"),
                              threads, processes, ws_trace_get_name (trace), span, from,
                              selection != NULL ? selection : "");
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc,
                                  -1);
}

static void
configure_adjustments (WsTimelineView *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->in_adjustment_update)
    return;
  self->in_adjustment_update = TRUE;

  if (self->vadjustment != NULL)
    {
      double page = MAX (height - ruler_height (self), 1);
      double upper = self->layout ? ws_timeline_layout_get_height (self->layout) : 0;
      double value = gtk_adjustment_get_value (self->vadjustment);

      upper = MAX (upper, page);
      gtk_adjustment_configure (self->vadjustment, CLAMP (value, 0, upper - page), 0, upper,
                                24, page * 0.9, page);
    }

  if (self->hadjustment != NULL)
    {
      if (self->viewport != NULL)
        {
          /* Pixels at the current zoom: the scrollbar pans through time. */
          double ns_per_px = ws_timeline_viewport_get_ns_per_px (self->viewport);
          double page = MAX (width - ws_timeline_view_label_width (self), 1);
          double upper = (ws_timeline_viewport_get_max (self->viewport) -
                          ws_timeline_viewport_get_min (self->viewport)) / ns_per_px;
          double value = (ws_timeline_viewport_get_begin (self->viewport) -
                          ws_timeline_viewport_get_min (self->viewport)) / ns_per_px;

          gtk_adjustment_configure (self->hadjustment, value, 0, MAX (upper, page),
                                    page * KEY_PAN_FRACTION, page * 0.9, page);
        }
      else
        gtk_adjustment_configure (self->hadjustment, 0, 0, 1, 1, 1, 1);
    }

  self->in_adjustment_update = FALSE;
}

static void
hadjustment_value_changed (WsTimelineView *self,
                           GtkAdjustment  *adjustment)
{
  WsTime begin, span;

  if (self->in_adjustment_update || self->viewport == NULL)
    return;

  span = ws_timeline_viewport_get_end (self->viewport) - ws_timeline_viewport_get_begin (self->viewport);
  begin = ws_timeline_viewport_get_min (self->viewport) +
          (WsTime) llround (gtk_adjustment_get_value (adjustment) * ws_timeline_viewport_get_ns_per_px (self->viewport));
  self->in_adjustment_update = TRUE;
  ws_timeline_viewport_set_visible (self->viewport, begin, begin + span);
  self->in_adjustment_update = FALSE;
  ws_timeline_view_invalidate (self);
}

static void
vadjustment_value_changed (WsTimelineView *self,
                           GtkAdjustment  *adjustment)
{
  ws_timeline_view_invalidate (self);
}

static void
set_adjustment (WsTimelineView  *self,
                GtkAdjustment  **slot,
                GtkAdjustment   *adjustment,
                GCallback        callback)
{
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_clear_object (slot);
    }
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", callback, self);
  configure_adjustments (self);
}

double
ws_timeline_view_scroll_y (WsTimelineView *self)
{
  return self->vadjustment ? round (gtk_adjustment_get_value (self->vadjustment)) : 0;
}

/* ------------------------------------------------------------------ */
/* Viewport signals                                                     */

static void
viewport_changed (WsTimelineView     *self,
                  WsTimelineViewport *viewport)
{
  configure_adjustments (self);
  update_accessible_description (self);
  ws_timeline_view_invalidate (self);
}

static void
selected_event_changed (WsTimelineView *self)
{
  ws_timeline_view_update_wait_actions (self);
  ws_timeline_view_invalidate (self);
}

static void
layout_changed (WsTimelineView   *self,
                WsTimelineLayout *layout)
{
  configure_adjustments (self);
  ws_timeline_view_invalidate (self);
}

/* ------------------------------------------------------------------ */
/* Zoom helpers                                                         */

static void
maybe_push_history (WsTimelineView *self)
{
  gint64 now = g_get_monotonic_time ();

  /* A burst of wheel steps is one step back, not twenty. */
  if (now - self->last_history_push > HISTORY_COALESCE_USEC)
    ws_timeline_viewport_push_history (self->viewport);
  self->last_history_push = now;
}

void
ws_timeline_view_zoom_about (WsTimelineView *self,
            double          factor,
            double          widget_x)
{
  double chart_x;

  if (self->viewport == NULL)
    return;
  chart_x = CLAMP (widget_x - ws_timeline_view_label_width (self), 0, ws_timeline_viewport_get_width (self->viewport));
  maybe_push_history (self);
  ws_timeline_viewport_zoom (self->viewport, factor, chart_x);
}

double
ws_timeline_view_chart_middle (WsTimelineView *self)
{
  return ws_timeline_view_label_width (self) + (gtk_widget_get_width (GTK_WIDGET (self)) - ws_timeline_view_label_width (self)) / 2;
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
ws_timeline_view_new (void)
{
  return g_object_new (WS_TYPE_TIMELINE_VIEW, NULL);
}

/**
 * ws_timeline_view_set_data:
 * @lod: (nullable): the trace's levels of detail, or %NULL to show nothing
 * @layout: (nullable): its rows
 * @viewport: (nullable): the zoom/pan/selection state to show and change
 *
 * The three come from the same trace (a #WsDocument holds them, so that
 * each open trace keeps its own zoom and selection).
 */
void
ws_timeline_view_set_data (WsTimelineView     *self,
                           WsTimelineLod      *lod,
                           WsTimelineLayout   *layout,
                           WsTimelineViewport *viewport)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  g_return_if_fail ((lod == NULL) == (layout == NULL) && (lod == NULL) == (viewport == NULL));

  g_set_object (&self->lod, lod);
  g_set_object (&self->layout, layout);
  if (g_set_object (&self->viewport, viewport))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT]);
  g_signal_group_set_target (self->viewport_signals, viewport);
  g_signal_group_set_target (self->layout_signals, layout);
  ws_timeline_renderer_set_search (self->renderer, NULL);

  if (viewport != NULL)
    ws_timeline_viewport_set_width (viewport, MAX (gtk_widget_get_width (GTK_WIDGET (self)) - ws_timeline_view_label_width (self), 1));
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  configure_adjustments (self);
  update_accessible_description (self);
  ws_timeline_view_update_wait_actions (self);
  ws_timeline_view_invalidate (self);
}

/**
 * ws_timeline_view_set_anomalies:
 * @result: (nullable): anomaly scores whose trace @trace is the one shown;
 *   %NULL to colour no wait
 *
 * Marks each wait with the colour of its anomaly score, with a legend.
 */
void
ws_timeline_view_set_anomalies (WsTimelineView  *self,
                                WsAnomalyResult *result,
                                guint            trace)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));

  g_set_object (&self->anomalies, result);
  self->anomaly_trace = trace;
  ws_timeline_view_invalidate (self);
}

WsTimelineLod *
ws_timeline_view_get_lod (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);
  return self->lod;
}

WsTimelineLayout *
ws_timeline_view_get_layout (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);
  return self->layout;
}

WsTimelineViewport *
ws_timeline_view_get_viewport (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);
  return self->viewport;
}

WsTimelineRenderer *
ws_timeline_view_get_renderer (WsTimelineView *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);
  return self->renderer;
}

/**
 * ws_timeline_view_set_search:
 * @search: (nullable): matches to highlight
 */
void
ws_timeline_view_set_search (WsTimelineView *self,
                             WsStackSearch  *search)
{
  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  ws_timeline_renderer_set_search (self->renderer, search);
  ws_timeline_view_invalidate (self);
}

/**
 * ws_timeline_view_reveal_thread:
 *
 * Scrolls (and expands the process if needed) so that @thread's row is
 * in view.
 */
void
ws_timeline_view_reveal_thread (WsTimelineView *self,
                                guint           thread)
{
  WsTrace *trace;
  guint row;
  const WsTimelineRow *r;
  double value, page;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (self->layout == NULL)
    return;

  trace = ws_timeline_layout_get_trace (self->layout);
  if (thread >= ws_trace_get_n_threads (trace))
    return;
  row = ws_timeline_layout_find_thread_row (self->layout, thread);
  if (row == WS_NONE)
    {
      guint process = ws_trace_get_thread (trace, thread)->process;
      if (process != WS_NONE)
        ws_timeline_layout_set_collapsed (self->layout, process, FALSE);
      row = ws_timeline_layout_find_thread_row (self->layout, thread);
      if (row == WS_NONE)
        return;
    }

  r = ws_timeline_layout_get_row (self->layout, row);
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  if (r->y < value || r->y + r->height > value + page)
    gtk_adjustment_set_value (self->vadjustment, r->y - (page - r->height) / 2);
}

/**
 * ws_timeline_view_reveal_event:
 *
 * Brings @event into view: its row is scrolled to, and the visible span
 * moved (or widened, if the event is longer than most of it) to hold it.
 */
void
ws_timeline_view_reveal_event (WsTimelineView *self,
                               guint           event)
{
  WsTrace *trace;
  WsTime t0, t1, begin, end, span;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (self->lod == NULL)
    return;

  trace = ws_timeline_lod_get_trace (self->lod);
  if (!ws_timeline_renderer_get_event_extents (self->renderer, trace, event, &t0, &t1))
    return;

  ws_timeline_view_reveal_thread (self, ws_trace_get_event (trace, event)->thread);

  begin = ws_timeline_viewport_get_begin (self->viewport);
  end = ws_timeline_viewport_get_end (self->viewport);
  span = end - begin;
  if (t1 - t0 > span * 8 / 10)
    {
      WsTime margin = MAX ((t1 - t0) / 5, 1000);
      ws_timeline_viewport_push_history (self->viewport);
      ws_timeline_viewport_set_visible (self->viewport, t0 - margin, t1 + margin);
    }
  else if (t0 < begin || t1 > end)
    {
      WsTime middle = t0 + (t1 - t0) / 2;
      ws_timeline_viewport_set_visible (self->viewport, middle - span / 2, middle - span / 2 + span);
    }
}

/**
 * ws_timeline_view_zoom_to_selection:
 *
 * Shows exactly the selected window (remembering the previous span).
 */
void
ws_timeline_view_zoom_to_selection (WsTimelineView *self)
{
  WsTime t0, t1;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (self->viewport == NULL || !ws_timeline_viewport_get_selection (self->viewport, NULL, &t0, &t1))
    return;
  ws_timeline_viewport_push_history (self->viewport);
  ws_timeline_viewport_set_visible (self->viewport, t0, MAX (t1, t0 + WS_TIMELINE_MIN_SPAN));
}

/**
 * ws_timeline_view_zoom_to_span:
 *
 * Shows [@t0, @t1) of @thread with a third of its length of room on
 * each side (remembering the previous span) and scrolls to its row.
 */
void
ws_timeline_view_zoom_to_span (WsTimelineView *self,
                               guint           thread,
                               WsTime          t0,
                               WsTime          t1)
{
  WsTime margin;

  g_return_if_fail (WS_IS_TIMELINE_VIEW (self));
  if (self->viewport == NULL)
    return;
  margin = MAX ((t1 - t0) / 3, WS_TIMELINE_MIN_SPAN / 2);
  ws_timeline_view_reveal_thread (self, thread);
  ws_timeline_viewport_push_history (self->viewport);
  ws_timeline_viewport_set_visible (self->viewport, t0 - margin, t1 + margin);
}

/**
 * ws_timeline_view_hit_test:
 * @x: widget coordinates
 * @y: widget coordinates
 * @hit: (out caller-allocates):
 *
 * Returns: %FALSE if no trace is shown
 */
gboolean
ws_timeline_view_hit_test (WsTimelineView *self,
                           double          x,
                           double          y,
                           WsTimelineHit  *hit)
{
  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), FALSE);
  if (self->lod == NULL)
    return FALSE;
  ws_timeline_renderer_hit_test (self->renderer, self->lod, self->layout, self->viewport,
                                 ws_timeline_view_scroll_y (self), x, y, hit);
  return TRUE;
}

/**
 * ws_timeline_view_dup_event_markup:
 * Returns: (transfer full) (nullable): tooltip markup for @event
 */
char *
ws_timeline_view_dup_event_markup (WsTimelineView *self,
                                   guint           event,
                                   guint           max_frames)
{
  WsTrace *trace;

  g_return_val_if_fail (WS_IS_TIMELINE_VIEW (self), NULL);
  if (self->lod == NULL)
    return NULL;
  trace = ws_timeline_lod_get_trace (self->lod);
  if (event >= ws_trace_get_n_events (trace))
    return NULL;
  return ws_event_format_markup (trace, event, max_frames);
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                            */

static void
update_style (WsTimelineView *self)
{
  WsViewStyle style;
  WsTimelinePalette palette;
  PangoContext *pango = gtk_widget_get_pango_context (GTK_WIDGET (self));
  const PangoFontDescription *font = pango_context_get_font_description (pango);

  ws_view_style_read (GTK_WIDGET (self), &style);
  self->dark = style.dark;
  if (self->dark)
    ws_timeline_palette_init_dark (&palette);
  else
    ws_timeline_palette_init_light (&palette);
  ws_timeline_renderer_set_palette (self->renderer, &palette);
  ws_timeline_renderer_set_pango_context (self->renderer, pango);
  if (font != NULL)
    ws_timeline_renderer_set_font (self->renderer, font);
  ws_timeline_view_invalidate (self);
}

static void
ws_timeline_view_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_timeline_view_parent_class)->css_changed (widget, change);
  update_style (WS_TIMELINE_VIEW (widget));
}

static void
ws_timeline_view_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int) ws_timeline_view_label_width (self) + 200;
      *natural = (int) ws_timeline_view_label_width (self) + 900;
    }
  else
    {
      *minimum = (int) ruler_height (self) + 24 * 3;
      *natural = (int) ruler_height (self) + (self->layout ? (int) ws_timeline_layout_get_height (self->layout) : 400);
    }
}

static void
ws_timeline_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);

  if (self->viewport != NULL)
    ws_timeline_viewport_set_width (self->viewport, MAX (width - ws_timeline_view_label_width (self), 1));
  configure_adjustments (self);
  ws_timeline_view_invalidate (self);
  if (self->wait_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->wait_menu));
}

static void
ws_timeline_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  int pw = width * scale, ph = height * scale;

  if (width <= 0 || height <= 0 || self->lod == NULL)
    return;

  if (self->dirty || self->texture == NULL ||
      gdk_texture_get_width (self->texture) != pw || gdk_texture_get_height (self->texture) != ph)
    {
      int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, pw);
      guchar *data = g_malloc ((gsize) stride * ph);
      cairo_surface_t *surface = cairo_image_surface_create_for_data (data, CAIRO_FORMAT_ARGB32, pw, ph, stride);
      cairo_t *cr;
      g_autoptr(GBytes) bytes = NULL;

      cairo_surface_set_device_scale (surface, scale, scale);
      cr = cairo_create (surface);
      ws_timeline_renderer_draw (self->renderer, cr, self->lod, self->layout, self->viewport,
                                 ws_timeline_view_scroll_y (self), width, height);
      if (self->anomalies != NULL)
        {
          ws_anomaly_overlay_draw (cr, ws_timeline_renderer_get_geometry (self->renderer), self->layout,
                                   self->viewport, ws_timeline_view_scroll_y (self), width, height, self->anomalies,
                                   self->anomaly_trace);
        }
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      cairo_surface_destroy (surface);

      /* Cairo's ARGB32 is GDK's default memory format: no conversion. */
      bytes = g_bytes_new_take (data, (gsize) stride * ph);
      g_clear_object (&self->texture);
      self->texture = gdk_memory_texture_new (pw, ph, GDK_MEMORY_DEFAULT, bytes, stride);
      self->dirty = FALSE;
    }

  gtk_snapshot_append_texture (snapshot, self->texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_timing_mark ("first-timeline-frame");
}

static void
ws_timeline_view_dispose (GObject *object)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  if (self->hadjustment)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_signal_group_set_target (self->viewport_signals, NULL);
  g_signal_group_set_target (self->layout_signals, NULL);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->layout_signals);
  g_clear_object (&self->lod);
  g_clear_object (&self->layout);
  g_clear_object (&self->viewport);
  g_clear_object (&self->texture);
  g_clear_object (&self->anomalies);
  g_clear_object (&self->renderer);
  g_clear_pointer (&self->wait_menu, gtk_widget_unparent);

  G_OBJECT_CLASS (ws_timeline_view_parent_class)->dispose (object);
}

static void
ws_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_VIEWPORT:
      g_value_set_object (value, self->viewport);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_timeline_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (hadjustment_value_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (vadjustment_value_changed));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_timeline_view_class_init (WsTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_timeline_view_dispose;
  object_class->get_property = ws_timeline_view_get_property;
  object_class->set_property = ws_timeline_view_set_property;

  widget_class->measure = ws_timeline_view_measure;
  widget_class->size_allocate = ws_timeline_view_size_allocate;
  widget_class->snapshot = ws_timeline_view_snapshot;
  widget_class->css_changed = ws_timeline_view_css_changed;

  properties[PROP_VIEWPORT] =
    g_param_spec_object ("viewport", NULL, NULL, WS_TYPE_TIMELINE_VIEWPORT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_set_css_name (widget_class, "timeline");
  /* A grid of threads by time whose selected wait is the keyboard cursor. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GRID);

  /**
   * WsTimelineView::analyse-wait:
   * @mode: the #WsGraphMode asked for
   * @event: the WAIT event it is asked about
   *
   * "Ready Tree of This Wait", "Wait Graph…" or "Critical Path…" was
   * chosen in a wait's context menu.
   */
  ws_timeline_view_signals[ANALYSE_WAIT] =
    g_signal_new ("analyse-wait", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_UINT);

  ws_timeline_view_class_init_actions (widget_class);
}

static void
ws_timeline_view_init (WsTimelineView *self)
{
  self->renderer = ws_timeline_renderer_new ();
  self->menu_event = WS_NONE;
  self->dirty = TRUE;
  self->zoom_scale = 1.0;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Thread timeline"),
                                  -1);

  self->viewport_signals = g_signal_group_new (WS_TYPE_TIMELINE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (viewport_changed), self);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed", G_CALLBACK (ws_timeline_view_invalidate), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::selected-event", G_CALLBACK (selected_event_changed), self);
  g_signal_group_connect_swapped (self->viewport_signals, "selection-changed",
                                  G_CALLBACK (update_accessible_description), self);
  g_signal_group_connect_swapped (self->viewport_signals, "notify::selected-event",
                                  G_CALLBACK (update_accessible_description), self);
  self->layout_signals = g_signal_group_new (WS_TYPE_TIMELINE_LAYOUT);
  g_signal_group_connect_swapped (self->layout_signals, "changed", G_CALLBACK (layout_changed), self);

  ws_timeline_view_init_input (self);
  update_accessible_description (self);
  ws_timeline_view_update_wait_actions (self);
}
