/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-view-gestures.h"

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
