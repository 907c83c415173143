/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsStackSearch: the events of a trace whose call stack holds a frame
 * (function or module) matching a regular expression, per thread and in
 * time order, for highlighting in the timeline and for Next/Previous
 * cycling (the patent's regex search over stacks).  Immutable once built;
 * build it off the main thread for big traces.
 */
#define WS_TYPE_STACK_SEARCH (ws_stack_search_get_type ())
G_DECLARE_FINAL_TYPE (WsStackSearch, ws_stack_search, WS, STACK_SEARCH, GObject)

WsStackSearch *ws_stack_search_new                (WsTrace        *trace,
                                                   const char     *pattern,
                                                   GCancellable   *cancellable,
                                                   GError        **error);
WsStackSearch *ws_stack_search_new_from_stacks    (WsTrace        *trace,
                                                   const char     *description,
                                                   const guint8   *stack_match,
                                                   const guint8   *frame_match,
                                                   GCancellable   *cancellable,
                                                   GError        **error);
WsStackSearch *ws_stack_search_new_for_events     (WsTrace        *trace,
                                                   const char     *description,
                                                   const guint32  *events,
                                                   guint           n_events);
const char    *ws_stack_search_get_pattern        (WsStackSearch  *self);
WsTrace       *ws_stack_search_get_trace          (WsStackSearch  *self);
guint          ws_stack_search_get_n_matches      (WsStackSearch  *self);
guint          ws_stack_search_get_n_frames       (WsStackSearch  *self);
const guint32 *ws_stack_search_get_thread_matches (WsStackSearch  *self,
                                                   guint           thread,
                                                   guint          *n_matches);
gboolean       ws_stack_search_matches_event      (WsStackSearch  *self,
                                                   guint           event);
gboolean       ws_stack_search_matches_frame      (WsStackSearch  *self,
                                                   WsFrameId       frame);
gboolean       ws_stack_search_matches_stack      (WsStackSearch  *self,
                                                   WsStackId       stack);
guint          ws_stack_search_get_rank           (WsStackSearch  *self,
                                                   guint           event);
guint          ws_stack_search_next               (WsStackSearch  *self,
                                                   guint           event,
                                                   gboolean        forward);

G_END_DECLS
