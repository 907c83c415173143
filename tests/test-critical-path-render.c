/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The critical path figure drawn into an image surface and read back:
 * every segment's bar in its state's colour (the timeline's palette) at
 * the pixel columns its times map to, on its thread's lane, lanes in the
 * documented order, connectors exactly where the path changes thread,
 * hit testing, zoom, the summary words and the exports.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-critical-path-renderer.h"

#define WIDTH 1000.0

/*
 * The hand-built trace of test-critical-path.c, threads created in the
 * order C, B, A so that thread indices run against the lane order:
 *
 *  A  run [0,100)  wA1 [100,400) by B, ready latency 20  run [420,500)
 *     wA2 [500,600) timer (HW)  run [600,700)  preempted [700,750)  run [750,800)
 *     wA3 [800,900) no wake-up recorded  run [900,1000)
 *  B  run [0,150)  wB1 [150,300) by C, ready latency 10  run [310,450)
 *  C  run [0,320)
 *
 * Path of ⟨A, 0, 1000⟩ (test-critical-path.c works it out by hand):
 *   A [0,100) run · B [100,150) run · C [150,300) run · B [300,310) ready ·
 *   B [310,400) run · A [400,420) ready · A [420,500) run · A [500,600)
 *   hardware · A [600,700) run · A [700,750) ready · A [750,800) run ·
 *   A [800,900) unknown · A [900,1000) run
 */
typedef struct {
  WsTestTrace            *tt;
  guint                   A, B, C;
  WsCriticalPath         *path;
  WsCriticalPathRenderer *renderer;
  cairo_surface_t        *surface;
  double                  height;
} Fixture;

typedef struct {
  char            lane;    /* 'A', 'B', 'C' */
  WsTime          start;
  WsTime          end;
  WsCriticalState state;
} Expected;

static const Expected expected[] = {
  { 'A',   0,  100, WS_CRITICAL_RUNNING },
  { 'B', 100,  150, WS_CRITICAL_RUNNING },
  { 'C', 150,  300, WS_CRITICAL_RUNNING },
  { 'B', 300,  310, WS_CRITICAL_READY },
  { 'B', 310,  400, WS_CRITICAL_RUNNING },
  { 'A', 400,  420, WS_CRITICAL_READY },
  { 'A', 420,  500, WS_CRITICAL_RUNNING },
  { 'A', 500,  600, WS_CRITICAL_BLOCKED_HARDWARE },
  { 'A', 600,  700, WS_CRITICAL_RUNNING },
  { 'A', 700,  750, WS_CRITICAL_READY },
  { 'A', 750,  800, WS_CRITICAL_RUNNING },
  { 'A', 800,  900, WS_CRITICAL_BLOCKED_UNKNOWN },
  { 'A', 900, 1000, WS_CRITICAL_RUNNING },
};

static void
draw (Fixture *f)
{
  cairo_t *cr;

  g_clear_pointer (&f->surface, cairo_surface_destroy);
  f->height = ws_critical_path_renderer_measure_height (f->renderer, WIDTH);
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) WIDTH, (int) f->height);
  cr = cairo_create (f->surface);
  ws_critical_path_renderer_draw (f->renderer, cr, WIDTH, f->height);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;hrtimer_wakeup");
  WsStackId lock = ws_test_trace_stack (tt, "main;lock;futex_wait");
  WsSymptom symptom;
  guint wA1, wA2, wB1;

  f->C = ws_test_trace_thread (tt, 3, 3, "c");
  f->B = ws_test_trace_thread (tt, 2, 1, "b");
  f->A = ws_test_trace_thread (tt, 1, 1, "a");

  ws_test_trace_run (tt, f->A, 0, 100, 0);
  wA1 = ws_test_trace_wait (tt, f->A, 100, 400, lock);
  ws_test_trace_set_latency (tt, wA1, 20);
  ws_test_trace_run (tt, f->A, 420, 500, 0);
  wA2 = ws_test_trace_wait (tt, f->A, 500, 600, 0);
  ws_test_trace_run (tt, f->A, 600, 700, 0);
  ws_test_trace_preempt (tt, f->A, 700, 750);
  ws_test_trace_run (tt, f->A, 750, 800, 0);
  ws_test_trace_wait (tt, f->A, 800, 900, 0);
  ws_test_trace_run (tt, f->A, 900, 1000, 0);

  ws_test_trace_run (tt, f->B, 0, 150, 0);
  wB1 = ws_test_trace_wait (tt, f->B, 150, 300, 0);
  ws_test_trace_set_latency (tt, wB1, 10);
  ws_test_trace_run (tt, f->B, 310, 450, 0);

  ws_test_trace_run (tt, f->C, 0, 320, 0);

  ws_test_trace_wake (tt, f->B, wA1, 0);
  ws_test_trace_hw_wake (tt, f->C, wA2, timer);
  ws_test_trace_wake (tt, f->C, wB1, 0);
  ws_test_trace_finish (tt);

  symptom.thread = f->A;
  symptom.t0 = 0;
  symptom.t1 = 1000;
  f->path = ws_critical_path_build (ws_test_trace_get_trace (tt), &symptom, NULL, NULL);
  g_assert_nonnull (f->path);
  g_assert_cmpuint (ws_critical_path_get_n_segments (f->path), ==, G_N_ELEMENTS (expected));

  f->renderer = ws_critical_path_renderer_new ();
  ws_critical_path_renderer_set_path (f->renderer, f->path);
  draw (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_pointer (&f->surface, cairo_surface_destroy);
  g_clear_object (&f->renderer);
  g_clear_object (&f->path);
  ws_test_trace_free (f->tt);
}

