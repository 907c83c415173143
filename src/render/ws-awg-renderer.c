/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "ws-awg-renderer.h"
#include "ws-export.h"
#include "ws-render-util.h"
#include "ws-time-format.h"

#define BOX_MIN_W  130.0
#define BOX_EXTRA_W 150.0
#define BOX_H       52.0

struct _WsAwgRenderer
{
  GObject        parent_instance;

  WsAwg         *awg;
  WsGraphLayout *layout;
  GArray        *shown;        /* layout node -> AWG node */
  guint32       *slot;         /* AWG node -> layout node, or G_MAXUINT32 */
  guint8        *highlight;    /* per AWG node */
  guint8        *match;        /* per AWG node */
  GArray        *matches;      /* AWG nodes, layout order */
  guint          n_highlighted;
  guint          n_hidden;
  WsTime         c_max;
  double         width;
  double         height;
  PangoContext  *pango;
  WsAwgPalette   palette;
};

G_DEFINE_FINAL_TYPE (WsAwgRenderer, ws_awg_renderer, G_TYPE_OBJECT)

static void
ws_awg_renderer_finalize (GObject *object)
{
  WsAwgRenderer *self = WS_AWG_RENDERER (object);

  g_clear_object (&self->awg);
  g_clear_object (&self->layout);
  g_clear_object (&self->pango);
  g_array_unref (self->shown);
  g_array_unref (self->matches);
  g_free (self->slot);
  g_free (self->highlight);
  g_free (self->match);

  G_OBJECT_CLASS (ws_awg_renderer_parent_class)->finalize (object);
}

static void
ws_awg_renderer_class_init (WsAwgRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_awg_renderer_finalize;
}

static void
ws_awg_renderer_init (WsAwgRenderer *self)
{
  self->shown = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->matches = g_array_new (FALSE, FALSE, sizeof (guint32));
  ws_awg_palette_init_light (&self->palette);
}

/* Pale yellow (cheap) to red (costly) on white, as the graph view's
 * light page. */
void
ws_awg_palette_init_light (WsAwgPalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0xffffff, 1);
  p->text = ws_render_rgb (0x1a1a1a, 1);
  p->frame = ws_render_rgb (0x404040, 1);
  p->edge = ws_render_rgb (0x4d4d4d, 0.7);
  p->highlight = ws_render_rgb (0xd91a1a, 1);
  p->match = ws_render_rgb (0x3366f2, 1);
  p->cheap = ws_render_rgb (0xfff2bf, 1);
  p->costly = ws_render_rgb (0xff5933, 1);
  p->grey_cheap = ws_render_rgb (0xe0e0e0, 1);
  p->grey_costly = ws_render_rgb (0xa1a1a1, 1);
}

/* The dark style's figures (timeline, graph, coverage): the same dark
 * grey page, light text; the ramp runs from a dark brown a cheap node
 * barely stands out with to the red of the light ramp's end, so that
 * "redder is costlier" still holds and white text reads on every box. */
void
ws_awg_palette_init_dark (WsAwgPalette *p)
{
  g_return_if_fail (p != NULL);

  p->background = ws_render_rgb (0x1e1e1e, 1);
  p->text = ws_render_rgb (0xffffff, 0.92);
  p->frame = ws_render_rgb (0xc0bfbc, 1);
  p->edge = ws_render_rgb (0xdeddda, 0.50);
  p->highlight = ws_render_rgb (0xff7b63, 1);
  p->match = ws_render_rgb (0x78aeed, 1);
  p->cheap = ws_render_rgb (0x3d3528, 1);
  p->costly = ws_render_rgb (0xb3261e, 1);
  p->grey_cheap = ws_render_rgb (0x3a3a3a, 1);
  p->grey_costly = ws_render_rgb (0x5e5c64, 1);
}

void
ws_awg_renderer_set_palette (WsAwgRenderer      *self,
                             const WsAwgPalette *palette)
{
  g_return_if_fail (WS_IS_AWG_RENDERER (self));
  g_return_if_fail (palette != NULL);
  self->palette = *palette;
}

const WsAwgPalette *
ws_awg_renderer_get_palette (WsAwgRenderer *self)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), NULL);
  return &self->palette;
}

static int
compare_cost_desc (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsAwgNode *nodes = data;
  WsTime x = nodes[*(const guint32 *) a].c, y = nodes[*(const guint32 *) b].c;
  return x > y ? -1 : x < y;
}

/* Which nodes to draw: all, or the paths to @focus (a pattern's end
 * nodes) and then the costliest with their ancestors, @max_nodes in all
 * (more if the focused paths alone are longer). */
