/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Draws the timeline into image surfaces and looks at the pixels: run
 * spans solid in the run colour where the viewport mapping puts them,
 * waits dashed (on/off pixels in the wait colour), nothing where a thread
 * did nothing, the readier arrow (and the frame of a lock wait joined from
 * timed-out tries), search bands, the dark palette, and the PNG/SVG/PDF
 * exports.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-error.h"
#include "ws-export.h"
#include "ws-false-run.h"
#include "ws-json-trace.h"
#include "ws-synthetic-trace.h"
#include "ws-test-timeline-trace.h"
#include "ws-timeline-renderer.h"
#include "ws-trace-loader.h"

#define CHART_W 800
#define LABEL_W 220
#define RULER_H 28

typedef struct {
  WsTestTimelineTrace  ids;
  WsTrace             *trace;
  WsTimelineLod       *lod;
  WsTimelineLayout    *layout;
  WsTimelineViewport  *viewport;
  WsTimelineRenderer  *renderer;
  WsTimelinePalette    palette;
  cairo_surface_t     *surface;
  double               height;
} Fixture;

typedef struct {
  guint8 r, g, b;
} Pixel;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->trace = ws_test_timeline_trace_new (&f->ids);
  f->lod = ws_timeline_lod_new (f->trace, NULL, NULL);
  f->layout = ws_timeline_layout_new (f->trace);
  f->viewport = ws_timeline_viewport_new ();
  f->renderer = ws_timeline_renderer_new ();
  ws_timeline_palette_init_light (&f->palette);
  ws_timeline_renderer_set_palette (f->renderer, &f->palette);
  g_assert_cmpfloat (ws_timeline_renderer_get_geometry (f->renderer)->label_width, ==, LABEL_W);
  g_assert_cmpfloat (ws_timeline_renderer_get_geometry (f->renderer)->ruler_height, ==, RULER_H);

  /* 4000 ns over 800 px: 5 ns per pixel. */
  ws_timeline_viewport_set_bounds (f->viewport, 1000, 5000);
  ws_timeline_viewport_set_width (f->viewport, CHART_W);
  f->height = RULER_H + ws_timeline_layout_get_height (f->layout) + 20;
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, LABEL_W + CHART_W, (int) f->height);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cairo_surface_destroy (f->surface);
  g_assert_finalize_object (f->renderer);
  g_assert_finalize_object (f->viewport);
  g_assert_finalize_object (f->layout);
  g_assert_finalize_object (f->lod);
  g_assert_finalize_object (f->trace);
}

