/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * EM's own exp and log (src/core/anomaly/ws-gmm-math.h) against glibc's,
 * and fits made with them against fits made with glibc's: the E-step and
 * M-step as they were before (one point at a time, glibc's exp and log),
 * kept here as the oracle.
 */
#include "config.h"

#include <glib.h>
#include <gsl/gsl_math.h>
#include <math.h>
#include <string.h>

#include "ws-gmm.h"
#include "ws-gmm-math.h"

/* Distance in ulps between two non-negative doubles: the difference of
 * their bit patterns, which count up with the value (subnormals too). */
static guint64
ulp_distance (double a,
              double b)
{
  guint64 x, y;

  g_assert_true (a >= 0 && b >= 0);
  memcpy (&x, &a, sizeof x);
  memcpy (&y, &b, sizeof y);
  return x > y ? x - y : y - x;
}

static double
exp1 (double x)
{
  return ws_gmm_exp4 (ws_v4d_splat (x))[0];
}

static double
log1 (double x)
{
  return ws_gmm_log4 (ws_v4d_splat (x))[0];
}

/* The worst distance to glibc over @n random arguments from [@lo, @hi],
 * four lanes at once, each lane checked. */
static guint64
worst_exp (GRand *rng,
           double lo,
           double hi,
           guint  n)
{
  guint64 worst = 0;

  for (guint i = 0; i < n; i++)
    {
      WsV4d x, y;

      for (guint l = 0; l < 4; l++)
        x[l] = g_rand_double_range (rng, lo, hi);
      y = ws_gmm_exp4 (x);
      for (guint l = 0; l < 4; l++)
        worst = MAX (worst, ulp_distance (y[l], exp (x[l])));
    }
  return worst;
}

static guint64
worst_log (GRand *rng,
           double lo,
           double hi,
           gboolean log_uniform,
           guint  n)
{
  guint64 worst = 0;

  for (guint i = 0; i < n; i++)
    {
      WsV4d s, y;

      for (guint l = 0; l < 4; l++)
        s[l] = log_uniform ? exp (g_rand_double_range (rng, log (lo), log (hi))) : g_rand_double_range (rng, lo, hi);
      y = ws_gmm_log4 (s);
      for (guint l = 0; l < 4; l++)
        worst = MAX (worst, ulp_distance (y[l], log (s[l])));
    }
  return worst;
}

/* Within 2 ulps of glibc (itself within about half an ulp of the true
 * value) over what EM gives them — exp's arguments are log-densities
 * minus the largest, ≤ 0, down to far below the least subnormal; log's
 * are sums in [1, K] — and beyond; the exact values EM relies on. */
static void
test_math_against_glibc (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (29);
  struct { double lo, hi; } exp_ranges[] = {
    { -1e-3, 0 }, { -1, 0 }, { -40, 0 }, { -708.4, -40 }, { -745.2, -708.3 }, { -800, 0 }, { 0, 709 },
  };
  struct { double lo, hi; gboolean log_uniform; } log_ranges[] = {
    { 1, 1 + 1e-6, FALSE }, { 1, 2, FALSE }, { 1, 5, FALSE }, { 1, 8, FALSE }, { 1, 1e300, TRUE },
  };

  for (guint r = 0; r < G_N_ELEMENTS (exp_ranges); r++)
    {
      guint64 worst = worst_exp (rng, exp_ranges[r].lo, exp_ranges[r].hi, 250000);
      g_test_message ("exp on [%g, %g]: within %" G_GUINT64_FORMAT " ulp of glibc", exp_ranges[r].lo, exp_ranges[r].hi, worst);
      g_assert_cmpuint (worst, <=, 2);
    }
  for (guint r = 0; r < G_N_ELEMENTS (log_ranges); r++)
    {
      guint64 worst = worst_log (rng, log_ranges[r].lo, log_ranges[r].hi, log_ranges[r].log_uniform, 250000);
      g_test_message ("log on [%.9g, %.9g]: within %" G_GUINT64_FORMAT " ulp of glibc", log_ranges[r].lo, log_ranges[r].hi, worst);
      g_assert_cmpuint (worst, <=, 2);
    }
  /* Every table entry's neighbourhood, both functions. */
  for (guint j = 0; j <= 2 * EXP_N; j++)
    for (int d = -2; d <= 2; d++)
      {
        double x = nextafter (-(double) j * M_LN2 / EXP_N, d < 0 ? -INFINITY : 0);
        for (int s = 0; s < abs (d); s++)
          x = nextafter (x, d < 0 ? -INFINITY : 0);
        g_assert_cmpuint (ulp_distance (exp1 (x), exp (x)), <=, 2);
      }
  for (guint i = 0; i <= 4 * LOG_N; i++)
    {
      double s = 1 + (double) i / LOG_N, below = MAX (1, nextafter (s, 0));

      g_assert_cmpuint (ulp_distance (log1 (s), log (s)), <=, 2);
      g_assert_cmpuint (ulp_distance (log1 (below), log (below)), <=, 2);
    }

  /* The likeliest component's exp (0) is 1, a lone component's sum
   * log (1) is 0; below −746 exp rounds to 0, as glibc's; NaN stays NaN. */
  g_assert_cmpfloat (exp1 (0), ==, 1);
  g_assert_cmpfloat (exp1 (-0.0), ==, 1);
  g_assert_cmpfloat (log1 (1), ==, 0);
  g_assert_cmpfloat (exp1 (-746), ==, 0);
  g_assert_cmpfloat (exp1 (-1e6), ==, 0);
  g_assert_cmpfloat (exp1 (-INFINITY), ==, 0);
  g_assert_cmpfloat (exp1 (-745), ==, exp (-745));
  g_assert_true (isnan (exp1 (NAN)));
  g_assert_cmpfloat (log1 (2), ==, log (2));
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The same loop compiled for AVX2 and for the x86-64 baseline (SSE2),
 * as ws-gmm.c's E-step is (target_clones). */
#define MANY_BODY                                               \
  for (gsize i = 0; i < n; i += 4)                              \
    {                                                           \
      WsV4d v, w;                                               \
      memcpy (&v, x + i, sizeof v);                             \
      memcpy (&w, s + i, sizeof w);                             \
      v = ws_gmm_exp4 (v);                                      \
      w = ws_gmm_log4 (w);                                      \
      memcpy (ex + i, &v, sizeof v);                            \
      memcpy (lg + i, &w, sizeof w);                            \
    }

__attribute__ ((target ("avx2"))) static void
many_avx2 (const double *x, const double *s, double *ex, double *lg, gsize n)
{
  MANY_BODY
}

__attribute__ ((noinline)) static void
many_baseline (const double *x, const double *s, double *ex, double *lg, gsize n)
{
  MANY_BODY
}
#endif

/* The AVX2 clone and the baseline give the same bits: the same IEEE
 * operations in the same order, no FMA in either. */
static void
test_math_clones (void)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  const gsize n = 1 << 20;
  g_autoptr(GRand) rng = g_rand_new_with_seed (4);
  g_autofree double *x = g_new (double, n);
  g_autofree double *s = g_new (double, n);
  g_autofree double *ex[2] = { g_new (double, n), g_new (double, n) };
  g_autofree double *lg[2] = { g_new (double, n), g_new (double, n) };

  __builtin_cpu_init ();
  if (!__builtin_cpu_supports ("avx2"))
    {
      g_test_skip ("this CPU has no AVX2");
      g_free (ex[1]);
      g_free (lg[1]);
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      x[i] = i % 3 == 0 ? g_rand_double_range (rng, -760, 0) : g_rand_double_range (rng, -40, 0);
      s[i] = i % 3 == 0 ? exp (g_rand_double_range (rng, 0, 700)) : g_rand_double_range (rng, 1, 5);
    }
  many_avx2 (x, s, ex[0], lg[0], n);
  many_baseline (x, s, ex[1], lg[1], n);
  g_assert_cmpmem (ex[0], n * sizeof (double), ex[1], n * sizeof (double));
  g_assert_cmpmem (lg[0], n * sizeof (double), lg[1], n * sizeof (double));
  g_free (ex[1]);
  g_free (lg[1]);
#else
  g_test_skip ("no x86-64 clones in this build");
#endif
}

/* The EM before ws-gmm-math.h, one point at a time with glibc's exp and
 * log, the same operations in the same order as it was in ws-gmm.c. */
static double
oracle_e_step (const WsGmm  *gmm,
               const double *x,
               const double *w,
               gsize         n,
               double       *resp)
{
  guint k = gmm->n_components;
  double a[WS_GMM_MAX_COMPONENTS], b[WS_GMM_MAX_COMPONENTS], ll = 0, total = 0;

  for (guint j = 0; j < k; j++)
    {
      a[j] = log (gmm->components[j].weight) - 0.5 * (M_LN2 + M_LNPI + log (gmm->components[j].variance));
      b[j] = -0.5 / gmm->components[j].variance;
    }
  for (gsize i = 0; i < n; i++)
    {
      double *r = resp + i * k, top = -G_MAXDOUBLE, sum = 0, wi = w != NULL ? w[i] : 1;
      guint at_top = 0;

      for (guint j = 0; j < k; j++)
        {
          double d = x[i] - gmm->components[j].mean;
          r[j] = a[j] + b[j] * d * d;
          if (r[j] > top)
            top = r[at_top = j];
        }
      for (guint j = 0; j < k; j++)
        sum += (r[j] = j == at_top ? 1.0 : exp (r[j] - top));
      for (guint j = 0; j < k; j++)
        r[j] /= sum;
      ll += wi * (top + log (sum));
      total += wi;
    }
  return ll / total;
}

static void
oracle_m_step (WsGmm        *gmm,
               const double *x,
               const double *w,
               gsize         n,
               const double *resp,
               double        floor)
{
  guint k = gmm->n_components;
  double nk[WS_GMM_MAX_COMPONENTS] = { 0 }, sx[WS_GMM_MAX_COMPONENTS] = { 0 }, sxx[WS_GMM_MAX_COMPONENTS] = { 0 };
  double total = 0;

  for (gsize i = 0; i < n; i++)
    for (guint j = 0; j < k; j++)
      {
        double rw = resp[i * k + j] * (w != NULL ? w[i] : 1);
        nk[j] += rw;
        sx[j] += rw * x[i];
      }
  for (guint j = 0; j < k; j++)
    {
      nk[j] += 10 * DBL_EPSILON;
      gmm->components[j].mean = sx[j] / nk[j];
      total += nk[j];
    }
  for (gsize i = 0; i < n; i++)
    for (guint j = 0; j < k; j++)
      {
        double d = x[i] - gmm->components[j].mean;
        sxx[j] += resp[i * k + j] * (w != NULL ? w[i] : 1) * d * d;
      }
  for (guint j = 0; j < k; j++)
    {
      gmm->components[j].weight = nk[j] / total;
      gmm->components[j].variance = sxx[j] / nk[j] + floor;
    }
}

static int
by_mean (const void *a,
         const void *b)
{
  double x = ((const WsGmmComponent *) a)->mean, y = ((const WsGmmComponent *) b)->mean;
  return x < y ? -1 : x > y;
}

static void
oracle_run_em (const double        *x,
               const double        *w,
               gsize                n,
               const WsGmmSettings *settings,
               WsGmm               *gmm)
{
  g_autofree double *resp = g_new (double, n * gmm->n_components);
  double ll = -G_MAXDOUBLE, prev;

  gmm->converged = FALSE;
  for (gmm->n_iterations = 1; gmm->n_iterations <= settings->max_iterations; gmm->n_iterations++)
    {
      prev = ll;
      ll = oracle_e_step (gmm, x, w, n, resp);
      oracle_m_step (gmm, x, w, n, resp, settings->variance_floor);
      if (fabs (ll - prev) < settings->tolerance)
        {
          gmm->converged = TRUE;
          break;
        }
    }
  gmm->n_iterations = MIN (gmm->n_iterations, settings->max_iterations);
  gmm->mean_log_likelihood = oracle_e_step (gmm, x, w, n, resp);
  gmm->bic = -2.0 * gmm->mean_log_likelihood * gmm->n_samples
             + (3.0 * gmm->n_components - 1.0) * log (gmm->n_samples);
  qsort (gmm->components, gmm->n_components, sizeof (WsGmmComponent), by_mean);
}

/* Random wait kinds as the detector sees them: log-durations of a few
 * log-normal parts, resolved to a microsecond (so values repeat), some
 * large enough to be binned. */
static double *
random_kind (GRand *rng,
             gsize *n_out)
{
  gsize n = g_rand_int_range (rng, 0, 4) == 0 ? g_rand_int_range (rng, 8193, 30000) : g_rand_int_range (rng, 30, 3000);
  guint parts = g_rand_int_range (rng, 1, 5);
  double mean[4], sd[4], share[4], total = 0;
  double *x = g_new (double, n);

  for (guint p = 0; p < parts; p++)
    {
      mean[p] = g_rand_double_range (rng, 8, 17);
      sd[p] = g_rand_double_range (rng, 0.02, 1.5);
      total += share[p] = g_rand_double_range (rng, 0.05, 1);
    }
  for (gsize i = 0; i < n; i++)
    {
      double u = g_rand_double (rng) * total, z;
      guint p = 0;

      while (p + 1 < parts && (u -= share[p]) > 0)
        p++;
      /* Box–Muller */
      z = sqrt (-2 * log (1 - g_rand_double (rng))) * cos (2 * G_PI * g_rand_double (rng));
      x[i] = log (MAX (1000, round (exp (mean[p] + sd[p] * z) / 1000) * 1000));
    }
  *n_out = n;
  return x;
}

/* Over random kinds, each K fitted from the same start with both EMs:
 * the same log-likelihood up to the stop rule's tolerance, and BIC
 * chooses the same K unless the two candidates' BICs are as close as the
 * tolerance allows (then neither choice is better). */
static void
test_em_against_glibc (void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (2026);
  WsGmmSettings settings;
  guint n_kinds = g_test_slow () ? 400 : 120, same_k = 0, fits = 0, same_iterations = 0;
  double worst_ll = 0, worst_bic_gap = 0;

  ws_gmm_settings_init (&settings);
  for (guint kind = 0; kind < n_kinds; kind++)
    {
      gsize n;
      g_autofree double *x = random_kind (rng, &n);
      WsGmmPoints points;
      WsGmm ours[WS_GMM_MAX_COMPONENTS], theirs[WS_GMM_MAX_COMPONENTS], pick_ours, pick_theirs;
      guint n_k;

      ws_gmm_points_init (&points, x, n);
      n_k = ws_gmm_n_candidates (&settings, points.n);
      for (guint k = 1; k <= n_k; k++)
        {
          ws_gmm_initialise (points.x, points.weights, points.n, k, &settings, &ours[k - 1]);
          theirs[k - 1] = ours[k - 1];
          g_assert_true (ws_gmm_run_em (points.x, points.weights, points.n, &settings, &ours[k - 1], NULL));
          oracle_run_em (points.x, points.weights, points.n, &settings, &theirs[k - 1]);
          /* Both stop once the mean log-likelihood moves by less than the
           * tolerance: where they stop one iteration apart they differ by
           * about that much. */
          worst_ll = MAX (worst_ll, fabs (ours[k - 1].mean_log_likelihood - theirs[k - 1].mean_log_likelihood));
          g_assert_cmpfloat (fabs (ours[k - 1].mean_log_likelihood - theirs[k - 1].mean_log_likelihood), <=, 10 * settings.tolerance);
          same_iterations += ours[k - 1].n_iterations == theirs[k - 1].n_iterations;
          fits++;
        }
      ws_gmm_choose (ours, n_k, &pick_ours);
      ws_gmm_choose (theirs, n_k, &pick_theirs);
      if (pick_ours.n_components == pick_theirs.n_components)
        same_k++;
      else
        {
          /* Each EM's BIC of the other's choice is as good as its own, up
           * to the tolerance over the data's weight. */
          double gap = fabs (theirs[pick_ours.n_components - 1].bic - pick_theirs.bic);
          worst_bic_gap = MAX (worst_bic_gap, gap);
          g_assert_cmpfloat (gap, <=, 2 * 10 * settings.tolerance * pick_theirs.n_samples);
        }
      ws_gmm_points_clear (&points);
    }
  g_test_message ("%u kinds, %u fits: the same K for %u kinds, the same iteration count for %u fits; "
                  "worst mean log-likelihood difference %.3g, worst BIC gap where K differs %.3g",
                  n_kinds, fits, same_k, same_iterations, worst_ll, worst_bic_gap);
  /* Nearly always the same K: a different choice needs two BICs within
   * the tolerance of each other. */
  g_assert_cmpuint (same_k * 100, >=, 98 * n_kinds);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anomaly/gmm/math", test_math_against_glibc);
  g_test_add_func ("/anomaly/gmm/math-clones", test_math_clones);
  g_test_add_func ("/anomaly/gmm/em-against-glibc", test_em_against_glibc);
  return g_test_run ();
}
