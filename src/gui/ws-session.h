/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-document.h"
#include "ws-run-classes.h"
#include "ws-session-file.h"

G_BEGIN_DECLS

/*
 * WsSession: what every page of a window shares, handed down by the window
 * so that no page needs to know its window or the application: the traces
 * open in the window (a list of #WsDocument) and the one shown, the
 * application's settings (%NULL without the schema) and the history store
 * the analyses read and record in.  Later analyses (the anomaly model,
 * user flags) keep their shared state here too.
 *
 * A page holds its session and follows "notify::current-document" or the
 * documents' "items-changed"; it never walks up the widget tree.
 */
#define WS_TYPE_SESSION (ws_session_get_type ())
G_DECLARE_FINAL_TYPE (WsSession, ws_session, WS, SESSION, GObject)

WsSession    *ws_session_new                  (GSettings   *settings);
GListModel   *ws_session_get_documents        (WsSession   *self);
void          ws_session_add_document         (WsSession   *self,
                                               WsDocument  *document);
void          ws_session_remove_document      (WsSession   *self,
                                               WsDocument  *document);
WsDocument   *ws_session_get_current_document (WsSession   *self);
void          ws_session_set_current_document (WsSession   *self,
                                               WsDocument  *document);
GSettings    *ws_session_get_settings         (WsSession   *self);
void          ws_session_set_settings         (WsSession   *self,
                                               GSettings   *settings);
const char   *ws_session_get_history_path     (WsSession   *self);
void          ws_session_set_history_path     (WsSession   *self,
                                               const char  *path);
char         *ws_session_dup_history_path     (WsSession   *self);
gboolean      ws_session_get_record_history   (WsSession   *self);
WsRunClasses *ws_session_get_run_classes      (WsSession   *self);
void          ws_session_store_run_classes    (WsSession   *self);
void          ws_session_restore_run_classes  (WsSession   *self);

typedef struct _WsAnomalyState WsAnomalyState;
WsAnomalyState *ws_session_get_anomaly_state  (WsSession   *self);
WsSessionFile *ws_session_get_session_file    (WsSession     *self);
void          ws_session_set_session_file     (WsSession     *self,
                                               WsSessionFile *session_file);

G_END_DECLS
