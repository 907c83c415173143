/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "ws-export.h"
#include "ws-graph-anomalies.h"
#include "ws-graph-scene.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsGraphPalette:
 *
 * Every colour of the graph view.  Run, sleep (S) and disk (D) are the
 * timeline's, so that a wait looks the same in both views.
 */
typedef struct {
  WsColor background;
  WsColor band;               /* every other layer */
  WsColor header_background;
  WsColor foreground;
  WsColor dim_foreground;
  WsColor edge;
  WsColor run;
  WsColor sleep;
  WsColor disk;
  WsColor hardware;
  WsColor timer;
  WsColor unknown;
  WsColor anomalous;
  WsColor search_match;
  WsColor current_match;
  WsColor selection;
} WsGraphPalette;

void ws_graph_palette_init_light (WsGraphPalette *palette);
void ws_graph_palette_init_dark  (WsGraphPalette *palette);

/**
 * WsGraphViewport:
 * @scale: device units per layout unit (the zoom)
 * @x: the layout x shown at the left edge of the drawing
 * @y: the layout y shown at the top edge, below the header band
 * @width: drawing width (device units)
 * @height: drawing height, header band included
 * @selected: the selected scene node, or %WS_NONE
 * @current_match: the search match Tab reached, or %WS_NONE
 * @matches: (nullable): one byte per scene node, non-zero for a match
 * @show_header: draw the band naming the layers on top (left-to-right
 *   layouts only)
 *
 * What part of a scene to draw, and its interactive state.
 */
typedef struct {
  double        scale;
  double        x;
  double        y;
  double        width;
  double        height;
  guint         selected;
  guint         current_match;
  const guint8 *matches;
  gboolean      show_header;
} WsGraphViewport;

#define WS_GRAPH_HEADER_HEIGHT 26.0
#define WS_GRAPH_MIN_SCALE      0.002
#define WS_GRAPH_MAX_SCALE      4.0
/* Below this zoom boxes carry no full text (it would be under ~6 px
 * tall), only a one-line label at a fixed screen size when it fits, down
 * to WS_GRAPH_COMPACT_MIN_SCALE. */
#define WS_GRAPH_TEXT_MIN_SCALE    0.5
#define WS_GRAPH_COMPACT_MIN_SCALE 0.25

void     ws_graph_viewport_init          (WsGraphViewport *vp);
void     ws_graph_viewport_fit           (WsGraphViewport *vp,
                                          WsGraphScene    *scene,
                                          double           max_scale);
void     ws_graph_viewport_zoom_at       (WsGraphViewport *vp,
                                          double           factor,
                                          double           px,
                                          double           py);
void     ws_graph_viewport_center_on     (WsGraphViewport *vp,
                                          const WsGraphRect *rect);
gboolean ws_graph_viewport_node_visible  (const WsGraphViewport *vp,
                                          const WsGraphRect *rect);
void     ws_graph_viewport_to_layout     (const WsGraphViewport *vp,
                                          double           px,
                                          double           py,
                                          double          *lx,
                                          double          *ly);
void     ws_graph_viewport_to_device     (const WsGraphViewport *vp,
                                          double           lx,
                                          double           ly,
                                          double          *px,
                                          double          *py);

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
