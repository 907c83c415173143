/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Gaussian mixtures in one dimension, fitted by expectation–maximisation on
 * log-durations: the patent's "mixture of Gaussians model" of a wait's
 * historical durations (Fig. 6).
 *
 * The fit follows scikit-learn's GaussianMixture step for step (so a test
 * can hold the two to 1e-3 per sample): the E-step computes the
 * responsibilities and the mean log-likelihood under the current
 * parameters, the M-step re-estimates weights, means and variances (each
 * component's weight gets 10·ε so none divides by zero, each variance gets
 * the floor added), and EM stops once the mean log-likelihood changes by
 * less than the tolerance.  K is chosen by BIC among 1 … max_components;
 * every K starts from weighted k-means++ (a GSL Mersenne twister with a
 * fixed seed) refined by a few Lloyd iterations, then hard assignment.
 *
 * Data may carry weights: a large sample (a global pool, a benchmark's
 * million waits) is first binned to 1/1024 of a log unit — a 0.1 % change
 * of duration, below what a scheduler trace resolves — and EM runs on the
 * occupied bins, exactly as on the raw data with repeated values.  That
 * is what makes a million waits fit in a fraction of a second.
 *
 * The normal tail P(X ≥ x) is GSL's gsl_sf_erf_Q; densities are written
 * out in log form (a Gaussian log-density is a quadratic, not a special
 * function) so that far points do not underflow.
 *
 * The E-step's exp and log are EM's own (ws-gmm-math.h), four points at
 * a time: glibc's, one call at a time, were most of a first fit's EM,
 * and these round the same on every machine (this file is built with
 * -ffp-contract=off).
 *
 * Fits are remembered across runs by their data and settings
 * (ws-gmm-cache.c), and by this file's and ws-gmm-math.h's SHA-256:
 * after any change here no fit remembered from before is found.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <string.h>

#include "ws-error.h"
#include "ws-gmm.h"
#include "ws-gmm-math.h"

#define BIN_PER_UNIT 1024.0
#define BIN_ABOVE    8192    /* samples: bin larger inputs */
#define LLOYD_ROUNDS 10

void
ws_gmm_settings_init (WsGmmSettings *settings)
{
  g_return_if_fail (settings != NULL);

  settings->max_components = WS_GMM_MAX_COMPONENTS;
  settings->max_iterations = 200;
  settings->tolerance = 1e-5;
  /* σ ≥ 1 % of a log unit: a wait kind whose history repeats one value
   * still gets a usable, narrow component. */
  settings->variance_floor = 1e-4;
  settings->seed = 5489;
}

static inline double
weight_at (const double *weights,
           gsize         i)
{
  return weights != NULL ? weights[i] : 1.0;
}

/* Weighted k-means++ seeding, then Lloyd rounds; centres sorted. */
static void
kmeans_centres (const double *x,
                const double *w,
                gsize         n,
                guint         k,
                guint64       seed,
                double       *centres)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  g_autofree double *d2 = g_new (double, n);
  double total = 0, r, acc;
  gsize i, pick;

  gsl_rng_set (rng, (unsigned long) seed);
  for (i = 0; i < n; i++)
    total += weight_at (w, i);
  r = gsl_rng_uniform (rng) * total;
  for (i = 0, acc = 0, pick = n - 1; i < n; i++)
    if ((acc += weight_at (w, i)) > r)
      {
        pick = i;
        break;
      }
  centres[0] = x[pick];

  for (guint c = 1; c < k; c++)
    {
      double sum = 0;

      for (i = 0; i < n; i++)
        {
          double best = G_MAXDOUBLE;
          for (guint j = 0; j < c; j++)
            best = MIN (best, (x[i] - centres[j]) * (x[i] - centres[j]));
          d2[i] = best * weight_at (w, i);
          sum += d2[i];
        }
      if (sum <= 0)
        {
          centres[c] = centres[c - 1];
          continue;
        }
      r = gsl_rng_uniform (rng) * sum;
      for (i = 0, acc = 0, pick = n - 1; i < n; i++)
        if ((acc += d2[i]) > r)
          {
            pick = i;
            break;
          }
      centres[c] = x[pick];
    }
  gsl_rng_free (rng);

  for (guint round = 0; round < LLOYD_ROUNDS; round++)
    {
      double sum[WS_GMM_MAX_COMPONENTS] = { 0 }, cnt[WS_GMM_MAX_COMPONENTS] = { 0 };

      gsl_sort (centres, 1, k);
      for (i = 0; i < n; i++)
        {
          guint best = 0;
          for (guint j = 1; j < k; j++)
            if (fabs (x[i] - centres[j]) < fabs (x[i] - centres[best]))
              best = j;
          sum[best] += weight_at (w, i) * x[i];
          cnt[best] += weight_at (w, i);
        }
      for (guint j = 0; j < k; j++)
        if (cnt[j] > 0)
          centres[j] = sum[j] / cnt[j];
    }
  gsl_sort (centres, 1, k);
}

