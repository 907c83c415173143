/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli critical-path: what determined the end of a symptom
 * ⟨tid, from, to⟩: a sequence of running / ready / blocked segments across
 * the threads that readied one another, as JSON or DOT.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-symptom.h"
#include "ws-critical-path-run.h"
#include "ws-graph-export.h"

int cli_critical_path (int argc, char **argv);

int
cli_critical_path (int    argc,
                   char **argv)
{
  static const char * const formats[] = { "json", "dot", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  CliSymptomOptions options;
  WsCriticalPathSettings settings;
  WsSymptom symptom;
  int event = -1;
  int status;
  const GOptionEntry entries[] = {
    { "event", 0, 0, G_OPTION_ARG_INT, &event,
      N_("One wait as the symptom: its thread over the wait's span (an event index, as readytree --event takes)"),
      N_("INDEX") },
    { NULL }
  };

  context = cli_symptom_context_new (&options, _("[TRACE] — the critical path of a thread in a time window"),
    _("Walking back from the end of the window: while the thread runs (or is runnable) it is "
      "on the path; when it is blocked, the path follows the thread that readied it back to the "
      "start of the wait.  Waits no thread ended stay on the waiting thread, each segment's "
      "label saying what ended it in the glossary's words (timer expired, interrupt, disk I/O "
      "done, no wake-up recorded).  Formats: json (default), dot."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!cli_parse_options (context, "critical-path", &argc, &argv, &status))
    goto out;
  if ((status = cli_symptom_check_event ("critical-path", &options, event)) >= 0)
    goto out;
  status = cli_symptom_resolve ("critical-path", &options, argc, argv, event < 0, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0 || (event >= 0 && (status = cli_symptom_from_event (&options, trace, event, &symptom)) >= 0))
    goto out;

  ws_critical_path_settings_init (&settings, &symptom);
  settings.classifier = classifier;
  path = ws_critical_path_run (trace, &settings, NULL, NULL, NULL, &error);
  if (path == NULL)
    {
      status = cli_fail (error);
      goto out;
    }

  if (g_str_equal (options.format, "dot"))
    {
      g_autofree char *dot = ws_graph_export_critical_path_dot (path);
      status = cli_symptom_write (&options, dot);
    }
  else
    {
      g_autoptr(JsonNode) json = ws_graph_export_critical_path_json (path);
      status = cli_symptom_write_json (&options, json);
    }

out:
  cli_symptom_options_clear (&options);
  return status;
}
