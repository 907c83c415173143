/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-awg-view.h"
#include "ws-render-util.h"
#include "ws-view-gestures.h"

/* Graphs above this many nodes show their costliest ones only. */
#define MAX_SHOWN 400

struct _WsAwgView
{
  GtkWidget      parent_instance;

  WsAwgRenderer *renderer;
  double         zoom;
  WsGraphRect    pending;      /* where to scroll once laid out */
  guint          pending_id;
};

G_DEFINE_FINAL_TYPE (WsAwgView, ws_awg_view, GTK_TYPE_WIDGET)

enum { SIGNAL_NODE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
ws_awg_view_dispose (GObject *object)
{
  g_clear_object (&WS_AWG_VIEW (object)->renderer);
  g_clear_handle_id (&WS_AWG_VIEW (object)->pending_id, g_source_remove);
  G_OBJECT_CLASS (ws_awg_view_parent_class)->dispose (object);
}

/* The figure follows the style, as the graph view does: a white page in
 * a dark window glared. */
static void
update_palette (WsAwgView *self)
{
  WsAwgPalette palette;

  if (adw_style_manager_get_dark (adw_style_manager_get_default ()))
    ws_awg_palette_init_dark (&palette);
  else
    ws_awg_palette_init_light (&palette);
  ws_awg_renderer_set_palette (self->renderer, &palette);
}

static void
ws_awg_view_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (ws_awg_view_parent_class)->css_changed (widget, change);
  gtk_widget_queue_draw (widget);
}

static void
ws_awg_view_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  WsAwgView *self = WS_AWG_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->renderer == NULL || width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  update_palette (self);
  ws_render_set_source (cr, &ws_awg_renderer_get_palette (self->renderer)->background);
  cairo_paint (cr);
  cairo_scale (cr, self->zoom, self->zoom);
  ws_awg_renderer_draw (self->renderer, cr);
  cairo_destroy (cr);
}

static void
ws_awg_view_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  WsAwgView *self = WS_AWG_VIEW (widget);
  double w = 200, h = 120;

  if (self->renderer != NULL)
    ws_awg_renderer_get_size (self->renderer, &w, &h);
  *minimum = *natural = (int) ceil ((orientation == GTK_ORIENTATION_HORIZONTAL ? w : h) * self->zoom);
}

static void
update_accessible (WsAwgView *self)
{
  g_autofree char *text = NULL;

  if (self->renderer == NULL)
    text = g_strdup (_("No aggregated wait graph"));
  else
    {
      WsAwg *awg = ws_awg_renderer_get_awg (self->renderer);
      guint n_roots = 0;

      ws_awg_get_roots (awg, &n_roots);
      guint n_nodes = ws_awg_get_n_nodes (awg), n_graphs = ws_awg_get_n_graphs (awg);
      guint n_paths = ws_awg_renderer_get_n_highlighted (self->renderer);
      g_autofree char *nodes = g_strdup_printf (ngettext ("%u node", "%u nodes", n_nodes), n_nodes);
      g_autofree char *roots = g_strdup_printf (ngettext ("%u root", "%u roots", n_roots), n_roots);
      g_autofree char *graphs = g_strdup_printf (ngettext ("%u wait graph", "%u wait graphs", n_graphs), n_graphs);
      g_autofree char *paths = g_strdup_printf (ngettext ("%u path highlighted", "%u paths highlighted", n_paths),
                                                n_paths);

      /* Translators: aggregated wait graph: nodes, roots, graphs; paths */
      text = g_strdup_printf (_("%s, %s, from %s; %s"), nodes, roots, graphs, paths);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            WsAwgView       *self)
{
  guint node;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->renderer == NULL)
    return;
  node = ws_awg_renderer_node_at (self->renderer, x / self->zoom, y / self->zoom);
  if (node != G_MAXUINT32)
    g_signal_emit (self, signals[SIGNAL_NODE_ACTIVATED], 0, node);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           WsAwgView                *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  /* Ctrl+wheel zooms; any other scroll (sideways too) scrolls the page. */
  if (!(mods & GDK_CONTROL_MASK) || dy == 0)
    return FALSE;
  ws_awg_view_set_zoom (self, self->zoom * (dy < 0 ? 1.2 : 1 / 1.2));
  return TRUE;
}

