/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait graph and the ready tree are drawn with plain Cairo and Pango
 * so that one piece of code serves the widget, PNG/SVG/PDF export and the
 * pixel tests.
 *
 * Cost model: the layout answers "which boxes meet the viewport" in
 * O(layers × log n + answer), edges are culled by their bounding boxes.
 * Zoomed in, a frame draws at most a few hundred boxes with text (laid out
 * once per node and cached: text is laid out at zoom 1 with hinting off and
 * scaled by Cairo, so zooming never re-lays it out).  Zoomed out, when a
 * box is under ~10 px tall, boxes become rectangles batched into one path
 * per colour, edges straight lines in one path, and arrowheads go, so the
 * number of Cairo calls does not grow with the number of nodes.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ws-graph-anomalies.h"
#include "ws-graph-renderer.h"
#include "ws-graph-shapes.h"
#include "ws-render-util.h"
#include "ws-time-format.h"
#include "ws-wake-words.h"

#define TEXT_PAD          10.0
#define FLAT_BOW          36.0
#define ARROW_LENGTH      10.0
#define ARROW_HALF_WIDTH   5.0
#define SIMPLE_BELOW_PX   10.0
#define DOTS_BELOW_PX      2.5
#define EDGES_BELOW_PX     3.0
#define NODE_TINT          0.14
#define LEGEND_ROW        22.0
#define LEGEND_SWATCH_W   34.0
#define LEGEND_SWATCH_H   16.0
#define EXPORT_MARGIN     16.0
#define EXPORT_MAX_PX   8000.0

struct _WsGraphRenderer
{
  GObject           parent_instance;

  WsGraphPalette    palette;
  PangoContext     *context;
  char             *family;
  PangoLayout      *scratch;
  GPtrArray        *labels;        /* PangoLayout per scene node, or NULL */
  GPtrArray        *compact;       /* one-line labels, likewise */
  WsGraphScene     *label_scene;   /* the scene @labels belong to */
  GArray           *visible;       /* guint, scratch */
  GArray           *visible_edges; /* guint, scratch */
  guint8           *grid;          /* draw_nodes_dots(), scratch */
  gsize             grid_size;
  WsGraphDrawStats  stats;
  WsGraphAnomalies *anomalies;     /* (nullable): ws-graph-anomalies.c */
};

G_DEFINE_FINAL_TYPE (WsGraphRenderer, ws_graph_renderer, G_TYPE_OBJECT)

static void
unref_label (gpointer layout)
{
  /* Slots of nodes never drawn stay NULL. */
  if (layout != NULL)
    g_object_unref (layout);
}

static void
clear_labels (WsGraphRenderer *self)
{
  g_ptr_array_set_size (self->labels, 0);
  g_ptr_array_set_size (self->compact, 0);
  g_clear_object (&self->label_scene);
  g_clear_object (&self->scratch);
}

static void
ws_graph_renderer_finalize (GObject *object)
{
  WsGraphRenderer *self = WS_GRAPH_RENDERER (object);

  clear_labels (self);
  g_clear_object (&self->anomalies);
  g_ptr_array_unref (self->labels);
  g_ptr_array_unref (self->compact);
  g_array_unref (self->visible);
  g_array_unref (self->visible_edges);
  g_free (self->grid);
  g_clear_object (&self->context);
  g_free (self->family);

  G_OBJECT_CLASS (ws_graph_renderer_parent_class)->finalize (object);
}

static void
ws_graph_renderer_class_init (WsGraphRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_graph_renderer_finalize;
}

static void
ws_graph_renderer_init (WsGraphRenderer *self)
{
  cairo_font_options_t *options;

  ws_graph_palette_init_light (&self->palette);
  self->labels = g_ptr_array_new_with_free_func (unref_label);
  self->compact = g_ptr_array_new_with_free_func (unref_label);
  self->visible = g_array_new (FALSE, FALSE, sizeof (guint));
  self->visible_edges = g_array_new (FALSE, FALSE, sizeof (guint));
  self->family = g_strdup ("Sans");

  /* Text is laid out once at zoom 1 and scaled by Cairo: without hinting,
   * glyph advances scale linearly, so a label never changes width (and
   * never needs re-laying out) when the user zooms. */
  self->context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (self->context, options);
  cairo_font_options_destroy (options);
}

WsGraphRenderer *
ws_graph_renderer_new (void)
{
  return g_object_new (WS_TYPE_GRAPH_RENDERER, NULL);
}

void
ws_graph_renderer_set_palette (WsGraphRenderer      *self,
                               const WsGraphPalette *palette)
{
  g_return_if_fail (WS_IS_GRAPH_RENDERER (self));
  g_return_if_fail (palette != NULL);

  self->palette = *palette;
}

const WsGraphPalette *
ws_graph_renderer_get_palette (WsGraphRenderer *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_RENDERER (self), NULL);
  return &self->palette;
}

/* The font family of the labels (the desktop's interface font). */
void
ws_graph_renderer_set_font (WsGraphRenderer *self,
                            const char      *family)
{
  g_return_if_fail (WS_IS_GRAPH_RENDERER (self));
  g_return_if_fail (family != NULL);

  if (g_strcmp0 (family, self->family) == 0)
    return;
  g_free (self->family);
  self->family = g_strdup (family);
  clear_labels (self);
}

void
ws_graph_renderer_get_stats (WsGraphRenderer  *self,
                             WsGraphDrawStats *stats)
{
  g_return_if_fail (WS_IS_GRAPH_RENDERER (self));
  g_return_if_fail (stats != NULL);
  *stats = self->stats;
}

/* ------------------------------------------------------------------ */
/* Culling                                                              */

