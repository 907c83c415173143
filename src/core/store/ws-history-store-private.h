/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sqlite3.h>

#include "ws-history-store.h"

G_BEGIN_DECLS

/* Shared by the files that make up the store: one connection, one lock. */
sqlite3  *ws_history_store_get_db    (WsHistoryStore  *self);
GMutex   *ws_history_store_get_lock  (WsHistoryStore  *self);
gboolean  ws_history_store_sql_error (WsHistoryStore  *self,
                                      GError         **error,
                                      const char      *what);
char     *ws_history_store_column_text (sqlite3_stmt  *stmt,
                                        int            column);
/* NULL with @error set ("preparing a query") if SQLite refuses @sql */
sqlite3_stmt *ws_history_store_prepare (WsHistoryStore  *self,
                                        const char      *sql,
                                        GError         **error);
/* @what names the step in the error message */
gboolean  ws_history_store_begin     (WsHistoryStore  *self,
                                      GError         **error);
gboolean  ws_history_store_commit    (WsHistoryStore  *self,
                                      GError         **error);
void      ws_history_store_rollback  (WsHistoryStore  *self);
gboolean  ws_history_store_exec      (WsHistoryStore  *self,
                                      const char      *sql,
                                      const char      *what,
                                      GError         **error);

G_END_DECLS
