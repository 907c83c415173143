/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A loaded trace as an SQLite database, for analysts who want to ask
 * their own questions: `waitscope-cli export-sqlite`, `waitscope-cli
 * query` and the window's "Export as SQLite Database…" all go through
 * here.  The schema (tables threads, processes, events, waits, frames,
 * stacks, stack_frames, instances, samples, and the views wait_chain and
 * thread_state_spans) is documented in docs/sql.md, with the model's own
 * words: a wait's *cost*, its *readier*, its *ready latency*, its
 * *waiting stack* and the *unwait stack* that readied it.
 */

#include <gio/gio.h>
#include <sqlite3.h>

#include "ws-progress.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* PRAGMA user_version of a database this build writes (docs/sql.md). */
#define WS_TRACE_DB_SCHEMA_VERSION 1

typedef enum {
  WS_TRACE_DB_TEXT,   /* a header line, then tab-separated rows */
  WS_TRACE_DB_JSON,   /* {"columns": […], "rows": [[…], …]} */
  WS_TRACE_DB_CSV,    /* RFC 4180, a header row */
} WsTraceDbFormat;

gboolean  ws_trace_db_fill        (WsTrace             *trace,
                                   sqlite3             *db,
                                   GCancellable        *cancellable,
                                   WsProgressFunc       progress,
                                   gpointer             progress_data,
                                   GError             **error);
gboolean  ws_trace_db_save        (WsTrace             *trace,
                                   const char          *path,
                                   GCancellable        *cancellable,
                                   WsProgressFunc       progress,
                                   gpointer             progress_data,
                                   GError             **error);
sqlite3  *ws_trace_db_open_query  (WsTrace             *trace,
                                   GCancellable        *cancellable,
                                   GError             **error);
gboolean  ws_trace_db_query       (sqlite3             *db,
                                   const char          *sql,
                                   const char * const  *params,
                                   WsTraceDbFormat      format,
                                   GString             *out,
                                   GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
