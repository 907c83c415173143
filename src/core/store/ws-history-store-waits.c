/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store's wait history and the analyst's flags (schema
 * version 2; the connection, its lock and the schema are in
 * ws-history-store.c).
 *
 * Every wait of a recorded trace is offered to three reservoirs: its
 * signature's, its pool's ("pool:" + kernel blocking function) and the
 * global one ("*").  Each reservoir keeps at most N samples (a setting,
 * 4,096 by default) drawn uniformly from every wait it was ever offered
 * (Vitter's algorithm R: the n-th offer replaces a random slot with
 * probability N / n), so the history stays bounded however many traces are
 * recorded and old traces keep their share.  The random draws come from a
 * GSL Mersenne twister seeded with the trace's digest: recording the same
 * traces in the same order gives the same history.
 *
 * A trace's waits are recorded once per (digest, signature depth), in one
 * transaction with that mark, so a crash records all of them or none.
 *
 * A flag is one statement in autocommit mode — its own transaction,
 * durable when the call returns (WAL, synchronous=FULL).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_rng.h>
#include <string.h>

#include "ws-history-store-private.h"

static sqlite3_stmt *
prepare (WsHistoryStore  *self,
         const char      *sql,
         GError         **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (ws_history_store_get_db (self), sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      ws_history_store_sql_error (self, error, _("preparing a query"));
      return NULL;
    }
  return stmt;
}

static gboolean
exec (WsHistoryStore  *self,
      const char      *sql,
      const char      *what,
      GError         **error)
{
  if (sqlite3_exec (ws_history_store_get_db (self), sql, NULL, NULL, NULL) != SQLITE_OK)
    return ws_history_store_sql_error (self, error, what);
  return TRUE;
}

static void
rollback (WsHistoryStore *self)
{
  sqlite3_exec (ws_history_store_get_db (self), "ROLLBACK", NULL, NULL, NULL);
}

/**
 * ws_history_store_has_waits:
 *
 * Returns: whether the waits of the trace @digest were recorded at
 *   signature depth @depth
 */
gboolean
ws_history_store_has_waits (WsHistoryStore *self,
                            const char     *digest,
                            guint           depth)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  gboolean found;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (digest != NULL, FALSE);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if ((stmt = prepare (self, "SELECT 1 FROM wait_traces WHERE digest = ? AND depth = ?", NULL)) == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_STATIC);
  sqlite3_bind_int (stmt, 2, depth);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

typedef struct {
  sqlite3_stmt *seen;
  sqlite3_stmt *put;
  sqlite3_stmt *count;
  gsl_rng      *rng;
  guint         capacity;
  const char   *digest;
} Reservoir;

