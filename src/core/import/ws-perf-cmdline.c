/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a perf.data file was recorded for: the "cmdline" of its header
 * (`perf report --header-only`), kept on the trace for the thread picker
 * (ws_trace_get_record_command()).  Text traces carry it when made with
 * `perf script --header` (ws-perf-text.c reads the "# cmdline :" line).
 */
#include "config.h"

#include <string.h>

#include "ws-perf-private.h"

void
ws_perf_data_read_record_command (WsTrace    *trace,
                                  const char *path)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  const char *argv[] = { perf, "report", "--header-only", "-i", path, NULL };
  static const char prefix[] = "# cmdline : ";
  int status = 0;

  /* Without perf in reach (a Flatpak sandbox) the subject stays unknown:
   * the picker ranks, as for any trace that does not say. */
  if (perf == NULL || path == NULL ||
      !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL) ||
      out == NULL)
    return;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix) && g_utf8_validate (lines[i], -1, NULL))
      {
        ws_trace_set_record_command (trace, g_strchomp (lines[i] + strlen (prefix)));
        return;
      }
}
