/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `waitscope-cli query`: one SQL statement over a trace loaded into a
 * database in memory, its rows as text, JSON or CSV.
 *
 * The statement comes from whoever typed it, and may have been pasted
 * from anywhere, so it can only read: an authorizer refuses everything
 * but reading tables and calling functions (no ATTACH, which would
 * create a file, no PRAGMA, no writes, no schema changes), the
 * connection allows no attached databases at all, and a statement
 * SQLite does not call read-only is refused before it runs.  Extensions
 * cannot be loaded (SQLite's default, never turned on here).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-error.h"
#include "ws-json-trace.h"
#include "ws-trace-db.h"

static int
authorize (void       *data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *db_name,
           const char *trigger)
{
  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    default:
      return SQLITE_DENY;
    }
}

/**
 * ws_trace_db_open_query:
 *
 * Loads @trace into a new database in memory and locks it for reading:
 * what ws_trace_db_query() runs on.
 *
 * Returns: (transfer full) (nullable): the connection (close it with
 *   sqlite3_close_v2()), or %NULL with @error set
 */
sqlite3 *
ws_trace_db_open_query (WsTrace       *trace,
                        GCancellable  *cancellable,
                        GError       **error)
{
  sqlite3 *db = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("SQLite failed opening the database: %s"),
                   db != NULL ? sqlite3_errmsg (db) : g_strerror (ENOMEM));
      sqlite3_close_v2 (db);
      return NULL;
    }
  if (!ws_trace_db_fill (trace, db, cancellable, NULL, NULL, error))
    {
      sqlite3_close_v2 (db);
      return NULL;
    }
  sqlite3_limit (db, SQLITE_LIMIT_ATTACHED, 0);
  /* No value a trace holds comes near this; a zeroblob(2e9) in a pasted
   * query should fail, not take the machine's memory. */
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_set_authorizer (db, authorize, NULL);
  return db;
}

/* NAME=VALUE: an integer if it reads as one, else a real, else text. */
static gboolean
bind_params (sqlite3_stmt        *stmt,
             const char * const  *params,
             GError             **error)
{
  for (guint i = 0; params != NULL && params[i] != NULL; i++)
    {
      const char *eq = strchr (params[i], '=');
      g_autofree char *name = NULL;
      const char *value;
      gint64 number;
      double real;
      char *end = NULL;
      int index;

      if (eq == NULL || eq == params[i])
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("Parameter “%s” is not NAME=VALUE"), params[i]);
          return FALSE;
        }
      name = g_strdup_printf (":%.*s", (int) (eq - params[i]), params[i]);
      value = eq + 1;
      if ((index = sqlite3_bind_parameter_index (stmt, name)) == 0)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("The query has no parameter %s"), name);
          return FALSE;
        }
      if (*value != '\0' && g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &number, NULL))
        sqlite3_bind_int64 (stmt, index, number);
      else if (*value != '\0' && (real = g_ascii_strtod (value, &end), *end == '\0'))
        sqlite3_bind_double (stmt, index, real);
      else
        sqlite3_bind_text (stmt, index, value, -1, SQLITE_TRANSIENT);
    }
  for (int i = 1; i <= sqlite3_bind_parameter_count (stmt); i++)
    {
      const char *name = sqlite3_bind_parameter_name (stmt, i);
      gboolean given = FALSE;

      for (guint k = 0; name != NULL && params != NULL && params[k] != NULL; k++)
        if (strncmp (params[k], name + 1, strlen (name + 1)) == 0 && params[k][strlen (name + 1)] == '=')
          given = TRUE;
      if (!given)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                       _("The query’s parameter %s has no value (give it with --param NAME=VALUE)"),
                       name != NULL ? name : "?");
          return FALSE;
        }
    }
  return TRUE;
}

/* A column's text whatever its bytes: SQLite hands back what the trace
 * held (a thread name in Latin-1, a NUL from char(0)), made valid UTF-8. */
static char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);
  int len = sqlite3_column_bytes (stmt, column);

  if (text == NULL)
    return g_strdup ("");
  if (g_utf8_validate_len (text, len, NULL))
    return g_strndup (text, len);
  return g_utf8_make_valid (text, len);
}

static char *
column_blob_hex (sqlite3_stmt *stmt,
                 int           column)
{
  const guint8 *blob = sqlite3_column_blob (stmt, column);
  int len = sqlite3_column_bytes (stmt, column);
  GString *hex = g_string_sized_new (2 * len + 3);

  g_string_append (hex, "x'");
  for (int i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", blob[i]);
  g_string_append_c (hex, '\'');
  return g_string_free (hex, FALSE);
}

static void
append_real (GString *out,
             double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_dtostr (buf, sizeof buf, value));
}

/* Text output: one line per row, so a tab or newline inside a value is
 * shown escaped rather than splitting the row. */
