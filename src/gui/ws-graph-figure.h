/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-critical-path-view.h"
#include "ws-graph-view.h"

G_BEGIN_DECLS

/*
 * The graph page's export: a picture of what a view shows (PNG, SVG, PDF)
 * or the analysis behind it as data (DOT, JSON; see ws-graph-export.h),
 * chosen by the file's extension.
 */
gboolean ws_graph_figure_export_scene (WsGraphView        *view,
                                       WsGraphScene       *scene,
                                       const char         *path,
                                       GError            **error);
gboolean ws_graph_figure_export_path  (WsCriticalPathView *view,
                                       WsCriticalPath     *critical_path,
                                       const char         *path,
                                       GError            **error);

G_END_DECLS
