/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-miner.h"
#include "ws-progress.h"
#include "ws-similarity.h"

G_BEGIN_DECLS

/**
 * WsLinkage:
 * @WS_LINKAGE_AVERAGE: similarity of two clusters = mean pairwise
 *   similarity of their patterns (UPGMA)
 * @WS_LINKAGE_COMPLETE: the smallest pairwise similarity
 * @WS_LINKAGE_SINGLE: the largest pairwise similarity
 */
typedef enum {
  WS_LINKAGE_AVERAGE,
  WS_LINKAGE_COMPLETE,
  WS_LINKAGE_SINGLE,
} WsLinkage;

/**
 * WsClusterRank:
 * @WS_CLUSTER_RANK_TOTAL: Cost_total(CCP), decreasing
 * @WS_CLUSTER_RANK_STREAMS: Num_trace_stream(CCP), decreasing
 * @WS_CLUSTER_RANK_EVENTS: Num_event(CCP), decreasing
 * @WS_CLUSTER_RANK_AVERAGE: Cost_average(CCP), decreasing
 * @WS_CLUSTER_RANK_DISCRIMINATIVE: how much more the cluster costs a slow
 *   trace than a fast one (#WsCluster.discriminative), decreasing
 *
 * The four metrics of StackMine §II.B an analyst ranks clusters by, and
 * the fleet's discriminative score.
 */
typedef enum {
  WS_CLUSTER_RANK_TOTAL,
  WS_CLUSTER_RANK_STREAMS,
  WS_CLUSTER_RANK_EVENTS,
  WS_CLUSTER_RANK_AVERAGE,
  WS_CLUSTER_RANK_DISCRIMINATIVE,
} WsClusterRank;

/**
 * WsCluster:
 * @patterns: indices into the #WsPatternSet, by decreasing pattern cost
 * @n_patterns: their number
 * @total_cost: Cost_total: the summed cost of the events whose stack
 *   contains at least one of the patterns (each event once)
 * @n_streams: Num_trace_stream: trace streams with such an event
 * @n_events: Num_event: the number of such events
 * @average_cost: Cost_average = @total_cost / @n_events (ns)
 * @support: the #WsStackDb entries holding those events, sorted
 * @n_support: their number
 * @merge_similarity: the linkage similarity at which the cluster's last
 *   merge happened (1 for a single pattern)
 */
typedef struct {
  guint   *patterns;
  guint    n_patterns;
  gint64   total_cost;
  guint    n_streams;
  guint64  n_events;
  double   average_cost;
  guint32 *support;
  guint    n_support;
  double   merge_similarity;
  gint64   discriminative;
} WsCluster;

typedef struct _WsClusterSet WsClusterSet;

#define WS_TYPE_CLUSTER_SET (ws_cluster_set_get_type ())
GType             ws_cluster_set_get_type          (void) G_GNUC_CONST;

WsClusterSet     *ws_cluster_set_ref               (WsClusterSet    *self);
void              ws_cluster_set_unref             (WsClusterSet    *self);
WsPatternSet     *ws_cluster_set_get_pattern_set   (WsClusterSet    *self);
double            ws_cluster_set_get_threshold     (WsClusterSet    *self);
guint             ws_cluster_set_get_n_clusters    (WsClusterSet    *self);
const WsCluster  *ws_cluster_set_get_cluster       (WsClusterSet    *self,
                                                    guint            index);
void              ws_cluster_set_rank              (WsClusterSet    *self,
                                                    WsClusterRank    rank);
void              ws_cluster_set_set_discriminative (WsClusterSet   *self,
                                                    guint            index,
                                                    gint64           discriminative);
guint             ws_cluster_set_find_pattern      (WsClusterSet    *self,
                                                    guint            pattern);

double           *ws_clusterer_similarities        (WsPatternSet    *patterns,
                                                    WsSimilarity    *similarity,
                                                    GCancellable    *cancellable,
                                                    WsProgressFunc   progress,
                                                    gpointer         progress_data,
                                                    GError         **error);
guint            *ws_clusterer_agglomerate         (double          *matrix,
                                                    guint            n,
                                                    double           threshold,
                                                    WsLinkage        linkage,
                                                    double          *merge_similarity);
WsClusterSet     *ws_clusterer_cluster             (WsPatternSet    *patterns,
                                                    WsSimilarity    *similarity,
                                                    double           threshold,
                                                    WsLinkage        linkage,
                                                    GCancellable    *cancellable,
                                                    WsProgressFunc   progress,
                                                    gpointer         progress_data,
                                                    GError         **error);

const char       *ws_cluster_rank_to_string        (WsClusterRank    rank);
gboolean          ws_cluster_rank_from_string      (const char      *str,
                                                    WsClusterRank   *rank);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsClusterSet, ws_cluster_set_unref)

G_END_DECLS
