/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-symptom.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsWaitNodeKind:
 * @WS_WAIT_NODE_RUN: a RUNNING event (sample or span) of some thread
 * @WS_WAIT_NODE_WAIT: a WAIT event of some thread
 * @WS_WAIT_NODE_HW_SERVICE: the HW_SERVICE (interrupt-context wake-up) event
 *   that ended a wait: no readier thread to follow
 * @WS_WAIT_NODE_UNKNOWN_READIER: a placeholder for the unrecorded readier of
 *   a wait with no wake-up event (under-connection); @event is %WS_NONE
 */
typedef enum {
  WS_WAIT_NODE_RUN,
  WS_WAIT_NODE_WAIT,
  WS_WAIT_NODE_HW_SERVICE,
  WS_WAIT_NODE_UNKNOWN_READIER,
} WsWaitNodeKind;

/**
 * WsWaitNodeFlags:
 * @WS_WAIT_NODE_FLAG_SYMPTOM: an event of the symptom thread inside the
 *   window (Fig. 2 lines 2-4)
 * @WS_WAIT_NODE_FLAG_LOCK: a lock-related wait (see #WsFrameClassifier)
 * @WS_WAIT_NODE_FLAG_SAMPLE: a RUNNING cpu sample rather than an exact span
 * @WS_WAIT_NODE_FLAG_JOINED: a WAIT joined from a chain of timed-out tries
 *   (#WsWaitChain, the patent's false runs): @event is the first piece,
 *   time and duration span the chain, and the wake-up is the last piece's
 */
typedef enum {
  WS_WAIT_NODE_FLAG_SYMPTOM = 1 << 0,
  WS_WAIT_NODE_FLAG_LOCK    = 1 << 1,
  WS_WAIT_NODE_FLAG_SAMPLE  = 1 << 2,
  WS_WAIT_NODE_FLAG_JOINED  = 1 << 3,
} WsWaitNodeFlags;

/**
 * WsWaitNode:
 * @event: index of the trace event; %WS_NONE for an unknown-readier node
 * @thread: thread index of the event (for HW_SERVICE: the interrupted
 *   thread); %WS_NONE for an unknown-readier node
 * @time: start time (ns)
 * @duration: RUN: period/span; WAIT: cost (switch-out → wake-up); 0 else
 * @stack: the event's stack (WAIT: the waiting stack)
 * @unwait_event: WAIT: the UNWAIT/HW_SERVICE event that ended it, or %WS_NONE
 * @unwait_stack: WAIT: that event's stack (the unwait stack), or %WS_STACK_EMPTY
 * @readier_thread: WAIT: the thread the trace names as readier (the
 *   UNWAIT event's thread, what Fig. 2 follows, even when @wake says TIMER
 *   or INTERRUPT because its stack shows interrupt context: the inspector
 *   reports those), else %WS_NONE
 * @generation: 0 for the symptom thread's events, n for events reached
 *   after n readier hops (a ready-made layer for a layered layout)
 * @kind: a #WsWaitNodeKind
 * @wake: WAIT: a #WsWakeKind; otherwise %WS_WAKE_THREAD
 * @flags: #WsWaitNodeFlags
 *
 * One vertex of a wait graph: a running or waiting event of a thread
 * (StackMine Def. / Fig. 2), plus the hardware / unknown readers a GUI must
 * show to be honest about missing links.
 */
typedef struct {
  guint32    event;
  guint32    thread;
  WsTime     time;
  WsTime     duration;
  WsStackId  stack;
  guint32    unwait_event;
  WsStackId  unwait_stack;
  guint32    readier_thread;
  guint32    generation;
  guint8     kind;
  guint8     wake;
  guint16    flags;
} WsWaitNode;

/**
 * WsWaitEdge:
 * @from: node index of a WAIT node
 * @to: node index of a RUN/WAIT event of the readier thread whose end lies
 *   inside the wait (Fig. 2 line 11), or of the wait's HW_SERVICE /
 *   UNKNOWN_READIER node
 *
 * A directed edge "wait → what readied it".
 */
