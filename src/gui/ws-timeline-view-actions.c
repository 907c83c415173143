/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's actions: zoom, pan, scrolling, the selection, and the
 * context menu of a wait (right click, the Menu key or Shift+F10 on the
 * selected wait) whose entries ask for that wait's ready tree, wait graph
 * or critical path (::analyse-wait).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-graph-request.h"
#include "ws-timeline-view-private.h"

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  ws_timeline_view_zoom_about (WS_TIMELINE_VIEW (widget), KEY_ZOOM_STEP, ws_timeline_view_chart_middle (WS_TIMELINE_VIEW (widget)));
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  ws_timeline_view_zoom_about (WS_TIMELINE_VIEW (widget), 1 / KEY_ZOOM_STEP, ws_timeline_view_chart_middle (WS_TIMELINE_VIEW (widget)));
}

static void
zoom_fit_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);

  if (self->viewport == NULL)
    return;
  ws_timeline_viewport_push_history (self->viewport);
  ws_timeline_viewport_zoom_to_fit (self->viewport);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);

  if (self->viewport != NULL)
    ws_timeline_viewport_go_back (self->viewport);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  double fraction = g_variant_get_double (param);

  if (self->viewport != NULL)
    ws_timeline_viewport_pan (self->viewport, fraction * ws_timeline_viewport_get_width (self->viewport));
}

static void
scroll_rows_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  double pages = g_variant_get_double (param);
  double step = fabs (pages) < 1 ? 24 : gtk_adjustment_get_page_increment (self->vadjustment);

  gtk_adjustment_set_value (self->vadjustment,
                            gtk_adjustment_get_value (self->vadjustment) + (pages < 0 ? -step : step));
}

static void
zoom_selection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  ws_timeline_view_zoom_to_selection (WS_TIMELINE_VIEW (widget));
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);

  if (self->viewport == NULL)
    return;
  ws_timeline_viewport_clear_selection (self->viewport);
  ws_timeline_viewport_set_selected_event (self->viewport, WS_NONE);
  ws_timeline_viewport_set_highlighted_threads (self->viewport, NULL, 0);
  ws_timeline_view_invalidate (self);
}


/* The wait the menu was opened on, else the selected event if a wait. */
static guint
menu_wait (WsTimelineView *self)
{
  WsTrace *trace;
  guint event;

  if (self->lod == NULL)
    return WS_NONE;
  trace = ws_timeline_lod_get_trace (self->lod);
  event = self->menu_event != WS_NONE ? self->menu_event : ws_timeline_viewport_get_selected_event (self->viewport);
  if (event >= ws_trace_get_n_events (trace) || ws_trace_get_event (trace, event)->kind != WS_EVENT_WAIT)
    return WS_NONE;
  return event;
}

static void
analyse_wait_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  guint event = menu_wait (self);
  WsGraphMode mode = g_str_equal (action_name, "timeline.wait-graph") ? WS_GRAPH_MODE_WAIT_GRAPH
                     : g_str_equal (action_name, "timeline.critical-path") ? WS_GRAPH_MODE_CRITICAL_PATH
                     : WS_GRAPH_MODE_READY_TREE;

  self->menu_event = WS_NONE;
  if (event != WS_NONE)
    g_signal_emit (self, ws_timeline_view_signals[ANALYSE_WAIT], 0, (int) mode, event);
}

static GMenuModel *
wait_menu_model (void)
{
  GMenu *menu = g_menu_new ();

  g_menu_append (menu, _("Ready Tree of This Wait"), "timeline.ready-tree");
  g_menu_append (menu, _("Wait Graph…"), "timeline.wait-graph");
  g_menu_append (menu, _("Critical Path…"), "timeline.critical-path");
  return G_MENU_MODEL (menu);
}

/**
 * ws_timeline_view_popup_wait_menu:
 * @x: where to point, in widget coordinates
 * @y: likewise
 *
 * Opens the context menu of the WAIT @event.
 */
void
ws_timeline_view_popup_wait_menu (WsTimelineView *self,
                                  guint           event,
                                  double          x,
                                  double          y)
{
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  if (self->wait_menu == NULL)
    {
      g_autoptr(GMenuModel) model = wait_menu_model ();

      self->wait_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->wait_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->wait_menu), TRUE);
      gtk_widget_set_halign (self->wait_menu, GTK_ALIGN_START);
    }
  self->menu_event = event;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->wait_menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->wait_menu));
}

/* The Menu key / Shift+F10: the menu of the selected wait, pointing at
 * the middle of its line. */
static void
wait_menu_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  WsTimelineView *self = WS_TIMELINE_VIEW (widget);
  const WsTimelineGeometry *g = ws_timeline_renderer_get_geometry (self->renderer);
  WsTrace *trace;
  WsTime t0, t1;
  guint event, row;
  double x, y;

  self->menu_event = WS_NONE;
  if ((event = menu_wait (self)) == WS_NONE)
    return;
  trace = ws_timeline_lod_get_trace (self->lod);
  ws_timeline_view_reveal_event (self, event);
  ws_timeline_renderer_get_event_extents (self->renderer, trace, event, &t0, &t1);
  row = ws_timeline_layout_find_thread_row (self->layout, ws_trace_get_event (trace, event)->thread);
  x = g->label_width + ws_timeline_viewport_time_to_x (self->viewport, t0 + (t1 - t0) / 2);
  x = CLAMP (x, g->label_width, gtk_widget_get_width (widget) - 1);
  y = g->ruler_height - ws_timeline_view_scroll_y (self) + 12;
  if (row != WS_NONE)
    {
      const WsTimelineRow *r = ws_timeline_layout_get_row (self->layout, row);
      y = g->ruler_height + r->y - ws_timeline_view_scroll_y (self) + r->lane + (r->height - r->lane) / 2;
    }
  ws_timeline_view_popup_wait_menu (self, event, x, y);
}

/* The wait actions are enabled while a wait is selected. */
void
ws_timeline_view_update_wait_actions (WsTimelineView *self)
{
  gboolean wait = menu_wait (self) != WS_NONE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.ready-tree", wait);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.wait-graph", wait);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.critical-path", wait);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.wait-menu", wait);
}

void
ws_timeline_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "d", pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-rows", "d", scroll_rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-selection", NULL, zoom_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "timeline.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "d", -KEY_PAN_FRACTION);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "d", KEY_PAN_FRACTION);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.scroll-rows", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.scroll-rows", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.scroll-rows", "d", -1.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.scroll-rows", "d", 1.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, 0, "timeline.zoom-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);

  gtk_widget_class_install_action (widget_class, "timeline.ready-tree", NULL, analyse_wait_action);
  gtk_widget_class_install_action (widget_class, "timeline.wait-graph", NULL, analyse_wait_action);
  gtk_widget_class_install_action (widget_class, "timeline.critical-path", NULL, analyse_wait_action);
  gtk_widget_class_install_action (widget_class, "timeline.wait-menu", NULL, wait_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.wait-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.wait-menu", NULL);
}
