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
char *ws_event_format_readier     (WsTrace *trace,
                                   guint    event);
char *ws_event_format_stack       (WsTrace *trace,
                                   guint32  stack,
                                   guint    max_frames);
char *ws_event_format_markup      (WsTrace *trace,
                                   guint    event,
                                   guint    max_frames);

G_END_DECLS
