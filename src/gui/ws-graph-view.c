/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The graph widget: input, zoom and pan around the shared Cairo renderer.
 * As the timeline does, a frame is drawn into an image surface of the
 * widget's size and handed to GTK as a texture, kept until something that
 * changes the picture happens (hovering does not).
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "ws-graph-view.h"
#include "ws-wake-words.h"

#include "ws-view-gestures.h"
#define WHEEL_ZOOM_STEP   1.2
#define KEY_ZOOM_STEP     1.4
#define KEY_PAN_PX        80.0
#define WHEEL_PAN_PX      48.0
/* From here on boxes carry at least a one-line label (see the renderer). */
#define READABLE_SCALE    0.45
#define INITIAL_SCALE     0.8

struct _WsGraphView
{
  GtkWidget        parent_instance;

  /* Owned references */
  WsGraphScene    *scene;
  WsGraphRenderer *renderer;
  GdkTexture      *texture;
  guint8          *matches;     /* one byte per scene node, or NULL */

  /* View state */
  WsGraphViewport  vp;
  gboolean         needs_initial_view;
  gboolean         dirty;
  guint            notify_zoom_source;

  /* Where a drag started (layout units) */
  double           drag_x;
  double           drag_y;
};

G_DEFINE_FINAL_TYPE (WsGraphView, ws_graph_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SCENE,
  PROP_SELECTED_NODE,
  PROP_CURRENT_MATCH,
  PROP_ZOOM,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
invalidate (WsGraphView *self)
{
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static guint
n_nodes (WsGraphView *self)
{
  return self->scene ? ws_graph_scene_get_n_nodes (self->scene) : 0;
}

static void
update_accessible (WsGraphView *self)
{
  g_autofree char *summary = NULL;
  g_autofree char *desc = NULL;
  const char *label;

  if (self->scene == NULL)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Wait graph"),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Nothing to show yet"),
                                      -1);
      return;
    }

  label = ws_graph_scene_get_kind (self->scene) == WS_GRAPH_SCENE_READY_TREE ? _("Ready tree") : _("Wait graph");
  summary = ws_graph_scene_dup_summary (self->scene);
  if (self->vp.selected != WS_NONE && self->vp.selected < n_nodes (self))
    {
      g_autofree char *title = ws_graph_scene_dup_title (self->scene, self->vp.selected);
      g_autofree char *detail = ws_graph_scene_dup_detail (self->scene, self->vp.selected);
      const char *frame = ws_graph_scene_get_frame_name (self->scene, self->vp.selected);

      /* Translators: accessible description of the graph: summary, then
       * the selected node's thread, kind and duration, and its frame */
      desc = g_strdup_printf (_("%s. Selected: %s, %s%s%s"), summary, title, detail,
                              frame ? ", " : "", frame ? frame : "");
    }
  else
    desc = g_strdup (summary);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, desc,
                                  -1);
}

/* ------------------------------------------------------------------ */
/* View state                                                           */

static gboolean
notify_zoom_idle (gpointer data)
{
  WsGraphView *self = data;

  self->notify_zoom_source = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  return G_SOURCE_REMOVE;
}

/* The initial view is set while allocating: a listener that resizes a
 * label then would invalidate the allocation being made, so the change is
 * announced from an idle. */
static void
notify_zoom_later (WsGraphView *self)
{
  if (self->notify_zoom_source == 0)
    self->notify_zoom_source = g_idle_add (notify_zoom_idle, self);
}

/* The initial view: everything if it can be read whole; else, readable,
 * the start of the anomalous chain (the part to look at first): its first
 * layers from the left edge, centred on the chain's nodes that fit. */
