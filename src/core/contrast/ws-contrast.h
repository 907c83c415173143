/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-awg.h"
#include "ws-frame-classifier.h"
#include "ws-instance-set.h"
#include "ws-progress.h"

G_BEGIN_DECLS

#define WS_CONTRAST_DEFAULT_K 5
/* Proposed thresholds when none are given: the median and the 90th
 * percentile of the instance durations. */
#define WS_CONTRAST_FAST_PERCENTILE 0.50
#define WS_CONTRAST_SLOW_PERCENTILE 0.90

/**
 * WsContrastRank:
 * @WS_CONTRAST_RANK_TOTAL: by P.C, the pattern's total cost in the slow
 *   class, highest first (the default: what the slow class lost to it)
 * @WS_CONTRAST_RANK_AVERAGE: by P.C/P.N, the average cost of its end
 *   node, as the paper ranks
 *
 * How contrast patterns are ranked; ties go to the other key.
 */
typedef enum {
  WS_CONTRAST_RANK_TOTAL,
  WS_CONTRAST_RANK_AVERAGE,
} WsContrastRank;

/**
 * WsContrastSettings:
 * @component: component regex (see #WsSignatures)
 * @widen: signatures are "function ← caller"
 * @k: longest path segment enumerated for meta-patterns (0 = 5)
 * @t_fast: instances lasting at most this are the fast class; <= 0: propose
 * @t_slow: instances lasting at least this are the slow class; <= 0: propose
 * @instances: the instances to classify by @t_fast / @t_slow, or %NULL
 * @fast: (nullable): with @slow, the classes given outright (for example
 *   by trace: a good and a bad recording); the thresholds then become the
 *   classes' median durations
 * @slow: (nullable): see @fast
 * @classifier: (nullable): for the wait graphs
 * @rank: a #WsContrastRank (0, the default, is by total cost)
 */
typedef struct {
  const char        *component;
  gboolean           widen;
  guint              k;
  WsTime             t_fast;
  WsTime             t_slow;
  WsInstanceSet     *instances;
  WsInstanceSet     *fast;
  WsInstanceSet     *slow;
  WsFrameClassifier *classifier;
  WsContrastRank     rank;
} WsContrastSettings;

/**
 * WsContrastPattern:
 * @w: sorted wait-signature set; @n_w its size
 * @u: sorted unwait-signature set; @n_u its size
 * @r: sorted running-signature set (running and hardware signatures); @n_r
 * @c: P.C, Σ of the end-node costs of the slow paths merged into it (ns)
 * @n: P.N, Σ of their occurrence counters
 * @c_max: the costliest single cost of its end nodes
 * @c_path_max: the costliest single execution of its whole path, in one
 *   wait graph: the delays of every thread along the chain, summed (see
 *   #WsAwgNode)
 * @high_impact: @c_path_max > T_slow (§5.2's automated rule, "one of its
 *   executions exceeds T_slow", judged on the whole path)
 * @slow_leaves: (element-type guint32): AWG_slow end nodes of its paths
 * @fast_leaves: (element-type guint32): AWG_fast full paths with the same
 *   Signature Set Tuple, if any (for highlighting)
 *
 * A contrast pattern: the Signature Set Tuple ⟨∪w, ∪u, ∪r⟩ of full paths of
 * AWG_slow holding a contrast meta-pattern, identical ones merged.
 */
typedef struct {
  WsSigId *w;
  WsSigId *u;
  WsSigId *r;
  guint    n_w;
  guint    n_u;
  guint    n_r;
  WsTime   c;
  guint64  n;
  WsTime   c_max;
  WsTime   c_path_max;
  gboolean high_impact;
  GArray  *slow_leaves;
  GArray  *fast_leaves;
} WsContrastPattern;

#define WS_TYPE_CONTRAST_RESULT (ws_contrast_result_get_type ())
G_DECLARE_FINAL_TYPE (WsContrastResult, ws_contrast_result, WS, CONTRAST_RESULT, GObject)

