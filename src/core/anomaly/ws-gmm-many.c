/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Many mixture fits at once, on every core.  A fit tries K = 1 … 5 and
 * keeps the lowest BIC; each K is a pure function of the data, K and the
 * settings (its k-means++ seeding has a generator of its own with a fixed
 * seed).  So the unit of work is one K of one fit, not the whole fit:
 * scoring a PostgreSQL trace fits 18 data sets, and the global one (every
 * wait) is 30 % of EM alone — with a fit a unit, a thread could be left
 * with it at the end.  Each K's result goes to its own slot, and a fit's
 * K are chosen among in K order once all are done (ws_gmm_choose()), so
 * the bits are those of one K after another on one thread whatever the
 * threads and the order they take the units in; only the wall time
 * changes.  Fits made before are looked up first (ws-gmm-cache.c).
 *
 * The threads are started by the caller's thread for each call, not kept
 * in a pool: a Linux thread's nice value is its own and a new thread
 * inherits its creator's, so the window's scoring thread at nice 5
 * (ws_task_run_in_thread_at_nice()) fits at nice 5 on every core.  A
 * pool's threads would keep whatever priority they were started with.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

#include "ws-error.h"
#include "ws-gmm-cache.h"
#include "ws-gmm-many.h"
#include "ws-threads-env.h"

/* One K of one job's fit. */
typedef struct {
  guint job;        /* index into Batch.jobs */
  guint k;          /* 1 … WS_GMM_MAX_COMPONENTS */
  double cost;      /* points × K: what EM's passes cost, roughly */
} Unit;

typedef struct {
  WsGmmJob            *jobs;
  WsGmmPoints         *points;      /* one per job */
  WsGmm               *candidates;  /* WS_GMM_MAX_COMPONENTS per job */
  gboolean            *done;        /* the same */
  const Unit          *units;
  guint                n_units;
  const WsGmmSettings *settings;
  GCancellable        *cancellable;
  gint                 next;
} Batch;

static gpointer
fit_units (gpointer data)
{
  Batch *batch = data;
  guint u;

  while ((u = (guint) g_atomic_int_add (&batch->next, 1)) < batch->n_units
         && !g_cancellable_is_cancelled (batch->cancellable))
    {
      const Unit *unit = &batch->units[u];
      const WsGmmPoints *p = &batch->points[unit->job];
      guint slot = unit->job * WS_GMM_MAX_COMPONENTS + unit->k - 1;

      batch->done[slot] = ws_gmm_fit_candidate (p->x, p->weights, p->n, unit->k, batch->settings,
                                                &batch->candidates[slot], batch->cancellable);
    }
  return NULL;
}

/**
 * ws_gmm_threads:
 *
 * Threads to fit with: one per core, or WAITSCOPE_THREADS (1 fits on the
 * calling thread alone), by ws_threads_from_env()'s rule.
 */
guint
ws_gmm_threads (void)
{
  return ws_threads_from_env ("WAITSCOPE_THREADS");
}

static int
compare_units_by_cost (const void *a,
                       const void *b)
{
  const Unit *x = a, *y = b;

  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return x->job != y->job ? (x->job < y->job ? -1 : 1) : (x->k < y->k ? -1 : x->k > y->k);
}

/* The units in the order the threads take them: the dearest first, so
 * that no thread is left with a big one at the end, or (@order_seed ≠ 0,
 * for tests) shuffled. */
static Unit *
make_units (WsGmmJob            *jobs,
            const WsGmmPoints   *points,
            guint                n_jobs,
            const WsGmmSettings *settings,
            guint64              order_seed,
            guint               *n_units)
{
  Unit *units = g_new (Unit, (gsize) MAX (n_jobs, 1) * WS_GMM_MAX_COMPONENTS);
  guint n = 0;

  for (guint j = 0; j < n_jobs; j++)
    for (guint k = 1; jobs[j].ok && k <= ws_gmm_n_candidates (settings, points[j].n); k++)
      units[n++] = (Unit) { j, k, (double) points[j].n * k };
  qsort (units, n, sizeof *units, compare_units_by_cost);
  if (order_seed != 0)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) (order_seed ^ (order_seed >> 32)));

      for (guint i = n; i > 1; i--)
        {
          guint r = (guint) g_rand_int_range (rand, 0, (gint32) i);
          Unit t = units[i - 1];

          units[i - 1] = units[r];
          units[r] = t;
        }
    }
  *n_units = n;
  return units;
}

