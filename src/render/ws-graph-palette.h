/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-graph-scene.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsGraphPalette:
 *
 * Every colour of the graph view.  Run, sleep (S) and disk (D) are the
 * timeline's, so that a wait looks the same in both views.
 */
typedef struct {
  WsColor background;
  WsColor band;               /* every other layer */
  WsColor header_background;
  WsColor foreground;
  WsColor dim_foreground;
  WsColor edge;
  WsColor run;
  WsColor sleep;
  WsColor disk;
  WsColor hardware;
  WsColor timer;
  WsColor unknown;
  WsColor anomalous;
  WsColor search_match;
  WsColor current_match;
  WsColor selection;
} WsGraphPalette;

void ws_graph_palette_init_light (WsGraphPalette *palette);
void ws_graph_palette_init_dark  (WsGraphPalette *palette);
const WsColor *ws_graph_palette_node_color (const WsGraphPalette *palette,
                                            const WsSceneNode    *node);

G_END_DECLS
