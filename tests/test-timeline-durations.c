/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * How long each wait was, on real traces: the lod's duration index holds
 * exactly the waits of 1 ms or more, its long waits exactly those at or
 * above the trace's 99th percentile, a thread's longest wait is its
 * longest WAIT event; the drawing shades a long wait (not the row's
 * background above its line) and marks it at whole-trace zoom, where the
 * state levels have merged it; scenario instances get a lane with their
 * slices, and a click in the lane finds the instance.
 */
#include "config.h"

#include <math.h>

#include "ws-timeline-renderer.h"
#include "ws-trace-loader.h"

#define CHART_W 1000
#define LABEL_W 220
#define RULER_H 28

static WsTrace *
load (const char *name)
{
  g_autofree char *base = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), base, NULL);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime ta = *(const WsTime *) a, tb = *(const WsTime *) b;
  return ta < tb ? -1 : ta > tb;
}

/* The index against the events, thread by thread. */
static void
test_index (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks");
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  WsTime threshold, start = ws_trace_get_start_time (trace), end = ws_trace_get_end_time (trace);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      WsTime d = MAX (ws_event_duration (e), 0);
      if (e->kind == WS_EVENT_WAIT)
        g_array_append_val (durations, d);
    }
  g_array_sort (durations, compare_time);
  threshold = MAX (g_array_index (durations, WsTime, (guint) (0.99 * (durations->len - 1))), WS_TIMELINE_LOD_MIN_WAIT);
  g_assert_cmpint (ws_timeline_lod_get_long_wait_threshold (lod), ==, threshold);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      guint n_index, n_long, want_index = 0, want_long = 0, longest = WS_NONE;
      const WsLodWait *index = ws_timeline_lod_get_waits (lod, t, 1, start, end + 1, &n_index);
      WsTime longest_d = -1;

      ws_timeline_lod_get_long_waits (lod, t, start, end + 1, &n_long);
      for (guint k = 0; k < thread->n_events; k++)
        {
          const WsEvent *e = ws_trace_get_event (trace, thread->events[k]);
          if (e->kind != WS_EVENT_WAIT)
            continue;
          want_index += ws_event_duration (e) >= WS_TIMELINE_LOD_MIN_WAIT;
          want_long += ws_event_duration (e) >= threshold;
          if (ws_event_duration (e) > longest_d)
            longest = thread->events[k], longest_d = ws_event_duration (e);
        }
      g_assert_cmpuint (n_index, ==, want_index);
      g_assert_cmpuint (n_long, ==, want_long);
      g_assert_cmpuint (ws_timeline_lod_get_stats (lod, t)->totals.longest_wait_event, ==, longest);
      for (guint k = 1; k < n_index; k++)
        g_assert_cmpint (index[k].t0, >=, index[k - 1].t0);

      /* Zoomed out, only waits about a pixel wide or more are walked,
       * and none of those is left out. */
      {
        double ns_per_px = (double) (end - start) / CHART_W;
        guint n_coarse, wide = 0;
        const WsLodWait *coarse = ws_timeline_lod_get_waits (lod, t, ns_per_px, start, end + 1, &n_coarse);

        for (guint k = 0; k < n_index; k++)
          wide += index[k].t1 - index[k].t0 >= ns_per_px * 4;
        g_assert_cmpuint (n_coarse, >=, wide);
        g_assert_cmpuint (n_coarse, <=, n_index);
        for (guint k = 0; k < n_coarse; k++)
          g_assert_cmpint (coarse[k].t1 - coarse[k].t0, >=, WS_TIMELINE_LOD_MIN_WAIT);
      }
    }
}

typedef struct {
  guint8 r, g, b;
} Pixel;

