/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Drawing helpers the renderers share: colours from 0xRRGGBB, a colour as
 * Cairo's source, one-line labels laid out with the same metrics on
 * screen, in a PDF and in a test, their measure, and legends' flow.
 */

#include <cairo.h>
#include <pango/pango.h>

#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/* Inline: the renderers call these per rectangle. */
static inline WsColor
ws_render_rgb (guint32 hex,
               double  alpha)
{
  WsColor c = { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, alpha };
  return c;
}

static inline void
ws_render_set_source (cairo_t       *cr,
                      const WsColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

/**
 * WsRenderFlow:
 *
 * Items laid out left to right, wrapping to a new line (6 px under the
 * tallest item so far) when the next one would pass the right edge: the
 * legends of the timeline and of the critical path.
 */
typedef struct {
  double x0;
  double y0;
  double width;
  double x;
  double y;
  double line_height;
} WsRenderFlow;

void          ws_render_flow_init         (WsRenderFlow               *flow,
                                           double                      x,
                                           double                      y,
                                           double                      width);
void          ws_render_flow_place        (WsRenderFlow               *flow,
                                           double                      item_width,
                                           double                      item_height,
                                           double                     *x,
                                           double                     *y);
double        ws_render_flow_get_height   (const WsRenderFlow         *flow);
void          ws_render_measure_text      (PangoLayout                *layout,
                                           const char                 *text,
                                           int                        *width,
                                           int                        *height);

PangoContext *ws_render_label_context_new (void);

/**
 * WsRenderText:
 *
 * How a renderer lays out its labels: the context (a widget's, to follow
 * the desktop's font settings, or one made on first use by
 * ws_render_label_context_new()), the font, and a scratch layout for
 * text measured or drawn once.
 */
typedef struct {
  PangoContext         *context;
  PangoFontDescription *font;
  PangoLayout          *scratch;
} WsRenderText;

void          ws_render_text_init         (WsRenderText               *text,
                                           const char                 *font);
void          ws_render_text_clear        (WsRenderText               *text);
gboolean      ws_render_text_set_context  (WsRenderText               *text,
                                           PangoContext               *context);
gboolean      ws_render_text_set_font     (WsRenderText               *text,
                                           const PangoFontDescription *font);
PangoLayout  *ws_render_text_new_layout   (WsRenderText               *text);
PangoLayout  *ws_render_text_get_scratch  (WsRenderText               *text);
PangoContext *ws_render_figure_context_new (void);
void          ws_render_show_label        (cairo_t                    *cr,
                                           PangoLayout                *layout,
                                           const PangoFontDescription *font,
                                           const char                 *text,
                                           double                      x,
                                           double                      y,
                                           double                      max_width,
                                           gboolean                    right_aligned,
                                           gboolean                    bold,
                                           gboolean                    round_y);

G_END_DECLS
