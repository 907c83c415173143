/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsWaitChain:
 * @first: the first piece: the WAIT event the joined wait starts with
 * @last: the final piece: its wake-up ends the joined wait, and its readier
 *   is the joined wait's readier
 * @n_pieces: how many recorded WAIT events were joined (2 or more)
 * @start: when the first piece began
 * @end: when the final piece ended (its wake-up)
 *
 * A lock wait the program's own timeout cut into pieces (the patent's
 * *false runs*): each piece but the last was ended by a timer, after which
 * the thread ran only briefly and blocked again in the same place.  The
 * recorded events stay as they are; the analyses read the chain as one
 * wait from @start to @end, readied by whoever ended @last.
 * docs/attribution.md states the rule.
 */
typedef struct {
  guint32 first;
  guint32 last;
  guint32 n_pieces;
  WsTime  start;
  WsTime  end;
} WsWaitChain;

typedef struct _WsFalseRuns WsFalseRuns;

const WsFalseRuns *ws_false_runs_get           (WsTrace           *trace,
                                                WsFrameClassifier *classifier);
guint              ws_false_runs_get_n_chains  (const WsFalseRuns *self);
const WsWaitChain *ws_false_runs_get_chain     (const WsFalseRuns *self,
                                                guint              index);
const WsWaitChain *ws_false_runs_chain_of      (const WsFalseRuns *self,
                                                guint              event);
gboolean           ws_false_runs_is_timed_out_lock_wait (WsTrace           *trace,
                                                WsFrameClassifier *classifier,
                                                guint              wait_event);
char              *ws_false_runs_describe      (WsTrace           *trace,
                                                WsFrameClassifier *classifier,
                                                guint              event);

G_END_DECLS
