/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store: what detection needs from beyond the traces open now,
 * in one SQLite database in the user's data directory
 * ($XDG_DATA_HOME/waitscope/history.sqlite, or $WAITSCOPE_HISTORY):
 *
 *   traces         every trace ever recorded, once per content digest
 *   functions      unigram counts per function (StackMine §VI.C Uni, and
 *                  the denominators of FBi/BBi)
 *   bigrams        caller → callee counts of adjacent frames
 *   totals         the number of callstacks counted
 *   wait_samples   wait durations per wait signature (mixture models)
 *   anomaly_flags  the user's anomalous / normal verdicts
 *
 * Every write is one transaction (BEGIN IMMEDIATE … COMMIT), the journal is
 * a WAL with synchronous=FULL: a process killed at any instant leaves the
 * database as it was before or after the transaction, never between, and
 * a committed flag survives.  A trace is recorded under its digest inside
 * the same transaction as its counts, so it is counted exactly once.
 *
 * The schema is versioned with PRAGMA user_version; a database written by
 * a newer Waitscope is refused rather than misread.  PRAGMA application_id
 * marks the file as ours: another application's database (given by
 * mistake as --history) is refused before anything is written to it.
 *
 * One connection per store, serialised by a mutex: the GUI may record a
 * trace from a loader thread while a panel reads counts.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include "ws-error.h"
#include "ws-file-sha256.h"
#include "ws-hash.h"
#include "ws-history-store-private.h"
#include "ws-stack-counts.h"

struct _WsHistoryStore
{
  GObject  parent_instance;

  char    *path;
  sqlite3 *db;
  GMutex   lock;
  gboolean in_batch;   /* inside ws_history_store_begin_batch() */
};

G_DEFINE_FINAL_TYPE (WsHistoryStore, ws_history_store, G_TYPE_OBJECT)

static const char schema[] =
  "CREATE TABLE IF NOT EXISTS traces ("
  "  id INTEGER PRIMARY KEY,"
  "  digest TEXT NOT NULL UNIQUE,"
  "  path TEXT,"
  "  imported_at INTEGER NOT NULL,"
  "  n_callstacks INTEGER NOT NULL);"
  "CREATE TABLE IF NOT EXISTS functions ("
  "  id INTEGER PRIMARY KEY,"
  "  name TEXT NOT NULL,"
  "  module TEXT NOT NULL,"
  "  n_stacks INTEGER NOT NULL DEFAULT 0,"
  "  n_with_callee INTEGER NOT NULL DEFAULT 0,"
  "  n_with_caller INTEGER NOT NULL DEFAULT 0,"
  "  UNIQUE (name, module));"
  "CREATE TABLE IF NOT EXISTS bigrams ("
  "  caller INTEGER NOT NULL REFERENCES functions (id),"
  "  callee INTEGER NOT NULL REFERENCES functions (id),"
  "  count INTEGER NOT NULL,"
  "  PRIMARY KEY (caller, callee)) WITHOUT ROWID;"
  "CREATE TABLE IF NOT EXISTS totals ("
  "  key TEXT PRIMARY KEY,"
  "  value INTEGER NOT NULL);"
  "INSERT OR IGNORE INTO totals VALUES ('n_callstacks', 0);"
  "CREATE TABLE IF NOT EXISTS wait_samples ("
  "  id INTEGER PRIMARY KEY,"
  "  signature TEXT NOT NULL,"
  "  trace_digest TEXT,"
  "  duration INTEGER NOT NULL);"
  "CREATE INDEX IF NOT EXISTS wait_samples_by_signature ON wait_samples (signature);"
  "CREATE TABLE IF NOT EXISTS anomaly_flags ("
  "  trace_digest TEXT NOT NULL,"
  "  event_time INTEGER NOT NULL,"
  "  tid INTEGER NOT NULL,"
  "  signature TEXT NOT NULL,"
  "  flag INTEGER NOT NULL,"
  "  updated_at INTEGER NOT NULL,"
  "  PRIMARY KEY (trace_digest, event_time, tid));"
  "CREATE INDEX IF NOT EXISTS anomaly_flags_by_signature ON anomaly_flags (signature);";

/* Version 2: bounded wait history (a reservoir per signature, pool and the
 * global pool), the traces whose waits were recorded at which signature
 * depth, and each flagged wait's duration (so detection can learn from a
 * flag without the trace open).  See ws-history-store-waits.c. */
static const char schema_v2[] =
  "ALTER TABLE wait_samples ADD COLUMN slot INTEGER;"
  "CREATE UNIQUE INDEX IF NOT EXISTS wait_samples_by_slot ON wait_samples (signature, slot);"
  "CREATE TABLE IF NOT EXISTS wait_reservoirs ("
  "  signature TEXT PRIMARY KEY,"
  "  n_seen INTEGER NOT NULL);"
  "CREATE TABLE IF NOT EXISTS wait_traces ("
  "  digest TEXT NOT NULL,"
  "  depth INTEGER NOT NULL,"
  "  n_waits INTEGER NOT NULL,"
  "  recorded_at INTEGER NOT NULL,"
  "  PRIMARY KEY (digest, depth));"
  "ALTER TABLE anomaly_flags ADD COLUMN duration INTEGER NOT NULL DEFAULT 0;";

static void
ws_history_store_finalize (GObject *object)
{
  WsHistoryStore *self = WS_HISTORY_STORE (object);

  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_free (self->path);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (ws_history_store_parent_class)->finalize (object);
}

