/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli impact: the impact analysis of the cost-propagation paper
 * (§3) — how much of a scenario's time the chosen components run and wait,
 * and how much of that wait is one delay counted in several instances.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-common.h"
#include "cli-contrast-common.h"
#include "ws-error.h"
#include "ws-impact.h"
#include "ws-impact-export.h"

static void
print_json (const char *scenario, GArray *rows)
{
  g_autoptr(JsonNode) root = ws_impact_export_json (scenario, rows);

  cli_print_json_node (root);
}

static void
print_text (const char *scenario, GArray *rows)
{
  guint n = rows->len ? g_array_index (rows, WsImpact, 0).n_instances : 0;

  printf (g_dngettext (GETTEXT_PACKAGE, "Impact on scenario “%s”, %u instance\n",
                       "Impact on scenario “%s”, %u instances\n", n), scenario, n);
  printf ("  %-24s %12s %12s %12s %12s %8s %8s %8s %8s\n", _("COMPONENT"), _("D_SCN"), _("D_WAIT"),
          _("D_RUN"), _("D_WAITDIST"), _("IA_RUN"), _("IA_WAIT"), _("IA_OPT"), _("WAIT/DIST"));
  for (guint i = 0; i < rows->len; i++)
    {
      const WsImpact *m = &g_array_index (rows, WsImpact, i);
      g_autofree char *scn = cli_format_duration (m->d_scn);
      g_autofree char *wait = cli_format_duration (m->d_wait);
      g_autofree char *run = cli_format_duration (m->d_run);
      g_autofree char *dist = cli_format_duration (m->d_waitdist);

      printf ("  %-24s %12s %12s %12s %12s %7.1f%% %7.1f%% %7.1f%% %8.2f\n", m->component, scn, wait, run,
              dist, 100 * m->ia_run, 100 * m->ia_wait, 100 * m->ia_opt, m->wait_ratio);
    }
}

int
cli_impact (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(WsInstanceSet) set = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliContrastOptions) o = { 0 };
  WsImpactSettings settings = { 0 };
  int status;

  context = g_option_context_new (_("TRACE… — how much time chosen components cost a scenario"));
  cli_contrast_add_options (context, &o);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Repeat --component for one row per component. D_wait counts the top-level waits holding a "
      "component frame, D_waitdist each such wait once across instances; IA_opt = "
      "(D_wait − D_waitdist) / D_scn."));
  if (!cli_parse_options (context, "impact", &argc, &argv, &status))
    return status;
  if (argc < 2)
    return cli_usage_error ("impact", "%s", _("no trace given"));
  if (!cli_contrast_load (argv + 1, &o, "impact", &traces, &status))
    return status;

  set = cli_contrast_instances (traces, 0, traces->len, o.scenario_name);
  settings.components = (const char * const *) o.components;
  rows = ws_impact_run (set, &settings, NULL, NULL, NULL, &error);
  if (rows == NULL)
    {
      if (g_error_matches (error, WS_ERROR, WS_ERROR_INVALID))
        return cli_usage_error ("impact", "%s", error->message);
      return cli_fail (error);
    }
  if (o.json)
    print_json (o.scenario_name, rows);
  else
    print_text (o.scenario_name, rows);
  return CLI_EXIT_OK;
}
