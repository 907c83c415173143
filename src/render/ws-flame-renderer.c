/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One walk lays the frames out (ws_flame_walk(): which frames are visible,
 * where, in which colour, with which label) and two back ends draw what it
 * yields: Cairo for the screen, PNG and PDF, and a plain SVG writer
 * (ws-flame-svg.c) whose frames are <rect>, <text> and <title> elements,
 * so that an SVG names its frames as flamegraph.pl's do.  Frames narrower
 * than a pixel are not drawn one by one, nor is their subtree (their
 * children are narrower still): a run of them side by side is drawn as
 * one grey box of their summed width, so the graph keeps its shape, and
 * this is what keeps 100,000 stacks in a frame's time budget.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "ws-flame-renderer-private.h"
#include "ws-render-util.h"
#include "ws-time-format.h"

#define ROW_HEIGHT 18.0
#define MIN_WIDTH 1.0
#define LABEL_PAD 3.0

#define MAX_CACHED_LABELS 8192

static void init_palette (void);

struct _WsFlameRenderer {
  PangoContext         *context;
  PangoLayout          *layout;
  PangoFontDescription *font;
  double                char_width;
  GHashTable           *labels;     /* text -> PangoLayout, shaped once */
  guint                 serial;     /* the context's, when they were shaped */
};

void
ws_flame_view_init (WsFlameView *view)
{
  g_return_if_fail (view != NULL);
  memset (view, 0, sizeof *view);
  view->zoom = WS_FLAME_ROOT;
  view->selected = WS_FLAME_NO_NODE;
}

WsFlameRenderer *
ws_flame_renderer_new (void)
{
  WsFlameRenderer *self = g_new0 (WsFlameRenderer, 1);
  int w, h;

  self->context = ws_render_label_context_new ();
  self->layout = pango_layout_new (self->context);
  self->font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (self->layout, self->font);
  ws_render_measure_text (self->layout, "abcdefghijklmnopqrstuvwxyz_ABCDEFGH", &w, &h);
  self->char_width = MAX (w / 35.0, 3.0);
  self->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  init_palette ();
  return self;
}

void
ws_flame_renderer_free (WsFlameRenderer *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->labels);
  g_object_unref (self->layout);
  g_object_unref (self->context);
  pango_font_description_free (self->font);
  g_free (self);
}

double
ws_flame_renderer_row_height (WsFlameRenderer *self)
{
  return ROW_HEIGHT;
}

/* The height every row of @tree needs. */
double
ws_flame_renderer_graph_height (WsFlameRenderer *self,
                                WsFlameTree     *tree)
{
  return (ws_flame_tree_get_max_depth (tree) + 1) * ROW_HEIGHT;
}

double
ws_flame_char_width (WsFlameRenderer *self)
{
  return self->char_width;
}