static void
ws_history_store_class_init (WsHistoryStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_history_store_finalize;
}

static void
ws_history_store_init (WsHistoryStore *self)
{
  g_mutex_init (&self->lock);
}

/* Less than a megabyte left where the store is. */
static gboolean
disk_is_full (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  struct statvfs st;

  return statvfs (dir, &st) == 0 && (guint64) st.f_bavail * st.f_frsize < 1024 * 1024;
}

/* The store or its WAL within a few pages of RLIMIT_FSIZE. */
static gboolean
at_file_size_limit (const char *path)
{
  const char *suffixes[] = { "", "-wal", "-journal" };
  struct rlimit lim;

  if (getrlimit (RLIMIT_FSIZE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *name = g_strconcat (path, suffixes[i], NULL);
      GStatBuf st;

      if (g_stat (name, &st) == 0 && (guint64) st.st_size + 64 * 1024 >= lim.rlim_cur)
        return TRUE;
    }
  return FALSE;
}

static gboolean
sql_error (WsHistoryStore  *self,
           GError         **error,
           const char      *what)
{
  /* SQLite quotes a damaged file's own bytes (a schema's names) in its
   * messages: they reach the terminal and --json output, so make them UTF-8. */
  g_autofree char *message = g_utf8_make_valid (sqlite3_errmsg (self->db), -1);
  int code = sqlite3_errcode (self->db) & 0xff;

  /* SQLite says "disk I/O error" for most of these, and its errno is
   * gone by now: look at the disk and the limit ourselves. */
  if (code == SQLITE_FULL || (code == SQLITE_IOERR && disk_is_full (self->path)))
    g_set_error (error, WS_ERROR, WS_ERROR_IO,
                 _("%s: the disk is full: the history database could not be written while %s"),
                 self->path, what);
  else if (code == SQLITE_IOERR && at_file_size_limit (self->path))
    g_set_error (error, WS_ERROR, WS_ERROR_IO,
                 _("%s: the history database reached the file size limit (ulimit -f) while %s"),
                 self->path, what);
  else
    g_set_error (error, WS_ERROR, WS_ERROR_IO,
                 _("%s: history database error while %s: %s"),
                 self->path, what, message);
  return FALSE;
}

/* A text column as UTF-8: the store only ever writes UTF-8 names, but a
 * damaged or foreign file can hold any bytes, and these names reach the
 * terminal and --json output. */
char *
ws_history_store_column_text (sqlite3_stmt *stmt,
                              int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);
  int length = sqlite3_column_bytes (stmt, column);

  if (text == NULL)
    return NULL;
  if (g_utf8_validate_len (text, length, NULL) && memchr (text, '\0', length) == NULL)
    return g_strndup (text, length);
  return g_utf8_make_valid (text, length);
}

static gboolean
exec (WsHistoryStore  *self,
      const char      *sql,
      const char      *what,
      GError         **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_error (self, error, what);
  return TRUE;
}

/* The switch to WAL needs the file to itself, and SQLite answers "busy"
 * at once rather than wait when two connections would deadlock on it
 * (two set-ups of one new file): try again a little later, up to about
 * the busy timeout. */
static gboolean
exec_when_free (WsHistoryStore  *self,
                const char      *sql,
                const char      *what,
                GError         **error)
{
  for (guint attempt = 0; attempt < 500; attempt++)
    {
      int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

      if (rc == SQLITE_OK)
        return TRUE;
      if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
        break;
      g_usleep (20 * 1000);
    }
  return sql_error (self, error, what);
}

static sqlite3_stmt *
prepare (WsHistoryStore  *self,
         const char      *sql,
         GError         **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sql_error (self, error, _("preparing a query"));
      return NULL;
    }
  return stmt;
}

/*
 * One write transaction, or, inside a batch, one step of the batch's
 * transaction (a savepoint): a failed step is undone, and the batch's
 * owner then rolls back the whole.
 */
gboolean
ws_history_store_begin (WsHistoryStore  *self,
                        GError         **error)
{
  return exec (self, self->in_batch ? "SAVEPOINT ws_step" : "BEGIN IMMEDIATE",
               _("starting a transaction"), error);
}

gboolean
ws_history_store_commit (WsHistoryStore  *self,
                         GError         **error)
{
  return exec (self, self->in_batch ? "RELEASE ws_step" : "COMMIT", _("committing"), error);
}

void
ws_history_store_rollback (WsHistoryStore *self)
{
  sqlite3_exec (self->db, self->in_batch ? "ROLLBACK TO ws_step; RELEASE ws_step" : "ROLLBACK",
                NULL, NULL, NULL);
}

/**
 * ws_history_store_begin_batch:
 *
 * Starts one transaction for several recordings (`history add`: a trace's
 * stacks and its waits), so that a failure in any (a full disk) leaves
 * none of them.  Only for a store that one thread uses.
 */
gboolean
ws_history_store_begin_batch (WsHistoryStore  *self,
                              GError         **error)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_batch, FALSE);

  if (!exec (self, "BEGIN IMMEDIATE", _("starting a transaction"), error))
    return FALSE;
  self->in_batch = TRUE;
  return TRUE;
}

/**
 * ws_history_store_end_batch:
 * @commit: %TRUE to keep what the batch recorded, %FALSE to drop it
 *
 * Returns: whether it was kept (with @commit); on failure nothing was
 */
