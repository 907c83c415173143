/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/* A rectangle of whole user pixels, batched per colour by the timeline. */
typedef struct {
  float x;
  float y;
  float w;
  float h;
} WsFillRect;

/* An image surface the batches are written into directly (see
 * ws-timeline-fill.c for why). */
typedef struct {
  guint32 *data;
  int      stride;          /* in pixels */
  double   scale;           /* device pixels per user pixel */
  double   tx, ty;          /* user -> device: (u + t) * scale */
  int      clip_x0, clip_y0, clip_x1, clip_y1;
} WsFillTarget;

gboolean ws_fill_target_init (WsFillTarget       *ft,
                              cairo_t            *cr);
void     ws_fill_rects_fast  (const WsFillTarget *ft,
                              GArray             *rects,
                              const WsColor      *colour,
                              guint               on,
                              guint               off,
                              double              phase_x);
void     ws_fill_rects_cairo (cairo_t            *cr,
                              GArray             *rects);

G_END_DECLS
