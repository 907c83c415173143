/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who else held the resource a delay waited for.  For a wait for a CPU:
 * the threads on the CPUs meanwhile (ws-cpu-occupancy.c).  For an
 * uninterruptible wait (a thread's own I/O): the other processes'
 * threads that were in uninterruptible sleep at the same time — their
 * I/O is what shared the device's queue (a `dd` writing with O_DIRECT
 * beside a commit's `fdatasync`).
 */
#include "config.h"

#include "ws-behind.h"
#include "ws-cpu-occupancy.h"

typedef struct {
  WsTime start;
  WsTime end;
  guint  thread;
} Sleep;

struct _WsBehindIndex {
  WsTrace        *trace;          /* not owned */
  WsCpuOccupancy *occupancy;
  GArray         *sleeps;         /* Sleep, by start */
  WsTime          longest;        /* the longest sleep: how far back to look */
};

WsBehindIndex *
ws_behind_index_new (WsTrace *trace)
{
  WsBehindIndex *self = g_new0 (WsBehindIndex, 1);
  guint n = ws_trace_get_n_events (trace);
  const WsEvent *events = ws_trace_get_events (trace);

  self->trace = trace;
  self->occupancy = ws_cpu_occupancy_new (trace);
  self->sleeps = g_array_new (FALSE, FALSE, sizeof (Sleep));
  /* events are in time order, so the sleeps are by start */
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = &events[i];
      Sleep s;

      if (e->kind != WS_EVENT_WAIT || e->duration <= 0 ||
          !((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D'))
        continue;
      s.start = e->time;
      s.end = e->time + e->duration;
      s.thread = e->thread;
      self->longest = MAX (self->longest, e->duration);
      g_array_append_val (self->sleeps, s);
    }
  return self;
}

void
ws_behind_index_free (WsBehindIndex *self)
{
  if (self == NULL)
    return;
  ws_cpu_occupancy_free (self->occupancy);
  g_array_unref (self->sleeps);
  g_free (self);
}

typedef struct {
  guint        waiting;
  WsBehindFunc func;
  gpointer     data;
} Filter;

static void
all_but_waiting (guint    thread,
                 WsTime   time,
                 gpointer data)
{
  Filter *f = data;

  if (thread != f->waiting)
    f->func (thread, time, f->data);
}

void
ws_behind_index_cpu (WsBehindIndex *self,
                     WsTime         start,
                     WsTime         end,
                     guint          waiting,
                     WsBehindFunc   func,
                     gpointer       user_data)
{
  Filter f = { waiting, func, user_data };

  ws_cpu_occupancy_foreach (self->occupancy, start, end, all_but_waiting, &f);
}

void
ws_behind_index_disk (WsBehindIndex *self,
                      WsTime         start,
                      WsTime         end,
                      guint          waiting,
                      WsBehindFunc   func,
                      gpointer       user_data)
{
  guint process = ws_trace_get_thread (self->trace, waiting)->process;
  guint lo = 0, hi = self->sleeps->len;

  /* the first sleep that may still be going at @start */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->sleeps, Sleep, mid).start < start - self->longest)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < self->sleeps->len; i++)
    {
      const Sleep *s = &g_array_index (self->sleeps, Sleep, i);
      WsTime a = MAX (s->start, start), b = MIN (s->end, end);

      if (s->start >= end)
        break;
      if (b > a && ws_trace_get_thread (self->trace, s->thread)->process != process)
        func (s->thread, b - a, user_data);
    }
}
