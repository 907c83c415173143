/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli convert INPUT -o OUTPUT.json[.gz]: any trace Waitscope
 * reads (perf script text, JSON; gzip or not) to the JSON trace format,
 * with the scenario instances the rules find.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-json-trace.h"
#include "ws-trace-loader.h"

int
cli_convert (int    argc,
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
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the JSON trace here (gzip-compressed if it ends in .gz)"), N_("FILE") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("INPUT -o OUTPUT.json[.gz] — convert a trace to the JSON trace format"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "convert", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("convert", "%s", argc < 2 ? _("no input trace given") : _("give one input trace"));
  if (output == NULL)
    return cli_usage_error ("convert", "%s", _("no output file given (-o OUTPUT.json)"));

  if ((rules = cli_build_rules (scenarios, rules_file, "convert", &status)) == NULL)
    return status;
  if ((trace = ws_trace_loader_load_full (argv[1], NULL, rules, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if (!ws_json_trace_save (trace, output, NULL, &error))
    return cli_fail (error);

  return CLI_EXIT_OK;
}
