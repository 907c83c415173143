/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-progress.h"
#include "ws-stack-db.h"

G_BEGIN_DECLS

/**
 * WsPattern:
 * @frames: the pattern, caller first: a (not necessarily contiguous)
 *   subsequence of every stack in @support
 * @n_frames: its length
 * @cost: Cost(CP) of StackMine Def. 5: the summed cost of all events whose
 *   stack contains the pattern
 * @n_events: the number of those events
 * @n_streams: the number of trace streams they come from
 * @support: the #WsStackDb entries whose stack contains the pattern, sorted
 * @n_support: their number
 * @discriminative: with classes of traces, how much more the pattern
 *   costs a slow trace than a fast one on average (ns; see
 *   ws_mining_run()), else 0
 */
typedef struct {
  WsFrameId *frames;
  guint      n_frames;
  gint64     cost;
  guint64    n_events;
  guint      n_streams;
  guint32   *support;
  guint      n_support;
  gint64     discriminative;
} WsPattern;

/**
 * WsMinerStats:
 * @n_sequences: distinct sequences mined, after dropping frames cheaper
 *   than λ and merging the stacks that became identical
 * @n_items: distinct frames with cost >= λ
 * @n_nodes: prefixes visited by the depth-first search
 * @n_backscan_pruned: prefixes pruned by BackScan
 * @n_forced: prefixes whose every stack continues with the same frame,
 *   descended into without counting (see ws-miner.c)
 * @n_candidates: prefixes without a costly forward extension, checked
 *   for backward extensions
 * @n_maximal: patterns output
 */
typedef struct {
  guint   n_sequences;
  guint   n_items;
  guint64 n_nodes;
  guint64 n_backscan_pruned;
  guint64 n_forced;
  guint64 n_candidates;
  guint   n_maximal;
} WsMinerStats;

typedef struct _WsPatternSet WsPatternSet;

#define WS_TYPE_PATTERN_SET (ws_pattern_set_get_type ())
GType            ws_pattern_set_get_type        (void) G_GNUC_CONST;

WsPatternSet    *ws_pattern_set_new             (WsStackDb        *db,
                                                 gint64            lambda);
WsPatternSet    *ws_pattern_set_ref             (WsPatternSet     *self);
void             ws_pattern_set_unref           (WsPatternSet     *self);
WsStackDb       *ws_pattern_set_get_stack_db    (WsPatternSet     *self);
gint64           ws_pattern_set_get_lambda      (WsPatternSet     *self);
guint            ws_pattern_set_get_n_patterns  (WsPatternSet     *self);
const WsPattern *ws_pattern_set_get_pattern     (WsPatternSet     *self,
                                                 guint             index);
const WsMinerStats *ws_pattern_set_get_stats    (WsPatternSet     *self);
guint            ws_pattern_set_add_pattern     (WsPatternSet     *self,
                                                 const WsFrameId  *frames,
                                                 guint             n_frames);
void             ws_pattern_set_sort            (WsPatternSet     *self);
void             ws_pattern_set_sort_discriminative
                                                (WsPatternSet     *self);
void             ws_pattern_set_set_discriminative
                                                (WsPatternSet     *self,
                                                 guint             index,
                                                 gint64            discriminative);
WsPatternSet    *ws_pattern_set_copy_top        (WsPatternSet     *self,
                                                 guint             n);
char            *ws_pattern_format              (const WsPattern  *pattern,
                                                 WsStackTable     *table,
                                                 const char       *separator);

gboolean         ws_frames_is_subsequence       (const WsFrameId  *pattern,
                                                 guint             n_pattern,
                                                 const WsFrameId  *stack,
                                                 guint             n_stack);

WsPatternSet    *ws_miner_mine                  (WsStackDb        *db,
                                                 gint64            lambda,
                                                 GCancellable     *cancellable,
                                                 WsProgressFunc    progress,
                                                 gpointer          progress_data,
                                                 GError          **error);

gint64           ws_miner_lambda_from_guideline (double            share_of_traces,
                                                 gint64            delay_per_trace,
                                                 guint             n_traces);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPatternSet, ws_pattern_set_unref)

G_END_DECLS
