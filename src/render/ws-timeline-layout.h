/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-trace.h"

G_BEGIN_DECLS

typedef enum {
  WS_TIMELINE_ROW_PROCESS,
  WS_TIMELINE_ROW_THREAD,
} WsTimelineRowKind;

/**
 * WsTimelineRow:
 * @kind: a process header or a thread
 * @index: the process or thread index in the trace
 * @y: top of the row, in pixels from the top of the first row
 * @height: the row's height
 * @lane: of which the top @lane pixels are the lane of its scenario
 *   instances (0 for a thread without any, and for process headers)
 */
typedef struct {
  WsTimelineRowKind kind;
  guint             index;
  double            y;
  double            height;
  double            lane;
} WsTimelineRow;

/* The height of the scenario-instance lane above a thread's states. */
#define WS_TIMELINE_LANE_HEIGHT 18

/*
 * WsTimelineLayout: the vertical layout of a timeline: one header row per
 * process, followed (unless the process is collapsed) by one row per
 * thread.  Busy processes come first (most events), the idle "process"
 * (pid 0, swapper) last; threads by tid.  Threads with no events of their
 * own (only ever seen as wake-up targets) get no row.
 */
#define WS_TYPE_TIMELINE_LAYOUT (ws_timeline_layout_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineLayout, ws_timeline_layout, WS, TIMELINE_LAYOUT, GObject)

WsTimelineLayout    *ws_timeline_layout_new              (WsTrace          *trace);
WsTrace             *ws_timeline_layout_get_trace        (WsTimelineLayout *self);

void                 ws_timeline_layout_set_row_height   (WsTimelineLayout *self,
                                                          double            thread_height,
                                                          double            process_height);
double               ws_timeline_layout_get_thread_height(WsTimelineLayout *self);

guint                ws_timeline_layout_get_n_rows       (WsTimelineLayout *self);
const WsTimelineRow *ws_timeline_layout_get_row          (WsTimelineLayout *self,
                                                          guint             row);
double               ws_timeline_layout_get_height       (WsTimelineLayout *self);
guint                ws_timeline_layout_row_at_y         (WsTimelineLayout *self,
                                                          double            y);
guint                ws_timeline_layout_find_thread_row  (WsTimelineLayout *self,
                                                          guint             thread);
guint                ws_timeline_layout_find_process_row (WsTimelineLayout *self,
                                                          guint             process);

void                 ws_timeline_layout_set_collapsed    (WsTimelineLayout *self,
                                                          guint             process,
                                                          gboolean          collapsed);
gboolean             ws_timeline_layout_get_collapsed    (WsTimelineLayout *self,
                                                          guint             process);
guint                ws_timeline_layout_get_n_visible_threads (WsTimelineLayout *self);

G_END_DECLS
