/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the timeline should show for a graph node or a critical path
 * segment, kept out of the graph page so that any page with a graph (the
 * new analyses too) jumps to the timeline the same way.
 */
#include "config.h"

#include "ws-timeline-target.h"

static void
set_target (WsTimelineTarget *target,
            guint             thread,
            guint             event,
            WsTime            t0,
            WsTime            t1)
{
  target->thread = thread;
  target->event = event;
  target->t0 = t0;
  target->t1 = t1;
}

/**
 * ws_timeline_target_for_node:
 *
 * A wake-up or unknown-readier node has no thread of its own: its target
 * is the wait it ended.
 *
 * Returns: %FALSE if @node is %WS_NONE or there is no scene
 */
gboolean
ws_timeline_target_for_node (WsTimelineTarget *target,
                             WsGraphScene     *scene,
                             guint             node)
{
  const WsSceneNode *n;

  if (scene == NULL || node == WS_NONE)
    return FALSE;
  n = ws_graph_scene_get_node (scene, node);
  if (n->thread == WS_NONE || n->kind == WS_SCENE_NODE_HARDWARE)
    for (guint e = 0; e < ws_graph_scene_get_n_edges (scene); e++)
      {
        const WsSceneEdge *edge = ws_graph_scene_get_edge (scene, e);
        if (edge->to == node)
          {
            const WsSceneNode *w = ws_graph_scene_get_node (scene, edge->from);
            set_target (target, w->thread, w->event, w->time, w->time + w->duration);
            return TRUE;
          }
      }
  set_target (target, n->thread, n->event, n->time, n->time + n->duration);
  return TRUE;
}

/* The thread's exact run span covering @time, or %WS_NONE. */
static guint
run_span_at (WsTrace *trace,
             guint    thread,
             WsTime   time)
{
  const WsThread *t = ws_trace_get_thread (trace, thread);
  guint pos = ws_trace_thread_lower_bound (trace, thread, time + 1);

  /* Spans do not overlap; a few events back is enough (samples and
   * wake-ups of others sit between them). */
  for (guint k = 0; k < 64 && pos > 0; k++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[--pos]);

      if (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN) &&
          e->time <= time && time < e->time + ws_event_duration (e))
        return t->events[pos];
    }
  return WS_NONE;
}

/**
 * ws_timeline_target_for_segment:
 *
 * A segment without an event of its own (running on behalf of a wait)
 * selects the thread's run span at its start.
 *
 * Returns: %FALSE if @segment is not one of @path's
 */
gboolean
ws_timeline_target_for_segment (WsTimelineTarget *target,
                                WsTrace          *trace,
                                WsCriticalPath   *path,
                                guint             segment)
{
  const WsCriticalSegment *seg;

  if (path == NULL || segment >= ws_critical_path_get_n_segments (path))
    return FALSE;
  seg = ws_critical_path_get_segment (path, segment);
  set_target (target, seg->thread,
              seg->event != WS_NONE ? seg->event : run_span_at (trace, seg->thread, seg->start),
              seg->start, seg->end);
  return TRUE;
}
