/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LTTng CTF import speed against its reference decoder on the same trace
 * (not a timed test: it measures and prints; docs/performance.md):
 *
 *   bench-ctf TRACE...   (a trace directory, or a .tar.gz of one)
 *
 * For each trace, the best of three runs of: Waitscope's import (the
 * loader, as the CLI and the GUI open it; an archive is unpacked first,
 * inside the import) and `babeltrace2 DIR` (libbabeltrace2's own text
 * output of every event, to /dev/null, on the unpacked directory).
 * Goal: the import within 2× of babeltrace2.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ws-trace-loader.h"

#define RUNS 3

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

static gboolean
run (const char **argv)
{
  gint status = 0;

  return g_spawn_sync (NULL, (char **) argv, NULL,
                       G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, NULL) &&
         g_spawn_check_wait_status (status, NULL);
}

static double
babeltrace_seconds (const char *dir)
{
  const char *argv[] = { "babeltrace2", dir, NULL };
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < RUNS; i++)
    {
      gint64 t0 = g_get_monotonic_time ();

      if (!run (argv))
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
      g_printerr ("usage: bench-ctf TRACE...\n");
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *tmp = NULL;
      const char *dir = argv[i];
      guint n_events = 0;
      double ours, peer;

      if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          const char *tar[] = { "tar", "xzf", argv[i], "-C", NULL, NULL };

          tmp = g_dir_make_tmp ("bench-ctf-XXXXXX", NULL);
          tar[4] = tmp;
          if (tmp == NULL || !run (tar))
            {
              g_printerr ("%s: cannot unpack it\n", argv[i]);
              status = 1;
              continue;
            }
          dir = tmp;
        }
      ours = import_seconds (argv[i], &n_events);
      peer = babeltrace_seconds (dir);
      if (ours < 0)
        status = 1;
      else
        {
          printf ("%s: %u events, import %.4f s", argv[i], n_events, ours);
          if (peer > 0)
            printf ("; babeltrace2 text %.4f s; import / babeltrace2 = %.2f (goal <= 2)", peer, ours / peer);
          else
            printf ("; babeltrace2 not run (not installed?)");
          printf ("\n");
        }
      if (tmp != NULL)
        {
          const char *rm[] = { "rm", "-rf", tmp, NULL };
          run (rm);
        }
    }
  return status;
}