static void
draw (Fixture *f)
{
  cairo_t *cr = cairo_create (f->surface);

  ws_timeline_renderer_draw (f->renderer, cr, f->lod, f->layout, f->viewport, 0,
                             LABEL_W + CHART_W, f->height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static Pixel
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 v;
  Pixel p;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  v = *(const guint32 *) (data + y * stride + x * 4);
  /* Opaque everywhere (the background is painted), so no unpremultiply. */
  g_assert_cmpuint (v >> 24, ==, 0xff);
  p.r = (v >> 16) & 0xff;
  p.g = (v >> 8) & 0xff;
  p.b = v & 0xff;
  return p;
}

static Pixel
colour_pixel (const WsColor *c)
{
  Pixel p = { (guint8) lround (c->red * 255), (guint8) lround (c->green * 255), (guint8) lround (c->blue * 255) };
  return p;
}

static Pixel
blend (const WsColor *over,
       Pixel          under)
{
  Pixel p = {
    (guint8) lround (over->red * 255 * over->alpha + under.r * (1 - over->alpha)),
    (guint8) lround (over->green * 255 * over->alpha + under.g * (1 - over->alpha)),
    (guint8) lround (over->blue * 255 * over->alpha + under.b * (1 - over->alpha)),
  };
  return p;
}

static gboolean
pixel_close (Pixel a,
             Pixel b,
             int   tolerance)
{
  return ABS ((int) a.r - b.r) <= tolerance && ABS ((int) a.g - b.g) <= tolerance && ABS ((int) a.b - b.b) <= tolerance;
}

#define assert_pixel(f, x, y, expected)                                          \
  G_STMT_START {                                                                 \
    Pixel _got = pixel_at ((f)->surface, (x), (y));                              \
    Pixel _exp = (expected);                                                     \
    if (!pixel_close (_got, _exp, 1))                                            \
      g_error ("pixel (%d, %d) is #%02x%02x%02x, expected #%02x%02x%02x",        \
               (int) (x), (int) (y), _got.r, _got.g, _got.b, _exp.r, _exp.g, _exp.b); \
  } G_STMT_END

/* Row geometry of the layout: P(A) A P(B) B. */
static double
thread_row_top (Fixture *f,
                guint    thread)
{
  guint row = ws_timeline_layout_find_thread_row (f->layout, thread);
  g_assert_cmpuint (row, !=, WS_NONE);
  return RULER_H + ws_timeline_layout_get_row (f->layout, row)->y;
}

typedef struct {
  WsTime t0, t1;
  WsThreadState state;
} Expect;

/* Checks every column of every expected segment against the viewport's
 * mapping: run columns solid at both the bar and the line height, wait
 * columns on/off in the state's dash period at the line height and empty
 * above it.  Columns cut by a segment edge are checked only when the edge
 * falls on a pixel boundary. */
static void
check_row (Fixture      *f,
           guint         thread,
           const Expect *expect,
           guint         n)
{
  double top = thread_row_top (f, thread), bar_y, bar_h, line_y, line_h;
  int y_bar, y_line;
  Pixel bg, grid;
  guint checked = 0;

  ws_timeline_row_bar_extents (top, 24, &bar_y, &bar_h);
  ws_timeline_row_line_extents (top, 24, &line_y, &line_h);
  y_bar = (int) bar_y + 1;
  y_line = (int) line_y + 1;
  bg = pixel_at (f->surface, 4, (int) top + 2);   /* label column edge: row background */
  grid = blend (&f->palette.grid, bg);

  for (guint i = 0; i < n; i++)
    {
      double x0 = ws_timeline_viewport_time_to_x (f->viewport, expect[i].t0);
      double x1 = ws_timeline_viewport_time_to_x (f->viewport, expect[i].t1);
      int c0 = (int) (x0 == floor (x0) ? x0 : floor (x0) + 1);
      int c1 = (int) floor (x1);
      guint off, on = ws_timeline_state_dash (expect[i].state, &off);
      Pixel colour = colour_pixel (&f->palette.states[expect[i].state]);

      c0 = MAX (c0, 0);
      c1 = MIN (c1, CHART_W);
      if (c1 <= c0)
        continue;   /* outside the view, or thinner than a pixel */
      checked++;
      for (int c = c0; c < c1; c++)
        {
          if (on == 0)
            {
              assert_pixel (f, LABEL_W + c, y_bar, colour);
              assert_pixel (f, LABEL_W + c, y_line, colour);
            }
          else
            {
              /* Empty pixels may carry a ruler grid line. */
              Pixel empty = bg;
              if (pixel_close (pixel_at (f->surface, LABEL_W + c, y_bar), grid, 1))
                empty = grid;
              assert_pixel (f, LABEL_W + c, y_line, (guint) c % (on + off) < on ? colour : empty);
              assert_pixel (f, LABEL_W + c, y_bar, empty);
            }
        }
    }
  g_assert_cmpuint (checked, >=, 3);
}

static const Expect thread_a[] = {
  { 1000, 1600, WS_THREAD_STATE_RUN },
  { 1600, 2600, WS_THREAD_STATE_SLEEP },
  { 2600, 2700, WS_THREAD_STATE_READY },
  { 2700, 3000, WS_THREAD_STATE_RUN },
  { 3000, 3050, WS_THREAD_STATE_READY },
  { 3050, 3200, WS_THREAD_STATE_RUN },
  { 3200, 5000, WS_THREAD_STATE_DISK_UNKNOWN },
};

static void
test_spans_and_dashes (Fixture       *f,
                       gconstpointer  data)
{
  double top_a, top_b;
  Pixel bg_b;
  int sample_col, unwait_col;

  draw (f);
  check_row (f, f->ids.thread_a, thread_a, G_N_ELEMENTS (thread_a));

  /* By hand for this scale: the S wait is columns 120..319, dashes of 6
   * on / 3 off from the time axis' origin: 120 is on (120 % 9 = 3),
   * 123 is off (123 % 9 = 6). */
  top_a = thread_row_top (f, f->ids.thread_a);
  assert_pixel (f, LABEL_W + 120, (int) top_a + 12, colour_pixel (&f->palette.states[WS_THREAD_STATE_SLEEP]));
  g_assert_false (pixel_close (pixel_at (f->surface, LABEL_W + 123, (int) top_a + 12),
                               colour_pixel (&f->palette.states[WS_THREAD_STATE_SLEEP]), 10));
  assert_pixel (f, LABEL_W + 119, (int) top_a + 12, colour_pixel (&f->palette.states[WS_THREAD_STATE_RUN]));

  /* The sample at 3100 ns: column 420, a tick under the bar. */
  sample_col = (int) ws_timeline_viewport_time_to_x (f->viewport, 3100);
  g_assert_cmpint (sample_col, ==, 420);
  assert_pixel (f, LABEL_W + sample_col, (int) top_a + 24 - 3, colour_pixel (&f->palette.marks[WS_MARK_SAMPLE]));

  /* Thread B ran only in [2500, 2700) = columns 300..339 and woke A at
   * column 320; everywhere else its row is empty. */
  top_b = thread_row_top (f, f->ids.thread_b);
  bg_b = pixel_at (f->surface, 4, (int) top_b + 2);
  unwait_col = (int) ws_timeline_viewport_time_to_x (f->viewport, 2600);
  g_assert_cmpint (unwait_col, ==, 320);
  for (int c = 0; c < CHART_W; c++)
    for (int y = (int) top_b + 1; y < (int) top_b + 23; y++)
      {
        Pixel expected = bg_b;
        double bar_y, bar_h;

        ws_timeline_row_bar_extents (top_b, 24, &bar_y, &bar_h);
        if (c >= 300 && c < 340 && y >= bar_y && y < bar_y + bar_h)
          expected = colour_pixel (&f->palette.states[WS_THREAD_STATE_RUN]);
        else if (c == unwait_col && y >= top_b + 1 && y < top_b + 4)
          expected = colour_pixel (&f->palette.marks[WS_MARK_UNWAIT]);
        else if (c % 100 == 0 || c % 100 == 99)
          continue;   /* grid lines of the ruler's ticks */
        assert_pixel (f, LABEL_W + c, y, expected);
      }
}

static void
test_zoom_moves_spans (Fixture       *f,
                       gconstpointer  data)
{
  /* 1 ns per pixel from 2500: the run [2700, 3000) is columns 200..499. */
  ws_timeline_viewport_set_visible (f->viewport, 2500, 3300);
  g_assert_cmpfloat (ws_timeline_viewport_time_to_x (f->viewport, 2700), ==, 200);
  draw (f);
  check_row (f, f->ids.thread_a, thread_a, G_N_ELEMENTS (thread_a));

  /* A scale where edges fall inside pixels: 4000 ns over 800 px shifted
   * by 3 ns and zoomed ×3.7 about x = 333. */
  ws_timeline_viewport_zoom_to_fit (f->viewport);
  ws_timeline_viewport_pan (f->viewport, 0.6);
  ws_timeline_viewport_zoom (f->viewport, 3.7, 333);
  draw (f);
  check_row (f, f->ids.thread_a, thread_a, G_N_ELEMENTS (thread_a));
}

static guint
count_colour (Fixture       *f,
              const WsColor *colour,
              int            x0,
              int            y0,
              int            x1,
              int            y1)
{
  Pixel want = colour_pixel (colour);
  guint n = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, (int) f->height); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, LABEL_W + CHART_W); x++)
      if (pixel_close (pixel_at (f->surface, x, y), want, 30))
        n++;
  return n;
}

