/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "ws-synthetic-trace.h"
#include "ws-trace-private.h"

#define START_TIME 1000000000  /* 1 s after "boot" */

typedef struct {
  guint  index;
  WsTime now;
  WsTime next_sample;
} SimThread;

static WsTime
expo (GRand  *rand,
      double  mean)
{
  return (WsTime) (-mean * log (1.0 - g_rand_double (rand))) + 1;
}

static WsStackId
make_stack (WsStackTable *stacks,
            const char   *const *frames)
{
  WsFrameId ids[16];
  guint n = 0;

  for (; frames[n] != NULL; n++)
    ids[n] = ws_stack_table_intern_frame (stacks, frames[n], frames[n][0] == '_' || g_str_has_prefix (frames[n], "futex") ||
                                          g_str_has_prefix (frames[n], "io_") || g_str_has_prefix (frames[n], "schedule") ?
                                          "[kernel.kallsyms]" : "/usr/bin/synthetic");
  return ws_stack_table_intern_stack (stacks, ids, n);
}

WsTrace *
ws_synthetic_trace_new (guint   n_processes,
                        guint   threads_per_process,
                        guint   n_events,
                        guint32 seed)
{
  static const char *const lock_wait[] = { "main", "worker_loop", "queue_pop", "pthread_mutex_lock", "futex_wait", "schedule", NULL };
  static const char *const disk_wait[] = { "main", "worker_loop", "flush_log", "fdatasync", "io_schedule", "schedule", NULL };
  static const char *const idle_wait[] = { "main", "worker_loop", "epoll_wait", "schedule_hrtimeout_range", "schedule", NULL };
  static const char *const unlock[] = { "main", "worker_loop", "queue_push", "pthread_mutex_unlock", "futex_wake", "try_to_wake_up", NULL };
  static const char *const compute[] = { "main", "worker_loop", "compute_checksum", "crc32_update", NULL };
  static const char *const *const kinds[] = { lock_wait, disk_wait, idle_wait };
  WsStackTable *stacks = ws_stack_table_new ();
  WsTrace *trace = ws_trace_new ("synthetic.trace", stacks);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint n_threads = n_processes * threads_per_process;
  g_autofree SimThread *threads = g_new0 (SimThread, n_threads);
  WsStackId wait_stacks[3], unlock_stack, compute_stack;
  guint count = 0;

  g_object_unref (stacks);   /* the trace holds it */
  for (guint k = 0; k < 3; k++)
    wait_stacks[k] = make_stack (stacks, kinds[k]);
  unlock_stack = make_stack (stacks, unlock);
  compute_stack = make_stack (stacks, compute);

  for (guint p = 0; p < n_processes; p++)
    {
      gint32 pid = 1000 + (gint32) p * 100;
      g_autofree char *pname = g_strdup_printf ("app-%u", p);

      ws_trace_set_process_name (trace, pid, pname);
      for (guint k = 0; k < threads_per_process; k++)
        {
          guint t = ws_trace_ensure_thread (trace, pid + (gint32) k, pid);
          g_autofree char *name = k == 0 ? g_strdup (pname) : g_strdup_printf ("worker-%u", k);

          ws_trace_set_thread_name (trace, t, name);
          threads[p * threads_per_process + k].index = t;
          threads[p * threads_per_process + k].now = START_TIME + g_rand_int_range (rand, 0, 50000);
          threads[p * threads_per_process + k].next_sample = START_TIME + g_rand_int_range (rand, 0, 2000000);
        }
    }

  /* Round-robin over threads keeps their clocks roughly together. */
  while (count < n_events)
    {
      for (guint i = 0; i < n_threads && count < n_events; i++)
        {
          SimThread *st = &threads[i];
          WsTime run = expo (rand, 60000);
          WsTime wait_len = expo (rand, 240000);
          double r = g_rand_double (rand);
          WsEvent e;
          guint wait_index;
          guint32 latency;

          /* Run span, maybe cut by a preemption. */
          ws_event_init (&e, WS_EVENT_RUNNING, st->now, st->index);
          ws_event_set_duration (&e, run);
          e.stack = compute_stack;
          e.flags = WS_EVENT_FLAG_SPAN;
          ws_trace_add_event (trace, &e);
          count++;
          st->now += run;

          while (st->next_sample < st->now)
            {
              if (st->next_sample >= e.time)
                {
                  WsEvent s = e;
                  s.time = st->next_sample;
                  ws_event_set_duration (&s, 2000000);
                  s.flags = 0;
                  ws_trace_add_event (trace, &s);
                  count++;
                }
              st->next_sample += 2000000;
            }

          if (g_rand_double (rand) < 0.1)
            {
              WsEvent pre;
              ws_event_init (&pre, WS_EVENT_PREEMPT, st->now, st->index);
              ws_event_set_duration (&pre, expo (rand, 30000));
              pre.state = 'R';
              ws_trace_add_event (trace, &pre);
              count++;
              st->now += ws_event_duration (&pre);
              continue;
            }

          /* A wait. */
          {
            WsEvent w;
            double s = g_rand_double (rand);
            guint kind = s < 0.7 ? 0 : s < 0.9 ? 1 : 2;

            ws_event_init (&w, WS_EVENT_WAIT, st->now, st->index);
            ws_event_set_duration (&w, wait_len);
            w.stack = wait_stacks[kind];
            w.state = kind == 0 ? 'S' : kind == 1 ? 'D' : 'I';
            w.flags = kind == 1 ? WS_EVENT_FLAG_UNINTERRUPTIBLE : 0;
            latency = g_rand_double (rand) < 0.9 ? (guint32) expo (rand, 8000) : WS_LATENCY_UNKNOWN;
            if (r >= 0.85)
              {
                w.flags |= WS_EVENT_FLAG_READIER_UNKNOWN;
                latency = WS_LATENCY_UNKNOWN;
              }
            wait_index = ws_trace_add_event (trace, &w);
            count++;
          }

          if (r < 0.85)
            {
              WsEvent u;
              guint readier = (i + 1 + g_rand_int_range (rand, 0, MAX (n_threads - 1, 1))) % n_threads;
              guint unwait_index;

              ws_event_init (&u, r < 0.75 ? WS_EVENT_UNWAIT : WS_EVENT_HW_SERVICE, st->now + wait_len,
                             r < 0.75 ? threads[readier].index : threads[i].index);
              u.stack = r < 0.75 ? unlock_stack : WS_STACK_EMPTY;
              u.peer = wait_index;
              ws_event_set_target (&u, st->index);
              unwait_index = ws_trace_add_event (trace, &u);
              ws_trace_peek_event (trace, wait_index)->peer = unwait_index;
              count++;
            }

          st->now += wait_len;
          if (latency != WS_LATENCY_UNKNOWN)
            {
              ws_trace_set_wait_ready_latency (trace, wait_index, latency);
              st->now += latency;
            }
        }
    }

  ws_trace_finish (trace);
  return trace;
}
