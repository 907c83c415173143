/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The flame graph widget: its height is every row of the graph (the page
 * scrolls it), its drawing and hit testing are the renderer's, and the
 * zoomed and selected frames are properties the page follows.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-flame-chart.h"

struct _WsFlameChart {
  GtkWidget           parent_instance;
  WsFlameRenderer    *renderer;
  const WsFlameGraph *graph;
  WsFlameView         view;
};

enum { PROP_0, PROP_ZOOM, PROP_SELECTED, PROP_ICICLE, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE (WsFlameChart, ws_flame_chart, GTK_TYPE_WIDGET)

GtkWidget *
ws_flame_chart_new (void)
{
  return g_object_new (WS_TYPE_FLAME_CHART, NULL);
}

static void
describe_selection (WsFlameChart *self)
{
  g_autofree char *text = NULL;

  if (self->graph != NULL && self->view.selected != WS_FLAME_NO_NODE)
    text = ws_flame_describe_node (self->graph, self->view.selected);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text ? text : _("No frame selected: click a frame or use the arrow keys"), -1);
}

/* The graph to draw (borrowed: the page keeps it until it sets another). */
void
ws_flame_chart_set_graph (WsFlameChart       *self,
                          const WsFlameGraph *graph)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));

  self->graph = graph;
  self->view.matched = NULL;
  self->view.diff = NULL;
  self->view.zoom = WS_FLAME_ROOT;
  self->view.selected = WS_FLAME_NO_NODE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ZOOM]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
  describe_selection (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
ws_flame_chart_set_matched (WsFlameChart *self,
                            const guint8 *matched)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));
  self->view.matched = matched;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A differential graph's differences, one per node (borrowed), or NULL. */
void
ws_flame_chart_set_diff (WsFlameChart *self,
                         const double *diff)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));
  if (self->graph != NULL)
    ws_flame_view_set_diff (&self->view, self->graph->tree, diff);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ws_flame_chart_set_icicle (WsFlameChart *self,
                           gboolean      icicle)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));
  if (self->view.icicle == !!icicle)
    return;
  self->view.icicle = !!icicle;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ICICLE]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
ws_flame_chart_get_icicle (WsFlameChart *self)
{
  return self->view.icicle;
}

guint
ws_flame_chart_get_zoom (WsFlameChart *self)
{
  return self->view.zoom;
}

void
ws_flame_chart_set_zoom (WsFlameChart *self,
                         guint         node)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));
  if (self->graph == NULL || node >= ws_flame_tree_get_n_nodes (self->graph->tree))
    node = WS_FLAME_ROOT;
  if (self->view.zoom == node)
    return;
  self->view.zoom = node;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ZOOM]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ws_flame_chart_get_selected (WsFlameChart *self)
{
  return self->view.selected;
}

void
ws_flame_chart_set_selected (WsFlameChart *self,
                             guint         node)
{
  g_return_if_fail (WS_IS_FLAME_CHART (self));
  if (self->graph == NULL || node >= ws_flame_tree_get_n_nodes (self->graph->tree))
    node = WS_FLAME_NO_NODE;
  if (self->view.selected == node)
    return;
  self->view.selected = node;
  describe_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const WsFlameView *
ws_flame_chart_get_view (WsFlameChart *self)
{
  return &self->view;
}

/* Where @node is drawn in the widget, if it is. */
gboolean
ws_flame_chart_node_rect (WsFlameChart    *self,
                          guint            node,
                          graphene_rect_t *rect)
{
  cairo_rectangle_t r;

  if (self->graph == NULL ||
      !ws_flame_renderer_node_rect (self->renderer, self->graph->tree, &self->view,
                                    gtk_widget_get_width (GTK_WIDGET (self)),
                                    gtk_widget_get_height (GTK_WIDGET (self)), node, &r))
    return FALSE;
  graphene_rect_init (rect, r.x, r.y, r.width, r.height);
  return TRUE;
}

static guint
hit (WsFlameChart *self,
     double        x,
     double        y)
{
  if (self->graph == NULL)
    return WS_FLAME_NO_NODE;
  return ws_flame_renderer_hit (self->renderer, self->graph->tree, &self->view,
                                gtk_widget_get_width (GTK_WIDGET (self)),
                                gtk_widget_get_height (GTK_WIDGET (self)), x, y);
}

static void
snapshot (GtkWidget   *widget,
          GtkSnapshot *snap)
{
  WsFlameChart *self = WS_FLAME_CHART (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->graph == NULL || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snap, &GRAPHENE_RECT_INIT (0, 0, width, height));
  ws_flame_renderer_draw (self->renderer, cr, self->graph->tree, &self->view, width, height);
  cairo_destroy (cr);
  if (gtk_widget_has_visible_focus (widget))
    {
      GdkRGBA focus = { 0.21, 0.52, 0.89, 1 };
      GskRoundedRect outline;
      float w[4] = { 2, 2, 2, 2 };
      GdkRGBA colours[4] = { focus, focus, focus, focus };

      gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (0, 0, width, height), 0);
      gtk_snapshot_append_border (snap, &outline, w, colours);
    }
}

