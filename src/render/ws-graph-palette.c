/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The graph view's colours, light and dark (why some are the timeline's:
 * WsGraphPalette in ws-graph-palette.h).
 */
#include "config.h"

#include "ws-graph-palette.h"
#include "ws-render-util.h"


static void
from_timeline (WsGraphPalette          *p,
               const WsTimelinePalette *t)
{
  p->background = t->background;
  p->header_background = t->header_background;
  p->foreground = t->foreground;
  p->dim_foreground = t->dim_foreground;
  p->run = t->states[WS_THREAD_STATE_RUN];
  p->sleep = t->states[WS_THREAD_STATE_SLEEP];
  p->disk = t->states[WS_THREAD_STATE_DISK];
  p->search_match = t->search_match;
}

void
ws_graph_palette_init_light (WsGraphPalette *p)
{
  WsTimelinePalette t;

  g_return_if_fail (p != NULL);

  ws_timeline_palette_init_light (&t);
  from_timeline (p, &t);
  p->band = ws_render_rgb (0x000000, 0.035);
  p->edge = ws_render_rgb (0x3d3846, 0.55);
  p->hardware = ws_render_rgb (0x813d9c, 1);
  p->timer = ws_render_rgb (0x865e3c, 1);
  p->unknown = ws_render_rgb (0x77767b, 1);
  p->anomalous = ws_render_rgb (0xe01b24, 1);
  p->search_match = ws_render_rgb (0xf6d32d, 0.85);
  p->current_match = ws_render_rgb (0xff7800, 1);
  /* Not the accent: S waits are already blue. */
  p->selection = ws_render_rgb (0x241f31, 1);
}

void
ws_graph_palette_init_dark (WsGraphPalette *p)
{
  WsTimelinePalette t;

  g_return_if_fail (p != NULL);

  ws_timeline_palette_init_dark (&t);
  from_timeline (p, &t);
  p->band = ws_render_rgb (0xffffff, 0.04);
  p->edge = ws_render_rgb (0xdeddda, 0.50);
  p->hardware = ws_render_rgb (0xc061cb, 1);
  p->timer = ws_render_rgb (0xcdab8f, 1);
  p->unknown = ws_render_rgb (0x9a9996, 1);
  p->anomalous = ws_render_rgb (0xff7b63, 1);
  p->search_match = ws_render_rgb (0xf6d32d, 0.60);
  p->current_match = ws_render_rgb (0xffa348, 1);
  p->selection = ws_render_rgb (0xffffff, 1);
}

/* The fill colour of a node: its kind, and for a wait whether on disk. */
const WsColor *
ws_graph_palette_node_color (const WsGraphPalette *palette,
                             const WsSceneNode    *n)
{
  switch ((WsSceneNodeKind) n->kind)
    {
    case WS_SCENE_NODE_RUN:      return &palette->run;
    case WS_SCENE_NODE_WAIT:     return (n->flags & WS_SCENE_NODE_FLAG_DISK) ? &palette->disk
                                                                        : &palette->sleep;
    case WS_SCENE_NODE_HARDWARE: return &palette->hardware;
    case WS_SCENE_NODE_TIMER:    return &palette->timer;
    case WS_SCENE_NODE_UNKNOWN:
    case WS_N_SCENE_NODE_KINDS:
    default:                     return &palette->unknown;
    }
}
