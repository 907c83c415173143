/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The time ↔ pixel mapping, zoom, pan, history and selection of the
 * timeline, the ruler's tick steps and the row layout: no drawing.
 * Expected values are worked out by hand in the comments.
 */
#include "config.h"

#include "ws-time-format.h"
#include "ws-timeline-layout.h"
#include "ws-timeline-viewport.h"
#include "ws-trace-private.h"

static WsTimelineViewport *
make_viewport (void)
{
  WsTimelineViewport *vp = ws_timeline_viewport_new ();

  /* 1 s of trace over 1000 px: 1 ms per pixel. */
  ws_timeline_viewport_set_bounds (vp, 1000000000, 2000000000);
  ws_timeline_viewport_set_width (vp, 1000);
  return vp;
}

static void
test_mapping (void)
{
  g_autoptr(WsTimelineViewport) vp = make_viewport ();

  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1000000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);
  g_assert_cmpfloat (ws_timeline_viewport_get_ns_per_px (vp), ==, 1000000.0);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1500000000), ==, 500.0);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1000000000), ==, 0.0);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1000500000), ==, 0.5);
  g_assert_cmpint (ws_timeline_viewport_x_to_time (vp, 250), ==, 1250000000);
  g_assert_cmpint (ws_timeline_viewport_x_to_time (vp, 0.25), ==, 1000250000);

  /* Round trip over many pixels. */
  for (double x = 0; x <= 1000; x += 7.5)
    g_assert_cmpfloat_with_epsilon (ws_timeline_viewport_time_to_x (vp, ws_timeline_viewport_x_to_time (vp, x)), x, 1e-6);
}

static void
test_zoom_keeps_anchor (void)
{
  g_autoptr(WsTimelineViewport) vp = make_viewport ();

  /* ×2 about the middle: [1.25 s, 1.75 s], 1.5 s still at x = 500. */
  ws_timeline_viewport_zoom (vp, 2, 500);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1250000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 1750000000);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1500000000), ==, 500.0);

  /* From the full view, ×10 about x = 100 (t = 1.1 s): span 100 ms,
   * begin = 1.1 s - 100 px · 0.1 ms/px = 1.09 s. */
  ws_timeline_viewport_zoom_to_fit (vp);
  ws_timeline_viewport_zoom (vp, 10, 100);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1090000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 1190000000);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1100000000), ==, 100.0);
  /* The same event is 10× wider than before. */
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1101000000) -
                     ws_timeline_viewport_time_to_x (vp, 1100000000), ==, 10.0);

  /* Zooming out past the bounds shows everything, no more. */
  ws_timeline_viewport_zoom (vp, 0.001, 900);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1000000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);

  /* Zooming in stops at the minimum span. */
  ws_timeline_viewport_zoom (vp, 1e12, 0);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp) - ws_timeline_viewport_get_begin (vp), ==, WS_TIMELINE_MIN_SPAN);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1000000000);

  /* Zooming near the right edge never shows time past the end. */
  ws_timeline_viewport_zoom_to_fit (vp);
  ws_timeline_viewport_zoom (vp, 4, 1000);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1750000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);
}

static void
test_pan_clamps (void)
{
  g_autoptr(WsTimelineViewport) vp = make_viewport ();
  guint changed = 0;

  g_signal_connect_swapped (vp, "changed", G_CALLBACK (g_atomic_int_inc), &changed);

  ws_timeline_viewport_set_visible (vp, 1100000000, 1200000000);   /* 0.1 ms/px */
  g_assert_cmpuint (changed, ==, 1);
  ws_timeline_viewport_pan (vp, 100);                              /* +10 ms */
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1110000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 1210000000);
  ws_timeline_viewport_pan (vp, -250.5);                           /* -25.05 ms */
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1084950000);
  ws_timeline_viewport_pan (vp, 1e9);                              /* to the end */
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1900000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);
  g_assert_cmpuint (changed, ==, 4);
  ws_timeline_viewport_pan (vp, 10);                               /* no move: no signal */
  g_assert_cmpuint (changed, ==, 4);
  ws_timeline_viewport_pan (vp, -1e9);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1000000000);

  /* A span that does not fit is moved, not cut. */
  ws_timeline_viewport_set_visible (vp, 1950000000, 2050000000);
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1900000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);

  /* Width changes rescale without moving the span. */
  ws_timeline_viewport_set_width (vp, 500);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (vp, 1950000000), ==, 250.0);
  g_assert_cmpuint (changed, ==, 7);
}

