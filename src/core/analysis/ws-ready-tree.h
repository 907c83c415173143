/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-chain.h"
#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsReadyStop:
 * @WS_READY_STOP_NONE: an inner node: its children were expanded
 * @WS_READY_STOP_READIER_RAN: the readier had no wait overlapping this one:
 *   it was running (or ready) all along, e.g. the thread that held the lock.
 *   The natural end of a chain.
 * @WS_READY_STOP_NOT_LOCK_RELATED: with @lock_only, this wait is not
 *   lock-related: kept as a leaf, not expanded
 * @WS_READY_STOP_DEPTH_LIMIT: the node is at the depth limit
 * @WS_READY_STOP_TRACE_START: the readier's overlapping history begins
 *   before its first recorded event (start of the trace)
 * @WS_READY_STOP_FALSE_RUN: woken by a timer or a heartbeat thread (kworker,
 *   ksoftirqd…): a "false run", not a cause to follow
 * @WS_READY_STOP_HARDWARE: woken from interrupt context (I/O completion…)
 * @WS_READY_STOP_UNKNOWN_READIER: no wake-up recorded (under-connection)
 * @WS_READY_STOP_NODE_LIMIT: the tree reached its node budget
 *
 * Why a ready-tree node has no children (the patent's stop conditions,
 * plus the honest "we do not know").
 */
typedef enum {
  WS_READY_STOP_NONE,
  WS_READY_STOP_READIER_RAN,
  WS_READY_STOP_NOT_LOCK_RELATED,
  WS_READY_STOP_DEPTH_LIMIT,
  WS_READY_STOP_TRACE_START,
  WS_READY_STOP_FALSE_RUN,
  WS_READY_STOP_HARDWARE,
  WS_READY_STOP_UNKNOWN_READIER,
  WS_READY_STOP_NODE_LIMIT,
  WS_N_READY_STOPS
} WsReadyStop;

/**
 * WsReadyNode:
 * @event: the WAIT event's index in the trace
 * @thread: its thread index
 * @time: switch-out time (ns)
 * @duration: wait cost (switch-out → wake-up, ns)
 * @stack: the waiting stack
 * @unwait_event: the UNWAIT/HW_SERVICE event that ended it, or %WS_NONE
 * @unwait_stack: the unwait stack (the readier's stack when it readied
 *   this thread: "release lock"), or %WS_STACK_EMPTY
 * @readier_thread: the readier (parent) thread, or %WS_NONE
 * @parent: index of the parent node (the wait this one delayed), %WS_NONE
 *   for the root
 * @first_child: index of the first child; children are contiguous
 * @n_children: number of children
 * @depth: 0 for the root
 * @wake: a #WsWakeKind
 * @stop: a #WsReadyStop (%WS_READY_STOP_NONE iff @n_children > 0)
 * @lock_related: whether the wait is lock-related under the classifier
 *
 * A wait period in a ready tree.  The root is the chosen wait of the thread
 * of interest; the children of a node are the waits of its readier that
 * overlap it in time before the wake-up (and end after the root wait
 * began): they delayed the readier, hence this wait.
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
  guint32    parent;
  guint32    first_child;
  guint32    n_children;
  guint16    depth;
  guint8     wake;
  guint8     stop;
  guint8     lock_related;
} WsReadyNode;

#define WS_READY_TREE_DEFAULT_MAX_DEPTH 32
#define WS_READY_TREE_DEFAULT_MAX_NODES 100000

/**
 * WsReadyTreeOptions:
 * @lock_only: stop at (keep as leaves) waits that are not lock-related,
 *   and choose the longest *lock-related* wait for a symptom
 * @max_depth: depth limit (root = 0); nodes at this depth are not expanded
 * @max_nodes: node budget: a ready tree can grow exponentially when many
 *   threads wake each other
 * @classifier: (nullable): lists for lock-related / false-run / hardware;
 *   %NULL = ws_frame_classifier_get_default()
 *
 * Initialise with ws_ready_tree_options_init().
 */
typedef struct {
  gboolean           lock_only;
  guint              max_depth;
  guint              max_nodes;
  WsFrameClassifier *classifier;
} WsReadyTreeOptions;