gboolean
ws_history_store_end_batch (WsHistoryStore  *self,
                            gboolean         commit,
                            GError         **error)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (self->in_batch, FALSE);

  self->in_batch = FALSE;
  if (commit && exec (self, "COMMIT", _("committing"), error))
    return TRUE;
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* For ws-history-store-waits.c, which shares the connection, its lock and
 * the helpers above. */
sqlite3 *
ws_history_store_get_db (WsHistoryStore *self)
{
  return self->db;
}

GMutex *
ws_history_store_get_lock (WsHistoryStore *self)
{
  return &self->lock;
}

gboolean
ws_history_store_sql_error (WsHistoryStore  *self,
                            GError         **error,
                            const char      *what)
{
  return sql_error (self, error, what);
}

sqlite3_stmt *
ws_history_store_prepare (WsHistoryStore  *self,
                          const char      *sql,
                          GError         **error)
{
  return prepare (self, sql, error);
}

gboolean
ws_history_store_exec (WsHistoryStore  *self,
                       const char      *sql,
                       const char      *what,
                       GError         **error)
{
  return exec (self, sql, what, error);
}

/**
 * ws_history_store_default_path:
 *
 * Returns: (transfer full): $WAITSCOPE_HISTORY if set, else
 *   g_get_user_data_dir()/waitscope/history.sqlite
 */
char *
ws_history_store_default_path (void)
{
  const char *env = g_getenv ("WAITSCOPE_HISTORY");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  return g_build_filename (g_get_user_data_dir (), "waitscope", "history.sqlite", NULL);
}

/* PRAGMA user_version: 0 for a file no Waitscope has set up. */
static gboolean
read_schema_version (WsHistoryStore  *self,
                     int             *version,
                     GError         **error)
{
  sqlite3_stmt *stmt;

  if ((stmt = prepare (self, "PRAGMA user_version", error)) == NULL)
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      sqlite3_finalize (stmt);
      sql_error (self, error, _("reading the schema version"));
      return FALSE;
    }
  *version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);

  if (*version > WS_HISTORY_SCHEMA_VERSION)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("%s: the history database has schema version %d, newer than this "
                     "Waitscope understands (%d); it was left untouched"),
                   self->path, *version, WS_HISTORY_SCHEMA_VERSION);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_int_pragma (WsHistoryStore  *self,
                 const char      *sql,
                 int             *value,
                 GError         **error)
{
  sqlite3_stmt *stmt;

  if ((stmt = prepare (self, sql, error)) == NULL)
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      sqlite3_finalize (stmt);
      return sql_error (self, error, _("reading the database header"));
    }
  *value = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  return TRUE;
}

/*
 * Whether the file is a Waitscope history, or empty: only then may it be
 * written to.  Ours is our application_id; a store written before the id
 * existed has none, but a schema version and the tables of version 1; an
 * empty file (no id, no version, no table) becomes ours.  Anything else is
 * another application's, refused before any write (the switch to WAL
 * included).  *@adopt says an old store that is to get the id.
 */
static gboolean
check_ours (WsHistoryStore  *self,
            int              version,
            gboolean        *adopt,
            GError         **error)
{
  static const char * const v1_tables[] = {
    "traces", "functions", "bigrams", "totals", "wait_samples", "anomaly_flags",
  };
  int app_id, n_objects, n_tables;
  g_autofree char *why = NULL;

  *adopt = FALSE;
  if (!read_int_pragma (self, "PRAGMA application_id", &app_id, error))
    return FALSE;
  if ((guint32) app_id == WS_HISTORY_APPLICATION_ID)
    return TRUE;
  if (app_id != 0)
    why = g_strdup_printf (_("its application id is 0x%08x, not Waitscope’s"), (guint32) app_id);
  else if (!read_int_pragma (self, "SELECT count(*) FROM sqlite_master", &n_objects, error) ||
           !read_int_pragma (self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                             "('traces', 'functions', 'bigrams', 'totals', 'wait_samples', 'anomaly_flags')",
                             &n_tables, error))
    return FALSE;
  else if (version == 0 && n_objects == 0)
    return TRUE;   /* new */
  else if (version >= 1 && n_tables == G_N_ELEMENTS (v1_tables))
    {
      *adopt = TRUE;
      return TRUE;
    }
  else
    why = g_strdup (_("it holds tables Waitscope did not create"));

  g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
               _("%s: not a Waitscope history database (%s); it was left untouched: "
                 "name a new file with --history or WAITSCOPE_HISTORY"),
               self->path, why);
  return FALSE;
}

/* check_ours() on one snapshot: another connection may be creating the
 * same new file meanwhile, and reads spread over its commit saw no id and
 * no version, then its tables ("tables Waitscope did not create"). */
static gboolean
check_ours_now (WsHistoryStore  *self,
                int             *version,
                gboolean        *adopt,
                GError         **error)
{
  gboolean ok;

  if (!exec (self, "BEGIN", _("reading the schema"), error))
    return FALSE;
  ok = read_schema_version (self, version, error) && check_ours (self, *version, adopt, error);
  sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL);
  return ok;
}

