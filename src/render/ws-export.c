/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Figures for reviews: the views draw with Cairo, so PNG, SVG and PDF are
 * just three Cairo surfaces behind the same drawing code.
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-export.h"

/**
 * ws_export_format_from_path:
 * @format: (out): the format the extension names
 *
 * Returns: %FALSE if @path ends in none of .png, .svg, .pdf
 */
gboolean
ws_export_format_from_path (const char     *path,
                            WsExportFormat *format)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *format = WS_EXPORT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = WS_EXPORT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = WS_EXPORT_PDF;
  else
    return FALSE;
  return TRUE;
}

static gboolean
check_status (cairo_status_t   status,
              const char      *path,
              GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"),
               path, cairo_status_to_string (status));
  return FALSE;
}

/* Set while ws_export_record() runs an exporter on this thread: its
 * ws_export_draw() then records instead of writing.  A hook rather than a
 * second entry point in every renderer, so a report's figure is the view's
 * export, sized and laid out by the same code. */
static GPrivate recording_target;

static gboolean
record_draw (WsExportRecording *rec,
             double             width,
             double             height,
             WsExportDrawFunc   draw,
             gpointer           user_data,
             const char        *path,
             GError           **error)
{
  cairo_rectangle_t extents = { 0, 0, width, height };
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &extents);
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status;

  draw (cr, width, height, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (!check_status (status, path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  ws_export_recording_clear (rec);
  rec->surface = surface;
  rec->width = width;
  rec->height = height;
  return TRUE;
}

/**
 * ws_export_record:
 * @export_func: (scope call): runs one view's export (any path, SVG format)
 * @recording: (out caller-allocates): the figure; clear it with
 *   ws_export_recording_clear()
 *
 * Returns: %FALSE with @error if the exporter failed or drew nothing
 */
gboolean
ws_export_record (WsExportRecordFunc export_func,
                  gpointer           user_data,
                  WsExportRecording *recording,
                  GError           **error)
{
  gboolean ok;

  g_return_val_if_fail (export_func != NULL, FALSE);
  g_return_val_if_fail (recording != NULL, FALSE);
  g_return_val_if_fail (g_private_get (&recording_target) == NULL, FALSE);

  memset (recording, 0, sizeof *recording);
  g_private_set (&recording_target, recording);
  ok = export_func (user_data, error);
  g_private_set (&recording_target, NULL);
  if (ok && recording->surface == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("The view drew no figure"));
      return FALSE;
    }
  return ok;
}

void
ws_export_recording_clear (WsExportRecording *recording)
{
  g_return_if_fail (recording != NULL);
  g_clear_pointer (&recording->surface, cairo_surface_destroy);
  recording->width = recording->height = 0;
}

static cairo_status_t
append_to_string (void                *closure,
                  const unsigned char *data,
                  unsigned int         length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

/**
 * ws_export_recording_to_svg:
 * @id_prefix: prepended to every id Cairo writes (glyphs, clips, images),
 *   so several figures can live in one HTML document
 *
 * Returns: (transfer full): the figure as an <svg> element, without the XML
 *   declaration, ready to inline
 */
char *
ws_export_recording_to_svg (WsExportRecording *recording,
                            const char        *id_prefix)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GRegex) ids = NULL;
  g_autofree char *replacement = NULL;
  cairo_surface_t *svg;
  cairo_t *cr;
  const char *start;

  g_return_val_if_fail (recording != NULL && recording->surface != NULL, NULL);
  g_return_val_if_fail (id_prefix != NULL, NULL);

  svg = cairo_svg_surface_create_for_stream (append_to_string, out, recording->width, recording->height);
  cairo_svg_surface_set_document_unit (svg, CAIRO_SVG_UNIT_PT);
  cr = cairo_create (svg);
  cairo_set_source_surface (cr, recording->surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_finish (svg);
  cairo_surface_destroy (svg);

  /* id="x", url(#x) and href="#x" all name ids: prefix the three alike. */
  ids = g_regex_new ("(id=\"|url\\(#|href=\"#)", 0, 0, NULL);
  replacement = g_strdup_printf ("\\1%s-", id_prefix);
  start = strstr (out->str, "<svg");
  return g_regex_replace (ids, start ? start : out->str, -1, 0, replacement, 0, NULL);
}

/**
 * ws_export_draw:
 * @path: the file to write (replaced if it exists)
 * @width: in pixels (PNG) or points (SVG, PDF)
 * @height: likewise
 * @draw: (scope call): draws the figure
 *
 * Returns: %TRUE on success, else %FALSE with @error naming the file
 */
/**
 * ws_export_cairo_write:
 * @closure: a #WsAtomicFile
 *
 * The cairo_write_func_t of every file cairo writes (ws-atomic-file.h).
 */
cairo_status_t
ws_export_cairo_write (void                *closure,
                       const unsigned char *data,
                       unsigned int         length)
{
  return ws_atomic_file_write (closure, data, length, NULL) ? CAIRO_STATUS_SUCCESS
                                                             : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
ws_export_draw (const char        *path,
                WsExportFormat     format,
                double             width,
                double             height,
                WsExportDrawFunc   draw,
                gpointer           user_data,
                GError           **error)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) local = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (width >= 1 && height >= 1, FALSE);

  if (g_private_get (&recording_target) != NULL)
    return record_draw (g_private_get (&recording_target), width, height, draw, user_data, path, error);

  if ((file = ws_atomic_file_open (path, &local)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
      return FALSE;
    }
  switch (format)
    {
    case WS_EXPORT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
      break;
    case WS_EXPORT_SVG:
      surface = cairo_svg_surface_create_for_stream (ws_export_cairo_write, file, width, height);
      break;
    case WS_EXPORT_PDF:
      surface = cairo_pdf_surface_create_for_stream (ws_export_cairo_write, file, width, height);
      break;
    default:
      g_return_val_if_reached (FALSE);
    }

  if (!check_status (cairo_surface_status (surface), path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  cr = cairo_create (surface);
  draw (cr, width, height, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == WS_EXPORT_PNG)
    status = cairo_surface_write_to_png_stream (surface, ws_export_cairo_write, file);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (!check_status (status, path, error))
    return FALSE;
  if (ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &local))
    return TRUE;
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not write “%s”: %s"), path, local->message);
  return FALSE;
}

typedef struct {
  WsTimelineRenderer *renderer;
  WsTimelineLod      *lod;
  WsTimelineLayout   *layout;
  WsTimelineViewport *viewport;
  double              chart_height;
} TimelineExport;

#define EXPORT_MARGIN 12.0

static void
draw_timeline (cairo_t  *cr,
               double    width,
               double    height,
               gpointer  user_data)
{
  TimelineExport *ex = user_data;
  const WsTimelinePalette *palette = ws_timeline_renderer_get_palette (ex->renderer);

  cairo_set_source_rgba (cr, palette->background.red, palette->background.green,
                         palette->background.blue, 1);
  cairo_paint (cr);
  ws_timeline_renderer_draw (ex->renderer, cr, ex->lod, ex->layout, ex->viewport,
                             0, width, ex->chart_height);
  ws_timeline_renderer_draw_legend (ex->renderer, cr, EXPORT_MARGIN,
                                    ex->chart_height + EXPORT_MARGIN,
                                    width - 2 * EXPORT_MARGIN);
}

/**
 * ws_export_timeline:
 * @viewport: the span to export (its width is not changed)
 * @width: the figure's width; its height follows from the rows
 *
 * Exports every row of @layout over the visible span of @viewport, with
 * the ruler and a legend underneath, in the renderer's palette.
 */
gboolean
ws_export_timeline (const char          *path,
                    WsExportFormat       format,
                    WsTimelineRenderer  *renderer,
                    WsTimelineLod       *lod,
                    WsTimelineLayout    *layout,
                    WsTimelineViewport  *viewport,
                    double               width,
                    GError             **error)
{
  g_autoptr(WsTimelineViewport) copy = NULL;
  const WsTimelineGeometry *geometry;
  TimelineExport ex;
  double legend_h;
  guint thread;
  WsTime t0, t1;

  g_return_val_if_fail (WS_IS_TIMELINE_RENDERER (renderer), FALSE);
  g_return_val_if_fail (WS_IS_TIMELINE_LOD (lod), FALSE);
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (layout), FALSE);
  g_return_val_if_fail (WS_IS_TIMELINE_VIEWPORT (viewport), FALSE);

  geometry = ws_timeline_renderer_get_geometry (renderer);
  width = MAX (width, geometry->label_width + 100);

  /* A private viewport: the export's width must not disturb the screen. */
  copy = ws_timeline_viewport_new ();
  ws_timeline_viewport_set_bounds (copy, ws_timeline_viewport_get_min (viewport),
                                   ws_timeline_viewport_get_max (viewport));
  ws_timeline_viewport_set_width (copy, width - geometry->label_width);
  ws_timeline_viewport_set_visible (copy, ws_timeline_viewport_get_begin (viewport),
                                    ws_timeline_viewport_get_end (viewport));
  if (ws_timeline_viewport_get_selection (viewport, &thread, &t0, &t1))
    ws_timeline_viewport_set_selection (copy, thread, t0, t1);
  ws_timeline_viewport_set_selected_event (copy, ws_timeline_viewport_get_selected_event (viewport));

  ex.renderer = renderer;
  ex.lod = lod;
  ex.layout = layout;
  ex.viewport = copy;
  ex.chart_height = geometry->ruler_height + ws_timeline_layout_get_height (layout);
  legend_h = ws_timeline_renderer_measure_legend (renderer, width - 2 * EXPORT_MARGIN);

  return ws_export_draw (path, format, width, ex.chart_height + legend_h + 2 * EXPORT_MARGIN,
                         draw_timeline, &ex, error);
}
