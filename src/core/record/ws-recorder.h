/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-record-access.h"
#include "ws-record-settings.h"

G_BEGIN_DECLS

/*
 * WsRecorder: one `perf record` run, the one core entry point of recording
 * that the Record page and `waitscope-cli record` share.  ws_recorder_run()
 * blocks (in the CLI's main thread or a GUI worker thread); stop and
 * cancel may come from any thread.
 */
#define WS_TYPE_RECORDER (ws_recorder_get_type ())
G_DECLARE_FINAL_TYPE (WsRecorder, ws_recorder, WS, RECORDER, GObject)

WsRecorder         *ws_recorder_new              (const WsRecordSettings *settings,
                                                  const WsRecordSystem   *system);
WsRecordAccessKind  ws_recorder_get_access       (WsRecorder             *self,
                                                  const char            **message);
GStrv               ws_recorder_get_argv         (WsRecorder             *self);
const char         *ws_recorder_get_output       (WsRecorder             *self);
const char         *ws_recorder_get_log          (WsRecorder             *self);
gboolean            ws_recorder_run              (WsRecorder             *self,
                                                  WsProgressFunc          progress,
                                                  gpointer                progress_data,
                                                  GCancellable           *cancellable,
                                                  GError                **error);
void                ws_recorder_stop             (WsRecorder             *self);

G_END_DECLS
