/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Perfetto import speed against the project's own perf-text import of the
 * same events (not a timed test: it measures and prints;
 * docs/performance.md):
 *
 *   bench-perfetto TRACE.pftrace[.gz] PERF.perf.txt.gz ...
 *
 * Each pair is one recording in both formats (tests/data/perfetto/ holds
 * perf recordings converted by tools/perf-to-perfetto.py).  For each, the
 * best of five loads of each file through the loader (as the CLI and the
 * GUI open them), the events made, and the ratio.  No Perfetto decoder
 * (trace_processor) is installed here to compare with; the perf text
 * import is the peer, and the goal is the Perfetto import within 2× of it.
 */
#include "config.h"

#include <stdio.h>

#include "ws-trace-loader.h"

#define RUNS 5

static double
import_seconds (const char *path,
                guint      *n_events)
{
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < RUNS; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;
      gint64 t0 = g_get_monotonic_time ();

      trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          return -1;
        }
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
      *n_events = ws_trace_get_n_events (trace);
    }
  return best;
}

int
main (int    argc,
      char **argv)
{
  int status = 0;

  if (argc < 3 || (argc - 1) % 2 != 0)
    {
      g_printerr ("usage: bench-perfetto TRACE.pftrace PERF.perf.txt.gz ...\n");
      return 2;
    }
  for (int i = 1; i + 1 < argc; i += 2)
    {
      guint n_events = 0, n_perf_events = 0;
      double ours = import_seconds (argv[i], &n_events);
      double perf = import_seconds (argv[i + 1], &n_perf_events);

      if (ours < 0 || perf < 0)
        {
          status = 1;
          continue;
        }
      printf ("%s: %u events, import %.4f s (%.2f M events/s); perf text %s: %u events, %.4f s; "
              "Perfetto / perf text = %.2f (goal <= 2)\n",
              argv[i], n_events, ours, n_events / ours / 1e6, argv[i + 1], n_perf_events, perf, ours / perf);
    }
  return status;
}
