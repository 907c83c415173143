/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-record-access.h"

G_BEGIN_DECLS

/*
 * WsRecordPage: record a trace, as Hotspot's and Sysprof's record pages
 * do: a command, a running process or the whole system, a duration and
 * the kind of call stacks; the exact perf record line it will run; whether
 * this user may (pkexec, or what to change in perf_event_paranoid);
 * progress with Stop (keep what was recorded) and Cancel.  The recording is
 * the core's WsRecorder, run in a thread.  Emits ::recorded with the new
 * perf.data file, ::close when the user leaves.
 *
 * Actions (for buttons, keys and tests): record.start, record.stop,
 * record.cancel, record.close.
 */
#define WS_TYPE_RECORD_PAGE (ws_record_page_get_type ())
G_DECLARE_FINAL_TYPE (WsRecordPage, ws_record_page, WS, RECORD_PAGE, GtkWidget)

void         ws_record_page_set_command       (WsRecordPage *self,
                                               const char   *command_line);
void         ws_record_page_set_duration      (WsRecordPage *self,
                                               double        seconds);
const char  *ws_record_page_get_perf_line     (WsRecordPage *self);
const char  *ws_record_page_get_status        (WsRecordPage *self);
gboolean     ws_record_page_get_running       (WsRecordPage *self);
void         ws_record_page_set_system        (WsRecordPage         *self,
                                               const WsRecordSystem *system);
const char  *ws_record_page_get_access_message (WsRecordPage *self);

G_END_DECLS
