/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --window A:B (each side a time as --from takes it: perf seconds or with
 * a unit) and --tid N… resolved against the trace.  Both return -1 when
 * all is well, else the exit status (2 usage, 1 bad input).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-scope.h"

int
cli_scope_parse_window (const char *command,
                        const char *text,
                        CliScope   *scope)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = NULL;

  if (text == NULL)
    return -1;
  parts = g_strsplit (text, ":", -1);
  if (g_strv_length (parts) != 2)
    return cli_usage_error (command, _("--window takes START:END, not “%s”"), text);
  if (!cli_parse_time (parts[0], &scope->start, &error) || !cli_parse_time (parts[1], &scope->end, &error))
    return cli_usage_error (command, "%s", error->message);
  if (scope->end < scope->start)
    return cli_usage_error (command, _("the window ends before it starts"));
  scope->has_window = TRUE;
  return -1;
}

int
cli_scope_resolve_tids (const char  *trace_path,
                        WsTrace     *trace,
                        char       **tids,
                        CliScope    *scope)
{
  if (tids == NULL || tids[0] == NULL)
    return -1;
  scope->threads = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; tids[i] != NULL; i++)
    {
      g_auto(GStrv) items = g_strsplit (tids[i], ",", -1);

      for (guint k = 0; items[k] != NULL; k++)
        {
          char *end = NULL;
          gint64 tid = g_ascii_strtoll (items[k], &end, 10);
          guint thread;

          if (items[k][0] == '\0' || end == NULL || *end != '\0' || tid < G_MININT32 || tid > G_MAXINT32)
            {
              fprintf (stderr, _("waitscope-cli: invalid thread id “%s”\n"), items[k]);
              return CLI_EXIT_USAGE;
            }
          if ((thread = ws_trace_find_thread (trace, (gint32) tid)) == WS_NONE)
            {
              fprintf (stderr, _("waitscope-cli: %s: no thread with TID %s\n"), trace_path, items[k]);
              return CLI_EXIT_INPUT;
            }
          /* A tid reused by several threads: every one of them. */
          for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
            if (ws_trace_get_thread (trace, t)->tid == (gint32) tid)
              g_array_append_val (scope->threads, t);
        }
    }
  return -1;
}

void
cli_scope_clear (CliScope *scope)
{
  g_clear_pointer (&scope->threads, g_array_unref);
}
