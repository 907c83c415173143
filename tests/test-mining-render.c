/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining panel's two drawings on hand-made data, checked pixel by
 * pixel in image surfaces:
 *
 *  - the alignment of a cluster: the star alignment of three patterns
 *    worked out by hand (rows, kinds, segment names M1/S1/ID1), the same
 *    grid from the similarity model's own alignments, then the
 *    common band, variant cells, gaps, the selection ring and marks at the
 *    cells the renderer says it drew them;
 *  - the events of a pattern (ws_stack_search_new_from_stacks()): matched
 *    per stack as decided, not per frame as a regular expression would;
 *  - the coverage plot: four staircases at the device points the plot maps
 *    them to, the plot background between them, the target line, the
 *    legend order, and the description for screen readers.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ws-alignment-renderer.h"
#include "ws-coverage-plot.h"
#include "ws-stack-search.h"
#include "ws-test-timeline-trace.h"

/* ------------------------------------------------------------------ */
/* Pixels                                                               */

typedef struct {
  cairo_surface_t *surface;
  cairo_t         *cr;
} Canvas;

static void
canvas_init (Canvas *c,
             int     width,
             int     height)
{
  c->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  c->cr = cairo_create (c->surface);
}

static void
canvas_clear (Canvas *c)
{
  cairo_destroy (c->cr);
  cairo_surface_destroy (c->surface);
}

static void
pixel (Canvas *c,
       double  x,
       double  y,
       int    *r,
       int    *g,
       int    *b)
{
  const guchar *data;
  int stride, ix = (int) floor (x), iy = (int) floor (y);
  guint32 v;

  cairo_surface_flush (c->surface);
  data = cairo_image_surface_get_data (c->surface);
  stride = cairo_image_surface_get_stride (c->surface);
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (c->surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (c->surface));
  v = *(const guint32 *) (data + (gsize) iy * stride + ix * 4);
  *r = (v >> 16) & 0xff;
  *g = (v >> 8) & 0xff;
  *b = v & 0xff;
}

static gboolean
pixel_is (Canvas        *c,
          double         x,
          double         y,
          const WsColor *color)
{
  int r, g, b;

  pixel (c, x, y, &r, &g, &b);
  return ABS (r - (int) round (color->red * 255)) <= 2 &&
         ABS (g - (int) round (color->green * 255)) <= 2 &&
         ABS (b - (int) round (color->blue * 255)) <= 2;
}

#define assert_pixel(c, x, y, color) \
  G_STMT_START { \
    if (!pixel_is ((c), (x), (y), (color))) \
      { \
        int r_, g_, b_; \
        pixel ((c), (x), (y), &r_, &g_, &b_); \
        g_error ("pixel (%.1f, %.1f) is #%02x%02x%02x, expected " #color " #%02x%02x%02x", \
                 (double) (x), (double) (y), r_, g_, b_, \
                 (int) round ((color)->red * 255), (int) round ((color)->green * 255), \
                 (int) round ((color)->blue * 255)); \
      } \
  } G_STMT_END

static void
save_png (Canvas     *c,
          const char *name)
{
  const char *dir = g_getenv ("WS_SCREENSHOT_DIR");

  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_mkdir_with_parents (dir, 0755);
      cairo_surface_write_to_png (c->surface, path);
      g_test_message ("wrote %s", path);
    }
}

/* ------------------------------------------------------------------ */
/* The alignment                                                        */

/*
 * Three patterns of one cluster, caller first:
 *
 *   P0 (centre)  main  run  lock_acquire  futex_wait
 *   P1           main  run  lock_acquire_slow  futex_wait
 *   P2           main  start  run  lock_acquire  spin  futex_wait
 *
 * P1 against P0: M M S M.  P2 against P0: main=main, start inserted,
 * run=run, lock_acquire=lock_acquire, spin inserted, futex_wait=futex_wait.
 * Star alignment (rows):
 *
 *   0  main                    common           M1
 *   1  -      -      start     insertion        ID1
 *   2  run                     common           M2
 *   3  lock_acquire | lock_acquire_slow | lock_acquire
 *                              substitution     S1
 *   4  -      -      spin      insertion        ID2
 *   5  futex_wait              common           M3
 */
typedef struct {
  WsStackTable *table;
  WsFrameId main, run, lock, lock_slow, futex, start, spin;
  WsAlignmentGrid *grid;
} Cluster;

static void
cluster_init (Cluster *c)
{
  c->table = ws_stack_table_new ();
  c->main = ws_stack_table_intern_frame (c->table, "main", "/usr/bin/app");
  c->run = ws_stack_table_intern_frame (c->table, "run", "/usr/bin/app");
  c->lock = ws_stack_table_intern_frame (c->table, "lock_acquire", "/usr/lib/libapp.so");
  c->lock_slow = ws_stack_table_intern_frame (c->table, "lock_acquire_slow", "/usr/lib/libapp.so");
  c->futex = ws_stack_table_intern_frame (c->table, "futex_wait", "[kernel.kallsyms]");
  c->start = ws_stack_table_intern_frame (c->table, "start", "/usr/bin/app");
  c->spin = ws_stack_table_intern_frame (c->table, "spin", "/usr/lib/libapp.so");

  {
    const WsFrameId p0[] = { c->main, c->run, c->lock, c->futex };
    const WsFrameId p1[] = { c->main, c->run, c->lock_slow, c->futex };
    const WsFrameId p2[] = { c->main, c->start, c->run, c->lock, c->spin, c->futex };
    const gint32 a1[] = { 0, 1, 2, 3 };
    const gint32 a2[] = { 0, -1, 1, 2, -1, 3 };
    const WsFrameId *patterns[] = { p0, p1, p2 };
    const guint lengths[] = { 4, 4, 6 };
    const gint32 *center_of[] = { NULL, a1, a2 };

    c->grid = ws_alignment_grid_new_star (c->table, patterns, lengths, 3, 0, center_of);
  }
  ws_alignment_grid_set_title (c->grid, 0, "#1 · 4.2 s", "3 traces · 120 events");
  ws_alignment_grid_set_title (c->grid, 1, "#2 · 1.1 s", NULL);
  ws_alignment_grid_set_title (c->grid, 2, "#3 · 0.5 s", NULL);
}

