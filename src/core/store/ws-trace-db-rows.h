/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/*
 * WsTraceDbRows: rows that live in the trace model, read by SQLite as an
 * eponymous virtual table so that `INSERT INTO t SELECT * FROM source`
 * copies them in one statement: no bind, step and reset per row.
 * @keep (nullable) skips the rows of @n_rows that are not the table's
 * (the waits among the events); @column gives column @column of row @row.
 */
typedef struct {
  const char *declaration;   /* "CREATE TABLE x (a, b, …)": the columns */
  guint       n_rows;
  gboolean  (*keep)   (gpointer data, guint row);
  void      (*column) (gpointer data, guint row, int column, sqlite3_context *ctx);
  gpointer    data;
} WsTraceDbRows;

gboolean  ws_trace_db_copy_rows  (sqlite3             *db,
                                  const char          *table,
                                  const WsTraceDbRows *rows);

G_END_DECLS