static void
append_text_field (GString    *out,
                   const char *text)
{
  for (const char *p = text; *p; p++)
    switch (*p)
      {
      case '\t': g_string_append (out, "\\t"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\\': g_string_append (out, "\\\\"); break;
      default: g_string_append_c (out, *p);
      }
}

static void
append_value (GString         *out,
              sqlite3_stmt    *stmt,
              int              column,
              WsTraceDbFormat  format)
{
  g_autofree char *text = NULL;

  switch (sqlite3_column_type (stmt, column))
    {
    case SQLITE_NULL:
      g_string_append (out, format == WS_TRACE_DB_JSON ? "null" : format == WS_TRACE_DB_TEXT ? "NULL" : "");
      return;
    case SQLITE_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, column));
      return;
    case SQLITE_FLOAT:
      {
        double value = sqlite3_column_double (stmt, column);

        /* JSON has no NaN or infinity */
        if (format == WS_TRACE_DB_JSON && !isfinite (value))
          g_string_append (out, "null");
        else
          append_real (out, value);
        return;
      }
    case SQLITE_BLOB:
      text = column_blob_hex (stmt, column);
      break;
    default:
      text = column_text (stmt, column);
      break;
    }
  switch (format)
    {
    case WS_TRACE_DB_JSON: ws_json_append_string (out, text); break;
    case WS_TRACE_DB_CSV: ws_csv_append_field (out, text); break;
    case WS_TRACE_DB_TEXT:
    default: append_text_field (out, text); break;
    }
}

static void
append_header (GString         *out,
               sqlite3_stmt    *stmt,
               WsTraceDbFormat  format)
{
  int n = sqlite3_column_count (stmt);

  if (format == WS_TRACE_DB_JSON)
    g_string_append (out, "{\n  \"columns\": [");
  for (int c = 0; c < n; c++)
    {
      const char *raw = sqlite3_column_name (stmt, c);
      g_autofree char *name = g_utf8_make_valid (raw != NULL ? raw : "", -1);

      if (c > 0)
        g_string_append (out, format == WS_TRACE_DB_TEXT ? "\t" : format == WS_TRACE_DB_CSV ? "," : ", ");
      switch (format)
        {
        case WS_TRACE_DB_JSON: ws_json_append_string (out, name); break;
        case WS_TRACE_DB_CSV: ws_csv_append_field (out, name); break;
        case WS_TRACE_DB_TEXT:
        default: append_text_field (out, name); break;
        }
    }
  g_string_append (out, format == WS_TRACE_DB_JSON ? "],\n  \"rows\": [" :
                        format == WS_TRACE_DB_CSV ? "\r\n" : "\n");
}

static gboolean
query_error (sqlite3  *db,
             GError  **error)
{
  if (sqlite3_errcode (db) == SQLITE_AUTH)
    /* Translators: %s is SQLite's own message ("not authorized") */
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                 _("SQL error: %s: a query may only read the trace’s tables and views (no writes, ATTACH or PRAGMA)"),
                 sqlite3_errmsg (db));
  else
    /* Translators: %s is SQLite's own message ("no such column: tid") */
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("SQL error: %s"), sqlite3_errmsg (db));
  return FALSE;
}

/**
 * ws_trace_db_query:
 * @db: a connection from ws_trace_db_open_query()
 * @sql: one SQL statement, reading only
 * @params: (nullable): %NULL-terminated "NAME=VALUE" strings, the values
 *   of the statement's :NAME parameters
 * @out: where the rows are appended
 *
 * Runs @sql and appends its rows to @out in @format.  A statement that
 * would write, attach a file or change the connection is refused.
 *
 * Returns: %FALSE with @error set (%WS_ERROR_INVALID, with SQLite's
 *   message) if the statement is refused or fails
 */
gboolean
ws_trace_db_query (sqlite3             *db,
                   const char          *sql,
                   const char * const  *params,
                   WsTraceDbFormat      format,
                   GString             *out,
                   GError             **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *tail = NULL;
  guint rows = 0;
  int rc;

  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, &tail) != SQLITE_OK)
    return query_error (db, error);
  if (stmt == NULL)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("The query is empty"));
      return FALSE;
    }
  while (tail != NULL && g_ascii_isspace (*tail))
    tail++;
  if (tail != NULL && *tail != '\0' && *tail != ';')
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("Give one SQL statement at a time"));
      return FALSE;
    }
  if (!sqlite3_stmt_readonly (stmt))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("The query would change the database: only reading statements (SELECT, WITH) are allowed"));
      return FALSE;
    }
  if (!bind_params (stmt, params, error))
    return FALSE;

  append_header (out, stmt, format);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      int n = sqlite3_column_count (stmt);

      if (format == WS_TRACE_DB_JSON)
        g_string_append (out, rows > 0 ? ",\n    [" : "\n    [");
      for (int c = 0; c < n; c++)
        {
          if (c > 0)
            g_string_append (out, format == WS_TRACE_DB_TEXT ? "\t" : format == WS_TRACE_DB_CSV ? "," : ", ");
          append_value (out, stmt, c, format);
        }
      g_string_append (out, format == WS_TRACE_DB_JSON ? "]" : format == WS_TRACE_DB_CSV ? "\r\n" : "\n");
      rows++;
    }
  if (rc != SQLITE_DONE)
    return query_error (db, error);
  if (format == WS_TRACE_DB_JSON)
    g_string_append (out, rows > 0 ? "\n  ]\n}\n" : "]\n}\n");
  return TRUE;
}
