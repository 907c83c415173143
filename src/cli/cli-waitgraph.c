/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli waitgraph: the wait graph of a symptom ⟨tid, from, to⟩
 * (StackMine Fig. 2), as JSON or Graphviz DOT.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-symptom.h"
#include "ws-graph-export.h"
#include "ws-wait-graph-run.h"

int cli_waitgraph (int argc, char **argv);

int
cli_waitgraph (int    argc,
               char **argv)
{
  static const char * const formats[] = { "json", "dot", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsWaitGraph) graph = NULL;
  CliSymptomOptions options;
  WsWaitGraphSettings settings;
  WsSymptom symptom;
  int event = -1;
  int status;
  const GOptionEntry entries[] = {
    { "event", 0, 0, G_OPTION_ARG_INT, &event,
      N_("One wait as the symptom: its thread over the wait's span (an event index, as readytree --event takes)"),
      N_("INDEX") },
    { NULL }
  };

  context = cli_symptom_context_new (&options, _("[TRACE] — the wait graph of a thread in a time window"),
    _("Nodes are the running and waiting events of the thread inside the window, then, "
      "for every wait, the events of its readier that end inside it, repeated until nothing "
      "is added (StackMine, Fig. 2).  Waits no thread ended point to a node saying what did, "
      "in the glossary's words (timer expired, interrupt, disk I/O done, no wake-up recorded).  "
      "Formats: json (default), dot."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!cli_parse_options (context, "waitgraph", &argc, &argv, &status))
    goto out;
  if ((status = cli_symptom_check_event ("waitgraph", &options, event)) >= 0)
    goto out;
  status = cli_symptom_resolve ("waitgraph", &options, argc, argv, event < 0, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0 || (event >= 0 && (status = cli_symptom_from_event (&options, trace, event, &symptom)) >= 0))
    goto out;

  ws_wait_graph_settings_init (&settings, &symptom);
  settings.classifier = classifier;
  graph = ws_wait_graph_run (trace, &settings, NULL, NULL, NULL, &error);
  if (graph == NULL)
    {
      status = cli_fail (error);
      goto out;
    }

  if (g_str_equal (options.format, "dot"))
    {
      g_autofree char *dot = ws_graph_export_wait_graph_dot (graph);
      status = cli_symptom_write (&options, dot);
    }
  else
    {
      g_autoptr(JsonNode) json = ws_graph_export_wait_graph_json (graph);
      status = cli_symptom_write_json (&options, json);
    }

out:
  cli_symptom_options_clear (&options);
  return status;
}