/* FNV-1a: the same name gets the same colour in every render. */
static guint32
name_hash (const char *name)
{
  guint32 h = 2166136261u;

  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

/*
 * The palette: 64 warm colours (flamegraph.pl's "hot" formula) picked by a
 * hash of the frame's name, 32 blue ones for the waker's part of an
 * off-wake stack, grey for the root and the "--" separator, a darker grey
 * for runs of frames narrower than a pixel, magenta for search matches.
 * A small fixed palette lets the Cairo back end fill every box of one
 * colour as one path: 100 fills a frame instead of 10,000.
 */
#define N_WARM 64
#define N_WAKER 32
#define N_SHADES 16
enum { PALETTE_GREY = N_WARM + N_WAKER, PALETTE_NARROW, PALETTE_MATCH, PALETTE_SAME,
       PALETTE_GREW, PALETTE_SHRANK = PALETTE_GREW + N_SHADES, N_PALETTE = PALETTE_SHRANK + N_SHADES };

static WsColor palette[N_PALETTE];

static void
init_palette (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  for (guint i = 0; i < N_WARM + N_WAKER; i++)
    {
      guint32 h = name_hash (i < N_WARM ? "warm" : "waker") ^ (i * 2654435761u);
      double v1, v2, v3;

      h = (h ^ (h >> 15)) * 2246822519u;
      h ^= h >> 13;
      v1 = (h & 0xff) / 255.0, v2 = ((h >> 8) & 0xff) / 255.0, v3 = ((h >> 16) & 0xff) / 255.0;
      palette[i] = i < N_WARM ? (WsColor) { (205 + 50 * v3) / 255.0, (230 * v1) / 255.0, (55 * v2) / 255.0, 1 }
                              : (WsColor) { (80 + 60 * v1) / 255.0, (80 + 60 * v1) / 255.0, (190 + 55 * v2) / 255.0, 1 };
    }
  palette[PALETTE_GREY] = (WsColor) { 0.78, 0.78, 0.78, 1 };
  palette[PALETTE_NARROW] = (WsColor) { 0.72, 0.70, 0.66, 1 };
  palette[PALETTE_MATCH] = (WsColor) { 230 / 255.0, 0, 230 / 255.0, 1 };
  /* Differential: white for no change, to full red (grew) or blue (shrank). */
  palette[PALETTE_SAME] = (WsColor) { 0.96, 0.96, 0.96, 1 };
  for (guint k = 0; k < N_SHADES; k++)
    {
      double t = (k + 1.0) / N_SHADES, light = 0.96 - 0.76 * t;
      palette[PALETTE_GREW + k] = (WsColor) { 0.96 - 0.1 * t, light, light, 1 };
      palette[PALETTE_SHRANK + k] = (WsColor) { light, light, 0.96 - 0.1 * t, 1 };
    }
  g_once_init_leave (&done, 1);
}

static guint
frame_palette (const char *name,
               gboolean    waker,
               gboolean    matched)
{
  if (matched)
    return PALETTE_MATCH;
  if (strcmp (name, "--") == 0 || strcmp (name, "all") == 0)
    return PALETTE_GREY;
  return waker ? N_WARM + name_hash (name) % N_WAKER : name_hash (name) % N_WARM;
}

/* Draws @tree as a differential graph of @diff (NULL: an ordinary one). */
void
ws_flame_view_set_diff (WsFlameView  *view,
                        WsFlameTree  *tree,
                        const double *diff)
{
  g_return_if_fail (view != NULL);

  view->diff = diff;
  view->diff_max = 0;
  for (guint i = 1; diff != NULL && i < ws_flame_tree_get_n_nodes (tree); i++)
    view->diff_max = MAX (view->diff_max, fabs (diff[i]));
}

static guint
diff_palette (const WsFlameView *view,
              guint              index)
{
  double d = view->diff[index];
  guint k;

  if (view->diff_max <= 0 || d == 0)
    return PALETTE_SAME;
  k = MIN ((guint) (fabs (d) / view->diff_max * N_SHADES), N_SHADES - 1);
  return (d > 0 ? PALETTE_GREW : PALETTE_SHRANK) + k;
}

/* The label that fits @width: the name, or its start and "…", or nothing. */
static gboolean
fit_label (double      char_width,
           const char *name,
           double      width,
           GString    *out)
{
  glong max_chars = (glong) ((width - 2 * LABEL_PAD) / char_width);
  glong n = g_utf8_strlen (name, -1);

  g_string_truncate (out, 0);
  if (max_chars < 3)
    return FALSE;
  if (n <= max_chars)
    g_string_append (out, name);
  else
    {
      const char *cut = g_utf8_offset_to_pointer (name, max_chars - 1);
      g_string_append_len (out, name, cut - name);
      g_string_append (out, "…");
    }
  return TRUE;
}

static double
row_y (const WsFlameView *view,
       double             height,
       guint              depth)
{
  return view->icicle ? depth * ROW_HEIGHT : height - (depth + 1) * ROW_HEIGHT;
}

typedef struct {
  WsFlameRenderer   *renderer;
  WsFlameTree       *tree;
  const WsFlameView *view;
  double             width;
  double             height;
  double             clip_top;
  double             clip_bottom;
  WsFlameBoxFunc     func;
  gpointer           data;
  GString           *label;
} Walk;

static void
emit (Walk    *w,
      guint    index,
      double   x,
      double   box_width,
      gboolean waker)
{
  const WsFlameNode *n = ws_flame_tree_get_node (w->tree, index);
  WsFlameBox box;

  box.node = index;
  box.x = x;
  box.y = row_y (w->view, w->height, n->depth);
  box.width = box_width;
  box.height = ROW_HEIGHT - 1;
  if (w->view->diff != NULL && !(w->view->matched != NULL && w->view->matched[index]))
    box.palette = diff_palette (w->view, index);
  else
    box.palette = frame_palette (n->name, waker, w->view->matched != NULL && w->view->matched[index]);
  box.color = palette[box.palette];
  box.label = fit_label (w->renderer->char_width, n->name, box_width, w->label) ? w->label->str : NULL;
  if (box.y + ROW_HEIGHT >= w->clip_top && box.y <= w->clip_bottom)
    w->func (&box, w->data);
}

static void
emit_narrow_run (Walk   *w,
                 guint   depth,
                 double  x,
                 double  width)
{
  WsFlameBox box = { WS_FLAME_NO_NODE, x, row_y (w->view, w->height, depth), width, ROW_HEIGHT - 1,
                     palette[PALETTE_NARROW], PALETTE_NARROW, NULL };

  if (width >= MIN_WIDTH && box.y + ROW_HEIGHT >= w->clip_top && box.y <= w->clip_bottom)
    w->func (&box, w->data);
}

/* Below the zoomed frame: each child placed by its weight. */
static void
walk_below (Walk    *w,
            guint    index,
            double   x,
            double   scale,
            gboolean waker)
{
  const WsFlameNode *n = ws_flame_tree_get_node (w->tree, index);
  double y;

  if (n->n_children == 0)
    return;
  y = row_y (w->view, w->height, n->depth + 1);
  /* Deeper rows lie further out: stop once past the clip. */
  if ((w->view->icicle && y > w->clip_bottom) || (!w->view->icicle && y + ROW_HEIGHT < w->clip_top))
    return;
  double run_x = 0, run_w = 0;   /* narrow children side by side */

  for (guint c = n->first_child; c < n->first_child + n->n_children; c++)
    {
      const WsFlameNode *child = ws_flame_tree_get_node (w->tree, c);
      double cw = child->total * scale;
      double cx = x + (child->start - n->start) * scale;
      gboolean child_waker = waker || strcmp (n->name, "--") == 0;

      if (cw < MIN_WIDTH)
        {
          if (run_w == 0)
            run_x = cx;
          run_w = cx + cw - run_x;
          continue;
        }
      emit_narrow_run (w, n->depth + 1, run_x, run_w);
      run_w = 0;
      emit (w, c, cx, cw, child_waker);
      walk_below (w, c, cx, scale, child_waker);
    }
  emit_narrow_run (w, n->depth + 1, run_x, run_w);
}

/**
 * ws_flame_walk:
 * @func: (scope call): called for every visible frame, ancestors of the
 *   zoomed frame first (full width), then the zoomed frame and its subtree
 * @clip_top, @clip_bottom: rows wholly outside are not yielded
 *
 * The layout both back ends draw.
 */
void
ws_flame_walk (WsFlameRenderer   *self,
               WsFlameTree       *tree,
               const WsFlameView *view,
               double             width,
               double             height,
               double             clip_top,
               double             clip_bottom,
               WsFlameBoxFunc     func,
               gpointer           data)
{
  g_autoptr(GString) label = g_string_new (NULL);
  Walk w = { self, tree, view, width, height, clip_top, clip_bottom, func, data, label };
  guint zoom = view->zoom < ws_flame_tree_get_n_nodes (tree) ? view->zoom : WS_FLAME_ROOT;
  const WsFlameNode *z = ws_flame_tree_get_node (tree, zoom);
  g_autofree guint *chain = g_new (guint, z->depth + 1);
  gboolean waker = FALSE;

  /* The zoomed frame and its ancestors span the whole width. */
  for (guint i = zoom, k = z->depth + 1; k-- > 0; i = ws_flame_tree_get_node (tree, i)->parent)
    chain[k] = i;
  for (guint k = 0; k <= z->depth; k++)
    {
      emit (&w, chain[k], 0, width, waker);
      if (strcmp (ws_flame_tree_get_node (tree, chain[k])->name, "--") == 0)
        waker = TRUE;
    }
  if (z->total > 0)
    walk_below (&w, zoom, 0, width / (double) z->total, waker);
}

/* Shaping a label costs more than drawing it: the labels of the frames
 * drawn are shaped once and kept (up to MAX_CACHED_LABELS, then the cache
 * starts again), so that a redraw, a hover or a scroll only draws glyphs. */
static PangoLayout *
label_layout (WsFlameRenderer *self,
              const char      *text)
{
  PangoLayout *layout = g_hash_table_lookup (self->labels, text);

  if (layout != NULL)
    return layout;
  if (g_hash_table_size (self->labels) >= MAX_CACHED_LABELS)
    g_hash_table_remove_all (self->labels);
  layout = pango_layout_new (self->context);
  pango_layout_set_font_description (layout, self->font);
  pango_layout_set_text (layout, text, -1);
  g_hash_table_insert (self->labels, g_strdup (text), layout);
  return layout;
}

typedef struct {
  double       x;
  double       y;
  PangoLayout *layout;   /* a reference */
} Label;

typedef struct {
  WsFlameRenderer *renderer;
  cairo_t         *cr;
  WsColor          text;
  guint            selected;
  cairo_rectangle_t selected_rect;
  gboolean         has_selected;
  GArray          *boxes[N_PALETTE];   /* cairo_rectangle_t, per colour */
  GArray          *labels;             /* Label, drawn over the boxes */
} CairoDraw;

/* Collected, then drawn colour by colour (boxes never overlap). */
static void
draw_box (const WsFlameBox *box,
          gpointer          data)
{
  CairoDraw *d = data;
  cairo_rectangle_t r = { box->x, box->y, MAX (box->width - 0.5, 0.3), box->height };

  g_array_append_val (d->boxes[box->palette], r);
  if (box->label != NULL)
    {
      Label l = { box->x + LABEL_PAD, box->y + 2, g_object_ref (label_layout (d->renderer, box->label)) };
      g_array_append_val (d->labels, l);
    }
  if (box->node == d->selected)
    {
      d->selected_rect = (cairo_rectangle_t) { box->x, box->y, box->width, box->height };
      d->has_selected = TRUE;
    }
}

/**
 * ws_flame_renderer_draw:
 *
 * Draws @tree into (0, 0, @width, @height) of @cr, culled to the clip.
 */
void
ws_flame_renderer_draw (WsFlameRenderer   *self,
                        cairo_t           *cr,
                        WsFlameTree       *tree,
                        const WsFlameView *view,
                        double             width,
                        double             height)
{
  CairoDraw d = { self, cr, { 0.1, 0.1, 0.1, 1 }, view->selected, { 0 }, FALSE };
  double x1, y1, x2, y2;

  g_return_if_fail (self != NULL && cr != NULL && tree != NULL && view != NULL);

  cairo_save (cr);
  /* Axis-aligned boxes: no antialiasing (several times faster in pixman,
   * and crisp edges); text keeps its own. */
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_clip_extents (cr, &x1, &y1, &x2, &y2);
  /* A target with other font options (screen, PDF) reshapes the labels. */
  pango_cairo_update_context (cr, self->context);
  if (pango_context_get_serial (self->context) != self->serial)
    {
      g_hash_table_remove_all (self->labels);
      self->serial = pango_context_get_serial (self->context);
    }
  for (guint i = 0; i < N_PALETTE; i++)
    d.boxes[i] = g_array_new (FALSE, FALSE, sizeof (cairo_rectangle_t));
  d.labels = g_array_new (FALSE, FALSE, sizeof (Label));
  ws_flame_walk (self, tree, view, width, height, y1, y2, draw_box, &d);
  for (guint i = 0; i < N_PALETTE; i++)
    {
      for (guint k = 0; k < d.boxes[i]->len; k++)
        {
          const cairo_rectangle_t *r = &g_array_index (d.boxes[i], cairo_rectangle_t, k);
          cairo_rectangle (cr, r->x, r->y, r->width, r->height);
        }
      if (d.boxes[i]->len > 0)
        {
          ws_render_set_source (cr, &palette[i]);
          cairo_fill (cr);
        }
      g_array_unref (d.boxes[i]);
    }
  ws_render_set_source (cr, &d.text);
  for (guint k = 0; k < d.labels->len; k++)
    {
      Label *l = &g_array_index (d.labels, Label, k);
      cairo_move_to (cr, l->x, l->y);
      pango_cairo_show_layout (cr, l->layout);
      g_object_unref (l->layout);
    }
  g_array_unref (d.labels);
  if (d.has_selected)
    {
      cairo_rectangle (cr, d.selected_rect.x + 1, d.selected_rect.y + 1,
                       MAX (d.selected_rect.width - 2.5, 1), d.selected_rect.height - 2);
      cairo_set_source_rgb (cr, view->dark ? 1 : 0, view->dark ? 1 : 0, view->dark ? 1 : 0);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

typedef struct {
  guint             node;
  cairo_rectangle_t rect;
  gboolean          found;
  double            x, y;
  gboolean          by_point;
} Find;

static void
find_box (const WsFlameBox *box,
          gpointer          data)
{
  Find *f = data;

  if (box->node == WS_FLAME_NO_NODE)
    return;
  if (f->by_point ? (f->x >= box->x && f->x < box->x + box->width && f->y >= box->y && f->y < box->y + box->height + 1)
                  : box->node == f->node)
    {
      f->node = box->node;
      f->rect = (cairo_rectangle_t) { box->x, box->y, box->width, box->height };
      f->found = TRUE;
    }
}

/**
 * ws_flame_renderer_node_rect:
 * @rect: (out): where @node is drawn
 *
 * Returns: %FALSE if @node is not drawn in this view (too narrow, or not
 *   under the zoomed frame)
 */
gboolean
ws_flame_renderer_node_rect (WsFlameRenderer   *self,
                             WsFlameTree       *tree,
                             const WsFlameView *view,
                             double             width,
                             double             height,
                             guint              node,
                             cairo_rectangle_t *rect)
{
  Find f = { node, { 0 }, FALSE, 0, 0, FALSE };

  ws_flame_walk (self, tree, view, width, height, -G_MAXDOUBLE, G_MAXDOUBLE, find_box, &f);
  if (f.found && rect != NULL)
    *rect = f.rect;
  return f.found;
}

/* The frame drawn at (@x, @y), or %WS_FLAME_NO_NODE. */
guint
ws_flame_renderer_hit (WsFlameRenderer   *self,
                       WsFlameTree       *tree,
                       const WsFlameView *view,
                       double             width,
                       double             height,
                       double             x,
                       double             y)
{
  Find f = { WS_FLAME_NO_NODE, { 0 }, FALSE, x, y, TRUE };

  ws_flame_walk (self, tree, view, width, height, y - ROW_HEIGHT, y + ROW_HEIGHT, find_box, &f);
  return f.found ? f.node : WS_FLAME_NO_NODE;
}

/**
 * ws_flame_format_weight:
 *
 * Returns: (transfer full): @weight in the graph's unit: a duration, or
 *   a count of the sample event's periods
 */
char *
ws_flame_format_weight (const WsFlameGraph *graph,
                        guint64             weight)
{
  if (graph->unit == WS_FLAME_UNIT_NS)
    return ws_format_duration ((WsTime) MIN (weight, (guint64) G_MAXINT64));
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, weight);

    /* TRANSLATORS: a weight in sample periods, e.g. "123456 cycles" */
    return g_strdup_printf (_("%s %s"), count, graph->event ? graph->event : _("samples"));
  }
}

/**
 * ws_flame_describe_node:
 *
 * Returns: (transfer full): the frame, its total and self weight and its
 *   share of the graph: a tooltip's or a screen reader's text
 */
char *
ws_flame_describe_node (const WsFlameGraph *graph,
                        guint               node)
{
  const WsFlameNode *n = ws_flame_tree_get_node (graph->tree, node);
  guint64 all = ws_flame_tree_get_total (graph->tree);
  g_autofree char *total = ws_flame_format_weight (graph, n->total);
  g_autofree char *self = ws_flame_format_weight (graph, n->self);

  return g_strdup_printf (_("%s\nTotal: %s (%.2f %% of all)\nSelf: %s"), n->name, total,
                          all > 0 ? 100.0 * n->total / all : 0.0, self);
}

/**
 * ws_flame_describe_change:
 * @change: a node's difference in a differential graph
 *
 * Returns: (transfer full): "Change: +12.5 ms" (or "−", or "none")
 */
char *
ws_flame_describe_change (const WsFlameGraph *graph,
                          double              change)
{
  g_autofree char *amount = ws_flame_format_weight (graph, (guint64) llround (fabs (change)));

  if (llround (change) == 0)
    return g_strdup (_("Change: none"));
  /* TRANSLATORS: a frame's difference against the base, e.g. "Change: +12.5 ms" */
  return g_strdup_printf (_("Change: %s%s"), change > 0 ? "+" : "−", amount);
}

/**
 * ws_flame_graph_title:
 * @trace_name: (nullable): the trace's name
 *
 * Returns: (transfer full): "On-CPU flame graph — NAME, TOTAL"
 */
char *
ws_flame_graph_title (const WsFlameGraph *graph,
                      const char         *trace_name)
{
  g_autofree char *total = ws_flame_format_weight (graph, ws_flame_tree_get_total (graph->tree));

  /* TRANSLATORS: mode, trace name, total weight: "Off-CPU flame graph — pg-tpcb, 1.2 s" */
  return g_strdup_printf (_("%s flame graph — %s, %s"), _(ws_flame_mode_get_info (graph->mode)->label),
                          trace_name ? trace_name : "", total);
}