static void
cluster_clear (Cluster *c)
{
  ws_alignment_grid_unref (c->grid);
  g_object_unref (c->table);
}

static void
test_alignment_star (void)
{
  Cluster c;
  static const WsAlignmentRowKind kinds[] = {
    WS_ALIGNMENT_ROW_COMMON, WS_ALIGNMENT_ROW_INDEL, WS_ALIGNMENT_ROW_COMMON,
    WS_ALIGNMENT_ROW_SUBSTITUTION, WS_ALIGNMENT_ROW_INDEL, WS_ALIGNMENT_ROW_COMMON,
  };
  static const guint segment_index[] = { 1, 1, 2, 1, 2, 3 };
  g_autofree char *text = NULL;

  cluster_init (&c);
  g_assert_cmpuint (ws_alignment_grid_get_n_patterns (c.grid), ==, 3);
  g_assert_cmpuint (ws_alignment_grid_get_n_rows (c.grid), ==, 6);
  for (guint r = 0; r < 6; r++)
    {
      guint index;

      g_assert_cmpint (ws_alignment_grid_get_row_kind (c.grid, r), ==, kinds[r]);
      g_assert_cmpuint (ws_alignment_grid_get_segment (c.grid, r, &index), ==, r);
      g_assert_cmpuint (index, ==, segment_index[r]);
    }
  g_assert_cmpuint (ws_alignment_grid_count_rows (c.grid, WS_ALIGNMENT_ROW_COMMON), ==, 3);

  g_assert_cmpuint (ws_alignment_grid_get_cell (c.grid, 1, 0)->frame, ==, WS_ALIGNMENT_GAP);
  g_assert_null (ws_alignment_grid_get_cell (c.grid, 1, 1)->function);
  g_assert_cmpuint (ws_alignment_grid_get_cell (c.grid, 1, 2)->frame, ==, c.start);
  g_assert_cmpstr (ws_alignment_grid_get_cell (c.grid, 3, 1)->function, ==, "lock_acquire_slow");
  g_assert_cmpuint (ws_alignment_grid_get_cell (c.grid, 4, 2)->frame, ==, c.spin);
  g_assert_cmpuint (ws_alignment_grid_get_cell (c.grid, 5, 1)->frame, ==, c.futex);
  g_assert_cmpstr (ws_alignment_grid_get_cell (c.grid, 5, 1)->module, ==, "[kernel.kallsyms]");

  text = ws_alignment_grid_describe (c.grid);
  g_assert_cmpstr (text, ==, "3 patterns aligned in 6 positions; 3 common frames: main → run → futex_wait.");
  cluster_clear (&c);
}

/* The same cluster aligned by the similarity model itself (no history:
 * every weight 1): lock_acquire / lock_acquire_slow share 3 of 3 + 4 name
 * words (libapp, lock, acquire), Sub = 1 - 6/7, cheaper than a deletion
 * plus an insertion, so they face each other; "start" and "spin" have no
 * cheaper partner and are insertions.  The grid must be the hand-made one. */
static void
test_alignment_aligned (void)
{
  Cluster c;
  g_autoptr(WsSimilarity) similarity = NULL;
  g_autoptr(WsAlignmentGrid) grid = NULL;

  cluster_init (&c);
  similarity = ws_similarity_new (c.table);
  {
    const WsFrameId p0[] = { c.main, c.run, c.lock, c.futex };
    const WsFrameId p1[] = { c.main, c.run, c.lock_slow, c.futex };
    const WsFrameId p2[] = { c.main, c.start, c.run, c.lock, c.spin, c.futex };
    const WsFrameId *patterns[] = { p0, p1, p2 };
    const guint lengths[] = { 4, 4, 6 };

    grid = ws_alignment_grid_new_aligned (similarity, patterns, lengths, 3);
  }
  g_assert_cmpuint (ws_alignment_grid_get_n_rows (grid), ==, ws_alignment_grid_get_n_rows (c.grid));
  for (guint r = 0; r < ws_alignment_grid_get_n_rows (grid); r++)
    {
      g_assert_cmpint (ws_alignment_grid_get_row_kind (grid, r), ==, ws_alignment_grid_get_row_kind (c.grid, r));
      for (guint p = 0; p < 3; p++)
        g_assert_cmpuint (ws_alignment_grid_get_cell (grid, r, p)->frame, ==,
                          ws_alignment_grid_get_cell (c.grid, r, p)->frame);
    }
  cluster_clear (&c);
}

