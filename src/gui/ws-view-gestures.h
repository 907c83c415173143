/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * WsViewGestures: the event controllers a drawn view (graph, critical
 * path, alignment, timeline) wires up — click, drag, pinch zoom, scroll,
 * pointer motion, keys, focus — described once as a table of handlers.
 * ws_view_gestures_attach() adds a controller for each group that has a
 * handler, always in the same order, so that the views behave alike.
 * Handlers receive @data last, or first when @swapped is set (the
 * g_signal_connect_swapped() convention).
 */
typedef struct
{
  /* GtkGestureClick: "pressed" / "released" on click_button (0: any) */
  guint     click_button;
  GCallback pressed;
  GCallback released;

  /* GtkGestureDrag: "drag-begin" / "drag-update" / "drag-end" */
  guint     drag_button;
  GCallback drag_begin;
  GCallback drag_update;
  GCallback drag_end;

  /* GtkGestureZoom (pinch): "begin" / "scale-changed" */
  GCallback zoom_begin;
  GCallback zoom_scale_changed;

  /* GtkEventControllerScroll on both axes: "scroll" */
  GCallback scroll;

  /* GtkEventControllerMotion: "enter" / "motion" / "leave" */
  GCallback enter;
  GCallback motion;
  GCallback leave;

  /* GtkEventControllerKey: "key-pressed" */
  GCallback key_pressed;

  /* GtkEventControllerFocus: "enter" and "leave" both call
   * focus_changed (data), whatever @swapped says */
  GCallback focus_changed;

  gboolean  swapped;
} WsViewGestures;

void        ws_view_gestures_attach   (GtkWidget            *widget,
                                       const WsViewGestures *gestures,
                                       gpointer              data);
GtkGesture *ws_view_gestures_add_drag (GtkWidget            *widget,
                                       guint                 button,
                                       GCallback             begin,
                                       GCallback             update,
                                       GCallback             end,
                                       gpointer              data,
                                       gboolean              swapped);

G_END_DECLS
