/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "ws-render-util.h"

/* A Pango context whose metrics do not depend on the target: a PDF, the
 * screen and a test lay out the same labels at the same widths. */
PangoContext *
ws_render_label_context_new (void)
{
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  cairo_font_options_t *options = cairo_font_options_create ();
  PangoContext *context = pango_font_map_create_context (map);

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (context, options);
  pango_cairo_context_set_resolution (context, 96);
  cairo_font_options_destroy (options);
  return context;
}

void
ws_render_text_init (WsRenderText *text,
                     const char   *font)
{
  *text = (WsRenderText) { NULL, pango_font_description_from_string (font), NULL };
}

void
ws_render_text_clear (WsRenderText *text)
{
  g_clear_object (&text->scratch);
  g_clear_object (&text->context);
  g_clear_pointer (&text->font, pango_font_description_free);
}

/* Returns: TRUE if @context is new, and so the layouts made with the
 * old one are stale (the scratch layout is dropped here). */
gboolean
ws_render_text_set_context (WsRenderText *text,
                            PangoContext *context)
{
  if (!g_set_object (&text->context, context))
    return FALSE;
  g_clear_object (&text->scratch);
  return TRUE;
}

/* Returns: TRUE if @font differs from the one before (the scratch layout
 * is dropped here). */
gboolean
ws_render_text_set_font (WsRenderText               *text,
                         const PangoFontDescription *font)
{
  if (pango_font_description_equal (font, text->font))
    return FALSE;
  pango_font_description_free (text->font);
  text->font = pango_font_description_copy (font);
  g_clear_object (&text->scratch);
  return TRUE;
}

/* A new layout in the text's context and font. */
PangoLayout *
ws_render_text_new_layout (WsRenderText *text)
{
  PangoLayout *layout;

  if (text->context == NULL)
    text->context = ws_render_label_context_new ();
  layout = pango_layout_new (text->context);
  pango_layout_set_font_description (layout, text->font);
  return layout;
}

PangoLayout *
ws_render_text_get_scratch (WsRenderText *text)
{
  if (text->scratch == NULL)
    text->scratch = ws_render_text_new_layout (text);
  return text->scratch;
}

/* The context of the mining figures (alignment, coverage): unhinted
 * metrics too, and greyscale antialiasing, which a PNG, a PDF and the
 * screen render alike. */
PangoContext *
ws_render_figure_context_new (void)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  pango_cairo_context_set_font_options (context, options);
  cairo_font_options_destroy (options);
  return context;
}

/*
 * ws_render_show_label:
 * @layout: a scratch layout set to @font; left set to @font on return
 * @y: the label's vertical centre (rounded to a whole pixel if @round_y)
 * @max_width: ellipsize past this width; 0 for no limit
 *
 * Draws @text in @layout from x (or ending at x if @right_aligned).
 */
void
ws_render_show_label (cairo_t                    *cr,
                      PangoLayout                *layout,
                      const PangoFontDescription *font,
                      const char                 *text,
                      double                      x,
                      double                      y,
                      double                      max_width,
                      gboolean                    right_aligned,
                      gboolean                    bold,
                      gboolean                    round_y)
{
  double top;
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (layout, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  if (bold)
    {
      PangoFontDescription *bold_font = pango_font_description_copy (font);
      pango_font_description_set_weight (bold_font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (layout, bold_font);
      pango_font_description_free (bold_font);
    }
  pango_layout_get_pixel_size (layout, &w, &h);
  top = y - h / 2.0;
  cairo_move_to (cr, right_aligned ? x - w : x, round_y ? round (top) : top);
  pango_cairo_show_layout (cr, layout);
  if (bold)
    pango_layout_set_font_description (layout, font);
}

/* The size of @text on one line, neither wrapped nor ellipsized. */
void
ws_render_measure_text (PangoLayout *layout,
                        const char  *text,
                        int         *width,
                        int         *height)
{
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, width, height);
}

void
ws_render_flow_init (WsRenderFlow *flow,
                     double        x,
                     double        y,
                     double        width)
{
  *flow = (WsRenderFlow) { x, y, width, x, y, 0 };
}

/* Where the next item goes; the first item of a line never wraps. */
void
ws_render_flow_place (WsRenderFlow *flow,
                      double        item_width,
                      double        item_height,
                      double       *x,
                      double       *y)
{
  flow->line_height = MAX (flow->line_height, item_height);
  if (flow->x > flow->x0 && flow->x + item_width > flow->x0 + flow->width)
    {
      flow->x = flow->x0;
      flow->y += flow->line_height + 6;
    }
  *x = flow->x;
  *y = flow->y;
  flow->x += item_width;
}

/* The height the items took, from the first line's top. */
double
ws_render_flow_get_height (const WsRenderFlow *flow)
{
  return flow->y + flow->line_height - flow->y0;
}
