/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-chain.h"
#include "ws-graph-layout.h"
#include "ws-ready-tree.h"
#include "ws-stack-search.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

typedef enum {
  WS_GRAPH_SCENE_WAIT_GRAPH,
  WS_GRAPH_SCENE_READY_TREE,
} WsGraphSceneKind;

/**
 * WsSceneNodeKind:
 * @WS_SCENE_NODE_RUN: a running event, or the readier of a ready-tree leaf
 *   that was running all along
 * @WS_SCENE_NODE_WAIT: a wait
 * @WS_SCENE_NODE_HARDWARE: woken from interrupt context (I/O completion…)
 * @WS_SCENE_NODE_TIMER: woken by a timer or a heartbeat thread: a "false run"
 * @WS_SCENE_NODE_UNKNOWN: the wake-up was not recorded (under-connection)
 *
 * How a node is drawn: the four shapes of the graph view.
 */
typedef enum {
  WS_SCENE_NODE_RUN,
  WS_SCENE_NODE_WAIT,
  WS_SCENE_NODE_HARDWARE,
  WS_SCENE_NODE_TIMER,
  WS_SCENE_NODE_UNKNOWN,
  WS_N_SCENE_NODE_KINDS
} WsSceneNodeKind;

/**
 * WsSceneNodeFlags:
 * @WS_SCENE_NODE_FLAG_SYMPTOM: an event of the symptom thread (wait graph)
 *   or the root wait (ready tree)
 * @WS_SCENE_NODE_FLAG_LOCK: a lock-related wait
 * @WS_SCENE_NODE_FLAG_ANOMALOUS: on the anomalous chain
 * @WS_SCENE_NODE_FLAG_DISK: an uninterruptible (D) wait
 * @WS_SCENE_NODE_FLAG_READIER: stands for the readier of a ready-tree leaf
 *   (its @source is the leaf's index)
 * @WS_SCENE_NODE_FLAG_SAMPLE: a CPU sample rather than an exact span
 * @WS_SCENE_NODE_FLAG_TRUNCATED: a wait-graph wait whose readier's nodes
 *   lie beyond the generation limit and were left out
 */
typedef enum {
  WS_SCENE_NODE_FLAG_SYMPTOM   = 1 << 0,
  WS_SCENE_NODE_FLAG_LOCK      = 1 << 1,
  WS_SCENE_NODE_FLAG_ANOMALOUS = 1 << 2,
  WS_SCENE_NODE_FLAG_DISK      = 1 << 3,
  WS_SCENE_NODE_FLAG_READIER   = 1 << 4,
  WS_SCENE_NODE_FLAG_SAMPLE    = 1 << 5,
  WS_SCENE_NODE_FLAG_TRUNCATED = 1 << 6,
} WsSceneNodeFlags;

/**
 * WsSceneNode:
 * @source: the node's index in the wait graph or ready tree (for a READIER
 *   node: the leaf it belongs to)
 * @event: the trace event, or %WS_NONE
 * @thread: thread index, or %WS_NONE when unknown
 * @time: start (ns); for a readier or wake-up node the wake-up time
 * @duration: wait cost or run length (ns), 0 for wake-up nodes
 * @stack: WAIT: the waiting stack; RUN: its stack; readier / wake-up
 *   nodes: the stack that did the wake-up
 * @unwait_stack: WAIT: the readier's (unwait) stack, else %WS_STACK_EMPTY
 * @readier_thread: WAIT: the readier, or %WS_NONE
 * @label_frame: the frame shown in the box (see
 *   ws_graph_scene_interesting_frame()), or %WS_NONE
 * @label_text: (nullable): shown instead of @label_frame's function: a
 *   wait's user-space caller, when that frame is the kernel's
 * @layer: generation (wait graph) or depth (ready tree)
 * @kind: a #WsSceneNodeKind
 * @wake: WAIT: a #WsWakeKind
 * @stop: ready tree: a #WsReadyStop, else %WS_READY_STOP_NONE
 * @state: WAIT: the scheduler state letter, else 0
 * @flags: #WsSceneNodeFlags
 */
typedef struct {
  guint32    source;
  guint32    event;
  guint32    thread;
  WsTime     time;
  WsTime     duration;
  WsStackId  stack;
  WsStackId  unwait_stack;
  guint32    readier_thread;
  guint32    label_frame;
  const char *label_text;
  guint32    layer;
  guint8     kind;
  guint8     wake;
  guint8     stop;
  gchar      state;
  guint16    flags;
} WsSceneNode;

/**
 * WsSceneEdge:
 * @from: a wait
 * @to: what readied it (a node of the readier, a wake-up node)
 * @anomalous: both ends are consecutive on the anomalous chain
 */
typedef struct {
  guint32  from;
  guint32  to;
  gboolean anomalous;
} WsSceneEdge;

