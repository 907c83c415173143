/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The ready-tree analysis as one call: choose the root (a given wait or the
 * symptom's longest one), grow the tree, report and honour cancellation.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-ready-tree-run.h"

void
ws_ready_tree_settings_init (WsReadyTreeSettings *settings,
                             const WsSymptom     *symptom)
{
  g_return_if_fail (settings != NULL);

  settings->symptom = ws_symptom_or_none (symptom);
  settings->root_event = WS_NONE;
  ws_ready_tree_options_init (&settings->options);
}

WsReadyTree *
ws_ready_tree_run (WsTrace                   *trace,
                   const WsReadyTreeSettings *settings,
                   GCancellable              *cancellable,
                   WsProgressFunc             progress,
                   gpointer                   progress_data,
                   GError                   **error)
{
  g_autoptr(WsReadyTree) tree = NULL;
  guint root;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  ws_progress_report (progress, progress_data, 0.0, _("Building the ready tree"));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  root = settings->root_event;
  if (root == WS_NONE && (root = ws_ready_tree_find_root (trace, &settings->symptom, &settings->options, error)) == WS_NONE)
    return NULL;
  tree = ws_ready_tree_build_full (trace, root, &settings->options, cancellable, progress, progress_data, error);
  if (tree == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  ws_progress_report (progress, progress_data, 1.0, _("Ready tree built"));
  return g_steal_pointer (&tree);
}
