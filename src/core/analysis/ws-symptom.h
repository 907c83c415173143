/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsSymptom:
 * @thread: thread index of the thread of interest
 * @t0: start of the time window (ns)
 * @t1: end of the time window (ns), >= @t0
 *
 * StackMine's symptom ⟨T, t0, t1⟩: thread T performed badly in [t0, t1].
 */
typedef struct {
  guint32 thread;
  WsTime  t0;
  WsTime  t1;
} WsSymptom;

/**
 * WsSymptomSettings:
 * @symptom: the thread and window to explain
 * @classifier: (nullable): lock flags and wake kinds; %NULL =
 *   ws_frame_classifier_get_default()
 *
 * Everything an analysis that needs only a symptom depends on: the wait
 * graph's and the critical path's settings are these.  The other runs'
 * settings start with the same @symptom.
 */
typedef struct {
  WsSymptom          symptom;
  WsFrameClassifier *classifier;
} WsSymptomSettings;

void      ws_symptom_settings_init          (WsSymptomSettings *settings,
                                             const WsSymptom   *symptom);
WsSymptom ws_symptom_or_none                (const WsSymptom   *symptom);

/*
 * ws_symptom_from_scenario_instance:
 * Fills @symptom with the thread and window of scenario instance @instance
 * (0-based).  Returns FALSE (and leaves @symptom alone) if it does not exist.
 */
gboolean  ws_symptom_from_scenario_instance (WsTrace          *trace,
                                             guint             instance,
                                             WsSymptom        *symptom);

/*
 * ws_symptom_longest_wait:
 * @lock_classifier: (nullable): if set, only waits that are lock-related
 *   under it count (the patent's "longest lock-related wait")
 *
 * Returns: the index of the longest WAIT event of the symptom's thread that
 * *starts* in [t0, t1), ties to the earliest, or %WS_NONE if there is none.
 */
guint     ws_symptom_longest_wait           (WsTrace           *trace,
                                             const WsSymptom   *symptom,
                                             WsFrameClassifier *lock_classifier);

/*
 * ws_symptom_from_wait:
 * Fills @symptom with the thread of WAIT event @event and its span
 * (switch-out to wake-up, at least 1 ns); for a try of a lock wait the
 * program's own timeout cut up (ws_false_runs_get(), the default lists),
 * the whole joined wait.  Returns FALSE (and leaves @symptom alone) if
 * @event is not a wait of @trace.
 */
gboolean  ws_symptom_from_wait              (WsTrace           *trace,
                                             guint              event,
                                             WsSymptom         *symptom);

/*
 * ws_symptom_wait_at:
 * Returns: the WAIT event of @thread whose span holds @time (switch-out ≤
 *   @time < wake-up; the latest such), or %WS_NONE.
 */
guint     ws_symptom_wait_at                (WsTrace           *trace,
                                             guint              thread,
                                             WsTime             time);

G_END_DECLS
