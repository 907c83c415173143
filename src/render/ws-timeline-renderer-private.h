/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the files of WsTimelineRenderer share: the instance structure and
 * the steps of a frame that live in their own files
 * (ws-timeline-renderer-durations.c: how long each wait was and the
 * scenario slices; ws-timeline-renderer-legend.c: the legend).
 */
#pragma once

#include <pango/pangocairo.h>

#include "ws-render-util.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

#define PROCESS_INDENT  18.0
#define THREAD_INDENT   26.0
#define LABEL_PAD        8.0
#define MIN_TICK_PX     90.0

/* Wait durations are shaded in four decades: 1–10 ms, 10–100 ms,
 * 100 ms–1 s, 1 s and more. */
#define WS_DURATION_BANDS 4

struct _WsTimelineRenderer
{
  GObject               parent_instance;

  WsTimelinePalette     palette;
  WsTimelineGeometry    geometry;

  WsRenderText          text;           /* its scratch: ruler labels, legend */
  GHashTable           *label_cache;    /* row key -> PangoLayout */
  gconstpointer         label_trace;    /* the trace the cache belongs to */

  cairo_pattern_t      *dash[WS_N_THREAD_STATES];
  GArray               *rects[WS_N_THREAD_STATES];
  GArray               *mark_rects[WS_N_MARK_KINDS];
  GArray               *match_rects;
  GArray               *duration_rects[WS_DURATION_BANDS][WS_N_THREAD_STATES];
  GArray               *duration_labels;  /* WsDurationLabel, drawn last */

  WsStackSearch        *search;
};

/* A wait wide enough to carry its duration, or a long-wait mark. */
typedef struct {
  float    x0, x1;      /* visible extent */
  float    y;           /* the centre of the row's wait line */
  float    top;         /* the top of the row's state area */
  WsTime   duration;
  gboolean long_wait;
  gboolean text;        /* FALSE: only the long-wait mark */
} WsDurationLabel;

PangoLayout *ws_timeline_renderer_get_scratch    (WsTimelineRenderer *self);
cairo_pattern_t *
             ws_timeline_renderer_get_dash       (WsTimelineRenderer *self,
                                                  WsThreadState       state);

void         ws_timeline_durations_init          (WsTimelineRenderer *self);
void         ws_timeline_durations_finalize      (WsTimelineRenderer *self);
void         ws_timeline_durations_paint_row     (WsTimelineRenderer *self,
                                                  WsTimelineLod      *lod,
                                                  WsTimelineViewport *viewport,
                                                  guint               thread,
                                                  double              y,
                                                  double              h,
                                                  double              width);
void         ws_timeline_durations_flush         (WsTimelineRenderer *self,
                                                  cairo_t            *cr);
void         ws_timeline_durations_draw_labels   (WsTimelineRenderer *self,
                                                  cairo_t            *cr);
void         ws_timeline_slices_draw_row         (WsTimelineRenderer *self,
                                                  cairo_t            *cr,
                                                  WsTimelineLod      *lod,
                                                  WsTimelineViewport *viewport,
                                                  guint               thread,
                                                  double              y,
                                                  double              lane,
                                                  double              width);
double       ws_timeline_wait_thickness          (WsTime              duration,
                                                  double              line_h,
                                                  double              max_h);
guint        ws_timeline_duration_band           (WsTime              duration);
double       ws_timeline_duration_band_alpha     (guint               band);

G_END_DECLS