static guint32
pixel (Fixture *f,
       double   x,
       double   y)
{
  int stride = cairo_image_surface_get_stride (f->surface);
  const guint8 *data = cairo_image_surface_get_data (f->surface);
  int ix = (int) x, iy = (int) y;

  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (f->surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (f->surface));
  return *(const guint32 *) (data + iy * stride + ix * 4) & 0xffffff;
}

static guint32
hex (const WsColor *c)
{
  return ((guint32) (c->red * 255 + 0.5) << 16) | ((guint32) (c->green * 255 + 0.5) << 8) |
         (guint32) (c->blue * 255 + 0.5);
}

static guint32
state_hex (WsCriticalState state)
{
  WsTimelinePalette p;
  WsColor c;

  ws_timeline_palette_init_light (&p);
  ws_critical_state_get_colour (state, &p, &c);
  return hex (&c);
}

/* The x of @t by the geometry the header documents, computed here. */
static double
x_of (Fixture *f,
      WsTime   t,
      WsTime   begin,
      WsTime   end)
{
  const WsCriticalPathGeometry *g = ws_critical_path_renderer_get_geometry (f->renderer);
  double ox = g->margin + g->label_width, aw = WIDTH - ox - g->margin;
  return ox + (double) (t - begin) / (double) (end - begin) * aw;
}

/* The vertical middle of lane @lane's bars, by the documented geometry. */
static double
lane_mid (Fixture *f,
          guint    lane)
{
  const WsCriticalPathGeometry *g = ws_critical_path_renderer_get_geometry (f->renderer);
  double top = g->margin + g->summary_height + g->ruler_height + lane * g->lane_height;
  return top + g->lane_height / 2;
}

static guint
lane_of (char name)
{
  /* The documented order: the symptom thread, then by readier depth. */
  return name == 'A' ? 0 : name == 'B' ? 1 : 2;
}

