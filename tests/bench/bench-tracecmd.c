/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * trace-cmd import speed against its peers on the same file (not a timed
 * test: it measures and prints; docs/performance.md):
 *
 *   bench-tracecmd FILE.dat...
 *
 * For each file, the best of five interleaved runs (ws-bench-driver.h) of: Waitscope's import (the
 * loader, as the CLI and the GUI open it), `trace-cmd report FILE`
 * (trace-cmd's own decoder, its text to /dev/null), and, when the perf
 * recording of the same run lies beside it (FILE.perf.txt.gz, made by
 * tests/data/tracecmd/record.sh), Waitscope's import of that.  Goal: the
 * import within 2× of `trace-cmd report`.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ws-bench-driver.h"

#define RUNS 5

int
main (int    argc,
      char **argv)
{
  int status = 0;

  if (argc < 2)
    {
      g_printerr ("usage: bench-tracecmd FILE.dat...\n");
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *stem = g_str_has_suffix (argv[i], ".dat") ? g_strndup (argv[i], strlen (argv[i]) - 4) : NULL;
      g_autofree char *perf = stem ? g_strconcat (stem, ".perf.txt.gz", NULL) : NULL;
      const char *report[] = { "trace-cmd", "report", argv[i], NULL };
      WsBenchImport ours = { argv[i], 0 }, text = { perf, 0 };
      gboolean with_text = perf != NULL && g_file_test (perf, G_FILE_TEST_EXISTS);
      WsBenchSide sides[] = {
        { ws_bench_run_import, &ours, 0 },
        { ws_bench_run_command, report, 0 },
        { ws_bench_run_import, &text, 0 },
      };

      ws_bench_interleave (sides, with_text ? 3 : 2, RUNS);
      if (sides[0].best < 0)
        {
          status = 1;
          continue;
        }
      printf ("%s: %u events, import %.4f s (%.2f M events/s)", argv[i], ours.n_events, sides[0].best,
              ours.n_events / sides[0].best / 1e6);
      if (sides[1].best > 0)
        printf ("; trace-cmd report %.4f s; import / report = %.2f (goal <= 2)", sides[1].best,
                sides[0].best / sides[1].best);
      else
        printf ("; trace-cmd report not run (not installed?)");
      if (with_text && sides[2].best > 0)
        printf ("; perf text of the same run %.4f s (%u events), .dat / perf text = %.2f", sides[2].best,
                text.n_events, sides[0].best / sides[2].best);
      printf ("\n");
    }
  return status;
}
