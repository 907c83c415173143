/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The alignment view of a pattern cluster (StackMine §VI): the point of
 * clustering is that "analysts can more easily recognize the common part
 * and the variant part of the callstack patterns", so the drawing puts the
 * patterns side by side, caller at the top, and fills the positions where
 * all of them agree as one band across the columns.  The variant parts
 * are per-pattern cells in a second colour, and the gutter names the
 * segments M1, S1, ID1… as Fig. 3 of the paper does, so that the two kinds
 * are told apart without colour too.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ws-alignment-renderer.h"
#include "ws-render-util.h"
#include "ws-similarity.h"

#define CELL_PAD         8.0
#define EDGE_BAR         4.0
#define CELL_INSET       1.0
#define EXPORT_MARGIN   16.0

/* ------------------------------------------------------------------ */
/* Palettes                                                             */

void
ws_alignment_palette_init_light (WsAlignmentPalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0xffffff, 1);
  p->header_background = ws_render_rgb (0xf6f5f4, 1);
  p->foreground = ws_render_rgb (0x241f31, 1);
  p->dim_foreground = ws_render_rgb (0x77767b, 1);
  p->grid = ws_render_rgb (0xdeddda, 1);
  /* GNOME palette: green 1 for the common part, yellow 1 for variants. */
  p->common = ws_render_rgb (0xc6f0d2, 1);
  p->common_edge = ws_render_rgb (0x26a269, 1);
  p->variant = ws_render_rgb (0xfbe7b5, 1);
  p->variant_edge = ws_render_rgb (0xe5a50a, 1);
  p->gap = ws_render_rgb (0xc0bfbc, 1);
  p->selection = ws_render_rgb (0x3584e4, 1);
  p->marked = ws_render_rgb (0x9141ac, 1);
  p->hover = ws_render_rgb (0x000000, 0.06);
}

void
ws_alignment_palette_init_dark (WsAlignmentPalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0x1e1e1e, 1);
  p->header_background = ws_render_rgb (0x303030, 1);
  p->foreground = ws_render_rgb (0xffffff, 1);
  p->dim_foreground = ws_render_rgb (0x9a9996, 1);
  p->grid = ws_render_rgb (0x3d3846, 1);
  p->common = ws_render_rgb (0x1f4a31, 1);
  p->common_edge = ws_render_rgb (0x57e389, 1);
  p->variant = ws_render_rgb (0x5a4510, 1);
  p->variant_edge = ws_render_rgb (0xf8e45c, 1);
  p->gap = ws_render_rgb (0x5e5c64, 1);
  p->selection = ws_render_rgb (0x78aeed, 1);
  p->marked = ws_render_rgb (0xdc8add, 1);
  p->hover = ws_render_rgb (0xffffff, 0.07);
}

void
ws_alignment_state_init (WsAlignmentState *state)
{
  g_return_if_fail (state != NULL);

  state->selected_pattern = WS_NONE;
  state->hover_row = WS_NONE;
  state->hover_pattern = WS_NONE;
  state->focus_row = WS_NONE;
  state->focus_pattern = WS_NONE;
  state->marked = NULL;
  state->fold_common = TRUE;
  state->unfolded = NULL;
}

/* ------------------------------------------------------------------ */
/* The renderer                                                         */

struct _WsAlignmentRenderer
{
  GObject             parent_instance;

  WsAlignmentPalette  palette;
  PangoContext       *context;
  char               *family;
  PangoLayout        *layout;
  PangoLayout        *bold;
  PangoLayout        *small;

  /* The column width depends on the grid's labels: measured once per grid. */
  WsAlignmentGrid    *measured;
  double              column_width;
};

G_DEFINE_FINAL_TYPE (WsAlignmentRenderer, ws_alignment_renderer, G_TYPE_OBJECT)

static void
forget_layouts (WsAlignmentRenderer *self)
{
  g_clear_object (&self->layout);
  g_clear_object (&self->bold);
  g_clear_object (&self->small);
  g_clear_pointer (&self->measured, ws_alignment_grid_unref);
}