static void
test_readier_arrow (Fixture       *f,
                    gconstpointer  data)
{
  double top_a = thread_row_top (f, f->ids.thread_a);
  double top_b = thread_row_top (f, f->ids.thread_b);
  int x = LABEL_W + 320;

  draw (f);
  g_assert_cmpuint (count_colour (f, &f->palette.arrow, x - 6, top_a + 20, x + 30, top_b + 4), ==, 0);

  /* Selecting A's S wait draws the arrow from B's unwait (2600 ns, B's
   * row) up to the end of the wait in A's row. */
  ws_timeline_viewport_set_selected_event (f->viewport, f->ids.wait_s);
  draw (f);
  g_assert_cmpuint (count_colour (f, &f->palette.arrow, x - 6, top_a + 20, x + 30, top_b + 4), >, 20);
  /* The dot on the unwait itself. */
  assert_pixel (f, x, (int) top_b + 12, colour_pixel (&f->palette.arrow));
  /* The selection outline around the wait in the accent colour. */
  g_assert_cmpuint (count_colour (f, &f->palette.accent, LABEL_W + 110, top_a, LABEL_W + 340, top_a + 24), >, 100);
}

/* app tries a lock from 1 ms; the timer ends the try at 5 ms, app checks
 * for 0.1 ms and tries again until holder's release at 10 ms. */
