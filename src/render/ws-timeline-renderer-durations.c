/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How long each wait was, at any zoom, and the scenario instances as
 * slices on their thread.
 *
 * At whole-trace zoom every wait is a dashed line of the same weight, so
 * a 16 ms wait and a 186 ms one looked alike.  Here a wait of at least
 * 1 ms (the lod's duration index) also gets a shade behind its dashes,
 * thicker and darker the longer it lasted, on a log scale: 1 ms is the
 * line's own 3 px, 1 s the full height of a running bar, in four shades
 * by decade.  The longest 1 % of the trace's waits carry a mark above the
 * row that is drawn whatever the zoom (the lod keeps them apart from the
 * merged levels), and every wait wide enough carries its duration as
 * text.
 *
 * Shades are batched per decade and state like the states themselves (one
 * fill each, the direct-to-pixels path on image surfaces), at most one
 * per pixel column and row; text and marks are bounded by the width.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-render-util.h"
#include "ws-time-format.h"
#include "ws-timeline-fill.h"
#include "ws-timeline-renderer-private.h"

#define MIN_TEXT_PX      36.0   /* narrower waits show no duration text */
#define MARK_SPACING      8.0   /* long-wait marks closer than this merge */
#define SLICE_MIN_TEXT   28.0

void
ws_timeline_durations_init (WsTimelineRenderer *self)
{
  for (guint b = 0; b < WS_DURATION_BANDS; b++)
    for (guint s = 0; s < WS_N_THREAD_STATES; s++)
      self->duration_rects[b][s] = g_array_new (FALSE, FALSE, sizeof (WsFillRect));
  self->duration_labels = g_array_new (FALSE, FALSE, sizeof (WsDurationLabel));
}

void
ws_timeline_durations_finalize (WsTimelineRenderer *self)
{
  for (guint b = 0; b < WS_DURATION_BANDS; b++)
    for (guint s = 0; s < WS_N_THREAD_STATES; s++)
      g_clear_pointer (&self->duration_rects[b][s], g_array_unref);
  g_clear_pointer (&self->duration_labels, g_array_unref);
}

/**
 * ws_timeline_wait_thickness:
 * @line_h: the height of a wait's line (what 1 ms and less get)
 * @max_h: the height of 1 s and more
 *
 * Returns: the height of the shade of a wait of @duration: log10 of the
 *   duration from 1 ms to 1 s, mapped linearly onto [@line_h, @max_h]
 */
double
ws_timeline_wait_thickness (WsTime duration,
                            double line_h,
                            double max_h)
{
  double f = log10 (MAX ((double) duration, 1) / 1e6) / 3.0;

  return line_h + CLAMP (f, 0, 1) * MAX (max_h - line_h, 0);
}

/* The decade of @duration from 1 ms: 0 … WS_DURATION_BANDS - 1. */
guint
ws_timeline_duration_band (WsTime duration)
{
  double decades = floor (log10 (MAX ((double) duration, 1) / 1e6));

  return (guint) CLAMP (decades, 0, WS_DURATION_BANDS - 1);
}

double
ws_timeline_duration_band_alpha (guint band)
{
  static const double alpha[WS_DURATION_BANDS] = { 0.35, 0.55, 0.72, 0.88 };

  return alpha[MIN (band, WS_DURATION_BANDS - 1)];
}

static void
rounded_rectangle (cairo_t *cr,
                   double   x,
                   double   y,
                   double   w,
                   double   h,
                   double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
queue_label (WsTimelineRenderer *self,
             double              x0,
             double              x1,
             double              line_mid,
             double              top,
             WsTime              duration,
             gboolean            long_wait,
             gboolean            text)
{
  WsDurationLabel label = { x0, x1, line_mid, top, duration, long_wait, text };

  g_array_append_val (self->duration_labels, label);
}

/* The shade of each wait of the duration index in view, and the text of
 * those wide enough. */
static void
paint_shades (WsTimelineRenderer *self,
              WsTimelineLod      *lod,
              WsTimelineViewport *viewport,
              guint               thread,
              double              y,
              double              h,
              double              width)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport);
  WsTime long_min = ws_timeline_lod_get_long_wait_threshold (lod);
  double bar_y, bar_h, line_y, line_h, mid, ox = self->geometry.label_width;
  double last_x1 = -1;
  guint n;
  const WsLodWait *waits = ws_timeline_lod_get_waits (lod, thread, ns_per_px, begin,
                                                     ws_timeline_viewport_get_end (viewport), &n);

  ws_timeline_row_bar_extents (y, h, &bar_y, &bar_h);
  ws_timeline_row_line_extents (y, h, &line_y, &line_h);
  mid = line_y + line_h / 2;
  for (guint i = 0; i < n; i++)
    {
      WsTime d = waits[i].t1 - waits[i].t0;
      double x0 = MAX (floor ((double) (waits[i].t0 - begin) / ns_per_px), 0);
      double x1 = MIN (ceil ((double) (waits[i].t1 - begin) / ns_per_px), ceil (width));
      double th = round (ws_timeline_wait_thickness (d, line_h, bar_h));
      WsFillRect r;

      /* One shade per pixel column: the first wait to reach it keeps it. */
      x0 = MAX (x0, last_x1);
      if (x1 <= x0)
        continue;
      last_x1 = x1;
      r = (WsFillRect) { ox + x0, floor (mid - th / 2), x1 - x0, th };
      g_array_append_val (self->duration_rects[ws_timeline_duration_band (d)][waits[i].state], r);
      if (x1 - x0 >= MIN_TEXT_PX)
        queue_label (self, ox + x0, ox + x1, mid, bar_y, d, d >= long_min, TRUE);
    }
}