static gboolean
open_connection (WsHistoryStore  *self,
                 int              flags,
                 GError         **error)
{
  if (sqlite3_open_v2 (self->path, &self->db, flags | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK)
    {
      sql_error (self, error, _("opening"));
      return FALSE;
    }
  sqlite3_busy_timeout (self->db, 10000);
  return TRUE;
}

/* Version 0 is a new file; later versions migrate here, each step in the
 * same transaction as the version bump.  Another connection (the window's
 * recording thread, a second Waitscope) may be setting up the same new
 * file: the version is read again inside the write transaction, so that
 * only the first migrates ("duplicate column name: slot" when both did). */
static gboolean
migrate (WsHistoryStore  *self,
         GError         **error)
{
  g_autofree char *sql = NULL;
  int version;

  if (!exec (self, "BEGIN IMMEDIATE", _("creating the schema"), error))
    return FALSE;
  if (!read_schema_version (self, &version, error))
    goto fail;
  /* The id in the same transaction: a file with our tables always has it. */
  sql = g_strdup_printf ("%s %s PRAGMA user_version = %d; PRAGMA application_id = %d; COMMIT;",
                         version < 1 ? schema : "", version < 2 ? schema_v2 : "",
                         WS_HISTORY_SCHEMA_VERSION, (int) WS_HISTORY_APPLICATION_ID);
  if (exec (self, sql, _("creating the schema"), error))
    return TRUE;
fail:
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/**
 * ws_history_store_open:
 * @path: (nullable): the database file, or %NULL for
 *   ws_history_store_default_path()
 *
 * Opens (creating it and its directory if needed) the history database.
 * A database of a newer schema is refused before anything is written to
 * it, not even the switch to WAL.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
WsHistoryStore *
ws_history_store_open (const char  *path,
                       GError     **error)
{
  g_autoptr(WsHistoryStore) self = g_object_new (WS_TYPE_HISTORY_STORE, NULL);
  g_autofree char *dir = NULL;
  int version;
  gboolean adopt;

  self->path = path ? g_strdup (path) : ws_history_store_default_path ();

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   _("%s: cannot create the history directory: %s"), dir, g_strerror (saved));
      return NULL;
    }

  if (!open_connection (self, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error) ||
      !check_ours_now (self, &version, &adopt, error))
    return NULL;

  /* WAL + FULL: a commit is durable, and a crash mid-write rolls back. */
  if (!exec_when_free (self, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                       _("setting up"), error))
    return NULL;

  if ((version < WS_HISTORY_SCHEMA_VERSION || adopt) && !migrate (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * ws_history_store_open_read_only:
 * @path: (nullable): an existing database file, or %NULL for
 *   ws_history_store_default_path()
 *
 * Opens the history database for the commands that only read it (their
 * documentation promises so): nothing is created, migrated or switched,
 * and a read-only file or directory is fine.  Writing through the store
 * fails.
 *
 * Returns: (transfer full): the store, or %NULL with @error set (also for
 *   a file that is not a Waitscope history)
 */
WsHistoryStore *
ws_history_store_open_read_only (const char  *path,
                                 GError     **error)
{
  g_autoptr(WsHistoryStore) self = g_object_new (WS_TYPE_HISTORY_STORE, NULL);
  int version;
  gboolean adopt;

  self->path = path ? g_strdup (path) : ws_history_store_default_path ();

  if (!open_connection (self, SQLITE_OPEN_READONLY, error) ||
      !read_schema_version (self, &version, error) ||
      !check_ours (self, version, &adopt, error))
    return NULL;
  if (version < WS_HISTORY_SCHEMA_VERSION)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("%s: not a Waitscope history database (schema version %d); it was left untouched"),
                   self->path, version);
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
ws_history_store_get_path (WsHistoryStore *self)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);
  return self->path;
}

/* ------------------------------------------------------------------ */
/* Traces and their callstack counts                                    */

static void
checksum_add_int (GChecksum *sum,
                  gint64     v)
{
  g_checksum_update (sum, (const guchar *) &v, sizeof v);
}

/**
 * ws_history_store_file_digest:
 * @path: a regular file
 *
 * The digest a trace read from @path is recorded under (see
 * ws_history_store_trace_digest()), without reading the trace: enough to
 * ask ws_history_store_has_trace() before parsing a file already known.
 *
 * Returns: (transfer full): the hex SHA-256 of the file, or %NULL with
 *   @error set
 */
char *
ws_history_store_file_digest (const char  *path,
                              GError     **error)
{
  return ws_history_store_file_digest_full (path, NULL, error);
}

/**
 * ws_history_store_file_digest_full:
 * @cancellable: (nullable): checked between blocks
 *
 * ws_history_store_file_digest(), cancellable: hashing a 150 MB trace takes
 * most of a second, which closing its tab must not wait for.
 */
char *
ws_history_store_file_digest_full (const char    *path,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return ws_file_sha256 (path, NULL, cancellable, error);
}

/**
 * ws_history_store_trace_digest:
 *
 * The identity of a trace in the history: the SHA-256 of its file when it
 * was read from one that still exists, else of its content (events and
 * their stacks' frame names), so that recording the same trace twice counts
 * it once.
 *
 * Returns: (transfer full): the hex digest, or %NULL with @error set
 */
char *
ws_history_store_trace_digest (WsTrace  *trace,
                               GError  **error)
{
  return ws_history_store_trace_digest_full (trace, NULL, error);
}

/**
 * ws_history_store_trace_digest_hashed:
 * @hashes: (nullable): the files' hashes, begun while the traces loaded
 *
 * ws_history_store_trace_digest(), taking the file's hash from @hashes
 * when it is there.
 */
char *
ws_history_store_trace_digest_hashed (WsTrace       *trace,
                                      WsFileHashes  *hashes,
                                      GError       **error)
{
  char *hash;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  if (hashes != NULL && (hash = ws_file_hashes_take (hashes, ws_trace_get_path (trace))) != NULL)
    return hash;
  return ws_history_store_trace_digest_full (trace, NULL, error);
}

/**
 * ws_history_store_trace_digest_full:
 * @cancellable: (nullable): checked while hashing
 *
 * ws_history_store_trace_digest(), cancellable.
 */
char *
ws_history_store_trace_digest_full (WsTrace       *trace,
                                    GCancellable  *cancellable,
                                    GError       **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  const char *path;
  WsStackTable *table;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  path = ws_trace_get_path (trace);
  if (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return ws_history_store_file_digest_full (path, cancellable, error);

  /* No file: hash what the trace holds, independent of interning order. */
  table = ws_trace_get_stack_table (trace);
  g_checksum_update (sum, (const guchar *) "waitscope-trace-content-1", -1);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      const WsThread *t = ws_trace_get_thread (trace, e->thread);
      const WsFrameId *frames;
      guint n;

      checksum_add_int (sum, e->time);
      checksum_add_int (sum, ws_event_duration (e));
      checksum_add_int (sum, t->tid);
      checksum_add_int (sum, e->kind);
      frames = ws_stack_table_get_stack (table, e->stack, &n);
      checksum_add_int (sum, n);
      for (guint k = 0; k < n; k++)
        {
          const WsFrame *f = ws_stack_table_get_frame (table, frames[k]);
          g_checksum_update (sum, (const guchar *) f->function, strlen (f->function) + 1);
          g_checksum_update (sum, (const guchar *) f->module, strlen (f->module) + 1);
        }
    }
  return g_strdup (g_checksum_get_string (sum));
}

typedef struct {
  guint64 n_stacks;
  guint64 n_with_callee;
  guint64 n_with_caller;
  gint64  id;          /* row id once written */
} FrameCounts;

/* Adds one callstack of weight @w to the in-memory counts. */
static void
count_stack (GHashTable      *frames,
             GHashTable      *bigrams,
             const WsFrameId *f,
             guint            n,
             guint64          w)
{
  for (guint j = 0; j < n; j++)
    {
      FrameCounts *c = g_hash_table_lookup (frames, GUINT_TO_POINTER (f[j] + 1));
      gboolean seen = FALSE;

      if (c == NULL)
        {
          c = g_new0 (FrameCounts, 1);
          g_hash_table_insert (frames, GUINT_TO_POINTER (f[j] + 1), c);
        }
      for (guint k = 0; k < j && !seen; k++)
        seen = f[k] == f[j];
      if (!seen)
        c->n_stacks += w;
      if (j + 1 < n)
        {
          guint64 bk = ws_hash_pack_pair (f[j], f[j + 1]);
          guint64 *b = g_hash_table_lookup (bigrams, &bk);

          c->n_with_callee += w;
          if (b == NULL)
            {
              b = g_new0 (guint64, 1);
              g_hash_table_insert (bigrams, g_memdup2 (&bk, sizeof bk), b);
            }
          *b += w;
        }
      if (j > 0)
        c->n_with_caller += w;
    }
}

static gboolean
trace_recorded (WsHistoryStore *self,
                const char     *digest,
                gboolean       *exists,
                GError        **error)
{
  sqlite3_stmt *stmt = prepare (self, "SELECT 1 FROM traces WHERE digest = ?", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_TRANSIENT);
  *exists = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return TRUE;
}

/* Steps @stmt once expecting @expected; finalizes it either way. */
static gboolean
step_once (WsHistoryStore *self,
           sqlite3_stmt   *stmt,
           int             expected,
           const char     *doing,
           GError        **error)
{
  gboolean ok = sqlite3_step (stmt) == expected;

  if (!ok)
    sql_error (self, error, doing);
  sqlite3_finalize (stmt);
  return ok;
}

static gboolean
insert_trace_row (WsHistoryStore *self,
                  const char     *digest,
                  const char     *path,
                  guint64         total,
                  GError        **error)
{
  sqlite3_stmt *stmt = prepare (self, "INSERT INTO traces (digest, path, imported_at, n_callstacks) VALUES (?, ?, ?, ?)", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_TRANSIENT);
  if (path != NULL)
    sqlite3_bind_text (stmt, 2, path, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time () / G_USEC_PER_SEC);
  sqlite3_bind_int64 (stmt, 4, (sqlite3_int64) total);
  return step_once (self, stmt, SQLITE_DONE, _("recording a trace"), error);
}

/* Adds the function counts, and notes each function's row id for the
 * bigrams. */
static gboolean
add_function_counts (WsHistoryStore *self,
                     WsStackTable   *table,
                     GHashTable     *frames,
                     GError        **error)
{
  sqlite3_stmt *stmt;
  GHashTableIter iter;
  gpointer key, value;

  if ((stmt = prepare (self,
                       "INSERT INTO functions (name, module, n_stacks, n_with_callee, n_with_caller) "
                       "VALUES (?1, ?2, ?3, ?4, ?5) "
                       "ON CONFLICT (name, module) DO UPDATE SET "
                       "  n_stacks = n_stacks + ?3, n_with_callee = n_with_callee + ?4, "
                       "  n_with_caller = n_with_caller + ?5 "
                       "RETURNING id", error)) == NULL)
    return FALSE;
  g_hash_table_iter_init (&iter, frames);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const WsFrame *f = ws_stack_table_get_frame (table, GPOINTER_TO_UINT (key) - 1);
      FrameCounts *c = value;

      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, f->function, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, f->module, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, (sqlite3_int64) c->n_stacks);
      sqlite3_bind_int64 (stmt, 4, (sqlite3_int64) c->n_with_callee);
      sqlite3_bind_int64 (stmt, 5, (sqlite3_int64) c->n_with_caller);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        {
          sql_error (self, error, _("counting functions"));
          sqlite3_finalize (stmt);
          return FALSE;
        }
      c->id = sqlite3_column_int64 (stmt, 0);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        ;
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

static gboolean
add_bigram_counts (WsHistoryStore *self,
                   GHashTable     *frames,
                   GHashTable     *bigrams,
                   GError        **error)
{
  sqlite3_stmt *stmt;
  GHashTableIter iter;
  gpointer key, value;

  if ((stmt = prepare (self,
                       "INSERT INTO bigrams (caller, callee, count) VALUES (?1, ?2, ?3) "
                       "ON CONFLICT (caller, callee) DO UPDATE SET count = count + ?3", error)) == NULL)
    return FALSE;
  g_hash_table_iter_init (&iter, bigrams);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 bk = *(guint64 *) key;
      FrameCounts *caller = g_hash_table_lookup (frames, GUINT_TO_POINTER ((guint) (bk >> 32) + 1));
      FrameCounts *callee = g_hash_table_lookup (frames, GUINT_TO_POINTER ((guint) (bk & 0xffffffffu) + 1));

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, caller->id);
      sqlite3_bind_int64 (stmt, 2, callee->id);
      sqlite3_bind_int64 (stmt, 3, (sqlite3_int64) *(guint64 *) value);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        {
          sql_error (self, error, _("counting caller–callee pairs"));
          sqlite3_finalize (stmt);
          return FALSE;
        }
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

static gboolean
add_total (WsHistoryStore *self,
           guint64         total,
           GError        **error)
{
  sqlite3_stmt *stmt = prepare (self, "UPDATE totals SET value = value + ? WHERE key = 'n_callstacks'", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, (sqlite3_int64) total);
  return step_once (self, stmt, SQLITE_DONE, _("counting callstacks"), error);
}

/**
 * ws_history_store_record_stacks:
 * @digest: the trace's identity
 * @path: (nullable): where it was read from, for the record
 * @stacks: (array length=n_stacks): its callstacks (ids in @table)
 * @counts: (array length=n_stacks): how many events had each
 * @newly_recorded: (out) (optional): %FALSE if @digest was recorded before
 *
 * Adds a trace's callstacks to the unigram and bigram counts, in one
 * transaction together with the trace's row, unless the digest is already
 * there (then nothing changes and the call succeeds).
 */
gboolean
ws_history_store_record_stacks (WsHistoryStore   *self,
                                const char       *digest,
                                const char       *path,
                                WsStackTable     *table,
                                const WsStackId  *stacks,
                                const guint64    *counts,
                                guint             n_stacks,
                                gboolean         *newly_recorded,
                                GError          **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GHashTable) frames = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) bigrams = g_hash_table_new_full (ws_uint64_hash, g_int64_equal, g_free, g_free);
  guint64 total = 0;
  gboolean exists = FALSE;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (digest != NULL, FALSE);
  g_return_val_if_fail (WS_IS_STACK_TABLE (table), FALSE);
  g_return_val_if_fail (n_stacks == 0 || (stacks != NULL && counts != NULL), FALSE);

  if (newly_recorded)
    *newly_recorded = FALSE;

  /* Count in memory first: the transaction then only adds numbers. */
  for (guint s = 0; s < n_stacks; s++)
    {
      guint n;
      const WsFrameId *f = ws_stack_table_get_stack (table, stacks[s], &n);

      if (n == 0 || counts[s] == 0)
        continue;
      total += counts[s];
      count_stack (frames, bigrams, f, n, counts[s]);
    }

  locker = g_mutex_locker_new (&self->lock);

  if (!ws_history_store_begin (self, error))
    return FALSE;
  if (!trace_recorded (self, digest, &exists, error))
    goto fail;
  if (exists)
    {
      ws_history_store_rollback (self);
      return TRUE;
    }
  if (!insert_trace_row (self, digest, path, total, error) ||
      !add_function_counts (self, table, frames, error) ||
      !add_bigram_counts (self, frames, bigrams, error) ||
      !add_total (self, total, error) ||
      !ws_history_store_commit (self, error))
    goto fail;

  if (newly_recorded)
    *newly_recorded = TRUE;
  return TRUE;

fail:
  ws_history_store_rollback (self);
  return FALSE;
}

