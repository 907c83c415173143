/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The flame graph's layout walk, shared by its Cairo and SVG back ends. */

#include "ws-flame-renderer.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsFlameBox:
 * @label: (nullable): the name as it fits the box (cut with "…"), or
 *   %NULL when no readable label fits
 */
typedef struct {
  guint       node;
  double      x;
  double      y;
  double      width;
  double      height;
  WsColor     color;
  guint       palette;
  const char *label;
} WsFlameBox;

typedef void (*WsFlameBoxFunc) (const WsFlameBox *box,
                                gpointer          data);

void   ws_flame_walk       (WsFlameRenderer   *self,
                            WsFlameTree       *tree,
                            const WsFlameView *view,
                            double             width,
                            double             height,
                            double             clip_top,
                            double             clip_bottom,
                            WsFlameBoxFunc     func,
                            gpointer           data);
double ws_flame_char_width (WsFlameRenderer   *self);
gboolean ws_flame_write_svg (const char         *path,
                             const WsFlameGraph *graph,
                             const WsFlameView  *view,
                             const char         *title,
                             const char         *search_status,
                             double              width,
                             GError            **error);

G_END_DECLS