static void
ws_alignment_renderer_finalize (GObject *object)
{
  WsAlignmentRenderer *self = WS_ALIGNMENT_RENDERER (object);

  forget_layouts (self);
  g_clear_object (&self->context);
  g_free (self->family);

  G_OBJECT_CLASS (ws_alignment_renderer_parent_class)->finalize (object);
}

static void
ws_alignment_renderer_class_init (WsAlignmentRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_alignment_renderer_finalize;
}

static void
ws_alignment_renderer_init (WsAlignmentRenderer *self)
{
  ws_alignment_palette_init_light (&self->palette);
  self->family = g_strdup ("Sans");
  self->context = ws_render_figure_context_new ();
}

WsAlignmentRenderer *
ws_alignment_renderer_new (void)
{
  return g_object_new (WS_TYPE_ALIGNMENT_RENDERER, NULL);
}

void
ws_alignment_renderer_set_palette (WsAlignmentRenderer      *self,
                                   const WsAlignmentPalette *palette)
{
  g_return_if_fail (WS_IS_ALIGNMENT_RENDERER (self));
  g_return_if_fail (palette != NULL);
  self->palette = *palette;
}

const WsAlignmentPalette *
ws_alignment_renderer_get_palette (WsAlignmentRenderer *self)
{
  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), NULL);
  return &self->palette;
}

void
ws_alignment_renderer_set_font (WsAlignmentRenderer *self,
                                const char          *family)
{
  g_return_if_fail (WS_IS_ALIGNMENT_RENDERER (self));
  g_return_if_fail (family != NULL);

  if (g_strcmp0 (family, self->family) == 0)
    return;
  g_free (self->family);
  self->family = g_strdup (family);
  forget_layouts (self);
}

static PangoLayout *
make_layout (WsAlignmentRenderer *self,
             double               size_pt,
             gboolean             bold)
{
  PangoLayout *layout = pango_layout_new (self->context);
  PangoFontDescription *font = pango_font_description_new ();

  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, (int) (size_pt * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  return layout;
}

static void
ensure_layouts (WsAlignmentRenderer *self)
{
  if (self->layout != NULL)
    return;
  self->layout = make_layout (self, 9.5, FALSE);
  self->bold = make_layout (self, 10, TRUE);
  self->small = make_layout (self, 8.5, FALSE);
}

/* The module's file name is enough to tell "postgres" from the kernel. */
static const char *
module_short (const char *module)
{
  const char *slash;

  if (module == NULL || *module == '\0' || g_str_equal (module, "[unknown]"))
    return NULL;
  slash = strrchr (module, '/');
  return slash && slash[1] ? slash + 1 : module;
}

static void
set_cell_text (WsAlignmentRenderer   *self,
               const WsAlignmentCell *cell)
{
  const char *module = module_short (cell->module);
  g_autofree char *escaped = g_markup_escape_text (cell->function ? cell->function : "?", -1);
  g_autofree char *markup = NULL;

  if (module != NULL)
    {
      g_autofree char *m = g_markup_escape_text (module, -1);
      markup = g_strdup_printf ("%s  <span size=\"smaller\" alpha=\"60%%\">%s</span>", escaped, m);
    }
  else
    markup = g_steal_pointer (&escaped);
  pango_layout_set_markup (self->layout, markup, -1);
}

/**
 * ws_alignment_renderer_get_column_width:
 *
 * Returns: the width of every pattern column: enough for the longest
 *   frame label, within 150…320
 */
double
ws_alignment_renderer_get_column_width (WsAlignmentRenderer *self,
                                        WsAlignmentGrid     *grid)
{
  double widest = 0;
  guint n;

  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), 0);
  g_return_val_if_fail (grid != NULL, 0);

  if (self->measured == grid)
    return self->column_width;

  ensure_layouts (self);
  pango_layout_set_width (self->layout, -1);
  n = ws_alignment_grid_get_n_rows (grid) * ws_alignment_grid_get_n_patterns (grid);
  for (guint i = 0; i < n; i++)
    {
      const WsAlignmentCell *c = ws_alignment_grid_get_cell (grid, i / ws_alignment_grid_get_n_patterns (grid),
                                                             i % ws_alignment_grid_get_n_patterns (grid));
      int w;

      if (ws_alignment_cell_is_gap (c))
        continue;
      set_cell_text (self, c);
      pango_layout_get_pixel_size (self->layout, &w, NULL);
      widest = MAX (widest, w);
      if (widest >= WS_ALIGNMENT_MAX_COLUMN)
        break;
    }
  g_clear_pointer (&self->measured, ws_alignment_grid_unref);
  self->measured = ws_alignment_grid_ref (grid);
  self->column_width = CLAMP (widest + 2 * CELL_PAD + EDGE_BAR, WS_ALIGNMENT_MIN_COLUMN, WS_ALIGNMENT_MAX_COLUMN);
  return self->column_width;
}

