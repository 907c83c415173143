/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli export-chrome TRACE -o OUT.json: the trace as Chrome /
 * Perfetto trace event JSON (a track per thread, run and wait slices,
 * wake-up flows, scenario instances).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-chrome-trace.h"
#include "ws-trace-loader.h"

int
cli_export_chrome (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) scenarios = NULL;
  g_autofree char *rules_file = NULL;
  g_autofree char *output = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the trace event JSON here"), N_("FILE") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE -o OUT.json — the trace for ui.perfetto.dev and chrome://tracing"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "export-chrome", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("export-chrome", "%s", argc < 2 ? _("no trace given") : _("give one trace"));
  if (output == NULL)
    return cli_usage_error ("export-chrome", "%s", _("no output file given (-o OUT.json)"));

  if ((rules = cli_build_rules (scenarios, rules_file, "export-chrome", &status)) == NULL)
    return status;
  if ((trace = ws_trace_loader_load_full (argv[1], NULL, rules, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if (!ws_chrome_trace_save (trace, output, NULL, &error))
    return cli_fail (error);
  return CLI_EXIT_OK;
}