static void
test_history (void)
{
  g_autoptr(WsTimelineViewport) vp = make_viewport ();

  g_assert_false (ws_timeline_viewport_can_go_back (vp));
  ws_timeline_viewport_push_history (vp);
  ws_timeline_viewport_zoom (vp, 2, 500);               /* [1.25, 1.75] */
  ws_timeline_viewport_push_history (vp);
  ws_timeline_viewport_push_history (vp);               /* duplicate: ignored */
  ws_timeline_viewport_zoom (vp, 5, 0);                 /* [1.25, 1.35] */
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 1350000000);
  g_assert_true (ws_timeline_viewport_can_go_back (vp));

  g_assert_true (ws_timeline_viewport_go_back (vp));
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1250000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 1750000000);
  g_assert_true (ws_timeline_viewport_go_back (vp));
  g_assert_cmpint (ws_timeline_viewport_get_begin (vp), ==, 1000000000);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, 2000000000);
  g_assert_false (ws_timeline_viewport_can_go_back (vp));
  g_assert_false (ws_timeline_viewport_go_back (vp));

  /* An entry equal to the current span is skipped. */
  ws_timeline_viewport_push_history (vp);
  g_assert_false (ws_timeline_viewport_go_back (vp));
}

static void
test_selection (void)
{
  g_autoptr(WsTimelineViewport) vp = make_viewport ();
  guint changed = 0, thread;
  WsTime t0, t1;

  g_signal_connect_swapped (vp, "selection-changed", G_CALLBACK (g_atomic_int_inc), &changed);
  g_assert_false (ws_timeline_viewport_get_selection (vp, NULL, NULL, NULL));

  /* Dragging right to left gives an ordered window. */
  ws_timeline_viewport_set_selection (vp, 3, 1600000000, 1400000000);
  g_assert_true (ws_timeline_viewport_get_selection (vp, &thread, &t0, &t1));
  g_assert_cmpuint (thread, ==, 3);
  g_assert_cmpint (t0, ==, 1400000000);
  g_assert_cmpint (t1, ==, 1600000000);
  ws_timeline_viewport_set_selection (vp, 3, 1400000000, 1600000000);   /* same: no signal */
  g_assert_cmpuint (changed, ==, 1);

  /* Clamped into the trace. */
  ws_timeline_viewport_set_selection (vp, 4, 500, 3000000000);
  ws_timeline_viewport_get_selection (vp, &thread, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000000000);
  g_assert_cmpint (t1, ==, 2000000000);

  ws_timeline_viewport_clear_selection (vp);
  g_assert_false (ws_timeline_viewport_get_selection (vp, &thread, NULL, NULL));
  g_assert_cmpuint (thread, ==, WS_NONE);
  g_assert_cmpuint (changed, ==, 3);

  /* New bounds (a new trace) forget everything. */
  ws_timeline_viewport_set_selection (vp, 1, 1100000000, 1200000000);
  ws_timeline_viewport_set_selected_event (vp, 7);
  ws_timeline_viewport_set_bounds (vp, 0, 10);
  g_assert_false (ws_timeline_viewport_get_selection (vp, NULL, NULL, NULL));
  g_assert_cmpuint (ws_timeline_viewport_get_selected_event (vp), ==, WS_NONE);
  g_assert_cmpint (ws_timeline_viewport_get_end (vp), ==, WS_TIMELINE_MIN_SPAN);
}