static gboolean
rects_meet (const WsGraphRect *a,
            const WsGraphRect *b)
{
  return a->x <= b->x + b->width && a->x + a->width >= b->x &&
         a->y <= b->y + b->height && a->y + a->height >= b->y;
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */

static PangoLayout *
new_layout (WsGraphRenderer *self,
            double           size_pt,
            gboolean         bold)
{
  PangoLayout *layout = pango_layout_new (self->context);
  PangoFontDescription *font = pango_font_description_new ();

  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, (int) (size_pt * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

static PangoLayout *
node_label (WsGraphRenderer *self,
            WsGraphScene    *scene,
            guint            node,
            double           text_width)
{
  PangoLayout *layout;
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *frame_markup = NULL;
  const char *frame;

  if (self->label_scene != scene)
    {
      clear_labels (self);
      self->label_scene = g_object_ref (scene);
    }
  if (self->labels->len <= node)
    g_ptr_array_set_size (self->labels, ws_graph_scene_get_n_nodes (scene));
  if ((layout = g_ptr_array_index (self->labels, node)) != NULL)
    return layout;

  {
    g_autofree char *raw = ws_graph_scene_dup_title (scene, node);
    title = g_markup_escape_text (raw, -1);
  }
  detail = ws_graph_scene_dup_detail (scene, node);
  frame = ws_graph_scene_get_frame_name (scene, node);
  if (frame)
    {
      /* "sem_post@GLIBC_2.2.5": the symbol version only costs room here. */
      gsize len = frame[0] == '@' ? strlen (frame) : strcspn (frame, "@");
      g_autofree char *escaped = g_markup_escape_text (frame, len);
      frame_markup = g_strdup_printf ("\n<span font_family=\"monospace\" size=\"90%%\" fgalpha=\"72%%\">%s</span>",
                                      escaped);
    }
  {
    g_autofree char *detail_escaped = g_markup_escape_text (detail, -1);
    markup = g_strdup_printf ("<b>%s</b>\n<span fgalpha=\"80%%\">%s</span>%s",
                              title, detail_escaped, frame_markup ? frame_markup : "");
  }

  layout = new_layout (self, 9, FALSE);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_set_width (layout, (int) (MAX (text_width, 10) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_height (layout, -1);   /* one line per paragraph */
  pango_layout_set_spacing (layout, 1 * PANGO_SCALE);
  g_ptr_array_index (self->labels, node) = layout;
  return layout;
}

/* The one-line label of a box seen from afar: the thread's name and the
 * duration ("pylk-w1 25.3 ms"), or what woke the wait; @brief: fewer
 * words for a box too narrow for that (the duration, or the name of a
 * readier).  Slot 2·node holds the long one, 2·node + 1 the brief one. */
static PangoLayout *
compact_label (WsGraphRenderer *self,
               WsGraphScene    *scene,
               guint            node,
               gboolean         brief)
{
  const WsSceneNode *n = ws_graph_scene_get_node (scene, node);
  WsTrace *trace = ws_graph_scene_get_trace (scene);
  guint slot = 2 * node + (brief ? 1 : 0);
  PangoLayout *layout;
  g_autofree char *text = NULL;

  if (self->label_scene != scene)
    {
      clear_labels (self);
      self->label_scene = g_object_ref (scene);
    }
  if (self->compact->len <= slot)
    g_ptr_array_set_size (self->compact, 2 * ws_graph_scene_get_n_nodes (scene));
  if ((layout = g_ptr_array_index (self->compact, slot)) != NULL)
    return layout;

  if ((n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN) &&
      n->thread != WS_NONE && n->thread < ws_trace_get_n_threads (trace))
    {
      g_autofree char *d = ws_format_duration (n->duration);
      const char *name = ws_trace_get_thread (trace, n->thread)->name;

      if (n->flags & WS_SCENE_NODE_FLAG_READIER)
        text = g_strdup (name ? name : "?");
      else if (brief)
        text = g_steal_pointer (&d);
      else
        text = g_strdup_printf ("%s  %s", name ? name : "?", d);
    }
  else if (n->kind == WS_SCENE_NODE_UNKNOWN)
    text = g_strdup ("?");
  else
    text = ws_graph_scene_dup_title (scene, node);

  layout = new_layout (self, WS_GRAPH_COMPACT_FONT_PT, TRUE);
  pango_layout_set_text (layout, text, -1);
  g_ptr_array_index (self->compact, slot) = layout;
  return layout;
}

/* Between the zoom where full labels would be too small to read and the
 * one where boxes become specks, a box carries one line at a fixed size
 * on screen: the long one if it fits, else the brief one, else none
 * (never text too small to read). */
static void
draw_compact_label (WsGraphRenderer       *self,
                    cairo_t               *cr,
                    WsGraphScene          *scene,
                    const WsGraphViewport *vp,
                    guint                  v,
                    const WsGraphRect     *r,
                    gboolean               boxed)
{
  double pad = boxed ? WS_GRAPH_STRIP_WIDTH + 4 : WS_GRAPH_HEX_INSET;
  double room = (r->width - pad - 4) * vp->scale;
  PangoLayout *label;
  int lw, lh;

  if (vp->scale < WS_GRAPH_COMPACT_MIN_SCALE)
    return;
  label = compact_label (self, scene, v, FALSE);
  pango_layout_get_pixel_size (label, &lw, &lh);
  if (lw > room)
    {
      label = compact_label (self, scene, v, TRUE);
      pango_layout_get_pixel_size (label, &lw, &lh);
    }
  if (lw > room || lh > r->height * vp->scale)
    return;

  cairo_save (cr);
  cairo_translate (cr, r->x + pad, r->y + r->height / 2);
  cairo_scale (cr, 1 / vp->scale, 1 / vp->scale);
  ws_render_set_source (cr, &self->palette.foreground);
  cairo_move_to (cr, 0, -lh / 2.0);
  pango_cairo_show_layout (cr, label);
  cairo_restore (cr);
  self->stats.compact_labels++;
}

static PangoLayout *
scratch_layout (WsGraphRenderer *self)
{
  if (self->scratch == NULL)
    self->scratch = new_layout (self, 9, FALSE);
  pango_layout_set_attributes (self->scratch, NULL);
  pango_layout_set_width (self->scratch, -1);
  pango_layout_set_ellipsize (self->scratch, PANGO_ELLIPSIZE_NONE);
  return self->scratch;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

static double
flat_bow (gboolean            lr,
          const WsGraphPoint *p)
{
  double bow = FLAT_BOW + 0.15 * fabs (lr ? p[1].y - p[0].y : p[1].x - p[0].x);
  return MIN (bow, 2 * FLAT_BOW);
}

static void
edge_path (cairo_t       *cr,
           WsGraphLayout *layout,
           guint          edge,
           gboolean       straight)
{
  gboolean lr = ws_graph_layout_get_direction (layout) == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  guint n;
  const WsGraphPoint *p = ws_graph_layout_get_edge_points (layout, edge, &n);

  if (n < 2)
    return;

  cairo_move_to (cr, p[0].x, p[0].y);
  if (ws_graph_layout_get_edge_shape (layout, edge) == WS_GRAPH_EDGE_FLAT)
    {
      /* Out of the far side and back in. */
      double bow = flat_bow (lr, p);
      if (lr)
        cairo_curve_to (cr, p[0].x + bow, p[0].y, p[1].x + bow, p[1].y, p[1].x, p[1].y);
      else
        cairo_curve_to (cr, p[0].x, p[0].y + bow, p[1].x, p[1].y + bow, p[1].x, p[1].y);
      return;
    }

  for (guint k = 1; k < n; k++)
    {
      const WsGraphPoint *a = &p[k - 1], *b = &p[k];

      if (straight)
        cairo_line_to (cr, b->x, b->y);
      else if (lr)
        {
          /* Leave and enter along the layer axis: S-shaped links. */
          double m = (b->x - a->x) / 2;
          cairo_curve_to (cr, a->x + m, a->y, b->x - m, b->y, b->x, b->y);
        }
      else
        {
          double m = (b->y - a->y) / 2;
          cairo_curve_to (cr, a->x, a->y + m, b->x, b->y - m, b->x, b->y);
        }
    }
}

/* Where @edge ends and the direction it arrives in (the tangent of its
 * last curve there). */
static gboolean
edge_tip (WsGraphLayout *layout,
          guint          edge,
          gboolean       straight,
          double        *tip_x,
          double        *tip_y,
          double        *dir_x,
          double        *dir_y)
{
  gboolean lr = ws_graph_layout_get_direction (layout) == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  guint n;
  const WsGraphPoint *p = ws_graph_layout_get_edge_points (layout, edge, &n);
  const WsGraphPoint *a, *b;

  if (n < 2)
    return FALSE;
  a = &p[n - 2];
  b = &p[n - 1];
  *tip_x = b->x;
  *tip_y = b->y;
  if (ws_graph_layout_get_edge_shape (layout, edge) == WS_GRAPH_EDGE_FLAT)
    {
      *dir_x = lr ? -1 : 0;
      *dir_y = lr ? 0 : -1;
    }
  else if (straight)
    {
      *dir_x = b->x - a->x;
      *dir_y = b->y - a->y;
    }
  else
    {
      *dir_x = lr ? b->x - a->x : 0;
      *dir_y = lr ? 0 : b->y - a->y;
    }
  return TRUE;
}

static void
arrow_path (cairo_t *cr,
            double   tip_x,
            double   tip_y,
            double   dir_x,
            double   dir_y,
            double   length)
{
  double norm = hypot (dir_x, dir_y);
  double ux, uy;

  if (norm < 1e-9)
    return;
  ux = dir_x / norm;
  uy = dir_y / norm;
  cairo_move_to (cr, tip_x, tip_y);
  cairo_line_to (cr, tip_x - ux * length - uy * length / 2, tip_y - uy * length + ux * length / 2);
  cairo_line_to (cr, tip_x - ux * length + uy * length / 2, tip_y - uy * length - ux * length / 2);
  cairo_close_path (cr);
}

typedef enum {
  EDGE_NORMAL,
  EDGE_SELECTED,
  EDGE_ANOMALOUS,
} EdgeClass;

static EdgeClass
edge_class (WsGraphScene          *scene,
            guint                  edge,
            const WsGraphViewport *vp)
{
  const WsSceneEdge *e = ws_graph_scene_get_edge (scene, edge);

  if (e->anomalous)
    return EDGE_ANOMALOUS;
  if (vp->selected != WS_NONE && (e->from == vp->selected || e->to == vp->selected))
    return EDGE_SELECTED;
  return EDGE_NORMAL;
}

/* The edges whose bounds meet the visible rectangle (grown by an arrow's
 * length), into self->visible_edges.  When the space between two layers
 * is a couple of pixels, edges are a grey smear that says nothing; only
 * the chain stays. */
static void
collect_visible_edges (WsGraphRenderer       *self,
                       WsGraphScene          *scene,
                       const WsGraphViewport *vp,
                       const WsGraphRect     *visible)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  guint n_edges = ws_graph_scene_get_n_edges (scene);
  gboolean all_edges = TRUE;
  WsGraphRect grown = *visible;
  double pad = ARROW_LENGTH + 4;

  grown.x -= pad;
  grown.y -= pad;
  grown.width += 2 * pad;
  grown.height += 2 * pad;
  if (ws_graph_layout_get_n_layers (layout) > 1)
    {
      double s0, d0, s1;
      ws_graph_layout_get_layer_extent (layout, 0, &s0, &d0);
      ws_graph_layout_get_layer_extent (layout, 1, &s1, NULL);
      all_edges = (s1 - s0 - d0) * vp->scale >= EDGES_BELOW_PX;
    }

  g_array_set_size (self->visible_edges, 0);
  for (guint e = 0; e < n_edges; e++)
    {
      WsGraphRect b;

      if (!all_edges && !ws_graph_scene_get_edge (scene, e)->anomalous)
        continue;
      ws_graph_layout_get_edge_bounds (layout, e, &b);
      if (rects_meet (&b, &grown))
        g_array_append_val (self->visible_edges, e);
    }
  self->stats.edges = self->visible_edges->len;
}

static void
edge_style (WsGraphRenderer       *self,
            EdgeClass              cls,
            const WsGraphViewport *vp,
            double                *width,
            double                *arrow,
            const WsColor        **color)
{
  switch (cls)
    {
    case EDGE_ANOMALOUS:
      *width = MAX (3.5, 2.0 / vp->scale);
      *arrow = ARROW_LENGTH * 1.4;
      *color = &self->palette.anomalous;
      break;
    case EDGE_SELECTED:
      *width = MAX (2.4, 1.5 / vp->scale);
      *arrow = ARROW_LENGTH * 1.2;
      *color = &self->palette.selection;
      break;
    case EDGE_NORMAL:
    default:
      *width = MAX (1.3, 0.8 / vp->scale);
      *arrow = ARROW_LENGTH;
      *color = &self->palette.edge;
      break;
    }
}

/* The visible edges of class @cls: one stroke for the lines, one fill for
 * the arrowheads. */
static void
draw_edge_class (WsGraphRenderer       *self,
                 cairo_t               *cr,
                 WsGraphScene          *scene,
                 const WsGraphViewport *vp,
                 EdgeClass              cls,
                 gboolean               arrows,
                 gboolean               simplified)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  double width, arrow;
  const WsColor *color;
  gboolean any = FALSE;

  edge_style (self, cls, vp, &width, &arrow, &color);
  cairo_new_path (cr);
  for (guint i = 0; i < self->visible_edges->len; i++)
    {
      guint e = g_array_index (self->visible_edges, guint, i);

      if (edge_class (scene, e, vp) != cls)
        continue;
      edge_path (cr, layout, e, simplified);
      any = TRUE;
    }
  if (!any)
    return;
  ws_render_set_source (cr, color);
  cairo_set_line_width (cr, width);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_stroke (cr);
  self->stats.cairo_fills++;

  if (!arrows)
    return;
  for (guint i = 0; i < self->visible_edges->len; i++)
    {
      guint e = g_array_index (self->visible_edges, guint, i);
      double tx, ty, dx, dy;

      if (edge_class (scene, e, vp) == cls &&
          edge_tip (layout, e, simplified, &tx, &ty, &dx, &dy))
        arrow_path (cr, tx, ty, dx, dy, arrow);
    }
  cairo_fill (cr);
  self->stats.cairo_fills++;
}

static void
draw_edges (WsGraphRenderer       *self,
            cairo_t               *cr,
            WsGraphScene          *scene,
            const WsGraphViewport *vp,
            const WsGraphRect     *visible,
            gboolean               simplified)
{
  gboolean arrows = ARROW_LENGTH * vp->scale >= 3;

  collect_visible_edges (self, scene, vp, visible);
  if (simplified)
    cairo_set_antialias (cr, CAIRO_ANTIALIAS_FAST);
  for (EdgeClass cls = EDGE_NORMAL; cls <= EDGE_ANOMALOUS; cls++)
    draw_edge_class (self, cr, scene, vp, cls, arrows, simplified);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* Far out, many boxes share a pixel: paint a grid of device pixels, one
 * colour per pixel (the chain first, then the current match and the
 * selection, then matches, then the box's kind), and fill each colour's
 * runs with one path.  The cost is one pass over the visible nodes and
 * one over the grid's used rows, whatever the number of nodes. */
enum {
  DOT_NONE,
  DOT_RUN, DOT_SLEEP, DOT_DISK, DOT_HARDWARE, DOT_TIMER, DOT_UNKNOWN,
  DOT_MATCH, DOT_SELECTED, DOT_ANOMALOUS,
  N_DOTS
};

/* The dot of node @v: the strongest reason to see it. */
static guint8
node_dot (WsGraphRenderer       *self,
          const WsSceneNode     *n,
          guint                  v,
          const WsGraphViewport *vp,
          const WsColor * const *colors)
{
  const WsColor *c;

  if (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS)
    return DOT_ANOMALOUS;
  if (v == vp->selected || v == vp->current_match)
    return DOT_SELECTED;
  if (vp->matches && vp->matches[v])
    return DOT_MATCH;
  c = ws_graph_palette_node_color (&self->palette, n);
  for (guint k = DOT_RUN; k <= DOT_UNKNOWN; k++)
    if (colors[k] == c)
      return k;
  return DOT_UNKNOWN;
}

/* The used part of the dot grid, in device pixels. */
typedef struct {
  int min_x, max_x, min_y, max_y;
} DotBounds;

static void
mark_node_dots (WsGraphRenderer       *self,
                WsGraphScene          *scene,
                const WsGraphViewport *vp,
                const WsColor * const *colors,
                int                    gw,
                int                    gh,
                DotBounds             *bounds)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  guint8 *grid = self->grid;

  for (guint i = 0; i < self->visible->len; i++)
    {
      guint v = g_array_index (self->visible, guint, i);
      guint8 dot = node_dot (self, ws_graph_scene_get_node (scene, v), v, vp, colors);
      WsGraphRect r;
      double dx0, dy0, dx1, dy1;
      int x0, y0, x1, y1;

      ws_graph_layout_get_node_rect (layout, v, &r);
      ws_graph_viewport_to_device (vp, r.x, r.y, &dx0, &dy0);
      ws_graph_viewport_to_device (vp, r.x + r.width, r.y + r.height, &dx1, &dy1);
      x0 = CLAMP ((int) floor (dx0), 0, gw - 1);
      x1 = CLAMP ((int) floor (dx1), x0, gw - 1);
      y0 = CLAMP ((int) floor (dy0), 0, gh - 1);
      y1 = CLAMP ((int) floor (dy1), y0, gh - 1);
      for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
          if (grid[y * gw + x] < dot)
            grid[y * gw + x] = dot;
      bounds->min_x = MIN (bounds->min_x, x0);
      bounds->max_x = MAX (bounds->max_x, x1);
      bounds->min_y = MIN (bounds->min_y, y0);
      bounds->max_y = MAX (bounds->max_y, y1);
    }
}

/* One path per dot colour: its runs of pixels, row by row. */
static void
fill_dots (WsGraphRenderer       *self,
           cairo_t               *cr,
           guint8                 d,
           const WsColor         *c,
           int                    gw,
           const DotBounds       *b)
{
  const guint8 *grid = self->grid;
  gboolean any = FALSE;

  for (int y = b->min_y; y <= b->max_y; y++)
    for (int x = b->min_x; x <= b->max_x; x++)
      if (grid[y * gw + x] == d)
        {
          int run = x;
          while (run + 1 <= b->max_x && grid[y * gw + run + 1] == d)
            run++;
          cairo_rectangle (cr, x, y, run - x + 1, 1);
          x = run;
          any = TRUE;
        }
  if (any)
    {
      cairo_set_source_rgb (cr, c->red, c->green, c->blue);
      cairo_fill (cr);
      self->stats.cairo_fills++;
    }
}

static void
draw_nodes_dots (WsGraphRenderer       *self,
                 cairo_t               *cr,
                 WsGraphScene          *scene,
                 const WsGraphViewport *vp)
{
  int gw = (int) ceil (vp->width), gh = (int) ceil (vp->height) + 1;
  DotBounds bounds = { gw, -1, gh, -1 };
  const WsColor *colors[N_DOTS] = {
    NULL, &self->palette.run, &self->palette.sleep, &self->palette.disk,
    &self->palette.hardware, &self->palette.timer, &self->palette.unknown,
    &self->palette.search_match, &self->palette.selection, &self->palette.anomalous,
  };
  double hh = vp->show_header ? WS_GRAPH_HEADER_HEIGHT : 0;

  if (gw <= 0 || gh <= 0)
    return;
  if (self->grid_size < (gsize) gw * gh)
    {
      g_free (self->grid);
      self->grid_size = (gsize) gw * gh;
      self->grid = g_malloc (self->grid_size);
    }
  memset (self->grid, 0, (gsize) gw * gh);
  mark_node_dots (self, scene, vp, colors, gw, gh, &bounds);

  /* The grid is in device pixels: draw it so. */
  cairo_save (cr);
  cairo_scale (cr, 1 / vp->scale, 1 / vp->scale);
  cairo_translate (cr, vp->x * vp->scale, vp->y * vp->scale - hh);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (guint d = DOT_RUN; d < N_DOTS; d++)
    fill_dots (self, cr, d, colors[d], gw, &bounds);
  cairo_restore (cr);
  self->stats.nodes = self->visible->len;
}

/* Adds the rectangles of the visible nodes @keep accepts, grown by @grow;
 * returns whether there was any. */
static gboolean
add_node_rects (WsGraphRenderer *self,
                cairo_t         *cr,
                WsGraphScene    *scene,
                gboolean       (*keep) (WsGraphRenderer *, WsGraphScene *, const WsGraphViewport *, guint, gconstpointer),
                const WsGraphViewport *vp,
                gconstpointer    data,
                double           grow)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  gboolean any = FALSE;

  for (guint i = 0; i < self->visible->len; i++)
    {
      guint v = g_array_index (self->visible, guint, i);
      WsGraphRect r;

      if (!keep (self, scene, vp, v, data))
        continue;
      ws_graph_layout_get_node_rect (layout, v, &r);
      cairo_rectangle (cr, r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow);
      any = TRUE;
    }
  return any;
}

static gboolean
is_match (WsGraphRenderer *self, WsGraphScene *scene, const WsGraphViewport *vp, guint v, gconstpointer data)
{
  return vp->matches[v];
}

static gboolean
has_colour (WsGraphRenderer *self, WsGraphScene *scene, const WsGraphViewport *vp, guint v, gconstpointer data)
{
  return ws_graph_palette_node_color (&self->palette, ws_graph_scene_get_node (scene, v)) == data;
}

static gboolean
is_anomalous (WsGraphRenderer *self, WsGraphScene *scene, const WsGraphViewport *vp, guint v, gconstpointer data)
{
  return (ws_graph_scene_get_node (scene, v)->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) != 0;
}

/* A ring @grow outside node @v, if it is in the scene. */
static void
ring_node (cairo_t       *cr,
           WsGraphScene  *scene,
           guint          v,
           double         grow,
           const WsColor *colour,
           double         line_width)
{
  WsGraphRect r;

  if (v == WS_NONE || v >= ws_graph_scene_get_n_nodes (scene))
    return;
  ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), v, &r);
  cairo_rectangle (cr, r.x - grow, r.y - grow, r.width + 2 * grow, r.height + 2 * grow);
  ws_render_set_source (cr, colour);
  cairo_set_line_width (cr, line_width);
  cairo_stroke (cr);
}

static void
draw_nodes_simplified (WsGraphRenderer       *self,
                       cairo_t               *cr,
                       WsGraphScene          *scene,
                       const WsGraphViewport *vp)
{
  const WsColor *colors[] = {
    &self->palette.run, &self->palette.sleep, &self->palette.disk,
    &self->palette.hardware, &self->palette.timer, &self->palette.unknown,
  };
  double halo = 4 / vp->scale;

  cairo_set_antialias (cr, CAIRO_ANTIALIAS_FAST);

  /* Halos first, so that matches stand out even as specks. */
  if (vp->matches && add_node_rects (self, cr, scene, is_match, vp, NULL, halo))
    {
      ws_render_set_source (cr, &self->palette.search_match);
      cairo_fill (cr);
      self->stats.cairo_fills++;
    }
  for (guint c = 0; c < G_N_ELEMENTS (colors); c++)
    if (add_node_rects (self, cr, scene, has_colour, vp, colors[c], 0))
      {
        ws_render_set_source (cr, colors[c]);
        cairo_fill (cr);
        self->stats.cairo_fills++;
      }

  /* The chain and the selection as outlines. */
  if (add_node_rects (self, cr, scene, is_anomalous, vp, NULL, 0))
    {
      ws_render_set_source (cr, &self->palette.anomalous);
      cairo_set_line_width (cr, MAX (3, 2 / vp->scale));
      cairo_stroke (cr);
      self->stats.cairo_fills++;
    }
  ring_node (cr, scene, vp->selected, halo, &self->palette.selection, 2.5 / vp->scale);
  ring_node (cr, scene, vp->current_match, 2 * halo, &self->palette.current_match, 2.5 / vp->scale);

  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
  self->stats.nodes = self->visible->len;
}

/* Halo and current-match ring (behind the body).  They keep their
 * distances from the box in device pixels when zoomed out, so they never
 * merge. */
static void
draw_node_rings (WsGraphRenderer       *self,
                 cairo_t               *cr,
                 const WsGraphViewport *vp,
                 guint                  v,
                 WsSceneNodeKind        kind,
                 const WsGraphRect     *rect)
{
  WsGraphRect r = *rect;

  if (vp->matches && vp->matches[v])
    {
      ws_graph_shape_node (cr, kind, r.x, r.y, r.width, r.height, MAX (6, 5.5 / vp->scale));
      ws_render_set_source (cr, &self->palette.search_match);
      cairo_fill (cr);
    }
  if (v == vp->current_match)
    {
      /* At least 3 device pixels wide, so that it shows when zoomed out. */
      ws_graph_shape_node (cr, kind, r.x, r.y, r.width, r.height, MAX (9, 8 / vp->scale));
      ws_render_set_source (cr, &self->palette.current_match);
      cairo_set_line_width (cr, MAX (3, 3 / vp->scale));
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_stroke (cr);
    }
}

/* The box: tinted body, state strip, outline (red on the chain), and the
 * selection ring. */
static void
draw_node_body (WsGraphRenderer       *self,
                cairo_t               *cr,
                const WsGraphViewport *vp,
                guint                  v,
                const WsSceneNode     *n,
                const WsGraphRect     *rect)
{
  WsGraphRect r = *rect;
  WsSceneNodeKind kind = n->kind;
  const WsColor *color = ws_graph_palette_node_color (&self->palette, n);
  gboolean anomalous = (n->flags & WS_SCENE_NODE_FLAG_ANOMALOUS) != 0;
  gboolean boxed = kind == WS_SCENE_NODE_WAIT || kind == WS_SCENE_NODE_RUN;

  /* Body: the background tinted with the kind's colour, mixed once here
   * rather than composited by two fills. */
  ws_graph_shape_node (cr, kind, r.x, r.y, r.width, r.height, 0);
  {
    const WsColor *bg = &self->palette.background;
    double t = NODE_TINT * color->alpha;

    cairo_set_source_rgb (cr,
                          bg->red * (1 - t) + color->red * t,
                          bg->green * (1 - t) + color->green * t,
                          bg->blue * (1 - t) + color->blue * t);
  }
  cairo_fill_preserve (cr);

  /* A solid strip in the state colour: readable even where the dashes
   * of the outline are not.  Its own path (the box's left end) is much
   * cheaper than clipping. */
  if (boxed)
    {
      cairo_save (cr);
      cairo_new_path (cr);
      ws_graph_shape_left_strip (cr, r.x, r.y, r.height);
      ws_render_set_source (cr, color);
      cairo_fill (cr);
      cairo_restore (cr);
      ws_graph_shape_node (cr, kind, r.x, r.y, r.width, r.height, 0);
    }

  ws_graph_shape_set_dash (cr, kind);
  if (anomalous)
    {
      ws_render_set_source (cr, &self->palette.anomalous);
      cairo_set_line_width (cr, MAX (3.2, 2.5 / vp->scale));
    }
  else
    {
      ws_render_set_source (cr, color);
      cairo_set_line_width (cr, 1.6);
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  if (v == vp->selected)
    {
      ws_graph_shape_node (cr, kind, r.x, r.y, r.width, r.height, MAX (anomalous ? 6 : 4.5, 4 / vp->scale));
      ws_render_set_source (cr, &self->palette.selection);
      cairo_set_line_width (cr, MAX (2.6, 2.5 / vp->scale));
      cairo_stroke (cr);
    }
}

/* The label inside the box (and the "?" of an unknown readier). */
static void
draw_node_text (WsGraphRenderer   *self,
                cairo_t           *cr,
                WsGraphScene      *scene,
                guint              v,
                WsSceneNodeKind    kind,
                gboolean           boxed,
                const WsGraphRect *rect)
{
  WsGraphRect r = *rect;
  double text_x;

  text_x = r.x + (boxed ? WS_GRAPH_STRIP_WIDTH + TEXT_PAD - 2 : WS_GRAPH_HEX_INSET + 2);
  if (kind == WS_SCENE_NODE_UNKNOWN)
    {
      PangoLayout *q = scratch_layout (self);
      PangoFontDescription *font = pango_font_description_from_string ("Sans Bold 18");
      int qw, qh;

      pango_font_description_set_family (font, self->family);
      pango_layout_set_font_description (q, font);
      pango_font_description_free (font);
      pango_layout_set_text (q, "?", -1);
      pango_layout_get_pixel_size (q, &qw, &qh);
      ws_render_set_source (cr, &self->palette.unknown);
      cairo_move_to (cr, r.x + 12, r.y + (r.height - qh) / 2);
      pango_cairo_show_layout (cr, q);
      text_x = r.x + 12 + qw + 8;
    }

  {
    double right = r.x + r.width - (boxed ? TEXT_PAD : WS_GRAPH_HEX_INSET);
    PangoLayout *label = node_label (self, scene, v, right - text_x);
    int lw, lh;

    pango_layout_get_pixel_size (label, &lw, &lh);
    ws_render_set_source (cr, &self->palette.foreground);
    cairo_move_to (cr, text_x, r.y + (r.height - lh) / 2);
    pango_cairo_show_layout (cr, label);
    self->stats.labels++;
  }
}


static void
draw_node (WsGraphRenderer       *self,
           cairo_t               *cr,
           WsGraphScene          *scene,
           const WsGraphViewport *vp,
           guint                  v,
           gboolean               text)
{
  const WsSceneNode *n = ws_graph_scene_get_node (scene, v);
  gboolean boxed = n->kind == WS_SCENE_NODE_WAIT || n->kind == WS_SCENE_NODE_RUN;
  WsGraphRect r;

  ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (scene), v, &r);
  draw_node_rings (self, cr, vp, v, n->kind, &r);
  draw_node_body (self, cr, vp, v, n, &r);
  if (text)
    draw_node_text (self, cr, scene, v, n->kind, boxed, &r);
  else
    draw_compact_label (self, cr, scene, vp, v, &r, boxed);
}

static void
draw_bands (WsGraphRenderer   *self,
            cairo_t           *cr,
            WsGraphLayout     *layout,
            const WsGraphRect *visible)
{
  gboolean lr = ws_graph_layout_get_direction (layout) == WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  guint n_layers = ws_graph_layout_get_n_layers (layout);
  double gap_half = 0;

  if (n_layers > 1)
    {
      double s0, d0, s1;
      ws_graph_layout_get_layer_extent (layout, 0, &s0, &d0);
      ws_graph_layout_get_layer_extent (layout, 1, &s1, NULL);
      gap_half = (s1 - s0 - d0) / 2;
    }

  for (guint l = 1; l < n_layers; l += 2)
    {
      double start, size;

      ws_graph_layout_get_layer_extent (layout, l, &start, &size);
      if (lr)
        cairo_rectangle (cr, start - gap_half, visible->y, size + 2 * gap_half, visible->height);
      else
        cairo_rectangle (cr, visible->x, start - gap_half, visible->width, size + 2 * gap_half);
    }
  ws_render_set_source (cr, &self->palette.band);
  cairo_fill (cr);
}

static void
draw_header (WsGraphRenderer       *self,
             cairo_t               *cr,
             WsGraphScene          *scene,
             const WsGraphViewport *vp)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (scene);
  PangoLayout *text = scratch_layout (self);
  PangoFontDescription *font = pango_font_description_new ();
  guint n_layers = ws_graph_layout_get_n_layers (layout);

  ws_render_set_source (cr, &self->palette.header_background);
  cairo_rectangle (cr, 0, 0, vp->width, WS_GRAPH_HEADER_HEIGHT);
  cairo_fill (cr);
  ws_render_set_source (cr, &self->palette.dim_foreground);
  cairo_rectangle (cr, 0, WS_GRAPH_HEADER_HEIGHT - 1, vp->width, 1);
  cairo_fill (cr);

  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, 9 * PANGO_SCALE);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (text, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);

  for (guint l = 0; l < n_layers; l++)
    {
      g_autofree char *title = ws_graph_scene_dup_layer_title (scene, l);
      double start, size, x0, x1, dummy;
      int tw, th;

      ws_graph_layout_get_layer_extent (layout, l, &start, &size);
      ws_graph_viewport_to_device (vp, start, 0, &x0, &dummy);
      ws_graph_viewport_to_device (vp, start + size, 0, &x1, &dummy);
      if (x1 < 0 || x0 > vp->width)
        continue;
      /* Zoomed far out, a title wider than its column would collide. */
      pango_layout_set_width (text, (int) (MAX (x1 - x0, 1) * PANGO_SCALE));
      pango_layout_set_text (text, title, -1);
      pango_layout_get_pixel_size (text, &tw, &th);
      if (x1 - x0 < 24)
        continue;
      ws_render_set_source (cr, &self->palette.dim_foreground);
      cairo_move_to (cr, x0 + (x1 - x0 - tw) / 2, (WS_GRAPH_HEADER_HEIGHT - th) / 2);
      pango_cairo_show_layout (cr, text);
    }
}

