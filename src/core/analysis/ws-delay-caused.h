/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/* Called for each wait @wait (an event index) that overlapped, by
 * @overlap ns (≥ 0), the wait of a thread its thread readied. */
typedef void (*WsDelayCausedFunc) (guint    wait,
                                   WsTime   overlap,
                                   gpointer user_data);

void    ws_delay_caused_foreach (WsTrace           *trace,
                                 WsFrameClassifier *classifier,
                                 WsDelayCausedFunc  func,
                                 gpointer           user_data);
gint64 *ws_delay_caused         (WsTrace           *trace);

G_END_DECLS
