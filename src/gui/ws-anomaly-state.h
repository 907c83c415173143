/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-anomaly-detector.h"
#include "ws-document.h"

G_BEGIN_DECLS

/*
 * WsAnomalyState: the anomaly models of the traces open in a window and
 * the analyst's flags, shared by every page through the #WsSession.  It
 * scores the waits of every loaded document in a worker thread (the core's
 * ws_anomaly_detect()), saves a flag at once in the history store (its own
 * transaction) and scores again, and keeps an undo stack of flags.
 * "changed" is emitted on the main thread whenever the result changes.
 */
#define WS_TYPE_ANOMALY_STATE (ws_anomaly_state_get_type ())
G_DECLARE_FINAL_TYPE (WsAnomalyState, ws_anomaly_state, WS, ANOMALY_STATE, GObject)

WsAnomalyState  *ws_anomaly_state_new          (void);
void             ws_anomaly_state_set_history_path (WsAnomalyState *self,
                                                const char       *path);
void             ws_anomaly_state_set_settings (WsAnomalyState          *self,
                                                const WsAnomalySettings *settings);
void             ws_anomaly_state_set_documents (WsAnomalyState         *self,
                                                GListModel             *documents);
void             ws_anomaly_state_refresh      (WsAnomalyState          *self);
WsAnomalyResult *ws_anomaly_state_get_result   (WsAnomalyState          *self);
guint            ws_anomaly_state_find_trace   (WsAnomalyState          *self,
                                                WsDocument              *document);
const WsWaitScore *ws_anomaly_state_lookup     (WsAnomalyState          *self,
                                                WsDocument              *document,
                                                guint                    event);
gboolean         ws_anomaly_state_flag         (WsAnomalyState          *self,
                                                WsDocument              *document,
                                                guint                    event,
                                                WsAnomalyFlag            verdict,
                                                GError                 **error);
gboolean         ws_anomaly_state_flag_scoped  (WsAnomalyState          *self,
                                                WsDocument              *document,
                                                guint                    event,
                                                WsAnomalyFlag            verdict,
                                                gboolean                 wait_only,
                                                GError                 **error);
gboolean         ws_anomaly_state_flag_reach   (WsAnomalyState          *self,
                                                WsDocument              *document,
                                                guint                    event,
                                                WsAnomalyFlag            verdict,
                                                WsFlagReach             *reach);
gboolean         ws_anomaly_state_can_undo     (WsAnomalyState          *self);
gboolean         ws_anomaly_state_undo         (WsAnomalyState          *self,
                                                GError                 **error);
GArray          *ws_anomaly_state_list_flags   (WsAnomalyState          *self,
                                                GError                 **error);
gboolean         ws_anomaly_state_get_busy     (WsAnomalyState          *self);

G_END_DECLS