static void
choose_nodes (WsAwgRenderer *self,
              guint          max_nodes,
              const guint32 *focus,
              guint          n_focus)
{
  const WsAwgNode *nodes = ws_awg_get_nodes (self->awg);
  guint n = ws_awg_get_n_nodes (self->awg);
  g_autofree guint8 *keep = g_new0 (guint8, MAX (n, 1));

  if (n <= max_nodes)
    memset (keep, 1, n);
  else
    {
      g_autofree guint32 *order = g_new (guint32, n);
      guint kept = 0;

      for (guint i = 0; i < n_focus; i++)
        for (guint32 x = focus[i]; x < n && !keep[x]; x = nodes[x].parent)
          {
            keep[x] = 1;
            kept++;
          }
      for (guint i = 0; i < n; i++)
        order[i] = i;
      g_qsort_with_data (order, n, sizeof (guint32), compare_cost_desc, (gpointer) nodes);
      for (guint i = 0; i < n && kept < max_nodes; i++)
        for (guint32 x = order[i]; x != G_MAXUINT32 && !keep[x]; x = nodes[x].parent)
          {
            keep[x] = 1;
            kept++;
          }
    }
  for (guint32 i = 0; i < n; i++)
    {
      self->slot[i] = G_MAXUINT32;
      if (keep[i])
        {
          self->slot[i] = self->shown->len;
          g_array_append_val (self->shown, i);
        }
      else
        self->n_hidden++;
      self->c_max = MAX (self->c_max, nodes[i].c);
    }
}

static double
box_width (WsAwgRenderer *self, const WsAwgNode *node)
{
  double share = self->c_max > 0 ? (double) node->c / self->c_max : 0;
  return BOX_MIN_W + BOX_EXTRA_W * sqrt (share);
}

WsAwgRenderer *
ws_awg_renderer_new (WsAwg *awg,
                     guint  max_nodes)
{
  return ws_awg_renderer_new_focused (awg, max_nodes, NULL, 0);
}

/**
 * ws_awg_renderer_new_focused:
 * @leaves: (array length=n_leaves) (nullable): AWG nodes whose root paths
 *   are drawn whatever their cost (a contrast pattern's end nodes)
 *
 * Like ws_awg_renderer_new(), for a figure about @leaves: a report shows
 * few nodes, and a pattern's paths need not be among the costliest.
 */
WsAwgRenderer *
ws_awg_renderer_new_focused (WsAwg         *awg,
                             guint          max_nodes,
                             const guint32 *leaves,
                             guint          n_leaves)
{
  WsAwgRenderer *self;
  const WsAwgNode *nodes;
  WsGraphRect r;

  g_return_val_if_fail (WS_IS_AWG (awg), NULL);

  self = g_object_new (WS_TYPE_AWG_RENDERER, NULL);
  self->awg = g_object_ref (awg);
  self->slot = g_new (guint32, MAX (ws_awg_get_n_nodes (awg), 1));
  self->highlight = g_new0 (guint8, MAX (ws_awg_get_n_nodes (awg), 1));
  self->match = g_new0 (guint8, MAX (ws_awg_get_n_nodes (awg), 1));
  self->pango = ws_render_figure_context_new ();
  choose_nodes (self, MAX (max_nodes, 1), leaves, n_leaves);

  nodes = ws_awg_get_nodes (awg);
  self->layout = ws_graph_layout_new ();
  ws_graph_layout_set_direction (self->layout, WS_GRAPH_LAYOUT_TOP_TO_BOTTOM);
  ws_graph_layout_set_spacing (self->layout, 16, 40, 16);
  for (guint i = 0; i < self->shown->len; i++)
    {
      const WsAwgNode *node = &nodes[g_array_index (self->shown, guint32, i)];
      ws_graph_layout_add_node (self->layout, box_width (self, node), BOX_H, node->depth);
    }
  for (guint i = 0; i < self->shown->len; i++)
    {
      const WsAwgNode *node = &nodes[g_array_index (self->shown, guint32, i)];
      if (node->parent != G_MAXUINT32)
        ws_graph_layout_add_edge (self->layout, self->slot[node->parent], i);
    }
  ws_graph_layout_run (self->layout);
  for (guint i = 0; i < self->shown->len; i++)
    {
      ws_graph_layout_get_node_rect (self->layout, i, &r);
      self->width = MAX (self->width, r.x + r.width + 16);
      self->height = MAX (self->height, r.y + r.height + 16);
    }
  return self;
}

WsAwg *
ws_awg_renderer_get_awg (WsAwgRenderer *self)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), NULL);
  return self->awg;
}

