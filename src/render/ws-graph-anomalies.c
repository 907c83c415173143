/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The anomaly layer of the wait graph and the ready tree (see the
 * header): per node the verdict of its wait, and the chain through
 * anomalous waits.  Kept out of ws-graph-renderer.c, which only calls the
 * three drawing functions when a layer is set.
 *
 * The chain: edges go from a wait to what readied it, always to a later
 * layer (generation or depth) for the edges the chain may use, so the
 * number of anomalous waits on the best path from each node is one pass
 * over the nodes from the last layer back (best[v] = anomalous(v) +
 * max best over its successors).  The chain starts at the node of layer 0
 * with the highest count (the root first on a tie) and follows the
 * successor with the highest count, ending at its last anomalous wait.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "ws-graph-anomalies.h"
#include "ws-render-util.h"
#include "ws-time-format.h"

/* Okabe–Ito: distinguishable under protanopia, deuteranopia, tritanopia. */
#define COLOUR_ANOMALOUS 0xd55e00   /* vermillion */
#define COLOUR_NORMAL    0x009e73   /* bluish green */
#define COLOUR_CHAIN     0xcc79a7   /* reddish purple */
#define COLOUR_PENNANT   0x000000

#define BADGE_SIZE       24.0       /* layout units at zoom 1 */
#define BADGE_MIN_PX     14.0       /* never smaller on screen */
#define LEGEND_ROW       22.0
#define LEGEND_SWATCH    16.0

struct _WsGraphAnomalies
{
  GObject          parent_instance;

  WsGraphScene    *scene;
  WsAnomalyResult *result;
  guint            trace;
  guint8          *marks;       /* WsGraphMark per scene node */
  GArray          *chain;       /* guint: scene nodes, from the symptom */
  guint8          *chain_edges; /* per scene edge */
  guint            n_anomalous;
  guint            n_marked;
};

G_DEFINE_FINAL_TYPE (WsGraphAnomalies, ws_graph_anomalies, G_TYPE_OBJECT)

static void
ws_graph_anomalies_finalize (GObject *object)
{
  WsGraphAnomalies *self = WS_GRAPH_ANOMALIES (object);

  g_clear_object (&self->scene);
  g_clear_object (&self->result);
  g_free (self->marks);
  g_free (self->chain_edges);
  g_array_unref (self->chain);

  G_OBJECT_CLASS (ws_graph_anomalies_parent_class)->finalize (object);
}

static void
ws_graph_anomalies_class_init (WsGraphAnomaliesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_graph_anomalies_finalize;
}

static void
ws_graph_anomalies_init (WsGraphAnomalies *self)
{
  self->chain = g_array_new (FALSE, FALSE, sizeof (guint));
}

/* The score of a scene node's own wait (not a readier stand-in). */
static const WsWaitScore *
node_score (WsGraphAnomalies *self,
            guint             node)
{
  const WsSceneNode *n = ws_graph_scene_get_node (self->scene, node);

  if (n->kind != WS_SCENE_NODE_WAIT || n->event == WS_NONE || (n->flags & WS_SCENE_NODE_FLAG_READIER))
    return NULL;
  return ws_anomaly_result_lookup (self->result, self->trace, n->event);
}

static WsGraphMark
mark_of (const WsWaitScore *s)
{
  if (s == NULL)
    return WS_GRAPH_MARK_NONE;
  if (s->flag == WS_ANOMALY_FLAG_ANOMALOUS)
    return WS_GRAPH_MARK_FLAGGED_ANOMALOUS;
  if (s->flag == WS_ANOMALY_FLAG_NORMAL)
    return WS_GRAPH_MARK_FLAGGED_NORMAL;
  return s->anomalous ? WS_GRAPH_MARK_ANOMALOUS : WS_GRAPH_MARK_NONE;
}

static gboolean
is_anomalous_mark (guint8 mark)
{
  return mark == WS_GRAPH_MARK_ANOMALOUS || mark == WS_GRAPH_MARK_FLAGGED_ANOMALOUS;
}

