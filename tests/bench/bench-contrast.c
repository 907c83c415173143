/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Contrast speed: Algorithm 1 and contrast mining over as many scenario
 * instances as the paper's Table 1 (17,612).
 *
 * How the instances are made: one synthetic trace (WsTestTrace) in which
 * every instance has its own 20 ms slot.  An initiating thread (one of 64)
 * runs, then waits on a lock held by a worker (one of 256); the worker runs
 * and either waits in turn on the next worker of a chain 1-4 hops deep, or
 * at the end of the chain computes (running) or waits for the disk
 * (uninterruptible, woken from interrupt context).  Each hop draws its
 * lock function from 40, each computation from 120, each thread's entry
 * frame from a few, so that the aggregated graphs stay realistically
 * diverse (thousands of nodes).  A quarter of the chains end at the disk,
 * and their hops last longer.  T_fast is the median duration and T_slow
 * one nanosecond above it, so that every instance is in one class: both
 * aggregated graphs together hold all the instances.  Instances are generated before the clock starts; the time
 * measured is ws_contrast_run() itself: per instance, the wait graph
 * (StackMine Fig. 2) plus Algorithm 1, then the meta-patterns and contrast
 * patterns.  Single-threaded: run it with `taskset -c 0` for one core.
 *
 *   bench-contrast [N_INSTANCES]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "ws-contrast.h"
#include "ws-synthetic-waits.h"

#define US 1000
#define MS 1000000

typedef struct {
  WsTestTrace *tt;
  GRand       *rand;
  guint        ui[64];
  guint        worker[256];
  guint        next_worker;
} Gen;

static WsStackId
stack (Gen *g, const char *entry, const char *prefix, guint n_choices, const char *tail)
{
  g_autofree char *frames = g_strdup_printf ("%s;%s_%u%s%s", entry, prefix,
                                             g_rand_int_range (g->rand, 0, n_choices),
                                             tail ? ";" : "", tail ? tail : "");
  return ws_test_trace_stack (g->tt, frames);
}

/* Worker hop @level of a chain inside [t0, t1); returns the worker thread. */
static guint
hop (Gen *g, guint level, guint depth, gboolean disk, WsTime t0, WsTime t1)
{
  guint w = g->worker[g->next_worker++ % G_N_ELEMENTS (g->worker)];
  const char *entry = level % 2 ? "wmain" : "bgmain";
  WsTime run = (t1 - t0) / 8, mid0 = t0 + run, mid1 = t1 - run / 2;

  ws_test_trace_run (g->tt, w, t0, mid0, stack (g, entry, "cp", 120, NULL));
  if (level + 1 < depth)
    {
      guint wait = ws_test_trace_wait (g->tt, w, mid0, mid1, stack (g, entry, "lk", 40, "futex_wait"));
      guint next = hop (g, level + 1, depth, disk, mid0 + 10 * US, mid1 - 10 * US);
      ws_test_trace_wake (g->tt, next, wait, stack (g, "wmain", "lk", 40, "futex_wake"));
    }
  else if (disk)
    {
      guint wait = ws_test_trace_wait (g->tt, w, mid0, mid1, stack (g, entry, "io", 8, "io_schedule"));
      ws_test_trace_hw_wake (g->tt, g->ui[0], wait, ws_test_trace_stack (g->tt, "irq;blk_mq_end_request"));
    }
  else
    ws_test_trace_run (g->tt, w, mid0, mid1, stack (g, entry, "cp", 120, NULL));
  ws_test_trace_run (g->tt, w, mid1, t1, stack (g, entry, "cp", 120, NULL));
  return w;
}

