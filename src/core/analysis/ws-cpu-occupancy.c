/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-CPU timelines of the trace's on-CPU spans.  Spans of one CPU do not
 * overlap (one thread at a time), so each CPU's spans sorted by start are
 * also sorted by end, and the first span that reaches into a window is
 * found by binary search.
 */
#include "config.h"

#include "ws-cpu-occupancy.h"

typedef struct {
  WsTime  start;
  WsTime  end;
  guint   thread;
} Span;

struct _WsCpuOccupancy {
  GPtrArray *cpus;   /* GArray of Span per CPU, or NULL */
  gboolean   any;
};

static int
compare_span (gconstpointer a,
              gconstpointer b)
{
  const Span *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

WsCpuOccupancy *
ws_cpu_occupancy_new (WsTrace *trace)
{
  WsCpuOccupancy *self = g_new0 (WsCpuOccupancy, 1);
  guint n = ws_trace_get_n_events (trace);
  const WsEvent *events = ws_trace_get_events (trace);

  self->cpus = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < n; i++)
    {
      const WsEvent *e = &events[i];
      Span span;
      GArray *spans;

      if (e->kind != WS_EVENT_RUNNING || !(e->flags & WS_EVENT_FLAG_SPAN) || ws_event_duration (e) <= 0)
        continue;
      while (self->cpus->len <= e->cpu)
        g_ptr_array_add (self->cpus, g_array_new (FALSE, FALSE, sizeof (Span)));
      spans = g_ptr_array_index (self->cpus, e->cpu);
      span.start = e->time;
      span.end = e->time + ws_event_duration (e);
      span.thread = e->thread;
      g_array_append_val (spans, span);
      self->any = TRUE;
    }
  for (guint c = 0; c < self->cpus->len; c++)
    g_array_sort (g_ptr_array_index (self->cpus, c), compare_span);
  return self;
}

void
ws_cpu_occupancy_free (WsCpuOccupancy *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->cpus);
  g_free (self);
}

gboolean
ws_cpu_occupancy_has_spans (WsCpuOccupancy *self)
{
  return self->any;
}

/* Index of the first span of @spans ending after @t. */
static guint
first_reaching (GArray *spans,
                WsTime  t)
{
  guint lo = 0, hi = spans->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (spans, Span, mid).end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

WsTime
ws_cpu_occupancy_foreach (WsCpuOccupancy     *self,
                          WsTime              start,
                          WsTime              end,
                          WsCpuOccupancyFunc  func,
                          gpointer            user_data)
{
  WsTime sum = 0;

  for (guint c = 0; c < self->cpus->len && start < end; c++)
    {
      GArray *spans = g_ptr_array_index (self->cpus, c);

      for (guint i = first_reaching (spans, start); i < spans->len; i++)
        {
          const Span *s = &g_array_index (spans, Span, i);
          WsTime a = MAX (s->start, start), b = MIN (s->end, end);

          if (s->start >= end)
            break;
          if (b > a)
            {
              sum += b - a;
              if (func != NULL)
                func (s->thread, b - a, user_data);
            }
        }
    }
  return sum;
}
