/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-gmm.h"
#include "ws-anomaly-flag.h"
#include "ws-history-store.h"
#include "ws-progress.h"
#include "ws-ready-tree.h"
#include "ws-trace.h"
#include "ws-wait-signature.h"

G_BEGIN_DECLS

/**
 * WsAnomalyRule:
 * @WS_ANOMALY_RULE_FDR: (default) the Benjamini–Hochberg rule over each
 *   kind's waits at false-discovery rate @threshold: a kind whose waits
 *   follow its model has, with probability at least 1 − @threshold, no
 *   anomaly at all (ws_anomaly_fdr_bar())
 * @WS_ANOMALY_RULE_TAIL: the patent's literal rule: P(D ≥ d) ≤ @threshold
 *   for each wait, which calls a share @threshold of every kind anomalous
 *
 * Where a kind's cut lies before the analyst's flags move it.
 */
typedef enum {
  WS_ANOMALY_RULE_FDR,
  WS_ANOMALY_RULE_TAIL,
} WsAnomalyRule;

/**
 * WsFlagWeights:
 * @WS_FLAG_WEIGHTS_COUNT: every flag weighs 1
 * @WS_FLAG_WEIGHTS_POSTERIOR: a wait flagged normal weighs the chance that
 *   its kind's main component explains it (ws_anomaly_flag_weight())
 */
typedef enum {
  WS_FLAG_WEIGHTS_COUNT,
  WS_FLAG_WEIGHTS_POSTERIOR,
} WsFlagWeights;

/**
 * WsAnomalySettings:
 * @signature_depth: user-space frames per wait signature (default 2)
 * @rule: how @threshold sets a kind's cut before flags move it
 * @threshold: the false-discovery rate over each kind's waits
 *   (%WS_ANOMALY_RULE_FDR), or the bar on each wait's P(D ≥ d)
 *   (%WS_ANOMALY_RULE_TAIL); default 0.05
 * @reservoir_size: wait samples kept per signature in the history
 * @min_samples: a signature with fewer samples uses its pool's model
 *   (same kernel blocking function), and a pool with fewer the global one
 * @flag_prior: the learning rule's prior strength, in flags: a pool of
 *   signatures (or all of them) with n flags moves its bar n / (n +
 *   @flag_prior) of the way from its parent's bar toward what its flags
 *   say (docs/anomaly-detection.md)
 * @flag_max_shift: the most, in nats of surprise −ln P(D ≥ d), that the
 *   flags of other signatures may move a signature's bar (default 0:
 *   each kind learns from its own flags only; measured, sharing hurt)
 * @flag_model_weight: how many flags the model's own verdicts on a
 *   signature's waits weigh in all when its flags set its cut
 *   (docs/anomaly-detection.md); %WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS (the
 *   default): as many as the kind has waits, one flag a wait
 * @gmm: the mixture fit's settings
 * @threads: threads to fit the kinds' mixtures on (0: one per core, or
 *   WAITSCOPE_THREADS); the verdicts are the same on any number
 */
typedef struct {
  guint         signature_depth;
  WsAnomalyRule rule;
  double        threshold;
  guint         reservoir_size;
  guint         min_samples;
  double        flag_prior;
  double        flag_max_shift;
  double        flag_model_weight;
  WsFlagWeights flag_weights;
  WsGmmSettings gmm;
  guint         threads;
} WsAnomalySettings;

#define WS_ANOMALY_DEFAULT_FLAG_PRIOR 1.0
#define WS_ANOMALY_DEFAULT_FLAG_MAX_SHIFT 0.0
/* The model's verdict on each wait of a kind weighs one flag: a flag moves
 * a cut past a wait only where the flags outweigh the waits crossed. */
#define WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS (-1.0)
#define WS_ANOMALY_DEFAULT_FLAG_MODEL_WEIGHT WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS

double ws_anomaly_settings_model_weight (const WsAnomalySettings *settings,
                                         guint                    n_samples);

typedef enum {
  WS_MODEL_LEVEL_SIGNATURE,
  WS_MODEL_LEVEL_POOL,
  WS_MODEL_LEVEL_GLOBAL,
} WsModelLevel;

