/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _WsReadyTree WsReadyTree;

/*
 * ws_ready_tree_cause_chain:
 * Returns: the chain (see ws_ready_tree_get_chain()) ending where the
 *   root wait's top cause was spent, or %WS_NONE (G_MAXUINT32) when no
 *   chain's leaf holds any of it; what %WS_CHAIN_METRIC_CAUSE ranks by
 */
guint ws_ready_tree_cause_chain (WsReadyTree *tree);

G_END_DECLS
