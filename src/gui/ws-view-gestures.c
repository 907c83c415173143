/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ws-view-gestures.h"
#include "ws-trace.h"   /* WS_NONE */

static void
connect (gpointer     instance,
         const char  *signal,
         GCallback    handler,
         gpointer     data,
         gboolean     swapped)
{
  if (handler != NULL)
    g_signal_connect_data (instance, signal, handler, data, NULL,
                           swapped ? G_CONNECT_SWAPPED : 0);
}

static void
add (GtkWidget          *widget,
     GtkEventController *controller)
{
  gtk_widget_add_controller (widget, controller);
}

GtkGesture *
ws_view_gestures_add_drag (GtkWidget *widget,
                           guint      button,
                           GCallback  begin,
                           GCallback  update,
                           GCallback  end,
                           gpointer   data,
                           gboolean   swapped)
{
  GtkGesture *gesture;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), button);
  connect (gesture, "drag-begin", begin, data, swapped);
  connect (gesture, "drag-update", update, data, swapped);
  connect (gesture, "drag-end", end, data, swapped);
  add (widget, GTK_EVENT_CONTROLLER (gesture));
  return gesture;
}

static void
attach_gestures (GtkWidget            *widget,
                 const WsViewGestures *g,
                 gpointer              data)
{
  GtkGesture *gesture;

  if (g->pressed != NULL || g->released != NULL)
    {
      gesture = gtk_gesture_click_new ();
      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), g->click_button);
      connect (gesture, "pressed", g->pressed, data, g->swapped);
      connect (gesture, "released", g->released, data, g->swapped);
      add (widget, GTK_EVENT_CONTROLLER (gesture));
    }
  if (g->drag_begin != NULL || g->drag_update != NULL || g->drag_end != NULL)
    ws_view_gestures_add_drag (widget, g->drag_button, g->drag_begin, g->drag_update,
                               g->drag_end, data, g->swapped);
  if (g->zoom_begin != NULL || g->zoom_scale_changed != NULL)
    {
      gesture = gtk_gesture_zoom_new ();
      connect (gesture, "begin", g->zoom_begin, data, g->swapped);
      connect (gesture, "scale-changed", g->zoom_scale_changed, data, g->swapped);
      add (widget, GTK_EVENT_CONTROLLER (gesture));
    }
}

/* Controllers that are not gestures claim no event sequences, so their
 * place after the gestures does not change which handler wins. */
static void
attach_controllers (GtkWidget            *widget,
                    const WsViewGestures *g,
                    gpointer              data)
{
  GtkEventController *controller;

  if (g->scroll != NULL)
    {
      controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
      connect (controller, "scroll", g->scroll, data, g->swapped);
      add (widget, controller);
    }
  if (g->enter != NULL || g->motion != NULL || g->leave != NULL)
    {
      controller = gtk_event_controller_motion_new ();
      connect (controller, "enter", g->enter, data, g->swapped);
      connect (controller, "motion", g->motion, data, g->swapped);
      connect (controller, "leave", g->leave, data, g->swapped);
      add (widget, controller);
    }
  if (g->key_pressed != NULL)
    {
      controller = gtk_event_controller_key_new ();
      connect (controller, "key-pressed", g->key_pressed, data, g->swapped);
      add (widget, controller);
    }
  if (g->focus_changed != NULL)
    {
      controller = gtk_event_controller_focus_new ();
      connect (controller, "enter", g->focus_changed, data, TRUE);
      connect (controller, "leave", g->focus_changed, data, TRUE);
      add (widget, controller);
    }
}

void
ws_view_gestures_attach (GtkWidget            *widget,
                         const WsViewGestures *gestures,
                         gpointer              data)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (gestures != NULL);

  attach_gestures (widget, gestures, data);
  attach_controllers (widget, gestures, data);
}

/* ------------------------------------------------------------------ */
/* WsViewNavigation                                                     */

#define DRAG_THRESHOLD_PX 4.0

typedef struct
{
  WsViewNavigation nav;
  GtkWidget       *view;        /* not owned: the state lives as long as it */
  double           pointer_x;
  double           pointer_y;
  double           zoom_start;
  /* Set by a drag past the threshold, cleared by the next drag's begin:
   * the click's release may come after the drag's end. */
  gboolean         dragging;
} Navigation;

static void
nav_pressed_cb (GtkGestureClick *gesture,
                int              n_press,
                double           x,
                double           y,
                Navigation      *n)
{
  gtk_widget_grab_focus (n->view);
  if (n_press == 2)
    {
      guint item = n->nav.item_at (n->view, x, y);
      if (item != WS_NONE)
        n->nav.activate (n->view, item);
    }
}

static void
nav_released_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 Navigation      *n)
{
  /* On release, so that the end of a drag does not select. */
  if (n_press == 1 && !n->dragging)
    n->nav.select (n->view, n->nav.item_at (n->view, x, y));
}

static void
nav_drag_begin_cb (GtkGestureDrag *gesture,
                   double          x,
                   double          y,
                   Navigation     *n)
{
  n->dragging = FALSE;
  n->nav.drag_begin (n->view);
}

static void
nav_drag_update_cb (GtkGestureDrag *gesture,
                    double          dx,
                    double          dy,
                    Navigation     *n)
{
  double moved = n->nav.drag_horizontal ? fabs (dx) : hypot (dx, dy);

  if (!n->dragging && moved < DRAG_THRESHOLD_PX)
    return;
  if (!n->dragging)
    gtk_widget_set_cursor_from_name (n->view, "grabbing");
  n->dragging = TRUE;
  n->nav.drag_pan (n->view, dx, dy);
}

static void
nav_drag_end_cb (GtkGestureDrag *gesture,
                 double          dx,
                 double          dy,
                 Navigation     *n)
{
  gtk_widget_set_cursor (n->view, NULL);
}