static int
compare_layer_desc (gconstpointer a,
                    gconstpointer b,
                    gpointer      scene)
{
  guint la = ws_graph_scene_get_node (scene, *(const guint *) a)->layer;
  guint lb = ws_graph_scene_get_node (scene, *(const guint *) b)->layer;

  return la > lb ? -1 : la < lb;
}

/* Out-edges per node in compressed form: first[v] .. first[v + 1] index
 * @out (edge indices), forward edges only. */
static void
forward_edges (WsGraphScene *scene,
               guint       **first_out,
               guint       **out)
{
  guint n = ws_graph_scene_get_n_nodes (scene), m = ws_graph_scene_get_n_edges (scene);
  guint *first = g_new0 (guint, n + 1), *fill = g_new0 (guint, n + 1), *edges = g_new (guint, MAX (m, 1));

  for (guint e = 0; e < m; e++)
    {
      const WsSceneEdge *se = ws_graph_scene_get_edge (scene, e);
      if (ws_graph_scene_get_node (scene, se->to)->layer > ws_graph_scene_get_node (scene, se->from)->layer)
        first[se->from + 1]++;
    }
  for (guint v = 0; v < n; v++)
    first[v + 1] += first[v];
  memcpy (fill, first, (n + 1) * sizeof (guint));
  for (guint e = 0; e < m; e++)
    {
      const WsSceneEdge *se = ws_graph_scene_get_edge (scene, e);
      if (ws_graph_scene_get_node (scene, se->to)->layer > ws_graph_scene_get_node (scene, se->from)->layer)
        edges[fill[se->from]++] = e;
    }
  g_free (fill);
  *first_out = first;
  *out = edges;
}

/* The best successor edge of @v by @best, or WS_NONE. */
static guint
best_edge (WsGraphScene *scene,
           const guint  *first,
           const guint  *out,
           const guint  *best,
           guint         v)
{
  guint chosen = WS_NONE, top = 0;

  for (guint k = first[v]; k < first[v + 1]; k++)
    {
      guint w = ws_graph_scene_get_edge (scene, out[k])->to;
      if (best[w] > top)
        {
          top = best[w];
          chosen = out[k];
        }
    }
  return chosen;
}

static guint
chain_start (WsGraphAnomalies *self,
             const guint      *best)
{
  guint n = ws_graph_scene_get_n_nodes (self->scene), root = ws_graph_scene_get_root (self->scene);
  guint start = root != WS_NONE && root < n ? root : WS_NONE;

  for (guint v = 0; v < n; v++)
    if (ws_graph_scene_get_node (self->scene, v)->layer == 0
        && (start == WS_NONE || best[v] > best[start]))
      start = v;
  return start != WS_NONE && best[start] > 0 ? start : WS_NONE;
}

static void
find_chain (WsGraphAnomalies *self)
{
  guint n = ws_graph_scene_get_n_nodes (self->scene);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree guint *best = g_new0 (guint, MAX (n, 1));
  g_autofree guint *first = NULL;
  g_autofree guint *out = NULL;
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (guint));
  guint v, last = 0;

  forward_edges (self->scene, &first, &out);
  for (v = 0; v < n; v++)
    order[v] = v;
  g_qsort_with_data (order, n, sizeof (guint), compare_layer_desc, self->scene);
  for (guint i = 0; i < n; i++)
    {
      guint e;
      v = order[i];
      e = best_edge (self->scene, first, out, best, v);
      best[v] = is_anomalous_mark (self->marks[v]) + (e != WS_NONE ? best[ws_graph_scene_get_edge (self->scene, e)->to] : 0);
    }

  /* Walk the best path, then keep it up to its last anomalous wait. */
  for (v = chain_start (self, best); v != WS_NONE;)
    {
      guint e = best_edge (self->scene, first, out, best, v);

      g_array_append_val (self->chain, v);
      if (is_anomalous_mark (self->marks[v]))
        last = self->chain->len;
      if (e == WS_NONE)
        break;
      g_array_append_val (edges, e);
      v = ws_graph_scene_get_edge (self->scene, e)->to;
    }
  for (guint i = 0; i + 1 < last; i++)
    self->chain_edges[g_array_index (edges, guint, i)] = TRUE;
  g_array_set_size (self->chain, last);
}