/* Box sizes in layout units (pixels at zoom 1). */
#define WS_SCENE_NODE_WIDTH        216.0
#define WS_SCENE_NODE_HEIGHT        60.0
#define WS_SCENE_WAKE_NODE_WIDTH   184.0
#define WS_SCENE_WAKE_NODE_HEIGHT   52.0

/*
 * WsGraphScene: what the graph view draws: the nodes and edges of a wait
 * graph or a ready tree in drawing terms (shape, flags, the frame to show),
 * the anomalous chain, and their #WsGraphLayout.  Built without GTK, so it
 * can be made in a worker thread; immutable afterwards.
 *
 * Ready tree: one node per tree node (a wait), in tree order, then one
 * node per leaf whose readier is known to have run, or was a timer,
 * hardware or unknown: the end of the chain ("what readied it") drawn as
 * the matching shape.  Edges go from a wait to the waits of its readier.
 * The anomalous chain is the tree's (ws_ready_tree_anomalous_chain()).
 *
 * Wait graph: one node per graph node up to @max_generation (Fig. 2's
 * closure often runs through the whole trace, hundreds of generations),
 * in graph order; generation 0 (the symptom thread, in time order) keeps
 * its order in the layout.  A wait graph has no chains of its own, so the
 * one highlighted is the longest-wait chain: from the symptom's longest
 * wait, repeatedly to the longest wait among the nodes it points to in the
 * next generation, until a node that is not a wait.
 */
#define WS_TYPE_GRAPH_SCENE (ws_graph_scene_get_type ())
G_DECLARE_FINAL_TYPE (WsGraphScene, ws_graph_scene, WS, GRAPH_SCENE, GObject)

WsGraphScene      *ws_graph_scene_new_for_wait_graph  (WsWaitGraph    *graph,
                                                       WsGraphLayoutDirection direction);
WsGraphScene      *ws_graph_scene_new_for_wait_graph_full (WsWaitGraph *graph,
                                                       guint           max_generation,
                                                       WsGraphLayoutDirection direction);
WsGraphScene      *ws_graph_scene_new_for_ready_tree  (WsReadyTree    *tree,
                                                       WsChainMetric   metric,
                                                       WsGraphLayoutDirection direction);

WsGraphSceneKind   ws_graph_scene_get_kind            (WsGraphScene   *self);
WsTrace           *ws_graph_scene_get_trace           (WsGraphScene   *self);
WsWaitGraph       *ws_graph_scene_get_wait_graph      (WsGraphScene   *self);
WsReadyTree       *ws_graph_scene_get_ready_tree      (WsGraphScene   *self);
WsChainMetric      ws_graph_scene_get_metric          (WsGraphScene   *self);
WsGraphLayout     *ws_graph_scene_get_layout          (WsGraphScene   *self);

guint              ws_graph_scene_get_n_nodes         (WsGraphScene   *self);
const WsSceneNode *ws_graph_scene_get_node            (WsGraphScene   *self,
                                                       guint           node);
guint              ws_graph_scene_get_n_edges         (WsGraphScene   *self);
const WsSceneEdge *ws_graph_scene_get_edge            (WsGraphScene   *self,
                                                       guint           edge);
guint              ws_graph_scene_get_n_layers        (WsGraphScene   *self);
guint              ws_graph_scene_get_root            (WsGraphScene   *self);

guint              ws_graph_scene_get_anomalous_chain (WsGraphScene   *self);
const guint       *ws_graph_scene_get_chain_nodes     (WsGraphScene   *self,
                                                       guint          *n_nodes);
void               ws_graph_scene_get_chain_metrics   (WsGraphScene   *self,
                                                       WsChainMetrics *metrics);

guint              ws_graph_scene_find_event          (WsGraphScene   *self,
                                                       guint           event);
GArray            *ws_graph_scene_find_matches        (WsGraphScene   *self,
                                                       WsStackSearch  *search);
gboolean           ws_graph_scene_node_matches        (WsGraphScene   *self,
                                                       guint           node,
                                                       WsStackSearch  *search);

char              *ws_graph_scene_dup_title           (WsGraphScene   *self,
                                                       guint           node);
char              *ws_graph_scene_dup_detail          (WsGraphScene   *self,
                                                       guint           node);
const char        *ws_graph_scene_get_frame_name      (WsGraphScene   *self,
                                                       guint           node);
char              *ws_graph_scene_dup_layer_title     (WsGraphScene   *self,
                                                       guint           layer);
char              *ws_graph_scene_dup_summary         (WsGraphScene   *self);

WsFrameId          ws_graph_scene_interesting_frame   (WsStackTable   *stacks,
                                                       WsStackId       stack);
const char        *ws_scene_node_kind_to_string       (WsSceneNodeKind kind);

G_END_DECLS
