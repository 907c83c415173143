/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who else held the resource a delay waited for.  For a wait for a CPU:
 * the threads on the CPUs meanwhile (ws-cpu-occupancy.c).  For an
 * uninterruptible wait (a thread's own I/O): when the recording has the
 * block layer's request tracepoints, the other processes' requests in
 * flight on the same device (ws-block-requests.h) — who really had the
 * device's queue; without them, the other processes' threads that were
 * in uninterruptible sleep at the same time, whose I/O probably shared
 * it (a `dd` writing with O_DIRECT beside a commit's `fdatasync`).
 */
#include "config.h"

#include "ws-behind.h"
#include "ws-block-requests.h"
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

      if (e->kind != WS_EVENT_WAIT || ws_event_duration (e) <= 0 ||
          !((e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) || e->state == 'D'))
        continue;
      s.start = e->time;
      s.end = e->time + ws_event_duration (e);
      s.thread = e->thread;
      self->longest = MAX (self->longest, ws_event_duration (e));
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
    f->func (thread, time, 0, 0, f->data);
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

/* One request's part inside the window. */
typedef struct {
  guint   thread;
  WsTime  start;
  WsTime  end;
  double  bytes;
  guint32 device;
} InFlight;

static int
compare_in_flight (gconstpointer a,
                   gconstpointer b)
{
  const InFlight *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

static gboolean
has_device (GArray  *devices,
            guint32  device)
{
  for (guint i = 0; i < devices->len; i++)
    if (g_array_index (devices, guint32, i) == device)
      return TRUE;
  return FALSE;
}

/* The requests of other processes in flight on the waiting process's
 * devices; per thread, the union of their spans (several requests in
 * flight at once are one stretch of the device's queue taken). */
static void
requests_in_flight (WsBehindIndex         *self,
                    const WsBlockRequests *requests,
                    WsTime                 start,
                    WsTime                 end,
                    guint                  process,
                    WsBehindFunc           func,
                    gpointer               user_data)
{
  g_autoptr(GArray) devices = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (InFlight));
  guint n = ws_block_requests_get_n (requests), lo = 0, hi = n;
  WsTime longest = ws_block_requests_get_longest (requests);

  /* the first request that may still be in flight at @start */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ws_block_requests_get (requests, mid)->issue < start - longest)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = lo; i < n; i++)
      {
        const WsBlockRequest *r = ws_block_requests_get (requests, i);
        WsTime a = MAX (r->issue, start), b = MIN (r->complete, end);
        gboolean own;
        InFlight f;

        if (r->issue >= end)
          break;
        if (b <= a && !(r->issue == r->complete && r->issue >= start))
          continue;
        own = ws_trace_get_thread (self->trace, r->thread)->process == process;
        if (pass == 0)
          {
            if (own && !has_device (devices, r->device))
              g_array_append_val (devices, r->device);
            continue;
          }
        if (own || b <= a || (devices->len > 0 && !has_device (devices, r->device)))
          continue;
        f.thread = r->thread;
        f.start = a;
        f.end = b;
        /* the bytes in proportion to the part of the request inside */
        f.bytes = r->complete > r->issue ? (double) r->bytes * (b - a) / (r->complete - r->issue) : r->bytes;
        f.device = r->device;
        g_array_append_val (spans, f);
      }
  g_array_sort (spans, compare_in_flight);
  for (guint i = 0; i < spans->len;)
    {
      const InFlight *first = &g_array_index (spans, InFlight, i);
      WsTime covered = 0, reach = G_MININT64;
      double bytes = 0;
      guint j;

      for (j = i; j < spans->len && g_array_index (spans, InFlight, j).thread == first->thread; j++)
        {
          const InFlight *f = &g_array_index (spans, InFlight, j);

          covered += MAX (f->end, reach) - MAX (f->start, reach);
          reach = MAX (reach, f->end);
          bytes += f->bytes;
        }
      func (first->thread, covered, (guint64) (bytes + 0.5), first->device, user_data);
      i = j;
    }
}

WsBehindWhat
ws_behind_index_disk (WsBehindIndex *self,
                      WsTime         start,
                      WsTime         end,
                      guint          waiting,
                      WsBehindFunc   func,
                      gpointer       user_data)
{
  guint process = ws_trace_get_thread (self->trace, waiting)->process;
  const WsBlockRequests *requests = ws_trace_get_block_requests (self->trace);
  guint lo = 0, hi = self->sleeps->len;

  if (ws_block_requests_get_n (requests) > 0)
    {
      requests_in_flight (self, requests, start, end, process, func, user_data);
      return WS_BEHIND_REQUESTS;
    }

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
        func (s->thread, b - a, 0, 0, user_data);
    }
  return WS_BEHIND_SLEEP;
}
