/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The smallest text a presented figure may show, in pixels on a screen
 * 1080 pixels high (scaled with the screen's height). */
#define WS_SLIDE_MIN_TEXT_PX 14.0

/* The smallest body text the view renderers draw in their figures
 * (graph node details, legends, axis labels: 8 pt at 96 dpi), in figure
 * units.  test-slide-layout reads the real figures' text and fails when a
 * renderer draws smaller. */
#define WS_FIGURE_BODY_TEXT_PX (8.0 * 96.0 / 72.0)

/**
 * WsSlideLayout:
 * @margin: around everything
 * @title_size: the title's type size (px)
 * @note_size: the note's type size (px)
 * @title_y: the title's top
 * @figure_x, @figure_y, @figure_w, @figure_h: the figure's region on the
 *   screen
 * @note_y: the note's top
 * @scale: figure units to screen pixels
 * @overflows: the figure at @scale is larger than its region: it is
 *   clipped to it and panned
 *
 * Where a presentation screen puts its title, figure and note.
 */
typedef struct {
  double   margin;
  double   title_size;
  double   note_size;
  double   title_y;
  double   figure_x;
  double   figure_y;
  double   figure_w;
  double   figure_h;
  double   note_y;
  double   scale;
  gboolean overflows;
} WsSlideLayout;

void   ws_slide_layout_init       (WsSlideLayout *layout,
                                   double         width,
                                   double         height);
void   ws_slide_layout_place      (WsSlideLayout *layout,
                                   double         width,
                                   double         height,
                                   double         title_height,
                                   double         note_height,
                                   double         figure_width,
                                   double         figure_height);
double ws_slide_layout_text_px    (const WsSlideLayout *layout);

G_END_DECLS