static void
nav_zoom_begin_cb (GtkGesture       *gesture,
                   GdkEventSequence *sequence,
                   Navigation       *n)
{
  n->zoom_start = n->nav.get_zoom (n->view);
}

static void
nav_zoom_scale_changed_cb (GtkGestureZoom *gesture,
                           double          scale,
                           Navigation     *n)
{
  double cx, cy;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    {
      cx = gtk_widget_get_width (n->view) / 2.0;
      cy = gtk_widget_get_height (n->view) / 2.0;
    }
  n->nav.zoom_at (n->view, n->zoom_start * scale / n->nav.get_zoom (n->view), cx, cy);
}

static void
nav_motion_cb (GtkEventControllerMotion *controller,
               double                    x,
               double                    y,
               Navigation               *n)
{
  n->pointer_x = x;
  n->pointer_y = y;
}

static gboolean
nav_scroll_cb (GtkEventControllerScroll *controller,
               double                    dx,
               double                    dy,
               Navigation               *n)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean pixels = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_SURFACE;

  if (!n->nav.has_content (n->view))
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      /* A touchpad's pixels zoom smoothly, a wheel's notches by a step. */
      double factor = pixels ? exp (-dy / 200.0) : pow (n->nav.wheel_zoom_step, -dy);
      n->nav.zoom_at (n->view, factor, n->pointer_x, n->pointer_y);
      return TRUE;
    }
  if ((state & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  return n->nav.scroll_pan (n->view, dx, dy, pixels);
}

static gboolean
nav_key_pressed_cb (GtkEventControllerKey *controller,
                    guint                  keyval,
                    guint                  keycode,
                    GdkModifierType        state,
                    Navigation            *n)
{
  if (n->nav.has_content (n->view))
    switch (keyval)
      {
      case GDK_KEY_plus:
      case GDK_KEY_equal:
      case GDK_KEY_KP_Add:
        n->nav.zoom (n->view, n->nav.key_zoom_step);
        return TRUE;
      case GDK_KEY_minus:
      case GDK_KEY_KP_Subtract:
        n->nav.zoom (n->view, 1 / n->nav.key_zoom_step);
        return TRUE;
      case GDK_KEY_Return:
      case GDK_KEY_KP_Enter:
      case GDK_KEY_ISO_Enter:
        {
          guint selected = n->nav.get_selected (n->view);
          if (selected != WS_NONE)
            n->nav.activate (n->view, selected);
          return selected != WS_NONE;
        }
      default:
        break;
      }
  return n->nav.key_pressed != NULL && n->nav.key_pressed (n->view, keyval, state);
}

static gboolean
nav_query_tooltip_cb (GtkWidget  *widget,
                      int         x,
                      int         y,
                      gboolean    keyboard,
                      GtkTooltip *tooltip,
                      Navigation *n)
{
  guint item = keyboard ? n->nav.get_selected (n->view) : n->nav.item_at (n->view, x, y);
  g_autofree char *text = NULL;

  if (item == WS_NONE || (text = n->nav.dup_tooltip (n->view, item)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/**
 * ws_view_navigation_attach:
 * @view: a drawn view, in its init
 * @navigation: its hooks (copied)
 *
 * Makes @view focusable, clips it, and wires the shared pointer, scroll,
 * key and tooltip behaviour described in the header to @navigation.
 */
void
ws_view_navigation_attach (GtkWidget              *view,
                           const WsViewNavigation *navigation)
{
  Navigation *n;
  WsViewGestures gestures = {
    .click_button = GDK_BUTTON_PRIMARY,
    .pressed = G_CALLBACK (nav_pressed_cb),
    .released = G_CALLBACK (nav_released_cb),
    .drag_button = 0,   /* any button pans */
    .drag_begin = G_CALLBACK (nav_drag_begin_cb),
    .drag_update = G_CALLBACK (nav_drag_update_cb),
    .drag_end = G_CALLBACK (nav_drag_end_cb),
    .zoom_begin = G_CALLBACK (nav_zoom_begin_cb),
    .zoom_scale_changed = G_CALLBACK (nav_zoom_scale_changed_cb),
    .scroll = G_CALLBACK (nav_scroll_cb),
    .enter = G_CALLBACK (nav_motion_cb),
    .motion = G_CALLBACK (nav_motion_cb),
    .key_pressed = G_CALLBACK (nav_key_pressed_cb),
  };

  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (navigation != NULL);

  n = g_new0 (Navigation, 1);
  n->nav = *navigation;
  n->view = view;
  g_object_set_data_full (G_OBJECT (view), "ws-view-navigation", n, g_free);

  gtk_widget_set_focusable (view, TRUE);
  gtk_widget_set_overflow (view, GTK_OVERFLOW_HIDDEN);
  if (navigation->dup_tooltip != NULL)
    {
      gtk_widget_set_has_tooltip (view, TRUE);
      g_signal_connect (view, "query-tooltip", G_CALLBACK (nav_query_tooltip_cb), n);
    }
  ws_view_gestures_attach (view, &gestures, n);
}

/* The keyboard focus, drawn over the view's picture (a drawn view has no
 * CSS outline of its own). */
void
ws_view_append_focus_ring (GtkWidget   *view,
                           GtkSnapshot *snapshot)
{
  const GdkRGBA focus = { 0.21, 0.52, 0.89, 0.5 };
  int width = gtk_widget_get_width (view);
  int height = gtk_widget_get_height (view);
  GskRoundedRect outline;

  if (!gtk_widget_has_visible_focus (view))
    return;
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (1, 1, width - 2, height - 2), 0);
  gtk_snapshot_append_border (snapshot, &outline, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { focus, focus, focus, focus });
}