static const char joined_trace[] =
  "{\"format\":\"waitscope-trace\",\"version\":1,\"name\":\"hand\","
  "\"threads\":[{\"tid\":0,\"name\":\"swapper\"},{\"tid\":1,\"name\":\"app\"},{\"tid\":2,\"name\":\"holder\"}],"
  "\"events\":["
  "{\"kind\":\"running\",\"t\":0,\"dur\":1000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]},"
  "{\"kind\":\"wait\",\"t\":1000000,\"dur\":4000000,\"tid\":1,\"state\":\"S\",\"peer\":2,"
  "\"stack\":[\"main (app)\",\"pthread_mutex_timedlock (libc.so.6)\",\"futex_wait ([kernel.kallsyms])\"]},"
  "{\"kind\":\"hw-service\",\"t\":5000000,\"tid\":0,\"target\":1,\"peer\":1,"
  "\"stack\":[\"hrtimer_interrupt ([kernel.kallsyms])\",\"hrtimer_wakeup ([kernel.kallsyms])\"]},"
  "{\"kind\":\"running\",\"t\":5000000,\"dur\":100000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]},"
  "{\"kind\":\"wait\",\"t\":5100000,\"dur\":4900000,\"tid\":1,\"state\":\"S\",\"peer\":5,"
  "\"stack\":[\"main (app)\",\"pthread_mutex_timedlock (libc.so.6)\",\"futex_wait ([kernel.kallsyms])\"]},"
  "{\"kind\":\"unwait\",\"t\":10000000,\"tid\":2,\"target\":1,\"peer\":4,"
  "\"stack\":[\"holder_main (app)\",\"futex_wake ([kernel.kallsyms])\"]},"
  "{\"kind\":\"running\",\"t\":0,\"dur\":10000000,\"tid\":2,\"flags\":[\"span\"],\"stack\":[\"holder_main (app)\"]},"
  "{\"kind\":\"running\",\"t\":10000000,\"dur\":2000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]}"
  "]}";

/* Selecting the first, timed-out try frames the whole joined wait (up to
 * 10 ms, over the second try) and draws the arrow from holder's release at
 * 10 ms, labelled with the whole wait; nothing at the first try's end. */