static void
apply_initial_view (WsGraphView *self)
{
  WsGraphLayout *layout;
  const guint *chain;
  guint n_chain, root;
  double header, w, h, x0, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  WsGraphRect r;

  if (self->scene == NULL || self->vp.width <= 0 || self->vp.height <= 0)
    return;
  self->needs_initial_view = FALSE;
  notify_zoom_later (self);

  ws_graph_viewport_fit (&self->vp, self->scene, 1.0);
  if (self->vp.scale >= READABLE_SCALE)
    return;

  layout = ws_graph_scene_get_layout (self->scene);
  chain = ws_graph_scene_get_chain_nodes (self->scene, &n_chain);
  root = ws_graph_scene_get_root (self->scene);
  if (root == WS_NONE)
    return;

  header = self->vp.show_header ? WS_GRAPH_HEADER_HEIGHT : 0;
  w = self->vp.width;
  h = self->vp.height - header;
  self->vp.scale = INITIAL_SCALE;

  ws_graph_layout_get_node_rect (layout, n_chain ? chain[0] : root, &r);
  /* From the left margin of the first layer shown. */
  x0 = MAX (r.x - 24, 0);
  for (guint i = 0; i < MAX (n_chain, 1); i++)
    {
      ws_graph_layout_get_node_rect (layout, n_chain ? chain[i] : root, &r);
      if (i > 0 && (r.x + r.width - x0) * self->vp.scale > w)
        break;
      y0 = MIN (y0, r.y);
      y1 = MAX (y1, r.y + r.height);
    }
  self->vp.x = x0;
  /* Centre the visible part of the chain; if it is taller than the view,
   * keep its first node in view. */
  if ((y1 - y0) * self->vp.scale <= h)
    self->vp.y = (y0 + y1) / 2 - h / (2 * self->vp.scale);
  else
    {
      ws_graph_layout_get_node_rect (layout, n_chain ? chain[0] : root, &r);
      self->vp.y = r.y + r.height / 2 - h / (2 * self->vp.scale);
    }
}

static void
set_scale (WsGraphView *self,
           double       factor,
           double       px,
           double       py)
{
  double before = self->vp.scale;

  ws_graph_viewport_zoom_at (&self->vp, factor, px, py);
  if (self->vp.scale != before)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
      invalidate (self);
    }
}

static void
pan (WsGraphView *self,
     double       dx_px,
     double       dy_px)
{
  self->vp.x += dx_px / self->vp.scale;
  self->vp.y += dy_px / self->vp.scale;
  invalidate (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

GtkWidget *
ws_graph_view_new (void)
{
  return g_object_new (WS_TYPE_GRAPH_VIEW, NULL);
}

/**
 * ws_graph_view_set_scene:
 * @scene: (nullable):
 *
 * Shows @scene from its initial view (all of it if it can be read whole,
 * else its start at a readable zoom), with nothing selected.
 */
void
ws_graph_view_set_scene (WsGraphView  *self,
                         WsGraphScene *scene)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));
  g_return_if_fail (scene == NULL || WS_IS_GRAPH_SCENE (scene));

  if (!g_set_object (&self->scene, scene))
    return;

  g_clear_pointer (&self->matches, g_free);
  self->vp.matches = NULL;
  self->vp.selected = WS_NONE;
  self->vp.current_match = WS_NONE;
  self->needs_initial_view = TRUE;
  apply_initial_view (self);
  update_accessible (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MATCH]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Returns: (transfer none) (nullable): */
WsGraphScene *
ws_graph_view_get_scene (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), NULL);
  return self->scene;
}

/* @anomalies: (nullable): the scene's anomaly layer, drawn by the
 * renderer (so exports show it too) */
void
ws_graph_view_set_anomalies (WsGraphView      *self,
                             WsGraphAnomalies *anomalies)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));
  ws_graph_renderer_set_anomalies (self->renderer, anomalies);
  invalidate (self);
}

/* Returns: (transfer none): the renderer (for exports in the same colours) */
WsGraphRenderer *
ws_graph_view_get_renderer (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), NULL);
  return self->renderer;
}

/* The zoom, scroll, selection and matches as drawn. */
const WsGraphViewport *
ws_graph_view_get_viewport (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), NULL);
  return &self->vp;
}

void
ws_graph_view_set_selected_node (WsGraphView *self,
                                 guint        node)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));

  if (node >= n_nodes (self))
    node = WS_NONE;
  if (node == self->vp.selected)
    return;
  self->vp.selected = node;
  update_accessible (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

guint
ws_graph_view_get_selected_node (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), WS_NONE);
  return self->vp.selected;
}

/**
 * ws_graph_view_set_matches:
 * @matches: (nullable) (element-type guint): scene nodes to highlight
 */
