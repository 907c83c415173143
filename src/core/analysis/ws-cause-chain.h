/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-ready-tree.h"

G_BEGIN_DECLS

/*
 * ws_ready_tree_cause_chain:
 * Returns: the chain (see ws_ready_tree_get_chain()) ending where the
 *   root wait's top cause was spent, or %WS_NONE (G_MAXUINT32) when no
 *   chain's leaf holds any of it; what %WS_CHAIN_METRIC_CAUSE ranks by
 */
guint ws_ready_tree_cause_chain (WsReadyTree *tree);

/*
 * ws_ready_tree_anomalous_chain:
 * Returns: the chain with the largest @metric (%WS_CHAIN_METRIC_CAUSE:
 *   ws_ready_tree_cause_chain(), else the largest total); ties go to the
 *   lowest chain index.  %WS_NONE for an empty tree.
 */
guint ws_ready_tree_anomalous_chain (WsReadyTree   *tree,
                                     WsChainMetric  metric);

G_END_DECLS