/**
 * ws_gmm_initialise:
 * @weights: (nullable): sample weights, %NULL for 1 each
 *
 * The starting point of EM for @k components: k-means++ centres (seeded
 * by @settings), each sample assigned to its nearest centre, and each
 * component's weight, mean and variance (plus the floor) from its samples.
 * Exposed so that a test can hand the same start to another implementation.
 */
gboolean
ws_gmm_initialise (const double        *x,
                   const double        *weights,
                   gsize                n,
                   guint                k,
                   const WsGmmSettings *settings,
                   WsGmm               *gmm)
{
  double centres[WS_GMM_MAX_COMPONENTS];
  double sw[WS_GMM_MAX_COMPONENTS] = { 0 }, sx[WS_GMM_MAX_COMPONENTS] = { 0 }, sxx[WS_GMM_MAX_COMPONENTS] = { 0 };
  double total = 0;

  g_return_val_if_fail (x != NULL && n > 0, FALSE);
  g_return_val_if_fail (k >= 1 && k <= WS_GMM_MAX_COMPONENTS, FALSE);

  memset (gmm, 0, sizeof *gmm);
  kmeans_centres (x, weights, n, k, settings->seed, centres);
  for (gsize i = 0; i < n; i++)
    {
      guint best = 0;
      double wi = weight_at (weights, i);

      for (guint j = 1; j < k; j++)
        if (fabs (x[i] - centres[j]) < fabs (x[i] - centres[best]))
          best = j;
      sw[best] += wi;
      sx[best] += wi * x[i];
      total += wi;
    }
  for (guint j = 0; j < k; j++)
    {
      double nk = sw[j] + 10 * DBL_EPSILON;
      gmm->components[j].mean = sx[j] / nk;
    }
  for (gsize i = 0; i < n; i++)
    {
      guint best = 0;
      for (guint j = 1; j < k; j++)
        if (fabs (x[i] - centres[j]) < fabs (x[i] - centres[best]))
          best = j;
      sxx[best] += weight_at (weights, i) * (x[i] - gmm->components[best].mean) * (x[i] - gmm->components[best].mean);
    }
  for (guint j = 0; j < k; j++)
    {
      double nk = sw[j] + 10 * DBL_EPSILON;
      gmm->components[j].weight = nk / (total + k * 10 * DBL_EPSILON);
      gmm->components[j].variance = sxx[j] / nk + settings->variance_floor;
    }
  gmm->n_components = k;
  gmm->n_samples = total;
  return TRUE;
}

static inline double
component_log_pdf (const WsGmmComponent *c,
                   double                x)
{
  double d = x - c->mean;
  return -0.5 * (M_LN2 + M_LNPI + log (c->variance)) - d * d / (2 * c->variance);
}

/* The sum of a vector's lanes, in a fixed order.  Always inlined, as
 * every function taking a vector here: called, it would take its argument
 * by the baseline's convention (in memory) from an AVX2 clone passing it
 * in a register — at -O0, which inlines nothing else, EM gave garbage. */
