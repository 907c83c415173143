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