static void
test_palette_is_the_timelines (void)
{
  WsTimelinePalette p;
  WsColor c;

  ws_timeline_palette_init_light (&p);
  ws_critical_state_get_colour (WS_CRITICAL_RUNNING, &p, &c);
  g_assert_cmphex (hex (&c), ==, hex (&p.states[WS_THREAD_STATE_RUN]));
  ws_critical_state_get_colour (WS_CRITICAL_READY, &p, &c);
  g_assert_cmphex (hex (&c), ==, hex (&p.states[WS_THREAD_STATE_READY]));
  ws_critical_state_get_colour (WS_CRITICAL_BLOCKED_HARDWARE, &p, &c);
  g_assert_cmphex (hex (&c), ==, hex (&p.states[WS_THREAD_STATE_DISK]));
  ws_critical_state_get_colour (WS_CRITICAL_BLOCKED_UNKNOWN, &p, &c);
  g_assert_cmphex (hex (&c), ==, hex (&p.states[WS_THREAD_STATE_SLEEP_UNKNOWN]));
  ws_critical_state_get_colour (WS_CRITICAL_NO_DATA, &p, &c);
  g_assert_cmphex (hex (&c), ==, hex (&p.states[WS_THREAD_STATE_OTHER]));
  /* Five different colours. */
  for (WsCriticalState a = 0; a < WS_N_CRITICAL_STATES; a++)
    for (WsCriticalState b = a + 1; b < WS_N_CRITICAL_STATES; b++)
      g_assert_cmphex (state_hex (a), !=, state_hex (b));
}

static void
test_lanes (Fixture       *f,
            gconstpointer  data)
{
  /* Thread indices are C = 0, B = 1, A = 2; lanes must be A, B, C. */
  g_assert_cmpuint (f->C, <, f->B);
  g_assert_cmpuint (f->B, <, f->A);
  g_assert_cmpuint (ws_critical_path_renderer_get_n_lanes (f->renderer), ==, 3);
  g_assert_cmpuint (ws_critical_path_renderer_get_lane_thread (f->renderer, 0), ==, f->A);
  g_assert_cmpuint (ws_critical_path_renderer_get_lane_thread (f->renderer, 1), ==, f->B);
  g_assert_cmpuint (ws_critical_path_renderer_get_lane_thread (f->renderer, 2), ==, f->C);
  g_assert_cmpuint (ws_critical_path_renderer_get_thread_lane (f->renderer, f->C), ==, 2);
  g_assert_cmpuint (ws_critical_path_renderer_get_thread_lane (f->renderer, 42), ==, WS_NONE);
}

static void
test_segment_pixels (Fixture       *f,
                     gconstpointer  data)
{
  guint32 background = hex (&ws_critical_path_renderer_get_palette (f->renderer)->background);
  guint32 alternate = hex (&ws_critical_path_renderer_get_palette (f->renderer)->row_alternate);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const Expected *e = &expected[i];
      const WsCriticalSegment *seg = ws_critical_path_get_segment (f->path, i);
      double x0 = x_of (f, e->start, 0, 1000), x1 = x_of (f, e->end, 0, 1000);
      guint lane = lane_of (e->lane);
      double y = lane_mid (f, lane);

      g_assert_cmpint (seg->start, ==, e->start);
      g_assert_cmpint (seg->end, ==, e->end);
      g_assert_cmpuint (seg->state, ==, e->state);

      /* Inside the bar, away from the connectors at its ends: the state's
       * colour over its whole inner width, and a few pixels up and down. */
      for (double x = ceil (x0) + 2; x < floor (x1) - 2; x += 1)
        {
          g_assert_cmphex (pixel (f, x, y), ==, state_hex (e->state));
          g_assert_cmphex (pixel (f, x, y - 5), ==, state_hex (e->state));
          g_assert_cmphex (pixel (f, x, y + 5), ==, state_hex (e->state));
        }
      /* The other lanes are empty at the middle of the segment (the path
       * is on one thread at a time). */
      for (guint other = 0; other < 3; other++)
        if (other != lane)
          {
            guint32 p = pixel (f, (x0 + x1) / 2, lane_mid (f, other));
            g_assert_true (p == background || p == alternate);
          }
    }
}

