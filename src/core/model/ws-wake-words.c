/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The glossary of what ended a wait when no thread did.  A timer expiry
 * was "Woken by hardware" in the critical path and "Timer ran out" in the
 * ready tree, and a disk completion "Readier unknown": one word for one
 * thing, kept in one place.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-wake-words.h"

/**
 * ws_wake_word_label:
 *
 * Returns: the word as a label or heading, capitalised ("Timer expired")
 */
const char *
ws_wake_word_label (WsWakeWord word)
{
  switch (word)
    {
    case WS_WAKE_WORD_TIMER:     return _("Timer expired");
    case WS_WAKE_WORD_INTERRUPT: return _("Interrupt");
    case WS_WAKE_WORD_DISK:      return _("Disk I/O done");
    case WS_WAKE_WORD_UNKNOWN:
    default:                     return _("No wake-up recorded");
    }
}

/**
 * ws_wake_word_phrase:
 *
 * Returns: the same word inside a sentence, lower case ("timer expired")
 */
const char *
ws_wake_word_phrase (WsWakeWord word)
{
  switch (word)
    {
    case WS_WAKE_WORD_TIMER:     return _("timer expired");
    case WS_WAKE_WORD_INTERRUPT: return _("interrupt");
    case WS_WAKE_WORD_DISK:      return _("disk I/O done");
    case WS_WAKE_WORD_UNKNOWN:
    default:                     return _("no wake-up recorded");
    }
}

/**
 * ws_wake_word_explain:
 *
 * Returns: one plain sentence for a tooltip or a glossary
 */
const char *
ws_wake_word_explain (WsWakeWord word)
{
  switch (word)
    {
    case WS_WAKE_WORD_TIMER:
      return _("Timer expired: the wait's own timeout or sleep ran out; no thread woke it.");
    case WS_WAKE_WORD_INTERRUPT:
      return _("Interrupt: woken from interrupt context, by a device or a timer, not by a thread.");
    case WS_WAKE_WORD_DISK:
      return _("Disk I/O done: an uninterruptible (D) wait ended when the device finished the I/O.");
    case WS_WAKE_WORD_UNKNOWN:
    default:
      return _("No wake-up recorded: the trace does not say what ended the wait; no thread, timer or device is known to have woken it.");
    }
}

/**
 * ws_wake_word_for_interrupt:
 * @state: the wait's state ('S', 'D'…)
 *
 * Returns: the word for a wait ended from interrupt context: an
 *   uninterruptible wait's is the device finishing its I/O.
 */
WsWakeWord
ws_wake_word_for_interrupt (char state)
{
  return state == 'D' ? WS_WAKE_WORD_DISK : WS_WAKE_WORD_INTERRUPT;
}

/**
 * ws_wake_word_for_kind:
 * @kind: what ended a wait, as the frame classifier tells it
 * @state: the wait's state ('D' for an uninterruptible wait)
 * @word: (out): the glossary's word for it, when no thread ended it
 *
 * A kernel worker (a heartbeat thread) ending an uninterruptible wait
 * completed the thread's own I/O: the critical path and `why` treat it as
 * the I/O path's, so it is "disk I/O done" here too.
 *
 * Returns: %FALSE if a thread woke the wait (the views name the thread)
 */
gboolean
ws_wake_word_for_kind (WsWakeKind  kind,
                       char        state,
                       WsWakeWord *word)
{
  switch (kind)
    {
    case WS_WAKE_TIMER:
      *word = WS_WAKE_WORD_TIMER;
      return TRUE;
    case WS_WAKE_INTERRUPT:
      *word = ws_wake_word_for_interrupt (state);
      return TRUE;
    case WS_WAKE_UNKNOWN:
      *word = WS_WAKE_WORD_UNKNOWN;
      return TRUE;
    case WS_WAKE_HEARTBEAT:
      if (state != 'D')
        return FALSE;
      *word = WS_WAKE_WORD_DISK;
      return TRUE;
    case WS_WAKE_THREAD:
    default:
      return FALSE;
    }
}

/**
 * ws_wake_word_for_wait:
 * @classifier: (nullable): the frame lists; %NULL for the default
 * @trace: the trace
 * @wait_event: a WAIT event
 * @word: (out): what ended it, when no thread did
 *
 * The one rule every view (timeline, ready tree, critical path, `why`,
 * reports) uses to name what ended a wait, so that the same wait gets the
 * same word everywhere: a timer's expiry (the classifier's false-run
 * frames) is "timer expired" whether the critical path, the ready tree or
 * `why` shows it; an interrupt ending an uninterruptible wait is "disk I/O
 * done"; a wait without a wake-up record is "no wake-up recorded".
 *
 * Returns: %FALSE if a thread woke the wait (the views name the thread;
 *   @word is left alone), or if the wait is still open at the end of the
 *   trace (nothing ended it yet)
 */
gboolean
ws_wake_word_for_wait (WsFrameClassifier *classifier,
                       WsTrace           *trace,
                       guint              wait_event,
                       WsWakeWord        *word)
{
  const WsEvent *e;

  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (wait_event < ws_trace_get_n_events (trace), FALSE);

  e = ws_trace_get_event (trace, wait_event);
  if (e->kind != WS_EVENT_WAIT || (e->flags & WS_EVENT_FLAG_UNFINISHED))
    return FALSE;
  if (classifier == NULL)
    classifier = ws_frame_classifier_get_default ();
  return ws_wake_word_for_kind (ws_frame_classifier_classify_wake (classifier, trace, wait_event, NULL),
                                (e->flags & WS_EVENT_FLAG_UNINTERRUPTIBLE) ? 'D' : e->state, word);
}