/* Two insertions of different patterns in one slot share rows; a pattern
 * that deletes a centre frame leaves a gap there. */
static void
test_alignment_star_shared_slot (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  WsFrameId a = ws_stack_table_intern_frame (table, "a", NULL);
  WsFrameId b = ws_stack_table_intern_frame (table, "b", NULL);
  WsFrameId x = ws_stack_table_intern_frame (table, "x", NULL);
  WsFrameId y = ws_stack_table_intern_frame (table, "y", NULL);
  WsFrameId z = ws_stack_table_intern_frame (table, "z", NULL);
  const WsFrameId p0[] = { a, b };
  const WsFrameId p1[] = { a, x, y, b };   /* x y inserted after a */
  const WsFrameId p2[] = { z, a };         /* z inserted before a, b deleted */
  const gint32 a1[] = { 0, -1, -1, 1 };
  const gint32 a2[] = { -1, 0 };
  const WsFrameId *patterns[] = { p0, p1, p2 };
  const guint lengths[] = { 2, 4, 2 };
  const gint32 *center_of[] = { NULL, a1, a2 };
  g_autoptr(WsAlignmentGrid) grid = ws_alignment_grid_new_star (table, patterns, lengths, 3, 0, center_of);

  /* z | a | x | y | b(gap in p2) */
  g_assert_cmpuint (ws_alignment_grid_get_n_rows (grid), ==, 5);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 0, 2)->frame, ==, z);
  g_assert_cmpint (ws_alignment_grid_get_row_kind (grid, 0), ==, WS_ALIGNMENT_ROW_INDEL);
  g_assert_cmpint (ws_alignment_grid_get_row_kind (grid, 1), ==, WS_ALIGNMENT_ROW_COMMON);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 2, 1)->frame, ==, x);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 3, 1)->frame, ==, y);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 2, 2)->frame, ==, WS_ALIGNMENT_GAP);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 4, 0)->frame, ==, b);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 4, 1)->frame, ==, b);
  g_assert_cmpuint (ws_alignment_grid_get_cell (grid, 4, 2)->frame, ==, WS_ALIGNMENT_GAP);
  g_assert_cmpint (ws_alignment_grid_get_row_kind (grid, 4), ==, WS_ALIGNMENT_ROW_INDEL);
}

