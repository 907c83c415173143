/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-symptom.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsWaitGraphSettings:
 * @symptom: the thread and window to explain
 * @classifier: (nullable): lock flags and wake kinds; %NULL =
 *   ws_frame_classifier_get_default()
 *
 * Everything a wait graph depends on.  Initialise with
 * ws_wait_graph_settings_init().
 */
typedef WsSymptomSettings WsWaitGraphSettings;

void         ws_wait_graph_settings_init (WsWaitGraphSettings       *settings,
                                          const WsSymptom           *symptom);

/*
 * ws_wait_graph_run:
 * The one entry point of the wait-graph analysis, for the CLI and the GUI
 * alike.  May run in any thread.  @progress (nullable) is called from that
 * thread at the start and the end; @cancellable is polled between the
 * graph's generations.
 *
 * Returns: (transfer full): the graph, or %NULL with @error set
 *   (WS_ERROR_INVALID for a bad thread or window, G_IO_ERROR_CANCELLED, as for any GCancellable)
 */
WsWaitGraph *ws_wait_graph_run           (WsTrace                   *trace,
                                          const WsWaitGraphSettings *settings,
                                          GCancellable              *cancellable,
                                          WsProgressFunc             progress,
                                          gpointer                   progress_data,
                                          GError                   **error);

G_END_DECLS