void
ws_graph_view_set_matches (WsGraphView *self,
                           GArray      *matches)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));

  g_clear_pointer (&self->matches, g_free);
  if (matches != NULL && self->scene != NULL)
    {
      self->matches = g_new0 (guint8, MAX (n_nodes (self), 1));
      for (guint i = 0; i < matches->len; i++)
        {
          guint v = g_array_index (matches, guint, i);
          if (v < n_nodes (self))
            self->matches[v] = 1;
        }
    }
  self->vp.matches = self->matches;
  invalidate (self);
}

void
ws_graph_view_set_current_match (WsGraphView *self,
                                 guint        node)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));

  if (node >= n_nodes (self))
    node = WS_NONE;
  if (node == self->vp.current_match)
    return;
  self->vp.current_match = node;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_MATCH]);
}

guint
ws_graph_view_get_current_match (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), WS_NONE);
  return self->vp.current_match;
}

/* Zooms by @factor about the middle of the view. */
void
ws_graph_view_zoom (WsGraphView *self,
                    double       factor)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));
  g_return_if_fail (factor > 0);

  set_scale (self, factor, self->vp.width / 2, self->vp.height / 2);
}

void
ws_graph_view_set_zoom (WsGraphView *self,
                        double       scale)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));
  g_return_if_fail (scale > 0);

  set_scale (self, scale / self->vp.scale, self->vp.width / 2, self->vp.height / 2);
}

double
ws_graph_view_get_zoom (WsGraphView *self)
{
  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), 1);
  return self->vp.scale;
}