static inline __attribute__ ((always_inline)) double
v4d_sum (WsV4d v)
{
  return (v[0] + v[1]) + (v[2] + v[3]);
}

/* One E-step: responsibilities into @resp (component-major: component j's
 * at resp[j·n …]), returns the weighted mean log-likelihood.  @n is a
 * multiple of 4 (ws_gmm_run_em() pads with points of weight 0), and four
 * points are taken at a time, each in its own lane: the exp and log of
 * ws-gmm-math.h run side by side, and each lane's bits are those of one
 * point alone.  Written for a constant @k and inlined once per K
 * (e_step()): the loops over components unroll and stay in registers. */
static inline __attribute__ ((always_inline)) double
e_step_k (const WsGmm  *gmm,
          const double *x,
          const double *w,
          gsize         n,
          double       *resp,
          const guint   k)
{
  double a[WS_GMM_MAX_COMPONENTS], b[WS_GMM_MAX_COMPONENTS], mean[WS_GMM_MAX_COMPONENTS];
  WsV4d ll = ws_v4d_splat (0), total = ws_v4d_splat (0);

  for (guint j = 0; j < k; j++)
    {
      a[j] = log (gmm->components[j].weight) - 0.5 * (M_LN2 + M_LNPI + log (gmm->components[j].variance));
      b[j] = -0.5 / gmm->components[j].variance;
      mean[j] = gmm->components[j].mean;
    }
  for (gsize i = 0; i < n; i += 4)
    {
      WsV4d xv, wv, r[WS_GMM_MAX_COMPONENTS], top = ws_v4d_splat (-G_MAXDOUBLE), sum = ws_v4d_splat (0), inv;

      memcpy (&xv, x + i, sizeof xv);
      memcpy (&wv, w + i, sizeof wv);
#pragma GCC unroll 5
      for (guint j = 0; j < k; j++)
        {
          WsV4d d = xv - mean[j];
          r[j] = a[j] + b[j] * d * d;
          top = ws_v4d_max (r[j], top);
        }
      /* The likeliest component's exp is exp (0), exactly 1. */
#pragma GCC unroll 5
      for (guint j = 0; j < k; j++)
        sum += (r[j] = ws_gmm_exp4 (r[j] - top));
      ll += wv * (top + ws_gmm_log4 (sum));
      total += wv;
      inv = 1.0 / sum;
#pragma GCC unroll 5
      for (guint j = 0; j < k; j++)
        {
          r[j] *= inv;
          memcpy (resp + j * n + i, &r[j], sizeof r[j]);
        }
    }
  return v4d_sum (ll) / v4d_sum (total);
}

/* With AVX2 the four lanes are one register: a first fit's E-step takes
 * about half the time it took with glibc's exp and log.  With the x86-64
 * baseline alone (SSE2: two registers a vector, and the E-step of five
 * components runs out of them) it takes somewhat longer than it did
 * (docs/performance.md).  Both clones do the same IEEE operations in the
 * same order, without FMA (-ffp-contract=off, and "avx2" does not enable
 * it): the same bits (/anomaly/gmm/math-clones). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EM_CLONES __attribute__ ((target_clones ("avx2", "default")))
#else
#define EM_CLONES
#endif

EM_CLONES static double
e_step (const WsGmm  *gmm,
        const double *x,
        const double *w,
        gsize         n,
        double       *resp)
{
  switch (gmm->n_components)
    {
    case 1: return e_step_k (gmm, x, w, n, resp, 1);
    case 2: return e_step_k (gmm, x, w, n, resp, 2);
    case 3: return e_step_k (gmm, x, w, n, resp, 3);
    case 4: return e_step_k (gmm, x, w, n, resp, 4);
    default: return e_step_k (gmm, x, w, n, resp, WS_GMM_MAX_COMPONENTS);
    }
}

/* One M-step, on e_step_k()'s layout, four points at a time: each sum
 * is kept in four lanes, added up in a fixed order at the end. */
