/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsSymptom: the ⟨thread, t0, t1⟩ every analysis of one trace starts from,
 * and the two ways of getting one that are not typed in by hand.
 */
#include "config.h"

#include "ws-false-run.h"
#include "ws-symptom.h"

/* @symptom, or the empty one (thread %WS_NONE) that settings start from
 * when there is none yet. */
WsSymptom
ws_symptom_or_none (const WsSymptom *symptom)
{
  return symptom ? *symptom : (WsSymptom) { WS_NONE, 0, 0 };
}

/**
 * ws_symptom_settings_init:
 * @symptom: (nullable): the symptom, or none yet
 *
 * The default classifier and @symptom.
 */
void
ws_symptom_settings_init (WsSymptomSettings *settings,
                          const WsSymptom   *symptom)
{
  g_return_if_fail (settings != NULL);

  settings->symptom = ws_symptom_or_none (symptom);
  settings->classifier = NULL;
}

/**
 * ws_symptom_from_scenario_instance:
 *
 * Returns: whether scenario instance @instance exists
 */
gboolean
ws_symptom_from_scenario_instance (WsTrace   *trace,
                                   guint      instance,
                                   WsSymptom *symptom)
{
  const WsScenarioInstance *inst;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (symptom != NULL, FALSE);

  if (instance >= ws_trace_get_n_scenario_instances (trace))
    return FALSE;

  inst = ws_trace_get_scenario_instance (trace, instance);
  symptom->thread = inst->thread;
  symptom->t0 = inst->t0;
  symptom->t1 = inst->t1;
  return TRUE;
}

guint
ws_symptom_longest_wait (WsTrace           *trace,
                         const WsSymptom   *symptom,
                         WsFrameClassifier *lock_classifier)
{
  const WsThread *thread;
  const WsEvent *events;
  guint best = WS_NONE;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_NONE);
  g_return_val_if_fail (symptom != NULL, WS_NONE);

  if (symptom->thread >= ws_trace_get_n_threads (trace))
    return WS_NONE;

  thread = ws_trace_get_thread (trace, symptom->thread);
  events = ws_trace_get_events (trace);
  for (guint k = ws_trace_thread_lower_bound (trace, symptom->thread, symptom->t0);
       k < thread->n_events && events[thread->events[k]].time < symptom->t1;
       k++)
    {
      guint i = thread->events[k];

      if (events[i].kind != WS_EVENT_WAIT)
        continue;
      if (best != WS_NONE && ws_event_duration (&events[i]) <= ws_event_duration (&events[best]))
        continue;
      if (lock_classifier != NULL && !ws_frame_classifier_is_lock_wait (lock_classifier, trace, i))
        continue;
      best = i;
    }

  return best;
}

gboolean
ws_symptom_from_wait (WsTrace   *trace,
                      guint      event,
                      WsSymptom *symptom)
{
  const WsWaitChain *chain;
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (symptom != NULL, FALSE);

  if (event >= ws_trace_get_n_events (trace))
    return FALSE;
  e = ws_trace_get_event (trace, event);
  if (e->kind != WS_EVENT_WAIT)
    return FALSE;
  symptom->thread = e->thread;
  symptom->t0 = e->time;
  /* A zero-length wait still gets a one-nanosecond window, so that the
   * window holds the wait itself (the GUI's context menu and the CLI's
   * --event share this). */
  symptom->t1 = e->time + MAX (ws_event_duration (e), 1);
  /* A try of a lock wait the program's timeout cut up: the whole wait. */
  if ((chain = ws_false_runs_chain_of (ws_false_runs_get (trace, NULL), event)) != NULL)
    {
      symptom->t0 = chain->start;
      symptom->t1 = chain->end;
    }
  return TRUE;
}

guint
ws_symptom_wait_at (WsTrace *trace,
                    guint    thread,
                    WsTime   time)
{
  const WsThread *t;
  const WsEvent *events;
  guint k;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_NONE);

  if (thread >= ws_trace_get_n_threads (trace))
    return WS_NONE;
  t = ws_trace_get_thread (trace, thread);
  events = ws_trace_get_events (trace);
  /* Events are sorted by start: the wait holding @time is the latest one
   * starting at or before it that has not ended. */
  for (k = ws_trace_thread_lower_bound (trace, thread, time + 1); k > 0; k--)
    {
      const WsEvent *e = &events[t->events[k - 1]];

      if (e->kind == WS_EVENT_WAIT)
        return e->time + MAX (ws_event_duration (e), 0) > time ? t->events[k - 1] : WS_NONE;
    }
  return WS_NONE;
}