/**
 * ws_graph_anomalies_new:
 * @scene: the scene shown
 * @result: the scores
 * @trace: the index of the scene's trace among @result's
 *
 * Returns: (transfer full): the scene's anomaly layer
 */
WsGraphAnomalies *
ws_graph_anomalies_new (WsGraphScene    *scene,
                        WsAnomalyResult *result,
                        guint            trace)
{
  WsGraphAnomalies *self;
  guint n;

  g_return_val_if_fail (WS_IS_GRAPH_SCENE (scene), NULL);
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (result), NULL);

  self = g_object_new (WS_TYPE_GRAPH_ANOMALIES, NULL);
  self->scene = g_object_ref (scene);
  self->result = g_object_ref (result);
  self->trace = trace;
  n = ws_graph_scene_get_n_nodes (scene);
  self->marks = g_new0 (guint8, MAX (n, 1));
  self->chain_edges = g_new0 (guint8, MAX (ws_graph_scene_get_n_edges (scene), 1));
  for (guint v = 0; v < n; v++)
    {
      self->marks[v] = mark_of (node_score (self, v));
      self->n_anomalous += is_anomalous_mark (self->marks[v]);
      self->n_marked += self->marks[v] != WS_GRAPH_MARK_NONE;
    }
  find_chain (self);
  return self;
}

WsGraphScene *
ws_graph_anomalies_get_scene (WsGraphAnomalies *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), NULL);
  return self->scene;
}

WsAnomalyResult *
ws_graph_anomalies_get_result (WsGraphAnomalies *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), NULL);
  return self->result;
}

WsGraphMark
ws_graph_anomalies_get_mark (WsGraphAnomalies *self,
                             guint             node)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), WS_GRAPH_MARK_NONE);
  return node < ws_graph_scene_get_n_nodes (self->scene) ? self->marks[node] : WS_GRAPH_MARK_NONE;
}

/* Returns: (nullable): the score of @node's wait, %NULL if it is not a
 * scored wait */
const WsWaitScore *
ws_graph_anomalies_get_score (WsGraphAnomalies *self,
                              guint             node)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), NULL);
  return node < ws_graph_scene_get_n_nodes (self->scene) ? node_score (self, node) : NULL;
}

/* How many nodes are anomalous (model or flag). */
guint
ws_graph_anomalies_get_n_anomalous (WsGraphAnomalies *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), 0);
  return self->n_anomalous;
}

/* How many nodes carry a mark (anomalous, or flagged either way). */
guint
ws_graph_anomalies_get_n_marked (WsGraphAnomalies *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), 0);
  return self->n_marked;
}

/* Returns: (array length=n_nodes): the chain's scene nodes, from the
 * symptom to its last anomalous wait (none when nothing is anomalous) */
const guint *
ws_graph_anomalies_get_chain (WsGraphAnomalies *self,
                              guint            *n_nodes)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), NULL);
  *n_nodes = self->chain->len;
  return (const guint *) (gpointer) self->chain->data;
}

gboolean
ws_graph_anomalies_edge_on_chain (WsGraphAnomalies *self,
                                  guint             edge)
{
  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), FALSE);
  return edge < ws_graph_scene_get_n_edges (self->scene) && self->chain_edges[edge];
}

/**
 * ws_graph_anomalies_next_anomalous:
 * @node: where to start (excluded), or %WS_NONE
 * @forward: %FALSE for the previous one
 *
 * The patent's "Next" key: the next anomalous node in scene order,
 * wrapping around.
 *
 * Returns: a node, or %WS_NONE when none is anomalous
 */
