/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's pointer input: hovering, wheel and pinch zoom, drag to
 * select a window of a thread, click to select an event or a scenario
 * slice, right click for a wait's analyses, middle-button panning and
 * tooltips.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-time-format.h"
#include "ws-timeline-view-private.h"
#include "ws-view-gestures.h"

static void
motion_cb (WsTimelineView           *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  WsTimelineHit hit;

  self->pointer_x = x;
  self->pointer_y = y;
  if (self->selecting || !ws_timeline_view_hit_test (self, x, y, &hit))
    return;
  if (ws_timeline_viewport_get_hovered_event (self->viewport) != hit.event)
    {
      ws_timeline_viewport_set_hovered_event (self->viewport, hit.event);
      ws_timeline_view_invalidate (self);
    }
}

static void
leave_cb (WsTimelineView           *self,
          GtkEventControllerMotion *controller)
{
  if (self->viewport != NULL && ws_timeline_viewport_get_hovered_event (self->viewport) != WS_NONE)
    {
      ws_timeline_viewport_set_hovered_event (self->viewport, WS_NONE);
      ws_timeline_view_invalidate (self);
    }
}

static gboolean
scroll_cb (WsTimelineView           *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->viewport == NULL || !(state & GDK_CONTROL_MASK))
    return FALSE;   /* plain scrolling: the scrolled window moves the adjustments */

  ws_timeline_view_zoom_about (self, pow (WHEEL_ZOOM_STEP, -dy), self->pointer_x);
  return TRUE;
}

static void
zoom_begin_cb (WsTimelineView *self,
               GdkEventSequence *sequence,
               GtkGesture     *gesture)
{
  self->zoom_scale = 1.0;
}

static void
zoom_scale_changed_cb (WsTimelineView *self,
                       double          scale,
                       GtkGestureZoom *gesture)
{
  double cx, cy;

  if (self->viewport == NULL || scale <= 0)
    return;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = ws_timeline_view_chart_middle (self);
  ws_timeline_view_zoom_about (self, scale / self->zoom_scale, cx);
  self->zoom_scale = scale;
}

