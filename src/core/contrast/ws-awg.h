/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-awg-input.h"
#include "ws-frame-classifier.h"
#include "ws-instance-set.h"
#include "ws-progress.h"
#include "ws-signatures.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsAwgNodeKind:
 * @WS_AWG_WAITING: a wait merged with the unwait of the thread that readied
 *   it (Alg. 1 line 12): wait signature @w, unwait signature @u; its
 *   children ran within its cost
 * @WS_AWG_SERVICED: a wait that no thread ended — a hardware service woke it
 *   (I/O completion, timer), or it slept uninterruptibly with no wake-up
 *   recorded: there is no unwait to pair it with, so the thread itself was
 *   driving the device; its own signature is a *running* signature @r, and
 *   its one child is the hardware leaf
 * @WS_AWG_RUNNING: leaf, a running event: running signature @r
 * @WS_AWG_HARDWARE: leaf, a hardware service: dummy signature @r
 *   (DiskService, TimerService, InterruptService)
 * @WS_AWG_UNKNOWN: leaf, the readier of a wait whose wake-up was never
 *   recorded (@r = "[unknown readier]"): kept visible, never invented
 */
typedef enum {
  WS_AWG_WAITING,
  WS_AWG_SERVICED,
  WS_AWG_RUNNING,
  WS_AWG_HARDWARE,
  WS_AWG_UNKNOWN,
} WsAwgNodeKind;

/**
 * WsAwgNode:
 * @parent: node index, %WS_NONE for a root
 * @first_child: first child, %WS_NONE for a leaf; then @next_sibling
 * @depth: 0 for roots
 * @w: wait signature (WAITING), else %WS_SIG_NONE
 * @u: unwait signature (WAITING), else %WS_SIG_NONE
 * @r: running / hardware signature (SERVICED, RUNNING, HARDWARE, UNKNOWN)
 * @kind: a #WsAwgNodeKind
 * @c: v.C, the summed cost (ns) of the wait-graph nodes merged here
 * @c_max: the largest single one of them
 * @c_path_max: the costliest single execution of the chain from a root down
 *   to here, in one wait graph: the summed costs of the path's nodes (each
 *   thread's delay along the chain; a hardware or unknown-readier leaf adds
 *   nothing, it repeats its wait's cost)
 * @n: v.N, how many wait-graph nodes were merged here
 * @n_instances: in how many scenario instances
 *
 * Definition 3 of the paper.  A signature may be %WS_SIG_NONE: an inner
 * event with no component frame still carries the cost along the path.
 */
typedef struct {
  guint32  parent;
  guint32  first_child;
  guint32  next_sibling;
  guint32  depth;
  WsSigId  w;
  WsSigId  u;
  WsSigId  r;
  guint32  kind;
  WsTime   c;
  WsTime   c_max;
  WsTime   c_path_max;
  guint64  n;
  guint32  n_instances;
} WsAwgNode;

/*
 * WsAwg: the Aggregated Wait Graph (Definition 2), a forest built by
 * Algorithm 1: per wait graph, drop component-irrelevant roots until every
 * root is relevant; merge wait/unwait pairs; merge every root-to-sink path
 * into the forest by common signature prefix, summing C and N; then
 * ReduceAWG.  A wait graph is a DAG (one event may lie inside several
 * waits): its paths are unfolded from the roots, so a node on two paths is
 * counted on both — that double counting is the cost propagation the paper
 * measures — but a prefix two paths share in one graph is counted once.
 */
#define WS_TYPE_AWG (ws_awg_get_type ())
G_DECLARE_FINAL_TYPE (WsAwg, ws_awg, WS, AWG, GObject)

WsAwg            *ws_awg_new                 (WsSignatures *signatures);
/* Lines 3-14 for one wait graph; @instance tags the nodes it reaches. */
void              ws_awg_add_wait_graph      (WsAwg        *self,
                                              WsWaitGraph  *graph,
                                              guint         instance);
/* The same for a reduced wait graph whose stacks are in @stacks. */
void              ws_awg_add_input           (WsAwg            *self,
                                              const WsAwgInput *graph,
                                              WsStackTable     *stacks,
                                              guint             instance);
/* Line 15, and seals the graph (children lists, instance lists). */
void              ws_awg_reduce              (WsAwg        *self);

/*
 * ws_awg_build:
 * @instances: scenario instances; their wait graphs are built here
 * @classifier: (nullable): for the wait graphs; %NULL = default
 * @progress: (nullable): reports fractions from @progress_from to
 *   @progress_to
 *
 * Algorithm 1 over the instances' wait graphs.  Instance ids are indices
 * into @instances.
 *
 * Returns: (transfer full): the reduced graph, or %NULL with @error set
 */
WsAwg            *ws_awg_build               (WsInstanceSet     *instances,
                                              WsSignatures      *signatures,
                                              WsFrameClassifier *classifier,
                                              GCancellable      *cancellable,
                                              WsProgressFunc     progress,
                                              gpointer           progress_data,
                                              double             progress_from,
                                              double             progress_to,
                                              GError           **error);

WsSignatures     *ws_awg_get_signatures      (WsAwg *self);
guint             ws_awg_get_n_nodes         (WsAwg *self);
const WsAwgNode  *ws_awg_get_node            (WsAwg *self,
                                              guint  node);
const WsAwgNode  *ws_awg_get_nodes           (WsAwg *self);
/* Root node indices, in order of first appearance. */
const guint32    *ws_awg_get_roots           (WsAwg *self,
                                              guint *n_roots);
/* The instance ids that reached @node, ascending. */
const guint32    *ws_awg_get_node_instances  (WsAwg *self,
                                              guint  node,
                                              guint *n_instances);
guint             ws_awg_get_n_graphs        (WsAwg *self);
/* Σ C of the roots before ReduceAWG: the component cost of the class. */
WsTime            ws_awg_get_total_cost      (WsAwg *self);
/* Σ C of the roots ReduceAWG pruned (non-optimizable portions). */
WsTime            ws_awg_get_pruned_cost     (WsAwg *self);
guint             ws_awg_get_n_pruned        (WsAwg *self);
/* Wait graphs whose unfolding hit the size limit (then partly aggregated). */
guint             ws_awg_get_n_truncated     (WsAwg *self);

const char       *ws_awg_node_kind_to_string (WsAwgNodeKind kind);
/* A short label: "w=… u=…" or the running signature. (transfer full) */
char             *ws_awg_node_label          (WsAwg *self,
                                              guint  node);

G_END_DECLS
