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
 * by tid and comm.  Nodes name their stacks by stack id; the top-level
 * "stacks" object maps each id used (as a string) to its frames,
 * "function (module)" strings *leaf first*, as perf prints them and as
 * every waitscope-cli output does (the core stores them caller first).
 * The JSON shapes:
 *
 * wait graph: { "trace", "symptom": {tid, thread, t0, t1}, "nodes": [ {id,
 *   kind, event, tid, thread, time, duration, generation, symptom?,
 *   sample?, wake?, lock?, readier_tid?, stack, unwait_stack?} ],
 *   "edges": [ {from, to} ], "stacks": { "ID": [frames] } }
 * ready tree: { "trace", "metric", "anomalous_chain", "nodes": [ {id,
 *   parent, depth, event, tid, thread, time, duration, wake, stop,
 *   lock_related, readier_tid?, anomalous, stack, unwait_stack} ],
 *   "chains": [ {leaf, nodes, count, total, max, average, median} ],
 *   "stacks" }
 * critical path: { "trace", "symptom", "segments": [ {tid, thread, start,
 *   end, duration_ms, state, depth, event?, on_behalf_of?} ], "by_thread":
 *   [ {tid, thread, time} ], "by_state": { STATE: ns } }
 * findings: [ {kind, severity, message, count, cost, processes: [ {pid,
 *   name} ], threads: [ {tid, thread} ], events} ]
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