guint
ws_graph_anomalies_next_anomalous (WsGraphAnomalies *self,
                                   guint             node,
                                   gboolean          forward)
{
  guint n;

  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), WS_NONE);
  n = ws_graph_scene_get_n_nodes (self->scene);
  if (self->n_anomalous == 0 || n == 0)
    return WS_NONE;
  if (node >= n)
    node = forward ? n - 1 : 0;
  for (guint k = 1; k <= n; k++)
    {
      guint v = forward ? (node + k) % n : (node + n - k) % n;
      if (is_anomalous_mark (self->marks[v]))
        return v;
    }
  return WS_NONE;
}

static const char *
level_text (WsModelLevel level)
{
  switch (level)
    {
    case WS_MODEL_LEVEL_SIGNATURE: return _("its own");
    case WS_MODEL_LEVEL_POOL:      return _("pooled (same kernel blocking function)");
    case WS_MODEL_LEVEL_GLOBAL:    return _("global (every wait)");
    default:                       return "?";
    }
}

/**
 * ws_graph_anomalies_dup_describe:
 *
 * Returns: (nullable): one line a person reads on @node's anomaly: the
 *   verdict, P(D ≥ d) and the model's threshold; %NULL if not scored
 */
char *
ws_graph_anomalies_dup_describe (WsGraphAnomalies *self,
                                 guint             node)
{
  const WsWaitScore *s = ws_graph_anomalies_get_score (self, node);
  const WsAnomalyModel *m;
  const char *verdict;

  if (s == NULL)
    return NULL;
  m = ws_anomaly_result_get_model (self->result, s->model);
  verdict = s->flag == WS_ANOMALY_FLAG_ANOMALOUS ? _("flagged anomalous")
          : s->flag == WS_ANOMALY_FLAG_NORMAL ? _("flagged not anomalous")
          : s->anomalous ? _("anomalous") : _("normal");
  return g_strdup_printf (_("%s: P(D ≥ d) = %.3g (threshold %.3g, %s model)"), verdict, s->score,
                          m->threshold, level_text (m->level));
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

/* The chain's edges as one broad band: a highlighter under the edges, so
 * the metric's chain (a red line) still shows on top of it. */
void
ws_graph_anomalies_draw_chain (WsGraphAnomalies *self,
                               cairo_t          *cr,
                               double            scale)
{
  WsGraphLayout *layout;
  WsColor c = ws_render_rgb (COLOUR_CHAIN, 0.55);
  gboolean any = FALSE;

  g_return_if_fail (WS_IS_GRAPH_ANOMALIES (self));

  layout = ws_graph_scene_get_layout (self->scene);
  cairo_save (cr);
  cairo_new_path (cr);
  for (guint e = 0; e < ws_graph_scene_get_n_edges (self->scene); e++)
    {
      guint n;
      const WsGraphPoint *p;

      if (!self->chain_edges[e])
        continue;
      p = ws_graph_layout_get_edge_points (layout, e, &n);
      if (n < 2)
        continue;
      cairo_move_to (cr, p[0].x, p[0].y);
      for (guint k = 1; k < n; k++)
        {
          double m = (p[k].x - p[k - 1].x) / 2;
          cairo_curve_to (cr, p[k - 1].x + m, p[k - 1].y, p[k].x - m, p[k].y, p[k].x, p[k].y);
        }
      any = TRUE;
    }
  if (any)
    {
      ws_render_set_source (cr, &c);
      cairo_set_line_width (cr, MAX (12.0, 8.0 / scale));
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

static void
triangle_path (cairo_t *cr,
               double   cx,
               double   cy,
               double   size)
{
  double h = size * 0.9;

  cairo_move_to (cr, cx, cy - h / 2);
  cairo_line_to (cr, cx + size / 2, cy + h / 2);
  cairo_line_to (cr, cx - size / 2, cy + h / 2);
  cairo_close_path (cr);
}

/* The exclamation mark inside the triangle, drawn (no font needed). */
static void
bang_path (cairo_t *cr,
           double   cx,
           double   cy,
           double   size)
{
  double w = size * 0.12;

  cairo_rectangle (cr, cx - w / 2, cy - size * 0.22, w, size * 0.3);
  cairo_rectangle (cr, cx - w / 2, cy + size * 0.14, w, w);
}

static void
draw_warning (cairo_t *cr,
              double   cx,
              double   cy,
              double   size)
{
  WsColor c = ws_render_rgb (COLOUR_ANOMALOUS, 1), white = ws_render_rgb (0xffffff, 1);

  triangle_path (cr, cx, cy, size);
  ws_render_set_source (cr, &c);
  cairo_fill_preserve (cr);
  ws_render_set_source (cr, &white);
  cairo_set_line_width (cr, size * 0.07);
  cairo_stroke (cr);
  bang_path (cr, cx, cy + size * 0.05, size);
  cairo_fill (cr);
}

static void
draw_pennant (cairo_t *cr,
              double   x,
              double   cy,
              double   size)
{
  WsColor black = ws_render_rgb (COLOUR_PENNANT, 1), white = ws_render_rgb (0xffffff, 1);
  double top = cy - size / 2, pole = size * 0.1;

  cairo_rectangle (cr, x, top, pole, size);
  cairo_move_to (cr, x + pole, top);
  cairo_line_to (cr, x + pole + size * 0.6, top + size * 0.22);
  cairo_line_to (cr, x + pole, top + size * 0.44);
  cairo_close_path (cr);
  ws_render_set_source (cr, &white);
  cairo_set_line_width (cr, size * 0.12);
  cairo_stroke_preserve (cr);
  ws_render_set_source (cr, &black);
  cairo_fill (cr);
}

static void
draw_tick_disc (cairo_t *cr,
                double   cx,
                double   cy,
                double   size)
{
  WsColor c = ws_render_rgb (COLOUR_NORMAL, 1), white = ws_render_rgb (0xffffff, 1);

  cairo_arc (cr, cx, cy, size / 2, 0, 2 * G_PI);
  ws_render_set_source (cr, &c);
  cairo_fill_preserve (cr);
  ws_render_set_source (cr, &white);
  cairo_set_line_width (cr, size * 0.07);
  cairo_stroke (cr);
  cairo_move_to (cr, cx - size * 0.24, cy + size * 0.02);
  cairo_line_to (cr, cx - size * 0.06, cy + size * 0.2);
  cairo_line_to (cr, cx + size * 0.26, cy - size * 0.18);
  cairo_set_line_width (cr, size * 0.13);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
}

/* The badge of @mark centred at (cx, cy). */
static void
draw_badge (cairo_t     *cr,
            WsGraphMark  mark,
            double       cx,
            double       cy,
            double       size)
{
  switch (mark)
    {
    case WS_GRAPH_MARK_ANOMALOUS:
      draw_warning (cr, cx, cy, size);
      break;
    case WS_GRAPH_MARK_FLAGGED_ANOMALOUS:
      draw_warning (cr, cx, cy, size);
      draw_pennant (cr, cx - size * 1.25, cy, size * 0.9);
      break;
    case WS_GRAPH_MARK_FLAGGED_NORMAL:
      draw_tick_disc (cr, cx, cy, size);
      break;
    case WS_GRAPH_MARK_NONE:
    default:
      break;
    }
}

/* A ring round an anomalous node, visible at every zoom. */
static void
ring (cairo_t           *cr,
      const WsGraphRect *r,
      WsGraphMark        mark,
      double             scale)
{
  WsColor c = ws_render_rgb (mark == WS_GRAPH_MARK_FLAGGED_NORMAL ? COLOUR_NORMAL : COLOUR_ANOMALOUS, 1);
  double grow = MAX (5.0, 3.0 / scale);

  cairo_rectangle (cr, r->x - grow, r->y - grow, r->width + 2 * grow, r->height + 2 * grow);
  ws_render_set_source (cr, &c);
  cairo_set_line_width (cr, MAX (2.5, 2.0 / scale));
  cairo_stroke (cr);
}

/**
 * ws_graph_anomalies_draw_marks:
 * @scale: the zoom (device units per layout unit)
 * @visible: (element-type guint): the scene nodes on screen
 *
 * Rings the anomalous and flagged nodes and puts a badge on their top
 * right corner (the badge keeps a readable size when zoomed out).
 */
void
ws_graph_anomalies_draw_marks (WsGraphAnomalies *self,
                               cairo_t          *cr,
                               double            scale,
                               GArray           *visible)
{
  WsGraphLayout *layout;
  double size;

  g_return_if_fail (WS_IS_GRAPH_ANOMALIES (self));

  layout = ws_graph_scene_get_layout (self->scene);
  size = MIN (MAX (BADGE_SIZE, BADGE_MIN_PX / scale), WS_SCENE_NODE_HEIGHT);
  cairo_save (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < visible->len; i++)
    {
      guint v = g_array_index (visible, guint, i);
      WsGraphRect r;

      if (v >= ws_graph_scene_get_n_nodes (self->scene) || self->marks[v] == WS_GRAPH_MARK_NONE)
        continue;
      ws_graph_layout_get_node_rect (layout, v, &r);
      ring (cr, &r, self->marks[v], scale);
      draw_badge (cr, self->marks[v], r.x + r.width - size * 0.35, r.y + size * 0.1, size);
    }
  cairo_restore (cr);
}

static const char *
legend_text (guint item)
{
  switch (item)
    {
    case 0:  return _("Anomalous wait (model)");
    case 1:  return _("Flagged anomalous");
    case 2:  return _("Flagged not anomalous");
    default: return _("Chain through anomalous waits");
    }
}

static void
legend_swatch (cairo_t *cr,
               guint    item,
               double   x,
               double   y)
{
  double cy = y + LEGEND_ROW / 2;

  cairo_save (cr);
  if (item == 3)
    {
      WsColor c = ws_render_rgb (COLOUR_CHAIN, 0.55);
      cairo_move_to (cr, x + 4, cy);
      cairo_line_to (cr, x + 30, cy);
      ws_render_set_source (cr, &c);
      cairo_set_line_width (cr, 10);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_stroke (cr);
    }
  else
    draw_badge (cr, item == 0 ? WS_GRAPH_MARK_ANOMALOUS : item == 1 ? WS_GRAPH_MARK_FLAGGED_ANOMALOUS
                                                                   : WS_GRAPH_MARK_FLAGGED_NORMAL,
                x + 24, cy, LEGEND_SWATCH);
  cairo_restore (cr);
}

/**
 * ws_graph_anomalies_draw_legend:
 * @cr: (nullable): %NULL to measure only
 * @family: the font family
 *
 * The four items of the anomaly layer, flowed in rows of @width.
 *
 * Returns: the height used
 */
double
ws_graph_anomalies_draw_legend (WsGraphAnomalies *self,
                                cairo_t          *cr,
                                const char       *family,
                                const WsColor    *foreground,
                                double            x,
                                double            y,
                                double            width)
{
  PangoContext *context;
  PangoLayout *text;
  PangoFontDescription *font;
  WsRenderFlow flow;

  g_return_val_if_fail (WS_IS_GRAPH_ANOMALIES (self), 0);

  context = ws_render_label_context_new ();
  text = pango_layout_new (context);
  font = pango_font_description_new ();

  pango_font_description_set_family (font, family ? family : "Sans");
  pango_font_description_set_size (font, 9 * PANGO_SCALE);
  pango_layout_set_font_description (text, font);
  pango_font_description_free (font);
  ws_render_flow_init (&flow, x, y, width);
  for (guint item = 0; item < 4; item++)
    {
      int tw, th;
      double ix, iy;

      ws_render_measure_text (text, legend_text (item), &tw, &th);
      ws_render_flow_place (&flow, 40 + tw + 18, LEGEND_ROW, &ix, &iy);
      if (cr == NULL)
        continue;
      legend_swatch (cr, item, ix, iy);
      ws_render_set_source (cr, foreground);
      cairo_move_to (cr, ix + 40, iy + (LEGEND_ROW - th) / 2);
      pango_cairo_show_layout (cr, text);
    }
  g_object_unref (text);
  g_object_unref (context);
  return ws_render_flow_get_height (&flow);
}
