/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ws_flame_run(): the folding is `collapse`'s own (ws_collapse_counts(),
 * in nanoseconds rather than microseconds, over the selection), so a flame
 * graph's widths are by construction the tally of the folded stacks that
 * `waitscope-cli collapse --ns` writes for the same selection.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-collapse.h"
#include "ws-flame-run.h"

static const WsFlameModeInfo modes[WS_N_FLAME_MODES] = {
  { WS_FLAME_ON_CPU, "on-cpu", N_("On-CPU") },
  { WS_FLAME_OFF_CPU, "off-cpu", N_("Off-CPU") },
  { WS_FLAME_OFF_WAKE, "off-wake", N_("Off-wake") },
};

const WsFlameModeInfo *
ws_flame_mode_get_info (WsFlameMode mode)
{
  g_return_val_if_fail (mode < WS_N_FLAME_MODES, &modes[0]);
  return &modes[mode];
}

void
ws_flame_settings_init (WsFlameSettings *settings)
{
  g_return_if_fail (settings != NULL);
  memset (settings, 0, sizeof *settings);
  settings->mode = WS_FLAME_ON_CPU;
}

/* Clock events count nanoseconds in their period. */
static gboolean
is_clock_event (const char *event)
{
  return event != NULL && (strcmp (event, "cpu-clock") == 0 || strcmp (event, "task-clock") == 0 ||
                           g_str_has_suffix (event, ":cpu-clock") || g_str_has_suffix (event, ":task-clock"));
}

/**
 * ws_flame_run:
 *
 * Returns: (transfer full): the flame graph of the selection (an empty tree
 *   when nothing of that kind happened in it), or %NULL with
 *   %G_IO_ERROR_CANCELLED
 */
WsFlameGraph *
ws_flame_run (WsTrace               *trace,
              const WsFlameSettings *settings,
              GCancellable          *cancellable,
              WsProgressFunc         progress,
              gpointer               progress_data,
              GError               **error)
{
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(WsFlameGraph) graph = g_new0 (WsFlameGraph, 1);
  WsCollapseOptions options;
  const char *event = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint done = 0;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (settings != NULL && settings->mode < WS_N_FLAME_MODES, NULL);

  ws_progress_report (progress, progress_data, 0.0, _("Folding stacks"));
  ws_collapse_options_init (&options);
  options.wait_unit_ns = 1;
  options.event = settings->event;
  options.has_window = settings->has_window;
  options.window_start = settings->window_start;
  options.window_end = settings->window_end;
  options.threads = settings->threads;
  options.n_threads = settings->n_threads;
  graph->mode = settings->mode;
  graph->unit = WS_FLAME_UNIT_NS;
  if (settings->mode == WS_FLAME_ON_CPU)
    {
      graph->from_spans = settings->event == NULL && !ws_collapse_trace_has_samples (trace);
      options.mode = graph->from_spans ? WS_COLLAPSE_SPANS : WS_COLLAPSE_SAMPLES;
    }
  else
    {
      options.mode = WS_COLLAPSE_WAITS;
      options.with_waker = settings->mode == WS_FLAME_OFF_WAKE;
    }

  counts = ws_collapse_counts (trace, &options, &event);
  if (options.mode == WS_COLLAPSE_SAMPLES)
    {
      graph->event = g_strdup (event);
      graph->unit = is_clock_event (event) ? WS_FLAME_UNIT_NS : WS_FLAME_UNIT_PERIOD;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  ws_progress_report (progress, progress_data, 0.5, _("Building the flame graph"));
  graph->tree = ws_flame_tree_new ();
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      ws_flame_tree_add_folded (graph->tree, key, *(guint64 *) value);
      if (++done % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  ws_flame_tree_finish (graph->tree);
  ws_progress_report (progress, progress_data, 1.0, NULL);
  return g_steal_pointer (&graph);
}

void
ws_flame_graph_free (WsFlameGraph *graph)
{
  if (graph == NULL)
    return;
  g_clear_pointer (&graph->tree, ws_flame_tree_unref);
  g_free (graph->event);
  g_free (graph);
}