/**
 * ws_history_store_record_trace:
 * @newly_recorded: (out) (optional): %FALSE if the trace was recorded before
 *
 * Adds every waiting stack and every sampled running stack of @trace (the
 * callstacks StackMine mines; exact on-CPU spans are not samples and are
 * left out) to the history's unigram and bigram counts, once per trace
 * digest: recording the same trace again changes nothing.
 */
gboolean
ws_history_store_record_trace (WsHistoryStore  *self,
                               WsTrace         *trace,
                               gboolean        *newly_recorded,
                               GError         **error)
{
  g_autofree char *digest = NULL;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);

  if ((digest = ws_history_store_trace_digest (trace, error)) == NULL)
    return FALSE;
  return ws_history_store_record_trace_digest (self, trace, digest, newly_recorded, error);
}

/**
 * ws_history_store_record_trace_digest:
 * @digest: @trace's digest, already computed
 *
 * ws_history_store_record_trace() without hashing the trace again.
 */
gboolean
ws_history_store_record_trace_digest (WsHistoryStore  *self,
                                      WsTrace         *trace,
                                      const char      *digest,
                                      gboolean        *newly_recorded,
                                      GError         **error)
{
  g_autoptr(GArray) counts = NULL;
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (WsStackId));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (digest != NULL, FALSE);

  if (ws_history_store_has_trace (self, digest))
    {
      if (newly_recorded)
        *newly_recorded = FALSE;
      return TRUE;
    }

  counts = ws_stack_counts_of_trace (trace);
  for (guint i = 0; i < counts->len; i++)
    {
      const WsStackCount *c = &g_array_index (counts, WsStackCount, i);

      g_array_append_val (stacks, c->stack);
      g_array_append_val (weights, c->count);
    }

  return ws_history_store_record_stacks (self, digest, ws_trace_get_path (trace),
                                         ws_trace_get_stack_table (trace),
                                         (const WsStackId *) (gpointer) stacks->data,
                                         (const guint64 *) (gpointer) weights->data,
                                         stacks->len, newly_recorded, error);
}