void            ws_ready_tree_options_init     (WsReadyTreeOptions *options);

/*
 * WsReadyTree: the patent's ready tree.  Node 0 is the root; nodes are
 * numbered breadth first, so the children of a node are contiguous and
 * every node comes after its parent.  Immutable once built.
 *
 * Expansion of a node w (thread X, readied by thread P at w's wake-up time
 * u = w.time + w.duration): its children are P's WAIT events c with
 * c.time < u and c.time + c.duration > max (w.time, root.time), in time
 * order.  A node is a leaf, with a reason in @stop, when its wake kind is
 * not THREAD, when it is not lock-related under @lock_only (the root
 * excepted: it is the symptom), at @max_depth, when P has no such waits
 * (READIER_RAN, or TRACE_START if P was first seen after max (w.time,
 * root.time)), or when the budget is spent.
 */
#define WS_TYPE_READY_TREE (ws_ready_tree_get_type ())
G_DECLARE_FINAL_TYPE (WsReadyTree, ws_ready_tree, WS, READY_TREE, GObject)

/*
 * ws_ready_tree_build:
 * @root_wait: a WAIT event index
 * @options: (nullable): %NULL for the defaults
 *
 * Returns: (transfer full): the tree, or %NULL with WS_ERROR_INVALID if
 *   @root_wait is not a WAIT event
 */
WsReadyTree       *ws_ready_tree_build             (WsTrace                  *trace,
                                                    guint                     root_wait,
                                                    const WsReadyTreeOptions *options,
                                                    GError                  **error);
/*
 * ws_ready_tree_build_for_symptom:
 * The tree of the symptom's longest wait (longest lock-related wait with
 * @lock_only), see ws_symptom_longest_wait().  WS_ERROR_INVALID if the
 * thread has no such wait in the window.
 */
WsReadyTree       *ws_ready_tree_build_for_symptom (WsTrace                  *trace,
                                                    const WsSymptom          *symptom,
                                                    const WsReadyTreeOptions *options,
                                                    GError                  **error);
guint              ws_ready_tree_find_root         (WsTrace                  *trace,
                                                    const WsSymptom          *symptom,
                                                    const WsReadyTreeOptions *options,
                                                    GError                  **error);
WsReadyTree       *ws_ready_tree_build_full        (WsTrace                  *trace,
                                                    guint                     root_wait,
                                                    const WsReadyTreeOptions *options,
                                                    GCancellable             *cancellable,
                                                    WsProgressFunc            progress,
                                                    gpointer                  progress_data,
                                                    GError                  **error);

WsTrace           *ws_ready_tree_get_trace         (WsReadyTree *self);
guint              ws_ready_tree_get_n_nodes       (WsReadyTree *self);
const WsReadyNode *ws_ready_tree_get_node          (WsReadyTree *self,
                                                    guint        node);
const WsReadyNode *ws_ready_tree_get_nodes         (WsReadyTree *self);
guint              ws_ready_tree_get_max_depth     (WsReadyTree *self);

/*
 * Chains: one per leaf, numbered in depth-first (pre-)order of their leaf,
 * children visited in index order.  Chain i runs from the root to
 * ws_ready_tree_get_chain_leaf (tree, i).
 */
guint              ws_ready_tree_get_n_chains      (WsReadyTree *self);
guint              ws_ready_tree_get_chain_leaf    (WsReadyTree *self,
                                                    guint        chain);
/* Returns: (transfer full) (array length=n_nodes): node indices, root first. */
guint32           *ws_ready_tree_get_chain         (WsReadyTree *self,
                                                    guint        chain,
                                                    guint       *n_nodes);

void               ws_ready_tree_mark_anomalous    (WsReadyTree   *tree,
                                                    guint          node,
                                                    gboolean       anomalous);
gboolean           ws_ready_tree_is_anomalous      (WsReadyTree   *tree,
                                                    guint          node);
/* The metrics of chain @chain's wait costs (see ws-chain.h). */
void               ws_ready_tree_get_chain_metrics (WsReadyTree   *tree,
                                                    guint          chain,
                                                    WsChainMetrics *metrics);

const char        *ws_ready_stop_to_string         (WsReadyStop  stop);

G_END_DECLS