/* Shows the whole scene. */
void
ws_graph_view_fit (WsGraphView *self)
{
  g_return_if_fail (WS_IS_GRAPH_VIEW (self));

  if (self->scene == NULL)
    return;
  ws_graph_viewport_fit (&self->vp, self->scene, 1.0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  invalidate (self);
}

/* Scrolls (and zooms in to a readable size if needed) so that @node shows
 * whole; does nothing if it already does. */
void
ws_graph_view_reveal_node (WsGraphView *self,
                           guint        node)
{
  WsGraphRect r;

  g_return_if_fail (WS_IS_GRAPH_VIEW (self));

  if (node >= n_nodes (self))
    return;
  ws_graph_layout_get_node_rect (ws_graph_scene_get_layout (self->scene), node, &r);
  if (self->vp.scale >= READABLE_SCALE && ws_graph_viewport_node_visible (&self->vp, &r))
    return;
  if (self->vp.scale < READABLE_SCALE)
    {
      self->vp.scale = INITIAL_SCALE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  ws_graph_viewport_center_on (&self->vp, &r);
  invalidate (self);
}

/* Returns: the scene node under widget point (@x, @y), or %WS_NONE */
guint
ws_graph_view_node_at (WsGraphView *self,
                       double       x,
                       double       y)
{
  double lx, ly;

  g_return_val_if_fail (WS_IS_GRAPH_VIEW (self), WS_NONE);

  if (self->scene == NULL || (self->vp.show_header && y < WS_GRAPH_HEADER_HEIGHT))
    return WS_NONE;
  ws_graph_viewport_to_layout (&self->vp, x, y, &lx, &ly);
  return ws_graph_layout_node_at (ws_graph_scene_get_layout (self->scene), lx, ly);
}

/* ------------------------------------------------------------------ */
/* Keyboard navigation along the graph                                  */

static guint
neighbour (WsGraphView *self,
           guint        node,
           gboolean     forward)
{
  /* Right: the first node this one points at (what readied it); Left:
   * the first node pointing at it (the wait it delayed). */
  for (guint e = 0; e < ws_graph_scene_get_n_edges (self->scene); e++)
    {
      const WsSceneEdge *edge = ws_graph_scene_get_edge (self->scene, e);

      if (forward && edge->from == node)
        return edge->to;
      if (!forward && edge->to == node)
        return edge->from;
    }
  return WS_NONE;
}

static guint
sibling (WsGraphView *self,
         guint        node,
         int          delta)
{
  WsGraphLayout *layout = ws_graph_scene_get_layout (self->scene);
  guint layer = ws_graph_layout_get_node_layer (layout, node);
  guint n;
  const guint *nodes = ws_graph_layout_get_layer_nodes (layout, layer, &n);

  for (guint i = 0; i < n; i++)
    if (nodes[i] == node)
      {
        if ((delta < 0 && i == 0) || (delta > 0 && i + 1 >= n))
          return WS_NONE;
        return nodes[(int) i + delta];
      }
  return WS_NONE;
}

static void
select_and_reveal (WsGraphView *self,
                   guint        node)
{
  if (node == WS_NONE)
    return;
  ws_graph_view_set_selected_node (self, node);
  ws_graph_view_reveal_node (self, node);
}

/* The graph's own keys (zoom and Enter are the shared navigation's):
 * arrows walk the graph from the selection, or pan without one. */
static gboolean
nav_key_pressed (GtkWidget       *widget,
                 guint            keyval,
                 GdkModifierType  state)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;
  guint sel = self->vp.selected;
  gboolean navigate = self->scene != NULL && sel != WS_NONE && !ctrl;

  switch (keyval)
    {
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
      ws_graph_view_set_zoom (self, 1);
      return TRUE;
    case GDK_KEY_f:
    case GDK_KEY_F:
      ws_graph_view_fit (self);
      return TRUE;
    case GDK_KEY_Home:
      if (self->scene)
        select_and_reveal (self, ws_graph_scene_get_root (self->scene));
      return TRUE;
    case GDK_KEY_space:
      if (sel != WS_NONE)
        g_signal_emit (self, signals[NODE_ACTIVATED], 0, sel);
      return sel != WS_NONE;
    case GDK_KEY_Left:
      if (navigate)
        select_and_reveal (self, neighbour (self, sel, FALSE));
      else
        pan (self, -KEY_PAN_PX, 0);
      return TRUE;
    case GDK_KEY_Right:
      if (navigate)
        select_and_reveal (self, neighbour (self, sel, TRUE));
      else
        pan (self, KEY_PAN_PX, 0);
      return TRUE;
    case GDK_KEY_Up:
      if (navigate)
        select_and_reveal (self, sibling (self, sel, -1));
      else
        pan (self, 0, -KEY_PAN_PX);
      return TRUE;
    case GDK_KEY_Down:
      if (navigate)
        select_and_reveal (self, sibling (self, sel, 1));
      else
        pan (self, 0, KEY_PAN_PX);
      return TRUE;
    case GDK_KEY_Escape:
      if (sel == WS_NONE)
        return FALSE;
      ws_graph_view_set_selected_node (self, WS_NONE);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------ */
/* The shared navigation's hooks (ws-view-gestures.h)                   */

static gboolean
nav_has_content (GtkWidget *widget)
{
  return WS_GRAPH_VIEW (widget)->scene != NULL;
}

static guint
nav_item_at (GtkWidget *widget,
             double     x,
             double     y)
{
  return ws_graph_view_node_at (WS_GRAPH_VIEW (widget), x, y);
}

static guint
nav_get_selected (GtkWidget *widget)
{
  return WS_GRAPH_VIEW (widget)->vp.selected;
}

static void
nav_select (GtkWidget *widget,
            guint      node)
{
  ws_graph_view_set_selected_node (WS_GRAPH_VIEW (widget), node);
}

static void
nav_activate (GtkWidget *widget,
              guint      node)
{
  g_signal_emit (widget, signals[NODE_ACTIVATED], 0, node);
}

static double
nav_get_zoom (GtkWidget *widget)
{
  return WS_GRAPH_VIEW (widget)->vp.scale;
}

static void
nav_zoom (GtkWidget *widget,
          double     factor)
{
  ws_graph_view_zoom (WS_GRAPH_VIEW (widget), factor);
}

static void
nav_zoom_at (GtkWidget *widget,
             double     factor,
             double     x,
             double     y)
{
  set_scale (WS_GRAPH_VIEW (widget), factor, x, y);
}

static void
nav_drag_begin (GtkWidget *widget)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);

  self->drag_x = self->vp.x;
  self->drag_y = self->vp.y;
}

static void
nav_drag_pan (GtkWidget *widget,
              double     dx,
              double     dy)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);

  self->vp.x = self->drag_x - dx / self->vp.scale;
  self->vp.y = self->drag_y - dy / self->vp.scale;
  invalidate (self);
}

