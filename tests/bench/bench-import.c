/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Import benchmark for the perf importer (not a timed test: it measures).
 *
 *   bench-import FILE...              import each file, print the figures
 *   bench-import --make-big OUT MB IN.perf.txt.gz
 *                                     write >= MB megabytes of perf text made
 *                                     of time-shifted copies of IN
 *
 * Each file is imported in a child process of its own, so that its peak
 * RSS is that import's alone.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "ws-perf-importer.h"

static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6
       + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double
peak_rss_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

static int
bench_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  WsPerfImportStats stats;
  double rss_before = peak_rss_mb ();
  double cpu0 = cpu_seconds ();
  gint64 t0 = g_get_monotonic_time ();
  double wall, cpu, rss;
  guint n_events;
  gsize trace_bytes, stack_bytes;

  trace = ws_perf_importer_load_with_stats (path, NULL, &stats, NULL, NULL, NULL, &error);
  wall = (g_get_monotonic_time () - t0) / 1e6;
  cpu = cpu_seconds () - cpu0;
  rss = peak_rss_mb ();
  if (trace == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  n_events = ws_trace_get_n_events (trace);
  trace_bytes = ws_trace_get_memory_size (trace);
  stack_bytes = ws_stack_table_get_memory_size (ws_trace_get_stack_table (trace));

  g_print ("%s\n", path);
  g_print ("  input %.1f MB, perf text %.1f MB, %" G_GUINT64_FORMAT " lines, %u event records -> %u events\n",
           stats.input_bytes / 1e6, stats.text_bytes / 1e6, stats.lines, stats.records, n_events);
  g_print ("  wall %.3f s, cpu %.3f s\n", wall, cpu);
  g_print ("  speed: %.0f MB/s of text (wall), %.0f MB/s (cpu); %.2f M records/s, %.2f M events/s (wall)\n",
           stats.text_bytes / 1e6 / wall, stats.text_bytes / 1e6 / cpu,
           stats.records / 1e6 / wall, n_events / 1e6 / wall);
  g_print ("  memory: trace %.1f MB = %.1f bytes/event (stack table excluded: %.1f MB, %u stacks, %u frames)\n",
           trace_bytes / 1e6, (double) trace_bytes / n_events, stack_bytes / 1e6,
           ws_stack_table_get_n_stacks (ws_trace_get_stack_table (trace)),
           ws_stack_table_get_n_frames (ws_trace_get_stack_table (trace)));
  g_print ("  peak RSS %.1f MB (%.1f MB before the import): %.1f bytes/event at the peak, stack table excluded\n",
           rss, rss_before, ((rss - rss_before) * 1024 * 1024 - stack_bytes) / n_events);
  g_print ("  stack cache hits %u of %u records\n", stats.stack_cache_hits, stats.records);
  return 0;
}

/*
 * Copies of one recording, each shifted by @shift seconds, so that the
 * result is one longer recording (time increasing) in which the same
 * threads repeat the workload.  The time-0 task lines are kept only in the
 * first copy, as a longer recording would have them.
 */
static int
make_big (const char *out_path,
          guint       megabytes,
          const char *in_path)
{
  const guint shift = 10;
  char *line = g_malloc (1 << 20);
  FILE *out = fopen (out_path, "w");
  guint64 written = 0;

  if (out == NULL)
    {
      g_printerr ("cannot write %s\n", out_path);
      return 1;
    }

  for (guint copy = 0; written < (guint64) megabytes * 1000 * 1000; copy++)
    {
      gzFile in = gzopen (in_path, "rb");

      if (in == NULL)
        {
          g_printerr ("cannot read %s\n", in_path);
          return 1;
        }
      gzbuffer (in, 1 << 20);
      while (gzgets (in, line, 1 << 20) != NULL)
        {
          char *bracket, *p, *dot;
          guint64 seconds;

          if (copy == 0 || line[0] == '\t' || line[0] == '\n' ||
              (bracket = strstr (line, "] ")) == NULL)
            {
              written += strlen (line);
              fputs (line, out);
              continue;
            }

          /* "...[001]  1668.105842: ..." -> seconds + copy * shift */
          for (p = bracket + 1; *p == ' '; p++)
            ;
          seconds = g_ascii_strtoull (p, &dot, 10);
          if (*dot != '.')
            {
              written += strlen (line);
              fputs (line, out);
              continue;
            }
          if (seconds == 0 && strstr (dot, "PERF_RECORD_") != NULL)
            continue;
          *p = '\0';
          written += fprintf (out, "%s%" G_GUINT64_FORMAT "%s", line, seconds + copy * shift, dot);
        }
      gzclose (in);
      g_printerr ("copy %u: %.0f MB\n", copy, written / 1e6);
    }

  fclose (out);
  g_free (line);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  int status = 0;

  if (argc == 5 && g_str_equal (argv[1], "--make-big"))
    return make_big (argv[2], atoi (argv[3]), argv[4]);

  if (argc < 2)
    {
      g_printerr ("usage: %s FILE...\n       %s --make-big OUT MB IN.perf.txt.gz\n", argv[0], argv[0]);
      return 2;
    }

  /* One child process per file: each peak RSS is that import's alone. */
  for (int i = 1; i < argc; i++)
    {
      pid_t pid = fork ();
      int child_status = 0;

      if (pid == 0)
        _exit (bench_file (argv[i]));
      if (pid < 0 || waitpid (pid, &child_status, 0) < 0 ||
          !WIFEXITED (child_status) || WEXITSTATUS (child_status) != 0)
        status = 1;
    }
  return status;
}