static double
column_x (WsAlignmentRenderer *self,
          WsAlignmentGrid     *grid,
          guint                pattern)
{
  return WS_ALIGNMENT_GUTTER_WIDTH + pattern * (ws_alignment_renderer_get_column_width (self, grid) +
                                                WS_ALIGNMENT_COLUMN_GAP);
}

/* Common segments at least this long are folded to their first and last
 * two frames: the part that tells the patterns apart is the variant
 * part, and a wait's common callers are often a dozen frames of main
 * loop. */
#define FOLD_MIN 6

static gboolean
segment_folded (WsAlignmentGrid        *grid,
                const WsAlignmentState *state,
                guint                   start,
                guint                   end)
{
  return state != NULL && state->fold_common &&
         ws_alignment_grid_get_row_kind (grid, start) == WS_ALIGNMENT_ROW_COMMON &&
         end - start + 1 >= FOLD_MIN &&
         (state->unfolded == NULL || !state->unfolded[start]);
}

/**
 * ws_alignment_renderer_get_display:
 * @state: (nullable): folding state; %NULL shows every row
 *
 * The rows as drawn, top to bottom: a grid row index (>= 0), or for the
 * line standing for the folded middle of a common segment, -1 - the
 * segment's first row.
 *
 * Returns: (transfer full) (element-type gint32):
 */
GArray *
ws_alignment_renderer_get_display (WsAlignmentRenderer    *self,
                                   WsAlignmentGrid        *grid,
                                   const WsAlignmentState *state)
{
  GArray *rows;
  guint n;

  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), NULL);
  g_return_val_if_fail (grid != NULL, NULL);

  n = ws_alignment_grid_get_n_rows (grid);
  rows = g_array_sized_new (FALSE, FALSE, sizeof (gint32), n);
  for (guint start = 0; start < n;)
    {
      guint end = start;

      while (end + 1 < n && ws_alignment_grid_get_row_kind (grid, end + 1) == ws_alignment_grid_get_row_kind (grid, start))
        end++;
      if (segment_folded (grid, state, start, end))
        {
          gint32 fold = -1 - (gint32) start, a = start, b = end - 1, c = end;
          g_array_append_val (rows, a);
          g_array_append_val (rows, fold);
          g_array_append_val (rows, b);
          g_array_append_val (rows, c);
        }
      else
        for (guint r = start; r <= end; r++)
          {
            gint32 v = r;
            g_array_append_val (rows, v);
          }
      start = end + 1;
    }
  return rows;
}

/* Where grid row @row is drawn among the display rows, or -1 if folded away. */
static gint
display_index (GArray *display,
               guint   row)
{
  for (guint i = 0; i < display->len; i++)
    if (g_array_index (display, gint32, i) == (gint32) row)
      return i;
  return -1;
}