void
ws_awg_renderer_get_size (WsAwgRenderer *self,
                          double        *width,
                          double        *height)
{
  g_return_if_fail (WS_IS_AWG_RENDERER (self));
  *width = MAX (self->width, 1);
  *height = MAX (self->height, 1);
}

guint
ws_awg_renderer_get_n_hidden (WsAwgRenderer *self)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), 0);
  return self->n_hidden;
}

static WsColor
mix (const WsColor *a, const WsColor *b, double t)
{
  return (WsColor) { a->red + (b->red - a->red) * t, a->green + (b->green - a->green) * t,
                     a->blue + (b->blue - a->blue) * t, 1.0 };
}

/* The palette's cheap colour to its costly one (the costliest node). */
static WsColor
cost_colour (WsAwgRenderer *self, const WsAwgNode *node)
{
  double t = self->c_max > 0 ? sqrt ((double) node->c / self->c_max) : 0;

  if (node->kind == WS_AWG_HARDWARE || node->kind == WS_AWG_UNKNOWN)
    return mix (&self->palette.grey_cheap, &self->palette.grey_costly, t);
  return mix (&self->palette.cheap, &self->palette.costly, t);
}

static void
box_path (cairo_t *cr, const WsGraphRect *r, guint kind)
{
  double rad = kind == WS_AWG_RUNNING ? 10 : 2;
  double x = r->x, y = r->y, w = r->width, h = r->height;

  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - rad, y + rad, rad, -G_PI / 2, 0);
  cairo_arc (cr, x + w - rad, y + h - rad, rad, 0, G_PI / 2);
  cairo_arc (cr, x + rad, y + h - rad, rad, G_PI / 2, G_PI);
  cairo_arc (cr, x + rad, y + rad, rad, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_edges (WsAwgRenderer *self, cairo_t *cr)
{
  cairo_set_line_width (cr, 1.2);
  for (guint e = 0; e < ws_graph_layout_get_n_edges (self->layout); e++)
    {
      guint from, to, n_pts = 0;
      const WsGraphPoint *pts = ws_graph_layout_get_edge_points (self->layout, e, &n_pts);
      gboolean hot;

      ws_graph_layout_get_edge_ends (self->layout, e, &from, &to);
      hot = self->highlight[g_array_index (self->shown, guint32, to)];
      ws_render_set_source (cr, hot ? &self->palette.highlight : &self->palette.edge);
      cairo_set_line_width (cr, hot ? 3.0 : 1.2);
      for (guint p = 0; p < n_pts; p++)
        (p == 0 ? cairo_move_to : cairo_line_to) (cr, pts[p].x, pts[p].y);
      cairo_stroke (cr);
    }
}

static void
draw_node (WsAwgRenderer *self, cairo_t *cr, PangoLayout *text, const PangoFontDescription *font, guint i)
{
  guint32 v = g_array_index (self->shown, guint32, i);
  const WsAwgNode *node = ws_awg_get_node (self->awg, v);
  g_autofree char *label = ws_awg_node_label (self->awg, v);
  g_autofree char *cost = ws_format_duration (node->c);
  /* Translators: an aggregated wait graph's node: its total time (the
   * paper's C) and how many times it occurred (N) */
  g_autofree char *line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u time", "%s · %u times",
                                                        (gulong) MIN (node->n, G_MAXUINT)),
                                           cost, (guint) MIN (node->n, G_MAXUINT));
  g_auto(GStrv) parts = g_strsplit (label, "\n", 2);
  WsColor fill = cost_colour (self, node);
  WsGraphRect r;

  ws_graph_layout_get_node_rect (self->layout, i, &r);
  box_path (cr, &r, node->kind);
  ws_render_set_source (cr, &fill);
  cairo_fill_preserve (cr);
  ws_render_set_source (cr, self->highlight[v] ? &self->palette.highlight : &self->palette.frame);
  cairo_set_line_width (cr, self->highlight[v] ? 3.0 : 1.0);
  if (node->kind == WS_AWG_UNKNOWN)
    cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (node->kind == WS_AWG_SERVICED)
    {
      WsGraphRect inner = { r.x + 3, r.y + 3, r.width - 6, r.height - 6 };
      box_path (cr, &inner, node->kind);
      cairo_stroke (cr);
    }
  if (self->match[v])
    {
      WsGraphRect outer = { r.x - 4, r.y - 4, r.width + 8, r.height + 8 };
      ws_render_set_source (cr, &self->palette.match);
      cairo_set_line_width (cr, 2.5);
      box_path (cr, &outer, node->kind);
      cairo_stroke (cr);
    }

  ws_render_set_source (cr, &self->palette.text);
  ws_render_show_label (cr, text, font, parts[0], r.x + 8, r.y + 11, r.width - 16, FALSE, TRUE, FALSE);
  if (parts[1] != NULL)
    ws_render_show_label (cr, text, font, parts[1], r.x + 8, r.y + 26, r.width - 16, FALSE, FALSE, FALSE);
  ws_render_show_label (cr, text, font, line, r.x + 8, r.y + (parts[1] ? 41 : 31), r.width - 16, FALSE, FALSE, FALSE);
}

