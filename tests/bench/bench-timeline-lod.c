/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timeline's level of detail on a real trace: loads TRACE once, then
 * builds ws_timeline_lod_new() RUNS times and prints the wall time of each
 * build (and the CPU time of all its workers, steadier than the wall time
 * on a shared machine) and of the load, so that the detail's cost can be read against
 * the load it follows (docs/performance.md).  WAITSCOPE_THREADS picks the
 * workers, as in the window.
 *
 *   bench-timeline-lod TRACE [RUNS]
 */
#include "config.h"

#include <time.h>

#include "ws-timeline-lod.h"
#include "ws-trace-loader.h"

static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  guint runs = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 3;
  gint64 start;

  if (argc < 2)
    {
      g_printerr ("usage: bench-timeline-lod TRACE [RUNS]\n");
      return 2;
    }
  start = g_get_monotonic_time ();
  trace = ws_trace_loader_load (argv[1], NULL, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("load %.3f s, %u events, %u threads\n", (g_get_monotonic_time () - start) / 1e6,
           ws_trace_get_n_events (trace), ws_trace_get_n_threads (trace));
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(WsTimelineLod) lod = NULL;
      double cpu = cpu_s ();

      start = g_get_monotonic_time ();
      lod = ws_timeline_lod_new (trace, NULL, &error);
      g_print ("detail %.3f s wall, %.3f s CPU, %zu bytes\n", (g_get_monotonic_time () - start) / 1e6,
               cpu_s () - cpu, ws_timeline_lod_get_memory_size (lod));
    }
  return 0;
}
