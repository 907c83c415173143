/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The flame graph as SVG elements: each visible frame a <g> holding a
 * <title> (frame, total, share: the browser's tooltip), a <rect> and, where
 * it fits, a <text> label, laid out by the same walk as the Cairo drawing.
 * Names are made valid UTF-8 and escaped, so any trace gives valid XML.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-atomic-file.h"
#include "ws-flame-renderer-private.h"

#define MARGIN 10.0
#define TITLE_BAND 44.0

double ws_flame_figure_height (const WsFlameGraph *graph);

typedef struct {
  const WsFlameGraph *graph;
  const WsFlameView  *view;
  GString            *out;
} Svg;

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *escaped = NULL;

  /* XML 1.0 allows no control character but tab and newlines, not even
   * as a character reference: a strict parser rejects "&#x1;". */
  for (char *p = valid; *p != '\0'; p++)
    if ((guchar) *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
      *p = '?';
  escaped = g_markup_escape_text (valid, -1);

  g_string_append (out, escaped);
}

static void
write_box (const WsFlameBox *box,
           gpointer          data)
{
  Svg *s = data;
  /* A run of frames too narrow to draw one by one. */
  g_autofree char *description = box->node == WS_FLAME_NO_NODE ? g_strdup (_("Frames narrower than a pixel"))
                                                               : ws_flame_describe_node (s->graph, box->node);

  if (s->view->diff != NULL && box->node != WS_FLAME_NO_NODE)
    {
      g_autofree char *change = ws_flame_describe_change (s->graph, s->view->diff[box->node]);
      char *both = g_strconcat (description, "\n", change, NULL);
      g_free (description);
      description = both;
    }
  char x[G_ASCII_DTOSTR_BUF_SIZE], y[G_ASCII_DTOSTR_BUF_SIZE], w[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (x, sizeof x, "%.2f", box->x);
  g_ascii_formatd (y, sizeof y, "%.2f", box->y);
  g_ascii_formatd (w, sizeof w, "%.2f", MAX (box->width - 0.5, 0.3));
  g_string_append (s->out, "<g><title>");
  append_escaped (s->out, description);
  g_string_append_printf (s->out, "</title><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%d\" "
                          "fill=\"rgb(%d,%d,%d)\"/>", x, y, w, (int) box->height,
                          (int) (box->color.red * 255), (int) (box->color.green * 255),
                          (int) (box->color.blue * 255));
  if (box->label != NULL)
    {
      g_ascii_formatd (x, sizeof x, "%.2f", box->x + 3);
      g_ascii_formatd (y, sizeof y, "%.2f", box->y + box->height - 5);
      g_string_append_printf (s->out, "<text x=\"%s\" y=\"%s\">", x, y);
      append_escaped (s->out, box->label);
      g_string_append (s->out, "</text>");
    }
  g_string_append (s->out, "</g>\n");
}

gboolean
ws_flame_write_svg (const char         *path,
                    const WsFlameGraph *graph,
                    const WsFlameView  *view,
                    const char         *title,
                    const char         *search_status,
                    double              width,
                    GError            **error)
{
  g_autoptr(WsFlameRenderer) renderer = ws_flame_renderer_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(WsAtomicFile) file = NULL;
  double height = ws_flame_figure_height (graph);
  double graph_height = height - TITLE_BAND - MARGIN;
  Svg s = { graph, view, out };

  g_string_append_printf (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                          "viewBox=\"0 0 %d %d\">\n"
                          "<style>text { font-family: sans-serif; font-size: 11px; fill: #1a1a1a; } "
                          "text.title { font-size: 13px; font-weight: bold; } "
                          "g:hover rect { stroke: black; stroke-width: 1; }</style>\n"
                          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                          (int) width, (int) height, (int) width, (int) height);
  g_string_append (out, "<text class=\"title\" x=\"10\" y=\"19\">");
  append_escaped (out, title ? title : "");
  g_string_append (out, "</text>\n");
  if (search_status != NULL)
    {
      g_string_append (out, "<text x=\"10\" y=\"36\">");
      append_escaped (out, search_status);
      g_string_append (out, "</text>\n");
    }
  g_string_append_printf (out, "<g transform=\"translate(%d,%d)\">\n", (int) MARGIN, (int) TITLE_BAND);
  ws_flame_walk (renderer, graph->tree, view, width - 2 * MARGIN, graph_height, -G_MAXDOUBLE, G_MAXDOUBLE,
                 write_box, &s);
  g_string_append (out, "</g>\n</svg>\n");

  if ((file = ws_atomic_file_open (path, error)) == NULL ||
      !g_output_stream_write_all (ws_atomic_file_get_stream (file), out->str, out->len, NULL, NULL, error) ||
      !ws_atomic_file_commit (g_steal_pointer (&file), FALSE, error))
    return FALSE;
  return TRUE;
}
