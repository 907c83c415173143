/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A flame graph as a figure: a title band (what was folded, the total,
 * the search's share) over the graph at its full height.  PNG and PDF go
 * through ws_export_draw(); SVG is written by ws-flame-svg.c so that its
 * frames are elements with their names, as flame-graph users expect.
 */
#include "config.h"

#include <pango/pangocairo.h>

#include "ws-flame-renderer-private.h"
#include "ws-render-util.h"

#define MARGIN 10.0
#define TITLE_BAND 44.0

typedef struct {
  const WsFlameGraph *graph;
  const WsFlameView  *view;
  const char         *title;
  const char         *search_status;
} Figure;

static void
draw_figure (cairo_t  *cr,
             double    width,
             double    height,
             gpointer  user_data)
{
  Figure *f = user_data;
  g_autoptr(WsFlameRenderer) renderer = ws_flame_renderer_new ();
  g_autoptr(GObject) context_object = G_OBJECT (ws_render_figure_context_new ());
  PangoContext *context = PANGO_CONTEXT (context_object);
  g_autoptr(GObject) layout_object = G_OBJECT (pango_layout_new (context));
  PangoLayout *layout = PANGO_LAYOUT (layout_object);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 10");
  double graph_height = height - TITLE_BAND - MARGIN;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  pango_cairo_update_context (cr, context);
  pango_layout_set_font_description (layout, font);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  ws_render_show_label (cr, layout, font, f->title ? f->title : "", MARGIN, 14, width - 2 * MARGIN,
                        FALSE, TRUE, FALSE);
  if (f->search_status != NULL)
    ws_render_show_label (cr, layout, font, f->search_status, MARGIN, 32, width - 2 * MARGIN,
                          FALSE, FALSE, FALSE);
  pango_font_description_free (font);
  cairo_save (cr);
  cairo_translate (cr, MARGIN, TITLE_BAND);
  cairo_rectangle (cr, 0, 0, width - 2 * MARGIN, graph_height);
  cairo_clip (cr);
  ws_flame_renderer_draw (renderer, cr, f->graph->tree, f->view, width - 2 * MARGIN, graph_height);
  cairo_restore (cr);
}

/* The figure's height at any width: the title band and every row. */
double
ws_flame_figure_height (const WsFlameGraph *graph)
{
  g_autoptr(WsFlameRenderer) renderer = ws_flame_renderer_new ();

  return TITLE_BAND + ws_flame_renderer_graph_height (renderer, graph->tree) + MARGIN;
}

/**
 * ws_flame_export:
 * @title: (nullable): the title band's first line (ws_flame_graph_title())
 * @search_status: (nullable): its second, e.g. "Matched: 12.5 %"
 * @width: in points (pixels for PNG)
 *
 * Returns: %FALSE with @error naming @path if it could not be written
 */
gboolean
ws_flame_export (const char         *path,
                 WsExportFormat      format,
                 const WsFlameGraph *graph,
                 const WsFlameView  *view,
                 const char         *title,
                 const char         *search_status,
                 double              width,
                 GError            **error)
{
  Figure f = { graph, view, title, search_status };

  g_return_val_if_fail (path != NULL && graph != NULL && view != NULL, FALSE);

  if (format == WS_EXPORT_SVG)
    return ws_flame_write_svg (path, graph, view, title, search_status, width, error);
  return ws_export_draw (path, format, width, ws_flame_figure_height (graph), draw_figure, &f, error);
}
