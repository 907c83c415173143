/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store's wait history and the analyst's flags (the
 * connection, its lock, the schema and the SQL helpers are in
 * ws-history-store.c).  Two generations of the same tables live here side
 * by side and share their SQL: the plain per-signature samples and flags
 * keyed by time and thread (ws_history_store_add_wait_samples(),
 * _set_flag(), _list_flags()), and, from schema version 2, the bounded
 * reservoirs and flags that keep the wait's duration.
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

/* ------------------------------------------------------------------ */
/* SQL steps shared by the functions below                              */

static sqlite3_stmt *
prepare (WsHistoryStore  *self,
         const char      *sql,
         GError         **error)
{
  return ws_history_store_prepare (self, sql, error);
}

static gboolean
begin (WsHistoryStore  *self,
       GError         **error)
{
  return ws_history_store_begin (self, error);
}

static void
rollback (WsHistoryStore *self)
{
  ws_history_store_rollback (self);
}

/* Commits; on failure rolls back, so the transaction never stays open. */
static gboolean
commit (WsHistoryStore  *self,
        GError         **error)
{
  if (ws_history_store_commit (self, error))
    return TRUE;
  rollback (self);
  return FALSE;
}

/* Runs a statement that returns no rows and finalizes it; @what names
 * the step in the error. */
static gboolean
step_done (WsHistoryStore  *self,
           sqlite3_stmt    *stmt,
           const char      *what,
           GError         **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return ws_history_store_sql_error (self, error, what);
  return TRUE;
}

/* Column 0 of every row, as gint64 durations; finalizes @stmt. */
static GArray *
collect_durations (sqlite3_stmt *stmt)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 d = sqlite3_column_int64 (stmt, 0);
      g_array_append_val (out, d);
    }
  sqlite3_finalize (stmt);
  return out;
}

/* How many waits were ever offered to reservoir @key (0 if none). */
static gint64
query_n_seen (sqlite3_stmt *seen,
              const char   *key)
{
  gint64 n = 0;

  sqlite3_reset (seen);
  sqlite3_bind_text (seen, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step (seen) == SQLITE_ROW)
    n = sqlite3_column_int64 (seen, 0);
  sqlite3_reset (seen);
  return n;
}

#define N_SEEN_SQL "SELECT n_seen FROM wait_reservoirs WHERE signature = ?"

/* ------------------------------------------------------------------ */
/* Plain wait samples                                                   */

/**
 * ws_history_store_add_wait_samples:
 * @signature: what identifies the wait across traces (e.g. its waiting
 *   stack's key frames)
 * @trace_digest: (nullable): the trace they come from
 * @durations: (array length=n_durations): wait durations (ns)
 *
 * Appends samples of a wait's duration, all in one transaction.
 */
gboolean
ws_history_store_add_wait_samples (WsHistoryStore  *self,
                                   const char      *signature,
                                   const char      *trace_digest,
                                   const gint64    *durations,
                                   guint            n_durations,
                                   GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (signature != NULL, FALSE);
  g_return_val_if_fail (durations != NULL || n_durations == 0, FALSE);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (!begin (self, error))
    return FALSE;
  if ((stmt = prepare (self, "INSERT INTO wait_samples (signature, trace_digest, duration) VALUES (?, ?, ?)", error)) == NULL)
    {
      rollback (self);
      return FALSE;
    }
  for (guint i = 0; i < n_durations; i++)
    {
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, signature, -1, SQLITE_STATIC);
      if (trace_digest != NULL)
        sqlite3_bind_text (stmt, 2, trace_digest, -1, SQLITE_STATIC);
      else
        sqlite3_bind_null (stmt, 2);
      sqlite3_bind_int64 (stmt, 3, durations[i]);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        {
          ws_history_store_sql_error (self, error, _("adding wait samples"));
          sqlite3_finalize (stmt);
          rollback (self);
          return FALSE;
        }
    }
  sqlite3_finalize (stmt);
  return commit (self, error);
}

/**
 * ws_history_store_get_wait_samples:
 *
 * Returns: (transfer full) (element-type gint64): every recorded duration
 *   of the signature, in insertion order, or %NULL with @error set
 */
