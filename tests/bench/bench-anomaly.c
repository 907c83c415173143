/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-anomaly: the mixture fit and the scoring at scale.
 *
 * Data: one million wait durations drawn (with replacement, GSL Mersenne
 * twister, seed 1) from the finished waits of the real traces given on the
 * command line, so the mixture has the real shape of scheduler waits.
 * Measured on one core (process CPU time):
 *   - fit: ws_gmm_fit() with K chosen by BIC among 1 … 5 (goal ≤ 0.5 s)
 *   - score: P(D ≥ d) of every one of the million waits (goal ≤ 50 ms)
 * With --dump FILE the log-durations are written (one per line) so that
 * bench-anomaly-sklearn.py can fit scikit-learn on exactly the same data.
 */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "ws-gmm.h"
#include "ws-trace-loader.h"
#include "ws-wait-signature.h"

#define N_SAMPLES 1000000

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GArray) pool = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *x = g_new (double, N_SAMPLES);
  g_autofree double *out = g_new (double, N_SAMPLES);
  const char *dump = NULL;
  WsGmmSettings settings;
  WsGmm gmm;
  gsl_rng *rng;
  double t0, t_fit, t_score, sum = 0;
  int first = 1;

  if (argc > 2 && g_strcmp0 (argv[1], "--dump") == 0)
    {
      dump = argv[2];
      first = 3;
    }
  for (int i = first; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_trace_loader_load (argv[i], NULL, NULL, NULL, NULL, &error);

      if (trace == NULL)
        g_error ("%s", error->message);
      for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
        if (ws_wait_is_scored (ws_trace_get_event (trace, e)))
          {
            double v = log ((double) ws_event_duration (ws_trace_get_event (trace, e)));
            g_array_append_val (pool, v);
          }
    }
  g_assert (pool->len > 0);

  rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, 1);
  for (guint i = 0; i < N_SAMPLES; i++)
    x[i] = g_array_index (pool, double, gsl_rng_uniform_int (rng, pool->len));
  gsl_rng_free (rng);

  if (dump != NULL)
    {
      FILE *f = fopen (dump, "w");
      for (guint i = 0; i < N_SAMPLES; i++)
        fprintf (f, "%.17g\n", x[i]);
      fclose (f);
    }

  ws_gmm_settings_init (&settings);
  t0 = cpu_seconds ();
  g_assert_true (ws_gmm_fit (x, N_SAMPLES, &settings, &gmm, NULL, NULL));
  t_fit = cpu_seconds () - t0;

  t0 = cpu_seconds ();
  ws_gmm_upper_tail_many (&gmm, x, N_SAMPLES, out);
  t_score = cpu_seconds () - t0;
  for (guint i = 0; i < N_SAMPLES; i++)
    sum += out[i];

  printf ("waits: %u real durations from %d traces, %d drawn\n", pool->len, argc - first, N_SAMPLES);
  printf ("fit: %.3f s CPU (goal <= 0.5 s), K = %u by BIC, %u EM iterations, mean log-likelihood %.6f\n",
          t_fit, gmm.n_components, gmm.n_iterations, gmm.mean_log_likelihood);
  for (guint k = 0; k < gmm.n_components; k++)
    printf ("  component %u: weight %.4f mean %.4f sd %.4f\n", k + 1, gmm.components[k].weight,
            gmm.components[k].mean, sqrt (gmm.components[k].variance));
  printf ("score: %.1f ms CPU for %d waits (goal <= 50 ms), mean P(D>=d) %.4f\n",
          t_score * 1e3, N_SAMPLES, sum / N_SAMPLES);
  printf ("RESULT fit_s=%.4f score_ms=%.2f k=%u ll=%.6f\n", t_fit, t_score * 1e3, gmm.n_components,
          gmm.mean_log_likelihood);
  return 0;
}