gboolean
ws_history_store_has_trace (WsHistoryStore *self,
                            const char     *digest)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gboolean found;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (digest != NULL, FALSE);

  locker = g_mutex_locker_new (&self->lock);
  if ((stmt = prepare (self, "SELECT 1 FROM traces WHERE digest = ?", NULL)) == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_TRANSIENT);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

static gint64
query_int (WsHistoryStore *self,
           const char     *sql)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  sqlite3_stmt *stmt = prepare (self, sql, NULL);
  gint64 v = 0;

  if (stmt == NULL)
    return 0;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return v;
}

guint
ws_history_store_get_n_traces (WsHistoryStore *self)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), 0);
  return query_int (self, "SELECT COUNT(*) FROM traces");
}

/**
 * ws_history_store_get_n_callstacks:
 *
 * Returns: the number of callstacks counted, "#callstacks in database" of
 *   StackMine §VI.C
 */
guint64
ws_history_store_get_n_callstacks (WsHistoryStore *self)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), 0);
  return query_int (self, "SELECT value FROM totals WHERE key = 'n_callstacks'");
}

/**
 * ws_history_store_lookup_function:
 * @counts: (out): its counts (zero if never seen)
 *
 * Returns: whether the function was ever seen
 */
gboolean
ws_history_store_lookup_function (WsHistoryStore   *self,
                                  const char       *function,
                                  const char       *module,
                                  WsFunctionCounts *counts)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gboolean found;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (function != NULL && module != NULL && counts != NULL, FALSE);

  memset (counts, 0, sizeof *counts);
  locker = g_mutex_locker_new (&self->lock);
  stmt = prepare (self, "SELECT n_stacks, n_with_callee, n_with_caller FROM functions "
                        "WHERE name = ? AND module = ?", NULL);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, function, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, module, -1, SQLITE_STATIC);
  if ((found = sqlite3_step (stmt) == SQLITE_ROW))
    {
      counts->n_stacks = sqlite3_column_int64 (stmt, 0);
      counts->n_with_callee = sqlite3_column_int64 (stmt, 1);
      counts->n_with_caller = sqlite3_column_int64 (stmt, 2);
    }
  sqlite3_finalize (stmt);
  return found;
}

