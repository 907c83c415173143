/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LTTng CTF import speed against its reference decoder on the same trace
 * (not a timed test: it measures and prints; docs/performance.md):
 *
 *   bench-ctf TRACE...   (a trace directory, or a .tar.gz of one)
 *
 * For each trace, the best of three interleaved runs (ws-bench-driver.h) of: Waitscope's import (the
 * loader, as the CLI and the GUI open it; an archive is unpacked first,
 * inside the import) and `babeltrace2 DIR` (libbabeltrace2's own text
 * output of every event, to /dev/null, on the unpacked directory).
 * Goal: the import within 2× of babeltrace2.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ws-bench-driver.h"

#define RUNS 3

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
      const char *babeltrace[] = { "babeltrace2", NULL, NULL };
      WsBenchImport ours = { argv[i], 0 };
      WsBenchSide sides[] = {
        { ws_bench_run_import, &ours, 0 },
        { ws_bench_run_command, babeltrace, 0 },
      };

      if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          const char *tar[] = { "tar", "xzf", argv[i], "-C", NULL, NULL };

          tmp = g_dir_make_tmp ("bench-ctf-XXXXXX", NULL);
          tar[4] = tmp;
          if (tmp == NULL || !ws_bench_spawn (tar))
            {
              g_printerr ("%s: cannot unpack it\n", argv[i]);
              status = 1;
              continue;
            }
          dir = tmp;
        }
      babeltrace[1] = dir;
      ws_bench_interleave (sides, G_N_ELEMENTS (sides), RUNS);
      if (sides[0].best < 0)
        status = 1;
      else
        {
          printf ("%s: %u events, import %.4f s", argv[i], ours.n_events, sides[0].best);
          if (sides[1].best > 0)
            printf ("; babeltrace2 text %.4f s; import / babeltrace2 = %.2f (goal <= 2)", sides[1].best,
                    sides[0].best / sides[1].best);
          else
            printf ("; babeltrace2 not run (not installed?)");
          printf ("\n");
        }
      if (tmp != NULL)
        {
          const char *rm[] = { "rm", "-rf", tmp, NULL };
          ws_bench_spawn (rm);
        }
    }
  return status;
}
