/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-chain.h"
#include "ws-critical-path.h"
#include "ws-inspector.h"
#include "ws-ready-tree.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/*
 * JSON and Graphviz DOT for the graphs of this module.  Times in JSON are
 * integer nanoseconds (plus "*_ms" doubles for people); threads are named
 * by tid and comm, stacks as arrays of "function (module)" strings *leaf
 * first*, as perf prints them and as every waitscope-cli output does (the
 * core stores them caller first).  The JSON shapes:
 *
 * wait graph: { "trace", "symptom": {tid, t0, t1}, "nodes": [ {id, kind,
 *   event, tid, thread, time, duration, generation, wake, lock, stack,
 *   unwait_stack?} ], "edges": [ {from, to} ] }
 * ready tree: { "trace", "metric", "anomalous_chain", "nodes": [ {id,
 *   parent, depth, event, tid, thread, time, duration, wake, stop,
 *   lock_related, readier_tid?, anomalous, stack, unwait_stack} ],
 *   "chains": [ {leaf, nodes, count, total, max, average, median} ] }
 * critical path: { "trace", "symptom", "segments": [ {tid, thread, start,
 *   end, duration, state, depth, event?, on_behalf_of?} ], "by_thread": [ {tid,
 *   thread, time} ] }
 * findings: [ {kind, severity, message, count, cost, processes, threads,
 *   events} ]
 *
 * DOT: one node per graph node labelled with the thread, kind and duration;
 * waits dashed (the patent's convention), the anomalous chain in red.
 */

JsonNode  *ws_graph_export_wait_graph_json    (WsWaitGraph    *graph);
char      *ws_graph_export_wait_graph_dot     (WsWaitGraph    *graph);
JsonNode  *ws_graph_export_ready_tree_json    (WsReadyTree    *tree,
                                               WsChainMetric   metric);
char      *ws_graph_export_ready_tree_dot     (WsReadyTree    *tree,
                                               WsChainMetric   metric);
JsonNode  *ws_graph_export_critical_path_json (WsCriticalPath *path);
char      *ws_graph_export_critical_path_dot  (WsCriticalPath *path);
JsonNode  *ws_graph_export_findings_json      (WsTrace        *trace,
                                               GPtrArray      *findings);

/* Pretty-printed JSON text of @node, with a final newline. */
char      *ws_graph_export_json_to_string     (JsonNode       *node);

G_END_DECLS