static void
test_alignment_pixels (void)
{
  Cluster c;
  g_autoptr(WsAlignmentRenderer) renderer = ws_alignment_renderer_new ();
  const WsAlignmentPalette *pal = ws_alignment_renderer_get_palette (renderer);
  WsAlignmentState state;
  WsAlignmentRect cell, cell2;
  Canvas canvas;
  double width, height, cw;
  guint8 marked[6] = { 0, 0, 0, 0, 0, 1 };
  guint row, pattern;

  cluster_init (&c);
  cw = ws_alignment_renderer_get_column_width (renderer, c.grid);
  g_assert_cmpfloat (cw, >=, WS_ALIGNMENT_MIN_COLUMN);
  g_assert_cmpfloat (cw, <=, WS_ALIGNMENT_MAX_COLUMN);
  ws_alignment_renderer_measure (renderer, c.grid, NULL, &width, &height);
  g_assert_cmpfloat (width, ==, WS_ALIGNMENT_GUTTER_WIDTH + 3 * (cw + WS_ALIGNMENT_COLUMN_GAP));
  g_assert_cmpfloat (height, ==, WS_ALIGNMENT_HEADER_HEIGHT + 6 * WS_ALIGNMENT_ROW_HEIGHT + WS_ALIGNMENT_COLUMN_GAP);

  ws_alignment_state_init (&state);
  state.selected_pattern = 1;
  state.marked = marked;

  canvas_init (&canvas, (int) ceil (width), (int) ceil (height));
  ws_alignment_renderer_draw (renderer, canvas.cr, c.grid, &state, 0, G_MAXDOUBLE);
  save_png (&canvas, "test-alignment.png");

  for (guint r = 0; r < 6; r++)
    for (guint p = 0; p < 3; p++)
      {
        WsAlignmentRowKind kind = ws_alignment_grid_get_row_kind (c.grid, r);
        const WsAlignmentCell *cl = ws_alignment_grid_get_cell (c.grid, r, p);

        g_assert_true (ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, r, p, &cell));
        g_assert_cmpfloat (cell.x, ==, WS_ALIGNMENT_GUTTER_WIDTH + p * (cw + WS_ALIGNMENT_COLUMN_GAP));
        g_assert_cmpfloat (cell.y, ==, WS_ALIGNMENT_HEADER_HEIGHT + r * WS_ALIGNMENT_ROW_HEIGHT);

        /* Just right of the edge bar, above the text: the fill.  (Row 5
         * is marked: its ring covers the top-left, so look lower.) */
        if (kind == WS_ALIGNMENT_ROW_COMMON)
          {
            /* One band: the edge bar only where it starts, at column 0. */
            assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->common);
            if (!marked[r])
              assert_pixel (&canvas, cell.x + 1, cell.y + 12, p == 0 ? &pal->common_edge : &pal->common);
          }
        else if (cl->function == NULL)
          {
            /* A gap: background, with the through-line at the centre. */
            assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->background);
            assert_pixel (&canvas, cell.x + cell.width - 6, cell.y + 12, &pal->background);
            assert_pixel (&canvas, floor (cell.x + cell.width / 2), cell.y + 12, &pal->gap);
          }
        else
          {
            assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->variant);
            assert_pixel (&canvas, cell.x + 1, cell.y + 12, &pal->variant_edge);
            assert_pixel (&canvas, cell.x + cell.width - 3, cell.y + 12, &pal->variant);
          }
      }

  /* A common row is one band: the gap between columns is filled too; a
   * variant row leaves it empty. */
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 0, 0, &cell);
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 0, 1, &cell2);
  assert_pixel (&canvas, cell.x + cell.width + WS_ALIGNMENT_COLUMN_GAP / 2, cell.y + 4, &pal->common);
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 3, 0, &cell);
  assert_pixel (&canvas, cell.x + cell.width + WS_ALIGNMENT_COLUMN_GAP / 2, cell.y + 12, &pal->background);

  /* The selected pattern's ring (2 px, centred 2 px outside the column),
   * and its bar under the heading. */
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 3, 1, &cell);
  assert_pixel (&canvas, cell.x - 2, cell.y + 12, &pal->selection);
  assert_pixel (&canvas, cell.x + cell.width + 1.5, cell.y + 12, &pal->selection);
  assert_pixel (&canvas, cell.x + 20, WS_ALIGNMENT_HEADER_HEIGHT - 3, &pal->selection);
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 3, 0, &cell);
  assert_pixel (&canvas, cell.x + 20, WS_ALIGNMENT_HEADER_HEIGHT - 3, &pal->header_background);

  /* The marked row's ring. */
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 5, 0, &cell);
  assert_pixel (&canvas, cell.x + 40, cell.y + 2, &pal->marked);
  assert_pixel (&canvas, cell.x + 40, cell.y + 6, &pal->common);

  /* Hit testing agrees with the cell rectangles. */
  ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 4, 2, &cell);
  g_assert_true (ws_alignment_renderer_hit_test (renderer, c.grid, NULL, cell.x + 10, cell.y + 10, &row, &pattern, NULL));
  g_assert_cmpuint (row, ==, 4);
  g_assert_cmpuint (pattern, ==, 2);
  g_assert_true (ws_alignment_renderer_hit_test (renderer, c.grid, NULL, 10, cell.y + 10, &row, &pattern, NULL));
  g_assert_cmpuint (row, ==, 4);
  g_assert_cmpuint (pattern, ==, WS_NONE);
  g_assert_true (ws_alignment_renderer_hit_test (renderer, c.grid, NULL, cell.x + 10, 10, &row, &pattern, NULL));
  g_assert_cmpuint (row, ==, WS_NONE);
  g_assert_cmpuint (pattern, ==, 2);
  g_assert_false (ws_alignment_renderer_hit_test (renderer, c.grid, NULL, cell.x + 10, height + 50, &row, &pattern, NULL));

  canvas_clear (&canvas);

  /* Dark palette, drawn clipped to rows 2…3 only: rows outside the clip
   * stay untouched (transparent). */
  {
    WsAlignmentPalette dark;

    ws_alignment_palette_init_dark (&dark);
    ws_alignment_renderer_set_palette (renderer, &dark);
    pal = ws_alignment_renderer_get_palette (renderer);
    canvas_init (&canvas, (int) ceil (width), (int) ceil (height));
    ws_alignment_renderer_draw (renderer, canvas.cr, c.grid, NULL,
                                WS_ALIGNMENT_HEADER_HEIGHT + 2 * WS_ALIGNMENT_ROW_HEIGHT,
                                WS_ALIGNMENT_HEADER_HEIGHT + 4 * WS_ALIGNMENT_ROW_HEIGHT - 1);
    ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 2, 2, &cell);
    assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->common);
    ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 3, 2, &cell);
    assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->variant);
    {
      WsColor transparent = { 0, 0, 0, 0 };
      ws_alignment_renderer_get_cell_rect (renderer, c.grid, NULL, 5, 0, &cell);
      assert_pixel (&canvas, cell.x + 6, cell.y + 4, &transparent);
      assert_pixel (&canvas, 100, 10, &transparent);   /* header not redrawn */
    }
    canvas_clear (&canvas);
  }

  cluster_clear (&c);
}

/* Eight common frames then a substitution: the common segment folds to
 * rows 0, a fold line, 6, 7; unfolded, every row is back. */