static void
test_connectors (Fixture       *f,
                 gconstpointer  data)
{
  const WsTimelinePalette *p = ws_critical_path_renderer_get_palette (f->renderer);
  const WsCriticalPathGeometry *g = ws_critical_path_renderer_get_geometry (f->renderer);
  double lanes_top = g->margin + g->summary_height + g->ruler_height;
  guint32 arrow = hex (&p->arrow);
  guint changes = 0;

  for (guint i = 1; i < G_N_ELEMENTS (expected); i++)
    {
      double x = round (x_of (f, expected[i].start, 0, 1000));
      guint from = lane_of (expected[i - 1].lane), to = lane_of (expected[i].lane);
      /* The border between lanes 0 and 1 (or 1 and 2): between two bars. */
      double border = lanes_top + MAX (from, to) * g->lane_height;

      if (from == to)
        {
          /* No thread change: nothing between the lanes here. */
          if (from > 0)
            g_assert_cmphex (pixel (f, x, lanes_top + from * g->lane_height), !=, arrow);
          g_assert_cmphex (pixel (f, x, lanes_top + (from + 1) * g->lane_height), !=, arrow);
          continue;
        }
      changes++;
      g_assert_cmpuint (MAX (from, to) - MIN (from, to), ==, 1);
      g_assert_cmphex (pixel (f, x, border), ==, arrow);
      g_assert_cmphex (pixel (f, x - 1, border), ==, arrow);
      /* Two pixels wide, not a smear. */
      g_assert_cmphex (pixel (f, x - 5, border + (to > from ? 1 : -1) * 1), !=, arrow);
      g_assert_cmphex (pixel (f, x + 5, border), !=, arrow);
    }
  /* A→B at 100, B→C at 150, C→B at 300, B→A at 400. */
  g_assert_cmpuint (changes, ==, 4);
}

static void
test_hit_testing (Fixture       *f,
                  gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      double x = (x_of (f, expected[i].start, 0, 1000) + x_of (f, expected[i].end, 0, 1000)) / 2;
      guint lane = lane_of (expected[i].lane);

      g_assert_cmpuint (ws_critical_path_renderer_segment_at (f->renderer, WIDTH, x, lane_mid (f, lane)), ==, i);
      /* The same time on a lane the path is not on there: nothing. */
      g_assert_cmpuint (ws_critical_path_renderer_segment_at (f->renderer, WIDTH, x, lane_mid (f, (lane + 1) % 3)),
                        ==, WS_NONE);
    }
  /* In the label column and below the lanes: nothing. */
  g_assert_cmpuint (ws_critical_path_renderer_segment_at (f->renderer, WIDTH, 20, lane_mid (f, 0)), ==, WS_NONE);
  g_assert_cmpuint (ws_critical_path_renderer_segment_at (f->renderer, WIDTH, 500, lane_mid (f, 3)), ==, WS_NONE);
  g_assert_cmpint (ws_critical_path_renderer_x_to_time (f->renderer, WIDTH, x_of (f, 420, 0, 1000)), ==, 420);
}

