/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli query TRACE "SELECT …": one SQL statement over the trace
 * loaded into a database in memory (the schema of docs/sql.md), its rows
 * as tab-separated text, JSON or CSV.  The statement can only read.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-trace-db.h"
#include "ws-trace-loader.h"

int
cli_query (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = NULL;
  g_auto(GStrv) scenarios = NULL;
  g_auto(GStrv) params = NULL;
  g_autofree char *rules_file = NULL;
  g_autofree char *format_name = NULL;
  gboolean json = FALSE, csv = FALSE;
  WsTraceDbFormat format = WS_TRACE_DB_TEXT;
  sqlite3 *db;
  gboolean ok;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the rows as JSON: {\"columns\": […], \"rows\": [[…], …]}"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the rows as CSV with a header row"), NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name, N_("Output format: text (default), json or csv"), N_("FORMAT") },
    { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params,
      N_("The value of the query's :NAME parameter (an integer, a real or text)"), N_("NAME=VALUE") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE SQL — one reading SQL statement over the trace (tables and views: docs/sql.md)"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Times are nanoseconds on the trace's clock, stacks caller first.  The statement may only read: "
      "writes, ATTACH and PRAGMA are refused.  Example:\n"
      "  waitscope-cli query trace.perf.txt.gz \"SELECT tid, name FROM threads\" --json"));
  if (!cli_parse_options (context, "query", &argc, &argv, &status))
    return status;
  if (argc < 3)
    return cli_usage_error ("query", "%s", argc < 2 ? _("no trace given") : _("no SQL statement given"));
  if (argc > 3)
    return cli_usage_error ("query", "%s", _("give one trace and one SQL statement (quote the statement)"));
  if (format_name != NULL)
    {
      if (g_str_equal (format_name, "json"))
        json = TRUE;
      else if (g_str_equal (format_name, "csv"))
        csv = TRUE;
      else if (!g_str_equal (format_name, "text"))
        return cli_usage_error ("query", _("unknown format “%s” (text, json or csv)"), format_name);
    }
  if (json && csv)
    return cli_usage_error ("query", "%s", _("give --json or --csv, not both"));
  format = json ? WS_TRACE_DB_JSON : csv ? WS_TRACE_DB_CSV : WS_TRACE_DB_TEXT;

  if ((rules = cli_build_rules (scenarios, rules_file, "query", &status)) == NULL)
    return status;
  if ((trace = ws_trace_loader_load_full (argv[1], NULL, rules, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if ((db = ws_trace_db_open_query (trace, NULL, &error)) == NULL)
    return cli_fail (error);
  out = g_string_new (NULL);
  ok = ws_trace_db_query (db, argv[2], (const char * const *) params, format, out, &error);
  sqlite3_close_v2 (db);
  if (!ok)
    return cli_fail (error);
  fwrite (out->str, 1, out->len, stdout);
  return fflush (stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}
