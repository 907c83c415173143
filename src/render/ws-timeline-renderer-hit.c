/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What is under a point of the timeline: the row, the thread, the event
 * (the one a person aiming there means, at any zoom) or the scenario
 * instance of the row's lane.
 */
#include "config.h"

#include <math.h>

#include "ws-timeline-renderer.h"

#define HIT_TOLERANCE    3.0
#define HIT_MAX_SCAN   512

static gboolean
is_span_event (const WsEvent *e)
{
  return e->kind == WS_EVENT_WAIT || e->kind == WS_EVENT_PREEMPT ||
         (e->kind == WS_EVENT_RUNNING && (e->flags & WS_EVENT_FLAG_SPAN));
}

/* Candidates for the event under the pointer at time @t of one thread. */
typedef struct {
  guint  containing;   /* the span holding t */
  guint  longest;      /* the longest wait near t */
  guint  nearest;      /* the nearest instant event within the tolerance */
  WsTime longest_dur, nearest_dist;
} HitCandidates;

static void
consider_event (WsTimelineRenderer *self,
                WsTrace            *trace,
                guint               i,
                WsTime              t,
                WsTime              tol,
                HitCandidates      *h)
{
  const WsEvent *e = ws_trace_get_event (trace, i);
  WsTime e0, e1;

  if (!ws_timeline_renderer_get_event_extents (self, trace, i, &e0, &e1))
    return;
  if (is_span_event (e))
    {
      if (e0 <= t && t < MAX (e1, e0 + 1) && h->containing == WS_NONE)
        h->containing = i;
      if (e->kind == WS_EVENT_WAIT && ws_event_duration (e) > h->longest_dur)
        {
          h->longest = i;
          h->longest_dur = ws_event_duration (e);
        }
    }
  else if (e->kind != WS_EVENT_HW_SERVICE)
    {
      WsTime dist = ABS (e->time - t);
      if (dist <= tol && dist < h->nearest_dist)
        {
          h->nearest = i;
          h->nearest_dist = dist;
        }
    }
}

/* The event of @thread under the pointer at @t: the span holding t if it
 * is wide enough to aim at, else the longest wait within a few pixels,
 * else the nearest instant event. */
static guint
event_at (WsTimelineRenderer *self,
          WsTrace            *trace,
          guint               thread_index,
          WsTime              t,
          double              ns_per_px)
{
  const WsThread *thread = ws_trace_get_thread (trace, thread_index);
  WsTime tol = (WsTime) ceil (HIT_TOLERANCE * ns_per_px);
  HitCandidates h = { WS_NONE, WS_NONE, WS_NONE, -1, G_MAXINT64 };
  guint k = ws_trace_thread_lower_bound (trace, thread_index, t + tol + 1);

  for (guint scanned = 0; k > 0 && scanned < HIT_MAX_SCAN; scanned++)
    {
      guint i = thread->events[--k];
      const WsEvent *e = ws_trace_get_event (trace, i);
      WsTime e0, e1;

      /* Spans of one thread do not overlap: nothing earlier reaches t. */
      if (is_span_event (e) && ws_timeline_renderer_get_event_extents (self, trace, i, &e0, &e1) &&
          e1 < t - tol)
        break;
      consider_event (self, trace, i, t, tol, &h);
    }

  if (h.containing != WS_NONE)
    {
      WsTime c0, c1;
      ws_timeline_renderer_get_event_extents (self, trace, h.containing, &c0, &c1);
      /* Wide enough to aim at: take it as it is. */
      if ((double) (c1 - c0) / ns_per_px >= 2 || h.longest == WS_NONE)
        return h.containing;
    }
  return h.longest != WS_NONE ? h.longest : h.nearest;
}

/* The scenario instance of @thread running at @t (the latest to start
 * if they nest). */
static guint
instance_at (WsTimelineLod *lod,
             guint          thread,
             WsTime         t)
{
  WsTrace *trace = ws_timeline_lod_get_trace (lod);
  guint n, found = WS_NONE;
  const guint32 *instances = ws_timeline_lod_get_thread_instances (lod, thread, &n);

  for (guint i = 0; i < n; i++)
    {
      const WsScenarioInstance *si = ws_trace_get_scenario_instance (trace, instances[i]);
      if (si->t0 > t)
        break;
      if (t < si->t1)
        found = instances[i];
    }
  return found;
}

/**
 * ws_timeline_renderer_hit_test:
 * @x: in the coordinates ws_timeline_renderer_draw() used
 * @y: likewise
 * @hit: (out caller-allocates): what is there
 *
 * Finds the event under a point.  When the view is zoomed out so far that
 * many events share the pixel, the longest wait near the point wins: that
 * is what a person hovering a dense stretch is after.
 */
void
ws_timeline_renderer_hit_test (WsTimelineRenderer *self,
                               WsTimelineLod      *lod,
                               WsTimelineLayout   *layout,
                               WsTimelineViewport *viewport,
                               double              scroll_y,
                               double              x,
                               double              y,
                               WsTimelineHit      *hit)
{
  const WsTimelineGeometry *geometry;
  const WsTimelineRow *row;
  double row_y;

  g_return_if_fail (WS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (hit != NULL);

  geometry = ws_timeline_renderer_get_geometry (self);
  scroll_y = round (scroll_y);
  hit->row = WS_NONE;
  hit->thread = WS_NONE;
  hit->event = WS_NONE;
  hit->instance = WS_NONE;
  hit->time = ws_timeline_viewport_x_to_time (viewport, x - geometry->label_width);
  hit->in_labels = x < geometry->label_width;
  hit->in_ruler = y < geometry->ruler_height;

  if (hit->in_ruler)
    return;
  row_y = y - geometry->ruler_height + scroll_y;
  hit->row = ws_timeline_layout_row_at_y (layout, row_y);
  if (hit->row == WS_NONE)
    return;
  row = ws_timeline_layout_get_row (layout, hit->row);
  if (row->kind != WS_TIMELINE_ROW_THREAD)
    return;
  hit->thread = row->index;
  if (hit->in_labels)
    return;
  if (row_y - row->y < row->lane)
    {
      hit->instance = instance_at (lod, row->index, hit->time);
      return;
    }

  hit->event = event_at (self, ws_timeline_lod_get_trace (lod), row->index, hit->time,
                        ws_timeline_viewport_get_ns_per_px (viewport));
}
