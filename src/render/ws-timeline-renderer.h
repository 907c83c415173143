/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "ws-stack-search.h"
#include "ws-timeline-layout.h"
#include "ws-timeline-lod.h"
#include "ws-timeline-viewport.h"

G_BEGIN_DECLS

typedef struct {
  double red;
  double green;
  double blue;
  double alpha;
} WsColor;

/**
 * WsTimelinePalette:
 *
 * Every colour the timeline uses.  The widget fills it from the style
 * (light or dark, the accent colour); exports use the light one.
 */
typedef struct {
  WsColor background;
  WsColor row_alternate;
  WsColor header_background;
  WsColor foreground;
  WsColor dim_foreground;
  WsColor grid;
  WsColor separator;
  WsColor states[WS_N_THREAD_STATES];
  WsColor marks[WS_N_MARK_KINDS];
  WsColor selection;
  WsColor accent;
  WsColor arrow;
  WsColor hover;
  WsColor search_match;
  WsColor scenario;
} WsTimelinePalette;

void ws_timeline_palette_init_light (WsTimelinePalette *palette);
void ws_timeline_palette_init_dark  (WsTimelinePalette *palette);

/**
 * WsTimelineGeometry:
 * @label_width: width of the thread-name column on the left
 * @ruler_height: height of the time ruler on top
 *
 * Where things are: the time axis starts at x = @label_width, the rows at
 * y = @ruler_height.
 */
typedef struct {
  double label_width;
  double ruler_height;
} WsTimelineGeometry;

/**
 * WsTimelineHit:
 * @row: the layout row under the point, or %WS_NONE
 * @thread: its thread, or %WS_NONE (process header, label column…)
 * @event: the event under the point (a wait, run span, ready period or
 *   mark within a few pixels), or %WS_NONE
 * @instance: the scenario instance under the point (in a thread's lane),
 *   or %WS_NONE
 * @time: the time under the point
 * @in_labels: the point is over the label column
 * @in_ruler: the point is over the ruler
 */
typedef struct {
  guint    row;
  guint    thread;
  guint    event;
  guint    instance;
  WsTime   time;
  gboolean in_labels;
  gboolean in_ruler;
} WsTimelineHit;

/*
 * WsTimelineRenderer: draws a thread timeline into any cairo_t, so that
 * the widget, the PNG/SVG/PDF exporters and the tests share one piece of
 * code.  It owns only caches (text layouts, dash patterns); what to show
 * comes from the trace's #WsTimelineLod, a #WsTimelineLayout and a
 * #WsTimelineViewport, whose width must be the drawing width minus the
 * label column.
 */
#define WS_TYPE_TIMELINE_RENDERER (ws_timeline_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineRenderer, ws_timeline_renderer, WS, TIMELINE_RENDERER, GObject)

WsTimelineRenderer *ws_timeline_renderer_new            (void);

void     ws_timeline_renderer_set_palette       (WsTimelineRenderer        *self,
                                                 const WsTimelinePalette   *palette);
const WsTimelinePalette *
         ws_timeline_renderer_get_palette       (WsTimelineRenderer        *self);
void     ws_timeline_renderer_set_pango_context (WsTimelineRenderer        *self,
                                                 PangoContext              *context);
void     ws_timeline_renderer_set_font          (WsTimelineRenderer        *self,
                                                 const PangoFontDescription *font);
const WsTimelineGeometry *
         ws_timeline_renderer_get_geometry      (WsTimelineRenderer        *self);
char    *ws_timeline_renderer_dup_row_label     (WsTimelineRenderer        *self,
                                                 WsTrace                   *trace,
                                                 const WsTimelineRow       *row,
                                                 gboolean                  *ellipsized,
                                                 int                       *width);
void     ws_timeline_renderer_set_label_width   (WsTimelineRenderer        *self,
                                                 double                     width);
void     ws_timeline_renderer_set_search        (WsTimelineRenderer        *self,
                                                 WsStackSearch             *search);

void     ws_timeline_renderer_draw              (WsTimelineRenderer        *self,
                                                 cairo_t                   *cr,
                                                 WsTimelineLod             *lod,
                                                 WsTimelineLayout          *layout,
                                                 WsTimelineViewport        *viewport,
                                                 double                     scroll_y,
                                                 double                     width,
                                                 double                     height);
double   ws_timeline_renderer_draw_legend       (WsTimelineRenderer        *self,
                                                 cairo_t                   *cr,
                                                 double                     x,
                                                 double                     y,
                                                 double                     width);
double   ws_timeline_renderer_measure_legend    (WsTimelineRenderer        *self,
                                                 double                     width);

void     ws_timeline_renderer_hit_test          (WsTimelineRenderer        *self,
                                                 WsTimelineLod             *lod,
                                                 WsTimelineLayout          *layout,
                                                 WsTimelineViewport        *viewport,
                                                 double                     scroll_y,
                                                 double                     x,
                                                 double                     y,
                                                 WsTimelineHit             *hit);
gboolean ws_timeline_renderer_get_event_extents (WsTimelineRenderer        *self,
                                                 WsTrace                   *trace,
                                                 guint                      event,
                                                 WsTime                    *t0,
                                                 WsTime                    *t1);

/* Vertical placement of the marks inside a thread row of height h:
 * exposed so that the tests can look at the right pixels. */
void     ws_timeline_row_bar_extents            (double                     row_y,
                                                 double                     row_height,
                                                 double                    *bar_y,
                                                 double                    *bar_height);
void     ws_timeline_row_line_extents           (double                     row_y,
                                                 double                     row_height,
                                                 double                    *line_y,
                                                 double                    *line_height);
guint    ws_timeline_state_dash                 (WsThreadState              state,
                                                 guint                     *off);

G_END_DECLS