/**
 * WsAnomalyModel:
 * @key: the wait signature
 * @pool: its pool (kernel blocking function)
 * @level: whose data the mixture was fitted on
 * @gmm: the mixture, on log-nanoseconds
 * @samples: (element-type double): the log-durations fitted
 * @base_cut: log-duration where P(D ≥ d) = the kind's bar (the settings'
 *   threshold under the tail rule, ws_anomaly_fdr_bar() under the FDR rule)
 * @pool_threshold: the bar on P(D ≥ d) that the flags of its pool and of
 *   all signatures set it, before its own flags (the kind's bar with no
 *   flag)
 * @prior_cut: the cut before the signature's own flags (@base_cut, or
 *   where its pool's bar falls on its model when other kinds' flags
 *   shade it)
 * @cut: log-duration from which a wait is anomalous, after the flags
 * @threshold: P(D ≥ exp(@cut)): the signature's learned threshold
 * @marked_components: bit k set when the signature's flags call the
 *   mixture's component k anomalous (ws_anomaly_learn_marks())
 * @n_history: samples that came from the history store
 * @n_current: samples from the traces analysed, not yet in the history
 * @n_flagged_normal: waits of this signature flagged normal
 * @n_flagged_anomalous: … flagged anomalous
 * @flags: (element-type WsLearnFlag) (nullable): the signature's flags,
 *   at their log-durations
 */
typedef struct {
  char         *key;
  char         *pool;
  WsModelLevel  level;
  WsGmm         gmm;
  GArray       *samples;
  double        base_cut;
  double        prior_cut;
  double        pool_threshold;
  double        cut;
  double        threshold;
  guint         marked_components;
  guint         n_history;
  guint         n_current;
  guint         n_flagged_normal;
  guint         n_flagged_anomalous;
  GArray       *flags;
} WsAnomalyModel;

/**
 * WsWaitScore:
 * @event: the wait's event index in its trace
 * @model: index of its #WsAnomalyModel
 * @score: P(D ≥ d) under the model
 * @flag: the analyst's verdict, if any
 * @model_anomalous: d ≥ the signature's learned cut
 * @anomalous: the verdict shown: the flag if there is one, else the model's
 * @flag_wait_only: its flag judges this wait only (WS_ANOMALY_WAIT_ONLY_PREFIX)
 * @delay_caused: how long, in ns, it made other threads wait
 *   (ws_delay_caused(): 0 for an idle worker's, a daemon's or the
 *   recorder's wait)
 * @shown: among the anomalies shown by default: anomalous and either it
 *   delayed another thread or it is flagged
 */
typedef struct {
  guint          event;
  guint          model;
  double         score;
  WsAnomalyFlag  flag;
  gboolean       model_anomalous;
  gboolean       anomalous;
  gboolean       flag_wait_only;
  gint64         delay_caused;
  gboolean       shown;
} WsWaitScore;

void         ws_anomaly_settings_init     (WsAnomalySettings *settings);
const char  *ws_model_level_to_string     (WsModelLevel       level);
const char  *ws_anomaly_rule_to_string    (WsAnomalyRule      rule);
gboolean     ws_anomaly_rule_from_string  (const char        *name,
                                           WsAnomalyRule     *rule);

#define WS_TYPE_ANOMALY_RESULT (ws_anomaly_result_get_type ())
G_DECLARE_FINAL_TYPE (WsAnomalyResult, ws_anomaly_result, WS, ANOMALY_RESULT, GObject)

WsAnomalyResult *ws_anomaly_detect                (WsTrace * const          *traces,
                                                   const char * const       *digests,
                                                   guint                     n_traces,
                                                   WsHistoryStore           *store,
                                                   const WsAnomalySettings  *settings,
                                                   WsProgressFunc            progress,
                                                   gpointer                  progress_data,
                                                   GCancellable             *cancellable,
                                                   GError                  **error);
/**
 * WsWaitSample:
 * @signature: the wait's signature, an index into #WsWaitSampleSet's lists
 * @duration: its duration (ns)
 */
typedef struct {
  guint32 signature;
  gint64  duration;
} WsWaitSample;

/**
 * WsWaitSampleSet:
 * @depth: the signature depth they were taken at
 * @keys: (element-type utf8): each signature's key
 * @pools: (element-type utf8): each signature's pool
 * @samples: (element-type WsWaitSample): every scored wait, in event order
 *
 * What the anomaly models record of one trace: a trace digest keeps it.
 */
