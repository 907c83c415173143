/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-synthetic-waits.h"


struct _WsTestTrace
{
  WsTrace  *trace;
  GArray   *times;      /* builder index -> time */
  guint32  *final;      /* builder index -> final index, after finish */
  gboolean  finished;
};

WsTestTrace *
ws_test_trace_new (void)
{
  WsTestTrace *tt = g_new0 (WsTestTrace, 1);

  tt->trace = ws_trace_new ("hand-built.trace", NULL);
  tt->times = g_array_new (FALSE, FALSE, sizeof (WsTime));
  return tt;
}

void
ws_test_trace_free (WsTestTrace *tt)
{
  g_clear_object (&tt->trace);
  g_array_unref (tt->times);
  g_free (tt->final);
  g_free (tt);
}

WsTrace *
ws_test_trace_get_trace (WsTestTrace *tt)
{
  return tt->trace;
}

guint
ws_test_trace_thread (WsTestTrace *tt,
                      gint32       tid,
                      gint32       pid,
                      const char  *name)
{
  guint t = ws_trace_ensure_thread (tt->trace, tid, pid);
  ws_trace_set_thread_name (tt->trace, t, name);
  return t;
}

void
ws_test_trace_process (WsTestTrace *tt,
                       gint32       pid,
                       const char  *name)
{
  ws_trace_set_process_name (tt->trace, pid, name);
}

WsStackId
ws_test_trace_stack (WsTestTrace *tt,
                     const char  *frames)
{
  WsStackTable *table = ws_trace_get_stack_table (tt->trace);
  g_auto(GStrv) names = g_strsplit (frames, ";", -1);
  guint n = g_strv_length (names);
  g_autofree WsFrameId *ids = g_new (WsFrameId, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    ids[i] = ws_stack_table_intern_frame (table, names[i], "m");
  return ws_stack_table_intern_stack (table, ids, n);
}

static guint
add (WsTestTrace *tt,
     WsEvent     *e)
{
  g_assert (!tt->finished);
  g_array_append_val (tt->times, e->time);
  return ws_trace_add_event (tt->trace, e);
}

static WsEvent
blank (guint thread, WsTime time, WsEventKind kind)
{
  WsEvent e;

  ws_event_init (&e, kind, time, thread);
  return e;
}

guint
ws_test_trace_run (WsTestTrace *tt,
                   guint        thread,
                   WsTime       start,
                   WsTime       end,
                   WsStackId    stack)
{
  WsEvent e = blank (thread, start, WS_EVENT_RUNNING);

  ws_event_set_duration (&e, end - start);
  e.stack = stack;
  e.flags = WS_EVENT_FLAG_SPAN;
  return add (tt, &e);
}

guint
ws_test_trace_sample (WsTestTrace *tt,
                      guint        thread,
                      WsTime       time,
                      WsTime       period,
                      WsStackId    stack)
{
  WsEvent e = blank (thread, time, WS_EVENT_RUNNING);

  ws_event_set_duration (&e, period);
  e.stack = stack;
  return add (tt, &e);
}

guint
ws_test_trace_wait (WsTestTrace *tt,
                    guint        thread,
                    WsTime       start,
                    WsTime       end,
                    WsStackId    stack)
{
  WsEvent e = blank (thread, start, WS_EVENT_WAIT);

  ws_event_set_duration (&e, end - start);
  e.stack = stack;
  e.flags = WS_EVENT_FLAG_READIER_UNKNOWN;
  e.state = 'S';
  return add (tt, &e);
}

void
ws_test_trace_set_latency (WsTestTrace *tt,
                           guint        wait,
                           guint32      ready_latency)
{
  ws_trace_set_wait_ready_latency (tt->trace, wait, ready_latency);
}

static guint
wake (WsTestTrace *tt,
      guint        thread,
      guint        wait,
      WsStackId    stack,
      WsEventKind  kind)
{
  WsEvent *w = ws_trace_peek_event (tt->trace, wait);
  WsEvent e = blank (thread, w->time + ws_event_duration (w), kind);
  guint index;

  g_assert (w->kind == WS_EVENT_WAIT);
  e.stack = stack;
  e.peer = wait;
  ws_event_set_target (&e, w->thread);
  index = add (tt, &e);

  w = ws_trace_peek_event (tt->trace, wait);   /* the array may have moved */
  w->peer = index;
  w->flags &= ~WS_EVENT_FLAG_READIER_UNKNOWN;
  return index;
}

guint
ws_test_trace_wake (WsTestTrace *tt,
                    guint        readier,
                    guint        wait,
                    WsStackId    stack)
{
  return wake (tt, readier, wait, stack, WS_EVENT_UNWAIT);
}

guint
ws_test_trace_hw_wake (WsTestTrace *tt,
                       guint        context_thread,
                       guint        wait,
                       WsStackId    stack)
{
  return wake (tt, context_thread, wait, stack, WS_EVENT_HW_SERVICE);
}

guint
ws_test_trace_preempt (WsTestTrace *tt,
                       guint        thread,
                       WsTime       start,
                       WsTime       end)
{
  WsEvent e = blank (thread, start, WS_EVENT_PREEMPT);

  ws_event_set_duration (&e, end - start);
  e.state = 'R';
  return add (tt, &e);
}

guint
ws_test_trace_marker (WsTestTrace *tt,
                      guint        thread,
                      WsTime       time,
                      const char  *name)
{
  WsEvent e = blank (thread, time, WS_EVENT_MARKER);

  ws_event_set_name (&e, ws_trace_intern_string (tt->trace, name));
  return add (tt, &e);
}

static int
compare_built (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const WsTime *times = user_data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (times[x] != times[y])
    return times[x] < times[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

void
ws_test_trace_finish (WsTestTrace *tt)
{
  guint n = tt->times->len;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));

  /* The same stable (time, insertion) order as ws_trace_finish(). */
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_built, tt->times->data);
  tt->final = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    tt->final[order[i]] = i;

  ws_trace_finish (tt->trace);
  tt->finished = TRUE;
}