static void
measure (GtkWidget      *widget,
         GtkOrientation  orientation,
         int             for_size,
         int            *minimum,
         int            *natural,
         int            *minimum_baseline,
         int            *natural_baseline)
{
  WsFlameChart *self = WS_FLAME_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = 200, *natural = 800;
  else
    *minimum = *natural = self->graph ? (int) ws_flame_renderer_graph_height (self->renderer, self->graph->tree) : 0;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            WsFlameChart    *self)
{
  guint node = hit (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node == WS_FLAME_NO_NODE)
    return;
  /* As flamegraph.pl: a click zooms to the frame. */
  ws_flame_chart_set_selected (self, node);
  ws_flame_chart_set_zoom (self, node);
}

/* Arrows: towards the leaves (up in a flame, down in an icicle), back to
 * the parent, and along the siblings. */
static gboolean
key_cb (GtkEventControllerKey *controller,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        WsFlameChart          *self)
{
  const WsFlameNode *n;
  guint sel = self->view.selected;
  gboolean deeper, shallower;

  if (self->graph == NULL)
    return FALSE;
  if (keyval == GDK_KEY_Escape)
    {
      ws_flame_chart_set_zoom (self, WS_FLAME_ROOT);
      return TRUE;
    }
  if (sel == WS_FLAME_NO_NODE)
    sel = self->view.zoom;
  n = ws_flame_tree_get_node (self->graph->tree, sel);
  deeper = keyval == (self->view.icicle ? GDK_KEY_Down : GDK_KEY_Up);
  shallower = keyval == (self->view.icicle ? GDK_KEY_Up : GDK_KEY_Down);
  if (keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_space)
    ws_flame_chart_set_zoom (self, sel);
  else if (deeper && n->n_children > 0)
    {
      /* The heaviest child: where the time is. */
      guint best = n->first_child;
      for (guint c = n->first_child; c < n->first_child + n->n_children; c++)
        if (ws_flame_tree_get_node (self->graph->tree, c)->total > ws_flame_tree_get_node (self->graph->tree, best)->total)
          best = c;
      ws_flame_chart_set_selected (self, best);
    }
  else if (shallower && n->parent != G_MAXUINT32)
    ws_flame_chart_set_selected (self, n->parent);
  else if (keyval == GDK_KEY_Left && n->parent != G_MAXUINT32 &&
           sel > ws_flame_tree_get_node (self->graph->tree, n->parent)->first_child)
    ws_flame_chart_set_selected (self, sel - 1);
  else if (keyval == GDK_KEY_Right && n->parent != G_MAXUINT32 &&
           sel + 1 < ws_flame_tree_get_node (self->graph->tree, n->parent)->first_child +
                     ws_flame_tree_get_node (self->graph->tree, n->parent)->n_children)
    ws_flame_chart_set_selected (self, sel + 1);
  else if (deeper || shallower || keyval == GDK_KEY_Left || keyval == GDK_KEY_Right)
    ws_flame_chart_set_selected (self, sel);
  else
    return FALSE;
  return TRUE;
}

static gboolean
query_tooltip (GtkWidget  *widget,
               int         x,
               int         y,
               gboolean    keyboard,
               GtkTooltip *tooltip)
{
  WsFlameChart *self = WS_FLAME_CHART (widget);
  guint node = keyboard ? self->view.selected : hit (self, x, y);
  g_autofree char *text = NULL;

  if (node == WS_FLAME_NO_NODE)
    return FALSE;
  text = ws_flame_describe_node (self->graph, node);
  if (self->view.diff != NULL)
    {
      g_autofree char *change = ws_flame_describe_change (self->graph, self->view.diff[node]);
      char *both = g_strconcat (text, "\n", change, NULL);
      g_free (text);
      text = both;
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
get_property (GObject    *object,
              guint       prop_id,
              GValue     *value,
              GParamSpec *pspec)
{
  WsFlameChart *self = WS_FLAME_CHART (object);

  switch (prop_id)
    {
    case PROP_ZOOM: g_value_set_uint (value, self->view.zoom); break;
    case PROP_SELECTED: g_value_set_uint (value, self->view.selected); break;
    case PROP_ICICLE: g_value_set_boolean (value, self->view.icicle); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_property (GObject      *object,
              guint         prop_id,
              const GValue *value,
              GParamSpec   *pspec)
{
  WsFlameChart *self = WS_FLAME_CHART (object);

  switch (prop_id)
    {
    case PROP_ZOOM: ws_flame_chart_set_zoom (self, g_value_get_uint (value)); break;
    case PROP_SELECTED: ws_flame_chart_set_selected (self, g_value_get_uint (value)); break;
    case PROP_ICICLE: ws_flame_chart_set_icicle (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
finalize (GObject *object)
{
  ws_flame_renderer_free (WS_FLAME_CHART (object)->renderer);
  G_OBJECT_CLASS (ws_flame_chart_parent_class)->finalize (object);
}

static void
ws_flame_chart_class_init (WsFlameChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  widget_class->snapshot = snapshot;
  widget_class->measure = measure;
  widget_class->query_tooltip = query_tooltip;

  props[PROP_ZOOM] = g_param_spec_uint ("zoom", NULL, NULL, 0, G_MAXUINT, WS_FLAME_ROOT,
                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SELECTED] = g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, WS_FLAME_NO_NODE,
                                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_ICICLE] = g_param_spec_boolean ("icicle", NULL, NULL, FALSE,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_css_name (widget_class, "flamechart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_flame_chart_init (WsFlameChart *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->renderer = ws_flame_renderer_new ();
  ws_flame_view_init (&self->view);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Flame graph"), -1);
  describe_selection (self);
}