GArray *
ws_history_store_get_wait_samples (WsHistoryStore  *self,
                                   const char      *signature,
                                   GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);
  g_return_val_if_fail (signature != NULL, NULL);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if ((stmt = prepare (self, "SELECT duration FROM wait_samples WHERE signature = ? ORDER BY id", error)) == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, signature, -1, SQLITE_STATIC);
  return collect_durations (stmt);
}

/* ------------------------------------------------------------------ */
/* Reservoirs (schema version 2)                                        */

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

/* The statements and the random stream (seeded with the trace's digest)
 * of one trace's offers. */
static gboolean
reservoir_init (Reservoir       *r,
                WsHistoryStore  *self,
                const char      *digest,
                guint            capacity,
                GError         **error)
{
  r->capacity = capacity;
  r->digest = digest;
  r->rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (r->rng, g_str_hash (digest));
  r->seen = prepare (self, N_SEEN_SQL, error);
  r->put = prepare (self, "INSERT INTO wait_samples (signature, slot, trace_digest, duration) VALUES (?1, ?2, ?3, ?4) "
                          "ON CONFLICT (signature, slot) DO UPDATE SET trace_digest = ?3, duration = ?4", NULL);
  r->count = prepare (self, "INSERT INTO wait_reservoirs (signature, n_seen) VALUES (?1, ?2) "
                            "ON CONFLICT (signature) DO UPDATE SET n_seen = ?2", NULL);
  if (r->seen != NULL && r->put != NULL && r->count != NULL)
    return TRUE;
  if (error != NULL && *error == NULL)
    ws_history_store_sql_error (self, error, _("preparing a query"));
  return FALSE;
}

static void
reservoir_clear (Reservoir *r)
{
  g_clear_pointer (&r->seen, sqlite3_finalize);
  g_clear_pointer (&r->put, sqlite3_finalize);
  g_clear_pointer (&r->count, sqlite3_finalize);
  g_clear_pointer (&r->rng, gsl_rng_free);
}

/* Offers one reservoir its samples (algorithm R). */
static gboolean
offer (WsHistoryStore *self,
       Reservoir      *r,
       const char     *key,
       const gint64   *durations,
       guint           n,
       GError        **error)
{
  gint64 seen = query_n_seen (r->seen, key);

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

/* Offers every key its samples; counts in @n_waits the waits offered to
 * signature reservoirs (keys with a '|'), each wait once. */
static gboolean
offer_all (WsHistoryStore     *self,
           Reservoir          *r,
           const char * const *keys,
           GArray * const     *samples,
           guint               n_keys,
           guint64            *n_waits,
           GCancellable       *cancellable,
           GError            **error)
{
  for (guint k = 0; k < n_keys; k++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!offer (self, r, keys[k], (const gint64 *) (gpointer) samples[k]->data, samples[k]->len, error))
        return FALSE;
      if (strchr (keys[k], '|') != NULL)
        *n_waits += samples[k]->len;
    }
  return TRUE;
}

/* Marks the waits of trace @digest recorded at @depth; @is_new is FALSE
 * if they already were. */
static gboolean
mark_trace (WsHistoryStore  *self,
            const char      *digest,
            guint            depth,
            gboolean        *is_new,
            GError         **error)
{
  sqlite3_stmt *mark;

  if ((mark = prepare (self, "INSERT OR IGNORE INTO wait_traces (digest, depth, n_waits, recorded_at) "
                             "VALUES (?, ?, 0, ?)", error)) == NULL)
    return FALSE;
  sqlite3_bind_text (mark, 1, digest, -1, SQLITE_STATIC);
  sqlite3_bind_int (mark, 2, depth);
  sqlite3_bind_int64 (mark, 3, g_get_real_time () / G_USEC_PER_SEC);
  if (!step_done (self, mark, _("recording a trace's waits"), error))
    return FALSE;
  *is_new = sqlite3_changes (ws_history_store_get_db (self)) > 0;
  return TRUE;
}

