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
 * best of five interleaved loads of each file (ws-bench-driver.h) through the loader (as the CLI and the
 * GUI open them), the events made, and the ratio.  No Perfetto decoder
 * (trace_processor) is installed here to compare with; the perf text
 * import is the peer, and the goal is the Perfetto import within 2× of it.
 */
#include "config.h"

#include <stdio.h>

#include "ws-bench-driver.h"

#define RUNS 5

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
      WsBenchImport ours = { argv[i], 0 }, perf = { argv[i + 1], 0 };
      WsBenchSide sides[] = {
        { ws_bench_run_import, &ours, 0 },
        { ws_bench_run_import, &perf, 0 },
      };

      ws_bench_interleave (sides, G_N_ELEMENTS (sides), RUNS);
      if (sides[0].best < 0 || sides[1].best < 0)
        {
          status = 1;
          continue;
        }
      printf ("%s: %u events, import %.4f s (%.2f M events/s); perf text %s: %u events, %.4f s; "
              "Perfetto / perf text = %.2f (goal <= 2)\n",
              argv[i], ours.n_events, sides[0].best, ours.n_events / sides[0].best / 1e6, argv[i + 1],
              perf.n_events, sides[1].best, sides[0].best / sides[1].best);
    }
  return status;
}