/**
 * ws_alignment_renderer_measure:
 * @state: (nullable): folding state
 * @width: (out): the drawing's natural width
 * @height: (out): its height
 */
void
ws_alignment_renderer_measure (WsAlignmentRenderer    *self,
                               WsAlignmentGrid        *grid,
                               const WsAlignmentState *state,
                               double                 *width,
                               double                 *height)
{
  g_return_if_fail (WS_IS_ALIGNMENT_RENDERER (self));
  g_return_if_fail (grid != NULL);

  if (width != NULL)
    *width = column_x (self, grid, ws_alignment_grid_get_n_patterns (grid));   /* the last gap is the right margin */
  if (height != NULL)
    {
      g_autoptr(GArray) display = ws_alignment_renderer_get_display (self, grid, state);
      *height = WS_ALIGNMENT_HEADER_HEIGHT + display->len * WS_ALIGNMENT_ROW_HEIGHT + WS_ALIGNMENT_COLUMN_GAP;
    }
}

/**
 * ws_alignment_renderer_get_cell_rect:
 * @state: (nullable): folding state
 * @rect: (out): where the cell of @pattern in @row is drawn.  A common
 *   row is drawn as one band, but each pattern's share of it is still
 *   reported here.
 *
 * Returns: %FALSE if @row or @pattern is out of range, or @row is folded
 *   away
 */
gboolean
ws_alignment_renderer_get_cell_rect (WsAlignmentRenderer    *self,
                                     WsAlignmentGrid        *grid,
                                     const WsAlignmentState *state,
                                     guint                   row,
                                     guint                   pattern,
                                     WsAlignmentRect        *rect)
{
  g_autoptr(GArray) display = NULL;
  gint index;

  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), FALSE);
  g_return_val_if_fail (grid != NULL, FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  if (row >= ws_alignment_grid_get_n_rows (grid) || pattern >= ws_alignment_grid_get_n_patterns (grid))
    return FALSE;
  display = ws_alignment_renderer_get_display (self, grid, state);
  if ((index = display_index (display, row)) < 0)
    return FALSE;
  rect->x = column_x (self, grid, pattern);
  rect->y = WS_ALIGNMENT_HEADER_HEIGHT + index * WS_ALIGNMENT_ROW_HEIGHT;
  rect->width = ws_alignment_renderer_get_column_width (self, grid);
  rect->height = WS_ALIGNMENT_ROW_HEIGHT;
  return TRUE;
}

/**
 * ws_alignment_renderer_hit_test:
 * @state: (nullable): folding state
 * @row: (out) (optional): the grid row under (@x, @y), or %WS_NONE over
 *   the header or a fold
 * @pattern: (out) (optional): the column, or %WS_NONE over the gutter or
 *   a gap between columns
 * @fold: (out) (optional): over the line of a folded common segment: the
 *   segment's first row, else %WS_NONE
 *
 * Returns: %TRUE if the point is over a row, a fold or a column heading
 */
gboolean
ws_alignment_renderer_hit_test (WsAlignmentRenderer    *self,
                                WsAlignmentGrid        *grid,
                                const WsAlignmentState *state,
                                double                  x,
                                double                  y,
                                guint                  *row,
                                guint                  *pattern,
                                guint                  *fold)
{
  double cw, stride, col;
  guint r = WS_NONE, p = WS_NONE, f = WS_NONE;

  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), FALSE);
  g_return_val_if_fail (grid != NULL, FALSE);

  cw = ws_alignment_renderer_get_column_width (self, grid);
  stride = cw + WS_ALIGNMENT_COLUMN_GAP;
  if (x >= WS_ALIGNMENT_GUTTER_WIDTH)
    {
      col = floor ((x - WS_ALIGNMENT_GUTTER_WIDTH) / stride);
      if (col < ws_alignment_grid_get_n_patterns (grid) && x - WS_ALIGNMENT_GUTTER_WIDTH - col * stride < cw)
        p = (guint) col;
    }
  if (y >= WS_ALIGNMENT_HEADER_HEIGHT)
    {
      g_autoptr(GArray) display = ws_alignment_renderer_get_display (self, grid, state);
      double rr = floor ((y - WS_ALIGNMENT_HEADER_HEIGHT) / WS_ALIGNMENT_ROW_HEIGHT);

      if (rr < display->len)
        {
          gint32 v = g_array_index (display, gint32, (guint) rr);
          if (v >= 0)
            r = v;
          else
            f = -1 - v;
        }
    }
  if (row != NULL)
    *row = r;
  if (pattern != NULL)
    *pattern = p;
  if (fold != NULL)
    *fold = f;
  return r != WS_NONE || f != WS_NONE || (p != WS_NONE && y >= 0 && y < WS_ALIGNMENT_HEADER_HEIGHT);
}

