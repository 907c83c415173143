/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The callstacks StackMine counts of one trace: every waiting stack and
 * every sampled running stack (exact on-CPU spans are not samples), each
 * distinct stack with how often it occurs.  One function for the history
 * store's counts, the mining run's weights without a history and the
 * trace digest, so that the three agree, in one order (ascending stack
 * id), whatever path the trace took.
 */
#include "config.h"

#include "ws-stack-counts.h"

/**
 * ws_stack_counts_of_trace:
 *
 * Returns: (transfer full) (element-type WsStackCount): the counts, by
 *   ascending stack id, the empty stack left out
 */
GArray *
ws_stack_counts_of_trace (WsTrace *trace)
{
  g_autoptr(GArray) per_stack = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsStackCount));

  g_return_val_if_fail (WS_IS_TRACE (trace), out);

  per_stack = g_array_sized_new (FALSE, TRUE, sizeof (guint64),
                                 ws_stack_table_get_n_stacks (ws_trace_get_stack_table (trace)));
  g_array_set_size (per_stack, ws_stack_table_get_n_stacks (ws_trace_get_stack_table (trace)));
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->stack == WS_STACK_EMPTY || e->stack >= per_stack->len ||
          (e->kind != WS_EVENT_WAIT && !(e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))))
        continue;
      g_array_index (per_stack, guint64, e->stack)++;
    }
  for (guint s = 0; s < per_stack->len; s++)
    if (g_array_index (per_stack, guint64, s) > 0)
      {
        WsStackCount c = { s, g_array_index (per_stack, guint64, s) };
        g_array_append_val (out, c);
      }
  return out;
}
