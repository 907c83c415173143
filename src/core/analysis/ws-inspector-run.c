/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The inspector as one call: build (or reuse) the symptom's wait graph, or
 * take the whole trace, and list what looks over- or under-connected.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-inspector-run.h"

void
ws_inspector_settings_init (WsInspectorSettings *settings,
                            const WsSymptom     *symptom)
{
  g_return_if_fail (settings != NULL);

  settings->symptom = ws_symptom_or_none (symptom);
  settings->graph = NULL;
  ws_inspector_options_init (&settings->options);
}

void
ws_inspector_result_free (WsInspectorResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->findings, g_ptr_array_unref);
  g_clear_object (&result->graph);
  g_free (result);
}

static guint
count_graph_waits (WsWaitGraph *graph)
{
  guint n = 0;

  for (guint i = 0; i < ws_wait_graph_get_n_nodes (graph); i++)
    n += ws_wait_graph_get_node (graph, i)->kind == WS_WAIT_NODE_WAIT;
  return n;
}

static WsWaitGraph *
get_graph (WsTrace                   *trace,
           const WsInspectorSettings *settings,
           GCancellable              *cancellable,
           GError                   **error)
{
  if (settings->graph != NULL)
    return g_object_ref (settings->graph);
  return ws_wait_graph_build (trace, &settings->symptom, settings->options.classifier, cancellable, error);
}

WsInspectorResult *
ws_inspector_run (WsTrace                   *trace,
                  const WsInspectorSettings *settings,
                  GCancellable              *cancellable,
                  WsProgressFunc             progress,
                  gpointer                   progress_data,
                  GError                   **error)
{
  g_autoptr(WsInspectorResult) result = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL, NULL);
  g_return_val_if_fail (settings->graph == NULL || WS_IS_WAIT_GRAPH (settings->graph), NULL);

  result = g_new0 (WsInspectorResult, 1);
  if (settings->symptom.thread == WS_NONE && settings->graph == NULL)
    {
      ws_progress_report (progress, progress_data, 0.0, _("Inspecting every wait of the trace"));
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      result->findings = ws_inspect_trace_full (trace, &settings->options, cancellable, progress, progress_data, error);
      if (result->findings == NULL)
        return NULL;
      result->n_waits = ws_trace_count_kind (trace, WS_EVENT_WAIT);
    }
  else
    {
      ws_progress_report (progress, progress_data, 0.0, _("Building the wait graph"));
      result->graph = get_graph (trace, settings, cancellable, error);
      if (result->graph == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      ws_progress_report (progress, progress_data, 0.5, _("Inspecting the wait graph"));
      result->findings = ws_inspect_wait_graph_full (result->graph, &settings->options, cancellable,
                                                     progress, progress_data, error);
      if (result->findings == NULL)
        return NULL;
      result->n_waits = count_graph_waits (result->graph);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  ws_progress_report (progress, progress_data, 1.0, _("Inspection done"));
  return g_steal_pointer (&result);
}