static void
fill_rect (cairo_t       *cr,
           const WsColor *c,
           double         x,
           double         y,
           double         w,
           double         h)
{
  ws_render_set_source (cr, c);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
}

static void
show_text (WsAlignmentRenderer *self,
           cairo_t             *cr,
           PangoLayout         *layout,
           const WsColor       *color,
           double               x,
           double               y,
           double               width,
           double               height)
{
  int lh;

  pango_layout_set_width (layout, (int) (MAX (width, 1) * PANGO_SCALE));
  pango_layout_get_pixel_size (layout, NULL, &lh);
  ws_render_set_source (cr, color);
  cairo_move_to (cr, x, y + floor ((height - lh) / 2));
  pango_cairo_show_layout (cr, layout);
}

static void
draw_cell (WsAlignmentRenderer   *self,
           cairo_t               *cr,
           const WsAlignmentCell *cell,
           const WsColor         *fill,
           const WsColor         *edge,
           double                 x,
           double                 y,
           double                 w)
{
  double h = WS_ALIGNMENT_ROW_HEIGHT - 2 * CELL_INSET;

  fill_rect (cr, fill, x, y + CELL_INSET, w, h);
  fill_rect (cr, edge, x, y + CELL_INSET, EDGE_BAR, h);
  set_cell_text (self, cell);
  show_text (self, cr, self->layout, &self->palette.foreground,
             x + EDGE_BAR + CELL_PAD, y + CELL_INSET, w - EDGE_BAR - 2 * CELL_PAD, h);
}

static void
draw_header (WsAlignmentRenderer    *self,
             cairo_t                *cr,
             WsAlignmentGrid        *grid,
             const WsAlignmentState *state,
             double                  width)
{
  double cw = ws_alignment_renderer_get_column_width (self, grid);

  fill_rect (cr, &self->palette.header_background, 0, 0, width, WS_ALIGNMENT_HEADER_HEIGHT);
  fill_rect (cr, &self->palette.grid, 0, WS_ALIGNMENT_HEADER_HEIGHT - 1, width, 1);

  for (guint p = 0; p < ws_alignment_grid_get_n_patterns (grid); p++)
    {
      double x = column_x (self, grid, p);
      g_autofree char *fallback = NULL;
      const char *title = ws_alignment_grid_get_title (grid, p);

      if (title == NULL)
        /* Translators: heading of a pattern column in the alignment view */
        title = fallback = g_strdup_printf (_("Pattern %u"), p + 1);
      pango_layout_set_text (self->bold, title, -1);
      show_text (self, cr, self->bold, &self->palette.foreground, x + CELL_PAD, 6, cw - 2 * CELL_PAD, 18);
      if (ws_alignment_grid_get_subtitle (grid, p) != NULL)
        {
          pango_layout_set_text (self->small, ws_alignment_grid_get_subtitle (grid, p), -1);
          show_text (self, cr, self->small, &self->palette.dim_foreground, x + CELL_PAD, 24, cw - 2 * CELL_PAD, 16);
        }
      if (p == state->selected_pattern)
        fill_rect (cr, &self->palette.selection, x, WS_ALIGNMENT_HEADER_HEIGHT - 4, cw, 3);
    }
}