static void
test_joined_wait (void)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (joined_trace, -1, NULL);
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_json_trace_load_stream (in, "hand.json", stacks, NULL, NULL, NULL, &error);
  g_autofree char *said = NULL;
  Fixture f = { 0 };
  double top_app, top_holder, bar_y, bar_h;
  const WsTimelineRow *row;
  guint first_try = WS_NONE;

  g_assert_no_error (error);
  f.trace = g_object_ref (trace);
  f.lod = ws_timeline_lod_new (trace, NULL, NULL);
  f.layout = ws_timeline_layout_new (trace);
  f.viewport = ws_timeline_viewport_new ();
  f.renderer = ws_timeline_renderer_new ();
  ws_timeline_palette_init_light (&f.palette);
  ws_timeline_renderer_set_palette (f.renderer, &f.palette);
  /* 12 ms over 800 px: 15 µs per pixel. */
  ws_timeline_viewport_set_bounds (f.viewport, 0, 12000000);
  ws_timeline_viewport_set_width (f.viewport, CHART_W);
  f.height = RULER_H + ws_timeline_layout_get_height (f.layout) + 20;
  f.surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, LABEL_W + CHART_W, (int) f.height);
  top_app = thread_row_top (&f, ws_trace_find_thread (trace, 1));
  top_holder = thread_row_top (&f, ws_trace_find_thread (trace, 2));

  for (guint i = 0; i < ws_trace_get_n_events (trace) && first_try == WS_NONE; i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      first_try = i;
  g_assert_cmpint (ws_trace_get_event (trace, first_try)->time, ==, 1000000);
  said = ws_false_runs_describe (trace, NULL, first_try);
  g_assert_nonnull (said);
  g_assert_nonnull (strstr (said, "2 tries"));
  g_assert_nonnull (strstr (said, "woken by holder (2)"));

  ws_timeline_viewport_set_selected_event (f.viewport, first_try);
  draw (&f);
  /* The frame's top edge over the second try (5.1-10 ms: columns
   * 340-666), just above the bar. */
  row = ws_timeline_layout_get_row (f.layout, ws_timeline_layout_find_thread_row (f.layout, ws_trace_find_thread (trace, 1)));
  ws_timeline_row_bar_extents (top_app + row->lane, row->height - row->lane, &bar_y, &bar_h);
  if (g_getenv ("WS_TEST_PNG") != NULL)
    cairo_surface_write_to_png (f.surface, g_getenv ("WS_TEST_PNG"));
  if (g_getenv ("WS_TEST_PNG") != NULL)
    cairo_surface_write_to_png (f.surface, g_getenv ("WS_TEST_PNG"));
  g_assert_cmpuint (count_colour (&f, &f.palette.accent, LABEL_W + 400, (int) bar_y - 4, LABEL_W + 640, (int) bar_y), >, 100);
  /* The arrow, between the rows at the joined wait's end (column 666). */
  g_assert_cmpuint (count_colour (&f, &f.palette.arrow, LABEL_W + 660, MIN (top_app, top_holder) + 12,
                                  LABEL_W + 700, MAX (top_app, top_holder) + 12), >, 20);

  cairo_surface_destroy (f.surface);
  g_assert_finalize_object (f.renderer);
  g_assert_finalize_object (f.viewport);
  g_assert_finalize_object (f.layout);
  g_assert_finalize_object (f.lod);
  g_object_unref (f.trace);
}

static void
test_search_band (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(WsStackSearch) search = ws_stack_search_new (f->trace, "futex_wait", NULL, NULL);
  double top_a = thread_row_top (f, f->ids.thread_a);
  double bar_y, bar_h;
  Pixel bg;

  ws_timeline_row_bar_extents (top_a, 24, &bar_y, &bar_h);
  draw (f);
  bg = pixel_at (f->surface, LABEL_W + 201, (int) bar_y + 1);

  /* Above the S wait's dashes (empty before) now the search colour; the
   * run before it is not highlighted. */
  ws_timeline_renderer_set_search (f->renderer, search);
  draw (f);
  for (int c = 121; c < 319; c += 7)
    assert_pixel (f, LABEL_W + c, (int) bar_y + 1, blend (&f->palette.search_match, bg));
  assert_pixel (f, LABEL_W + 60, (int) bar_y + 1, colour_pixel (&f->palette.states[WS_THREAD_STATE_RUN]));
  assert_pixel (f, LABEL_W + 60, (int) top_a + 1, bg);
  ws_timeline_renderer_set_search (f->renderer, NULL);
}

static void
test_selection_and_text (Fixture       *f,
                         gconstpointer  data)
{
  double top_a = thread_row_top (f, f->ids.thread_a);
  const WsColor *bg = &f->palette.background;
  Pixel before, after;
  guint ink;

  draw (f);
  before = pixel_at (f->surface, LABEL_W + 150, (int) top_a + 2);

  /* Labels and ruler text: plenty of non-background pixels. */
  ink = LABEL_W * RULER_H - count_colour (f, &f->palette.header_background, 0, 0, LABEL_W, RULER_H);
  g_assert_cmpuint (ink, >, 30);
  ink = 200 * 24 - count_colour (f, bg, 20, top_a, 220, top_a + 24) -
        count_colour (f, &f->palette.row_alternate, 20, top_a, 220, top_a + 24);
  g_assert_cmpuint (ink, >, 40);

  /* A selected window of A over [1500, 2000) ns: columns 100..199 tinted. */
  ws_timeline_viewport_set_selection (f->viewport, f->ids.thread_a, 1500, 2000);
  draw (f);
  after = pixel_at (f->surface, LABEL_W + 150, (int) top_a + 2);
  g_assert_false (pixel_close (before, after, 3));
  g_assert_true (after.b > after.r);   /* blue tint */
  assert_pixel (f, LABEL_W + 250, (int) top_a + 2, before);
}

