/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Copying rows from the trace model into an SQLite table through a
 * virtual table.  Binding 13 values, stepping and resetting a prepared
 * INSERT per event cost more than SQLite's own work of storing the row
 * (the load ran at 0.6 M events/s of CPU); a virtual table scanned by
 * one INSERT … SELECT hands SQLite the values from inside its own loop.
 * The module is registered for one copy and dropped right after, so
 * nothing of it stays in the database nor in the connection.
 */
#include "config.h"

#include <string.h>

#include "ws-trace-db-rows.h"

typedef struct {
  sqlite3_vtab         base;
  const WsTraceDbRows *rows;
} Table;

typedef struct {
  sqlite3_vtab_cursor base;
  const WsTraceDbRows *rows;
  guint               row;
} Cursor;

static void
skip_to_kept (Cursor *c)
{
  const WsTraceDbRows *rows = c->rows;

  while (c->row < rows->n_rows && rows->keep != NULL && !rows->keep (rows->data, c->row))
    c->row++;
}

static int
rows_connect (sqlite3             *db,
              void                *aux,
              int                  argc,
              const char * const  *argv,
              sqlite3_vtab       **out,
              char               **error)
{
  const WsTraceDbRows *rows = aux;
  Table *table;
  int rc = sqlite3_declare_vtab (db, rows->declaration);

  if (rc != SQLITE_OK)
    return rc;
  table = sqlite3_malloc (sizeof *table);
  if (table == NULL)
    return SQLITE_NOMEM;
  memset (table, 0, sizeof *table);
  table->rows = rows;
  *out = &table->base;
  return SQLITE_OK;
}

static int
rows_disconnect (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}

static int
rows_best_index (sqlite3_vtab       *vtab,
                 sqlite3_index_info *info)
{
  /* Only ever scanned whole, in row order. */
  info->estimatedCost = ((Table *) vtab)->rows->n_rows;
  info->estimatedRows = ((Table *) vtab)->rows->n_rows;
  return SQLITE_OK;
}

static int
rows_open (sqlite3_vtab         *vtab,
           sqlite3_vtab_cursor **out)
{
  Cursor *c = sqlite3_malloc (sizeof *c);

  if (c == NULL)
    return SQLITE_NOMEM;
  memset (c, 0, sizeof *c);
  c->rows = ((Table *) vtab)->rows;
  *out = &c->base;
  return SQLITE_OK;
}

static int
rows_close (sqlite3_vtab_cursor *cursor)
{
  sqlite3_free (cursor);
  return SQLITE_OK;
}

static int
rows_filter (sqlite3_vtab_cursor *cursor,
             int                  index,
             const char          *index_name,
             int                  argc,
             sqlite3_value      **argv)
{
  Cursor *c = (Cursor *) cursor;

  c->row = 0;
  skip_to_kept (c);
  return SQLITE_OK;
}

static int
rows_next (sqlite3_vtab_cursor *cursor)
{
  Cursor *c = (Cursor *) cursor;

  c->row++;
  skip_to_kept (c);
  return SQLITE_OK;
}

static int
rows_eof (sqlite3_vtab_cursor *cursor)
{
  Cursor *c = (Cursor *) cursor;

  return c->row >= c->rows->n_rows;
}

static int
rows_column (sqlite3_vtab_cursor *cursor,
             sqlite3_context     *ctx,
             int                  column)
{
  Cursor *c = (Cursor *) cursor;

  c->rows->column (c->rows->data, c->row, column, ctx);
  return SQLITE_OK;
}

static int
rows_rowid (sqlite3_vtab_cursor *cursor,
            sqlite3_int64       *rowid)
{
  *rowid = ((Cursor *) cursor)->row;
  return SQLITE_OK;
}

static const sqlite3_module rows_module = {
  .iVersion = 0,
  .xCreate = NULL,            /* eponymous only: no CREATE VIRTUAL TABLE */
  .xConnect = rows_connect,
  .xBestIndex = rows_best_index,
  .xDisconnect = rows_disconnect,
  .xDestroy = rows_disconnect,
  .xOpen = rows_open,
  .xClose = rows_close,
  .xFilter = rows_filter,
  .xNext = rows_next,
  .xEof = rows_eof,
  .xColumn = rows_column,
  .xRowid = rows_rowid,
};

/**
 * ws_trace_db_copy_rows:
 * @table: the table to fill, whose columns are @rows' in the same order
 *
 * Returns: %FALSE if SQLite failed (its message is the connection's)
 */
gboolean
ws_trace_db_copy_rows (sqlite3             *db,
                       const char          *table,
                       const WsTraceDbRows *rows)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO %s SELECT * FROM ws_trace_db_rows", table);
  int rc;

  if (sqlite3_create_module_v2 (db, "ws_trace_db_rows", &rows_module, (void *) rows, NULL) != SQLITE_OK)
    return FALSE;
  rc = sqlite3_exec (db, sql, NULL, NULL, NULL);
  /* Unregistered even on failure: the module points into the caller's stack. */
  sqlite3_create_module_v2 (db, "ws_trace_db_rows", NULL, NULL, NULL);
  return rc == SQLITE_OK;
}
