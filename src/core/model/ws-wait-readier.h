/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsWaitReadier:
 * @WS_WAIT_READIER_THREAD: a recorded wake-up from a thread ended it
 * @WS_WAIT_READIER_HARDWARE: a wake-up from interrupt context ended it
 * @WS_WAIT_READIER_UNKNOWN: it ended, but no wake-up was recorded (an
 *   under-connection: the readier is unknown)
 * @WS_WAIT_READIER_UNFINISHED: still blocked when the recording stopped;
 *   nothing was lost, so it is not unknown
 *
 * Who ended a wait, as every view counts and names it: `info`, the
 * Threads table, the timeline, the details pane and the reports.
 */
typedef enum {
  WS_WAIT_READIER_THREAD,
  WS_WAIT_READIER_HARDWARE,
  WS_WAIT_READIER_UNKNOWN,
  WS_WAIT_READIER_UNFINISHED,
} WsWaitReadier;

gboolean       ws_wait_readier_is_unknown      (const WsEvent *wait);
WsWaitReadier  ws_wait_readier_classify        (WsTrace       *trace,
                                                guint          wait,
                                                guint         *readier_thread);
const char    *ws_wait_readier_to_string       (WsWaitReadier  readier);
char          *ws_wait_readier_dup_sentence    (WsFrameClassifier *classifier,
                                                WsTrace       *trace,
                                                guint          wait);

G_END_DECLS
