/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What ended a blocked cause's waits, in the glossary's words
 * (ws-wake-words.h), so that `why` and the Overview say "timer expired"
 * for the same wait the critical path calls "Blocked, timer expired" and
 * the ready tree "Timer expired".
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-cause-ended.h"
#include "ws-wake-words.h"

static void
append_part (GString    *out,
             const char *word,
             WsTime      part,
             WsTime      whole,
             gboolean    several)
{
  if (part <= 0)
    return;
  if (out->len > 0)
    g_string_append (out, ", ");
  if (several)
    /* Translators: one of what ended a cause's waits and its share of the cause's time */
    g_string_append_printf (out, _("%s %.0f %%"), word, 100.0 * part / whole);
  else
    g_string_append (out, word);
}

/**
 * ws_cause_dup_ended:
 *
 * Returns: (transfer full) (nullable): what ended the waits of a blocked
 *   cause that no thread woke ("ended: timer expired"; with a share each
 *   when they differ: "ended: timer expired 70 %, no wake-up recorded
 *   30 %"), or %NULL when threads woke all of them or the cause is not
 *   a wait
 */
char *
ws_cause_dup_ended (const WsCause *cause)
{
  /* A cause is one state, so its device wake-ups are all disk I/O or
   * all interrupts. */
  WsWakeWord device = ws_wake_word_for_interrupt (cause->state);
  WsTime whole = cause->timer_time + cause->device_time + cause->unknown_time;
  gboolean several;
  g_autoptr(GString) words = g_string_new (NULL);

  g_return_val_if_fail (cause != NULL, NULL);

  if (cause->kind != WS_CAUSE_BLOCKED || whole <= 0)
    return NULL;
  several = (cause->timer_time > 0) + (cause->device_time > 0) + (cause->unknown_time > 0) > 1;
  append_part (words, ws_wake_word_phrase (WS_WAKE_WORD_TIMER), cause->timer_time, whole, several);
  append_part (words, ws_wake_word_phrase (device), cause->device_time, whole, several);
  append_part (words, ws_wake_word_phrase (WS_WAKE_WORD_UNKNOWN), cause->unknown_time, whole, several);
  /* Translators: what ended the waits of a cause of `why`, in the glossary's words */
  return g_strdup_printf (_("ended: %s"), words->str);
}
