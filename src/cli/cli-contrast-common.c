/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-contrast-common.h"

void
cli_contrast_add_options (GOptionContext     *context,
                          CliContrastOptions *o)
{
  const GOptionEntry entries[] = {
    { "scenario-name", 0, 0, G_OPTION_ARG_STRING, &o->scenario_name,
      N_("The scenario whose instances are analysed (default: the only one)"), N_("NAME") },
    { "component", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->components,
      N_("Components: a regular expression over frames “function (module)”"), N_("REGEX") },
    { "widen", 0, 0, G_OPTION_ARG_NONE, &o->widen,
      N_("Signatures are a function and its caller, not the function alone"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, N_("Print JSON"), NULL },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->rule_specs,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &o->rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };
  GOptionGroup *group = g_option_context_get_main_group (context);

  if (group == NULL)
    {
      group = g_option_group_new (NULL, NULL, NULL, NULL, NULL);
      g_option_context_set_main_group (context, group);
    }
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_group_add_entries (group, entries);
}

void
cli_contrast_options_clear (CliContrastOptions *o)
{
  g_clear_pointer (&o->scenario_name, g_free);
  g_clear_pointer (&o->rule_specs, g_strfreev);
  g_clear_pointer (&o->rules_file, g_free);
  g_clear_pointer (&o->components, g_strfreev);
}

gboolean
cli_contrast_choose_scenario (GStrv               names,
                              CliContrastOptions *o,
                              const char         *command,
                              int                *status)
{
  g_autofree char *list = g_strjoinv (", ", names);

  /* Classes of whole traces without markers: thread spans, no scenario. */
  if (o->fleet && o->scenario_name == NULL && names[0] == NULL)
    return TRUE;

  if (o->scenario_name != NULL)
    {
      if (g_strv_contains ((const char * const *) names, o->scenario_name))
        return TRUE;
      *status = cli_usage_error (command, _("no instance of scenario “%s” in the traces (they have: %s)"),
                                 o->scenario_name, names[0] ? list : _("none"));
      return FALSE;
    }
  if (g_strv_length (names) == 1)
    {
      o->scenario_name = g_strdup (names[0]);
      return TRUE;
    }
  if (names[0] == NULL)
    *status = cli_usage_error (command, "%s", _("the traces hold no scenario instance (see --scenario)"));
  else
    *status = cli_usage_error (command, _("several scenarios (%s): choose one with --scenario-name"), list);
  return FALSE;
}

gboolean
cli_contrast_load (char              **paths,
                   CliContrastOptions *o,
                   const char         *command,
                   GPtrArray         **traces,
                   int                *status)
{
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(GError) error = NULL;

  if (!o->fleet && (o->components == NULL || o->components[0] == NULL))
    {
      *status = cli_usage_error (command, "%s", _("no --component given"));
      return FALSE;
    }
  if ((rules = cli_build_rules (o->rule_specs, o->rules_file, command, status)) == NULL)
    return FALSE;
  if ((*traces = cli_load_traces (paths, rules, &error)) == NULL)
    {
      *status = cli_fail (error);
      return FALSE;
    }
  {
    g_auto(GStrv) names = ws_instance_set_list_scenarios (*traces);

    return cli_contrast_choose_scenario (names, o, command, status);
  }
}

WsInstanceSet *
cli_contrast_instances (GPtrArray  *traces,
                        guint       from,
                        guint       to,
                        const char *scenario)
{
  WsInstanceSet *set = ws_instance_set_new ();

  for (guint i = from; i < to && i < traces->len; i++)
    ws_instance_set_add_trace (set, g_ptr_array_index (traces, i), scenario);
  return set;
}