/**
 * ws_graph_renderer_draw:
 * @vp: what to draw, and the selection, the current match and the
 *   matches to show
 *
 * Draws @scene into (0, 0, vp->width, vp->height) of @cr.
 */
void
ws_graph_renderer_draw (WsGraphRenderer       *self,
                        cairo_t               *cr,
                        WsGraphScene          *scene,
                        const WsGraphViewport *vp)
{
  WsGraphLayout *layout;
  WsGraphViewport v;
  WsGraphRect visible;
  gboolean simplified;
  double hh;

  g_return_if_fail (WS_IS_GRAPH_RENDERER (self));
  g_return_if_fail (cr != NULL);
  g_return_if_fail (WS_IS_GRAPH_SCENE (scene));
  g_return_if_fail (vp != NULL && vp->scale > 0);

  layout = ws_graph_scene_get_layout (scene);
  v = *vp;
  if (ws_graph_layout_get_direction (layout) != WS_GRAPH_LAYOUT_LEFT_TO_RIGHT)
    v.show_header = FALSE;
  hh = ws_graph_viewport_get_header_height (&v);
  memset (&self->stats, 0, sizeof self->stats);

  cairo_save (cr);
  ws_render_set_source (cr, &self->palette.background);
  cairo_rectangle (cr, 0, 0, v.width, v.height);
  cairo_fill (cr);

  cairo_save (cr);
  cairo_rectangle (cr, 0, hh, v.width, v.height - hh);
  cairo_clip (cr);
  cairo_translate (cr, 0, hh);
  cairo_scale (cr, v.scale, v.scale);
  cairo_translate (cr, -v.x, -v.y);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  visible.x = v.x;
  visible.y = v.y;
  visible.width = v.width / v.scale;
  visible.height = (v.height - hh) / v.scale;

  draw_bands (self, cr, layout, &visible);

  simplified = WS_SCENE_NODE_HEIGHT * v.scale < SIMPLE_BELOW_PX;
  self->stats.simplified = simplified;
  if (self->anomalies != NULL && ws_graph_anomalies_get_scene (self->anomalies) == scene)
    ws_graph_anomalies_draw_chain (self->anomalies, cr, v.scale);
  draw_edges (self, cr, scene, &v, &visible, simplified);

  g_array_set_size (self->visible, 0);
  ws_graph_layout_query_rect (layout, &visible, self->visible);
  if (WS_SCENE_NODE_HEIGHT * v.scale < DOTS_BELOW_PX)
    draw_nodes_dots (self, cr, scene, &v);
  else if (simplified)
    draw_nodes_simplified (self, cr, scene, &v);
  else
    {
      gboolean text = v.scale >= WS_GRAPH_TEXT_MIN_SCALE;

      for (guint i = 0; i < self->visible->len; i++)
        draw_node (self, cr, scene, &v, g_array_index (self->visible, guint, i), text);
      self->stats.nodes = self->visible->len;
    }
  if (self->anomalies != NULL && ws_graph_anomalies_get_scene (self->anomalies) == scene
      && WS_SCENE_NODE_HEIGHT * v.scale >= DOTS_BELOW_PX)
    ws_graph_anomalies_draw_marks (self->anomalies, cr, v.scale, self->visible);
  cairo_restore (cr);

  if (v.show_header)
    draw_header (self, cr, scene, &v);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------ */
/* Legend and export                                                    */

typedef enum {
  LEGEND_WAIT_S,
  LEGEND_WAIT_D,
  LEGEND_RUN,
  LEGEND_TIMER,
  LEGEND_HARDWARE,
  LEGEND_UNKNOWN,
  LEGEND_EDGE,
  LEGEND_ANOMALOUS,
  LEGEND_MATCH,
  N_LEGEND_ITEMS
} LegendItem;

static const char *
legend_text (LegendItem item)
{
  switch (item)
    {
    case LEGEND_WAIT_S:    return _("Wait, sleeping (S)");
    case LEGEND_WAIT_D:    return _("Wait, uninterruptible (D)");
    case LEGEND_RUN:       return _("Running");
    /* Translators: the ready tree's legend: the glossary's "Timer expired", or a routine wake-up */
    case LEGEND_TIMER:     return _("Timer expired / routine wake-up");
    case LEGEND_HARDWARE:  return ws_wake_word_label (WS_WAKE_WORD_INTERRUPT);
    case LEGEND_UNKNOWN:   return ws_wake_word_label (WS_WAKE_WORD_UNKNOWN);
    case LEGEND_EDGE:      return _("Wait → what readied it");
    case LEGEND_ANOMALOUS: return _("Anomalous chain");
    case LEGEND_MATCH:     return _("Search match");
    case N_LEGEND_ITEMS:
    default:               return "";
    }
}

/* Lays the items out in rows of @width; draws them when @cr is set.
 * Returns the height used. */
/* The swatch of legend item @item, its top left corner at (sx, sy). */
static void
draw_legend_swatch (WsGraphRenderer *self,
                    cairo_t         *cr,
                    LegendItem       item,
                    double           sx,
                    double           sy)
{
  WsSceneNode fake = { 0 };
  const WsColor *c;

  cairo_save (cr);
  switch (item)
    {
    case LEGEND_WAIT_S:
    case LEGEND_WAIT_D:
    case LEGEND_RUN:
    case LEGEND_TIMER:
    case LEGEND_HARDWARE:
    case LEGEND_UNKNOWN:
      fake.kind = item == LEGEND_RUN ? WS_SCENE_NODE_RUN
                : item == LEGEND_TIMER ? WS_SCENE_NODE_TIMER
                : item == LEGEND_HARDWARE ? WS_SCENE_NODE_HARDWARE
                : item == LEGEND_UNKNOWN ? WS_SCENE_NODE_UNKNOWN
                : WS_SCENE_NODE_WAIT;
      fake.flags = item == LEGEND_WAIT_D ? WS_SCENE_NODE_FLAG_DISK : 0;
      c = ws_graph_palette_node_color (&self->palette, &fake);
      if (fake.kind == WS_SCENE_NODE_TIMER || fake.kind == WS_SCENE_NODE_HARDWARE)
        ws_graph_shape_hexagon (cr, sx, sy, LEGEND_SWATCH_W, LEGEND_SWATCH_H);
      else
        ws_graph_shape_rounded_rect (cr, sx, sy, LEGEND_SWATCH_W, LEGEND_SWATCH_H, 4);
      ws_graph_shape_set_color (cr, c, 0.2);
      cairo_fill_preserve (cr);
      ws_graph_shape_set_dash (cr, fake.kind);
      ws_render_set_source (cr, c);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      break;
    case LEGEND_EDGE:
    case LEGEND_ANOMALOUS:
      ws_render_set_source (cr, item == LEGEND_EDGE ? &self->palette.edge : &self->palette.anomalous);
      cairo_set_line_width (cr, item == LEGEND_EDGE ? 1.5 : 3.5);
      cairo_move_to (cr, sx, sy + LEGEND_SWATCH_H / 2);
      cairo_line_to (cr, sx + LEGEND_SWATCH_W - 6, sy + LEGEND_SWATCH_H / 2);
      cairo_stroke (cr);
      arrow_path (cr, sx + LEGEND_SWATCH_W, sy + LEGEND_SWATCH_H / 2, 1, 0, 8);
      cairo_fill (cr);
      break;
    case LEGEND_MATCH:
    case N_LEGEND_ITEMS:
    default:
      ws_graph_shape_rounded_rect (cr, sx, sy, LEGEND_SWATCH_W, LEGEND_SWATCH_H, 4);
      ws_render_set_source (cr, &self->palette.search_match);
      cairo_fill (cr);
      break;
    }
  cairo_restore (cr);
}

static double
legend (WsGraphRenderer *self,
        cairo_t         *cr,
        double           x0,
        double           y0,
        double           width)
{
  PangoLayout *text = scratch_layout (self);
  PangoFontDescription *font = pango_font_description_new ();
  double x = x0, y = y0;

  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, 9 * PANGO_SCALE);
  pango_layout_set_font_description (text, font);
  pango_font_description_free (font);

  for (LegendItem item = 0; item < N_LEGEND_ITEMS; item++)
    {
      int tw, th;
      double item_w;

      pango_layout_set_text (text, legend_text (item), -1);
      pango_layout_get_pixel_size (text, &tw, &th);
      item_w = LEGEND_SWATCH_W + 6 + tw + 18;
      if (x > x0 && x + item_w > x0 + width)
        {
          x = x0;
          y += LEGEND_ROW;
        }

      if (cr)
        {
          draw_legend_swatch (self, cr, item, x, y + (LEGEND_ROW - LEGEND_SWATCH_H) / 2);

          ws_render_set_source (cr, &self->palette.foreground);
          cairo_move_to (cr, x + LEGEND_SWATCH_W + 6, y + (LEGEND_ROW - th) / 2);
          pango_cairo_show_layout (cr, text);
        }
      x += item_w;
    }
  y += LEGEND_ROW;
  if (self->anomalies != NULL)
    y += ws_graph_anomalies_draw_legend (self->anomalies, cr, self->family, &self->palette.foreground, x0, y, width);
  return y - y0;
}

