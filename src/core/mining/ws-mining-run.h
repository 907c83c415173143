/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-aoi.h"
#include "ws-clusterer.h"
#include "ws-coverage.h"
#include "ws-digest.h"
#include "ws-history-store.h"
#include "ws-miner.h"
#include "ws-progress.h"
#include "ws-similarity.h"
#include "ws-trace-classes.h"

G_BEGIN_DECLS

/**
 * WsMiningRunScope:
 * @WS_MINING_RUN_SCOPE_ALL: every event of each trace; a stream per trace
 * @WS_MINING_RUN_SCOPE_INSTANCES: each scenario instance's thread in its
 *   window
 * @WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS: the wait graph (or critical path)
 *   of each scenario instance
 * @WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH: the wait graph (or critical path) of
 *   one symptom in one of the traces
 *
 * @WS_MINING_RUN_SCOPE_DELAYING: every running sample and the waits that
 *   delayed another thread (ws_aoi_scope_delaying()); a stream per trace.
 *   The default of ws_mining_settings_init(), so of `waitscope-cli mine`
 *   and `cluster` and of the Mining page: the waits it
 *   leaves out (idle loops, daemons waiting for work) are counted in
 *   #WsMiningResult
 *
 * The scope-based extraction of StackMine §IV.
 */
typedef enum {
  WS_MINING_RUN_SCOPE_ALL,
  WS_MINING_RUN_SCOPE_INSTANCES,
  WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS,
  WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH,
  WS_MINING_RUN_SCOPE_DELAYING,
} WsMiningRunScope;

/**
 * WsMiningWeights:
 * @WS_MINING_WEIGHTS_NONE: not clustered
 * @WS_MINING_WEIGHTS_HISTORY: every trace recorded in the history store
 * @WS_MINING_WEIGHTS_LOADED_TRACES: every waiting and sampled stack of the
 *   traces mined (no usable history store)
 *
 * Where the similarity's function weights came from.
 */
typedef enum {
  WS_MINING_WEIGHTS_NONE,
  WS_MINING_WEIGHTS_HISTORY,
  WS_MINING_WEIGHTS_LOADED_TRACES,
} WsMiningWeights;

/**
 * WsMiningSettings:
 * @stacks: waiting or sampled running stacks
 * @must: (nullable) (array zero-terminated=1): a stack must have a frame
 *   matching each of these ("function (module)")
 * @must_not: (nullable) (array zero-terminated=1): and none matching these
 * @thread_names: (nullable): only threads whose name matches (caseless)
 * @tids: (nullable) (array length=n_tids): only these thread ids
 * @scope: which events make the area of interest
 * @scenario: (nullable): the instance scopes' scenario; %NULL for all
 * @per_instance: instance scopes: a stream per instance (its delay its
 *   duration), else one per trace (the instances' union, their summed
 *   durations its delay)
 * @critical_path: graph scopes: only the critical path's waits
 * @symptom_trace: %WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH: the trace's index
 * @symptom: %WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH: the window
 * @lambda: the cost threshold λ (ns); 0 for the paper's guideline:
 * @lambda_share: …this share of the streams…
 * @lambda_delay: …times this delay per stream (0: the streams' mean delay)
 * @cluster: cluster the patterns (StackMine §VI)
 * @threshold: the similarity below which clusters are not merged
 * @linkage: how clusters' similarities combine
 * @rank: the metric clusters are ranked by
 * @history_path: (nullable): the history store; %NULL for the default
 * @read_history: weight functions by the history store
 * @record_history: record the traces in it (else it is only read, and not
 *   created when missing)
 * @signatures: (nullable) (array zero-terminated=1): performance
 *   signatures, each "F1,F2,…" (function names, caller first), whose
 *   bottleneck coverage to compute
 * @by_cause: %WS_MINING_RUN_SCOPE_DELAYING only: mine, instead of the
 *   waits, what kept the delayed threads waiting — each such wait charged
 *   to the stacks of its readier meanwhile, followed through the readier's
 *   own waits (ws_aoi_extract_causes()); a pattern's cost is then the
 *   delay it propagated
 * @classes: (nullable) (array): one #WsRunClass per trace: with both
 *   classes present every pattern and cluster gets its discriminative
 *   score, and %WS_CLUSTER_RANK_DISCRIMINATIVE orders the patterns by it
 *   (and takes λ's guideline over the slow traces' streams only)
 *
 * What a mining run does.  Strings are borrowed for the run's duration.
 */
