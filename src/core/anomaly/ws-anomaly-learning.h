/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gmm.h"

G_BEGIN_DECLS

/**
 * WsLearnFlag:
 * @x: where the flagged wait lies on the scale the cut is learned on
 *   (a log-duration for a signature's cut, the surprise −ln P(D ≥ d) for
 *   the pool and global levels); larger is more anomalous
 * @anomalous: the analyst's verdict
 * @weight: how much misjudging it costs
 */
typedef struct {
  double   x;
  gboolean anomalous;
  double   weight;
} WsLearnFlag;

double ws_anomaly_learn_cut    (double       base,
                                WsLearnFlag *flags,
                                guint        n_flags);
/**
 * WsLearnHypothesis:
 * @cut: where a mark of the mixture cuts the kind (its Bayes boundary)
 * @prior: what adopting it costs before any flag, in flags
 * @components: bit k set for each component it calls anomalous
 */
typedef struct {
  double cut;
  double prior;
  guint  components;
} WsLearnHypothesis;

guint  ws_anomaly_mark_hypotheses (const WsGmm       *gmm,
                                   double             base,
                                   WsLearnHypothesis *out);
double ws_anomaly_learn_kind_cut  (double                   base,
                                   const WsLearnHypothesis *hyps,
                                   guint                    n_hyps,
                                   const WsLearnFlag       *flags,
                                   guint                    n_flags,
                                   const double            *samples,
                                   guint                    n_samples,
                                   double                   model_weight,
                                   guint                   *hypothesis);
double ws_anomaly_marked_boundary (const WsGmm    *gmm,
                                   const gboolean *marked);
double ws_anomaly_flag_weight  (const WsGmm  *gmm,
                                double        x,
                                gboolean      anomalous);
double ws_anomaly_fdr_bar      (const WsGmm  *gmm,
                                const double *samples,
                                guint         n_samples,
                                double        q);
double ws_anomaly_learn_shrink (double       parent,
                                WsLearnFlag *flags,
                                guint        n_flags,
                                double       prior_flags,
                                double       max_shift);

G_END_DECLS