static inline __attribute__ ((always_inline)) void
m_step_k (WsGmm         *gmm,
          const double  *x,
          const double  *w,
          gsize          n,
          const double  *resp,
          double         floor,
          const guint    k)
{
  double nk[WS_GMM_MAX_COMPONENTS], mean[WS_GMM_MAX_COMPONENTS];
  double total = 0;

  for (guint j = 0; j < k; j++)
    {
      WsV4d sw = ws_v4d_splat (0), sx = ws_v4d_splat (0);

      for (gsize i = 0; i < n; i += 4)
        {
          WsV4d xv, wv, rv;

          memcpy (&xv, x + i, sizeof xv);
          memcpy (&wv, w + i, sizeof wv);
          memcpy (&rv, resp + j * n + i, sizeof rv);
          rv *= wv;
          sw += rv;
          sx += rv * xv;
        }
      nk[j] = v4d_sum (sw) + 10 * DBL_EPSILON;
      mean[j] = gmm->components[j].mean = v4d_sum (sx) / nk[j];
      total += nk[j];
    }
  for (guint j = 0; j < k; j++)
    {
      WsV4d sxx = ws_v4d_splat (0);

      for (gsize i = 0; i < n; i += 4)
        {
          WsV4d xv, wv, rv, d;

          memcpy (&xv, x + i, sizeof xv);
          memcpy (&wv, w + i, sizeof wv);
          memcpy (&rv, resp + j * n + i, sizeof rv);
          d = xv - mean[j];
          sxx += rv * wv * d * d;
        }
      gmm->components[j].weight = nk[j] / total;
      gmm->components[j].variance = v4d_sum (sxx) / nk[j] + floor;
    }
}

EM_CLONES static void
m_step (WsGmm         *gmm,
        const double  *x,
        const double  *w,
        gsize          n,
        const double  *resp,
        double         floor)
{
  switch (gmm->n_components)
    {
    case 1: m_step_k (gmm, x, w, n, resp, floor, 1); break;
    case 2: m_step_k (gmm, x, w, n, resp, floor, 2); break;
    case 3: m_step_k (gmm, x, w, n, resp, floor, 3); break;
    case 4: m_step_k (gmm, x, w, n, resp, floor, 4); break;
    default: m_step_k (gmm, x, w, n, resp, floor, WS_GMM_MAX_COMPONENTS); break;
    }
}

static int
compare_component (const void *a,
                   const void *b)
{
  double x = ((const WsGmmComponent *) a)->mean, y = ((const WsGmmComponent *) b)->mean;
  return x < y ? -1 : x > y;
}

/**
 * ws_gmm_run_em:
 * @gmm: (inout): the starting point (see ws_gmm_initialise()), then the fit
 *
 * Runs EM from @gmm until the mean log-likelihood settles or the
 * iteration limit; fills the fit's log-likelihood and BIC.
 *
 * Returns: %FALSE if cancelled
 */
gboolean
ws_gmm_run_em (const double        *x,
               const double        *weights,
               gsize                n,
               const WsGmmSettings *settings,
               WsGmm               *gmm,
               GCancellable        *cancellable)
{
  /* EM takes four points at a time: the points and their weights padded
   * to a multiple of 4 with copies of the last point, weighing 0. */
  gsize n4 = (n + 3) & ~(gsize) 3;
  g_autofree double *xp = g_new (double, n4);
  g_autofree double *wp = g_new (double, n4);
  g_autofree double *resp = g_new (double, n4 * gmm->n_components);
  double ll = -G_MAXDOUBLE, prev = -G_MAXDOUBLE;
  guint k = gmm->n_components;

  for (gsize i = 0; i < n4; i++)
    {
      xp[i] = x[MIN (i, n - 1)];
      wp[i] = i < n ? weight_at (weights, i) : 0;
    }

  gmm->converged = FALSE;
  for (gmm->n_iterations = 1; gmm->n_iterations <= settings->max_iterations; gmm->n_iterations++)
    {
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      prev = ll;
      ll = e_step (gmm, xp, wp, n4, resp);
      m_step (gmm, xp, wp, n4, resp, settings->variance_floor);
      if (fabs (ll - prev) < settings->tolerance)
        {
          gmm->converged = TRUE;
          break;
        }
    }
  gmm->n_iterations = MIN (gmm->n_iterations, settings->max_iterations);
  /* The likelihood and BIC of the final parameters, not of the last E-step's. */
  gmm->mean_log_likelihood = e_step (gmm, xp, wp, n4, resp);
  gmm->bic = -2.0 * gmm->mean_log_likelihood * gmm->n_samples + (3.0 * k - 1.0) * log (gmm->n_samples);
  qsort (gmm->components, k, sizeof (WsGmmComponent), compare_component);
  return TRUE;
}