/**
 * ws_history_store_lookup_bigram:
 *
 * Returns: how often @caller was seen calling @callee directly
 */
guint64
ws_history_store_lookup_bigram (WsHistoryStore *self,
                                const WsFrame  *caller,
                                const WsFrame  *callee)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  guint64 count = 0;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), 0);
  g_return_val_if_fail (caller != NULL && callee != NULL, 0);

  locker = g_mutex_locker_new (&self->lock);
  stmt = prepare (self,
                  "SELECT b.count FROM bigrams b "
                  "JOIN functions f1 ON f1.id = b.caller JOIN functions f2 ON f2.id = b.callee "
                  "WHERE f1.name = ? AND f1.module = ? AND f2.name = ? AND f2.module = ?", NULL);
  if (stmt == NULL)
    return 0;
  sqlite3_bind_text (stmt, 1, caller->function, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, caller->module, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, callee->function, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 4, callee->module, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    count = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return count;
}

/**
 * ws_history_store_get_stats:
 * @stats: (out): the counts
 *
 * Reads every count in one statement, so they describe one state of the
 * database even while another process records a trace.
 */
gboolean
ws_history_store_get_stats (WsHistoryStore  *self,
                            WsHistoryStats  *stats,
                            GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gboolean ok;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);

  memset (stats, 0, sizeof *stats);
  locker = g_mutex_locker_new (&self->lock);
  stmt = prepare (self,
                  "SELECT (SELECT COUNT(*) FROM traces),"
                  "       (SELECT value FROM totals WHERE key = 'n_callstacks'),"
                  "       (SELECT COUNT(*) FROM functions),"
                  "       (SELECT COUNT(*) FROM bigrams),"
                  "       (SELECT COUNT(*) FROM wait_samples),"
                  "       (SELECT COUNT(DISTINCT signature) FROM wait_samples),"
                  "       (SELECT COUNT(*) FROM anomaly_flags)", error);
  if (stmt == NULL)
    return FALSE;
  if ((ok = sqlite3_step (stmt) == SQLITE_ROW))
    {
      stats->n_traces = sqlite3_column_int64 (stmt, 0);
      stats->n_callstacks = sqlite3_column_int64 (stmt, 1);
      stats->n_functions = sqlite3_column_int64 (stmt, 2);
      stats->n_bigrams = sqlite3_column_int64 (stmt, 3);
      stats->n_wait_samples = sqlite3_column_int64 (stmt, 4);
      stats->n_wait_signatures = sqlite3_column_int64 (stmt, 5);
      stats->n_flags = sqlite3_column_int64 (stmt, 6);
    }
  else
    sql_error (self, error, _("counting what it holds"));
  sqlite3_finalize (stmt);
  return ok;
}

