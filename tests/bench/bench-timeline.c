/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Full redraws of the timeline of a synthetic trace with at least a
 * million events into a 1600×1000 image surface, at several zoom levels,
 * with the level-of-detail renderer, and for comparison a naive renderer
 * that walks every visible event and fills one rectangle per event.
 *
 *   bench-timeline [N_EVENTS [FRAMES]]
 */
#include "config.h"

#include <math.h>

#include "ws-synthetic-trace.h"
#include "ws-timeline-renderer.h"

#define WIDTH  1600
#define HEIGHT 1000

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* The peer: one rectangle per event in the visible span, no culling by
 * pixel column, no levels. */
static void
draw_naive (cairo_t            *cr,
            WsTrace            *trace,
            WsTimelineLayout   *layout,
            WsTimelineViewport *vp,
            double              label_w,
            double              ruler_h)
{
  const WsEvent *events = ws_trace_get_events (trace);
  WsTime begin = ws_timeline_viewport_get_begin (vp), end = ws_timeline_viewport_get_end (vp);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (guint r = 0; r < ws_timeline_layout_get_n_rows (layout); r++)
    {
      const WsTimelineRow *row = ws_timeline_layout_get_row (layout, r);
      const WsThread *t;
      guint k;

      if (row->y + ruler_h >= HEIGHT)
        break;
      if (row->kind != WS_TIMELINE_ROW_THREAD)
        continue;
      t = ws_trace_get_thread (trace, row->index);
      k = ws_trace_thread_lower_bound (trace, row->index, begin);
      if (k > 0)
        k--;
      for (; k < t->n_events; k++)
        {
          const WsEvent *e = &events[t->events[k]];
          double x0, x1;

          if (e->time >= end)
            break;
          x0 = label_w + ws_timeline_viewport_time_to_x (vp, e->time);
          x1 = label_w + ws_timeline_viewport_time_to_x (vp, e->time + ws_event_duration (e));
          if (e->kind == WS_EVENT_RUNNING)
            cairo_set_source_rgb (cr, 0.15, 0.63, 0.41);
          else
            cairo_set_source_rgb (cr, 0.11, 0.44, 0.85);
          cairo_rectangle (cr, x0, ruler_h + row->y + 5, MAX (x1 - x0, 0.5), 14);
          cairo_fill (cr);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  guint n_events = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 1000000;
  guint frames = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 20;
  static const double zooms[] = { 1, 10, 100, 1000, 10000 };
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTimelineLod) lod = NULL;
  g_autoptr(WsTimelineLayout) layout = NULL;
  g_autoptr(WsTimelineViewport) vp = NULL;
  g_autoptr(WsTimelineRenderer) renderer = NULL;
  const WsTimelineGeometry *geometry;
  cairo_surface_t *surface;
  cairo_t *cr;
  double t0, worst_mean = 0;

  t0 = now_ms ();
  trace = ws_synthetic_trace_new (5, 8, n_events, 42);
  g_print ("trace: %u events, %u threads, %.3f s span, generated in %.0f ms\n",
           ws_trace_get_n_events (trace), ws_trace_get_n_threads (trace),
           (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace)) / 1e9,
           now_ms () - t0);

  t0 = now_ms ();
  lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_print ("levels of detail: built in %.0f ms, %.1f MB (trace %.1f MB)\n",
           now_ms () - t0, ws_timeline_lod_get_memory_size (lod) / 1e6,
           ws_trace_get_memory_size (trace) / 1e6);

  layout = ws_timeline_layout_new (trace);
  vp = ws_timeline_viewport_new ();
  renderer = ws_timeline_renderer_new ();
  geometry = ws_timeline_renderer_get_geometry (renderer);
  ws_timeline_viewport_set_bounds (vp, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_width (vp, WIDTH - geometry->label_width);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cr = cairo_create (surface);

  g_print ("%dx%d, %u frames per zoom, %u of %u rows inside the height\n", WIDTH, HEIGHT, frames,
           (guint) MIN (ws_timeline_layout_get_n_rows (layout), ws_timeline_layout_get_n_rows (layout) *
                        (HEIGHT - geometry->ruler_height) / ws_timeline_layout_get_height (layout) + 1),
           ws_timeline_layout_get_n_rows (layout));
  g_print ("%-8s %12s %14s %10s %10s %14s\n", "zoom", "span", "events shown", "mean ms", "max ms", "naive mean ms");

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      double sum = 0, worst = 0, naive = 0;
      guint shown = 0;
      /* WS_BENCH_NAIVE=0 skips the peer (for profiling the renderer). */
      guint naive_frames = g_strcmp0 (g_getenv ("WS_BENCH_NAIVE"), "0") == 0 ? 0 : MAX (frames / 4, 2);

      ws_timeline_viewport_zoom_to_fit (vp);
      ws_timeline_viewport_zoom (vp, zooms[z], ws_timeline_viewport_get_width (vp) / 2);

      for (guint r = 0; r < ws_timeline_layout_get_n_rows (layout); r++)
        {
          const WsTimelineRow *row = ws_timeline_layout_get_row (layout, r);
          if (row->y + geometry->ruler_height >= HEIGHT || row->kind != WS_TIMELINE_ROW_THREAD)
            continue;
          shown += ws_trace_thread_lower_bound (trace, row->index, ws_timeline_viewport_get_end (vp)) -
                   ws_trace_thread_lower_bound (trace, row->index, ws_timeline_viewport_get_begin (vp));
        }

      /* One warm-up frame fills the label cache, as on screen. */
      ws_timeline_renderer_draw (renderer, cr, lod, layout, vp, 0, WIDTH, HEIGHT);
      for (guint f = 0; f < frames; f++)
        {
          double start = now_ms (), ms;
          ws_timeline_renderer_draw (renderer, cr, lod, layout, vp, 0, WIDTH, HEIGHT);
          cairo_surface_flush (surface);
          ms = now_ms () - start;
          sum += ms;
          worst = MAX (worst, ms);
        }
      for (guint f = 0; f < naive_frames; f++)
        {
          double start = now_ms ();
          draw_naive (cr, trace, layout, vp, geometry->label_width, geometry->ruler_height);
          cairo_surface_flush (surface);
          naive += now_ms () - start;
        }
      {
        g_autofree char *span = g_strdup_printf ("%.3g ms", (ws_timeline_viewport_get_end (vp) - ws_timeline_viewport_get_begin (vp)) / 1e6);
        g_print ("%-8g %12s %14u %10.2f %10.2f %14.2f\n", zooms[z], span, shown,
                 sum / frames, worst, naive_frames ? naive / naive_frames : NAN);
      }
      worst_mean = MAX (worst_mean, sum / frames);
    }

  if (g_getenv ("WS_BENCH_PNG"))
    {
      ws_timeline_viewport_zoom_to_fit (vp);
      ws_timeline_renderer_draw (renderer, cr, lod, layout, vp, 0, WIDTH, HEIGHT);
      cairo_surface_write_to_png (surface, g_getenv ("WS_BENCH_PNG"));
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_print ("worst mean frame: %.2f ms (goal: 8 ms)\n", worst_mean);
  return 0;
}