static void
instance (Gen *g, guint i)
{
  WsTime t0 = (WsTime) i * 20 * MS + MS;
  gboolean disk = g_rand_int_range (g->rand, 0, 4) == 0;
  guint depth = g_rand_int_range (g->rand, 1, 5);
  WsTime wait_len = (disk ? 4 : 1) * MS + g_rand_int_range (g->rand, 0, disk ? 12000 : 4000) * US;
  guint ui = g->ui[1 + i % (G_N_ELEMENTS (g->ui) - 1)];
  guint wait, holder;

  ws_test_trace_run (g->tt, ui, t0, t0 + 200 * US, stack (g, "uimain", "cp", 120, NULL));
  wait = ws_test_trace_wait (g->tt, ui, t0 + 200 * US, t0 + 200 * US + wait_len, stack (g, "uimain", "lk", 40, "futex_wait"));
  holder = hop (g, 0, depth, disk, t0 + 210 * US, t0 + 190 * US + wait_len);
  ws_test_trace_wake (g->tt, holder, wait, stack (g, "wmain", "lk", 40, "futex_wake"));
  ws_test_trace_run (g->tt, ui, t0 + 200 * US + wait_len, t0 + 400 * US + wait_len, stack (g, "uimain", "cp", 120, NULL));
  ws_test_trace_marker (g->tt, ui, t0, "app:op__start");
  ws_test_trace_marker (g->tt, ui, t0 + 400 * US + wait_len, "app:op__done");
}

static WsTrace *
make_trace (guint n)
{
  Gen g = { 0 };
  WsTrace *trace;

  g.tt = ws_test_trace_new ();
  g.rand = g_rand_new_with_seed (17612);
  for (guint i = 0; i < G_N_ELEMENTS (g.ui); i++)
    g.ui[i] = ws_test_trace_thread (g.tt, 1000 + i, 1000, "ui");
  for (guint i = 0; i < G_N_ELEMENTS (g.worker); i++)
    g.worker[i] = ws_test_trace_thread (g.tt, 5000 + i, 5000, "worker");
  for (guint i = 0; i < n; i++)
    instance (&g, i);
  ws_test_trace_finish (g.tt);
  trace = g_object_ref (ws_test_trace_get_trace (g.tt));
  ws_test_trace_free (g.tt);
  g_rand_free (g.rand);
  ws_trace_add_scenario_instances (trace, "op", "app:op__start", "app:op__done");
  return trace;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 17612;
  g_autoptr(WsTrace) trace = make_trace (n);
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(GError) error = NULL;
  double best = G_MAXDOUBLE;
  WsContrastSettings s = { .component = "^(lk|cp|io)_" };

  ws_instance_set_add_trace (set, trace, "op");
  s.instances = set;
  /* Every instance in one class or the other (T_slow just above T_fast =
   * the median): the graphs aggregate all 17,612, not only the tails. */
  s.t_fast = ws_instance_set_percentile (set, 0.5);
  s.t_slow = s.t_fast + 1;
  printf ("instances: %u, events: %u\n", ws_instance_set_get_n (set), ws_trace_get_n_events (trace));
  for (guint run = 0; run < 3; run++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(WsContrastResult) r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
      double secs = (g_get_monotonic_time () - t0) / 1e6;
      guint mf, ms, mc;

      if (r == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      best = MIN (best, secs);
      ws_contrast_result_get_meta_counts (r, &mf, &ms, &mc);
      printf ("run %u: %.3f s  fast %u slow %u instances; AWG nodes fast %u slow %u; "
              "meta-patterns %u/%u, contrast %u; patterns %u\n",
              run, secs, ws_instance_set_get_n (ws_contrast_result_get_fast (r)),
              ws_instance_set_get_n (ws_contrast_result_get_slow (r)),
              ws_awg_get_n_nodes (ws_contrast_result_get_awg_fast (r)),
              ws_awg_get_n_nodes (ws_contrast_result_get_awg_slow (r)), mf, ms, mc,
              ws_contrast_result_get_n_patterns (r));
    }
  printf ("best of 3: %.3f s for %u instances (goal <= 2 s on one core)\n", best, n);
  return 0;
}
