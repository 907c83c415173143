/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "ws-export.h"
#include "ws-graph-anomalies.h"
#include "ws-graph-palette.h"
#include "ws-graph-scene.h"
#include "ws-graph-viewport.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsGraphDrawStats:
 *
 * What the last ws_graph_renderer_draw() drew, for tests of the culling
 * and levels of detail and for the benchmark.
 */
typedef struct {
  guint nodes;
  guint edges;
  guint labels;
  guint compact_labels;
  guint cairo_fills;
  gboolean simplified;
} WsGraphDrawStats;

/*
 * WsGraphRenderer: draws a #WsGraphScene into any cairo_t (screen, PNG,
 * SVG, PDF, tests).  Waits are dashed boxes tinted by state (S / D), runs
 * solid boxes, hardware and timer wake-ups hexagons, unknown readiers grey
 * dotted boxes with a "?"; edges run from a wait to what readied it with an
 * arrowhead there; the anomalous chain is thick and red, search matches
 * sit on a yellow halo (the current one ringed), the selection is ringed
 * in blue.  Only what meets the viewport is drawn; zoomed out, boxes lose
 * their text and then become plain filled rectangles batched per colour.
 */
#define WS_TYPE_GRAPH_RENDERER (ws_graph_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphRenderer, ws_graph_renderer, WS, GRAPH_RENDERER, GObject)

WsGraphRenderer      *ws_graph_renderer_new            (void);
void                  ws_graph_renderer_set_palette    (WsGraphRenderer       *self,
                                                        const WsGraphPalette  *palette);
const WsGraphPalette *ws_graph_renderer_get_palette    (WsGraphRenderer       *self);
void                  ws_graph_renderer_set_font       (WsGraphRenderer       *self,
                                                        const char            *family);
void                  ws_graph_renderer_draw           (WsGraphRenderer       *self,
                                                        cairo_t               *cr,
                                                        WsGraphScene          *scene,
                                                        const WsGraphViewport *vp);
void                  ws_graph_renderer_get_stats      (WsGraphRenderer       *self,
                                                        WsGraphDrawStats      *stats);
void                  ws_graph_renderer_set_anomalies  (WsGraphRenderer       *self,
                                                        WsGraphAnomalies      *anomalies);
WsGraphAnomalies     *ws_graph_renderer_get_anomalies  (WsGraphRenderer       *self);
double                ws_graph_renderer_measure_legend (WsGraphRenderer       *self,
                                                        double                 width);
double                ws_graph_renderer_draw_legend    (WsGraphRenderer       *self,
                                                        cairo_t               *cr,
                                                        double                 x,
                                                        double                 y,
                                                        double                 width);
gboolean              ws_graph_renderer_export         (WsGraphRenderer       *self,
                                                        WsGraphScene          *scene,
                                                        const WsGraphViewport *state,
                                                        const char            *path,
                                                        WsExportFormat         format,
                                                        GError               **error);

G_END_DECLS