static void
draw_gutter_label (WsAlignmentRenderer *self,
                   cairo_t             *cr,
                   WsAlignmentGrid     *grid,
                   guint                row,
                   double               y)
{
  guint index;
  g_autofree char *label = NULL;
  WsAlignmentRowKind kind = ws_alignment_grid_get_row_kind (grid, row);

  if (ws_alignment_grid_get_segment (grid, row, &index) != row)
    return;
  switch (kind)
    {
    case WS_ALIGNMENT_ROW_COMMON:
      /* Translators: a match segment of an alignment (StackMine Fig. 3) */
      label = g_strdup_printf (C_("alignment segment", "M%u"), index);
      break;
    case WS_ALIGNMENT_ROW_SUBSTITUTION:
      /* Translators: a substitution segment of an alignment (StackMine Fig. 3) */
      label = g_strdup_printf (C_("alignment segment", "S%u"), index);
      break;
    case WS_ALIGNMENT_ROW_INDEL:
    default:
      /* Translators: an insertion/deletion segment of an alignment (StackMine Fig. 3) */
      label = g_strdup_printf (C_("alignment segment", "ID%u"), index);
      break;
    }
  pango_layout_set_text (self->small, label, -1);
  show_text (self, cr, self->small, &self->palette.dim_foreground, 8, y, WS_ALIGNMENT_GUTTER_WIDTH - 12,
             WS_ALIGNMENT_ROW_HEIGHT);
  if (row > 0)
    fill_rect (cr, &self->palette.grid, 4, y, WS_ALIGNMENT_GUTTER_WIDTH - 8, 1);
}

/* The line standing for the middle of a folded common segment. */
static void
draw_fold (WsAlignmentRenderer *self,
           cairo_t             *cr,
           WsAlignmentGrid     *grid,
           guint                start,
           double               y,
           double               band)
{
  const WsAlignmentPalette *pal = &self->palette;
  guint end = start;
  g_autofree char *text = NULL;
  static const double dash[] = { 2, 2 };

  while (end + 1 < ws_alignment_grid_get_n_rows (grid) && ws_alignment_grid_get_row_kind (grid, end + 1) == WS_ALIGNMENT_ROW_COMMON)
    end++;
  fill_rect (cr, &pal->common, WS_ALIGNMENT_GUTTER_WIDTH, y + CELL_INSET, band, WS_ALIGNMENT_ROW_HEIGHT - 2 * CELL_INSET);
  /* A dashed edge: frames are missing here. */
  ws_render_set_source (cr, &pal->common_edge);
  cairo_set_line_width (cr, EDGE_BAR);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, WS_ALIGNMENT_GUTTER_WIDTH + EDGE_BAR / 2, y + CELL_INSET);
  cairo_line_to (cr, WS_ALIGNMENT_GUTTER_WIDTH + EDGE_BAR / 2, y + WS_ALIGNMENT_ROW_HEIGHT - CELL_INSET);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  /* Translators: a folded run of frames all patterns share; click to show */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "⋯ %u more common frame (click to show)",
                                       "⋯ %u more common frames (click to show)", end - start - 2),
                          end - start - 2);
  pango_layout_set_text (self->small, text, -1);
  show_text (self, cr, self->small, &pal->dim_foreground, WS_ALIGNMENT_GUTTER_WIDTH + EDGE_BAR + CELL_PAD,
             y + CELL_INSET, band - EDGE_BAR - 2 * CELL_PAD, WS_ALIGNMENT_ROW_HEIGHT - 2 * CELL_INSET);
}

/* The variant cells of row @r, one per pattern; a gap is a thin line, as
 * the call path goes on through it. */