static Pixel
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  guint32 v = *(const guint32 *) (cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) + x * 4);
  Pixel p = { (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
  return p;
}

static gboolean
is_dark (Pixel p)
{
  return p.r + p.g + p.b < 3 * 80;
}

/* The whole of py-locks on 1000 px: perf's 3 s wait is shaded well above
 * its line, and each long wait has its mark. */
static void
test_drawn (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks");
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_autoptr(WsTimelineLayout) layout = ws_timeline_layout_new (trace);
  g_autoptr(WsTimelineViewport) vp = ws_timeline_viewport_new ();
  g_autoptr(WsTimelineRenderer) renderer = ws_timeline_renderer_new ();
  double height = RULER_H + ws_timeline_layout_get_height (layout);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, LABEL_W + CHART_W, (int) height);
  cairo_t *cr = cairo_create (surface);
  guint thread = WS_NONE, marks = 0, n_long;
  const WsLodWait *long_waits;
  const WsThreadStats *stats;
  const WsEvent *w;
  double top, bar_y, bar_h, line_y, line_h, x;
  WsTimelinePalette palette;
  Pixel shade;

  ws_timeline_viewport_set_bounds (vp, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_width (vp, CHART_W);
  ws_timeline_renderer_draw (renderer, cr, lod, layout, vp, 0, LABEL_W + CHART_W, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (ws_trace_get_thread (trace, t)->tid == 11591)
      thread = t;
  g_assert_cmpuint (thread, !=, WS_NONE);
  stats = ws_timeline_lod_get_stats (lod, thread);
  w = ws_trace_get_event (trace, stats->totals.longest_wait_event);
  g_assert_cmpint (ws_event_duration (w), >, 1000000000);   /* perf's poll(): 3 s */

  top = RULER_H + ws_timeline_layout_get_row (layout, ws_timeline_layout_find_thread_row (layout, thread))->y;
  ws_timeline_row_bar_extents (top, 24, &bar_y, &bar_h);
  ws_timeline_row_line_extents (top, 24, &line_y, &line_h);
  /* A quarter into the wait: clear of the duration text in its middle. */
  x = LABEL_W + ws_timeline_viewport_time_to_x (vp, w->time + ws_event_duration (w) / 4);
  shade = pixel_at (surface, (int) x, (int) bar_y + 1);
  ws_timeline_palette_init_light (&palette);
  /* Sleeping blue at the top decade's opacity over a white or grey row. */
  g_assert_cmpint (shade.b, >, shade.r + 60);
  g_assert_cmpint (shade.r, <, 120);

  /* Every long wait of every row has its triangle (dark pixels just
   * above the bar), however narrow the wait is at this zoom. */
  for (guint r = 0; r < ws_timeline_layout_get_n_rows (layout); r++)
    {
      const WsTimelineRow *row = ws_timeline_layout_get_row (layout, r);
      double last = -100;

      if (row->kind != WS_TIMELINE_ROW_THREAD)
        continue;
      ws_timeline_row_bar_extents (RULER_H + row->y + row->lane, row->height - row->lane, &bar_y, &bar_h);
      long_waits = ws_timeline_lod_get_long_waits (lod, row->index, ws_trace_get_start_time (trace),
                                                  ws_trace_get_end_time (trace) + 1, &n_long);
      for (guint k = 0; k < n_long; k++)
        {
          double x0 = MAX (ws_timeline_viewport_time_to_x (vp, long_waits[k].t0), 0);
          double x1 = MIN (ws_timeline_viewport_time_to_x (vp, long_waits[k].t1), CHART_W);
          double cx = round ((x0 + x1) / 2);

          if (cx - last < 8)
            continue;
          last = cx;
          g_assert_true (is_dark (pixel_at (surface, LABEL_W + (int) cx, (int) bar_y - 3)));
          marks++;
        }
    }
  g_test_message ("%u long-wait marks", marks);
  g_assert_cmpuint (marks, >, 3);
  cairo_surface_destroy (surface);
}

/* pg-tpcb's transactions: a lane on the backends' rows, a slice where an
 * instance runs, found again by hit testing. */
static void
test_slices (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb");
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_autoptr(WsTimelineLayout) layout = ws_timeline_layout_new (trace);
  g_autoptr(WsTimelineViewport) vp = ws_timeline_viewport_new ();
  g_autoptr(WsTimelineRenderer) renderer = ws_timeline_renderer_new ();
  const WsScenarioInstance *si;
  const WsTimelineRow *row;
  WsTimelineHit hit;
  guint slowest = 0;

  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), >, 100);
  for (guint i = 1; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *a = ws_trace_get_scenario_instance (trace, i);
      const WsScenarioInstance *b = ws_trace_get_scenario_instance (trace, slowest);
      if (a->t1 - a->t0 > b->t1 - b->t0)
        slowest = i;
    }
  si = ws_trace_get_scenario_instance (trace, slowest);
  g_assert_cmpint (ws_timeline_lod_get_slowest_instance (lod), ==, si->t1 - si->t0);
  row = ws_timeline_layout_get_row (layout, ws_timeline_layout_find_thread_row (layout, si->thread));
  g_assert_cmpfloat (row->lane, ==, WS_TIMELINE_LANE_HEIGHT);

  ws_timeline_viewport_set_bounds (vp, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_width (vp, CHART_W);
  ws_timeline_viewport_set_visible (vp, si->t0 - (si->t1 - si->t0), si->t1 + (si->t1 - si->t0));
  ws_timeline_renderer_hit_test (renderer, lod, layout, vp, 0,
                                 LABEL_W + ws_timeline_viewport_time_to_x (vp, si->t0 + (si->t1 - si->t0) / 2),
                                 RULER_H + row->y + row->lane / 2, &hit);
  g_assert_cmpuint (hit.thread, ==, si->thread);
  g_assert_cmpuint (hit.instance, ==, slowest);
  g_assert_cmpuint (hit.event, ==, WS_NONE);

  /* Below the lane: events, not the instance. */
  ws_timeline_renderer_hit_test (renderer, lod, layout, vp, 0,
                                 LABEL_W + ws_timeline_viewport_time_to_x (vp, si->t0 + (si->t1 - si->t0) / 2),
                                 RULER_H + row->y + row->lane + 12, &hit);
  g_assert_cmpuint (hit.instance, ==, WS_NONE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline/durations/index", test_index);
  g_test_add_func ("/timeline/durations/drawn", test_drawn);
  g_test_add_func ("/timeline/durations/slices", test_slices);
  return g_test_run ();
}
