/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsTickStep:
 * @step: distance between two labelled ticks, in ns (1, 2 or 5 × 10^k)
 * @minor: distance between minor ticks, in ns
 * @unit: ns per label unit (1, 1e3, 1e6 or 1e9)
 * @decimals: digits after the decimal point in tick labels
 *
 * How a time ruler divides and labels the visible span.
 */
typedef struct {
  WsTime step;
  WsTime minor;
  WsTime unit;
  guint  decimals;
} WsTickStep;

char       *ws_format_duration     (WsTime            ns);
const char *ws_time_unit_symbol    (WsTime            unit);
void        ws_tick_step_compute   (WsTickStep       *tick,
                                    double            ns_per_px,
                                    double            min_px_between_labels,
                                    WsTime            max_label_value);
char       *ws_tick_step_format    (const WsTickStep *tick,
                                    WsTime            value);

G_END_DECLS
