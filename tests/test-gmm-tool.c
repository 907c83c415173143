/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-gmm-tool TRACE STRIDE: the EM fit of every K = 1 … 5 on the
 * log-durations of every STRIDE-th finished wait of TRACE, as JSON: the
 * data, each K's starting point (k-means++ with the fixed seed) and fit,
 * its per-sample log-likelihoods and BIC.  test-gmm-sklearn.py hands the
 * same data and starting points to scikit-learn and compares.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "ws-gmm.h"
#include "ws-trace-loader.h"
#include "ws-wait-signature.h"

static void
print_components (const WsGmm *g)
{
  printf ("{\"weights\": [");
  for (guint k = 0; k < g->n_components; k++)
    printf ("%s%.17g", k ? ", " : "", g->components[k].weight);
  printf ("], \"means\": [");
  for (guint k = 0; k < g->n_components; k++)
    printf ("%s%.17g", k ? ", " : "", g->components[k].mean);
  printf ("], \"variances\": [");
  for (guint k = 0; k < g->n_components; k++)
    printf ("%s%.17g", k ? ", " : "", g->components[k].variance);
  printf ("]");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  WsGmmSettings s;
  guint stride, seen = 0;

  if (argc != 3)
    return 2;
  if ((trace = ws_trace_loader_load (argv[1], NULL, NULL, NULL, NULL, &error)) == NULL)
    g_error ("%s", error->message);
  stride = MAX (1, atoi (argv[2]));
  for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
    if (ws_wait_is_scored (ws_trace_get_event (trace, e)) && seen++ % stride == 0)
      {
        double v = log ((double) ws_event_duration (ws_trace_get_event (trace, e)));
        g_array_append_val (x, v);
      }

  ws_gmm_settings_init (&s);
  s.tolerance = 1e-9;
  s.max_iterations = 1000;
  printf ("{\"tolerance\": %.17g, \"max_iterations\": %u, \"variance_floor\": %.17g, \"x\": [",
          s.tolerance, s.max_iterations, s.variance_floor);
  for (guint i = 0; i < x->len; i++)
    printf ("%s%.17g", i ? ", " : "", g_array_index (x, double, i));
  printf ("], \"fits\": [");
  for (guint k = 1; k <= WS_GMM_MAX_COMPONENTS; k++)
    {
      WsGmm g;

      ws_gmm_initialise ((const double *) (gpointer) x->data, NULL, x->len, k, &s, &g);
      printf ("%s{\"k\": %u, \"init\": ", k > 1 ? ", " : "", k);
      print_components (&g);
      printf ("}, ");
      ws_gmm_run_em ((const double *) (gpointer) x->data, NULL, x->len, &s, &g, NULL);
      printf ("\"iterations\": %u, \"bic\": %.17g, \"mean_log_likelihood\": %.17g, \"fit\": ",
              g.n_iterations, g.bic, g.mean_log_likelihood);
      print_components (&g);
      printf ("}, \"log_likelihood\": [");
      for (guint i = 0; i < x->len; i++)
        printf ("%s%.17g", i ? ", " : "", ws_gmm_log_pdf (&g, g_array_index (x, double, i)));
      printf ("]}");
    }
  printf ("]}\n");
  return 0;
}
