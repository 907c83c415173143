/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Fuzz checks for the Gaussian mixtures of the anomaly detector
 * (src/core/anomaly/ws-gmm.c).  The input is a recipe, as the detector
 * sees its data: wait durations, whose logs are fitted.
 *
 *   byte 0        max components: 1 + byte % 5
 *   byte 1        bit 0: weighted fit (a weight byte before each duration);
 *                 bit 1: fit every sample at once (ws_gmm_fit, which bins
 *                 past 8,192 samples) rather than the weighted path
 *   then samples  weight byte (if weighted: 0…255, 0 allowed), then a
 *                 duration in ns: 1 byte N then N % 8 + 1 little-endian
 *                 bytes (1 ns … 2^64 ns; 0 ns counts as 1)
 *
 * Checked, whatever the data: a fit or a WS_ERROR; 1 … max components,
 * the weights finite, non-negative and summing to 1, the means finite and
 * increasing, every variance at least the floor; the density and the
 * upper tail finite, the tail in [0, 1] and non-increasing in x; the
 * posteriors summing to 1; the tail quantile of p (when found) has tail p.
 */
#include "config.h"

#include <math.h>

#include "ws-error.h"
#include "ws-gmm.h"

#include "ws-fuzz-harness.h"

#define MAX_SAMPLES 20000

static void
check_gmm (const WsGmm         *gmm,
           const WsGmmSettings *settings,
           guint                max_k,
           const double        *x,
           gsize                n)
{
  double sum = 0;

  if (gmm->n_components < 1 || gmm->n_components > max_k)
    ws_fuzz_fail ("gmm: %u components, at most %u asked", gmm->n_components, max_k);
  for (guint k = 0; k < gmm->n_components; k++)
    {
      const WsGmmComponent *c = &gmm->components[k];

      if (!isfinite (c->weight) || c->weight < 0 || !isfinite (c->mean) || !isfinite (c->variance))
        ws_fuzz_fail ("gmm: component %u is (%g, %g, %g)", k, c->weight, c->mean, c->variance);
      if (c->variance < settings->variance_floor * (1 - 1e-9))
        ws_fuzz_fail ("gmm: component %u variance %g below the floor %g", k, c->variance,
                      settings->variance_floor);
      if (k > 0 && c->mean < gmm->components[k - 1].mean)
        ws_fuzz_fail ("gmm: means not increasing at %u", k);
      sum += c->weight;
    }
  if (fabs (sum - 1) > 1e-6)
    ws_fuzz_fail ("gmm: weights sum to %.12g", sum);

  {
    double prev_tail = 1.0, lo = x[0], hi = x[0];

    for (gsize i = 0; i < n; i++)
      {
        lo = MIN (lo, x[i]);
        hi = MAX (hi, x[i]);
      }
    /* A grid from below the data to above it: the tail never rises. */
    for (guint g = 0; g <= 64; g++)
      {
        double at = (lo - 5) + (hi - lo + 10) * g / 64.0;
        double tail = ws_gmm_upper_tail (gmm, at);
        double lp = ws_gmm_log_pdf (gmm, at);
        double post[WS_GMM_MAX_COMPONENTS] = { 0 };
        double ps = 0;

        /* A weighted sum of Gaussian tails may round a few ulps past 1. */
        if (!isfinite (tail) || tail < 0 || tail > 1 + 1e-12)
          ws_fuzz_fail ("gmm: upper tail %g at %g", tail, at);
        if (tail > prev_tail + 1e-9)
          ws_fuzz_fail ("gmm: upper tail rises at %g (%g after %g)", at, tail, prev_tail);
        prev_tail = tail;
        if (isnan (lp) || lp == INFINITY)
          ws_fuzz_fail ("gmm: log density %g at %g", lp, at);
        ws_gmm_posteriors (gmm, at, post);
        for (guint k = 0; k < gmm->n_components; k++)
          {
            if (!(post[k] >= 0 && post[k] <= 1 + 1e-9))
              ws_fuzz_fail ("gmm: posterior %u is %g at %g", k, post[k], at);
            ps += post[k];
          }
        if (fabs (ps - 1) > 1e-6)
          ws_fuzz_fail ("gmm: posteriors sum to %g at %g", ps, at);
      }
  }

  for (guint i = 0; i < 3; i++)
    {
      const double p[] = { 0.5, 0.01, 1e-6 };
      double q = ws_gmm_tail_quantile (gmm, p[i]);

      /* A NaN says the solver found no bracket: no threshold, not a crash. */
      if (isfinite (q) && fabs (ws_gmm_upper_tail (gmm, q) - p[i]) > 1e-3 * p[i] + 1e-9)
        ws_fuzz_fail ("gmm: tail quantile of %g is %g, whose tail is %g", p[i], q,
                      ws_gmm_upper_tail (gmm, q));
    }
}

gboolean
ws_fuzz_gmm (const guint8 *data,
             gsize         size)
{
  g_autoptr(GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  WsGmmSettings settings;
  WsGmm gmm = { 0 };
  gboolean weighted, all_at_once, ok;
  guint max_k;
  gsize i = 2;
  double total_weight = 0;

  if (size < 2)
    return FALSE;
  max_k = 1 + data[0] % WS_GMM_MAX_COMPONENTS;
  weighted = data[1] & 1;
  all_at_once = (data[1] & 2) != 0;

  while (i < size && x->len < MAX_SAMPLES)
    {
      double weight = 1, v;
      guint64 ns = 0;
      guint n_bytes;

      if (weighted)
        weight = data[i++];
      if (i >= size)
        break;
      n_bytes = data[i++] % 8 + 1;
      for (guint b = 0; b < n_bytes && i < size; b++)
        ns |= (guint64) data[i++] << (8 * b);
      v = log ((double) MAX (ns, 1));   /* as the detector takes them */
      g_array_append_val (x, v);
      g_array_append_val (w, weight);
      total_weight += weight;
    }
  if (x->len == 0)
    return FALSE;

  ws_gmm_settings_init (&settings);
  settings.max_components = max_k;
  if (all_at_once || !weighted)
    ok = ws_gmm_fit ((const double *) (gpointer) x->data, x->len, &settings, &gmm, NULL, &error);
  else
    ok = ws_gmm_fit_weighted ((const double *) (gpointer) x->data, (const double *) (gpointer) w->data,
                              x->len, &settings, &gmm, NULL, &error);
  if (!ok)
    {
      if (error == NULL || error->domain != WS_ERROR)
        ws_fuzz_fail ("gmm: a fit failed without a WS_ERROR: %s", error ? error->message : "(none)");
      return FALSE;
    }
  /* All-zero weights: nothing to check the fit against. */
  if (weighted && !all_at_once && total_weight == 0)
    return TRUE;
  check_gmm (&gmm, &settings, max_k, (const double *) (gpointer) x->data, x->len);
  return TRUE;
}