static gboolean
nav_scroll_pan (GtkWidget *widget,
                double     dx,
                double     dy,
                gboolean   pixels)
{
  pan (WS_GRAPH_VIEW (widget), dx * (pixels ? 1 : WHEEL_PAN_PX), dy * (pixels ? 1 : WHEEL_PAN_PX));
  return TRUE;
}

/* A node's title, detail and frame, and its anomaly verdict when the
 * anomaly layer is this scene's. */
/* A node saying what ended a wait when no thread did: the glossary's
 * definition of its word, for the tooltip. */
static const char *
dup_node_explain (WsGraphScene *scene,
                  guint         node)
{
  const WsSceneNode *n = ws_graph_scene_get_node (scene, node);

  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_HARDWARE: return ws_wake_word_explain (ws_wake_word_for_interrupt (n->state));
    case WS_SCENE_NODE_TIMER:    return n->wake == WS_WAKE_HEARTBEAT ? NULL : ws_wake_word_explain (WS_WAKE_WORD_TIMER);
    case WS_SCENE_NODE_UNKNOWN:  return ws_wake_word_explain (WS_WAKE_WORD_UNKNOWN);
    case WS_SCENE_NODE_RUN:
    case WS_SCENE_NODE_WAIT:
    case WS_N_SCENE_NODE_KINDS:
    default:                     return NULL;
    }
}

static char *
nav_dup_tooltip (GtkWidget *widget,
                 guint      node)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);
  g_autofree char *title = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *anomaly = NULL;
  const char *explain;
  WsGraphAnomalies *anomalies;
  const char *frame;

  if (self->scene == NULL)
    return NULL;
  title = ws_graph_scene_dup_title (self->scene, node);
  detail = ws_graph_scene_dup_detail (self->scene, node);
  frame = ws_graph_scene_get_frame_name (self->scene, node);
  anomalies = ws_graph_renderer_get_anomalies (self->renderer);
  if (anomalies != NULL && ws_graph_anomalies_get_scene (anomalies) == self->scene)
    anomaly = ws_graph_anomalies_dup_describe (anomalies, node);
  explain = dup_node_explain (self->scene, node);
  return g_strdup_printf ("%s\n%s%s%s%s%s%s%s", title, detail, frame ? "\n" : "", frame ? frame : "",
                          anomaly ? "\n" : "", anomaly ? anomaly : "", explain ? "\n" : "", explain ? explain : "");
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                            */

static void
update_style (WsGraphView *self)
{
  WsGraphPalette palette;
  PangoContext *pango = gtk_widget_get_pango_context (GTK_WIDGET (self));
  const PangoFontDescription *font = pango_context_get_font_description (pango);

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    ws_graph_palette_init_dark (&palette);
  else
    ws_graph_palette_init_light (&palette);
  ws_graph_renderer_set_palette (self->renderer, &palette);
  if (font != NULL && pango_font_description_get_family (font) != NULL)
    ws_graph_renderer_set_font (self->renderer, pango_font_description_get_family (font));
  invalidate (self);
}

static void
ws_graph_view_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_graph_view_parent_class)->css_changed (widget, change);
  update_style (WS_GRAPH_VIEW (widget));
}

static void
ws_graph_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  /* Small minimum: the page may sit in a pane the user shrinks. */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 120 : 40;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 900 : 600;
}

static void
ws_graph_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);

  self->vp.width = width;
  self->vp.height = height;
  if (self->needs_initial_view)
    apply_initial_view (self);
  invalidate (self);
}

