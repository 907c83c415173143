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