static void
test_alignment_fold (void)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsAlignmentGrid) grid = ws_alignment_grid_new (2);
  g_autoptr(WsAlignmentRenderer) renderer = ws_alignment_renderer_new ();
  const WsAlignmentPalette *pal = ws_alignment_renderer_get_palette (renderer);
  g_autoptr(GArray) display = NULL;
  g_autoptr(GArray) full = NULL;
  WsAlignmentState state;
  WsAlignmentRect cell;
  guint8 unfolded[9] = { 0 };
  static const gint32 expected[] = { 0, -1, 6, 7, 8 };
  double width, height;
  guint row, pattern, fold;
  Canvas canvas;

  for (guint r = 0; r < 8; r++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", r);
      WsFrameId f = ws_stack_table_intern_frame (table, name, "app");
      WsAlignmentCell cells[2] = { { f, name, "app" }, { f, name, "app" } };
      ws_alignment_grid_append_row (grid, cells);
    }
  {
    WsAlignmentCell cells[2] = { { 100, "left", NULL }, { 101, "right", NULL } };
    ws_alignment_grid_append_row (grid, cells);
  }

  ws_alignment_state_init (&state);
  g_assert_true (state.fold_common);
  display = ws_alignment_renderer_get_display (renderer, grid, &state);
  g_assert_cmpuint (display->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < display->len; i++)
    g_assert_cmpint (g_array_index (display, gint32, i), ==, expected[i]);

  ws_alignment_renderer_measure (renderer, grid, &state, &width, &height);
  g_assert_cmpfloat (height, ==, WS_ALIGNMENT_HEADER_HEIGHT + 5 * WS_ALIGNMENT_ROW_HEIGHT + WS_ALIGNMENT_COLUMN_GAP);
  g_assert_false (ws_alignment_renderer_get_cell_rect (renderer, grid, &state, 3, 0, &cell));
  g_assert_true (ws_alignment_renderer_get_cell_rect (renderer, grid, &state, 6, 1, &cell));
  g_assert_cmpfloat (cell.y, ==, WS_ALIGNMENT_HEADER_HEIGHT + 2 * WS_ALIGNMENT_ROW_HEIGHT);
  g_assert_true (ws_alignment_renderer_hit_test (renderer, grid, &state, cell.x + 10,
                                                 WS_ALIGNMENT_HEADER_HEIGHT + 1.5 * WS_ALIGNMENT_ROW_HEIGHT,
                                                 &row, &pattern, &fold));
  g_assert_cmpuint (row, ==, WS_NONE);
  g_assert_cmpuint (fold, ==, 0);

  /* The fold line: common fill, its edge dashed (edge colour, then fill). */
  canvas_init (&canvas, (int) ceil (width), (int) ceil (height));
  ws_alignment_renderer_draw (renderer, canvas.cr, grid, &state, 0, G_MAXDOUBLE);
  save_png (&canvas, "test-alignment-fold.png");
  assert_pixel (&canvas, WS_ALIGNMENT_GUTTER_WIDTH + 6, WS_ALIGNMENT_HEADER_HEIGHT + WS_ALIGNMENT_ROW_HEIGHT + 3,
                &pal->common);
  assert_pixel (&canvas, WS_ALIGNMENT_GUTTER_WIDTH + 1, WS_ALIGNMENT_HEADER_HEIGHT + WS_ALIGNMENT_ROW_HEIGHT + 2,
                &pal->common_edge);
  assert_pixel (&canvas, WS_ALIGNMENT_GUTTER_WIDTH + 1, WS_ALIGNMENT_HEADER_HEIGHT + WS_ALIGNMENT_ROW_HEIGHT + 4,
                &pal->common);
  /* The variant row right under rows 6 and 7. */
  ws_alignment_renderer_get_cell_rect (renderer, grid, &state, 8, 1, &cell);
  g_assert_cmpfloat (cell.y, ==, WS_ALIGNMENT_HEADER_HEIGHT + 4 * WS_ALIGNMENT_ROW_HEIGHT);
  assert_pixel (&canvas, cell.x + 6, cell.y + 4, &pal->variant);
  canvas_clear (&canvas);

  /* Unfolded: all nine rows. */
  unfolded[0] = 1;
  state.unfolded = unfolded;
  full = ws_alignment_renderer_get_display (renderer, grid, &state);
  g_assert_cmpuint (full->len, ==, 9);
  g_assert_true (ws_alignment_renderer_get_cell_rect (renderer, grid, &state, 3, 0, &cell));
  g_assert_cmpfloat (cell.y, ==, WS_ALIGNMENT_HEADER_HEIGHT + 3 * WS_ALIGNMENT_ROW_HEIGHT);
  /* And without folding at all (NULL state), likewise. */
  g_clear_pointer (&full, g_array_unref);
  full = ws_alignment_renderer_get_display (renderer, grid, NULL);
  g_assert_cmpuint (full->len, ==, 9);
}

static void
test_alignment_export (void)
{
  Cluster c;
  g_autoptr(WsAlignmentRenderer) renderer = ws_alignment_renderer_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-align-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "a.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "a.svg", NULL);
  cairo_surface_t *surface;
  double width, height;

  cluster_init (&c);
  ws_alignment_renderer_measure (renderer, c.grid, NULL, &width, &height);
  g_assert_true (ws_alignment_renderer_export (renderer, c.grid, png, WS_EXPORT_PNG, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, (int) (width + 32));
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, (int) (height + 32));
  cairo_surface_destroy (surface);
  g_assert_true (ws_alignment_renderer_export (renderer, c.grid, svg, WS_EXPORT_SVG, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));

  g_unlink (png);
  g_unlink (svg);
  g_rmdir (dir);
  cluster_clear (&c);
}

/* ------------------------------------------------------------------ */
/* The coverage plot                                                    */

/* After inspecting 1…4 streams.  At x = 1.5 the four curves sit at 50, 10,
 * 20 and 30 %; at x = 1 only ours rises above 30 %. */
static const double ours[] = { 0.50, 0.70, 0.80, 0.80 };
static const double random_[] = { 0.10, 0.30, 0.50, 0.80 };
static const double total[] = { 0.20, 0.25, 0.60, 0.80 };
static const double max_[] = { 0.30, 0.40, 0.45, 0.80 };

