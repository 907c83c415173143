/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-clusterer.h"
#include "ws-mining-item.h"
#include "ws-similarity.h"

G_BEGIN_DECLS

/*
 * The Mining page's pattern list: a GtkColumnView of the clusters in
 * rank order (#, pattern, total, traces, events, average), each expanding
 * to its patterns, sortable by any column.  The rows are #WsMiningItem;
 * a pattern reads as its few most telling frames (StackMine's unigram
 * weight), the whole pattern in the tooltip.
 */
char               *ws_pattern_dup_label            (WsStackTable       *table,
                                                     WsSimilarity       *similarity,
                                                     const WsPattern    *pattern);
char               *ws_pattern_dup_cost             (double              ns);

GPtrArray          *ws_cluster_table_new_items      (WsClusterSet       *clusters,
                                                     WsSimilarity       *similarity,
                                                     GHashTable         *signed_patterns);
GtkSingleSelection *ws_cluster_table_setup          (GtkColumnView      *view,
                                                     GListModel         *roots);
void                ws_cluster_table_show_discriminative (GtkColumnView *view,
                                                          gboolean       show);
WsMiningItem       *ws_cluster_table_row_item       (GtkTreeListRow     *row);

G_END_DECLS
