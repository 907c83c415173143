/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-gmm.h"

G_BEGIN_DECLS

/**
 * WsGmmJob:
 * @x: (array length=n): the samples (log-durations)
 * @n: how many, ≥ 1
 * @gmm: (out): the fit
 * @ok: (out): whether it was fitted
 *
 * One fit of ws_gmm_fit_many().
 */
typedef struct {
  const double *x;
  gsize         n;
  WsGmm         gmm;
  gboolean      ok;
} WsGmmJob;

guint    ws_gmm_threads  (void);
gboolean ws_gmm_fit_many (WsGmmJob            *jobs,
                          guint                n_jobs,
                          const WsGmmSettings *settings,
                          guint                n_threads,
                          GCancellable        *cancellable,
                          GError             **error);
gboolean ws_gmm_fit_many_ordered (WsGmmJob            *jobs,
                                  guint                n_jobs,
                                  const WsGmmSettings *settings,
                                  guint                n_threads,
                                  guint64              order_seed,
                                  GCancellable        *cancellable,
                                  GError             **error);

G_END_DECLS
