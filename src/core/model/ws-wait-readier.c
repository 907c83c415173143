/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Who ended a wait: the readier kind and the one sentence that says it.
 * `info`, the Threads table, the timeline's arrow label, the details pane
 * and the reports all ask here, so that one wait is counted and named the
 * same way in every view.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-wait-readier.h"
#include "ws-wake-words.h"

/**
 * ws_wait_readier_is_unknown:
 * @wait: a WAIT event
 *
 * The one definition of "no wake-up recorded": the wait ended without a
 * paired wake-up.  A paired wake-up names its readier even when an
 * importer also set %WS_EVENT_FLAG_READIER_UNKNOWN (a JSON trace may), so
 * the pairing decides; a wait still open when the recording stopped has
 * no readier yet, which is not a lost wake-up.
 *
 * Returns: %TRUE if the readier of @wait is unknown
 */
gboolean
ws_wait_readier_is_unknown (const WsEvent *wait)
{
  g_return_val_if_fail (wait != NULL, FALSE);

  return wait->kind == WS_EVENT_WAIT && wait->peer == WS_NONE
         && !(wait->flags & WS_EVENT_FLAG_UNFINISHED);
}

/**
 * ws_wait_readier_classify:
 * @readier_thread: (out) (optional): the readier's thread index, or
 *   %WS_NONE
 *
 * Returns: who ended the wait @wait: ws_trace_wait_readier(), with the
 *   waits still open at the end of the trace told apart from the lost
 *   wake-ups
 */
WsWaitReadier
ws_wait_readier_classify (WsTrace *trace,
                          guint    wait,
                          guint   *readier_thread)
{
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_TRACE (trace), WS_WAIT_READIER_UNKNOWN);
  g_return_val_if_fail (wait < ws_trace_get_n_events (trace), WS_WAIT_READIER_UNKNOWN);

  e = ws_trace_get_event (trace, wait);
  switch (ws_trace_wait_readier (trace, wait, readier_thread))
    {
    case WS_READIER_THREAD:
      return WS_WAIT_READIER_THREAD;
    case WS_READIER_HARDWARE:
      return WS_WAIT_READIER_HARDWARE;
    case WS_READIER_UNKNOWN:
    default:
      return ws_wait_readier_is_unknown (e) ? WS_WAIT_READIER_UNKNOWN : WS_WAIT_READIER_UNFINISHED;
    }
}

/**
 * ws_wait_readier_to_string:
 *
 * Returns: the untranslated word `--json` outputs write: thread,
 *   hardware, unknown, unfinished
 */
const char *
ws_wait_readier_to_string (WsWaitReadier readier)
{
  static const char * const names[] = { "thread", "hardware", "unknown", "unfinished" };

  g_return_val_if_fail ((guint) readier < G_N_ELEMENTS (names), NULL);
  return names[readier];
}

/**
 * ws_wait_readier_dup_sentence:
 * @classifier: (nullable): the frame lists; %NULL for the defaults
 *
 * The one translated sentence for who ended the wait @wait, by the rule
 * of ws_wake_word_for_wait() that `why`, the ready tree and the critical
 * path follow: the glossary's word when it has one ("timer expired" even
 * when a softirq thread ran the timer, "disk I/O done" for a kernel worker
 * ending a D wait), else "woken by NAME (TID)" for a thread; "still
 * waiting when the recording ended" for a wait open at the end.
 *
 * Returns: (transfer full): the sentence
 */
char *
ws_wait_readier_dup_sentence (WsFrameClassifier *classifier,
                              WsTrace           *trace,
                              guint              wait)
{
  guint thread = WS_NONE;
  WsWaitReadier readier;
  WsWakeWord word;

  g_return_val_if_fail (WS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (wait < ws_trace_get_n_events (trace), NULL);

  readier = ws_wait_readier_classify (trace, wait, &thread);
  if (readier == WS_WAIT_READIER_UNFINISHED)
    return g_strdup (_("still waiting when the recording ended"));
  if (ws_wake_word_for_wait (classifier, trace, wait, &word))
    return g_strdup (ws_wake_word_phrase (word));
  if (readier == WS_WAIT_READIER_THREAD)
    {
      const WsThread *t = ws_trace_get_thread (trace, thread);
      /* Translators: who readied a wait: a thread's name and id */
      return g_strdup_printf (_("woken by %s (%d)"), t->name ? t->name : "?", t->tid);
    }
  /* Not a WAIT event the classifier knows: say what the trace says. */
  word = readier == WS_WAIT_READIER_HARDWARE
         ? ws_wake_word_for_interrupt (ws_trace_get_event (trace, wait)->state)
         : WS_WAKE_WORD_UNKNOWN;
  return g_strdup (ws_wake_word_phrase (word));
}
