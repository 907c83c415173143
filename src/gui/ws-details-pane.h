/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsDetailsPane: what the timeline points at.  For an event: its state,
 * duration, thread, time, readier and ready latency, its stack and, for a
 * wait woken by a thread, the readier's (unwait) stack side by side.  For
 * a selected thread window: the time it spent running, ready and waiting.
 */
#define WS_TYPE_DETAILS_PANE (ws_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (WsDetailsPane, ws_details_pane, WS, DETAILS_PANE, GtkWidget)

GtkWidget *ws_details_pane_new         (void);
void       ws_details_pane_set_trace   (WsDetailsPane *self,
                                        WsTrace       *trace);
void       ws_details_pane_show_event  (WsDetailsPane *self,
                                        guint          event,
                                        gboolean       full_stacks);
void       ws_details_pane_show_window (WsDetailsPane *self,
                                        guint          thread,
                                        WsTime         t0,
                                        WsTime         t1);
void       ws_details_pane_clear       (WsDetailsPane *self);
const char*ws_details_pane_get_title   (WsDetailsPane *self);
const char*ws_details_pane_get_stack_text (WsDetailsPane *self);

G_END_DECLS