/* Each distinct value once, weighted by how often it occurs, in
 * ascending order; with @per_unit > 0 values are first rounded to
 * 1/@per_unit of a log unit (see the top of the file).  Returns the
 * number of distinct values. */
static gsize
collapse_samples (const double  *x,
                  gsize          n,
                  double         per_unit,
                  double       **out_x,
                  double       **out_w)
{
  g_autofree double *sorted = g_new (double, n);
  gsize m = 0;
  gboolean in_order = TRUE;

  for (gsize i = 0; i < n; i++)
    {
      sorted[i] = per_unit > 0 ? round (x[i] * per_unit) : x[i];
      in_order = in_order && (i == 0 || sorted[i - 1] <= sorted[i]);
    }
  /* The detector hands its data sorted, and rounding keeps the order:
   * GSL's heap sort would still take n log n to find nothing to move. */
  if (!in_order)
    gsl_sort (sorted, 1, n);
  *out_x = g_new (double, n);
  *out_w = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      if (m > 0 && (*out_x)[m - 1] == sorted[i])
        (*out_w)[m - 1] += 1;
      else
        {
          (*out_x)[m] = sorted[i];
          (*out_w)[m++] = 1;
        }
    }
  for (gsize i = 0; per_unit > 0 && i < m; i++)
    (*out_x)[i] /= per_unit;
  return m;
}

/**
 * ws_gmm_n_candidates:
 * @n: distinct points of the data
 *
 * Returns: how many K a fit tries: 1 … max_components, and no more than
 *   there are distinct points
 */
guint
ws_gmm_n_candidates (const WsGmmSettings *settings,
                     gsize                n)
{
  g_return_val_if_fail (settings != NULL, 0);

  return (guint) MIN (CLAMP (settings->max_components, 1, WS_GMM_MAX_COMPONENTS), n);
}

/**
 * ws_gmm_fit_candidate:
 * @weights: (nullable): one weight per point, %NULL for 1 each
 * @k: the number of components, 1 … ws_gmm_n_candidates()
 * @candidate: (out caller-allocates): the fit with @k components
 *
 * One K of a fit: ws_gmm_initialise() then EM.  Each K is a pure
 * function of the data, @k and @settings, so the K of a fit may be run
 * on different threads (ws-gmm-many.c) and chosen among afterwards with
 * ws_gmm_choose().
 *
 * Returns: %FALSE if cancelled
 */
gboolean
ws_gmm_fit_candidate (const double        *x,
                      const double        *weights,
                      gsize                n,
                      guint                k,
                      const WsGmmSettings *settings,
                      WsGmm               *candidate,
                      GCancellable        *cancellable)
{
  g_return_val_if_fail (x != NULL && n > 0 && settings != NULL && candidate != NULL, FALSE);

  ws_gmm_initialise (x, weights, n, k, settings, candidate);
  return ws_gmm_run_em (x, weights, n, settings, candidate, cancellable);
}

/**
 * ws_gmm_choose:
 * @candidates: (array length=n): the fits for K = 1 … @n, in that order
 * @gmm: (out caller-allocates): the chosen one
 *
 * The lowest BIC; on a tie (or a NaN) the smaller K, as when the
 * candidates are compared one after another from K = 1.
 */
