/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A flag on one wait, as the store keeps it: which wait a thread id and a
 * time name, and the record made for it.  `flag` (CLI) and the GUI's
 * Anomalies page both make their flags here, so a flag saved by one is
 * the flag the other reads.
 */
#include "config.h"

#include "ws-anomaly-flag.h"
#include "ws-symptom.h"
#include "ws-wait-signature.h"

/**
 * ws_anomaly_flag_find_wait:
 * @tid: the thread's id, as the trace records it
 * @time: a time inside the wait (its start included)
 *
 * Returns: the scored wait (ws_wait_is_scored()) of thread @tid whose span
 *   holds @time (ws_symptom_wait_at()), or %WS_NONE
 */
guint
ws_anomaly_flag_find_wait (WsTrace *trace,
                           gint32   tid,
                           WsTime   time)
{
  guint thread, event;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_NONE);

  if ((thread = ws_trace_find_thread (trace, tid)) == WS_NONE
      || (event = ws_symptom_wait_at (trace, thread, time)) == WS_NONE
      || !ws_wait_is_scored (ws_trace_get_event (trace, event)))
    return WS_NONE;
  return event;
}

/**
 * ws_anomaly_flag_init:
 * @flag: (out caller-allocates): clear with ws_wait_flag_clear()
 * @signature: the wait's kind
 *
 * The record of @verdict on the wait @event: the store's key (the
 * trace's digest, the thread id, the wait's start) and what it learns
 * from (kind, duration).
 */
void
ws_anomaly_flag_init (WsWaitFlag    *flag,
                      WsTrace       *trace,
                      const char    *trace_digest,
                      guint          event,
                      const char    *signature,
                      WsAnomalyFlag  verdict)
{
  const WsEvent *e;

  g_return_if_fail (flag != NULL && WS_IS_TRACE (trace));

  e = ws_trace_get_event (trace, event);
  *flag = (WsWaitFlag) { 0 };
  flag->trace_digest = g_strdup (trace_digest);
  flag->event_time = e->time;
  flag->tid = ws_trace_get_thread (trace, e->thread)->tid;
  flag->signature = g_strdup (signature);
  flag->duration = ws_event_duration (e);
  flag->flag = verdict;
}

/**
 * ws_anomaly_flag_for_wait:
 * @signature_depth: frames of the kind (the settings' signature_depth)
 * @wait_only: the flag judges this wait only and teaches its kind nothing
 *   (ws_anomaly_flag_to_wait_only()); ignored when removing
 * @flag: (out caller-allocates): clear with ws_wait_flag_clear()
 *
 * The flag of @verdict on the wait @event without a scoring run: its kind
 * is the wait's signature at @signature_depth, the key scoring gives it.
 *
 * Returns: %FALSE (and @flag cleared) if @event is not a scored wait
 */
gboolean
ws_anomaly_flag_for_wait (WsTrace       *trace,
                          const char    *trace_digest,
                          guint          event,
                          guint          signature_depth,
                          WsAnomalyFlag  verdict,
                          gboolean       wait_only,
                          WsWaitFlag    *flag)
{
  g_autofree char *signature = NULL;
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_TRACE (trace) && flag != NULL, FALSE);

  *flag = (WsWaitFlag) { 0 };
  if (event >= ws_trace_get_n_events (trace) || !ws_wait_is_scored (e = ws_trace_get_event (trace, event)))
    return FALSE;
  signature = ws_wait_signature_for_stack (ws_trace_get_stack_table (trace), e->stack, signature_depth, NULL);
  ws_anomaly_flag_init (flag, trace, trace_digest, event, signature, verdict);
  if (wait_only && verdict != WS_ANOMALY_FLAG_NONE)
    ws_anomaly_flag_to_wait_only (flag);
  return TRUE;
}

/**
 * ws_anomaly_flag_to_wait_only:
 * @flag: a flag made by ws_anomaly_result_make_flag()
 *
 * Scopes @flag to its own wait: saved so, it decides that wait's verdict
 * and teaches the kind nothing.
 */
void
ws_anomaly_flag_to_wait_only (WsWaitFlag *flag)
{
  char *scoped;

  g_return_if_fail (flag != NULL && flag->signature != NULL);
  if (g_str_has_prefix (flag->signature, WS_ANOMALY_WAIT_ONLY_PREFIX))
    return;
  scoped = g_strconcat (WS_ANOMALY_WAIT_ONLY_PREFIX, flag->signature, NULL);
  g_free (flag->signature);
  flag->signature = scoped;
}
