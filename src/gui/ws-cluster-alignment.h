/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-alignment-view.h"
#include "ws-clusterer.h"
#include "ws-mining-item.h"

G_BEGIN_DECLS

/*
 * WsClusterAlignment: the Mining page's alignment controller.  It drives
 * an alignment view and its caption: the selected cluster's patterns
 * aligned to its costliest (StackMine §VI), the selected pattern ringed;
 * it knows which pattern each column is, the frames marked for a
 * signature, and exports the figure.
 */
#define WS_TYPE_CLUSTER_ALIGNMENT (ws_cluster_alignment_get_type ())
G_DECLARE_FINAL_TYPE (WsClusterAlignment, ws_cluster_alignment, WS, CLUSTER_ALIGNMENT, GObject)

WsClusterAlignment *ws_cluster_alignment_new            (WsAlignmentView    *view,
                                                         GtkLabel           *caption);
void                ws_cluster_alignment_show           (WsClusterAlignment *self,
                                                         WsClusterSet       *clusters,
                                                         WsSimilarity       *similarity,
                                                         WsMiningItem       *item);
WsAlignmentGrid    *ws_cluster_alignment_get_grid       (WsClusterAlignment *self);
guint               ws_cluster_alignment_get_cluster    (WsClusterAlignment *self);
guint               ws_cluster_alignment_get_pattern    (WsClusterAlignment *self,
                                                         guint               column);
GArray             *ws_cluster_alignment_dup_marked     (WsClusterAlignment *self);
gboolean            ws_cluster_alignment_export         (WsClusterAlignment *self,
                                                         const char         *path,
                                                         GError            **error);

G_END_DECLS
