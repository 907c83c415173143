/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A wait graph reduced to what Algorithm 1 reads (ws-awg-input.h): the
 * trace's events are read once, here, so that the AWG walk needs nothing
 * but this — and a digest can keep it for a contrast without the trace.
 */
#include "config.h"

#include <string.h>

#include "ws-awg-input.h"
#include "ws-frame-classifier.h"

WsAwgInput *
ws_awg_input_new (guint n_nodes,
                  guint n_edges)
{
  WsAwgInput *input = g_atomic_rc_box_new0 (WsAwgInput);

  input->n_nodes = n_nodes;
  input->n_edges = n_edges;
  input->nodes = g_new0 (WsAwgInputNode, MAX (n_nodes, 1));
  input->first_edge = g_new0 (guint32, n_nodes + 1);
  input->edge_to = g_new0 (guint32, MAX (n_edges, 1));
  return input;
}

static void
input_clear (gpointer data)
{
  WsAwgInput *input = data;

  g_free (input->nodes);
  g_free (input->first_edge);
  g_free (input->edge_to);
}

WsAwgInput *
ws_awg_input_ref (WsAwgInput *input)
{
  return g_atomic_rc_box_acquire (input);
}

void
ws_awg_input_unref (WsAwgInput *input)
{
  g_atomic_rc_box_release_full (input, input_clear);
}

static WsStackId
import (WsStackDb *importer, WsStackTable *source, WsStackId stack)
{
  if (importer == NULL || stack == WS_STACK_EMPTY)
    return stack;
  return ws_stack_db_import_stack (importer, source, stack);
}

WsAwgInput *
ws_awg_input_of_wait_graph (WsWaitGraph *graph,
                            WsStackDb   *importer)
{
  WsTrace *trace = ws_wait_graph_get_trace (graph);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  const WsEvent *events = ws_trace_get_events (trace);
  const WsWaitNode *nodes = ws_wait_graph_get_nodes (graph);
  guint n = ws_wait_graph_get_n_nodes (graph);
  WsAwgInput *input = ws_awg_input_new (n, ws_wait_graph_get_n_edges (graph));
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      const WsWaitNode *v = &nodes[i];
      WsAwgInputNode *out = &input->nodes[i];
      guint n_out = 0;
      const WsWaitEdge *edges = ws_wait_graph_get_out_edges (graph, i, &n_out);

      out->kind = v->kind;
      out->duration = v->duration;
      out->stack = import (importer, stacks, v->stack);
      if (v->kind == WS_WAIT_NODE_WAIT)
        {
          if (v->unwait_event == WS_NONE)
            out->flags |= WS_AWG_INPUT_NO_UNWAIT;
          else if (events[v->unwait_event].kind == WS_EVENT_UNWAIT)
            {
              out->flags |= WS_AWG_INPUT_BY_THREAD;
              out->unwait_stack = import (importer, stacks, v->unwait_stack);
            }
          if (events[v->event].flags & WS_EVENT_FLAG_UNINTERRUPTIBLE)
            out->flags |= WS_AWG_INPUT_D_STATE;
          if (v->wake == WS_WAKE_TIMER)
            out->flags |= WS_AWG_INPUT_WAKE_TIMER;
        }
      input->first_edge[i] = k;
      for (guint e = 0; e < n_out; e++)
        input->edge_to[k++] = edges[e].to;
    }
  input->first_edge[n] = k;
  input->n_edges = k;
  return input;
}

WsAwgInput *
ws_awg_input_import (const WsAwgInput *src,
                     WsStackDb        *importer,
                     WsStackTable     *source)
{
  WsAwgInput *input = ws_awg_input_new (src->n_nodes, src->n_edges);

  memcpy (input->nodes, src->nodes, sizeof (WsAwgInputNode) * src->n_nodes);
  memcpy (input->first_edge, src->first_edge, sizeof (guint32) * (src->n_nodes + 1));
  memcpy (input->edge_to, src->edge_to, sizeof (guint32) * src->n_edges);
  for (guint i = 0; i < input->n_nodes; i++)
    {
      input->nodes[i].stack = import (importer, source, input->nodes[i].stack);
      input->nodes[i].unwait_stack = import (importer, source, input->nodes[i].unwait_stack);
    }
  return input;
}

void
ws_awg_input_remap_stacks (WsAwgInput      *input,
                           const WsStackId *map)
{
  for (guint i = 0; i < input->n_nodes; i++)
    {
      input->nodes[i].stack = map[input->nodes[i].stack];
      input->nodes[i].unwait_stack = map[input->nodes[i].unwait_stack];
    }
}

gboolean
ws_awg_input_is_valid (const WsAwgInput *input,
                       guint             n_stacks)
{
  if (input->first_edge[0] != 0 || input->first_edge[input->n_nodes] != input->n_edges)
    return FALSE;
  for (guint i = 0; i < input->n_nodes; i++)
    {
      const WsAwgInputNode *v = &input->nodes[i];

      if (input->first_edge[i] > input->first_edge[i + 1] || v->stack >= n_stacks
          || v->unwait_stack >= n_stacks || v->kind > WS_WAIT_NODE_UNKNOWN_READIER || v->duration < 0)
        return FALSE;
    }
  for (guint e = 0; e < input->n_edges; e++)
    if (input->edge_to[e] >= input->n_nodes)
      return FALSE;
  return TRUE;
}