/* Offers one reservoir its samples (algorithm R). */
static gboolean
offer (WsHistoryStore *self,
       Reservoir      *r,
       const char     *key,
       const gint64   *durations,
       guint           n,
       GError        **error)
{
  gint64 seen = 0;

  sqlite3_reset (r->seen);
  sqlite3_bind_text (r->seen, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step (r->seen) == SQLITE_ROW)
    seen = sqlite3_column_int64 (r->seen, 0);
  sqlite3_reset (r->seen);

  for (guint i = 0; i < n; i++)
    {
      gint64 slot;

      seen++;
      if (seen <= r->capacity)
        slot = seen - 1;
      else if ((slot = (gint64) gsl_rng_uniform_int (r->rng, (unsigned long) MIN (seen, G_MAXUINT32))) >= r->capacity)
        continue;
      sqlite3_reset (r->put);
      sqlite3_bind_text (r->put, 1, key, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (r->put, 2, slot);
      sqlite3_bind_text (r->put, 3, r->digest, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (r->put, 4, durations[i]);
      if (sqlite3_step (r->put) != SQLITE_DONE)
        return ws_history_store_sql_error (self, error, _("adding wait samples"));
    }
  sqlite3_reset (r->count);
  sqlite3_bind_text (r->count, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (r->count, 2, seen);
  if (sqlite3_step (r->count) != SQLITE_DONE)
    return ws_history_store_sql_error (self, error, _("adding wait samples"));
  return TRUE;
}

static void
reservoir_clear (Reservoir *r)
{
  g_clear_pointer (&r->seen, sqlite3_finalize);
  g_clear_pointer (&r->put, sqlite3_finalize);
  g_clear_pointer (&r->count, sqlite3_finalize);
  g_clear_pointer (&r->rng, gsl_rng_free);
}

/**
 * ws_history_store_record_wait_samples:
 * @digest: the trace's digest
 * @depth: the signature depth its keys were computed at
 * @keys: (array length=n_keys): reservoir keys
 * @samples: (array length=n_keys) (element-type GArray): per key, its
 *   durations (gint64 ns) in trace order
 * @capacity: samples kept per reservoir
 * @newly_recorded: (out) (optional): %FALSE if already recorded
 *
 * Offers a trace's waits to their reservoirs, once per (digest, depth),
 * in one transaction.
 */
gboolean
ws_history_store_record_wait_samples (WsHistoryStore     *self,
                                      const char         *digest,
                                      guint               depth,
                                      const char * const *keys,
                                      GArray * const     *samples,
                                      guint               n_keys,
                                      guint               capacity,
                                      gboolean           *newly_recorded,
                                      GCancellable       *cancellable,
                                      GError            **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  Reservoir r = { 0 };
  sqlite3_stmt *mark;
  guint64 n_waits = 0;
  int rc;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (digest != NULL && capacity > 0, FALSE);

  if (newly_recorded)
    *newly_recorded = FALSE;
  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (!exec (self, "BEGIN IMMEDIATE", _("starting a transaction"), error))
    return FALSE;

  if ((mark = prepare (self, "INSERT OR IGNORE INTO wait_traces (digest, depth, n_waits, recorded_at) "
                             "VALUES (?, ?, 0, ?)", error)) == NULL)
    goto fail;
  sqlite3_bind_text (mark, 1, digest, -1, SQLITE_STATIC);
  sqlite3_bind_int (mark, 2, depth);
  sqlite3_bind_int64 (mark, 3, g_get_real_time () / G_USEC_PER_SEC);
  rc = sqlite3_step (mark);
  sqlite3_finalize (mark);
  if (rc != SQLITE_DONE)
    {
      ws_history_store_sql_error (self, error, _("recording a trace's waits"));
      goto fail;
    }
  if (sqlite3_changes (ws_history_store_get_db (self)) == 0)
    {
      rollback (self);
      return TRUE;
    }

  r.capacity = capacity;
  r.digest = digest;
  r.rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (r.rng, g_str_hash (digest));
  r.seen = prepare (self, "SELECT n_seen FROM wait_reservoirs WHERE signature = ?", error);
  r.put = prepare (self, "INSERT INTO wait_samples (signature, slot, trace_digest, duration) VALUES (?1, ?2, ?3, ?4) "
                         "ON CONFLICT (signature, slot) DO UPDATE SET trace_digest = ?3, duration = ?4", NULL);
  r.count = prepare (self, "INSERT INTO wait_reservoirs (signature, n_seen) VALUES (?1, ?2) "
                           "ON CONFLICT (signature) DO UPDATE SET n_seen = ?2", NULL);
  if (r.seen == NULL || r.put == NULL || r.count == NULL)
    {
      if (error != NULL && *error == NULL)
        ws_history_store_sql_error (self, error, _("preparing a query"));
      goto fail;
    }
  for (guint k = 0; k < n_keys; k++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto fail;
      if (!offer (self, &r, keys[k], (const gint64 *) (gpointer) samples[k]->data, samples[k]->len, error))
        goto fail;
      if (strchr (keys[k], '|') != NULL)
        n_waits += samples[k]->len;
    }
  reservoir_clear (&r);

  if ((mark = prepare (self, "UPDATE wait_traces SET n_waits = ? WHERE digest = ? AND depth = ?", error)) == NULL)
    goto fail;
  sqlite3_bind_int64 (mark, 1, (sqlite3_int64) n_waits);
  sqlite3_bind_text (mark, 2, digest, -1, SQLITE_STATIC);
  sqlite3_bind_int (mark, 3, depth);
  rc = sqlite3_step (mark);
  sqlite3_finalize (mark);
  if (rc != SQLITE_DONE || !exec (self, "COMMIT", _("committing"), error))
    {
      if (rc != SQLITE_DONE)
        ws_history_store_sql_error (self, error, _("recording a trace's waits"));
      goto fail;
    }
  if (newly_recorded)
    *newly_recorded = TRUE;
  return TRUE;

fail:
  reservoir_clear (&r);
  rollback (self);
  return FALSE;
}

/**
 * ws_history_store_get_reservoir:
 * @key: a signature, "pool:" + a kernel blocking function, or "*"
 * @n_seen: (out) (optional): how many waits were ever offered to it
 *
 * Returns: (transfer full) (element-type gint64): the reservoir's
 *   durations, leaving out samples of waits the analyst flagged anomalous
 *   (same trace, same duration): those are not normal data.  %NULL with
 *   @error set on failure.
 */
GArray *
ws_history_store_get_reservoir (WsHistoryStore  *self,
                                const char      *key,
                                guint64         *n_seen,
                                GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  GArray *out;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (n_seen != NULL)
    {
      *n_seen = 0;
      if ((stmt = prepare (self, "SELECT n_seen FROM wait_reservoirs WHERE signature = ?", error)) == NULL)
        return NULL;
      sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        *n_seen = sqlite3_column_int64 (stmt, 0);
      sqlite3_finalize (stmt);
    }
  stmt = prepare (self,
                  "SELECT s.duration FROM wait_samples s WHERE s.signature = ? AND s.slot IS NOT NULL "
                  "AND NOT EXISTS (SELECT 1 FROM anomaly_flags f WHERE f.flag = 1 "
                  "  AND f.trace_digest = s.trace_digest AND f.duration = s.duration) "
                  "ORDER BY s.slot", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  out = g_array_new (FALSE, FALSE, sizeof (gint64));
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 d = sqlite3_column_int64 (stmt, 0);
      g_array_append_val (out, d);
    }
  sqlite3_finalize (stmt);
  return out;
}

/**
 * ws_history_store_flag_wait:
 * @flag: the wait and the verdict; %WS_ANOMALY_FLAG_NONE removes the flag
 *
 * Saves the analyst's verdict on one wait in its own transaction, durable
 * when this returns.
 */
gboolean
ws_history_store_flag_wait (WsHistoryStore    *self,
                            const WsWaitFlag  *flag,
                            GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  int rc;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (flag != NULL && flag->trace_digest != NULL, FALSE);
  g_return_val_if_fail (flag->flag == WS_ANOMALY_FLAG_NONE || flag->signature != NULL, FALSE);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (flag->flag == WS_ANOMALY_FLAG_NONE)
    stmt = prepare (self, "DELETE FROM anomaly_flags WHERE trace_digest = ?1 AND event_time = ?2 AND tid = ?3", error);
  else
    stmt = prepare (self,
                    "INSERT INTO anomaly_flags (trace_digest, event_time, tid, signature, flag, updated_at, duration) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                    "ON CONFLICT (trace_digest, event_time, tid) DO UPDATE SET "
                    "  signature = ?4, flag = ?5, updated_at = ?6, duration = ?7", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, flag->trace_digest, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, flag->event_time);
  sqlite3_bind_int (stmt, 3, flag->tid);
  if (flag->flag != WS_ANOMALY_FLAG_NONE)
    {
      sqlite3_bind_text (stmt, 4, flag->signature, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 5, flag->flag);
      sqlite3_bind_int64 (stmt, 6, g_get_real_time ());
      sqlite3_bind_int64 (stmt, 7, flag->duration);
    }
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return ws_history_store_sql_error (self, error, _("saving an anomaly flag"));
  return TRUE;
}

void
ws_wait_flag_clear (WsWaitFlag *flag)
{
  g_clear_pointer (&flag->trace_digest, g_free);
  g_clear_pointer (&flag->signature, g_free);
}

static void
wait_flag_clear (gpointer data)
{
  ws_wait_flag_clear (data);
}

/**
 * ws_history_store_list_wait_flags:
 * @signature: (nullable): only this signature's flags; %NULL for all
 *
 * Returns: (transfer full) (element-type WsWaitFlag): the flags, oldest
 *   first, or %NULL with @error set
 */
GArray *
ws_history_store_list_wait_flags (WsHistoryStore  *self,
                                  const char      *signature,
                                  GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  GArray *out;
  int rc;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  stmt = prepare (self,
                  signature != NULL
                  ? "SELECT trace_digest, event_time, tid, signature, duration, flag, updated_at "
                    "FROM anomaly_flags WHERE signature = ? ORDER BY updated_at, rowid"
                  : "SELECT trace_digest, event_time, tid, signature, duration, flag, updated_at "
                    "FROM anomaly_flags ORDER BY updated_at, rowid", error);
  if (stmt == NULL)
    return NULL;
  if (signature != NULL)
    sqlite3_bind_text (stmt, 1, signature, -1, SQLITE_STATIC);
  out = g_array_new (FALSE, TRUE, sizeof (WsWaitFlag));
  g_array_set_clear_func (out, wait_flag_clear);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      WsWaitFlag f;

      f.trace_digest = ws_history_store_column_text (stmt, 0);
      f.event_time = sqlite3_column_int64 (stmt, 1);
      f.tid = sqlite3_column_int (stmt, 2);
      f.signature = ws_history_store_column_text (stmt, 3);
      f.duration = sqlite3_column_int64 (stmt, 4);
      f.flag = sqlite3_column_int (stmt, 5);
      f.updated_at = sqlite3_column_int64 (stmt, 6);
      g_array_append_val (out, f);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      ws_history_store_sql_error (self, error, _("listing anomaly flags"));
      g_clear_pointer (&out, g_array_unref);
    }
  return out;
}