/* ws_gmm_fit() of every job with @ok set, its K spread over threads. */
static void
fit_on_threads (WsGmmJob            *jobs,
                guint                n_jobs,
                const WsGmmSettings *settings,
                guint                n_threads,
                guint64              order_seed,
                GCancellable        *cancellable)
{
  g_autofree WsGmmPoints *points = g_new0 (WsGmmPoints, MAX (n_jobs, 1));
  g_autofree WsGmm *candidates = g_new0 (WsGmm, (gsize) MAX (n_jobs, 1) * WS_GMM_MAX_COMPONENTS);
  g_autofree gboolean *done = g_new0 (gboolean, (gsize) MAX (n_jobs, 1) * WS_GMM_MAX_COMPONENTS);
  g_autofree Unit *units = NULL;
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Batch batch = { 0 };
  guint n_units;

  for (guint j = 0; j < n_jobs; j++)
    if (jobs[j].ok)
      ws_gmm_points_init (&points[j], jobs[j].x, jobs[j].n);
  units = make_units (jobs, points, n_jobs, settings, order_seed, &n_units);
  batch = (Batch) { jobs, points, candidates, done, units, n_units, settings, cancellable, 0 };

  n_threads = CLAMP (n_threads > 0 ? n_threads : ws_gmm_threads (), 1, MAX (n_units, 1));
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("ws-gmm-fit", fit_units, &batch));
  fit_units (&batch);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));

  /* Each fit's K in K order, as ws_gmm_fit_weighted() compares them. */
  for (guint j = 0; j < n_jobs; j++)
    {
      guint n_k;

      if (!jobs[j].ok)
        continue;
      n_k = ws_gmm_n_candidates (settings, points[j].n);
      for (guint k = 0; k < n_k; k++)
        jobs[j].ok = jobs[j].ok && done[j * WS_GMM_MAX_COMPONENTS + k];
      if (jobs[j].ok)
        ws_gmm_choose (&candidates[j * WS_GMM_MAX_COMPONENTS], n_k, &jobs[j].gmm);
      ws_gmm_points_clear (&points[j]);
    }
}

/**
 * ws_gmm_fit_many_ordered:
 * @order_seed: 0 to take the units dearest first; any other value
 *   shuffles the order they are taken in (for tests: the bits must not
 *   depend on it)
 *
 * ws_gmm_fit_many() with the order of the work chosen.
 */
gboolean
ws_gmm_fit_many_ordered (WsGmmJob            *jobs,
                         guint                n_jobs,
                         const WsGmmSettings *settings,
                         guint                n_threads,
                         guint64              order_seed,
                         GCancellable        *cancellable,
                         GError             **error)
{
  g_autofree WsGmmJob *missed = g_new (WsGmmJob, MAX (n_jobs, 1));
  g_autofree WsGmmCacheKey *missed_keys = g_new (WsGmmCacheKey, MAX (n_jobs, 1));
  g_autofree guint *missed_at = g_new (guint, MAX (n_jobs, 1));
  g_autofree WsGmm *fits = NULL;
  guint n_missed = 0, n_new = 0;

  g_return_val_if_fail (n_jobs == 0 || jobs != NULL, FALSE);

  for (guint i = 0; i < n_jobs; i++)
    {
      WsGmmCacheKey key;

      jobs[i].ok = jobs[i].n > 0;
      if (!jobs[i].ok)
        continue;
      ws_gmm_cache_key (jobs[i].x, jobs[i].n, settings, &key);
      if (ws_gmm_cache_lookup (&key, &jobs[i].gmm))
        continue;
      missed_at[n_missed] = i;
      missed_keys[n_missed] = key;
      missed[n_missed++] = jobs[i];
    }
  fit_on_threads (missed, n_missed, settings, n_threads, order_seed, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  fits = g_new (WsGmm, MAX (n_missed, 1));
  for (guint m = 0; m < n_missed; m++)
    {
      jobs[missed_at[m]] = missed[m];
      if (missed[m].ok)
        {
          missed_keys[n_new] = missed_keys[m];
          fits[n_new++] = missed[m].gmm;
        }
    }
  ws_gmm_cache_store (missed_keys, fits, n_new);
  for (guint i = 0; i < n_jobs; i++)
    if (!jobs[i].ok)
      {
        g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("no samples to fit a mixture to"));
        return FALSE;
      }
  return TRUE;
}

/**
 * ws_gmm_fit_many:
 * @jobs: (array length=n_jobs): each job's data (@x, @n ≥ 1) in, its
 *   @gmm and @ok out
 * @n_threads: threads to fit on, 0 for ws_gmm_threads()
 *
 * ws_gmm_fit() of every job: each one looked up first among the fits
 * made before (ws-gmm-cache.c: the same data and settings, the same
 * bits), the others' K spread over @n_threads threads (see the top of
 * this file) and remembered.
 *
 * Returns: %FALSE with @error if cancelled or a fit failed
 */
gboolean
ws_gmm_fit_many (WsGmmJob            *jobs,
                 guint                n_jobs,
                 const WsGmmSettings *settings,
                 guint                n_threads,
                 GCancellable        *cancellable,
                 GError             **error)
{
  return ws_gmm_fit_many_ordered (jobs, n_jobs, settings, n_threads, 0, cancellable, error);
}