static void
drag_begin_cb (WsTimelineView *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->selecting = FALSE;
  if (!ws_timeline_view_hit_test (self, x, y, &self->drag_hit))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
drag_update_cb (WsTimelineView *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double lw = ws_timeline_view_label_width (self);
  WsTime t0, t1;

  if (self->drag_hit.thread == WS_NONE || self->drag_hit.in_labels || self->viewport == NULL)
    return;
  if (!self->selecting && fabs (dx) < DRAG_THRESHOLD)
    return;

  self->selecting = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  t0 = ws_timeline_viewport_x_to_time (self->viewport, self->drag_x - lw);
  t1 = ws_timeline_viewport_x_to_time (self->viewport, MAX (self->drag_x + dx, lw) - lw);
  ws_timeline_viewport_set_selection (self->viewport, self->drag_hit.thread, t0, t1);
  ws_timeline_view_invalidate (self);
}

static void
drag_end_cb (WsTimelineView *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  const WsTimelineRow *row;

  if (self->viewport == NULL)
    return;
  if (self->selecting)
    {
      self->selecting = FALSE;
      return;
    }

  /* A click. */
  if (self->drag_hit.row == WS_NONE)
    return;
  row = ws_timeline_layout_get_row (self->layout, self->drag_hit.row);
  if (row->kind == WS_TIMELINE_ROW_PROCESS)
    {
      ws_timeline_layout_set_collapsed (self->layout, row->index,
                                        !ws_timeline_layout_get_collapsed (self->layout, row->index));
      return;
    }
  if (self->drag_hit.instance != WS_NONE)
    {
      /* A scenario slice: its window becomes the selection, the symptom
       * the analyses explain. */
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (ws_timeline_lod_get_trace (self->lod),
                                                                     self->drag_hit.instance);
      ws_timeline_viewport_set_selection (self->viewport, si->thread, si->t0, si->t1);
      ws_timeline_view_invalidate (self);
    }
  else if (!self->drag_hit.in_labels)
    {
      ws_timeline_viewport_set_selected_event (self->viewport, self->drag_hit.event);
      ws_timeline_view_invalidate (self);
    }
}

static void
pan_begin_cb (WsTimelineView *self,
              double          x,
              double          y,
              GtkGestureDrag *gesture)
{
  self->pan_h = self->hadjustment ? gtk_adjustment_get_value (self->hadjustment) : 0;
  self->pan_v = self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
pan_update_cb (WsTimelineView *self,
               double          dx,
               double          dy,
               GtkGestureDrag *gesture)
{
  if (self->hadjustment)
    gtk_adjustment_set_value (self->hadjustment, self->pan_h - dx);
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, self->pan_v - dy);
}

static void
pan_end_cb (WsTimelineView *self,
            double          dx,
            double          dy,
            GtkGestureDrag *gesture)
{
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
}

static gboolean
query_tooltip_cb (WsTimelineView *self,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip)
{
  WsTimelineHit hit;
  g_autofree char *markup = NULL;
  GdkRectangle area = { x - 2, y - 2, 5, 5 };

  if (keyboard || !ws_timeline_view_hit_test (self, x, y, &hit))
    return FALSE;

  if (hit.in_labels && hit.row != WS_NONE)
    {
      WsTrace *trace = ws_timeline_lod_get_trace (self->lod);
      const WsTimelineRow *row = ws_timeline_layout_get_row (self->layout, hit.row);

      if (row->kind == WS_TIMELINE_ROW_THREAD)
        {
          const WsThread *t = ws_trace_get_thread (trace, row->index);
          const WsProcess *p = t->process != WS_NONE ? ws_trace_get_process (trace, t->process) : NULL;
          g_autofree char *name = g_markup_escape_text (t->name ? t->name : "?", -1);
          g_autofree char *pname = g_markup_escape_text (p && p->name ? p->name : "?", -1);

          /* Translators: tooltip of a thread label: thread, tid, process, pid */
          markup = g_strdup_printf (_("<b>%s</b>  thread %d\nprocess %s (%d)"), name, t->tid, pname, t->pid);
        }
      else
        /* Translators: tooltip of a process header */
        markup = g_strdup (_("Click to collapse or expand this process"));
    }
  else if (hit.instance != WS_NONE)
    {
      WsTrace *trace = ws_timeline_lod_get_trace (self->lod);
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, hit.instance);
      g_autofree char *dur = ws_format_duration (si->t1 - si->t0);
      g_autofree char *name = g_markup_escape_text (ws_trace_get_string (trace, si->scenario), -1);

      /* Translators: tooltip of a scenario instance's slice: name, duration */
      markup = g_strdup_printf (_("<b>%s</b>  %s\nClick to select its window"), name, dur);
    }
  else if (hit.event != WS_NONE)
    markup = ws_timeline_view_dup_event_markup (self, hit.event, 4);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  gtk_tooltip_set_tip_area (tooltip, &area);
  return TRUE;
}


/* A right click on a wait selects it and offers its analyses. */
static void
secondary_pressed_cb (WsTimelineView *self,
                      int             n_press,
                      double          x,
                      double          y,
                      GtkGestureClick *gesture)
{
  WsTimelineHit hit;

  if (!ws_timeline_view_hit_test (self, x, y, &hit) || hit.event == WS_NONE)
    return;
  if (ws_trace_get_event (ws_timeline_lod_get_trace (self->lod), hit.event)->kind != WS_EVENT_WAIT)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  ws_timeline_viewport_set_selected_event (self->viewport, hit.event);
  ws_timeline_view_popup_wait_menu (self, hit.event, x, y);
}

void
ws_timeline_view_init_input (WsTimelineView *self)
{
  static const WsViewGestures gestures = {
    .drag_button = GDK_BUTTON_PRIMARY,
    .drag_begin = G_CALLBACK (drag_begin_cb),
    .drag_update = G_CALLBACK (drag_update_cb),
    .drag_end = G_CALLBACK (drag_end_cb),
    .zoom_begin = G_CALLBACK (zoom_begin_cb),
    .zoom_scale_changed = G_CALLBACK (zoom_scale_changed_cb),
    .scroll = G_CALLBACK (scroll_cb),
    .motion = G_CALLBACK (motion_cb),
    .leave = G_CALLBACK (leave_cb),
    .swapped = TRUE,
  };
  ws_view_gestures_attach (GTK_WIDGET (self), &gestures, self);
  /* The middle button pans whatever the primary button's drag does. */
  ws_view_gestures_add_drag (GTK_WIDGET (self), GDK_BUTTON_MIDDLE, G_CALLBACK (pan_begin_cb),
                             G_CALLBACK (pan_update_cb), G_CALLBACK (pan_end_cb), self, TRUE);


  {
    GtkGesture *secondary = gtk_gesture_click_new ();

    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
    g_signal_connect_swapped (secondary, "pressed", G_CALLBACK (secondary_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));
  }
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}
