/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

gint64 *ws_anomaly_delay_caused (WsTrace *trace);

G_END_DECLS
