/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define WS_GMM_MAX_COMPONENTS 5

/**
 * WsGmmComponent:
 * @weight: mixing weight (the weights sum to 1)
 * @mean: mean of the component, in log-nanoseconds
 * @variance: its variance (≥ the variance floor)
 */
typedef struct {
  double weight;
  double mean;
  double variance;
} WsGmmComponent;

/**
 * WsGmm:
 * @n_components: K, 1 … %WS_GMM_MAX_COMPONENTS
 * @components: the K components, by increasing mean
 * @mean_log_likelihood: mean per-sample log-likelihood of the fitted data
 * @bic: Bayesian information criterion of the fit (lower is better)
 * @n_samples: total weight of the data fitted
 * @n_iterations: EM iterations run
 * @converged: whether the mean log-likelihood settled within the tolerance
 *
 * A one-dimensional Gaussian mixture (on log-durations), a plain value.
 */
typedef struct {
  guint          n_components;
  WsGmmComponent components[WS_GMM_MAX_COMPONENTS];
  double         mean_log_likelihood;
  double         bic;
  double         n_samples;
  guint          n_iterations;
  gboolean       converged;
} WsGmm;

/**
 * WsGmmSettings:
 * @max_components: K is chosen by BIC among 1 … this (≤ 5)
 * @max_iterations: EM stops after this many iterations
 * @tolerance: EM stops when the mean log-likelihood changes by less
 * @variance_floor: added to every fitted variance (scikit-learn's
 *   reg_covar), so no component collapses onto one repeated value
 * @seed: seed of the k-means++ initialisation (fixed: same data, same fit)
 */
typedef struct {
  guint   max_components;
  guint   max_iterations;
  double  tolerance;
  double  variance_floor;
  guint64 seed;
} WsGmmSettings;

/**
 * WsGmmPoints:
 * @x: (array length=n): the points EM runs on
 * @weights: (array length=n) (nullable): their weights, %NULL for 1 each
 * @n: how many
 *
 * A fit's data as EM sees it (ws_gmm_points_init()).
 */
typedef struct {
  const double *x;
  const double *weights;
  gsize         n;
  /*< private >*/
  double       *owned_x;
  double       *owned_w;
} WsGmmPoints;

void     ws_gmm_settings_init   (WsGmmSettings       *settings);

void     ws_gmm_points_init     (WsGmmPoints         *points,
                                 const double        *x,
                                 gsize                n);
void     ws_gmm_points_clear    (WsGmmPoints         *points);
guint    ws_gmm_n_candidates    (const WsGmmSettings *settings,
                                 gsize                n);
gboolean ws_gmm_fit_candidate   (const double        *x,
                                 const double        *weights,
                                 gsize                n,
                                 guint                k,
                                 const WsGmmSettings *settings,
                                 WsGmm               *candidate,
                                 GCancellable        *cancellable);
void     ws_gmm_choose          (const WsGmm         *candidates,
                                 guint                n,
                                 WsGmm               *gmm);

gboolean ws_gmm_initialise      (const double        *x,
                                 const double        *weights,
                                 gsize                n,
                                 guint                k,
                                 const WsGmmSettings *settings,
                                 WsGmm               *gmm);
gboolean ws_gmm_run_em          (const double        *x,
                                 const double        *weights,
                                 gsize                n,
                                 const WsGmmSettings *settings,
                                 WsGmm               *gmm,
                                 GCancellable        *cancellable);
gboolean ws_gmm_fit             (const double        *x,
                                 gsize                n,
                                 const WsGmmSettings *settings,
                                 WsGmm               *gmm,
                                 GCancellable        *cancellable,
                                 GError             **error);
gboolean ws_gmm_fit_weighted    (const double        *x,
                                 const double        *weights,
                                 gsize                n,
                                 const WsGmmSettings *settings,
                                 WsGmm               *gmm,
                                 GCancellable        *cancellable,
                                 GError             **error);

double   ws_gmm_log_pdf         (const WsGmm         *gmm,
                                 double               x);
double   ws_gmm_pdf             (const WsGmm         *gmm,
                                 double               x);
void     ws_gmm_posteriors      (const WsGmm         *gmm,
                                 double               x,
                                 double              *out);
double   ws_gmm_upper_tail      (const WsGmm         *gmm,
                                 double               x);
double   ws_gmm_tail_quantile   (const WsGmm         *gmm,
                                 double               p);
void     ws_gmm_upper_tail_many (const WsGmm         *gmm,
                                 const double        *x,
                                 gsize                n,
                                 double              *out);

G_END_DECLS