typedef struct {
  WsAoiStacks         stacks;
  const char *const  *must;
  const char *const  *must_not;
  const char         *thread_names;
  const gint32       *tids;
  guint               n_tids;
  WsMiningRunScope    scope;
  const char         *scenario;
  gboolean            per_instance;
  gboolean            critical_path;
  guint               symptom_trace;
  WsSymptom           symptom;
  gint64              lambda;
  double              lambda_share;
  gint64              lambda_delay;
  gboolean            cluster;
  double              threshold;
  WsLinkage           linkage;
  WsClusterRank       rank;
  const char         *history_path;
  gboolean            read_history;
  gboolean            record_history;
  const char *const  *signatures;
  const WsRunClass *classes;
  gboolean            by_cause;
} WsMiningSettings;

/**
 * WsMiningResult:
 * @traces: (element-type WsTrace): the traces mined, in order
 * @db: the area of interest, one stream per trace or instance, over a
 *   stack table of its own (mining never touches a trace's table)
 * @patterns: the costly maximal patterns, costliest first
 * @lambda: the λ used
 * @total_delay: the streams' summed delay
 * @similarity: (nullable): the similarity clustered with
 * @clusters: (nullable): the clusters, ranked
 * @weights: where @similarity's weights came from
 * @history: (nullable): the history store used
 * @n_recorded: traces newly recorded in it
 * @warnings: (element-type utf8): what went wrong without stopping the
 *   run (the history store could not be opened, read or written)
 * @coverage: (nullable): the signatures' bottleneck coverage
 * @elapsed_us: the run's wall-clock time
 * @n_left_out: %WS_MINING_RUN_SCOPE_DELAYING: the waits left out (they
 *   delayed no other thread)
 * @left_out_time: their summed time (ns)
 * @stream_traces: (element-type guint): each stream's trace index
 * @discriminative: the patterns and clusters carry discriminative scores
 * @digest: (nullable): the digest mined (ws_mining_run_digest()); @traces
 *   is then empty
 * @n_traces: the number of traces mined (of @traces, or of @digest)
 *
 * What a run found; reference counted, read-only once returned.
 */
typedef struct {
  /*< private >*/
  grefcount        ref_count;
  /*< public >*/
  GPtrArray       *traces;
  WsStackDb       *db;
  WsPatternSet    *patterns;
  gint64           lambda;
  gint64           total_delay;
  WsSimilarity    *similarity;
  WsClusterSet    *clusters;
  WsMiningWeights  weights;
  WsHistoryStore  *history;
  guint            n_recorded;
  GPtrArray       *warnings;
  WsCoverage      *coverage;
  gint64           elapsed_us;
  guint64          n_left_out;
  gint64           left_out_time;
  GArray          *stream_traces;
  gboolean         discriminative;
  WsDigest        *digest;
  guint            n_traces;
} WsMiningResult;

void            ws_mining_settings_init  (WsMiningSettings        *settings);
gboolean        ws_mining_settings_check (const WsMiningSettings  *settings,
                                          GError                 **error);

WsMiningResult *ws_mining_run            (GPtrArray               *traces,
                                          const WsMiningSettings  *settings,
                                          GCancellable            *cancellable,
                                          WsProgressFunc           progress,
                                          gpointer                 progress_data,
                                          GError                 **error);
WsMiningResult *ws_mining_run_digest     (WsDigest                *digest,
                                          const WsMiningSettings  *settings,
                                          GCancellable            *cancellable,
                                          WsProgressFunc           progress,
                                          gpointer                 progress_data,
                                          GError                 **error);
gboolean        ws_mining_settings_fit_digest
                                         (const WsMiningSettings  *settings,
                                          GError                 **error);
WsDigestArea    ws_mining_settings_digest_area
                                         (const WsMiningSettings  *settings);
const char     *ws_mining_result_get_trace_path
                                         (WsMiningResult          *result,
                                          guint                    index);
WsMiningResult *ws_mining_result_ref     (WsMiningResult          *result);
void            ws_mining_result_unref   (WsMiningResult          *result);
const char     *ws_mining_weights_to_string
                                         (WsMiningWeights          weights);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMiningResult, ws_mining_result_unref)

G_END_DECLS
