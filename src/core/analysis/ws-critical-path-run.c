/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The critical-path analysis as one call: settings in, path out, with the
 * cancellation and progress reporting every front-end expects.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-critical-path-run.h"

void
ws_critical_path_settings_init (WsCriticalPathSettings *settings,
                                const WsSymptom        *symptom)
{
  ws_symptom_settings_init (settings, symptom);
}

WsCriticalPath *
ws_critical_path_run (WsTrace                      *trace,
                      const WsCriticalPathSettings *settings,
                      GCancellable                 *cancellable,
                      WsProgressFunc                progress,
                      gpointer                      progress_data,
                      GError                      **error)
{
  g_autoptr(WsCriticalPath) path = NULL;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  ws_progress_report (progress, progress_data, 0.0, _("Walking the critical path"));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  path = ws_critical_path_build_full (trace, &settings->symptom, settings->classifier, cancellable,
                                      progress, progress_data, error);
  if (path == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  ws_progress_report (progress, progress_data, 1.0, _("Critical path found"));
  return g_steal_pointer (&path);
}