static gboolean
set_n_waits (WsHistoryStore  *self,
             const char      *digest,
             guint            depth,
             guint64          n_waits,
             GError         **error)
{
  sqlite3_stmt *mark;

  if ((mark = prepare (self, "UPDATE wait_traces SET n_waits = ? WHERE digest = ? AND depth = ?", error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (mark, 1, (sqlite3_int64) n_waits);
  sqlite3_bind_text (mark, 2, digest, -1, SQLITE_STATIC);
  sqlite3_bind_int (mark, 3, depth);
  return step_done (self, mark, _("recording a trace's waits"), error);
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
  guint64 n_waits = 0;
  gboolean is_new = FALSE;
  gboolean offered;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (digest != NULL && capacity > 0, FALSE);

  if (newly_recorded)
    *newly_recorded = FALSE;
  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (!begin (self, error))
    return FALSE;
  if (!mark_trace (self, digest, depth, &is_new, error))
    {
      rollback (self);
      return FALSE;
    }
  if (!is_new)
    {
      rollback (self);
      return TRUE;
    }

  offered = reservoir_init (&r, self, digest, capacity, error) &&
            offer_all (self, &r, keys, samples, n_keys, &n_waits, cancellable, error);
  reservoir_clear (&r);
  if (!offered || !set_n_waits (self, digest, depth, n_waits, error))
    {
      rollback (self);
      return FALSE;
    }
  if (!commit (self, error))
    return FALSE;
  if (newly_recorded)
    *newly_recorded = TRUE;
  return TRUE;
}

/**
 * ws_history_store_get_reservoir:
 * @key: a signature, "pool:" + a kernel blocking function, or "*"
 * @n_seen: (out) (optional): how many waits were ever offered to it
 *
 * Returns: (transfer full) (element-type gint64): the reservoir's
 *   durations, flagged or not (flags move a kind's cut, never its data:
 *   docs/anomaly-detection.md).  %NULL with @error set on failure.
 */
GArray *
ws_history_store_get_reservoir (WsHistoryStore  *self,
                                const char      *key,
                                guint64         *n_seen,
                                GError         **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  if (n_seen != NULL)
    {
      if ((stmt = prepare (self, N_SEEN_SQL, error)) == NULL)
        {
          *n_seen = 0;
          return NULL;
        }
      *n_seen = query_n_seen (stmt, key);
      sqlite3_finalize (stmt);
    }
  stmt = prepare (self,
                  "SELECT s.duration FROM wait_samples s WHERE s.signature = ? AND s.slot IS NOT NULL "
                  "ORDER BY s.slot", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  return collect_durations (stmt);
}

/* ------------------------------------------------------------------ */
/* Flags                                                                */

/* One flag saved (or removed, for WS_ANOMALY_FLAG_NONE) in its own
 * transaction (autocommit), durable when this returns.  @duration:
 * (nullable): the wait's duration; without one a new flag gets 0 and an
 * existing flag keeps its own. */
static gboolean
write_flag (WsHistoryStore  *self,
            const char      *trace_digest,
            gint64           event_time,
            gint32           tid,
            const char      *signature,
            WsAnomalyFlag    flag,
            const gint64    *duration,
            GError         **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  sqlite3_stmt *stmt;

  if (flag == WS_ANOMALY_FLAG_NONE)
    stmt = prepare (self, "DELETE FROM anomaly_flags WHERE trace_digest = ?1 AND event_time = ?2 AND tid = ?3", error);
  else
    stmt = prepare (self,
                    "INSERT INTO anomaly_flags (trace_digest, event_time, tid, signature, flag, updated_at, duration) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, COALESCE (?7, 0)) "
                    "ON CONFLICT (trace_digest, event_time, tid) DO UPDATE SET "
                    "  signature = ?4, flag = ?5, updated_at = ?6, duration = COALESCE (?7, duration)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, trace_digest, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, event_time);
  sqlite3_bind_int (stmt, 3, tid);
  if (flag != WS_ANOMALY_FLAG_NONE)
    {
      sqlite3_bind_text (stmt, 4, signature, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 5, flag);
      sqlite3_bind_int64 (stmt, 6, g_get_real_time ());
      if (duration != NULL)
        sqlite3_bind_int64 (stmt, 7, *duration);
    }
  return step_done (self, stmt, _("saving an anomaly flag"), error);
}

/**
 * ws_history_store_set_flag:
 * @event_time: the wait's start time in its trace (ns)
 * @tid: the waiting thread's TID
 * @signature: the wait's signature (so detection can find all flags of a
 *   kind of wait)
 * @flag: the verdict; %WS_ANOMALY_FLAG_NONE removes it
 *
 * Saves the user's verdict on one wait, committed before returning.
 */
gboolean
ws_history_store_set_flag (WsHistoryStore  *self,
                           const char      *trace_digest,
                           gint64           event_time,
                           gint32           tid,
                           const char      *signature,
                           WsAnomalyFlag    flag,
                           GError         **error)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (trace_digest != NULL && signature != NULL, FALSE);
  g_return_val_if_fail (flag <= WS_ANOMALY_FLAG_NORMAL, FALSE);

  return write_flag (self, trace_digest, event_time, tid, signature, flag, NULL, error);
}

/**
 * ws_history_store_flag_wait:
 * @flag: the wait and the verdict; %WS_ANOMALY_FLAG_NONE removes the flag
 *
 * Saves the analyst's verdict on one wait, with its duration, in its own
 * transaction, durable when this returns.
 */
gboolean
ws_history_store_flag_wait (WsHistoryStore    *self,
                            const WsWaitFlag  *flag,
                            GError           **error)
{
  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), FALSE);
  g_return_val_if_fail (flag != NULL && flag->trace_digest != NULL, FALSE);
  g_return_val_if_fail (flag->flag == WS_ANOMALY_FLAG_NONE || flag->signature != NULL, FALSE);

  return write_flag (self, flag->trace_digest, flag->event_time, flag->tid, flag->signature, flag->flag,
                     &flag->duration, error);
}

WsAnomalyFlag
ws_history_store_get_flag (WsHistoryStore *self,
                           const char     *trace_digest,
                           gint64          event_time,
                           gint32          tid)
{
  g_autoptr(GMutexLocker) locker = NULL;
  sqlite3_stmt *stmt;
  WsAnomalyFlag flag = WS_ANOMALY_FLAG_NONE;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), WS_ANOMALY_FLAG_NONE);
  g_return_val_if_fail (trace_digest != NULL, WS_ANOMALY_FLAG_NONE);

  locker = g_mutex_locker_new (ws_history_store_get_lock (self));
  stmt = prepare (self, "SELECT flag FROM anomaly_flags WHERE trace_digest = ? AND event_time = ? AND tid = ?", NULL);
  if (stmt == NULL)
    return WS_ANOMALY_FLAG_NONE;
  sqlite3_bind_text (stmt, 1, trace_digest, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, event_time);
  sqlite3_bind_int (stmt, 3, tid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    flag = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  return flag;
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

static void
anomaly_record_clear (gpointer data)
{
  g_free (((WsAnomalyRecord *) data)->trace_digest);
}

/**
 * ws_history_store_list_flags:
 * @signature: (nullable): only this signature's flags; %NULL for all
 *
 * The flags as ws_history_store_list_wait_flags() lists them, without
 * their signature and duration.
 *
 * Returns: (transfer full) (element-type WsAnomalyRecord): the flags, oldest
 *   first, or %NULL with @error set
 */
GArray *
ws_history_store_list_flags (WsHistoryStore  *self,
                             const char      *signature,
                             GError         **error)
{
  g_autoptr(GArray) flags = NULL;
  GArray *out;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (self), NULL);

  if ((flags = ws_history_store_list_wait_flags (self, signature, error)) == NULL)
    return NULL;
  out = g_array_sized_new (FALSE, TRUE, sizeof (WsAnomalyRecord), flags->len);
  g_array_set_clear_func (out, anomaly_record_clear);
  for (guint i = 0; i < flags->len; i++)
    {
      WsWaitFlag *f = &g_array_index (flags, WsWaitFlag, i);
      WsAnomalyRecord r = {
        .trace_digest = g_steal_pointer (&f->trace_digest),
        .event_time = f->event_time,
        .tid = f->tid,
        .flag = f->flag,
        .updated_at = f->updated_at,
      };
      g_array_append_val (out, r);
    }
  return out;
}
