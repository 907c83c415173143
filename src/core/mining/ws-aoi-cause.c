/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Mining by cause (ws-aoi-cause.h): instead of the stack a thread waited
 * in, the stacks of what kept it waiting.  A wait that another thread
 * ended is charged, overlap by overlap, to what that readier was doing
 * meanwhile: its sampled running stacks, or its own waits — followed in
 * turn to their readiers, as a ready tree is, down to a running stack, a
 * device, a timer or an unknown readier (whose waiting stack is then what
 * is charged).  A holder's disk flush that two victims queued behind is
 * charged twice: the delay it propagated, not the time it took.
 */
#include "config.h"

#include "ws-aoi-cause.h"

typedef struct {
  WsAoi             *filter;
  WsTrace           *trace;
  WsFrameClassifier *classifier;
  WsStackDb         *db;
  guint              stream;
  guint              added;
} Cause;

static void
charge (Cause         *c,
        const WsEvent *e,
        WsTime         cost)
{
  if (cost <= 0 || e->stack == WS_STACK_EMPTY ||
      !ws_aoi_stack_matches (c->filter, ws_trace_get_stack_table (c->trace), e->stack))
    return;
  ws_stack_db_add_from (c->db, c->stream, ws_trace_get_stack_table (c->trace), e->stack, cost);
  c->added++;
}

static void charge_window (Cause *c, guint thread, WsTime t0, WsTime t1, guint depth);

/* Charges [from, to) of wait @i: to what its readier did meanwhile when
 * another thread ended it, else to the wait itself (a device, a timer, an
 * unknown readier, or too deep). */
static void
charge_wait (Cause  *c,
             guint   i,
             WsTime  from,
             WsTime  to,
             guint   depth)
{
  const WsEvent *e = ws_trace_get_event (c->trace, i);
  guint readier = WS_NONE;

  if (depth > 0 &&
      ws_frame_classifier_classify_wake (c->classifier, c->trace, i, &readier) == WS_WAKE_THREAD &&
      readier != WS_NONE && readier != e->thread)
    charge_window (c, readier, from, to, depth - 1);
  else
    charge (c, e, to - from);
}

/* Charges [t0, t1) of @thread: each event of it overlapping the window,
 * waits that another thread ended followed to that thread. */
static void
charge_window (Cause  *c,
               guint   thread,
               WsTime  t0,
               WsTime  t1,
               guint   depth)
{
  const WsThread *th = ws_trace_get_thread (c->trace, thread);
  guint k = ws_trace_thread_lower_bound (c->trace, thread, t0);

  /* The event that began before t0 may still overlap it. */
  if (k > 0)
    k--;
  for (; k < th->n_events; k++)
    {
      guint i = th->events[k];
      const WsEvent *e = ws_trace_get_event (c->trace, i);
      WsTime from = MAX (t0, e->time), to = MIN (t1, e->time + MAX (ws_event_duration (e), 0));

      if (e->time >= t1)
        break;
      if (to <= from)
        continue;
      if (e->kind == WS_EVENT_WAIT)
        charge_wait (c, i, from, to, depth);
      else if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        charge (c, e, to - from);
    }
}

/**
 * ws_aoi_extract_causes:
 * @filter: the stacks charged must pass its content filters
 * @scope: the waits to explain (its other events are ignored)
 *
 * Adds to @stream of @db, for each wait of @scope that another thread
 * ended, the stacks of what that thread was doing meanwhile, each costing
 * its overlap with the wait (followed through the readier's own waits, at
 * most %WS_AOI_CAUSE_DEPTH deep); a wait no thread ended (a device, a
 * timer, an unknown readier) is its own cause.
 *
 * Returns: how many (stack, overlap) pieces were added
 */
guint
ws_aoi_extract_causes (WsAoi             *filter,
                       WsTrace           *trace,
                       const WsEventSet  *scope,
                       WsFrameClassifier *classifier,
                       WsStackDb         *db,
                       guint              stream)
{
  Cause c = { filter, trace, classifier, db, stream, 0 };

  g_return_val_if_fail (WS_IS_TRACE (trace), 0);
  g_return_val_if_fail (scope != NULL, 0);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind != WS_EVENT_WAIT || ws_event_duration (e) <= 0 || !ws_event_set_contains (scope, i))
        continue;
      charge_wait (&c, i, e->time, e->time + ws_event_duration (e), WS_AOI_CAUSE_DEPTH);
    }
  return c.added;
}