static void
ws_graph_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  WsGraphView *self = WS_GRAPH_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  int pw = width * scale, ph = height * scale;

  if (width <= 0 || height <= 0)
    return;

  if (self->scene == NULL)
    {
      const WsGraphPalette *p = ws_graph_renderer_get_palette (self->renderer);
      GdkRGBA bg = { p->background.red, p->background.green, p->background.blue, 1 };
      gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, width, height));
      return;
    }

  if (self->dirty || self->texture == NULL ||
      gdk_texture_get_width (self->texture) != pw || gdk_texture_get_height (self->texture) != ph)
    {
      int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, pw);
      g_autoptr(GBytes) bytes = NULL;
      guchar *data = g_malloc (stride * ph);
      cairo_surface_t *surface = cairo_image_surface_create_for_data (data, CAIRO_FORMAT_ARGB32, pw, ph, stride);
      cairo_t *cr = cairo_create (surface);

      cairo_scale (cr, scale, scale);
      ws_graph_renderer_draw (self->renderer, cr, self->scene, &self->vp);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      cairo_surface_destroy (surface);

      bytes = g_bytes_new_take (data, stride * ph);
      g_clear_object (&self->texture);
      self->texture = gdk_memory_texture_new (pw, ph, GDK_MEMORY_DEFAULT, bytes, stride);
      self->dirty = FALSE;
    }

  gtk_snapshot_append_texture (snapshot, self->texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_view_append_focus_ring (widget, snapshot);
}

static void
ws_graph_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WsGraphView *self = WS_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_SCENE:
      g_value_set_object (value, self->scene);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->vp.selected);
      break;
    case PROP_CURRENT_MATCH:
      g_value_set_uint (value, self->vp.current_match);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->vp.scale);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_graph_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  WsGraphView *self = WS_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_SCENE:
      ws_graph_view_set_scene (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_NODE:
      ws_graph_view_set_selected_node (self, g_value_get_uint (value));
      break;
    case PROP_CURRENT_MATCH:
      ws_graph_view_set_current_match (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      ws_graph_view_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_graph_view_dispose (GObject *object)
{
  WsGraphView *self = WS_GRAPH_VIEW (object);

  g_clear_handle_id (&self->notify_zoom_source, g_source_remove);
  g_clear_object (&self->scene);
  g_clear_object (&self->texture);
  g_clear_pointer (&self->matches, g_free);
  self->vp.matches = NULL;

  G_OBJECT_CLASS (ws_graph_view_parent_class)->dispose (object);
}

static void
ws_graph_view_finalize (GObject *object)
{
  WsGraphView *self = WS_GRAPH_VIEW (object);

  g_clear_object (&self->renderer);

  G_OBJECT_CLASS (ws_graph_view_parent_class)->finalize (object);
}

static void
ws_graph_view_class_init (WsGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ws_graph_view_get_property;
  object_class->set_property = ws_graph_view_set_property;
  object_class->dispose = ws_graph_view_dispose;
  object_class->finalize = ws_graph_view_finalize;

  widget_class->measure = ws_graph_view_measure;
  widget_class->size_allocate = ws_graph_view_size_allocate;
  widget_class->snapshot = ws_graph_view_snapshot;
  widget_class->css_changed = ws_graph_view_css_changed;

  properties[PROP_SCENE] =
    g_param_spec_object ("scene", NULL, NULL, WS_TYPE_GRAPH_SCENE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CURRENT_MATCH] =
    g_param_spec_uint ("current-match", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, WS_GRAPH_MIN_SCALE, WS_GRAPH_MAX_SCALE, 1,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsGraphView::node-activated:
   * @node: the scene node double-clicked, or chosen with Enter
   */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "graphview");
  /* Nodes walked parent to child and sibling to sibling, like a tree. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TREE);
}

static void
ws_graph_view_init (WsGraphView *self)
{
  static const WsViewNavigation navigation = {
    .has_content = nav_has_content,
    .item_at = nav_item_at,
    .get_selected = nav_get_selected,
    .select = nav_select,
    .activate = nav_activate,
    .dup_tooltip = nav_dup_tooltip,
    .get_zoom = nav_get_zoom,
    .zoom = nav_zoom,
    .zoom_at = nav_zoom_at,
    .drag_begin = nav_drag_begin,
    .drag_pan = nav_drag_pan,
    .scroll_pan = nav_scroll_pan,
    .key_pressed = nav_key_pressed,
    .wheel_zoom_step = WHEEL_ZOOM_STEP,
    .key_zoom_step = KEY_ZOOM_STEP,
  };

  self->renderer = ws_graph_renderer_new ();
  ws_graph_viewport_init (&self->vp);
  ws_view_navigation_attach (GTK_WIDGET (self), &navigation);

  update_accessible (self);
}
