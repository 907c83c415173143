/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-why-targets.h"

/**
 * ws_why_default_targets:
 * @traces: (element-type WsTrace): the traces
 * @scenario: (nullable): the scenario the instances are of, %NULL for any
 * @classifier: the frame classifier the thread picker ranks with
 * @choice: (nullable): the program to pick threads of (ws_attribution_targets_picked())
 * @picks: (out) (optional) (transfer full): with threads picked, why each was
 * @kind: (out): which of the two defaults the targets are
 *
 * The one home of "why"'s default targets, which the CLI's `why` and the
 * Overview both explain: the slowest share of the scenario instances
 * when there are any, else the threads the picker ranks first.
 *
 * Returns: (transfer full) (element-type WsAttributionTarget): the targets,
 * possibly none
 */
GArray *
ws_why_default_targets (GPtrArray          *traces,
                        const char         *scenario,
                        WsFrameClassifier  *classifier,
                        const WsPickChoice *choice,
                        GPtrArray         **picks,
                        WsWhyTargetsKind   *kind)
{
  GArray *targets = ws_attribution_targets_slowest_share (traces, scenario, WS_WHY_DEFAULT_SHARE);

  *kind = WS_WHY_TARGETS_SLOWEST_SHARE;
  if (targets->len > 0)
    return targets;
  g_array_unref (targets);
  *kind = WS_WHY_TARGETS_PICKED_THREADS;
  return ws_attribution_targets_picked (traces, classifier, WS_WHY_DEFAULT_THREADS, choice, picks);
}

/* Targets the thread picker chooses: its threads over their whole lives. */
GArray *
ws_attribution_targets_waiting_threads (GPtrArray         *traces,
                                        WsFrameClassifier *classifier,
                                        guint              k)
{
  return ws_attribution_targets_waiting_threads_full (traces, classifier, k, NULL);
}

GArray *
ws_attribution_targets_waiting_threads_full (GPtrArray         *traces,
                                             WsFrameClassifier *classifier,
                                             guint              k,
                                             GPtrArray        **picks)
{
  return ws_attribution_targets_picked (traces, classifier, k, NULL, picks);
}

GArray *
ws_attribution_targets_picked (GPtrArray          *traces,
                               WsFrameClassifier  *classifier,
                               guint               k,
                               const WsPickChoice *choice,
                               GPtrArray         **picks)
{
  GArray *out;

  g_return_val_if_fail (traces != NULL, NULL);

  if (picks != NULL)
    *picks = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_thread_pick_free);
  out = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  for (guint t = 0; t < traces->len; t++)
    {
      WsTrace *trace = g_ptr_array_index (traces, t);
      g_autoptr(WsThreadPick) pick = ws_thread_picker_pick_full (trace, classifier, k, choice);

      for (guint i = 0; pick != NULL && i < pick->threads->len; i++)
        {
          guint thread = g_array_index (pick->threads, guint, i);
          const WsThread *th = ws_trace_get_thread (trace, thread);
          WsAttributionTarget target = { trace, { thread, th->first_seen, th->last_seen }, WS_NONE };

          g_array_append_val (out, target);
        }
      if (pick != NULL && picks != NULL)
        g_ptr_array_add (*picks, g_steal_pointer (&pick));
    }
  return out;
}