static void
test_format_duration (void)
{
  static const struct { WsTime ns; const char *text; } cases[] = {
    { 0, "0 ns" },
    { 850, "850 ns" },
    { 999, "999 ns" },
    { 1000, "1.00 µs" },
    { 12345, "12.3 µs" },
    { 999960, "1.00 ms" },
    { 1250000, "1.25 ms" },
    { 45000000, "45.0 ms" },
    { 2500000000, "2.50 s" },
    { 100000000000, "100 s" },
    { -1500, "-1.50 µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = ws_format_duration (cases[i].ns);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_tick_steps (void)
{
  WsTickStep tick;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  /* 1 ms/px, labels ≥ 90 px apart: 90 ms → 100 ms steps, in s. */
  ws_tick_step_compute (&tick, 1e6, 90, 1000000000);
  g_assert_cmpint (tick.step, ==, 100000000);
  g_assert_cmpint (tick.minor, ==, 20000000);
  g_assert_cmpint (tick.unit, ==, 1000000000);
  g_assert_cmpuint (tick.decimals, ==, 1);
  a = ws_tick_step_format (&tick, 300000000);
  g_assert_cmpstr (a, ==, "0.3 s");

  /* 2222 ns/px: 200 µs steps, written 1.2 ms; minor ticks every 50 µs. */
  ws_tick_step_compute (&tick, 2222, 90, 5000000);
  g_assert_cmpint (tick.step, ==, 200000);
  g_assert_cmpint (tick.minor, ==, 50000);
  g_assert_cmpint (tick.unit, ==, 1000000);
  b = ws_tick_step_format (&tick, 1200000);
  g_assert_cmpstr (b, ==, "1.2 ms");

  /* 10 ns steps 1.5 s into a trace: not "1500000010 ns" but ms with five
   * decimals. */
  ws_tick_step_compute (&tick, 0.1, 90, 1500000010);
  g_assert_cmpint (tick.step, ==, 10);
  g_assert_cmpint (tick.unit, ==, 1000000);
  g_assert_cmpuint (tick.decimals, ==, 5);
  c = ws_tick_step_format (&tick, 1500000010);
  g_assert_cmpstr (c, ==, "1500.00001 ms");
}

/* Processes: pid 100 (threads 101, 102: 3 + 2 events), pid 200 (thread
 * 201: 9 events), pid 0 (swapper: 20 events), and thread 301 of pid 300
 * that is only ever a wake-up target (no events, no row). */
static WsTrace *
make_layout_trace (void)
{
  WsTrace *trace = ws_trace_new ("layout.trace", NULL);
  struct { gint32 tid, pid; guint n; } spec[] = {
    { 101, 100, 3 }, { 102, 100, 2 }, { 201, 200, 9 }, { 0, 0, 20 }, { 301, 300, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
    {
      guint t = ws_trace_ensure_thread (trace, spec[i].tid, spec[i].pid);
      for (guint k = 0; k < spec[i].n; k++)
        {
          WsEvent e = { .time = 1000 + k * 10, .u.duration = 5, .thread = t, .peer = WS_NONE,
                        .kind = WS_EVENT_RUNNING, .flags = WS_EVENT_FLAG_SPAN };
          ws_trace_add_event (trace, &e);
        }
    }
  ws_trace_finish (trace);
  return trace;
}

static void
test_layout (void)
{
  g_autoptr(WsTrace) trace = make_layout_trace ();
  g_autoptr(WsTimelineLayout) layout = ws_timeline_layout_new (trace);
  const WsTimelineRow *row;
  guint p100, t101, t102;
  guint changed = 0;

  g_signal_connect_swapped (layout, "changed", G_CALLBACK (g_atomic_int_inc), &changed);
  ws_timeline_layout_set_row_height (layout, 24, 26);
  g_assert_cmpuint (changed, ==, 0);   /* the defaults */

  /* 200 (9 events) before 100 (5), swapper last despite 20 events:
   * P200 T201 P100 T101 T102 P0 T0 at y 0 26 50 76 100 124 150. */
  g_assert_cmpuint (ws_timeline_layout_get_n_rows (layout), ==, 7);
  g_assert_cmpfloat (ws_timeline_layout_get_height (layout), ==, 174);
  row = ws_timeline_layout_get_row (layout, 0);
  g_assert_cmpint (row->kind, ==, WS_TIMELINE_ROW_PROCESS);
  g_assert_cmpint (ws_trace_get_process (trace, row->index)->pid, ==, 200);
  row = ws_timeline_layout_get_row (layout, 2);
  g_assert_cmpint (ws_trace_get_process (trace, row->index)->pid, ==, 100);
  g_assert_cmpfloat (row->y, ==, 50);
  p100 = row->index;
  row = ws_timeline_layout_get_row (layout, 5);
  g_assert_cmpint (ws_trace_get_process (trace, row->index)->pid, ==, 0);
  g_assert_cmpfloat (row->y, ==, 124);

  t101 = ws_trace_find_thread (trace, 101);
  t102 = ws_trace_find_thread (trace, 102);
  g_assert_cmpuint (ws_timeline_layout_find_thread_row (layout, t101), ==, 3);
  g_assert_cmpuint (ws_timeline_layout_find_thread_row (layout, t102), ==, 4);
  g_assert_cmpuint (ws_timeline_layout_find_thread_row (layout, ws_trace_find_thread (trace, 301)), ==, WS_NONE);
  g_assert_cmpuint (ws_timeline_layout_get_n_visible_threads (layout), ==, 4);

  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, -1), ==, WS_NONE);
  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, 0), ==, 0);
  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, 75.9), ==, 2);
  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, 76), ==, 3);
  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, 173.9), ==, 6);
  g_assert_cmpuint (ws_timeline_layout_row_at_y (layout, 174), ==, WS_NONE);

  /* Collapsing 100 removes its two thread rows and moves the rest up. */
  ws_timeline_layout_set_collapsed (layout, p100, TRUE);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (ws_timeline_layout_get_n_rows (layout), ==, 5);
  g_assert_cmpfloat (ws_timeline_layout_get_height (layout), ==, 126);
  g_assert_cmpuint (ws_timeline_layout_find_thread_row (layout, t101), ==, WS_NONE);
  g_assert_cmpuint (ws_timeline_layout_find_process_row (layout, p100), ==, 2);
  g_assert_cmpfloat (ws_timeline_layout_get_row (layout, 3)->y, ==, 76);
  ws_timeline_layout_set_collapsed (layout, p100, TRUE);
  g_assert_cmpuint (changed, ==, 1);
  ws_timeline_layout_set_collapsed (layout, p100, FALSE);
  g_assert_cmpuint (ws_timeline_layout_get_n_rows (layout), ==, 7);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/viewport/mapping", test_mapping);
  g_test_add_func ("/timeline/viewport/zoom-keeps-anchor", test_zoom_keeps_anchor);
  g_test_add_func ("/timeline/viewport/pan-clamps", test_pan_clamps);
  g_test_add_func ("/timeline/viewport/history", test_history);
  g_test_add_func ("/timeline/viewport/selection", test_selection);
  g_test_add_func ("/timeline/format/duration", test_format_duration);
  g_test_add_func ("/timeline/format/tick-steps", test_tick_steps);
  g_test_add_func ("/timeline/layout/rows", test_layout);

  return g_test_run ();
}