static void
history_function_clear (gpointer data)
{
  WsHistoryFunction *f = data;

  g_free (f->function);
  g_free (f->module);
}

/**
 * ws_history_store_top_functions:
 * @n: how many; 0 for all
 *
 * The functions in the most callstacks (the largest unigram counts, the
 * least telling by StackMine's Uni weight), ties by name then module.
 *
 * Returns: (transfer full) (element-type WsHistoryFunction): at most @n
 *   functions, commonest first, or %NULL with @error set
 */
GArray *
ws_history_store_top_functions (WsHistoryStore  *self,
                                guint            n,
                                GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  GArray *out;
  int rc;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);

  locker = g_mutex_locker_new (&self->lock);
  stmt = prepare (self, "SELECT name, module, n_stacks, n_with_callee, n_with_caller FROM functions "
                        "ORDER BY n_stacks DESC, name, module LIMIT ?", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, n == 0 ? -1 : (sqlite3_int64) n);

  out = g_array_new (FALSE, TRUE, sizeof (WsHistoryFunction));
  g_array_set_clear_func (out, history_function_clear);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsHistoryFunction f;

      f.function = ws_history_store_column_text (stmt, 0);
      f.module = ws_history_store_column_text (stmt, 1);
      f.counts.n_stacks = sqlite3_column_int64 (stmt, 2);
      f.counts.n_with_callee = sqlite3_column_int64 (stmt, 3);
      f.counts.n_with_caller = sqlite3_column_int64 (stmt, 4);
      g_array_append_val (out, f);
    }
  if (rc != SQLITE_DONE)
    {
      sql_error (self, error, _("listing functions"));
      g_clear_pointer (&out, g_array_unref);
    }
  sqlite3_finalize (stmt);
  return out;
}

/**
 * ws_history_store_fill_similarity:
 * @frames: (array length=n_frames): the frames whose weights are needed
 *   (those of the patterns to compare), ids in the model's table
 *
 * Loads into @similarity the history's callstack total, the counts of
 * @frames and the caller → callee counts between them: everything ω needs
 * for patterns made of @frames.
 */
gboolean
ws_history_store_fill_similarity (WsHistoryStore   *self,
                                  WsSimilarity     *similarity,
                                  const WsFrameId  *frames,
                                  guint             n_frames,
                                  GError          **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GHashTable) frame_of_row = g_hash_table_new (ws_uint64_hash, g_int64_equal);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree gint64 *row_ids = NULL;
  WsStackTable *table;
  sqlite3_stmt *stmt;
  guint64 total;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (WS_IS_SIMILARITY (similarity), FALSE);

  total = ws_history_store_get_n_callstacks (self);
  ws_similarity_set_n_callstacks (similarity, total);
  table = ws_similarity_get_stack_table (similarity);
  row_ids = g_new0 (gint64, MAX (n_frames, 1));

  locker = g_mutex_locker_new (&self->lock);

  stmt = prepare (self, "SELECT id, n_stacks, n_with_callee, n_with_caller FROM functions "
                        "WHERE name = ? AND module = ?", error);
  if (stmt == NULL)
    return FALSE;
  for (guint i = 0; i < n_frames; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, frames[i]);

      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, f->function, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, f->module, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          WsFunctionCounts c = {
            sqlite3_column_int64 (stmt, 1),
            sqlite3_column_int64 (stmt, 2),
            sqlite3_column_int64 (stmt, 3),
          };

          row_ids[i] = sqlite3_column_int64 (stmt, 0);
          ws_similarity_set_function (similarity, frames[i], &c);
          g_hash_table_insert (frame_of_row, &row_ids[i], GUINT_TO_POINTER (frames[i] + 1));
        }
    }
  sqlite3_finalize (stmt);

  /* Each known frame's callees, kept if the callee is one of @frames. */
  stmt = prepare (self, "SELECT callee, count FROM bigrams WHERE caller = ?", error);
  if (stmt == NULL)
    return FALSE;
  for (guint i = 0; i < n_frames; i++)
    {
      if (row_ids[i] == 0)
        continue;
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, row_ids[i]);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gint64 callee = sqlite3_column_int64 (stmt, 0);
          gpointer f = g_hash_table_lookup (frame_of_row, &callee);

          if (f != NULL)
            ws_similarity_set_bigram (similarity, frames[i], GPOINTER_TO_UINT (f) - 1,
                                      sqlite3_column_int64 (stmt, 1));
        }
    }
  sqlite3_finalize (stmt);
  return TRUE;
}