void
ws_gmm_choose (const WsGmm *candidates,
               guint        n,
               WsGmm       *gmm)
{
  g_return_if_fail (candidates != NULL && n > 0 && gmm != NULL);

  *gmm = candidates[0];
  for (guint k = 1; k < n; k++)
    if (candidates[k].bic < gmm->bic)
      *gmm = candidates[k];
}

/**
 * ws_gmm_fit_weighted:
 * @weights: (nullable): one weight per sample, %NULL for 1 each
 *
 * Fits K = 1 … max_components (no more than there are distinct points)
 * and keeps the lowest BIC.
 */
gboolean
ws_gmm_fit_weighted (const double        *x,
                     const double        *weights,
                     gsize                n,
                     const WsGmmSettings *settings,
                     WsGmm               *gmm,
                     GCancellable        *cancellable,
                     GError             **error)
{
  WsGmm candidates[WS_GMM_MAX_COMPONENTS];
  guint n_k;

  g_return_val_if_fail (settings != NULL && gmm != NULL, FALSE);

  if (n == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("no samples to fit a mixture to"));
      return FALSE;
    }
  n_k = ws_gmm_n_candidates (settings, n);
  for (guint k = 1; k <= n_k; k++)
    if (!ws_gmm_fit_candidate (x, weights, n, k, settings, &candidates[k - 1], cancellable))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
        return FALSE;
      }
  ws_gmm_choose (candidates, n_k, gmm);
  return TRUE;
}

/**
 * ws_gmm_points_init:
 * @points: (out caller-allocates): what EM runs on
 * @x: (array length=n): the samples (log-durations), n ≥ 1
 *
 * The points ws_gmm_fit() runs EM on: @x itself when its values are
 * distinct and few, else each distinct value (or bin, above 8,192
 * samples) once, weighted by its count (see ws_gmm_fit()).  @x must
 * outlive @points.
 */
void
ws_gmm_points_init (WsGmmPoints  *points,
                    const double *x,
                    gsize         n)
{
  g_return_if_fail (points != NULL && x != NULL && n > 0);

  memset (points, 0, sizeof *points);
  points->n = collapse_samples (x, n, n > BIN_ABOVE ? BIN_PER_UNIT : 0, &points->owned_x, &points->owned_w);
  /* ws_gmm_fit_many() holds the points of every fit at once: no more
   * room than they take. */
  if (points->n == n && n <= BIN_ABOVE)
    {
      ws_gmm_points_clear (points);
      points->x = x;
      points->weights = NULL;
    }
  else
    {
      points->owned_x = g_renew (double, points->owned_x, points->n);
      points->owned_w = g_renew (double, points->owned_w, points->n);
      points->x = points->owned_x;
      points->weights = points->owned_w;
    }
}

void
ws_gmm_points_clear (WsGmmPoints *points)
{
  g_clear_pointer (&points->owned_x, g_free);
  g_clear_pointer (&points->owned_w, g_free);
}

/**
 * ws_gmm_fit:
 * @x: (array length=n): the samples (log-durations)
 *
 * ws_gmm_fit_weighted() with every sample counted once.  Repeated values
 * become one point weighted by their count — the same EM up to the order
 * of summation, at a fraction of the work: durations resolved to a
 * microsecond repeat often (a PostgreSQL trace's 6,418 lock waits take
 * 389 values).  Inputs larger than 8,192 samples are binned first (see
 * the top of this file).
 */
gboolean
ws_gmm_fit (const double        *x,
            gsize                n,
            const WsGmmSettings *settings,
            WsGmm               *gmm,
            GCancellable        *cancellable,
            GError             **error)
{
  WsGmmPoints points;
  gboolean ok;

  if (n == 0)
    return ws_gmm_fit_weighted (x, NULL, n, settings, gmm, cancellable, error);
  ws_gmm_points_init (&points, x, n);
  ok = ws_gmm_fit_weighted (points.x, points.weights, points.n, settings, gmm, cancellable, error);
  ws_gmm_points_clear (&points);
  return ok;
}

