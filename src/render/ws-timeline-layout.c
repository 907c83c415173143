/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Rows of a timeline.  Kept apart from the widget so that the exporters
 * lay out exactly what the screen shows, and apart from the viewport
 * because it changes for different reasons (collapsing, row height).
 */
#include "config.h"

#include "ws-timeline-layout.h"

struct _WsTimelineLayout
{
  GObject   parent_instance;

  WsTrace  *trace;
  guint    *process_order;     /* processes, busiest first */
  guint     n_processes;
  guint    *events_per_process;
  gboolean *collapsed;         /* per process index */
  GArray   *rows;              /* WsTimelineRow */
  guint    *thread_row;        /* thread index -> row, or WS_NONE */
  guint    *process_row;       /* process index -> row */
  gboolean *has_instances;     /* per thread: scenario instances, a lane */
  double    thread_height;
  double    process_height;
  guint     n_visible_threads;
};

G_DEFINE_FINAL_TYPE (WsTimelineLayout, ws_timeline_layout, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ws_timeline_layout_finalize (GObject *object)
{
  WsTimelineLayout *self = WS_TIMELINE_LAYOUT (object);

  g_free (self->process_order);
  g_free (self->events_per_process);
  g_free (self->collapsed);
  g_array_unref (self->rows);
  g_free (self->thread_row);
  g_free (self->process_row);
  g_free (self->has_instances);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (ws_timeline_layout_parent_class)->finalize (object);
}

static void
ws_timeline_layout_class_init (WsTimelineLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_timeline_layout_finalize;

  /**
   * WsTimelineLayout::changed:
   *
   * Rows were added, removed or resized.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_timeline_layout_init (WsTimelineLayout *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (WsTimelineRow));
  self->thread_height = 24;
  self->process_height = 26;
}

static int
compare_process (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  WsTimelineLayout *self = user_data;
  guint pa = *(const guint *) a, pb = *(const guint *) b;
  const WsProcess *wa = ws_trace_get_process (self->trace, pa);
  const WsProcess *wb = ws_trace_get_process (self->trace, pb);

  /* The idle task is not a process anyone investigates: last. */
  if ((wa->pid == 0) != (wb->pid == 0))
    return wa->pid == 0 ? 1 : -1;
  if (self->events_per_process[pa] != self->events_per_process[pb])
    return self->events_per_process[pa] > self->events_per_process[pb] ? -1 : 1;
  return wa->pid < wb->pid ? -1 : wa->pid > wb->pid;
}

static void
rebuild (WsTimelineLayout *self)
{
  double y = 0;
  guint n_threads = ws_trace_get_n_threads (self->trace);

  g_array_set_size (self->rows, 0);
  self->n_visible_threads = 0;
  for (guint t = 0; t < n_threads; t++)
    self->thread_row[t] = WS_NONE;

  for (guint i = 0; i < self->n_processes; i++)
    {
      guint p = self->process_order[i];
      const WsProcess *process = ws_trace_get_process (self->trace, p);
      WsTimelineRow row = { WS_TIMELINE_ROW_PROCESS, p, y, self->process_height, 0 };

      if (self->events_per_process[p] == 0)
        continue;

      self->process_row[p] = self->rows->len;
      g_array_append_val (self->rows, row);
      y += row.height;

      if (self->collapsed[p])
        continue;

      for (guint k = 0; k < process->n_threads; k++)
        {
          guint t = process->threads[k];
          double lane = self->has_instances[t] ? WS_TIMELINE_LANE_HEIGHT : 0;
          WsTimelineRow trow = { WS_TIMELINE_ROW_THREAD, t, y, self->thread_height + lane, lane };

          if (ws_trace_get_thread (self->trace, t)->n_events == 0)
            continue;
          self->thread_row[t] = self->rows->len;
          g_array_append_val (self->rows, trow);
          y += trow.height;
          self->n_visible_threads++;
        }
    }
}

/**
 * ws_timeline_layout_new:
 * @trace: a finished trace
 *
 * Returns: (transfer full): the rows of @trace, every process expanded
 */
WsTimelineLayout *
ws_timeline_layout_new (WsTrace *trace)
{
  WsTimelineLayout *self;
  guint n_threads;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);

  self = g_object_new (WS_TYPE_TIMELINE_LAYOUT, NULL);
  self->trace = g_object_ref (trace);
  self->n_processes = ws_trace_get_n_processes (trace);
  n_threads = ws_trace_get_n_threads (trace);

  self->events_per_process = g_new0 (guint, MAX (self->n_processes, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      if (thread->process != WS_NONE)
        self->events_per_process[thread->process] += thread->n_events;
    }

  self->process_order = g_new (guint, MAX (self->n_processes, 1));
  for (guint p = 0; p < self->n_processes; p++)
    self->process_order[p] = p;
  g_qsort_with_data (self->process_order, self->n_processes, sizeof (guint),
                     compare_process, self);

  self->collapsed = g_new0 (gboolean, MAX (self->n_processes, 1));
  self->thread_row = g_new (guint, MAX (n_threads, 1));
  self->process_row = g_new (guint, MAX (self->n_processes, 1));
  for (guint p = 0; p < self->n_processes; p++)
    self->process_row[p] = WS_NONE;
  /* Threads that ran scenario instances get a lane for their slices. */
  self->has_instances = g_new0 (gboolean, MAX (n_threads, 1));
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      guint t = ws_trace_get_scenario_instance (trace, i)->thread;
      if (t < n_threads)
        self->has_instances[t] = TRUE;
    }
  rebuild (self);

  return self;
}

