/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-critical-path.h"
#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-symptom.h"

G_BEGIN_DECLS

/**
 * WsCriticalPathSettings:
 * @symptom: the thread and window whose end the path explains
 * @classifier: (nullable): wake kinds (which readiers are followed); %NULL =
 *   ws_frame_classifier_get_default()
 *
 * Everything a critical path depends on.  Initialise with
 * ws_critical_path_settings_init().
 */
typedef WsSymptomSettings WsCriticalPathSettings;

void            ws_critical_path_settings_init (WsCriticalPathSettings       *settings,
                                                const WsSymptom              *symptom);

/*
 * ws_critical_path_run:
 * The one entry point of the critical-path analysis, for the CLI and the
 * GUI alike.  May run in any thread.  @progress (nullable) is called from
 * that thread at the start and the end; @cancellable is polled before and
 * after the walk (which is linear in the path's segments).
 *
 * Returns: (transfer full): the path, or %NULL with @error set
 *   (WS_ERROR_INVALID for a bad thread or window, G_IO_ERROR_CANCELLED)
 */
WsCriticalPath *ws_critical_path_run           (WsTrace                      *trace,
                                                const WsCriticalPathSettings *settings,
                                                GCancellable                 *cancellable,
                                                WsProgressFunc                progress,
                                                gpointer                      progress_data,
                                                GError                      **error);

G_END_DECLS
