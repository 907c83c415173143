/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsWakeWord:
 * @WS_WAKE_WORD_TIMER: the wait's own timeout or sleep ran out
 * @WS_WAKE_WORD_INTERRUPT: woken from interrupt context (a device, or a
 *   timer the trace cannot tell apart), not by a thread
 * @WS_WAKE_WORD_DISK: an uninterruptible (D) wait ended from interrupt
 *   context: the device finished the I/O
 * @WS_WAKE_WORD_UNKNOWN: the trace has no record of what ended the wait
 *
 * What ended a wait when no thread did, in one vocabulary for every view
 * (timeline, ready tree, critical path, Overview, `why`, reports).  The
 * words are here, and only here: docs/glossary.md lists them, and
 * test-vocabulary fails on the older variants ("woken by hardware",
 * "Timer ran out", "Readier unknown"…).
 */
typedef enum {
  WS_WAKE_WORD_TIMER,
  WS_WAKE_WORD_INTERRUPT,
  WS_WAKE_WORD_DISK,
  WS_WAKE_WORD_UNKNOWN,
} WsWakeWord;

const char *ws_wake_word_label    (WsWakeWord word);
const char *ws_wake_word_phrase   (WsWakeWord word);
const char *ws_wake_word_explain  (WsWakeWord word);
WsWakeWord  ws_wake_word_for_interrupt (char state);
gboolean    ws_wake_word_for_kind  (WsWakeKind         kind,
                                    char               state,
                                    WsWakeWord        *word);
gboolean    ws_wake_word_for_wait  (WsFrameClassifier *classifier,
                                    WsTrace           *trace,
                                    guint              wait_event,
                                    WsWakeWord        *word);

G_END_DECLS