typedef struct {
  guint32 from;
  guint32 to;
} WsWaitEdge;

/*
 * WsWaitGraph: StackMine's wait graph WG = ⟨V, E⟩ for a symptom, built
 * exactly as Fig. 2:
 *
 *  1. V = the RUNNING and WAIT events e of the symptom thread with
 *     [e.time, e.time + e.duration] ⊆ [t0, t1];
 *  2. for every not yet processed WAIT e in V readied by thread R: every
 *     RUNNING or WAIT event e' of R with e'.time + e'.duration ∈
 *     [e.time, e.time + e.duration] joins V, and the edge (e, e') joins E;
 *  3. repeat 2 until V stops growing.
 *
 * A lock wait the program's own timeout cut into pieces (a #WsWaitChain
 * of ws_false_runs_get()) is one WAIT node, from its first piece's start
 * to its last piece's wake-up, readied by whoever ended the last piece; the
 * other pieces and the brief runs between them are not nodes.  A chain the
 * symptom's window cuts keeps its recorded pieces.
 *
 * Waits woken from interrupt context get one edge to their HW_SERVICE node,
 * waits with no recorded wake-up one edge to a fresh UNKNOWN_READIER node;
 * those nodes are never expanded.  Nodes are numbered in discovery order:
 * the symptom thread's events first, by time, then generation by
 * generation.  Edges are grouped by @from, in node order.  PREEMPT, UNWAIT
 * and MARKER events are never nodes (they are neither running nor waiting).
 *
 * A finished graph is immutable and may be read from any thread.
 */
#define WS_TYPE_WAIT_GRAPH (ws_wait_graph_get_type ())
G_DECLARE_FINAL_TYPE (WsWaitGraph, ws_wait_graph, WS, WAIT_GRAPH, GObject)

/*
 * ws_wait_graph_build:
 * @classifier: (nullable): for the lock flag and the wake kinds; %NULL =
 *   ws_frame_classifier_get_default()
 * @cancellable: (nullable): polled between generations
 *
 * Returns: (transfer full): the graph, or %NULL with @error set
 *   (WS_ERROR_INVALID for a bad thread or window, G_IO_ERROR_CANCELLED)
 */
WsWaitGraph        *ws_wait_graph_build          (WsTrace           *trace,
                                                  const WsSymptom   *symptom,
                                                  WsFrameClassifier *classifier,
                                                  GCancellable      *cancellable,
                                                  GError           **error);

WsTrace            *ws_wait_graph_get_trace      (WsWaitGraph *self);
const WsSymptom    *ws_wait_graph_get_symptom    (WsWaitGraph *self);
guint               ws_wait_graph_get_n_nodes    (WsWaitGraph *self);
const WsWaitNode   *ws_wait_graph_get_node       (WsWaitGraph *self,
                                                  guint        node);
const WsWaitNode   *ws_wait_graph_get_nodes      (WsWaitGraph *self);
guint               ws_wait_graph_get_n_edges    (WsWaitGraph *self);
const WsWaitEdge   *ws_wait_graph_get_edge       (WsWaitGraph *self,
                                                  guint        edge);
const WsWaitEdge   *ws_wait_graph_get_edges      (WsWaitGraph *self);
/* The edges leaving @node: a slice of the edge array (grouped by @from). */
const WsWaitEdge   *ws_wait_graph_get_out_edges  (WsWaitGraph *self,
                                                  guint        node,
                                                  guint       *n_edges);
/* Node index of trace event @event, or %WS_NONE if it is not in the graph. */
guint               ws_wait_graph_find_event     (WsWaitGraph *self,
                                                  guint        event);
guint               ws_wait_graph_get_n_generations (WsWaitGraph *self);
guint               ws_wait_graph_get_n_threads  (WsWaitGraph *self);

const char         *ws_wait_node_kind_to_string  (WsWaitNodeKind kind);

G_END_DECLS
