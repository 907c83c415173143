/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "ws-critical-path.h"
#include "ws-export.h"
#include "ws-stack-search.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsCriticalPathGeometry:
 * @margin: space around the figure
 * @summary_height: the lines on top: the title, and the key (each
 *   state's colour with its time and share, the connectors) in one row,
 *   or two where one is too narrow: set for the width last measured or
 *   drawn
 * @ruler_height: the time axis, under the summary
 * @label_width: the thread-name column on the left of the lanes
 * @lane_height: one lane per thread; the bars fill its middle
 *   (ws_timeline_row_bar_extents(), as the timeline's run spans)
 *
 * Where things are.  The time axis runs from x = @margin + @label_width
 * to the drawing width minus @margin; lane i starts at y = @margin +
 * @summary_height + @ruler_height + i × @lane_height; nothing comes after
 * the last lane (the key is on top, so that a short view keeps its rows).
 */
typedef struct {
  double margin;
  double summary_height;
  double ruler_height;
  double label_width;
  double lane_height;
} WsCriticalPathGeometry;

/*
 * WsCriticalPathRenderer: draws a #WsCriticalPath as Trace Compass and
 * Perfetto show one: a time axis over the symptom's window, one lane per
 * thread the path visits (the symptom thread first, then by readier depth
 * and first appearance), each segment a bar coloured by its state with
 * the timeline's palette, a vertical connector wherever the path moves to
 * another thread (to the readier when a wait began, back when the readier
 * woke it), and on top a key of the states with the time in each.
 *
 * Plain Cairo, as the other views, so that the widget, the PNG/SVG/PDF
 * export and the pixel tests share it.  The renderer holds the path, the
 * visible time span (zoom) and the interactive state (selected segment,
 * matches).
 */
#define WS_TYPE_CRITICAL_PATH_RENDERER (ws_critical_path_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsCriticalPathRenderer, ws_critical_path_renderer, WS, CRITICAL_PATH_RENDERER, GObject)

WsCriticalPathRenderer *ws_critical_path_renderer_new (void);

void            ws_critical_path_renderer_set_palette       (WsCriticalPathRenderer     *self,
                                                             const WsTimelinePalette    *palette);
const WsTimelinePalette *
                ws_critical_path_renderer_get_palette       (WsCriticalPathRenderer     *self);
void            ws_critical_path_renderer_set_pango_context (WsCriticalPathRenderer     *self,
                                                             PangoContext               *context);
void            ws_critical_path_renderer_set_font          (WsCriticalPathRenderer     *self,
                                                             const PangoFontDescription *font);
const WsCriticalPathGeometry *
                ws_critical_path_renderer_get_geometry      (WsCriticalPathRenderer     *self);

void            ws_critical_path_renderer_set_path          (WsCriticalPathRenderer     *self,
                                                             WsCriticalPath             *path);
WsCriticalPath *ws_critical_path_renderer_get_path          (WsCriticalPathRenderer     *self);

guint           ws_critical_path_renderer_get_n_lanes       (WsCriticalPathRenderer     *self);
guint           ws_critical_path_renderer_get_lane_thread   (WsCriticalPathRenderer     *self,
                                                             guint                       lane);
guint           ws_critical_path_renderer_get_thread_lane   (WsCriticalPathRenderer     *self,
                                                             guint                       thread);

void            ws_critical_path_renderer_set_visible       (WsCriticalPathRenderer     *self,
                                                             WsTime                      begin,
                                                             WsTime                      end);
void            ws_critical_path_renderer_get_visible       (WsCriticalPathRenderer     *self,
                                                             WsTime                     *begin,
                                                             WsTime                     *end);
void            ws_critical_path_renderer_set_selected      (WsCriticalPathRenderer     *self,
                                                             guint                       segment);
guint           ws_critical_path_renderer_get_selected      (WsCriticalPathRenderer     *self);
void            ws_critical_path_renderer_set_matches       (WsCriticalPathRenderer     *self,
                                                             GArray                     *matches);
void            ws_critical_path_renderer_set_current_match (WsCriticalPathRenderer     *self,
                                                             guint                       segment);

double          ws_critical_path_renderer_measure_height    (WsCriticalPathRenderer     *self,
                                                             double                      width);
void            ws_critical_path_renderer_draw              (WsCriticalPathRenderer     *self,
                                                             cairo_t                    *cr,
                                                             double                      width,
                                                             double                      height);
gboolean        ws_critical_path_renderer_export            (WsCriticalPathRenderer     *self,
                                                             const char                 *path,
                                                             WsExportFormat              format,
                                                             double                      width,
                                                             GError                    **error);

/* Geometry, for the widget's input and for tests. */
double          ws_critical_path_renderer_time_to_x         (WsCriticalPathRenderer     *self,
                                                             double                      width,
                                                             WsTime                      time);
WsTime          ws_critical_path_renderer_x_to_time         (WsCriticalPathRenderer     *self,
                                                             double                      width,
                                                             double                      x);
void            ws_critical_path_renderer_get_bar_extents   (WsCriticalPathRenderer     *self,
                                                             guint                       lane,
                                                             double                     *y,
                                                             double                     *height);
guint           ws_critical_path_renderer_lane_at           (WsCriticalPathRenderer     *self,
                                                             double                      y);
guint           ws_critical_path_renderer_segment_at        (WsCriticalPathRenderer     *self,
                                                             double                      width,
                                                             double                      x,
                                                             double                      y);

/* Colours and search matches of the path's segments (the words are in core,
 * ws-critical-path.h). */
void            ws_critical_state_get_colour                (WsCriticalState             state,
                                                             const WsTimelinePalette    *palette,
                                                             WsColor                    *colour);
gboolean        ws_critical_path_segment_matches            (WsCriticalPath             *path,
                                                             guint                       segment,
                                                             WsStackSearch              *search);

G_END_DECLS
