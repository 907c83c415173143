/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-frame-classifier.h"
#include "ws-trace.h"

G_BEGIN_DECLS

guint ws_wait_ended_by_exit (WsTrace           *trace,
                             WsFrameClassifier *classifier,
                             guint              wait);

G_END_DECLS