static gboolean
key_cb (GtkEventControllerKey *key,
        guint                  keyval,
        guint                  keycode,
        GdkModifierType        state,
        WsAwgView             *self)
{
  switch (keyval)
    {
    case GDK_KEY_plus: case GDK_KEY_KP_Add: case GDK_KEY_equal:
      ws_awg_view_set_zoom (self, self->zoom * 1.2);
      return TRUE;
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      ws_awg_view_set_zoom (self, self->zoom / 1.2);
      return TRUE;
    case GDK_KEY_0: case GDK_KEY_KP_0:
      ws_awg_view_set_zoom (self, 1.0);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
ws_awg_view_class_init (WsAwgViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_awg_view_dispose;
  widget_class->snapshot = ws_awg_view_snapshot;
  widget_class->css_changed = ws_awg_view_css_changed;
  widget_class->measure = ws_awg_view_measure;

  /**
   * WsAwgView::node-activated:
   * @node: the AWG node clicked
   */
  signals[SIGNAL_NODE_ACTIVATED] = g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  gtk_widget_class_set_css_name (widget_class, "awgview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_awg_view_init (WsAwgView *self)
{
  /* The shared gesture table, not the navigation controller: the view
   * sits in a scrolled window that pans it, and a single click opens a
   * node (the navigation's click selects, its double click opens). */
  static const WsViewGestures gestures = {
    .click_button = GDK_BUTTON_PRIMARY,
    .pressed = G_CALLBACK (pressed_cb),
    .scroll = G_CALLBACK (scroll_cb),
    .key_pressed = G_CALLBACK (key_cb),
  };

  self->zoom = 1.0;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  ws_view_gestures_attach (GTK_WIDGET (self), &gestures, self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Aggregated wait graph"), -1);
  update_accessible (self);
}

GtkWidget *
ws_awg_view_new (void)
{
  return g_object_new (WS_TYPE_AWG_VIEW, NULL);
}

void
ws_awg_view_set_awg (WsAwgView *self,
                     WsAwg     *awg)
{
  g_return_if_fail (WS_IS_AWG_VIEW (self));

  g_clear_object (&self->renderer);
  if (awg != NULL)
    self->renderer = ws_awg_renderer_new (awg, MAX_SHOWN);
  update_accessible (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

WsAwgRenderer *
ws_awg_view_get_renderer (WsAwgView *self)
{
  g_return_val_if_fail (WS_IS_AWG_VIEW (self), NULL);
  return self->renderer;
}

static void scroll_to (WsAwgView *self, const WsGraphRect *rect);

void
ws_awg_view_set_highlight (WsAwgView *self,
                           GArray    *leaves)
{
  g_return_if_fail (WS_IS_AWG_VIEW (self));
  if (self->renderer == NULL)
    return;
  ws_awg_renderer_set_highlight (self->renderer, leaves ? (const guint32 *) (gpointer) leaves->data : NULL,
                                 leaves ? leaves->len : 0);
  /* Bring the first highlighted path's end into view. */
  for (guint i = 0; leaves != NULL && i < leaves->len; i++)
    {
      WsGraphRect r;

      if (ws_awg_renderer_get_node_rect (self->renderer, g_array_index (leaves, guint32, i), &r))
        {
          scroll_to (self, &r);
          break;
        }
    }
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_pending (gpointer data)
{
  WsAwgView *self = data;
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *h, *v;

  self->pending_id = 0;
  if (sw == NULL)
    return G_SOURCE_REMOVE;
  h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sw));
  v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
  gtk_adjustment_set_value (h, (self->pending.x + self->pending.width / 2) * self->zoom
                               - gtk_adjustment_get_page_size (h) / 2);
  gtk_adjustment_set_value (v, (self->pending.y + self->pending.height) * self->zoom
                               - gtk_adjustment_get_page_size (v) * 2 / 3);
  return G_SOURCE_REMOVE;
}

/* Scrolls the enclosing scrolled window so that @rect is in view, once
 * the new size has reached the scrollbars (an idle after the resize). */
static void
scroll_to (WsAwgView *self, const WsGraphRect *rect)
{
  self->pending = *rect;
  if (self->pending_id == 0)
    self->pending_id = g_timeout_add_full (G_PRIORITY_LOW, 50, scroll_pending, self, NULL);
}

guint
ws_awg_view_set_search (WsAwgView *self,
                        GRegex    *regex)
{
  WsGraphRect r;
  guint n;

  g_return_val_if_fail (WS_IS_AWG_VIEW (self), 0);
  if (self->renderer == NULL)
    return 0;
  n = ws_awg_renderer_set_search (self->renderer, regex);
  if (n > 0 && ws_awg_renderer_get_node_rect (self->renderer, ws_awg_renderer_get_match (self->renderer, 0), &r))
    scroll_to (self, &r);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return n;
}

void
ws_awg_view_set_zoom (WsAwgView *self,
                      double     zoom)
{
  g_return_if_fail (WS_IS_AWG_VIEW (self));
  self->zoom = CLAMP (zoom, 0.1, 4.0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

double
ws_awg_view_get_zoom (WsAwgView *self)
{
  g_return_val_if_fail (WS_IS_AWG_VIEW (self), 1.0);
  return self->zoom;
}