void
ws_awg_renderer_draw (WsAwgRenderer *self,
                      cairo_t       *cr)
{
  g_autoptr(PangoLayout) text = NULL;
  PangoFontDescription *font;

  g_return_if_fail (WS_IS_AWG_RENDERER (self));

  pango_cairo_update_context (cr, self->pango);
  text = pango_layout_new (self->pango);
  font = pango_font_description_from_string ("Sans 8.5");
  pango_layout_set_font_description (text, font);
  draw_edges (self, cr);
  for (guint i = 0; i < self->shown->len; i++)
    draw_node (self, cr, text, font, i);
  pango_font_description_free (font);
}

void
ws_awg_renderer_set_highlight (WsAwgRenderer *self,
                               const guint32 *leaves,
                               guint          n_leaves)
{
  const WsAwgNode *nodes;
  guint n;

  g_return_if_fail (WS_IS_AWG_RENDERER (self));
  n = ws_awg_get_n_nodes (self->awg);
  nodes = ws_awg_get_nodes (self->awg);
  memset (self->highlight, 0, MAX (n, 1));
  self->n_highlighted = 0;
  for (guint i = 0; i < n_leaves; i++)
    for (guint32 x = leaves[i]; x < n && !self->highlight[x]; x = nodes[x].parent)
      {
        self->highlight[x] = 1;
        self->n_highlighted++;
      }
}

guint
ws_awg_renderer_get_n_highlighted (WsAwgRenderer *self)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), 0);
  return self->n_highlighted;
}

guint
ws_awg_renderer_set_search (WsAwgRenderer *self,
                            GRegex        *regex)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), 0);

  memset (self->match, 0, MAX (ws_awg_get_n_nodes (self->awg), 1));
  g_array_set_size (self->matches, 0);
  if (regex == NULL)
    return 0;
  for (guint i = 0; i < self->shown->len; i++)
    {
      guint32 v = g_array_index (self->shown, guint32, i);
      g_autofree char *label = ws_awg_node_label (self->awg, v);

      if (g_regex_match (regex, label, 0, NULL))
        {
          self->match[v] = 1;
          g_array_append_val (self->matches, v);
        }
    }
  return self->matches->len;
}

guint
ws_awg_renderer_get_match (WsAwgRenderer *self,
                           guint          i)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), G_MAXUINT32);
  return i < self->matches->len ? g_array_index (self->matches, guint32, i) : G_MAXUINT32;
}

guint
ws_awg_renderer_node_at (WsAwgRenderer *self,
                         double         x,
                         double         y)
{
  WsGraphRect r;

  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), G_MAXUINT32);
  for (guint i = 0; i < self->shown->len; i++)
    {
      ws_graph_layout_get_node_rect (self->layout, i, &r);
      if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height)
        return g_array_index (self->shown, guint32, i);
    }
  return G_MAXUINT32;
}

gboolean
ws_awg_renderer_get_node_rect (WsAwgRenderer *self,
                               guint          awg_node,
                               WsGraphRect   *rect)
{
  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), FALSE);
  if (awg_node >= ws_awg_get_n_nodes (self->awg) || self->slot[awg_node] == G_MAXUINT32)
    return FALSE;
  ws_graph_layout_get_node_rect (self->layout, self->slot[awg_node], rect);
  return TRUE;
}

static void
export_draw (cairo_t *cr, double width, double height, gpointer data)
{
  ws_render_set_source (cr, &WS_AWG_RENDERER (data)->palette.background);
  cairo_paint (cr);
  ws_awg_renderer_draw (data, cr);
}

gboolean
ws_awg_renderer_export (WsAwgRenderer *self,
                        const char    *path,
                        GError       **error)
{
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_AWG_RENDERER (self), FALSE);
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Unknown figure format “%s”: use .png, .svg or .pdf"), path);
      return FALSE;
    }
  return ws_export_draw (path, format, MAX (self->width, 1), MAX (self->height, 1), export_draw, self, error);
}
