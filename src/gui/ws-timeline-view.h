/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-anomaly-detector.h"

#include "ws-stack-search.h"
#include "ws-timeline-layout.h"
#include "ws-timeline-lod.h"
#include "ws-timeline-renderer.h"
#include "ws-timeline-viewport.h"

G_BEGIN_DECLS

/*
 * WsTimelineView: the thread timeline widget.  It draws with
 * #WsTimelineRenderer, keeps no view state of its own (zoom, pan and
 * selection live in the #WsTimelineViewport it is given) and implements
 * #GtkScrollable: the vertical adjustment scrolls rows, the horizontal one
 * pans through time at the current zoom.
 *
 * Mouse: Ctrl+wheel or pinch zooms about the pointer, wheel / Shift+wheel /
 * touchpad scroll, middle-button drag pans, a primary-button drag over a
 * thread selects a window of it, a click selects the event under the
 * pointer (a process header collapses or expands).  Keyboard: + − 0,
 * arrows, Page Up/Down, Backspace (back in the zoom history), Z (zoom to
 * the selection), Escape (clear the selection).
 */
#define WS_TYPE_TIMELINE_VIEW (ws_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineView, ws_timeline_view, WS, TIMELINE_VIEW, GtkWidget)

GtkWidget          *ws_timeline_view_new              (void);
void                ws_timeline_view_set_data        (WsTimelineView     *self,
                                                      WsTimelineLod      *lod,
                                                      WsTimelineLayout   *layout,
                                                      WsTimelineViewport *viewport);
WsTimelineLod      *ws_timeline_view_get_lod          (WsTimelineView     *self);
WsTimelineLayout   *ws_timeline_view_get_layout       (WsTimelineView     *self);
WsTimelineViewport *ws_timeline_view_get_viewport     (WsTimelineView     *self);
WsTimelineRenderer *ws_timeline_view_get_renderer     (WsTimelineView     *self);
void                ws_timeline_view_set_search       (WsTimelineView     *self,
                                                      WsStackSearch      *search);
void                ws_timeline_view_reveal_event     (WsTimelineView     *self,
                                                      guint               event);
void                ws_timeline_view_reveal_thread    (WsTimelineView     *self,
                                                      guint               thread);
void                ws_timeline_view_zoom_to_selection(WsTimelineView     *self);
void                ws_timeline_view_zoom_to_span     (WsTimelineView     *self,
                                                      guint               thread,
                                                      WsTime              t0,
                                                      WsTime              t1);
gboolean            ws_timeline_view_hit_test         (WsTimelineView     *self,
                                                      double              x,
                                                      double              y,
                                                      WsTimelineHit      *hit);
char               *ws_timeline_view_dup_event_markup (WsTimelineView     *self,
                                                      guint               event,
                                                      guint               max_frames);

void                ws_timeline_view_set_anomalies (WsTimelineView  *self,
                                                    WsAnomalyResult *result,
                                                    guint            trace);

G_END_DECLS
