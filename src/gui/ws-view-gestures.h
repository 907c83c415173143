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

/*
 * WsViewNavigation: what a drawn view of items (the graph's nodes, the
 * critical path's segments) does with the pointer, described by hooks into
 * the view.  ws_view_navigation_attach() owns the behaviour the views share:
 *
 *   - a press grabs the focus; a double click activates the item under the
 *     pointer; a single click selects it on release, unless it ended a drag;
 *   - a drag (any button) pans once past 4 px (along x only with
 *     @drag_horizontal), with the "grabbing" cursor;
 *   - a pinch zooms about its centre from the zoom it started at;
 *   - Ctrl+scroll zooms about the pointer (a wheel notch by
 *     @wheel_zoom_step); Shift turns a vertical scroll into a horizontal
 *     one; any other scroll goes to @scroll_pan;
 *   - + / − zoom by @key_zoom_step, Enter activates the selection; every
 *     other key goes to @key_pressed;
 *   - the tooltip shows @dup_tooltip of the item under the pointer (of the
 *     selection when asked from the keyboard).
 *
 * How it zooms, pans and selects stays in the view: each has its own model
 * (a layout viewport, a time span).  Every hook but @key_pressed and
 * @dup_tooltip is required.  Items are indices, %WS_NONE for none.
 */
typedef struct
{
  gboolean  (*has_content)  (GtkWidget *view);
  guint     (*item_at)      (GtkWidget *view, double x, double y);
  guint     (*get_selected) (GtkWidget *view);
  void      (*select)       (GtkWidget *view, guint item);
  void      (*activate)     (GtkWidget *view, guint item);
  char     *(*dup_tooltip)  (GtkWidget *view, guint item);

  double    (*get_zoom)     (GtkWidget *view);
  /* about the middle of the view, and about widget point (@x, @y) */
  void      (*zoom)         (GtkWidget *view, double factor);
  void      (*zoom_at)      (GtkWidget *view, double factor, double x, double y);
  /* drag_pan gets the offset since the drag began: the view keeps where
   * it was in drag_begin */
  void      (*drag_begin)   (GtkWidget *view);
  void      (*drag_pan)     (GtkWidget *view, double dx, double dy);
  /* scroll deltas in pixels if @pixels, else in wheel notches */
  gboolean  (*scroll_pan)   (GtkWidget *view, double dx, double dy, gboolean pixels);
  gboolean  (*key_pressed)  (GtkWidget *view, guint keyval, GdkModifierType state);

  double    wheel_zoom_step;
  double    key_zoom_step;
  gboolean  drag_horizontal;
} WsViewNavigation;

void        ws_view_navigation_attach (GtkWidget              *view,
                                       const WsViewNavigation *navigation);
void        ws_view_append_focus_ring (GtkWidget              *view,
                                       GtkSnapshot            *snapshot);

G_END_DECLS