static WsCoveragePlot *
make_plot (void)
{
  WsCoveragePlot *plot = ws_coverage_plot_new ();

  g_assert_cmpuint (ws_coverage_plot_add_series (plot, "StackMine", ours, 4, WS_COVERAGE_SERIES_EMPHASIS), ==, 0);
  g_assert_cmpuint (ws_coverage_plot_add_series (plot, "Random", random_, 4, WS_COVERAGE_SERIES_DASHED), ==, 1);
  g_assert_cmpuint (ws_coverage_plot_add_series (plot, "Greedy-Total", total, 4, WS_COVERAGE_SERIES_SOLID), ==, 2);
  g_assert_cmpuint (ws_coverage_plot_add_series (plot, "Greedy-Max", max_, 4, WS_COVERAGE_SERIES_SOLID), ==, 3);
  ws_coverage_plot_set_target (plot, 0.85);
  ws_coverage_plot_set_size (plot, 640, 420);
  return plot;
}

/* Some pixel within ±@reach px horizontally of (x, y) has @color: for
 * dashed and dotted lines. */
static gboolean
pixel_near (Canvas        *c,
            double         x,
            double         y,
            double         reach,
            const WsColor *color)
{
  for (double dx = -reach; dx <= reach; dx += 1)
    if (pixel_is (c, x + dx, y, color))
      return TRUE;
  return FALSE;
}

static void
test_coverage_mapping (void)
{
  g_autoptr(WsCoveragePlot) plot = make_plot ();
  WsCoverageRect a;
  double x, y;

  g_assert_cmpfloat (ws_coverage_plot_get_target (plot), ==, 0.85);
  ws_coverage_plot_get_area (plot, &a);
  g_assert_cmpfloat (a.width, >, 400);
  g_assert_cmpfloat (a.height, >, 250);
  g_assert_cmpfloat (a.x + a.width, <=, 640);
  g_assert_cmpfloat (a.y + a.height, <, 420 - 40);   /* room for ticks, title, legend */
  g_assert_cmpuint (ws_coverage_plot_get_n_traces (plot), ==, 4);

  ws_coverage_plot_to_device (plot, 0, 0, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, a.x, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, a.y + a.height, 1e-9);
  ws_coverage_plot_to_device (plot, 4, 1, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, a.x + a.width, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, a.y, 1e-9);
  ws_coverage_plot_to_device (plot, 1, 0.25, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, a.x + a.width / 4, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, a.y + a.height * 0.75, 1e-9);

  /* More streams than points: the axis runs to the total. */
  ws_coverage_plot_set_n_traces (plot, 10);
  g_assert_cmpuint (ws_coverage_plot_get_n_traces (plot), ==, 10);
  ws_coverage_plot_to_device (plot, 5, 0, &x, NULL);
  g_assert_cmpfloat_with_epsilon (x, a.x + a.width / 2, 1e-9);
}

static void
test_coverage_pixels (void)
{
  g_autoptr(WsCoveragePlot) plot = make_plot ();
  const WsCoveragePalette *pal = ws_coverage_plot_get_palette (plot);
  const double *data[] = { ours, random_, total, max_ };
  Canvas canvas;
  WsCoverageRect a;
  double x, y;

  canvas_init (&canvas, 640, 420);
  ws_coverage_plot_draw (plot, canvas.cr);
  save_png (&canvas, "test-coverage.png");
  ws_coverage_plot_get_area (plot, &a);

  /* The colour of each series is the palette's. */
  for (guint s = 0; s < 4; s++)
    {
      const WsColor *c = ws_coverage_plot_get_series_color (plot, s);
      g_assert_cmpfloat (c->red, ==, pal->series[s].red);
      g_assert_cmpfloat (c->blue, ==, pal->series[s].blue);
    }

  /* Middle of the flat step while the 2nd and 3rd streams are read, for
   * each series at its own height. */
  for (guint s = 0; s < 4; s++)
    for (guint k = 1; k < 3; k++)
      {
        const WsColor *c = ws_coverage_plot_get_series_color (plot, s);

        ws_coverage_plot_to_device (plot, k + 0.5, data[s][k - 1], &x, &y);
        if (s == 1)
          g_assert_true (pixel_near (&canvas, x, y, 8, c));   /* dashed */
        else
          assert_pixel (&canvas, x, y, c);
      }

  /* All rise at x = 1, ours (on top) alone above 30 %. */
  ws_coverage_plot_to_device (plot, 1, 0.45, &x, &y);
  assert_pixel (&canvas, x, y, &pal->series[0]);
  /* Its marker at (1, 50 %) is a 4 px disc: up and left of the corner too. */
  ws_coverage_plot_to_device (plot, 1, 0.50, &x, &y);
  assert_pixel (&canvas, x - 2, y - 1, &pal->series[0]);

  /* Between the curves: the plot background (between grid lines). */
  ws_coverage_plot_to_device (plot, 3.5, 0.95, &x, &y);
  assert_pixel (&canvas, x, y, &pal->plot_background);
  ws_coverage_plot_to_device (plot, 0.5, 0.65, &x, &y);
  assert_pixel (&canvas, x, y, &pal->plot_background);

  /* Outside the axes: the background. */
  assert_pixel (&canvas, 639, 2, &pal->background);

  /* The dotted target line at 85 %. */
  ws_coverage_plot_to_device (plot, 2.5, 0.85, &x, &y);
  g_assert_true (pixel_near (&canvas, x, y, 4, &pal->target));
  ws_coverage_plot_to_device (plot, 2.5, 0.90, &x, &y);
  g_assert_false (pixel_near (&canvas, x, y, 4, &pal->target));

  /* The y axis line itself. */
  assert_pixel (&canvas, round (a.x), a.y + a.height / 3, &pal->axis);

  canvas_clear (&canvas);
}