/*
 * ws_contrast_run:
 *
 * §4.2 end to end: classify, build AWG_fast and AWG_slow (Algorithm 1),
 * enumerate meta-patterns of path segments of length 1..k in both, select
 * the contrast meta-patterns (slow only, or (Ps.C/Ps.N)/(Pf.C/Pf.N) >
 * T_slow/T_fast), turn the slow full paths holding one into contrast
 * patterns, merge identical ones and rank them (by P.C, or by P.C/P.N as
 * the paper does: @settings->rank); then ITC, TTC and the coverage of the
 * top n % in that order (§5.2).
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 */
WsContrastResult *ws_contrast_run (const WsContrastSettings *settings,
                                   GCancellable             *cancellable,
                                   WsProgressFunc            progress,
                                   gpointer                  progress_data,
                                   GError                  **error);

WsAwg            *ws_contrast_result_get_awg_fast     (WsContrastResult *self);
WsAwg            *ws_contrast_result_get_awg_slow     (WsContrastResult *self);
WsSignatures     *ws_contrast_result_get_signatures   (WsContrastResult *self);
WsInstanceSet    *ws_contrast_result_get_fast         (WsContrastResult *self);
WsInstanceSet    *ws_contrast_result_get_slow         (WsContrastResult *self);
WsTime            ws_contrast_result_get_t_fast       (WsContrastResult *self);
WsTime            ws_contrast_result_get_t_slow       (WsContrastResult *self);
/* Whether the thresholds were proposed from the durations (none given). */
gboolean          ws_contrast_result_get_thresholds_proposed (WsContrastResult *self);
gboolean          ws_contrast_result_get_by_class     (WsContrastResult *self);
guint             ws_contrast_result_get_k            (WsContrastResult *self);
/* Meta-patterns: of AWG_fast, of AWG_slow, and the contrast ones. */
void              ws_contrast_result_get_meta_counts  (WsContrastResult *self,
                                                       guint            *n_fast,
                                                       guint            *n_slow,
                                                       guint            *n_contrast);
guint             ws_contrast_result_get_n_patterns   (WsContrastResult *self);
WsContrastRank    ws_contrast_result_get_rank         (WsContrastResult *self);
/* Patterns ranked, highest P.C (or P.C/P.N) first. */
const WsContrastPattern *ws_contrast_result_get_pattern (WsContrastResult *self,
                                                       guint             rank);
/* The first-ranked pattern, or %NULL when there is none (for overviews). */
const WsContrastPattern *ws_contrast_result_get_top_pattern (WsContrastResult *self);
/* Σ C of AWG_slow's roots before ReduceAWG: the component cost of the slow class. */
WsTime            ws_contrast_result_get_total_cost   (WsContrastResult *self);
double            ws_contrast_result_get_itc          (WsContrastResult *self);
double            ws_contrast_result_get_ttc          (WsContrastResult *self);
/* Coverage of the top @percent % patterns (1..100) over all patterns' C. */
double            ws_contrast_result_get_coverage     (WsContrastResult *self,
                                                       guint             percent);
/* Indices into the slow class of the instances the pattern occurs in,
 * ascending. (transfer full) (element-type guint32) */
GArray           *ws_contrast_result_dup_pattern_instances (WsContrastResult *self,
                                                       guint             rank);
/* "⟨{w…}, {u…}, {r…}⟩" (transfer full) */
char             *ws_contrast_result_format_pattern   (WsContrastResult *self,
                                                       const WsContrastPattern *pattern);
/* Whether @name is in the given set of @pattern (0 = w, 1 = u, 2 = r). */
gboolean          ws_contrast_pattern_has             (WsContrastResult *self,
                                                       const WsContrastPattern *pattern,
                                                       guint             set,
                                                       const char       *name);

/* "total" / "average", and back (FALSE for an unknown name). */
const char       *ws_contrast_rank_to_string          (WsContrastRank    rank);
gboolean          ws_contrast_rank_from_string        (const char       *name,
                                                       WsContrastRank   *rank);

G_END_DECLS
