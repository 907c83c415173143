/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli pivot --by process,state [--window START:END] [--tid N…]
 * [--json|--csv] TRACE: where the threads' time goes, grouped by the
 * columns given, from the core's ws_pivot_run() (the Pivot page's entry
 * point), printed by ws-pivot-export.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-pivot.h"
#include "ws-trace-loader.h"

/* "START:END", each a time as cli_parse_time() reads it; either may be
 * empty (the trace's start or end). */
static gboolean
parse_window (const char *text,
              WsTime     *t0,
              WsTime     *t1,
              gboolean   *has_t0,
              gboolean   *has_t1,
              GError    **error)
{
  const char *colon = strchr (text, ':');
  g_autofree char *start = NULL;

  if (colon == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s", _("--window takes START:END (for example 1986.5:1987 or 10ms:+5ms)"));
      return FALSE;
    }
  start = g_strndup (text, colon - text);
  *has_t0 = *start != '\0';
  *has_t1 = colon[1] != '\0';
  if (*has_t0 && !cli_parse_time (start, t0, error))
    return FALSE;
  if (*has_t1 && !cli_parse_time (colon[1] == '+' ? colon + 2 : colon + 1, t1, error))
    return FALSE;
  if (*has_t1 && colon[1] == '+')
    {
      if (!*has_t0 || *t1 < 0 || *t1 > WS_TIME_MAX || *t0 > WS_TIME_MAX - *t1)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "%s", _("--window START:+DURATION needs a START and a duration in range"));
          return FALSE;
        }
      *t1 += *t0;
    }
  return TRUE;
}

int
cli_pivot (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsPivot) pivot = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = NULL;
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_auto(GStrv) scenarios = NULL;
  g_auto(GStrv) tids = NULL;
  g_autofree char *rules_file = NULL;
  g_autofree char *by = NULL;
  g_autofree char *window = NULL;
  gboolean json = FALSE, csv = FALSE, has_t0 = FALSE, has_t1 = FALSE;
  WsPivotSettings settings = { 0 };
  WsTime t0 = 0, t1 = 0;
  int status;
  const GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("Group by these columns, outermost first: process, thread, state, readier-process, readier-thread, "
         "waiting-function, readier-function (default: process,state)"), N_("COLUMN,…") },
    { "window", 0, 0, G_OPTION_ARG_STRING, &window,
      N_("Only the time inside START:END (seconds as perf prints them, or with a unit; END may be +DURATION; "
         "either may be left out)"), N_("START:END") },
    { "tid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tids, N_("Only this thread (repeat for more; default: every thread)"), N_("TID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the table as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the table as CSV, one line per row"), NULL },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE — where the threads’ time goes, by process, thread, state, readier and function"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Each thread's state spans (the timeline's) are clipped to the window and summed in integer nanoseconds: "
      "every row is the sum of its children, the total the threads' recorded time.  Example:\n"
      "  waitscope-cli pivot --by process,state --window 1986.5:+1s trace.perf.txt.gz"));
  if (!cli_parse_options (context, "pivot", &argc, &argv, &status))
    return status;
  if (argc < 2)
    return cli_usage_error ("pivot", "%s", _("no trace given"));
  if (argc > 2)
    return cli_usage_error ("pivot", "%s", _("give one trace"));
  if (json && csv)
    return cli_usage_error ("pivot", "%s", _("give --json or --csv, not both"));
  if (!ws_pivot_parse_columns (by != NULL ? by : "process,state", settings.columns, &settings.n_columns, &error))
    return cli_usage_error ("pivot", "%s", error->message);
  if (window != NULL && !parse_window (window, &t0, &t1, &has_t0, &has_t1, &error))
    return cli_usage_error ("pivot", "%s", error->message);
  for (guint i = 0; tids != NULL && tids[i] != NULL; i++)
    {
      gint64 tid;

      if (!g_ascii_string_to_signed (tids[i], 10, G_MININT32, G_MAXINT32, &tid, NULL))
        return cli_usage_error ("pivot", _("--tid takes a thread id, not “%s”"), tids[i]);
    }

  if ((rules = cli_build_rules (scenarios, rules_file, "pivot", &status)) == NULL)
    return status;
  if ((trace = ws_trace_loader_load_full (argv[1], NULL, rules, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);

  /* A tid the trace reused is every thread that had it. */
  for (guint i = 0; tids != NULL && tids[i] != NULL; i++)
    {
      gint32 tid = (gint32) g_ascii_strtoll (tids[i], NULL, 10);
      guint found = 0;

      for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
        if (ws_trace_get_thread (trace, t)->tid == tid)
          {
            guint32 index = t;
            g_array_append_val (threads, index);
            found++;
          }
      if (found == 0)
        {
          fprintf (stderr, _("waitscope-cli: %s: no thread with tid %d in the trace\n"), argv[1], tid);
          return CLI_EXIT_INPUT;
        }
    }
  settings.threads = tids != NULL ? (const guint32 *) (gpointer) threads->data : NULL;
  settings.n_threads = threads->len;
  if (window != NULL)
    {
      settings.t0 = has_t0 ? t0 : ws_trace_get_start_time (trace);
      settings.t1 = has_t1 ? t1 : ws_trace_get_end_time (trace);
      if (settings.t1 <= settings.t0)
        return cli_usage_error ("pivot", "%s", _("the window ends before it starts"));
    }

  if ((pivot = ws_pivot_run (trace, &settings, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  out = g_string_new (NULL);
  if (json)
    ws_pivot_write_json (pivot, out);
  else if (csv)
    ws_pivot_write_csv (pivot, out);
  else
    ws_pivot_write_text (pivot, out);
  fwrite (out->str, 1, out->len, stdout);
  return fflush (stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}