/* An axis shorter than the series cuts them: the steps up to its end are
 * where they belong, the x title is the one given. */
static void
test_coverage_cut (void)
{
  g_autoptr(WsCoveragePlot) plot = make_plot ();
  const WsCoveragePalette *pal = ws_coverage_plot_get_palette (plot);
  Canvas canvas;
  WsCoverageRect a;
  double x, y;

  ws_coverage_plot_set_n_traces (plot, 2);
  ws_coverage_plot_set_x_title (plot, "first 2 of 4");
  g_assert_cmpuint (ws_coverage_plot_get_n_traces (plot), ==, 2);
  ws_coverage_plot_get_area (plot, &a);
  ws_coverage_plot_to_device (plot, 2, 1, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, a.x + a.width, 1e-9);

  canvas_init (&canvas, 640, 420);
  ws_coverage_plot_draw (plot, canvas.cr);
  ws_coverage_plot_to_device (plot, 1.5, ours[0], &x, &y);
  assert_pixel (&canvas, x, y, &pal->series[0]);
  ws_coverage_plot_to_device (plot, 1.5, total[0], &x, &y);
  assert_pixel (&canvas, x, y, &pal->series[2]);
  /* Nothing drawn right of the axis' end but the background. */
  assert_pixel (&canvas, a.x + a.width + 10, a.y + a.height * 0.25, &pal->background);
  canvas_clear (&canvas);
}

static void
test_coverage_describe (void)
{
  g_autoptr(WsCoveragePlot) plot = make_plot ();
  g_autofree char *text = ws_coverage_plot_describe (plot);

  g_assert_cmpstr (text, ==,
                   "Bottleneck coverage against trace streams inspected, out of 4. "
                   "StackMine reaches 80.0 % after 3 streams. "
                   "Random reaches 80.0 % after 4 streams. "
                   "Greedy-Total reaches 80.0 % after 4 streams. "
                   "Greedy-Max reaches 80.0 % after 4 streams.");

  ws_coverage_plot_clear (plot);
  g_assert_cmpuint (ws_coverage_plot_get_n_series (plot), ==, 0);
  g_assert_cmpuint (ws_coverage_plot_get_n_traces (plot), ==, 1);
}

/* Pixels of the plot area (the axes' rectangle) that have @color. */
static guint
count_in_area (Canvas               *c,
               const WsCoverageRect *a,
               const WsColor        *color)
{
  guint n = 0;

  for (int y = (int) a->y; y < (int) (a->y + a->height); y++)
    for (int x = (int) a->x; x < (int) (a->x + a->width); x++)
      if (pixel_is (c, x, y, color))
        n++;
  return n;
}

/* Issue 14: Greedy-Total and Greedy-Max on the very curve of our ranking
 * (a trace with one dominant signature) hid under its thicker line: each
 * shows now beside it, and the legend and description say they are the
 * same curve. */
static void
test_coverage_coincident (void)
{
  g_autoptr(WsCoveragePlot) plot = ws_coverage_plot_new ();
  WsCoverageRect a;
  Canvas canvas;
  g_autofree char *text = NULL;

  ws_coverage_plot_add_series (plot, "StackMine", ours, 4, WS_COVERAGE_SERIES_EMPHASIS);
  ws_coverage_plot_add_series (plot, "Random", random_, 4, WS_COVERAGE_SERIES_DASHED);
  ws_coverage_plot_add_series (plot, "Greedy-Total", ours, 4, WS_COVERAGE_SERIES_SOLID);
  ws_coverage_plot_add_series (plot, "Greedy-Max", ours, 4, WS_COVERAGE_SERIES_SOLID);
  ws_coverage_plot_set_target (plot, 0.85);
  ws_coverage_plot_set_size (plot, 640, 420);
  canvas_init (&canvas, 640, 420);
  ws_coverage_plot_draw (plot, canvas.cr);
  save_png (&canvas, "test-coverage-coincident.png");
  ws_coverage_plot_get_area (plot, &a);

  /* Each of the four colours covers a good length of line in the axes:
   * ours, Random, and both Greedy curves. */
  for (guint s = 0; s < 4; s++)
    {
      guint n = count_in_area (&canvas, &a, ws_coverage_plot_get_series_color (plot, s));

      g_test_message ("series %u: %u px", s, n);
      g_assert_cmpuint (n, >, 150);
    }
  canvas_clear (&canvas);

  text = ws_coverage_plot_describe (plot);
  g_assert_cmpstr (text, ==,
                   "Bottleneck coverage against trace streams inspected, out of 4. "
                   "StackMine reaches 80.0 % after 3 streams. "
                   "Random reaches 80.0 % after 4 streams. "
                   "Greedy-Total (same as StackMine) reaches 80.0 % after 3 streams. "
                   "Greedy-Max (same as StackMine) reaches 80.0 % after 3 streams.");
}

