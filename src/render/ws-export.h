/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsExportFormat:
 * @WS_EXPORT_PNG: raster, at the given size
 * @WS_EXPORT_SVG: vector
 * @WS_EXPORT_PDF: vector, one page
 */
typedef enum {
  WS_EXPORT_PNG,
  WS_EXPORT_SVG,
  WS_EXPORT_PDF,
} WsExportFormat;

/**
 * WsExportDrawFunc:
 * @cr: a context on the export surface, (0, 0) at the top left
 * @width: the surface width in points (pixels for PNG)
 * @height: its height
 *
 * Draws one figure.  Any view (timeline, wait graph…) can export through
 * ws_export_draw() by passing its Cairo drawing code.
 */
typedef void (*WsExportDrawFunc) (cairo_t  *cr,
                                  double    width,
                                  double    height,
                                  gpointer  user_data);

gboolean ws_export_format_from_path (const char        *path,
                                     WsExportFormat    *format);
cairo_status_t ws_export_cairo_write (void                *closure,
                                     const unsigned char *data,
                                     unsigned int         length);

gboolean ws_export_draw             (const char        *path,
                                     WsExportFormat     format,
                                     double             width,
                                     double             height,
                                     WsExportDrawFunc   draw,
                                     gpointer           user_data,
                                     GError           **error);
gboolean ws_export_timeline         (const char        *path,
                                     WsExportFormat     format,
                                     WsTimelineRenderer *renderer,
                                     WsTimelineLod     *lod,
                                     WsTimelineLayout  *layout,
                                     WsTimelineViewport *viewport,
                                     double             width,
                                     GError           **error);

/**
 * WsExportRecording:
 * @surface: (nullable): a recording surface holding the figure, in
 *   points, (0, 0) at the top left; owned
 * @width: the figure's width, as its exporter chose it
 * @height: its height
 *
 * A figure captured instead of written, so a report can place it on a page
 * (PDF) or write it into a document (inline SVG) at the size and with the
 * drawing the view's own export uses.
 */
typedef struct {
  cairo_surface_t *surface;
  double           width;
  double           height;
} WsExportRecording;

/* Calls a view's export function (any *_export () that ends in
 * ws_export_draw()); returns its result. */
typedef gboolean (*WsExportRecordFunc) (gpointer   user_data,
                                  GError   **error);

gboolean ws_export_record           (WsExportRecordFunc       export_func,
                                     gpointer           user_data,
                                     WsExportRecording *recording,
                                     GError           **error);
void     ws_export_recording_clear  (WsExportRecording *recording);
char    *ws_export_recording_to_svg (WsExportRecording *recording,
                                     const char        *id_prefix);

G_END_DECLS