/* A mark over each long wait in view, however narrow it is now. */
static void
paint_long_marks (WsTimelineRenderer *self,
                  WsTimelineLod      *lod,
                  WsTimelineViewport *viewport,
                  guint               thread,
                  double              y,
                  double              h,
                  double              width)
{
  WsTime begin = ws_timeline_viewport_get_begin (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport);
  double bar_y, bar_h, line_y, line_h, last = -G_MAXDOUBLE, ox = self->geometry.label_width;
  guint n;
  const WsLodWait *waits = ws_timeline_lod_get_long_waits (lod, thread, begin,
                                                          ws_timeline_viewport_get_end (viewport), &n);

  ws_timeline_row_bar_extents (y, h, &bar_y, &bar_h);
  ws_timeline_row_line_extents (y, h, &line_y, &line_h);
  for (guint i = 0; i < n; i++)
    {
      double x0 = MAX ((double) (waits[i].t0 - begin) / ns_per_px, 0);
      double x1 = MIN ((double) (waits[i].t1 - begin) / ns_per_px, width);
      double cx = (x0 + x1) / 2;

      if (cx - last < MARK_SPACING)
        continue;
      last = cx;
      queue_label (self, ox + x0, ox + x1, line_y + line_h / 2, bar_y, waits[i].t1 - waits[i].t0, TRUE, FALSE);
    }
}

/**
 * ws_timeline_durations_paint_row:
 * @y: the top of the row's state area (below its scenario lane)
 * @h: its height
 *
 * Batches the duration shades of one row and queues its texts and marks
 * for ws_timeline_durations_draw_labels().
 */
void
ws_timeline_durations_paint_row (WsTimelineRenderer *self,
                                 WsTimelineLod      *lod,
                                 WsTimelineViewport *viewport,
                                 guint               thread,
                                 double              y,
                                 double              h,
                                 double              width)
{
  paint_shades (self, lod, viewport, thread, y, h, width);
  paint_long_marks (self, lod, viewport, thread, y, h, width);
}

void
ws_timeline_durations_flush (WsTimelineRenderer *self,
                             cairo_t            *cr)
{
  WsFillTarget ft;
  gboolean fast = ws_fill_target_init (&ft, cr);

  for (guint b = 0; b < WS_DURATION_BANDS; b++)
    for (guint s = 0; s < WS_N_THREAD_STATES; s++)
      {
        WsColor c = self->palette.states[s];

        if (self->duration_rects[b][s]->len == 0)
          continue;
        c.alpha = ws_timeline_duration_band_alpha (b);
        if (fast)
          ws_fill_rects_fast (&ft, self->duration_rects[b][s], &c, 0, 0, 0);
        else
          {
            ws_render_set_source (cr, &c);
            ws_fill_rects_cairo (cr, self->duration_rects[b][s]);
          }
      }
  if (fast)
    cairo_surface_mark_dirty (cairo_get_target (cr));
}

/* Adds a long-wait triangle to the path: all of them are filled at once
 * (one fill per triangle cost milliseconds on a busy trace). */
static void
add_long_mark (cairo_t               *cr,
               const WsDurationLabel *label)
{
  double cx = round ((label->x0 + label->x1) / 2) + 0.5;

  cairo_move_to (cr, cx - 4.5, label->top - 5);
  cairo_line_to (cr, cx + 4.5, label->top - 5);
  cairo_line_to (cr, cx, label->top + 1);
  cairo_close_path (cr);
}

/* "186 ms" in a pill on the wait's line, if it fits inside the wait. */
static void
draw_duration_text (WsTimelineRenderer    *self,
                    cairo_t               *cr,
                    const WsDurationLabel *label)
{
  PangoLayout *pl = ws_timeline_renderer_get_scratch (self);
  g_autofree char *text = ws_format_duration (label->duration);
  double cx = (label->x0 + label->x1) / 2, px;
  int tw, th;

  pango_layout_set_width (pl, -1);
  pango_layout_set_text (pl, text, -1);
  if (label->long_wait)
    {
      PangoAttrList *bold = pango_attr_list_new ();
      pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (pl, bold);
      pango_attr_list_unref (bold);
    }
  pango_layout_get_pixel_size (pl, &tw, &th);
  if (tw + 10 > label->x1 - label->x0)
    {
      pango_layout_set_attributes (pl, NULL);
      return;
    }
  px = round (cx - tw / 2.0);
  cairo_set_source_rgba (cr, self->palette.background.red, self->palette.background.green,
                         self->palette.background.blue, 0.88);
  rounded_rectangle (cr, px - 4, round (label->y - th / 2.0) - 1, tw + 8, th + 2, 4);
  cairo_fill (cr);
  ws_render_set_source (cr, &self->palette.foreground);
  cairo_move_to (cr, px, round (label->y - th / 2.0));
  pango_cairo_show_layout (cr, pl);
  pango_layout_set_attributes (pl, NULL);
}

