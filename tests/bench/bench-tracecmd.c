/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * trace-cmd import speed against its peers on the same file (not a timed
 * test: it measures and prints; docs/performance.md):
 *
 *   bench-tracecmd FILE.dat...
 *
 * For each file, the best of five runs of: Waitscope's import (the
 * loader, as the CLI and the GUI open it), `trace-cmd report FILE`
 * (trace-cmd's own decoder, its text to /dev/null), and, when the perf
 * recording of the same run lies beside it (FILE.perf.txt.gz, made by
 * tests/data/tracecmd/record.sh), Waitscope's import of that.  Goal: the
 * import within 2× of `trace-cmd report`.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

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

static double
report_seconds (const char *path)
{
  const char *argv[] = { "trace-cmd", "report", path, NULL };
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < RUNS; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      gint status = 0;

      if (!g_spawn_sync (NULL, (char **) argv, NULL,
                         G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                         NULL, NULL, NULL, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL))
        return -1;
      best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
    }
  return best;
}

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
      guint n_events = 0, n_perf_events = 0;
      double ours = import_seconds (argv[i], &n_events);
      double report = report_seconds (argv[i]);

      if (ours < 0)
        {
          status = 1;
          continue;
        }
      printf ("%s: %u events, import %.4f s (%.2f M events/s)", argv[i], n_events, ours, n_events / ours / 1e6);
      if (report > 0)
        printf ("; trace-cmd report %.4f s; import / report = %.2f (goal <= 2)", report, ours / report);
      else
        printf ("; trace-cmd report not run (not installed?)");
      if (perf != NULL && g_file_test (perf, G_FILE_TEST_EXISTS))
        {
          double p = import_seconds (perf, &n_perf_events);
          if (p > 0)
            printf ("; perf text of the same run %.4f s (%u events), .dat / perf text = %.2f", p, n_perf_events, ours / p);
        }
      printf ("\n");
    }
  return status;
}
