/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * Words for events, shared by the timeline's tooltips and the details
 * pane so that both describe an event the same way.
 */
char *ws_event_format_title       (WsTrace *trace,
                                   guint    event);
char *ws_event_format_thread      (WsTrace *trace,
                                   guint    thread);
char *ws_event_format_dup_wake_explain (WsTrace *trace,
                                        guint    event);
char *ws_event_format_readier     (WsTrace *trace,
                                   guint    event);
char *ws_event_format_stack       (WsTrace *trace,
                                   guint32  stack,
                                   guint    max_frames);
char *ws_event_format_markup      (WsTrace *trace,
                                   guint    event,
                                   guint    max_frames);

/* The graph page's words: "name · tid", "+1.000000 s", "name · tid, 2 ms". */
char *ws_event_format_thread_short(WsTrace *trace,
                                   guint    thread);
char *ws_event_format_offset      (WsTrace *trace,
                                   gint64   time);
char *ws_event_format_wait        (WsTrace *trace,
                                   guint    wait,
                                   gboolean when);

G_END_DECLS