WsTrace *
ws_timeline_layout_get_trace (WsTimelineLayout *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), NULL);
  return self->trace;
}

void
ws_timeline_layout_set_row_height (WsTimelineLayout *self,
                                   double            thread_height,
                                   double            process_height)
{
  g_return_if_fail (WS_IS_TIMELINE_LAYOUT (self));
  g_return_if_fail (thread_height >= 1 && process_height >= 1);

  if (thread_height == self->thread_height && process_height == self->process_height)
    return;
  self->thread_height = thread_height;
  self->process_height = process_height;
  rebuild (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

double
ws_timeline_layout_get_thread_height (WsTimelineLayout *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), 0);
  return self->thread_height;
}

guint
ws_timeline_layout_get_n_rows (WsTimelineLayout *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), 0);
  return self->rows->len;
}

const WsTimelineRow *
ws_timeline_layout_get_row (WsTimelineLayout *self,
                            guint             row)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);
  return &g_array_index (self->rows, WsTimelineRow, row);
}

double
ws_timeline_layout_get_height (WsTimelineLayout *self)
{
  const WsTimelineRow *last;

  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), 0);
  if (self->rows->len == 0)
    return 0;
  last = &g_array_index (self->rows, WsTimelineRow, self->rows->len - 1);
  return last->y + last->height;
}

/**
 * ws_timeline_layout_row_at_y:
 *
 * Returns: the row whose [y, y + height) holds @y, or %WS_NONE
 */
guint
ws_timeline_layout_row_at_y (WsTimelineLayout *self,
                             double            y)
{
  const WsTimelineRow *rows;
  guint lo = 0, hi;

  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), WS_NONE);

  rows = (const WsTimelineRow *) (gconstpointer) self->rows->data;
  hi = self->rows->len;
  if (y < 0 || hi == 0 || y >= ws_timeline_layout_get_height (self))
    return WS_NONE;
  while (lo + 1 < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (rows[mid].y <= y)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/**
 * ws_timeline_layout_find_thread_row:
 *
 * Returns: the row of @thread, or %WS_NONE if it has none (collapsed
 *   process, no events)
 */
guint
ws_timeline_layout_find_thread_row (WsTimelineLayout *self,
                                    guint             thread)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), WS_NONE);
  if (thread >= ws_trace_get_n_threads (self->trace))
    return WS_NONE;
  return self->thread_row[thread];
}

guint
ws_timeline_layout_find_process_row (WsTimelineLayout *self,
                                     guint             process)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), WS_NONE);
  if (process >= self->n_processes)
    return WS_NONE;
  return self->process_row[process];
}

void
ws_timeline_layout_set_collapsed (WsTimelineLayout *self,
                                  guint             process,
                                  gboolean          collapsed)
{
  g_return_if_fail (WS_IS_TIMELINE_LAYOUT (self));
  g_return_if_fail (process < self->n_processes);

  collapsed = !!collapsed;
  if (self->collapsed[process] == collapsed)
    return;
  self->collapsed[process] = collapsed;
  rebuild (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
ws_timeline_layout_get_collapsed (WsTimelineLayout *self,
                                  guint             process)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);
  return self->collapsed[process];
}

guint
ws_timeline_layout_get_n_visible_threads (WsTimelineLayout *self)
{
  g_return_val_if_fail (WS_IS_TIMELINE_LAYOUT (self), 0);
  return self->n_visible_threads;
}
