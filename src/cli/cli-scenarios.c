/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli scenarios TRACE…: the scenario instances the rules find,
 * and per scenario the distribution of their durations over all traces.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-scenario-export.h"
#include "ws-trace.h"

static void
print_json (WsTrace * const *traces,
            guint            n_traces,
            GPtrArray       *summaries)
{
  g_autoptr(JsonNode) root = ws_scenario_export_json (traces, n_traces, summaries);

  cli_print_json_node (root);
}

static void
print_text (GPtrArray *traces,
            GPtrArray *summaries)
{
  for (guint i = 0; i < traces->len; i++)
    {
      WsTrace *trace = g_ptr_array_index (traces, i);
      guint n = ws_trace_get_n_scenario_instances (trace);

      printf ("%s (%s): ", ws_trace_get_name (trace), ws_trace_get_path (trace));
      printf (g_dngettext (GETTEXT_PACKAGE, "%u scenario instance\n", "%u scenario instances\n", n), n);
      if (n == 0)
        continue;
      printf ("  %-16s %8s  %-16s %20s %20s %12s\n",
              _("SCENARIO"), _("TID"), _("THREAD"), _("START"), _("END"), _("DURATION"));
      for (guint k = 0; k < n; k++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);
          const WsThread *t = ws_trace_get_thread (trace, inst->thread);
          g_autofree char *t0 = cli_format_timestamp (inst->t0);
          g_autofree char *t1 = cli_format_timestamp (inst->t1);
          g_autofree char *d = cli_format_duration (inst->t1 - inst->t0);

          printf ("  %-16s %8d  %-16s %20s %20s %12s\n",
                  ws_trace_get_string (trace, inst->scenario), t->tid, t->name, t0, t1, d);
        }
    }

  if (summaries->len == 0)
    return;
  printf ("\n%s\n", _("Summary over all traces (percentiles by nearest rank)"));
  printf ("  %-16s %8s %12s %12s %12s %12s\n",
          _("SCENARIO"), _("COUNT"), _("MIN"), _("P50"), _("P90"), _("MAX"));
  for (guint i = 0; i < summaries->len; i++)
    {
      WsScenarioSummary *s = g_ptr_array_index (summaries, i);
      const WsTime *d = (const WsTime *) (gconstpointer) s->durations->data;
      gsize n = s->durations->len;
      g_autofree char *min = cli_format_duration (d[0]);
      g_autofree char *p50 = cli_format_duration (ws_time_percentile (d, n, 50));
      g_autofree char *p90 = cli_format_duration (ws_time_percentile (d, n, 90));
      g_autofree char *max = cli_format_duration (d[n - 1]);

      printf ("  %-16s %8" G_GSIZE_FORMAT " %12s %12s %12s %12s\n", s->name, n, min, p50, p90, max);
    }
}

int
cli_scenarios (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) scenarios = NULL;
  g_autofree char *rules_file = NULL;
  gboolean json = FALSE;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — scenario instances and their durations"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("The built-in rule is transaction=sdt_postgresql:transaction__start,"
      "sdt_postgresql:transaction__commit,sdt_postgresql:transaction__abort.\n"
      "A rule NAME=BEGIN,END[,END…] makes an instance of every BEGIN event followed "
      "by an END event on the same thread."));
  if (!cli_parse_options (context, "scenarios", &argc, &argv, &status))
    return status;
  if (argc < 2)
    return cli_usage_error ("scenarios", "%s", _("no trace given"));

  if ((rules = cli_build_rules (scenarios, rules_file, "scenarios", &status)) == NULL)
    return status;
  if ((traces = cli_load_traces (argv + 1, rules, &error)) == NULL)
    return cli_fail (error);

  summaries = ws_scenario_summarize ((WsTrace * const *) traces->pdata, traces->len);
  if (json)
    print_json ((WsTrace * const *) traces->pdata, traces->len, summaries);
  else
    print_text (traces, summaries);
  return CLI_EXIT_OK;
}
