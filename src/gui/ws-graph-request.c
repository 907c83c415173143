/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building what the graph page shows, off the main thread.  The page runs
 * ws_graph_request_run_in_thread() through its WsWorker; the analyses'
 * core entry points do the work.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-critical-path-run.h"
#include "ws-graph-request.h"
#include "ws-ready-tree-run.h"
#include "ws-wait-graph-run.h"

void
ws_graph_request_free (WsGraphRequest *job)
{
  g_clear_object (&job->trace);
  g_clear_object (&job->anomalies);
  g_free (job);
}

void
ws_graph_result_free (WsGraphResult *result)
{
  g_clear_object (&result->scene);
  g_clear_object (&result->path);
  g_free (result);
}


static WsGraphScene *
build_scene (WsGraphRequest *job,
             GCancellable   *cancellable,
             GError        **error)
{
  if (job->mode == WS_GRAPH_MODE_READY_TREE)
    {
      WsReadyTreeSettings settings;
      g_autoptr(WsReadyTree) tree = NULL;

      ws_ready_tree_settings_init (&settings, &job->symptom);
      settings.root_event = job->root_event;
      settings.options.lock_only = job->lock_only;
      settings.options.max_depth = job->depth;
      tree = ws_ready_tree_run (job->trace, &settings, cancellable, NULL, NULL, error);
      if (tree == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      /* For the "most anomalous waits" chain metric. */
      if (job->anomalies != NULL)
        ws_anomaly_result_mark_ready_tree (job->anomalies, job->anomaly_trace, tree);
      return ws_graph_scene_new_for_ready_tree (tree, job->metric, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
    }
  else
    {
      WsWaitGraphSettings settings;
      g_autoptr(WsWaitGraph) graph = NULL;

      ws_wait_graph_settings_init (&settings, &job->symptom);
      graph = ws_wait_graph_run (job->trace, &settings, cancellable, NULL, NULL, error);
      if (graph == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      return ws_graph_scene_new_for_wait_graph_full (graph, job->depth, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
    }
}

/* A GTaskThreadFunc: @task_data is the WsGraphRequest; returns a WsGraphResult. */
void
ws_graph_request_run_in_thread (GTask        *task,
                                gpointer      source_object,
                                gpointer      task_data,
                                GCancellable *cancellable)
{
  WsGraphRequest *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsGraphResult) result = g_new0 (WsGraphResult, 1);

  if (job->mode == WS_GRAPH_MODE_CRITICAL_PATH)
    {
      WsCriticalPathSettings settings;

      ws_critical_path_settings_init (&settings, &job->symptom);
      result->path = ws_critical_path_run (job->trace, &settings, cancellable, NULL, NULL, &error);
      if (result->path != NULL)
        g_cancellable_set_error_if_cancelled (cancellable, &error);
    }
  else
    result->scene = build_scene (job, cancellable, &error);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) ws_graph_result_free);
}

/* The status line's words for @built. */
char *
ws_graph_result_dup_summary (WsGraphResult *built)
{
  g_autofree char *threads = NULL;
  guint n;

  if (built->path == NULL)
    return ws_graph_scene_dup_summary (built->scene);
  threads = ws_critical_path_dup_thread_summary (built->path, 3);
  n = ws_critical_path_get_n_segments (built->path);
  /* Translators: status line of the critical path: segments, then the
   * busiest threads and their share */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Critical path: %u segment · %s",
                                       "Critical path: %u segments · %s", n),
                          n, threads);
}