static void
draw_variant_cells (WsAlignmentRenderer *self,
                    cairo_t             *cr,
                    WsAlignmentGrid     *grid,
                    guint                r,
                    double               y)
{
  const WsAlignmentPalette *pal = &self->palette;
  double cw = ws_alignment_renderer_get_column_width (self, grid);

  for (guint p = 0; p < ws_alignment_grid_get_n_patterns (grid); p++)
    {
      const WsAlignmentCell *c = ws_alignment_grid_get_cell (grid, r, p);
      double x = column_x (self, grid, p);

      if (ws_alignment_cell_is_gap (c))
        fill_rect (cr, &pal->gap, floor (x + cw / 2), y, 1, WS_ALIGNMENT_ROW_HEIGHT);
      else
        draw_cell (self, cr, c, &pal->variant, &pal->variant_edge, x, y, cw);
    }
}

/* The keyboard focus: a dashed ring around the focused cell (the whole
 * band on a common row). */
static void
draw_focus (WsAlignmentRenderer    *self,
            cairo_t                *cr,
            WsAlignmentGrid        *grid,
            const WsAlignmentState *state,
            WsAlignmentRowKind      kind,
            double                  y,
            double                  band)
{
  static const double dash[] = { 3, 2 };
  gboolean common = kind == WS_ALIGNMENT_ROW_COMMON;
  double x = common ? WS_ALIGNMENT_GUTTER_WIDTH : column_x (self, grid, state->focus_pattern);
  double w = common ? band : ws_alignment_renderer_get_column_width (self, grid);

  ws_render_set_source (cr, &self->palette.foreground);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, WS_ALIGNMENT_ROW_HEIGHT - 1);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* Grid row @r at @y: hover, gutter label, cells, mark and focus. */
static void
draw_row (WsAlignmentRenderer    *self,
          cairo_t                *cr,
          WsAlignmentGrid        *grid,
          const WsAlignmentState *state,
          guint                   r,
          double                  y,
          double                  width,
          double                  band)
{
  const WsAlignmentPalette *pal = &self->palette;
  WsAlignmentRowKind kind = ws_alignment_grid_get_row_kind (grid, r);

  if (r == state->hover_row)
    fill_rect (cr, &pal->hover, 0, y, width, WS_ALIGNMENT_ROW_HEIGHT);
  draw_gutter_label (self, cr, grid, r, y);

  if (kind == WS_ALIGNMENT_ROW_COMMON)
    draw_cell (self, cr, ws_alignment_grid_get_cell (grid, r, 0), &pal->common, &pal->common_edge,
               WS_ALIGNMENT_GUTTER_WIDTH, y, band);
  else
    draw_variant_cells (self, cr, grid, r, y);

  if (state->marked != NULL && state->marked[r])
    {
      ws_render_set_source (cr, &pal->marked);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, WS_ALIGNMENT_GUTTER_WIDTH + 1, y + CELL_INSET + 1, band - 2,
                       WS_ALIGNMENT_ROW_HEIGHT - 2 * CELL_INSET - 2);
      cairo_stroke (cr);
    }
  if (r == state->focus_row && state->focus_pattern < ws_alignment_grid_get_n_patterns (grid))
    draw_focus (self, cr, grid, state, kind, y, band);
}

/**
 * ws_alignment_renderer_draw:
 * @state: (nullable): selection, marks and folds, or %NULL for none
 *   (every row shown, as ws_alignment_renderer_measure() counts them)
 * @clip_y0: the first y that needs drawing (rows above are skipped)
 * @clip_y1: the last; pass 0 and G_MAXDOUBLE to draw everything
 *
 * Draws @grid with its top-left corner at the origin of @cr.
 */
