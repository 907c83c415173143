/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of WsTimelineView share (ws-timeline-view.c: scrolling,
 * drawing, the public API; ws-timeline-view-input.c: pointer input and
 * tooltips; ws-timeline-view-actions.c: keyboard actions and the context
 * menu of a wait).
 */
#pragma once

#include "ws-timeline-view.h"

G_BEGIN_DECLS

#define HISTORY_COALESCE_USEC (700 * 1000)
#define DRAG_THRESHOLD        4.0
#define WHEEL_ZOOM_STEP       1.25
#define KEY_ZOOM_STEP         1.5
#define KEY_PAN_FRACTION      0.15

struct _WsTimelineView
{
  GtkWidget           parent_instance;

  /* Owned references */
  WsTimelineRenderer *renderer;
  WsTimelineLod      *lod;
  WsTimelineLayout   *layout;
  WsTimelineViewport *viewport;
  GSignalGroup       *viewport_signals;
  GSignalGroup       *layout_signals;
  GtkAdjustment      *hadjustment;
  GtkAdjustment      *vadjustment;
  GdkTexture         *texture;
  WsAnomalyResult    *anomalies;      /* (nullable) waits coloured by score */
  guint               anomaly_trace;

  /* Scrolling */
  guint               hscroll_policy : 1;
  guint               vscroll_policy : 1;
  guint               in_adjustment_update : 1;
  guint               dirty : 1;
  guint               dark : 1;

  /* Pointer */
  double              pointer_x;
  double              pointer_y;
  double              drag_x;
  double              drag_y;
  WsTimelineHit       drag_hit;
  gboolean            selecting;
  double              pan_h;
  double              pan_v;
  double              zoom_scale;
  gint64              last_history_push;

  /* The context menu of a wait */
  GtkWidget          *wait_menu;
  guint               menu_event;
};

enum {
  ANALYSE_WAIT,
  N_VIEW_SIGNALS
};

extern guint ws_timeline_view_signals[N_VIEW_SIGNALS];

/* ws-timeline-view.c */
double ws_timeline_view_label_width  (WsTimelineView *self);
double ws_timeline_view_scroll_y     (WsTimelineView *self);
double ws_timeline_view_chart_middle (WsTimelineView *self);
void   ws_timeline_view_invalidate   (WsTimelineView *self);
void   ws_timeline_view_zoom_about   (WsTimelineView *self,
                                      double          factor,
                                      double          widget_x);

/* ws-timeline-view-input.c */
void   ws_timeline_view_init_input   (WsTimelineView *self);

/* ws-timeline-view-actions.c */
void   ws_timeline_view_class_init_actions (GtkWidgetClass *widget_class);
void   ws_timeline_view_popup_wait_menu    (WsTimelineView *self,
                                            guint           event,
                                            double          x,
                                            double          y);
void   ws_timeline_view_update_wait_actions (WsTimelineView *self);



G_END_DECLS