typedef struct {
  guint      depth;
  GPtrArray *keys;
  GPtrArray *pools;
  GArray    *samples;
} WsWaitSampleSet;

WsWaitSampleSet *ws_wait_sample_set_new           (guint                     depth);
void             ws_wait_sample_set_free          (WsWaitSampleSet          *set);
WsWaitSampleSet *ws_wait_sample_set_of_trace      (WsTrace                  *trace,
                                                   guint                     depth);
gboolean         ws_anomaly_record_samples        (WsHistoryStore           *store,
                                                   const WsWaitSampleSet    *set,
                                                   const char               *digest,
                                                   const WsAnomalySettings  *settings,
                                                   gboolean                 *newly_recorded,
                                                   GCancellable             *cancellable,
                                                   GError                  **error);
gboolean         ws_anomaly_record_trace          (WsHistoryStore           *store,
                                                   WsTrace                  *trace,
                                                   const char               *digest,
                                                   const WsAnomalySettings  *settings,
                                                   gboolean                 *newly_recorded,
                                                   GCancellable             *cancellable,
                                                   GError                  **error);
gboolean         ws_anomaly_fit_key               (WsHistoryStore           *store,
                                                   const char               *key,
                                                   const WsAnomalySettings  *settings,
                                                   WsAnomalyModel           *model,
                                                   GCancellable             *cancellable,
                                                   GError                  **error);
void             ws_anomaly_model_clear           (WsAnomalyModel           *model);

const WsAnomalySettings *ws_anomaly_result_get_settings (WsAnomalyResult *self);
guint            ws_anomaly_result_get_n_traces   (WsAnomalyResult          *self);
WsTrace         *ws_anomaly_result_get_trace      (WsAnomalyResult          *self,
                                                   guint                     trace);
const char      *ws_anomaly_result_get_digest     (WsAnomalyResult          *self,
                                                   guint                     trace);
guint            ws_anomaly_result_find_trace     (WsAnomalyResult          *self,
                                                   WsTrace                  *trace);
guint            ws_anomaly_result_get_n_models   (WsAnomalyResult          *self);
const WsAnomalyModel *ws_anomaly_result_get_model (WsAnomalyResult          *self,
                                                   guint                     model);
const WsWaitScore *ws_anomaly_result_get_scores   (WsAnomalyResult          *self,
                                                   guint                     trace,
                                                   guint                    *n_scores);
const WsWaitScore *ws_anomaly_result_lookup       (WsAnomalyResult          *self,
                                                   guint                     trace,
                                                   guint                     event);
guint            ws_anomaly_result_count_anomalous (WsAnomalyResult         *self,
                                                   guint                     trace);
guint            ws_anomaly_result_count_shown    (WsAnomalyResult          *self,
                                                   guint                     trace);
double           ws_wait_score_rank               (const WsWaitScore        *score);
gboolean         ws_anomaly_result_make_flag      (WsAnomalyResult          *self,
                                                   guint                     trace,
                                                   guint                     event,
                                                   WsAnomalyFlag             verdict,
                                                   WsWaitFlag               *flag);
/**
 * WsFlagReach:
 * @signature: the kind of the wait (owned by the result)
 * @n_to_anomalous: other unflagged waits of the kind, in every trace of
 *   the result, that the flag would make anomalous
 * @n_to_normal: … that it would make normal
 * @cut: the kind's cut after the flag (log-ns; %G_MAXDOUBLE: none)
 * @threshold: P(D ≥ exp(@cut)) after the flag
 */
typedef struct {
  const char *signature;
  guint       n_to_anomalous;
  guint       n_to_normal;
  double      cut;
  double      threshold;
} WsFlagReach;

gboolean         ws_anomaly_result_flag_reach     (WsAnomalyResult          *self,
                                                   guint                     trace,
                                                   guint                     event,
                                                   WsAnomalyFlag             verdict,
                                                   WsFlagReach              *reach);
guint            ws_anomaly_result_mark_ready_tree (WsAnomalyResult         *self,
                                                   guint                     trace,
                                                   WsReadyTree              *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWaitSampleSet, ws_wait_sample_set_free)

G_END_DECLS