void
ws_alignment_renderer_draw (WsAlignmentRenderer    *self,
                            cairo_t                *cr,
                            WsAlignmentGrid        *grid,
                            const WsAlignmentState *state,
                            double                  clip_y0,
                            double                  clip_y1)
{
  WsAlignmentState none;
  const WsAlignmentPalette *pal = &self->palette;
  g_autoptr(GArray) display = NULL;
  double width, height, cw, band;
  guint first, last;

  g_return_if_fail (WS_IS_ALIGNMENT_RENDERER (self));
  g_return_if_fail (cr != NULL);
  g_return_if_fail (grid != NULL);

  if (state == NULL)
    {
      /* As ws_alignment_renderer_get_display() and _measure() take it:
       * every row shown.  An exported figure has no fold to click. */
      ws_alignment_state_init (&none);
      none.fold_common = FALSE;
      state = &none;
    }

  ensure_layouts (self);
  display = ws_alignment_renderer_get_display (self, grid, state);
  ws_alignment_renderer_measure (self, grid, state, &width, &height);
  cw = ws_alignment_renderer_get_column_width (self, grid);
  band = column_x (self, grid, ws_alignment_grid_get_n_patterns (grid) - 1) + cw - WS_ALIGNMENT_GUTTER_WIDTH;

  cairo_save (cr);
  fill_rect (cr, &pal->background, 0, MAX (clip_y0, 0), width, MIN (clip_y1, height) - MAX (clip_y0, 0));

  /* Only rows that meet the clip: a long alignment scrolls. */
  first = clip_y0 > WS_ALIGNMENT_HEADER_HEIGHT
          ? (guint) ((clip_y0 - WS_ALIGNMENT_HEADER_HEIGHT) / WS_ALIGNMENT_ROW_HEIGHT) : 0;
  last = clip_y1 > WS_ALIGNMENT_HEADER_HEIGHT
         ? (guint) MIN ((clip_y1 - WS_ALIGNMENT_HEADER_HEIGHT) / WS_ALIGNMENT_ROW_HEIGHT + 1, display->len)
         : 0;

  for (guint d = first; d < last; d++)
    {
      double y = WS_ALIGNMENT_HEADER_HEIGHT + d * WS_ALIGNMENT_ROW_HEIGHT;
      gint32 v = g_array_index (display, gint32, d);

      if (v < 0)
        draw_fold (self, cr, grid, -1 - v, y, band);
      else
        draw_row (self, cr, grid, state, v, y, width, band);
    }

  /* The selected pattern: a ring around its whole column. */
  if (state->selected_pattern < ws_alignment_grid_get_n_patterns (grid))
    {
      double x = column_x (self, grid, state->selected_pattern);
      ws_render_set_source (cr, &pal->selection);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, x - 2, WS_ALIGNMENT_HEADER_HEIGHT - 1, cw + 4,
                       display->len * WS_ALIGNMENT_ROW_HEIGHT + 3);
      cairo_stroke (cr);
    }

  if (clip_y0 < WS_ALIGNMENT_HEADER_HEIGHT)
    draw_header (self, cr, grid, state, width);
  cairo_restore (cr);
}

typedef struct {
  WsAlignmentRenderer *self;
  WsAlignmentGrid     *grid;
} ExportData;

static void
export_draw (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  ExportData *ex = user_data;

  ws_render_set_source (cr, &ex->self->palette.background);
  cairo_paint (cr);
  cairo_translate (cr, EXPORT_MARGIN, EXPORT_MARGIN);
  ws_alignment_renderer_draw (ex->self, cr, ex->grid, NULL, 0, G_MAXDOUBLE);
}

/**
 * ws_alignment_renderer_export:
 *
 * Writes the whole alignment as a PNG, SVG or PDF figure.
 */
gboolean
ws_alignment_renderer_export (WsAlignmentRenderer  *self,
                              WsAlignmentGrid      *grid,
                              const char           *path,
                              WsExportFormat        format,
                              GError              **error)
{
  ExportData ex = { self, grid };
  double width, height;

  g_return_val_if_fail (WS_IS_ALIGNMENT_RENDERER (self), FALSE);
  g_return_val_if_fail (grid != NULL, FALSE);

  ws_alignment_renderer_measure (self, grid, NULL, &width, &height);
  return ws_export_draw (path, format, width + 2 * EXPORT_MARGIN, height + 2 * EXPORT_MARGIN,
                         export_draw, &ex, error);
}
