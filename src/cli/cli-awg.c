/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli awg: the aggregated wait graph (Algorithm 1 of the
 * cost-propagation paper) of a scenario's instances, as text, JSON or DOT.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-common.h"
#include "cli-contrast-common.h"
#include "ws-awg-export.h"
#include "ws-error.h"

static void
print_tree (WsAwg *awg, guint node, guint max_depth)
{
  const WsAwgNode *n = ws_awg_get_node (awg, node);
  g_autofree char *label = ws_awg_node_label (awg, node);
  g_autofree char *c = cli_format_duration (n->c);
  g_auto(GStrv) lines = g_strsplit (label, "\n", -1);
  g_autofree char *one = g_strjoinv ("  ", lines);

  printf ("%*s%-9s %s   C=%s N=%" G_GUINT64_FORMAT "\n", 2 + 2 * (int) n->depth, "",
          ws_awg_node_kind_to_string (n->kind), one, c, n->n);
  if (n->depth + 1 >= max_depth)
    return;
  for (guint32 ch = n->first_child; ch != G_MAXUINT32; ch = ws_awg_get_node (awg, ch)->next_sibling)
    print_tree (awg, ch, max_depth);
}

static void
print_text (WsAwg *awg, const char *scenario, guint max_depth)
{
  guint n_roots = 0;
  const guint32 *roots = ws_awg_get_roots (awg, &n_roots);
  g_autofree char *total = cli_format_duration (ws_awg_get_total_cost (awg));
  g_autofree char *pruned = cli_format_duration (ws_awg_get_pruned_cost (awg));

  {
    guint n_graphs = ws_awg_get_n_graphs (awg), n_nodes = ws_awg_get_n_nodes (awg);
    g_autofree char *graphs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u wait graph", "%u wait graphs", n_graphs),
                                               n_graphs);
    g_autofree char *nodes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", n_nodes), n_nodes);
    g_autofree char *roots = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u root", "%u roots", n_roots), n_roots);

    /* Translators: scenario, then "12 wait graphs", "40 nodes", "3 roots" */
    printf (_("Aggregated wait graph of “%s”: %s, %s, %s\n"), scenario, graphs, nodes, roots);
  }
  printf (g_dngettext (GETTEXT_PACKAGE, "Component cost at the roots %s; ReduceAWG pruned %u root (%s)\n",
                       "Component cost at the roots %s; ReduceAWG pruned %u roots (%s)\n", ws_awg_get_n_pruned (awg)),
          total, ws_awg_get_n_pruned (awg), pruned);
  for (guint i = 0; i < n_roots; i++)
    print_tree (awg, roots[i], max_depth);
}

int
cli_awg (int    argc,
         char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(WsInstanceSet) all = NULL;
  g_autoptr(WsInstanceSet) set = NULL;
  g_autoptr(WsSignatures) sigs = NULL;
  g_autoptr(WsAwg) awg = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliContrastOptions) o = { 0 };
  g_autofree char *format = NULL, *above = NULL, *below = NULL;
  WsTime at_least = -1, at_most = -1;
  int depth = 6, status;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("text (default), json or dot"), N_("FORMAT") },
    { "above", 0, 0, G_OPTION_ARG_STRING, &above, N_("Only instances lasting at least this"), N_("TIME") },
    { "below", 0, 0, G_OPTION_ARG_STRING, &below, N_("Only instances lasting at most this"), N_("TIME") },
    { "depth", 0, 0, G_OPTION_ARG_INT, &depth, N_("Text: levels shown (default 6)"), N_("N") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — the aggregated wait graph of a scenario"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  cli_contrast_add_options (context, &o);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "awg", &argc, &argv, &status))
    return status;
  if (argc < 2)
    return cli_usage_error ("awg", "%s", _("no trace given"));
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0 && strcmp (format, "dot") != 0)
    return cli_usage_error ("awg", _("unknown format “%s” (text, json or dot)"), format);
  if ((above && !cli_parse_time (above, &at_least, &error)) || (below && !cli_parse_time (below, &at_most, &error)))
    return cli_usage_error ("awg", "%s", error->message);
  if (!cli_contrast_load (argv + 1, &o, "awg", &traces, &status))
    return status;

  if ((sigs = ws_signatures_new (o.components[0], o.widen, &error)) == NULL)
    return cli_usage_error ("awg", "%s", error->message);
  all = cli_contrast_instances (traces, 0, traces->len, o.scenario_name);
  set = ws_instance_set_filter (all, at_least, at_most);
  if ((awg = ws_awg_build (set, sigs, NULL, NULL, NULL, NULL, 0, 1, &error)) == NULL)
    return cli_fail (error);

  if (o.json || g_strcmp0 (format, "json") == 0)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      ws_awg_export_json (awg, b);
      cli_print_json (b);
    }
  else if (g_strcmp0 (format, "dot") == 0)
    {
      g_autofree char *dot = ws_awg_export_dot (awg, o.scenario_name, NULL);
      fputs (dot, stdout);
    }
  else
    print_text (awg, o.scenario_name, MAX (depth, 1));
  return CLI_EXIT_OK;
}