/**
 * ws_graph_renderer_set_anomalies:
 * @anomalies: (nullable): the anomaly layer of the scene drawn (marks,
 *   chain through anomalous waits, legend items); ignored for other scenes
 */
void
ws_graph_renderer_set_anomalies (WsGraphRenderer  *self,
                                 WsGraphAnomalies *anomalies)
{
  g_return_if_fail (WS_IS_GRAPH_RENDERER (self));
  g_set_object (&self->anomalies, anomalies);
}

/* Returns: (transfer none) (nullable): */
WsGraphAnomalies *
ws_graph_renderer_get_anomalies (WsGraphRenderer *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_RENDERER (self), NULL);
  return self->anomalies;
}

double
ws_graph_renderer_measure_legend (WsGraphRenderer *self,
                                  double           width)
{
  g_return_val_if_fail (WS_IS_GRAPH_RENDERER (self), 0);
  return legend (self, NULL, 0, 0, width);
}

/* Returns: the height drawn */
double
ws_graph_renderer_draw_legend (WsGraphRenderer *self,
                               cairo_t         *cr,
                               double           x,
                               double           y,
                               double           width)
{
  g_return_val_if_fail (WS_IS_GRAPH_RENDERER (self), 0);
  g_return_val_if_fail (cr != NULL, 0);
  return legend (self, cr, x, y, width);
}

