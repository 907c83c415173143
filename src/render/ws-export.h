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

G_END_DECLS
