/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Mixture fits remembered across runs.  A fit is a pure function of its
 * data and settings (ws-gmm.c: its seeding has a generator of its own),
 * and EM was half of `anomalies` on a PostgreSQL trace: five K per kind,
 * up to 200 iterations each.  Scoring a trace opened before fits the
 * same data again — the same reservoirs and the same waits — so the fit
 * is looked up instead, and its bits are the bits EM would give.
 *
 * An entry's key is the SHA-256 of everything the fit depends on: a tag
 * naming this fit and the SHA-256 of ws-gmm.c's and ws-gmm-math.h's source
 * as built (made by meson: any change there, even to a comment, and no fit remembered from
 * before is found; bump FIT_VERSION for a change elsewhere that moves a
 * fit's bits), the settings' exact bits, the C library's and GSL's versions
 * and whether the CPU has FMA (glibc picks its exp and log by it, and
 * they round differently in rare cases), and the data's exact bytes.
 * Different data never meets another's fit; a changed kind misses and is
 * fitted afresh.
 *
 * The cache is a small cache (ws-small-cache.c), as the trace-hash cache
 * is: $XDG_CACHE_HOME/waitscope/fits.sqlite, or $WAITSCOPE_FIT_CACHE
 * (empty turns it off).  Any trouble with it — one it cannot open, a row
 * of the wrong size — only means the fit is made again: the cache can
 * make scoring slower, never different.
 */
#include "config.h"

#include <gnu/libc-version.h>
#include <gsl/gsl_version.h>
#include <nettle/sha2.h>
#include <string.h>

#include "ws-gmm-cache.h"
#include "ws-gmm-source.h"
#include "ws-small-cache.h"

#define FIT_VERSION "waitscope-gmm-fit 2"   /* 2: EM's own exp and log (ws-gmm-math.h) */
#define MAX_ENTRIES 50000

/* WAL with synchronous=NORMAL: a commit does not wait for the disk; a
 * crash can lose the last fits, which are only made again. */
static WsSmallCache cache = WS_SMALL_CACHE_INIT (
  "WAITSCOPE_FIT_CACHE", "fits.sqlite",
  "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
  "CREATE TABLE IF NOT EXISTS gmm_fits ("
  " key BLOB PRIMARY KEY NOT NULL, n_components INTEGER NOT NULL,"
  " n_iterations INTEGER NOT NULL, converged INTEGER NOT NULL, params BLOB NOT NULL)");

static void
digest_add (struct sha256_ctx *ctx,
            const void        *data,
            gsize              size)
{
  sha256_update (ctx, size, data);
}

static void
digest_add_string (struct sha256_ctx *ctx,
                   const char        *s)
{
  digest_add (ctx, s, strlen (s) + 1);
}

/**
 * ws_gmm_cache_key:
 * @x: (array length=n): the data, exactly as ws_gmm_fit() would get it
 * @key: (out caller-allocates): the entry's key
 *
 * The SHA-256 of what the fit of @x under @settings depends on (see the
 * top of this file).
 */
void
ws_gmm_cache_key (const double        *x,
                  gsize                n,
                  const WsGmmSettings *settings,
                  WsGmmCacheKey       *key)
{
  struct sha256_ctx ctx;
  guint64 n64 = n;
  guint32 ints[2] = { settings->max_components, settings->max_iterations };
  guint8 fma = 0;

#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init ();
  fma = __builtin_cpu_supports ("fma") ? 1 : 0;
#endif
  sha256_init (&ctx);
  digest_add_string (&ctx, FIT_VERSION);
  digest_add_string (&ctx, WS_GMM_SOURCE_SHA256);
  digest_add_string (&ctx, gnu_get_libc_version ());
  digest_add_string (&ctx, GSL_VERSION);
  digest_add (&ctx, &fma, sizeof fma);
  digest_add (&ctx, ints, sizeof ints);
  digest_add (&ctx, &settings->tolerance, sizeof settings->tolerance);
  digest_add (&ctx, &settings->variance_floor, sizeof settings->variance_floor);
  digest_add (&ctx, &settings->seed, sizeof settings->seed);
  digest_add (&ctx, &n64, sizeof n64);
  digest_add (&ctx, x, n * sizeof *x);
  sha256_digest (&ctx, sizeof key->bytes, key->bytes);
}

/* The doubles of a fit, in a fixed order: the log-likelihood, BIC and
 * weight of the data, then each component's weight, mean and variance. */
#define N_HEAD 3
#define N_PARAMS(k) (N_HEAD + 3 * (k))

/**
 * ws_gmm_cache_lookup:
 * @gmm: (out caller-allocates): the fit remembered under @key
 *
 * Returns: whether @key was found (and @gmm filled)
 */
gboolean
ws_gmm_cache_lookup (const WsGmmCacheKey *key,
                     WsGmm               *gmm)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);
  sqlite3 *db = ws_small_cache_open (&cache);
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (db == NULL
      || sqlite3_prepare_v2 (db, "SELECT n_components, n_iterations, converged, params FROM gmm_fits WHERE key = ?1",
                             -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_blob (stmt, 1, key->bytes, sizeof key->bytes, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      sqlite3_int64 k = sqlite3_column_int64 (stmt, 0);
      const double *p = sqlite3_column_blob (stmt, 3);
      double params[N_PARAMS (WS_GMM_MAX_COMPONENTS)];

      /* A row of another shape was not written here: a miss. */
      if (k >= 1 && k <= WS_GMM_MAX_COMPONENTS && p != NULL
          && sqlite3_column_bytes (stmt, 3) == (int) (N_PARAMS (k) * sizeof (double)))
        {
          memcpy (params, p, N_PARAMS (k) * sizeof (double));
          memset (gmm, 0, sizeof *gmm);
          gmm->n_components = (guint) k;
          gmm->n_iterations = (guint) sqlite3_column_int64 (stmt, 1);
          gmm->converged = sqlite3_column_int64 (stmt, 2) != 0;
          gmm->mean_log_likelihood = params[0];
          gmm->bic = params[1];
          gmm->n_samples = params[2];
          for (guint j = 0; j < k; j++)
            {
              gmm->components[j].weight = params[N_HEAD + 3 * j];
              gmm->components[j].mean = params[N_HEAD + 3 * j + 1];
              gmm->components[j].variance = params[N_HEAD + 3 * j + 2];
            }
          found = TRUE;
        }
    }
  sqlite3_finalize (stmt);
  return found;
}

/**
 * ws_gmm_cache_store:
 * @keys: (array length=n): the keys of the new fits
 * @gmms: (array length=n): the fits
 *
 * Remembers the fits, in one transaction.
 */
void
ws_gmm_cache_store (const WsGmmCacheKey *keys,
                    const WsGmm         *gmms,
                    guint                n)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&cache.lock);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  if (n == 0 || (db = ws_small_cache_open (&cache)) == NULL
      || sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return;
  if (sqlite3_prepare_v2 (db,
                          "INSERT OR REPLACE INTO gmm_fits (key, n_components, n_iterations, converged, params)"
                          " VALUES (?1, ?2, ?3, ?4, ?5)", -1, &stmt, NULL) == SQLITE_OK)
    {
      for (guint i = 0; i < n; i++)
        {
          const WsGmm *g = &gmms[i];
          double params[N_PARAMS (WS_GMM_MAX_COMPONENTS)] = { g->mean_log_likelihood, g->bic, g->n_samples };

          if (g->n_components < 1 || g->n_components > WS_GMM_MAX_COMPONENTS)
            continue;
          for (guint j = 0; j < g->n_components; j++)
            {
              params[N_HEAD + 3 * j] = g->components[j].weight;
              params[N_HEAD + 3 * j + 1] = g->components[j].mean;
              params[N_HEAD + 3 * j + 2] = g->components[j].variance;
            }
          sqlite3_bind_blob (stmt, 1, keys[i].bytes, sizeof keys[i].bytes, SQLITE_STATIC);
          sqlite3_bind_int64 (stmt, 2, g->n_components);
          sqlite3_bind_int64 (stmt, 3, g->n_iterations);
          sqlite3_bind_int64 (stmt, 4, g->converged ? 1 : 0);
          sqlite3_bind_blob (stmt, 5, params, N_PARAMS (g->n_components) * sizeof (double), SQLITE_TRANSIENT);
          sqlite3_step (stmt);
          sqlite3_reset (stmt);
        }
      sqlite3_finalize (stmt);
      ws_small_cache_trim (&cache, "gmm_fits", MAX_ENTRIES);
    }
  if (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
}

/**
 * ws_gmm_cache_reset:
 *
 * Closes the cache, so that the next use opens $WAITSCOPE_FIT_CACHE
 * afresh (for tests that change it).
 */
void
ws_gmm_cache_reset (void)
{
  ws_small_cache_reset (&cache);
}