static void
test_zoom (Fixture       *f,
           gconstpointer  data)
{
  WsTime begin, end;

  /* [290, 330]: C running, B ready [300,310), B running. */
  ws_critical_path_renderer_set_visible (f->renderer, 290, 330);
  draw (f);
  g_assert_cmphex (pixel (f, x_of (f, 295, 290, 330), lane_mid (f, 2)), ==, state_hex (WS_CRITICAL_RUNNING));
  g_assert_cmphex (pixel (f, x_of (f, 305, 290, 330), lane_mid (f, 1)), ==, state_hex (WS_CRITICAL_READY));
  g_assert_cmphex (pixel (f, x_of (f, 320, 290, 330), lane_mid (f, 1)), ==, state_hex (WS_CRITICAL_RUNNING));
  /* B [310, 400) runs to the right edge of the axis and no further. */
  {
    const WsCriticalPathGeometry *g = ws_critical_path_renderer_get_geometry (f->renderer);
    guint32 bg = hex (&ws_critical_path_renderer_get_palette (f->renderer)->background);
    guint32 alt = hex (&ws_critical_path_renderer_get_palette (f->renderer)->row_alternate);
    guint32 p = pixel (f, WIDTH - g->margin / 2, lane_mid (f, 1));

    g_assert_cmphex (pixel (f, WIDTH - g->margin - 2, lane_mid (f, 1)), ==, state_hex (WS_CRITICAL_RUNNING));
    g_assert_true (p == bg || p == alt);
  }

  /* Clamped to the window, at least 10 ns. */
  ws_critical_path_renderer_set_visible (f->renderer, -500, 100);
  ws_critical_path_renderer_get_visible (f->renderer, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 600);
  ws_critical_path_renderer_set_visible (f->renderer, 995, 996);
  ws_critical_path_renderer_get_visible (f->renderer, &begin, &end);
  g_assert_cmpint (begin, ==, 990);
  g_assert_cmpint (end, ==, 1000);
}

static void
test_selection_and_matches (Fixture       *f,
                            gconstpointer  data)
{
  const WsTimelinePalette *p = ws_critical_path_renderer_get_palette (f->renderer);
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  g_autoptr(WsStackSearch) search = ws_stack_search_new (trace, "futex", NULL, NULL);
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (guint));
  double x0 = x_of (f, 420, 0, 1000), x1 = x_of (f, 500, 0, 1000), by, bh;

  /* futex_wait is wA1's waiting stack: A's ready [400,420) is in that
   * wait and B's three segments are on its behalf (C's work is on behalf
   * of wB1). */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (ws_critical_path_segment_matches (f->path, i, search))
      g_array_append_val (matches, i);
  g_assert_cmpuint (matches->len, ==, 4);
  g_assert_cmpuint (g_array_index (matches, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (matches, guint, 1), ==, 3);
  g_assert_cmpuint (g_array_index (matches, guint, 2), ==, 4);
  g_assert_cmpuint (g_array_index (matches, guint, 3), ==, 5);

  ws_critical_path_renderer_set_matches (f->renderer, matches);
  ws_critical_path_renderer_set_selected (f->renderer, 6);   /* A [420,500) */
  g_assert_cmpuint (ws_critical_path_renderer_get_selected (f->renderer), ==, 6);
  draw (f);

  ws_critical_path_renderer_get_bar_extents (f->renderer, 0, &by, &bh);
  /* The selection ring just outside the bar. */
  g_assert_cmphex (pixel (f, (x0 + x1) / 2, by - 2), ==, hex (&p->accent));
  g_assert_cmphex (pixel (f, (x0 + x1) / 2, by + bh + 1), ==, hex (&p->accent));
  /* The halo around B's matching [100,150): not the lane's background. */
  ws_critical_path_renderer_get_bar_extents (f->renderer, 1, &by, &bh);
  g_assert_cmphex (pixel (f, x_of (f, 125, 0, 1000), by - 2), !=, hex (&p->row_alternate));
  g_assert_cmphex (pixel (f, x_of (f, 125, 0, 1000), by - 2), !=, hex (&p->background));
  g_assert_cmphex (pixel (f, x_of (f, 125, 0, 1000), lane_mid (f, 1)), ==, state_hex (WS_CRITICAL_RUNNING));
  /* None around C's [150,300), on behalf of another wait. */
  ws_critical_path_renderer_get_bar_extents (f->renderer, 2, &by, &bh);
  g_assert_cmphex (pixel (f, x_of (f, 225, 0, 1000), by - 2), ==, hex (&p->background));
  /* No halo around A's [600,700) (not a match). */
  ws_critical_path_renderer_get_bar_extents (f->renderer, 0, &by, &bh);
  g_assert_cmphex (pixel (f, x_of (f, 650, 0, 1000), by - 2), ==, hex (&p->background));

  ws_critical_path_renderer_set_selected (f->renderer, 99);
  g_assert_cmpuint (ws_critical_path_renderer_get_selected (f->renderer), ==, WS_NONE);
}