double
ws_gmm_log_pdf (const WsGmm *gmm,
                double       x)
{
  double l[WS_GMM_MAX_COMPONENTS], top = -G_MAXDOUBLE, sum = 0;

  g_return_val_if_fail (gmm != NULL && gmm->n_components > 0, NAN);

  for (guint j = 0; j < gmm->n_components; j++)
    {
      l[j] = log (gmm->components[j].weight) + component_log_pdf (&gmm->components[j], x);
      top = MAX (top, l[j]);
    }
  for (guint j = 0; j < gmm->n_components; j++)
    sum += exp (l[j] - top);
  return top + log (sum);
}

/**
 * ws_gmm_posteriors:
 * @gmm: a fitted mixture
 * @x: a log-duration
 * @out: (out caller-allocates) (array fixed-size=WS_GMM_MAX_COMPONENTS):
 *   for each component, the probability that @x came from it
 *
 * The components' responsibilities for @x (Bayes' rule on the weighted
 * densities), computed in log space so that far in a tail, where every
 * density underflows, the nearest component still takes it.
 */
void
ws_gmm_posteriors (const WsGmm *gmm,
                   double       x,
                   double      *out)
{
  double total;

  g_return_if_fail (gmm != NULL && gmm->n_components > 0 && out != NULL);
  total = ws_gmm_log_pdf (gmm, x);
  for (guint j = 0; j < gmm->n_components; j++)
    out[j] = exp (log (gmm->components[j].weight) + component_log_pdf (&gmm->components[j], x) - total);
}

double
ws_gmm_pdf (const WsGmm *gmm,
            double       x)
{
  double p = 0;

  g_return_val_if_fail (gmm != NULL, NAN);
  for (guint j = 0; j < gmm->n_components; j++)
    p += gmm->components[j].weight
         * gsl_ran_gaussian_pdf (x - gmm->components[j].mean, sqrt (gmm->components[j].variance));
  return p;
}

/**
 * ws_gmm_upper_tail:
 * @x: a log-duration
 *
 * Returns: P(X ≥ x) under the mixture: Σ w_k Q((x − μ_k) / σ_k)
 */
double
ws_gmm_upper_tail (const WsGmm *gmm,
                   double       x)
{
  double p = 0;

  g_return_val_if_fail (gmm != NULL, NAN);
  for (guint j = 0; j < gmm->n_components; j++)
    p += gmm->components[j].weight
         * gsl_sf_erf_Q ((x - gmm->components[j].mean) / sqrt (gmm->components[j].variance));
  return p;
}

/* Many samples at once: the tail P and its derivative −pdf tabulated with
 * GSL at TAIL_NODES points spanning every component ±12 σ, and read
 * between the nodes by cubic Hermite interpolation (exact values and
 * slopes at both ends: within 1e-6 relative of GSL, which a test checks).  Outside the span, and for
 * small batches, GSL directly.  One erf_Q per sample and component would
 * take 0.37 s for a million waits; the table takes a few ms to build. */
#define TAIL_NODES 16384
#define TAIL_TABLE_ABOVE 65536

static void
upper_tail_exact (const WsGmm  *gmm,
                  const double *x,
                  gsize         n,
                  double       *out)
{
  double inv_sd[WS_GMM_MAX_COMPONENTS];
  guint k = gmm->n_components;

  for (guint j = 0; j < k; j++)
    inv_sd[j] = 1.0 / sqrt (gmm->components[j].variance);
  for (gsize i = 0; i < n; i++)
    {
      double p = 0;

      /* A kind's sorted waits repeat durations (perf's microseconds): the
       * same x gives the same bits, so it is computed once a run. */
      if (i > 0 && x[i] == x[i - 1])
        {
          out[i] = out[i - 1];
          continue;
        }
      for (guint j = 0; j < k; j++)
        p += gmm->components[j].weight * gsl_sf_erf_Q ((x[i] - gmm->components[j].mean) * inv_sd[j]);
      out[i] = p;
    }
}

