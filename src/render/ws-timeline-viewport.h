/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsTimelineViewport: what part of a trace a timeline shows and what the
 * user picked in it.  It holds the visible time span, the pixel width it
 * maps to, the zoom history, the selected thread window (a StackMine
 * symptom ⟨thread, t0, t1⟩), and the hovered and selected events.  It knows
 * nothing of widgets, so the mapping can be unit-tested and shared by the
 * widget, the renderer and the exporters.
 *
 * Mapping: x = (t - begin) · width / (end - begin), x in pixels from the
 * left edge of the time axis.
 */
#define WS_TYPE_TIMELINE_VIEWPORT (ws_timeline_viewport_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineViewport, ws_timeline_viewport, WS, TIMELINE_VIEWPORT, GObject)

/* A view never shows less than this many ns across its width: at 1600 px
 * that is ~0.06 ns per pixel, far below perf's resolution. */
#define WS_TIMELINE_MIN_SPAN 100

WsTimelineViewport *ws_timeline_viewport_new              (void);

void     ws_timeline_viewport_set_bounds        (WsTimelineViewport *self,
                                                 WsTime              min,
                                                 WsTime              max);
WsTime   ws_timeline_viewport_get_min           (WsTimelineViewport *self);
WsTime   ws_timeline_viewport_get_max           (WsTimelineViewport *self);

void     ws_timeline_viewport_set_width         (WsTimelineViewport *self,
                                                 double              width);
double   ws_timeline_viewport_get_width         (WsTimelineViewport *self);

void     ws_timeline_viewport_set_visible       (WsTimelineViewport *self,
                                                 WsTime              begin,
                                                 WsTime              end);
WsTime   ws_timeline_viewport_get_begin         (WsTimelineViewport *self);
WsTime   ws_timeline_viewport_get_end           (WsTimelineViewport *self);
double   ws_timeline_viewport_get_ns_per_px     (WsTimelineViewport *self);

double   ws_timeline_viewport_time_to_x         (WsTimelineViewport *self,
                                                 WsTime              time);
WsTime   ws_timeline_viewport_x_to_time         (WsTimelineViewport *self,
                                                 double              x);

void     ws_timeline_viewport_zoom              (WsTimelineViewport *self,
                                                 double              factor,
                                                 double              anchor_x);
void     ws_timeline_viewport_pan               (WsTimelineViewport *self,
                                                 double              dx);
void     ws_timeline_viewport_zoom_to_fit       (WsTimelineViewport *self);

void     ws_timeline_viewport_push_history      (WsTimelineViewport *self);
gboolean ws_timeline_viewport_can_go_back       (WsTimelineViewport *self);
gboolean ws_timeline_viewport_go_back           (WsTimelineViewport *self);

void     ws_timeline_viewport_set_selection     (WsTimelineViewport *self,
                                                 guint               thread,
                                                 WsTime              t0,
                                                 WsTime              t1);
gboolean ws_timeline_viewport_get_selection     (WsTimelineViewport *self,
                                                 guint              *thread,
                                                 WsTime             *t0,
                                                 WsTime             *t1);
void     ws_timeline_viewport_clear_selection   (WsTimelineViewport *self);

void     ws_timeline_viewport_set_highlighted_threads   (WsTimelineViewport *self,
                                                         const guint32      *threads,
                                                         guint               n_threads);
gboolean ws_timeline_viewport_is_thread_highlighted     (WsTimelineViewport *self,
                                                         guint               thread);
guint    ws_timeline_viewport_get_n_highlighted_threads (WsTimelineViewport *self);

void     ws_timeline_viewport_set_hovered_event (WsTimelineViewport *self,
                                                 guint               event);
guint    ws_timeline_viewport_get_hovered_event (WsTimelineViewport *self);
void     ws_timeline_viewport_set_selected_event(WsTimelineViewport *self,
                                                 guint               event);
guint    ws_timeline_viewport_get_selected_event(WsTimelineViewport *self);

G_END_DECLS