/* The texts and long-wait marks queued by the rows, over everything. */
void
ws_timeline_durations_draw_labels (WsTimelineRenderer *self,
                                   cairo_t            *cr)
{
  const WsDurationLabel *labels = (const WsDurationLabel *) (gconstpointer) self->duration_labels->data;

  for (guint i = 0; i < self->duration_labels->len; i++)
    if (labels[i].text)
      draw_duration_text (self, cr, &labels[i]);
  cairo_new_path (cr);
  for (guint i = 0; i < self->duration_labels->len; i++)
    if (!labels[i].text)
      add_long_mark (cr, &labels[i]);
  ws_render_set_source (cr, &self->palette.foreground);
  cairo_fill (cr);
  g_array_set_size (self->duration_labels, 0);
}

/* "transaction 44.9 ms", or just "44.9 ms", or nothing: what fits. */
static void
draw_slice_text (WsTimelineRenderer       *self,
                 cairo_t                  *cr,
                 WsTrace                  *trace,
                 const WsScenarioInstance *si,
                 double                    x0,
                 double                    x1,
                 double                    y,
                 double                    lane)
{
  PangoLayout *pl = ws_timeline_renderer_get_scratch (self);
  g_autofree char *dur = ws_format_duration (si->t1 - si->t0);
  g_autofree char *full = g_strdup_printf ("%s %s", ws_trace_get_string (trace, si->scenario), dur);
  int tw, th;

  pango_layout_set_width (pl, -1);
  pango_layout_set_text (pl, full, -1);
  pango_layout_get_pixel_size (pl, &tw, &th);
  if (tw + 8 > x1 - x0)
    {
      pango_layout_set_text (pl, dur, -1);
      pango_layout_get_pixel_size (pl, &tw, &th);
      if (tw + 8 > x1 - x0)
        return;
    }
  ws_render_set_source (cr, &self->palette.foreground);
  cairo_move_to (cr, x0 + 5, y + round ((lane - th) / 2));
  pango_cairo_show_layout (cr, pl);
}

/**
 * ws_timeline_slices_draw_row:
 * @y: the top of the row (its lane)
 * @lane: the lane's height
 *
 * The thread's scenario instances in view as slices in its lane, each
 * with its name and duration when they fit.
 */
void
ws_timeline_slices_draw_row (WsTimelineRenderer *self,
                             cairo_t            *cr,
                             WsTimelineLod      *lod,
                             WsTimelineViewport *viewport,
                             guint               thread,
                             double              y,
                             double              lane,
                             double              width)
{
  WsTrace *trace = ws_timeline_lod_get_trace (lod);
  WsTime begin = ws_timeline_viewport_get_begin (viewport), end = ws_timeline_viewport_get_end (viewport);
  double ns_per_px = ws_timeline_viewport_get_ns_per_px (viewport), ox = self->geometry.label_width;
  const WsColor *c = &self->palette.scenario;
  double slowest = MAX ((double) ws_timeline_lod_get_slowest_instance (lod), 1);
  double last_x1 = -1;
  guint n;
  const guint32 *instances = ws_timeline_lod_get_thread_instances (lod, thread, &n);

  for (guint i = 0; i < n; i++)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, instances[i]);
      double x0, x1;

      if (si->t0 >= end)
        break;
      if (si->t1 <= begin)
        continue;
      x0 = MAX (floor ((double) (si->t0 - begin) / ns_per_px), MAX (last_x1, -2));
      x1 = MIN (ceil ((double) (si->t1 - begin) / ns_per_px), width + 2);
      if (x1 - x0 < 1)
        continue;
      last_x1 = x1;
      /* Darker the slower, against the trace's slowest instance. */
      cairo_set_source_rgba (cr, c->red, c->green, c->blue,
                             0.12 + 0.6 * pow ((double) (si->t1 - si->t0) / slowest, 0.75));
      cairo_rectangle (cr, ox + x0, y + 2, x1 - x0, lane - 3);
      cairo_fill (cr);
      if (x1 - x0 >= 6)
        {
          /* Where it starts, once slices are wide enough to tell apart. */
          ws_render_set_source (cr, c);
          cairo_rectangle (cr, ox + x0, y + 2, 2, lane - 3);
          cairo_fill (cr);
        }
      if (x1 - x0 >= SLICE_MIN_TEXT)
        draw_slice_text (self, cr, trace, si, ox + x0, ox + x1, y + 2, lane - 3);
    }
}
