/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A presentation screen: title, figure, note.  The figure used to be
 * scaled down until all of it fitted, which drew a ready tree's text at
 * about 7 px on a 1080p projector; now it is never drawn smaller than
 * readable (WS_SLIDE_MIN_TEXT_PX at 1080 px, scaled with the screen), and
 * a figure that is then too big is panned inside its region.  The title
 * and the note take the room their text needs, not fixed shares.
 */
#include "config.h"

#include "ws-slide-layout.h"

/**
 * ws_slide_layout_init:
 *
 * Sets the type sizes and the margin of a @width × @height screen (from
 * its height: a projector's room is read from afar), before the title's
 * and the note's heights are measured at those sizes.
 */
void
ws_slide_layout_init (WsSlideLayout *layout,
                      double         width,
                      double         height)
{
  *layout = (WsSlideLayout) {
    .margin = height / 36.0,
    .title_size = height / 24.0,
    .note_size = height / 40.0,
    .scale = 1.0,
  };
}

/**
 * ws_slide_layout_place:
 * @title_height: the title's height at @layout's title size
 * @note_height: the note's, 0 for none (capped at a fifth of the screen)
 * @figure_width, @figure_height: the figure's size in figure units
 *
 * Places the figure under the title and above the note, at the larger of
 * the scale that fits it and the smallest readable one.
 */
void
ws_slide_layout_place (WsSlideLayout *layout,
                       double         width,
                       double         height,
                       double         title_height,
                       double         note_height,
                       double         figure_width,
                       double         figure_height)
{
  double m = layout->margin, fit, readable;

  note_height = MIN (note_height, height / 5.0);
  layout->title_y = m;
  layout->figure_x = m;
  layout->figure_y = m + title_height + m / 2;
  layout->figure_w = MAX (width - 2 * m, 1);
  layout->note_y = height - m - note_height;
  layout->figure_h = MAX (layout->note_y - (note_height > 0 ? m / 2 : 0) - layout->figure_y, 1);
  if (figure_width <= 0 || figure_height <= 0)
    {
      layout->scale = 1.0;
      layout->overflows = FALSE;
      return;
    }
  fit = MIN (layout->figure_w / figure_width, layout->figure_h / figure_height);
  readable = WS_SLIDE_MIN_TEXT_PX * (height / 1080.0) / WS_FIGURE_BODY_TEXT_PX;
  layout->scale = MAX (fit, readable);
  layout->overflows = figure_width * layout->scale > layout->figure_w + 0.5 ||
                      figure_height * layout->scale > layout->figure_h + 0.5;
}

/**
 * ws_slide_layout_text_px:
 *
 * Returns: the figures' smallest body text on the screen, in pixels
 */
double
ws_slide_layout_text_px (const WsSlideLayout *layout)
{
  return WS_FIGURE_BODY_TEXT_PX * layout->scale;
}
