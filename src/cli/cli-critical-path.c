/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli critical-path: what determined the end of a symptom
 * ⟨tid, from, to⟩: a sequence of running / ready / blocked segments across
 * the threads that readied one another, as JSON or DOT.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-symptom.h"
#include "ws-critical-path-run.h"
#include "ws-graph-export.h"

int cli_critical_path (int argc, char **argv);

static gboolean
critical_path (WsTrace            *trace,
               const WsSymptom    *symptom,
               WsFrameClassifier  *classifier,
               char              **dot,
               JsonNode          **json,
               GError            **error)
{
  g_autoptr(WsCriticalPath) path = NULL;
  WsCriticalPathSettings settings;

  ws_critical_path_settings_init (&settings, symptom);
  settings.classifier = classifier;
  if ((path = ws_critical_path_run (trace, &settings, NULL, NULL, NULL, error)) == NULL)
    return FALSE;
  if (dot != NULL)
    *dot = ws_graph_export_critical_path_dot (path);
  else
    *json = ws_graph_export_critical_path_json (path);
  return TRUE;
}

int
cli_critical_path (int    argc,
                   char **argv)
{
  return cli_symptom_graph_main (argc, argv, "critical-path",
    _("[TRACE] — the critical path of a thread in a time window"),
    _("Walking back from the end of the window: while the thread runs (or is runnable) it is "
      "on the path; when it is blocked, the path follows the thread that readied it back to the "
      "start of the wait.  Waits no thread ended stay on the waiting thread, each segment's "
      "label saying what ended it in the glossary's words (timer expired, interrupt, disk I/O "
      "done, no wake-up recorded).  Formats: json (default), dot."),
    critical_path);
}