static void
test_coverage_export (void)
{
  g_autoptr(WsCoveragePlot) plot = make_plot ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-cov-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "c.pdf", NULL);
  g_autofree char *png = g_build_filename (dir, "c.png", NULL);
  cairo_surface_t *surface;
  WsCoverageRect before, after;

  ws_coverage_plot_get_area (plot, &before);
  g_assert_true (ws_coverage_plot_export (plot, pdf, WS_EXPORT_PDF, 800, 500, &error));
  g_assert_no_error (error);
  g_assert_true (ws_coverage_plot_export (plot, png, WS_EXPORT_PNG, 800, 500, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 800);
  cairo_surface_destroy (surface);
  /* Exporting does not change the on-screen size. */
  ws_coverage_plot_get_area (plot, &after);
  g_assert_cmpfloat (before.width, ==, after.width);

  g_unlink (pdf);
  g_unlink (png);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* A pattern's events                                                   */

/* The timeline tests' trace: A's two waits share main→lock_acquire→
 * futex_wait, B's wake-up has main→unlock→futex_wake.  Matching the
 * waiting stack only: the two waits, in time order, and not the wake-up
 * although it shares "main", the one frame marked as matching. */
static void
test_pattern_events (void)
{
  WsTestTimelineTrace ids;
  g_autoptr(WsTrace) trace = ws_test_timeline_trace_new (&ids);
  WsStackTable *table = ws_trace_get_stack_table (trace);
  const WsEvent *wait = ws_trace_get_event (trace, ids.wait_s);
  const WsEvent *unwait = ws_trace_get_event (trace, ids.unwait);
  g_autofree guint8 *stacks = g_new0 (guint8, ws_stack_table_get_n_stacks (table));
  g_autofree guint8 *frames = g_new0 (guint8, ws_stack_table_get_n_frames (table));
  g_autoptr(WsStackSearch) search = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 *matches;
  guint n;
  const WsFrameId *wait_frames = ws_stack_table_get_stack (table, wait->stack, &n);

  g_assert_cmpuint (ws_trace_get_event (trace, ids.wait_d)->stack, ==, wait->stack);
  stacks[wait->stack] = 1;
  frames[wait_frames[0]] = 1;   /* "main", in both stacks */
  search = ws_stack_search_new_from_stacks (trace, "pattern 1.1", stacks, frames, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ws_stack_search_get_pattern (search), ==, "pattern 1.1");
  g_assert_cmpuint (ws_stack_search_get_n_matches (search), ==, 2);
  g_assert_cmpuint (ws_stack_search_get_n_frames (search), ==, 1);
  g_assert_true (ws_stack_search_matches_frame (search, wait_frames[0]));
  g_assert_true (ws_stack_search_matches_stack (search, wait->stack));
  g_assert_false (ws_stack_search_matches_stack (search, unwait->stack));
  g_assert_false (ws_stack_search_matches_stack (search, WS_STACK_EMPTY));
  g_assert_true (ws_stack_search_matches_event (search, ids.wait_s));
  g_assert_true (ws_stack_search_matches_event (search, ids.wait_d));
  g_assert_false (ws_stack_search_matches_event (search, ids.unwait));
  matches = ws_stack_search_get_thread_matches (search, ids.thread_a, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (matches[0], ==, ids.wait_s);
  g_assert_cmpuint (matches[1], ==, ids.wait_d);
  ws_stack_search_get_thread_matches (search, ids.thread_b, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (ws_stack_search_next (search, WS_NONE, TRUE), ==, ids.wait_s);
  g_assert_cmpuint (ws_stack_search_next (search, ids.wait_s, TRUE), ==, ids.wait_d);
  g_assert_cmpuint (ws_stack_search_next (search, ids.wait_d, TRUE), ==, ids.wait_s);
  g_assert_cmpuint (ws_stack_search_get_rank (search, ids.wait_d), ==, 1);

  /* A regular expression on "main" matches per frame: all three stacks. */
  {
    g_autoptr(WsStackSearch) regex = ws_stack_search_new (trace, "^main$", NULL, &error);
    g_assert_no_error (error);
    g_assert_true (ws_stack_search_matches_stack (regex, unwait->stack));
    g_assert_true (ws_stack_search_matches_event (regex, ids.unwait));
    g_assert_cmpuint (ws_stack_search_get_n_matches (regex), ==, 3);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/alignment/star", test_alignment_star);
  g_test_add_func ("/alignment/star-shared-slot", test_alignment_star_shared_slot);
  g_test_add_func ("/alignment/aligned", test_alignment_aligned);
  g_test_add_func ("/alignment/pixels", test_alignment_pixels);
  g_test_add_func ("/alignment/fold", test_alignment_fold);
  g_test_add_func ("/alignment/export", test_alignment_export);
  g_test_add_func ("/pattern-events", test_pattern_events);
  g_test_add_func ("/coverage/mapping", test_coverage_mapping);
  g_test_add_func ("/coverage/pixels", test_coverage_pixels);
  g_test_add_func ("/coverage/cut", test_coverage_cut);
  g_test_add_func ("/coverage/describe", test_coverage_describe);
  g_test_add_func ("/coverage/coincident", test_coverage_coincident);
  g_test_add_func ("/coverage/export", test_coverage_export);

  return g_test_run ();
}
