/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-alignment-grid.h"
#include "ws-clusterer.h"

G_BEGIN_DECLS

/* Columns of an alignment: more is unreadable (the cluster table and the
 * CLI's text list them all). */
#define WS_CLUSTER_GRID_MAX_PATTERNS 24

WsAlignmentGrid *ws_cluster_grid_new (WsClusterSet *clusters,
                                      WsSimilarity *similarity,
                                      guint         cluster,
                                      guint       **columns);

G_END_DECLS