static void
test_summary (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *threads = ws_critical_path_dup_thread_summary (f->path, 10);
  g_autofree char *two = ws_critical_path_dup_thread_summary (f->path, 2);
  g_autofree char *states = ws_critical_path_dup_state_summary (f->path);

  /* A 700, then the 150 ns tie broken by thread index: C (0) before B (1). */
  g_assert_cmpstr (threads, ==, "a · 1 700 ns (70 %), c · 3 150 ns (15 %), b · 2 150 ns (15 %)");
  g_assert_cmpstr (two, ==, "a · 1 700 ns (70 %), c · 3 150 ns (15 %) and 1 more thread");
  g_assert_cmpstr (states, ==, "Running 720 ns (72 %) · Ready, waiting for a CPU 80 ns (8 %) · "
                               "Blocked, interrupt 100 ns (10 %) · Blocked, no wake-up recorded 100 ns (10 %)");
}

/* Issue 13: at 720 px high the legend under the lanes took the rows the
 * chart needed.  The key is the second line on top: the figure ends with
 * the last lane, and each state the path spends time in shows its colour
 * there (as the timeline's), left to right in the states' order. */
static void
test_key_on_top (Fixture       *f,
                 gconstpointer  data)
{
  const WsCriticalPathGeometry *g = ws_critical_path_renderer_get_geometry (f->renderer);
  const WsCriticalState shown[] = { WS_CRITICAL_RUNNING, WS_CRITICAL_READY, WS_CRITICAL_BLOCKED_HARDWARE,
                                    WS_CRITICAL_BLOCKED_UNKNOWN };
  double last = -1;

  /* 1,000 px: one row (shorter words than at 1,200 px, where the states'
   * whole names and times fit). */
  g_assert_cmpfloat (g->summary_height, ==, 40);
  g_assert_cmpfloat (f->height, ==, ceil (g->margin + g->summary_height + g->ruler_height + 3 * g->lane_height + g->margin));
  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      guint32 want = state_hex (shown[i]);
      double found = -1;

      /* In reading order: row by row (the rows' middles), left to right. */
      for (int row = 0; row < 2 && found < 0; row++)
        for (double x = g->margin; x < WIDTH - g->margin && found < 0; x++)
          if (pixel (f, x, g->margin + 20 + row * 20 + 10) == want)
            found = row * WIDTH + x;
      g_test_message ("state %u's swatch at %.0f", shown[i], found);
      g_assert_cmpfloat (found, >, last);
      last = found;
    }
  /* Too narrow even for the names: more rows, no state left out. */
  ws_critical_path_renderer_measure_height (f->renderer, 300);
  g_assert_cmpfloat (g->summary_height, >=, 60);
  ws_critical_path_renderer_measure_height (f->renderer, WIDTH);
  g_assert_cmpfloat (g->summary_height, ==, 40);
}

