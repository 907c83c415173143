/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's legend: what each colour, dash, shade and mark means,
 * flowed into the width given (the window's legend strip, exports).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "ws-render-util.h"
#include "ws-timeline-renderer-private.h"
#include "ws-wake-words.h"

typedef enum {
  ITEM_STATE,
  ITEM_MARK,
  ITEM_DURATION,     /* the thickness and shade ramp */
  ITEM_LONG_WAIT,    /* the long-wait mark */
  ITEM_SCENARIO,     /* a scenario instance's slice */
} ItemKind;

typedef struct {
  ItemKind    kind;
  int         which;
  const char *label;
} LegendItem;

static guint
legend_items (LegendItem *items)
{
  guint n = 0;

  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_RUN, ws_thread_state_get_name (WS_THREAD_STATE_RUN) };
  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_READY, ws_thread_state_get_name (WS_THREAD_STATE_READY) };
  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_SLEEP, ws_thread_state_get_name (WS_THREAD_STATE_SLEEP) };
  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_DISK, ws_thread_state_get_name (WS_THREAD_STATE_DISK) };
  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_OTHER, ws_thread_state_get_name (WS_THREAD_STATE_OTHER) };
  items[n++] = (LegendItem) { ITEM_STATE, WS_THREAD_STATE_SLEEP_UNKNOWN, ws_wake_word_label (WS_WAKE_WORD_UNKNOWN) };
  /* Translators: legend of the wait thickness, on a log scale */
  items[n++] = (LegendItem) { ITEM_DURATION, 0, _("Wait 1 ms → 1 s") };
  /* Translators: legend of the mark over the longest waits of a trace */
  items[n++] = (LegendItem) { ITEM_LONG_WAIT, 0, _("Longest waits") };
  items[n++] = (LegendItem) { ITEM_SCENARIO, 0, _("Scenario") };
  items[n++] = (LegendItem) { ITEM_MARK, WS_MARK_UNWAIT, _("Woke a thread") };
  items[n++] = (LegendItem) { ITEM_MARK, WS_MARK_SAMPLE, _("CPU sample") };
  items[n++] = (LegendItem) { ITEM_MARK, WS_MARK_MARKER, _("Marker") };
  return n;
}

/* The duration ramp: the shade and thickness of a 1 ms, 10 ms, 100 ms
 * and 1 s wait, side by side. */
static void
draw_duration_ramp (WsTimelineRenderer *self,
                    cairo_t            *cr,
                    double              x,
                    double              my)
{
  const WsColor *c = &self->palette.states[WS_THREAD_STATE_SLEEP];

  for (guint band = 0; band < WS_DURATION_BANDS; band++)
    {
      WsTime d = (WsTime) (1e6 * pow (10, band));
      double h = round (ws_timeline_wait_thickness (d, 3, 12));

      cairo_set_source_rgba (cr, c->red, c->green, c->blue, ws_timeline_duration_band_alpha (band));
      cairo_rectangle (cr, x + band * 8, my - round (h / 2), 6, h);
      cairo_fill (cr);
    }
}

static void
draw_swatch (WsTimelineRenderer *self,
             cairo_t            *cr,
             const LegendItem   *item,
             double              cx,
             double              my,
             double              swatch)
{
  switch (item->kind)
    {
    case ITEM_STATE:
      if (item->which == WS_THREAD_STATE_RUN)
        {
          ws_render_set_source (cr, &self->palette.states[item->which]);
          cairo_rectangle (cr, cx, my - 5, swatch, 10);
          cairo_fill (cr);
        }
      else
        {
          cairo_matrix_t matrix;
          cairo_pattern_t *p = ws_timeline_renderer_get_dash (self, item->which);

          cairo_save (cr);
          cairo_matrix_init_translate (&matrix, -cx, 0);
          cairo_pattern_set_matrix (p, &matrix);
          cairo_set_source (cr, p);
          cairo_rectangle (cr, cx, my - 1, swatch, 3);
          cairo_fill (cr);
          cairo_matrix_init_translate (&matrix, -self->geometry.label_width, 0);
          cairo_pattern_set_matrix (p, &matrix);
          cairo_restore (cr);
        }
      break;
    case ITEM_DURATION:
      draw_duration_ramp (self, cr, cx, my);
      break;
    case ITEM_LONG_WAIT:
      ws_render_set_source (cr, &self->palette.foreground);
      cairo_move_to (cr, cx + swatch / 2 - 5, my - 4);
      cairo_line_to (cr, cx + swatch / 2 + 5, my - 4);
      cairo_line_to (cr, cx + swatch / 2, my + 3);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case ITEM_SCENARIO:
      ws_render_set_source (cr, &self->palette.scenario);
      cairo_rectangle (cr, cx, my - 6, 2, 12);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, self->palette.scenario.red, self->palette.scenario.green,
                             self->palette.scenario.blue, 0.25);
      cairo_rectangle (cr, cx + 2, my - 6, swatch - 2, 12);
      cairo_fill (cr);
      break;
    case ITEM_MARK:
    default:
      ws_render_set_source (cr, &self->palette.marks[item->which]);
      for (int k = 0; k < 3; k++)
        cairo_rectangle (cr, cx + 3 + k * 5, my - 5, 1, 10);
      cairo_fill (cr);
      break;
    }
}

static double
legend_layout (WsTimelineRenderer *self,
               cairo_t            *cr,
               double              x,
               double              y,
               double              width)
{
  LegendItem items[16];
  guint n = legend_items (items);
  PangoLayout *pl = ws_timeline_renderer_get_scratch (self);
  WsRenderFlow flow;

  ws_render_flow_init (&flow, x, y, width);
  for (guint i = 0; i < n; i++)
    {
      double swatch = items[i].kind == ITEM_DURATION ? 32 : 18, cx, cy;
      int tw, th;

      ws_render_measure_text (pl, items[i].label, &tw, &th);
      ws_render_flow_place (&flow, swatch + 5 + tw + 12, th, &cx, &cy);
      if (cr != NULL)
        {
          double my = cy + th / 2.0;

          draw_swatch (self, cr, &items[i], cx, floor (my), swatch);
          ws_render_set_source (cr, &self->palette.foreground);
          cairo_move_to (cr, cx + swatch + 5, cy);
          pango_layout_set_text (pl, items[i].label, -1);
          pango_cairo_show_layout (cr, pl);
        }
    }
  return ws_render_flow_get_height (&flow);
}

/**
 * ws_timeline_renderer_draw_legend:
 *
 * Draws what each colour and dash means, wrapping at @width.
 *
 * Returns: the height used
 */
double
ws_timeline_renderer_draw_legend (WsTimelineRenderer *self,
                                  cairo_t            *cr,
                                  double              x,
                                  double              y,
                                  double              width)
{
  g_return_val_if_fail (WS_IS_TIMELINE_RENDERER (self), 0);
  g_return_val_if_fail (cr != NULL, 0);
  return legend_layout (self, cr, x, y, width);
}

double
ws_timeline_renderer_measure_legend (WsTimelineRenderer *self,
                                     double              width)
{
  g_return_val_if_fail (WS_IS_TIMELINE_RENDERER (self), 0);
  return legend_layout (self, NULL, 0, 0, width);
}

