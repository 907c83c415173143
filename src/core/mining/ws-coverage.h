/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-clusterer.h"
#include "ws-stack-db.h"

G_BEGIN_DECLS

/**
 * WsRanking:
 * @WS_RANKING_STACKMINE: signatures by decreasing coverage; inspect a
 *   stream holding the first signature not yet found, and so on
 * @WS_RANKING_RANDOM: streams in random order (the baseline)
 * @WS_RANKING_GREEDY_TOTAL: streams by decreasing total delay
 * @WS_RANKING_GREEDY_MAX: streams by decreasing longest single delay
 *
 * The four techniques of StackMine's Fig. 4 for choosing which trace
 * streams an analyst inspects.
 */
typedef enum {
  WS_RANKING_STACKMINE,
  WS_RANKING_RANDOM,
  WS_RANKING_GREEDY_TOTAL,
  WS_RANKING_GREEDY_MAX,
  WS_N_RANKINGS
} WsRanking;

#define WS_TYPE_COVERAGE (ws_coverage_get_type ())
G_DECLARE_FINAL_TYPE (WsCoverage, ws_coverage, WS, COVERAGE, GObject)

WsCoverage   *ws_coverage_new                    (WsStackDb       *db);
guint         ws_coverage_add_signature          (WsCoverage      *self,
                                                  const char      *name,
                                                  const WsFrameId *frames,
                                                  guint            n_frames);
guint         ws_coverage_get_n_signatures       (WsCoverage      *self);
const char   *ws_coverage_get_signature_name     (WsCoverage      *self,
                                                  guint            signature);
gint64        ws_coverage_get_total_delay        (WsCoverage      *self);
gint64        ws_coverage_get_signature_cost     (WsCoverage      *self,
                                                  guint            signature);
double        ws_coverage_get_signature_coverage (WsCoverage      *self,
                                                  guint            signature);
guint         ws_coverage_get_signature_n_streams(WsCoverage      *self,
                                                  guint            signature);
double        ws_coverage_get_coverage           (WsCoverage      *self,
                                                  const guint     *signatures,
                                                  guint            n_signatures);
double        ws_coverage_get_total_coverage     (WsCoverage      *self);

GArray       *ws_coverage_stream_order           (WsCoverage      *self,
                                                  WsRanking        ranking,
                                                  guint32          seed);
GArray       *ws_coverage_curve                  (WsCoverage      *self,
                                                  WsRanking        ranking,
                                                  guint            n_random_runs,
                                                  guint32          seed);
double        ws_coverage_streams_to_reach       (WsCoverage      *self,
                                                  WsRanking        ranking,
                                                  double           target,
                                                  guint            n_random_runs,
                                                  guint32          seed);

WsFrameId    *ws_coverage_cluster_common_frames  (WsClusterSet    *clusters,
                                                  guint            cluster,
                                                  guint           *n_frames);

const char   *ws_ranking_to_string               (WsRanking        ranking);

G_END_DECLS
