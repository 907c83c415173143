/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-critical-path-renderer.h"
#include "ws-graph-scene.h"

G_BEGIN_DECLS

/**
 * WsTimelineTarget:
 * @thread: the thread index to show
 * @event: the event to select, or %WS_NONE
 * @t0: start of the span to show (ns)
 * @t1: its end (ns)
 *
 * Where "Show in Timeline" goes for a node of a graph or a segment of a
 * critical path.
 */
typedef struct {
  guint  thread;
  guint  event;
  WsTime t0;
  WsTime t1;
} WsTimelineTarget;

gboolean ws_timeline_target_for_node    (WsTimelineTarget *target,
                                         WsGraphScene     *scene,
                                         guint             node);
gboolean ws_timeline_target_for_segment (WsTimelineTarget *target,
                                         WsTrace          *trace,
                                         WsCriticalPath   *path,
                                         guint             segment);

G_END_DECLS
