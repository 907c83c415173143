/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The wait-graph analysis as one call: settings in, graph out, with the
 * cancellation and progress reporting every front-end expects.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-wait-graph-run.h"

void
ws_wait_graph_settings_init (WsWaitGraphSettings *settings,
                             const WsSymptom     *symptom)
{
  ws_symptom_settings_init (settings, symptom);
}

WsWaitGraph *
ws_wait_graph_run (WsTrace                   *trace,
                   const WsWaitGraphSettings *settings,
                   GCancellable              *cancellable,
                   WsProgressFunc             progress,
                   gpointer                   progress_data,
                   GError                   **error)
{
  WsWaitGraph *graph;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  ws_progress_report (progress, progress_data, 0.0, _("Building the wait graph"));
  graph = ws_wait_graph_build (trace, &settings->symptom, settings->classifier, cancellable, error);
  if (graph != NULL)
    ws_progress_report (progress, progress_data, 1.0, _("Wait graph built"));
  return graph;
}