/**
 * ws_gmm_upper_tail_many:
 * @out: (array length=n): P(X ≥ x[i]) for each sample
 *
 * ws_gmm_upper_tail() for many samples: exact for fewer than 65,536,
 * through a table of GSL values for more (see above).
 */
void
ws_gmm_upper_tail_many (const WsGmm  *gmm,
                        const double *x,
                        gsize         n,
                        double       *out)
{
  g_autofree double *nodes = NULL;
  g_autofree double *tail = NULL;
  g_autofree double *slope = NULL;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, step, inv_step;

  if (n < TAIL_TABLE_ABOVE)
    {
      upper_tail_exact (gmm, x, n, out);
      return;
    }
  for (guint j = 0; j < gmm->n_components; j++)
    {
      double sd = sqrt (gmm->components[j].variance);
      lo = MIN (lo, gmm->components[j].mean - 12 * sd);
      hi = MAX (hi, gmm->components[j].mean + 12 * sd);
    }
  step = (hi - lo) / (TAIL_NODES - 1);
  inv_step = 1.0 / step;
  nodes = g_new (double, TAIL_NODES);
  tail = g_new (double, TAIL_NODES);
  slope = g_new (double, TAIL_NODES);
  for (guint i = 0; i < TAIL_NODES; i++)
    nodes[i] = lo + i * step;
  upper_tail_exact (gmm, nodes, TAIL_NODES, tail);
  for (guint i = 0; i < TAIL_NODES; i++)
    slope[i] = -ws_gmm_pdf (gmm, nodes[i]) * step;
  for (gsize i = 0; i < n; i++)
    {
      double pos = (x[i] - lo) * inv_step;
      double t, t2, t3;
      guint at;

      if (!(pos >= 0 && pos < TAIL_NODES - 1))
        {
          upper_tail_exact (gmm, &x[i], 1, &out[i]);
          continue;
        }
      at = (guint) pos;
      t = pos - at;
      t2 = t * t;
      t3 = t2 * t;
      out[i] = (2 * t3 - 3 * t2 + 1) * tail[at] + (t3 - 2 * t2 + t) * slope[at]
               + (3 * t2 - 2 * t3) * tail[at + 1] + (t3 - t2) * slope[at + 1];
    }
}

typedef struct {
  const WsGmm *gmm;
  double       p;
} TailTarget;

static double
tail_minus (double  x,
            void   *data)
{
  const TailTarget *t = data;
  return ws_gmm_upper_tail (t->gmm, x) - t->p;
}

/**
 * ws_gmm_tail_quantile:
 * @p: an upper-tail probability in (0, 1)
 *
 * Returns: the x with P(X ≥ x) = @p (GSL's Brent solver): the log-duration
 *   from which waits are anomalous at threshold @p
 */
double
ws_gmm_tail_quantile (const WsGmm *gmm,
                      double       p)
{
  gsl_root_fsolver *s;
  gsl_function f;
  TailTarget target = { gmm, p };
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, root = NAN;
  int status = GSL_CONTINUE;

  g_return_val_if_fail (gmm != NULL && gmm->n_components > 0, NAN);
  g_return_val_if_fail (p > 0 && p < 1, NAN);

  for (guint j = 0; j < gmm->n_components; j++)
    {
      double sd = sqrt (gmm->components[j].variance);
      lo = MIN (lo, gmm->components[j].mean - 40 * sd);
      hi = MAX (hi, gmm->components[j].mean + 40 * sd);
    }
  f.function = tail_minus;
  f.params = &target;
  s = gsl_root_fsolver_alloc (gsl_root_fsolver_brent);
  gsl_root_fsolver_set (s, &f, lo, hi);
  for (guint i = 0; i < 200 && status == GSL_CONTINUE; i++)
    {
      gsl_root_fsolver_iterate (s);
      root = gsl_root_fsolver_root (s);
      status = gsl_root_test_interval (gsl_root_fsolver_x_lower (s), gsl_root_fsolver_x_upper (s), 1e-9, 0);
    }
  gsl_root_fsolver_free (s);
  return root;
}
