/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Many mixture fits at once, one per core.  A fit is a pure function of
 * its data and settings (its k-means++ seeding has a generator of its
 * own with a fixed seed), so fits of different wait kinds can run on
 * different threads and give the same bits as one after another; only
 * the wall time changes.  Scoring a trace fits one mixture per kind
 * (about 40 % of `anomalies`' time on a PostgreSQL trace), which is
 * where this is used.  Fits made before are looked up first
 * (ws-gmm-cache.c).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

#include "ws-error.h"
#include "ws-gmm-cache.h"
#include "ws-gmm-many.h"
#include "ws-threads-env.h"

typedef struct {
  WsGmmJob            *jobs;
  guint                n_jobs;
  const WsGmmSettings *settings;
  GCancellable        *cancellable;
  gint                 next;
} Batch;

static gpointer
fit_jobs (gpointer data)
{
  Batch *batch = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&batch->next, 1)) < batch->n_jobs)
    {
      WsGmmJob *job = &batch->jobs[i];

      job->ok = ws_gmm_fit (job->x, job->n, batch->settings, &job->gmm, batch->cancellable, NULL);
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

static void
fit_on_threads (WsGmmJob            *jobs,
                guint                n_jobs,
                const WsGmmSettings *settings,
                guint                n_threads,
                GCancellable        *cancellable)
{
  Batch batch = { jobs, n_jobs, settings, cancellable, 0 };
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();

  n_threads = CLAMP (n_threads > 0 ? n_threads : ws_gmm_threads (), 1, MAX (n_jobs, 1));
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("ws-gmm-fit", fit_jobs, &batch));
  fit_jobs (&batch);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));
}

/**
 * ws_gmm_fit_many:
 * @jobs: (array length=n_jobs): each job's data (@x, @n ≥ 1) in, its
 *   @gmm and @ok out
 * @n_threads: threads to fit on, 0 for ws_gmm_threads()
 *
 * ws_gmm_fit() of every job: each one looked up first among the fits
 * made before (ws-gmm-cache.c: the same data and settings, the same
 * bits), the others spread over @n_threads threads and remembered.
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
  /* The jobs keep their order (largest first, as the caller sorted them). */
  fit_on_threads (missed, n_missed, settings, n_threads, cancellable);
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
