/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsStackCount:
 * @stack: a stack of the trace's table
 * @count: how many of the trace's waits and sampled running events have it
 */
typedef struct {
  WsStackId stack;
  guint64   count;
} WsStackCount;

GArray *ws_stack_counts_of_trace (WsTrace *trace);

G_END_DECLS
