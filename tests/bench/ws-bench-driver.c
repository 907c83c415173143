/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The import benchmarks' shared timing driver (ws-bench-driver.h).
 */
#include "config.h"

#include "ws-bench-driver.h"
#include "ws-trace-loader.h"

/**
 * ws_bench_interleave:
 * @runs: rounds; each side runs once a round
 *
 * Times every side @runs times, one run of each per round, and keeps each
 * side's best in its best field (-1 for a side that failed; it is not run
 * again).
 */
void
ws_bench_interleave (WsBenchSide *sides,
                     guint        n_sides,
                     guint        runs)
{
  for (guint s = 0; s < n_sides; s++)
    sides[s].best = G_MAXDOUBLE;
  for (guint round = 0; round < runs; round++)
    for (guint s = 0; s < n_sides; s++)
      {
        gint64 t0;

        if (sides[s].best < 0)
          continue;
        t0 = g_get_monotonic_time ();
        if (!sides[s].run (sides[s].data))
          {
            sides[s].best = -1;
            continue;
          }
        sides[s].best = MIN (sides[s].best, (g_get_monotonic_time () - t0) / 1e6);
      }
}

/**
 * ws_bench_run_import:
 * @data: a #WsBenchImport
 *
 * One load through the loader, as the CLI and the GUI open a trace; the
 * error, if any, goes to stderr.
 */
gboolean
ws_bench_run_import (gpointer data)
{
  WsBenchImport *import = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (import->path, NULL, NULL, NULL, NULL, &error);

  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  import->n_events = ws_trace_get_n_events (trace);
  return TRUE;
}

/**
 * ws_bench_spawn:
 * @argv: a command, looked up in PATH
 *
 * Runs it with its output to /dev/null.
 *
 * Returns: whether it ran and exited 0
 */
gboolean
ws_bench_spawn (const char * const *argv)
{
  gint status = 0;

  return g_spawn_sync (NULL, (char **) argv, NULL,
                       G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, NULL) &&
         g_spawn_check_wait_status (status, NULL);
}

/**
 * ws_bench_run_command:
 * @data: a %NULL-terminated argv (a peer's decoder)
 */
gboolean
ws_bench_run_command (gpointer data)
{
  return ws_bench_spawn (data);
}