typedef struct {
  WsGraphRenderer *self;
  WsGraphScene    *scene;
  WsGraphViewport  vp;
  double           title_height;
} GraphExport;

static void
draw_export (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  GraphExport *ex = user_data;
  WsGraphRenderer *self = ex->self;
  g_autofree char *summary = ws_graph_scene_dup_summary (ex->scene);
  PangoLayout *text = scratch_layout (self);
  PangoFontDescription *font = pango_font_description_new ();
  int tw, th;

  ws_render_set_source (cr, &self->palette.background);
  cairo_paint (cr);

  pango_font_description_set_family (font, self->family);
  pango_font_description_set_size (font, 10 * PANGO_SCALE);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (text, font);
  pango_font_description_free (font);
  pango_layout_set_width (text, (int) ((width - 2 * EXPORT_MARGIN) * PANGO_SCALE));
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  pango_layout_set_text (text, summary, -1);
  pango_layout_get_pixel_size (text, &tw, &th);
  ws_render_set_source (cr, &self->palette.foreground);
  cairo_move_to (cr, EXPORT_MARGIN, (ex->title_height - th) / 2);
  pango_cairo_show_layout (cr, text);

  cairo_save (cr);
  cairo_translate (cr, 0, ex->title_height);
  ws_graph_renderer_draw (self, cr, ex->scene, &ex->vp);
  cairo_restore (cr);

  ws_graph_renderer_draw_legend (self, cr, EXPORT_MARGIN,
                                 ex->title_height + ex->vp.height + EXPORT_MARGIN / 2,
                                 width - 2 * EXPORT_MARGIN);
}

