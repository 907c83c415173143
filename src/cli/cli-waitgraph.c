/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli waitgraph: the wait graph of a symptom ⟨tid, from, to⟩
 * (StackMine Fig. 2), as JSON or Graphviz DOT.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-symptom.h"
#include "ws-graph-export.h"
#include "ws-wait-graph-run.h"

int cli_waitgraph (int argc, char **argv);

static gboolean
wait_graph (WsTrace            *trace,
            const WsSymptom    *symptom,
            WsFrameClassifier  *classifier,
            char              **dot,
            JsonNode          **json,
            GError            **error)
{
  g_autoptr(WsWaitGraph) graph = NULL;
  WsWaitGraphSettings settings;

  ws_wait_graph_settings_init (&settings, symptom);
  settings.classifier = classifier;
  if ((graph = ws_wait_graph_run (trace, &settings, NULL, NULL, NULL, error)) == NULL)
    return FALSE;
  if (dot != NULL)
    *dot = ws_graph_export_wait_graph_dot (graph);
  else
    *json = ws_graph_export_wait_graph_json (graph);
  return TRUE;
}

int
cli_waitgraph (int    argc,
               char **argv)
{
  return cli_symptom_graph_main (argc, argv, "waitgraph",
    _("[TRACE] — the wait graph of a thread in a time window"),
    _("Nodes are the running and waiting events of the thread inside the window, then, "
      "for every wait, the events of its readier that end inside it, repeated until nothing "
      "is added (StackMine, Fig. 2).  Waits no thread ended point to a node saying what did, "
      "in the glossary's words (timer expired, interrupt, disk I/O done, no wake-up recorded).  "
      "Formats: json (default), dot."),
    wait_graph);
}