static void
test_dark_palette (Fixture       *f,
                   gconstpointer  data)
{
  WsTimelinePalette dark;
  double top_b = thread_row_top (f, f->ids.thread_b);
  Pixel row_bg;

  ws_timeline_palette_init_dark (&dark);
  ws_timeline_renderer_set_palette (f->renderer, &dark);
  draw (f);
  row_bg = pixel_at (f->surface, LABEL_W + 101, (int) top_b + 12);
  g_assert_true (pixel_close (row_bg, colour_pixel (&dark.background), 0) ||
                 pixel_close (row_bg, colour_pixel (&dark.row_alternate), 0));
  g_assert_cmpint (row_bg.r, <, 0x40);
  assert_pixel (f, LABEL_W + 310, (int) top_b + 12, colour_pixel (&dark.states[WS_THREAD_STATE_RUN]));
}

/* What is drawn at a zoomed-out scale from the levels of detail agrees
 * with a brute-force dominant state per pixel column computed from the
 * exact segments, for at least 92 % of the columns (measured: 95 %; the
 * buckets' shares are quantised to 1/255 and straddling buckets are split
 * linearly, so near-ties can flip). */
static void
test_lod_agrees_with_exact (void)
{
  g_autoptr(WsTrace) trace = ws_synthetic_trace_new (1, 3, 60000, 5);
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, NULL);
  g_autoptr(WsTimelineLayout) layout = ws_timeline_layout_new (trace);
  g_autoptr(WsTimelineViewport) vp = ws_timeline_viewport_new ();
  g_autoptr(WsTimelineRenderer) renderer = ws_timeline_renderer_new ();
  WsTimelinePalette palette;
  double height = RULER_H + ws_timeline_layout_get_height (layout);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, LABEL_W + CHART_W, (int) height);
  cairo_t *cr = cairo_create (surface);
  guint agree = 0, total = 0;

  ws_timeline_palette_init_light (&palette);
  ws_timeline_viewport_set_bounds (vp, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_width (vp, CHART_W);
  /* A mid zoom: still hundreds of events per pixel. */
  ws_timeline_viewport_zoom (vp, 4, 0);
  g_assert_cmpfloat (ws_timeline_viewport_get_ns_per_px (vp), >, 50000);
  ws_timeline_renderer_draw (renderer, cr, lod, layout, vp, 0, LABEL_W + CHART_W, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      guint row = ws_timeline_layout_find_thread_row (layout, t);
      double top = RULER_H + ws_timeline_layout_get_row (layout, row)->y, line_y, line_h;
      guint n0;
      const WsStateSegment *exact = ws_timeline_lod_get_level (lod, t, 0, NULL, &n0);
      guint k = 0;

      ws_timeline_row_line_extents (top, 24, &line_y, &line_h);
      for (int c = 0; c < CHART_W; c++)
        {
          WsTime c0 = ws_timeline_viewport_x_to_time (vp, c), c1 = ws_timeline_viewport_x_to_time (vp, c + 1);
          double cover[WS_N_THREAD_STATES] = { 0 };
          int best = -1;
          double best_cover = 0;
          guint off, on;
          Pixel got;
          const guint8 *data = cairo_image_surface_get_data (surface);
          guint32 v = *(const guint32 *) (data + (int) (line_y + 1) * cairo_image_surface_get_stride (surface) + (LABEL_W + c) * 4);

          while (k < n0 && exact[k].t1 <= c0)
            k++;
          for (guint i = k; i < n0 && exact[i].t0 < c1; i++)
            cover[exact[i].state] += MIN (exact[i].t1, c1) - MAX (exact[i].t0, c0);
          for (int s = 0; s < WS_N_THREAD_STATES; s++)
            if (cover[s] > best_cover)
              best = s, best_cover = cover[s];
          if (best < 0)
            continue;
          on = ws_timeline_state_dash (best, &off);
          if (on != 0 && (guint) c % (on + off) >= on)
            continue;   /* an "off" pixel of the expected dash says nothing */
          got.r = (v >> 16) & 0xff;
          got.g = (v >> 8) & 0xff;
          got.b = v & 0xff;
          total++;
          if (pixel_close (got, colour_pixel (&palette.states[best]), 1))
            agree++;
        }
    }
  cairo_surface_destroy (surface);
  g_test_message ("%u of %u columns agree", agree, total);
  g_assert_cmpuint (total, >, 1000);
  g_assert_cmpuint (agree * 100, >=, total * 92);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "timeline.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "timeline.PDF", NULL);
  g_autofree char *bad = g_build_filename (dir, "missing", "timeline.png", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  WsExportFormat format;
  cairo_surface_t *image;
  double legend_h;
  gsize len;

  g_assert_true (ws_export_format_from_path (png, &format));
  g_assert_cmpint (format, ==, WS_EXPORT_PNG);
  g_assert_true (ws_export_format_from_path (svg, &format));
  g_assert_cmpint (format, ==, WS_EXPORT_SVG);
  g_assert_true (ws_export_format_from_path (pdf, &format));
  g_assert_cmpint (format, ==, WS_EXPORT_PDF);
  g_assert_false (ws_export_format_from_path ("timeline.jpeg", &format));

  /* The export has its own width: the screen's viewport is untouched. */
  g_assert_true (ws_export_timeline (png, WS_EXPORT_PNG, f->renderer, f->lod, f->layout,
                                     f->viewport, 1020, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (ws_timeline_viewport_get_width (f->viewport), ==, CHART_W);

  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1020);
  legend_h = ws_timeline_renderer_measure_legend (f->renderer, 1020 - 24);
  g_assert_cmpfloat (legend_h, >, 10);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==,
                   (int) (RULER_H + ws_timeline_layout_get_height (f->layout) + legend_h + 24));
  {
    /* Same pixels as the screen rendering at the same width. */
    cairo_surface_t *screen = f->surface;
    double top_a = thread_row_top (f, f->ids.thread_a);
    f->surface = image;
    assert_pixel (f, LABEL_W + 60, (int) top_a + 12, colour_pixel (&f->palette.states[WS_THREAD_STATE_RUN]));
    assert_pixel (f, LABEL_W + 120, (int) top_a + 12, colour_pixel (&f->palette.states[WS_THREAD_STATE_SLEEP]));
    f->surface = screen;
  }
  cairo_surface_destroy (image);

  g_assert_true (ws_export_timeline (svg, WS_EXPORT_SVG, f->renderer, f->lod, f->layout,
                                     f->viewport, 1020, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &contents, &len, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "width=\"1020"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (ws_export_timeline (pdf, WS_EXPORT_PDF, f->renderer, f->lod, f->layout,
                                     f->viewport, 1020, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf, &contents, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));

  /* A file that cannot be written: an error naming it, not a crash. */
  g_assert_false (ws_export_timeline (bad, WS_EXPORT_PNG, f->renderer, f->lod, f->layout,
                                      f->viewport, 1020, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, bad));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* A row's label keeps its whole id: a long name is cut, never the pid or
 * tid after it ("pylk-main 1…83" had lost the pid), at the default label
 * width and a narrow one. */
static void
test_labels_keep_ids (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsTimelineLayout) layout = NULL;
  g_autoptr(WsTimelineRenderer) renderer = ws_timeline_renderer_new ();
  const double widths[] = { 220, 150 };
  guint n_cut = 0;

  g_assert_no_error (error);
  layout = ws_timeline_layout_new (trace);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      ws_timeline_renderer_set_label_width (renderer, widths[w]);
      for (guint r = 0; r < ws_timeline_layout_get_n_rows (layout); r++)
        {
          const WsTimelineRow *row = ws_timeline_layout_get_row (layout, r);
          g_autofree char *id = NULL;
          g_autofree char *text = NULL;
          gboolean ellipsized;
          int px;

          if (row->kind == WS_TIMELINE_ROW_PROCESS)
            {
              const WsProcess *p = ws_trace_get_process (trace, row->index);
              if (p->pid <= 0)
                continue;
              id = g_strdup_printf ("%d", p->pid);
            }
          else if (row->kind == WS_TIMELINE_ROW_THREAD)
            id = g_strdup_printf ("%d", ws_trace_get_thread (trace, row->index)->tid);
          else
            continue;
          text = ws_timeline_renderer_dup_row_label (renderer, trace, row, &ellipsized, &px);
          if (strstr (text, "…") != NULL)
            n_cut++;
          if (strstr (text, id) == NULL || ellipsized || px > widths[w])
            g_error ("label “%s” (%d px of %.0f) lost its id %s%s", text, px, widths[w], id,
                     ellipsized ? " (ellipsized)" : "");
        }
    }
  /* the narrow column did cut names */
  g_assert_cmpuint (n_cut, >, 0);
}

/* waitscope-cli export-timeline draws the same figure from the shell. */
static void
test_cli_export (void)
{
  const char *cli = g_getenv ("WS_CLI");
  g_autofree char *trace_path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "py-locks.png", NULL);
  g_autofree char *jpg = g_build_filename (dir, "py-locks.jpg", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTimelineLayout) layout = NULL;
  g_autoptr(WsTimelineRenderer) renderer = ws_timeline_renderer_new ();
  WsTimelinePalette palette;
  g_auto(WsCliRun) cli_run = { 0 };
  cairo_surface_t *image;
  const guint8 *data;
  guint run = 0;

  if (cli == NULL)
    {
      g_test_skip ("WS_CLI not set");
      return;
    }

  {
    const char *args[] = { "export-timeline", trace_path, "-o", png, "--tid", "11587",
                           "--from", "1987.6", "--to", "+300ms", "--width", "1400", NULL };
    ws_cli_run_argv (&cli_run, NULL, args);
    if (cli_run.status != 0)
      g_error ("export-timeline failed: %s", cli_run.err);
  }

  /* As tall as every row plus ruler, legend and margins. */
  trace = ws_trace_loader_load (trace_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  layout = ws_timeline_layout_new (trace);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1400);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==,
                   (int) (RULER_H + ws_timeline_layout_get_height (layout) +
                          ws_timeline_renderer_measure_legend (renderer, 1400 - 24) + 24));

  /* 300 ms of six workers taking turns: plenty of run-coloured pixels. */
  ws_timeline_palette_init_light (&palette);
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  for (int y = 0; y < cairo_image_surface_get_height (image); y++)
    for (int x = LABEL_W; x < 1400; x++)
      {
        guint32 v = *(const guint32 *) (data + y * cairo_image_surface_get_stride (image) + x * 4);
        Pixel p = { (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
        if (pixel_close (p, colour_pixel (&palette.states[WS_THREAD_STATE_RUN]), 1))
          run++;
      }
  cairo_surface_destroy (image);
  g_assert_cmpuint (run, >, 2000);

  /* A name Cairo cannot write is a usage error (exit status 2). */
  {
    const char *args[] = { "export-timeline", trace_path, "-o", jpg, NULL };
    ws_cli_run_clear (&cli_run);
    ws_cli_run_argv (&cli_run, NULL, args);
    g_assert_cmpint (cli_run.status, ==, 2);
    g_assert_nonnull (strstr (cli_run.err, ".jpg"));
  }

  g_unlink (png);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/timeline/render/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("spans-and-dashes", test_spans_and_dashes);
  ADD ("zoom-moves-spans", test_zoom_moves_spans);
  ADD ("readier-arrow", test_readier_arrow);
  ADD ("search-band", test_search_band);
  ADD ("selection-and-text", test_selection_and_text);
  ADD ("dark-palette", test_dark_palette);
  ADD ("export", test_export);
#undef ADD
  g_test_add_func ("/timeline/render/lod-agrees-with-exact", test_lod_agrees_with_exact);
  g_test_add_func ("/timeline/render/cli-export", test_cli_export);
  g_test_add_func ("/timeline/render/joined-wait", test_joined_wait);
  g_test_add_func ("/timeline/render/labels-keep-ids", test_labels_keep_ids);

  return g_test_run ();
}