guint
ws_test_trace_index (WsTestTrace *tt,
                     guint        built)
{
  g_assert (tt->finished);
  g_assert (built < tt->times->len);
  return tt->final[built];
}

typedef struct {
  guint   running;      /* TRUE while on CPU */
  WsTime  since;        /* start of the current run or wait */
  guint   wait;         /* builder index of the open wait */
  gboolean never_blocks;
} SimThread;

WsTrace *
ws_synthetic_wait_trace (guint      n_threads,
                         guint      n_steps,
                         guint32    seed,
                         WsSymptom *symptom)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree SimThread *sim = g_new0 (SimThread, n_threads);
  g_autofree guint *threads = g_new (guint, n_threads);
  g_autofree guint *running = g_new (guint, n_threads);
  WsTestTrace *tt;
  WsStackId lock_stack, release_stack, run_stack, timer_stack;
  const WsTime step = 1000;
  WsTrace *trace;

  g_return_val_if_fail (n_threads >= 2, NULL);

  tt = ws_test_trace_new ();
  lock_stack = ws_test_trace_stack (tt, "main;worker;pthread_mutex_lock;__lll_lock_wait;futex_wait");
  release_stack = ws_test_trace_stack (tt, "main;worker;pthread_mutex_unlock;futex_wake;try_to_wake_up");
  run_stack = ws_test_trace_stack (tt, "main;worker;compute");
  timer_stack = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;hrtimer_wakeup;try_to_wake_up");

  for (guint i = 0; i < n_threads; i++)
    {
      g_autofree char *name = g_strdup_printf ("synth-%u", i);
      threads[i] = ws_test_trace_thread (tt, 1000 + i, 1000, name);
      sim[i].running = TRUE;
      sim[i].since = 0;
      sim[i].never_blocks = (i % 16) == 15;
    }

  for (guint s = 1; s <= n_steps; s++)
    {
      WsTime now = s * step;
      guint n_running = 0;

      for (guint i = 0; i < n_threads; i++)
        if (sim[i].running)
          running[n_running++] = i;

      for (guint i = 0; i < n_threads; i++)
        {
          SimThread *t = &sim[i];

          if (t->running)
            {
              /* Short runs... */
              if (t->never_blocks || g_rand_int_range (rand, 0, 3) != 0)
                continue;
              ws_test_trace_run (tt, threads[i], t->since, now, run_stack);
              t->wait = ws_test_trace_wait (tt, threads[i], now, now, lock_stack);
              t->running = FALSE;
              t->since = now;
            }
          else
            {
              int dice = g_rand_int_range (rand, 0, 100);
              WsEvent *w;

              /* ...and long waits, so that each wait holds several events of
               * its readier and Fig. 2 keeps growing: the graph of thread 0
               * reaches most of the trace. */
              if (dice >= 10 || now == t->since)
                continue;
              w = ws_trace_peek_event (ws_test_trace_get_trace (tt), t->wait);
              ws_event_set_duration (w, now - t->since);
              if (dice < 9 && n_running > 0)
                {
                  guint r = running[g_rand_int_range (rand, 0, n_running)];
                  ws_test_trace_wake (tt, threads[r], t->wait, release_stack);
                }
              else if (dice == 9 && g_rand_int_range (rand, 0, 2) == 0)
                ws_test_trace_hw_wake (tt, threads[0], t->wait, timer_stack);
              /* else: no wake-up recorded, as real kernels sometimes do */
              t->running = TRUE;
              t->since = now;
            }
        }
    }

  for (guint i = 0; i < n_threads; i++)
    {
      WsTime end = (WsTime) (n_steps + 1) * step;

      if (sim[i].running)
        ws_test_trace_run (tt, threads[i], sim[i].since, end, run_stack);
      else
        {
          WsEvent *w = ws_trace_peek_event (ws_test_trace_get_trace (tt), sim[i].wait);
          ws_event_set_duration (w, end - sim[i].since);
          w->flags |= WS_EVENT_FLAG_UNFINISHED;
        }
    }

  ws_test_trace_finish (tt);
  trace = g_object_ref (ws_test_trace_get_trace (tt));
  ws_test_trace_free (tt);

  if (symptom != NULL)
    {
      symptom->thread = threads[0];
      symptom->t0 = 0;
      symptom->t1 = (WsTime) (n_steps + 1) * step;
    }
  return trace;
}

WsWaitGraph *
ws_synthetic_wait_graph (guint   min_nodes,
                         guint32 seed)
{
  for (guint steps = 2000;; steps += steps / 2)
    {
      WsSymptom symptom;
      g_autoptr(WsTrace) trace = ws_synthetic_wait_trace (8, steps, seed, &symptom);
      g_autoptr(WsWaitGraph) graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, NULL);

      if (ws_wait_graph_get_n_nodes (graph) >= min_nodes || steps > 10000000)
        return g_steal_pointer (&graph);
    }
}