/**
 * ws_graph_renderer_export:
 * @state: (nullable): the selection, current match and matches to show
 *   (its zoom and scroll are ignored)
 *
 * Writes the whole scene at zoom 1 (PNG: smaller if it would be over
 * 8000 pixels), with a summary line on top and the legend underneath.
 */
gboolean
ws_graph_renderer_export (WsGraphRenderer        *self,
                          WsGraphScene           *scene,
                          const WsGraphViewport  *state,
                          const char             *path,
                          WsExportFormat          format,
                          GError                **error)
{
  GraphExport ex;
  double bw, bh, width, legend_h;

  g_return_val_if_fail (WS_IS_GRAPH_RENDERER (self), FALSE);
  g_return_val_if_fail (WS_IS_GRAPH_SCENE (scene), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  ws_graph_layout_get_bounds (ws_graph_scene_get_layout (scene), &bw, &bh);

  ex.self = self;
  ex.scene = scene;
  ws_graph_viewport_init (&ex.vp);
  if (state)
    {
      ex.vp.selected = state->selected;
      ex.vp.current_match = state->current_match;
      ex.vp.matches = state->matches;
    }
  if (format == WS_EXPORT_PNG && MAX (bw, bh) > EXPORT_MAX_PX)
    ex.vp.scale = EXPORT_MAX_PX / MAX (bw, bh);
  ex.vp.show_header = ws_graph_layout_get_direction (ws_graph_scene_get_layout (scene)) ==
                      WS_GRAPH_LAYOUT_LEFT_TO_RIGHT;
  width = MAX (bw * ex.vp.scale, 720);
  ex.vp.width = width;
  ex.vp.height = bh * ex.vp.scale + (ex.vp.show_header ? WS_GRAPH_HEADER_HEIGHT : 0);
  /* Centre a graph narrower than the figure. */
  ex.vp.x = -(width - bw * ex.vp.scale) / 2 / ex.vp.scale;
  ex.title_height = 36;
  legend_h = ws_graph_renderer_measure_legend (self, width - 2 * EXPORT_MARGIN);

  return ws_export_draw (path, format, width,
                         ex.title_height + ex.vp.height + legend_h + EXPORT_MARGIN,
                         draw_export, &ex, error);
}
