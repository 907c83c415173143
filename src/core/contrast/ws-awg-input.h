/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-stack-db.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/* What Algorithm 1 reads of a wait node besides its stacks and cost. */
typedef enum {
  WS_AWG_INPUT_BY_THREAD     = 1 << 0,  /* a wait a thread's unwait ended */
  WS_AWG_INPUT_NO_UNWAIT     = 1 << 1,  /* a wait with no recorded wake-up */
  WS_AWG_INPUT_D_STATE       = 1 << 2,  /* an uninterruptible sleep */
  WS_AWG_INPUT_WAKE_TIMER    = 1 << 3,  /* a wait a timer ended */
} WsAwgInputFlags;

/**
 * WsAwgInputNode:
 * @stack: the node's stack (waiting, running or interrupt stack)
 * @unwait_stack: the stack of the unwait that ended a wait
 * @duration: its cost (ns)
 * @kind: a #WsWaitNodeKind
 * @flags: #WsAwgInputFlags
 */
typedef struct {
  WsStackId stack;
  WsStackId unwait_stack;
  WsTime    duration;
  guint8    kind;
  guint8    flags;
} WsAwgInputNode;

/**
 * WsAwgInput:
 * @nodes: the wait graph's nodes, in its order
 * @first_edge: @n_nodes + 1 offsets into @edge_to: node i's out-edges
 *   are @edge_to[@first_edge[i] .. @first_edge[i + 1])
 * @edge_to: edge targets
 *
 * One instance's wait graph reduced to what Algorithm 1 reads, its stacks
 * in some stack table: built from a #WsWaitGraph for a trace, or read from
 * a digest, which has no events to build the graph from.  Both go through
 * the same walk (ws_awg_add_input()), so a contrast over digests is the
 * contrast over the traces.  Reference counted, immutable once built.
 */
typedef struct {
  guint           n_nodes;
  guint           n_edges;
  WsAwgInputNode *nodes;
  guint32        *first_edge;
  guint32        *edge_to;
} WsAwgInput;

WsAwgInput *ws_awg_input_new            (guint        n_nodes,
                                         guint        n_edges);
/* @importer: (nullable): interns the graph's stacks in its table; %NULL
 * keeps the trace's stack ids. */
WsAwgInput *ws_awg_input_of_wait_graph  (WsWaitGraph *graph,
                                         WsStackDb   *importer);
/* A copy with every stack imported from @source by @importer. */
WsAwgInput *ws_awg_input_import         (const WsAwgInput *input,
                                         WsStackDb        *importer,
                                         WsStackTable     *source);
/* Stack ids rewritten through @map (for a sorted table). */
void        ws_awg_input_remap_stacks   (WsAwgInput       *input,
                                         const WsStackId  *map);
/* Whether its edges point inside it and its offsets ascend (a reader's check). */
gboolean    ws_awg_input_is_valid       (const WsAwgInput *input,
                                         guint             n_stacks);
WsAwgInput *ws_awg_input_ref            (WsAwgInput  *input);
void        ws_awg_input_unref          (WsAwgInput  *input);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAwgInput, ws_awg_input_unref)

G_END_DECLS