static void
test_no_data (void)
{
  /* X waits [100,200) readied by Y, first seen at 150: Y [100,150) is
   * no data, grey, on Y's lane. */
  WsTestTrace *tt = ws_test_trace_new ();
  guint X = ws_test_trace_thread (tt, 1, 1, "x");
  guint Y = ws_test_trace_thread (tt, 2, 2, "y");
  guint w;
  WsSymptom s = { X, 0, 250 };
  g_autoptr(WsCriticalPath) path = NULL;
  g_autoptr(WsCriticalPathRenderer) renderer = ws_critical_path_renderer_new ();
  Fixture f = { 0 };

  ws_test_trace_run (tt, X, 0, 100, 0);
  w = ws_test_trace_wait (tt, X, 100, 200, 0);
  ws_test_trace_run (tt, X, 200, 250, 0);
  ws_test_trace_run (tt, Y, 150, 250, 0);
  ws_test_trace_wake (tt, Y, w, 0);
  ws_test_trace_finish (tt);

  path = ws_critical_path_build (ws_test_trace_get_trace (tt), &s, NULL, NULL);
  ws_critical_path_renderer_set_path (renderer, path);
  f.renderer = renderer;
  f.path = path;
  draw (&f);
  g_assert_cmphex (pixel (&f, x_of (&f, 125, 0, 250), lane_mid (&f, 1)), ==, state_hex (WS_CRITICAL_NO_DATA));
  g_assert_cmphex (pixel (&f, x_of (&f, 175, 0, 250), lane_mid (&f, 1)), ==, state_hex (WS_CRITICAL_RUNNING));
  g_assert_cmphex (pixel (&f, x_of (&f, 225, 0, 250), lane_mid (&f, 0)), ==, state_hex (WS_CRITICAL_RUNNING));
  g_clear_pointer (&f.surface, cairo_surface_destroy);
  ws_test_trace_free (tt);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-cp-render-XXXXXX", NULL);
  const char *names[] = { "cp.png", "cp.svg", "cp.pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *out = g_build_filename (dir, names[i], NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      WsExportFormat format;
      gsize len;

      g_assert_true (ws_export_format_from_path (out, &format));
      g_assert_true (ws_critical_path_renderer_export (f->renderer, out, format, 1200, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (out, &contents, &len, NULL));
      g_assert_true (g_str_has_prefix (contents, magic[i]));
      if (format == WS_EXPORT_PNG)
        {
          cairo_surface_t *png = cairo_image_surface_create_from_png (out);
          g_assert_cmpint (cairo_image_surface_get_width (png), ==, 1200);
          g_assert_cmpint (cairo_image_surface_get_height (png), ==,
                           (int) ws_critical_path_renderer_measure_height (f->renderer, 1200));
          cairo_surface_destroy (png);
        }
      g_unlink (out);
    }
  g_rmdir (dir);

  /* A copy to look at. */
  if (g_getenv ("WS_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *out = g_build_filename (g_getenv ("WS_SCREENSHOT_DIR"), "critical-path-render.png", NULL);
      g_autoptr(GError) error = NULL;

      g_mkdir_with_parents (g_getenv ("WS_SCREENSHOT_DIR"), 0755);
      ws_critical_path_renderer_set_selected (f->renderer, 6);
      g_assert_true (ws_critical_path_renderer_export (f->renderer, out, WS_EXPORT_PNG, 1200, &error));
      g_test_message ("figure: %s", out);
    }
}

static void
test_empty (void)
{
  g_autoptr(WsCriticalPathRenderer) renderer = ws_critical_path_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 200, 100);
  cairo_t *cr = cairo_create (surface);

  /* Nothing to draw: the background, no crash, no lanes, no hits. */
  ws_critical_path_renderer_draw (renderer, cr, 200, 100);
  g_assert_cmpuint (ws_critical_path_renderer_get_n_lanes (renderer), ==, 0);
  g_assert_cmpuint (ws_critical_path_renderer_segment_at (renderer, 200, 100, 50), ==, WS_NONE);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) g_test_add ("/critical-path-render/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  g_test_add_func ("/critical-path-render/palette", test_palette_is_the_timelines);
  ADD ("lanes", test_lanes);
  ADD ("segment-pixels", test_segment_pixels);
  ADD ("connectors", test_connectors);
  ADD ("hit-testing", test_hit_testing);
  ADD ("zoom", test_zoom);
  ADD ("selection-and-matches", test_selection_and_matches);
  ADD ("summary", test_summary);
  ADD ("export", test_export);
  ADD ("key-on-top", test_key_on_top);
  g_test_add_func ("/critical-path-render/no-data", test_no_data);
  g_test_add_func ("/critical-path-render/empty", test_empty);
#undef ADD

  return g_test_run ();
}
