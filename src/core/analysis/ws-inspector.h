/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsFindingKind:
 * @WS_FINDING_OVER_CONNECTION: two (or more) otherwise unconnected
 *   processes of the wait graph are joined only through a daemon process or
 *   a heartbeat/timer/kworker/ksoftirqd thread (the macOS draft's first
 *   concern): the wait graph probably mixes unrelated work
 * @WS_FINDING_INTERRUPT_READIER: a wake-up recorded in the context of a
 *   thread but whose unwait stack shows timer or interrupt context: the
 *   "readier" is only the thread that happened to be interrupted (another
 *   over-connection)
 * @WS_FINDING_UNDER_CONNECTION: waits with no recorded readier: the graph
 *   is missing links (count, total cost, the longest ones)
 */
typedef enum {
  WS_FINDING_OVER_CONNECTION,
  WS_FINDING_INTERRUPT_READIER,
  WS_FINDING_UNDER_CONNECTION,
} WsFindingKind;

typedef enum {
  WS_SEVERITY_INFO,
  WS_SEVERITY_WARNING,
  WS_SEVERITY_ERROR,
} WsSeverity;

/**
 * WsFinding:
 * @kind: a #WsFindingKind
 * @severity: a #WsSeverity
 * @message: a translated one-line description
 * @processes: (element-type guint32): OVER_CONNECTION: process indices of
 *   the processes (with a thread in the graph) of the groups the bridge
 *   joins, in index order
 * @threads: (element-type guint32): OVER_CONNECTION: the bridging daemon /
 *   heartbeat threads; INTERRUPT_READIER: the interrupted threads;
 *   UNDER_CONNECTION: the threads of the waits listed in @events
 * @events: (element-type guint32): the events involved: for an
 *   over-connection the WAIT events whose edges cross the bridge, for an
 *   under-connection the waits with unknown readier, longest first (at
 *   most the options' @top_n), for an interrupt readier the waits
 * @count: how many events the finding is about in all (may exceed
 *   @events->len)
 * @cost: their total wait cost (ns)
 *
 * One result of the inspector.  Boxed.
 */
typedef struct {
  WsFindingKind  kind;
  WsSeverity     severity;
  char          *message;
  GArray        *processes;
  GArray        *threads;
  GArray        *events;
  guint          count;
  WsTime         cost;
} WsFinding;

#define WS_TYPE_FINDING (ws_finding_get_type ())
GType       ws_finding_get_type    (void) G_GNUC_CONST;
WsFinding  *ws_finding_copy        (const WsFinding *finding);
void        ws_finding_free        (WsFinding       *finding);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFinding, ws_finding_free)

/**
 * WsInspectorOptions:
 * @classifier: (nullable): daemon / heartbeat / interrupt lists; %NULL =
 *   ws_frame_classifier_get_default()
 * @top_n: how many events an under-connection finding lists
 * @under_warning_ratio: an under-connection is a WARNING when the unknown
 *   waits hold at least this fraction of the graph's total wait cost
 *   (INFO below)
 */
typedef struct {
  WsFrameClassifier *classifier;
  guint              top_n;
  double             under_warning_ratio;
} WsInspectorOptions;

void        ws_inspector_options_init     (WsInspectorOptions       *options);

/*
 * ws_inspect_wait_graph:
 * @options: (nullable): %NULL for the defaults
 *
 * Over-connections: the graph's threads are grouped by process (threads of
 * one process are related); a thread is *noise* if its name matches the
 * heartbeat list or its process the daemon list.  Edges between two
 * non-noise threads join their groups.  Every connected set of noise
 * threads that touches two or more groups yields one finding.
 *
 * Returns: (transfer full) (element-type WsFinding): the findings, most
 *   severe first, then over-connections, interrupt readiers,
 *   under-connections
 */
GPtrArray  *ws_inspect_wait_graph         (WsWaitGraph              *graph,
                                           const WsInspectorOptions *options);
GPtrArray  *ws_inspect_wait_graph_full    (WsWaitGraph              *graph,
                                           const WsInspectorOptions *options,
                                           GCancellable             *cancellable,
                                           WsProgressFunc            progress,
                                           gpointer                  progress_data,
                                           GError                  **error);
/*
 * ws_inspect_trace:
 * The trace-wide checks that need no symptom: every wait of the trace with
 * an unknown readier (one UNDER_CONNECTION finding) and every thread-context
 * wake-up that looks like interrupt context (INTERRUPT_READIER findings, one
 * per interrupted thread).
 *
 * Returns: (transfer full) (element-type WsFinding):
 */
GPtrArray  *ws_inspect_trace              (WsTrace                  *trace,
                                           const WsInspectorOptions *options);
GPtrArray  *ws_inspect_trace_full         (WsTrace                  *trace,
                                           const WsInspectorOptions *options,
                                           GCancellable             *cancellable,
                                           WsProgressFunc            progress,
                                           gpointer                  progress_data,
                                           GError                  **error);

const char *ws_finding_kind_to_string     (WsFindingKind             kind);
const char *ws_severity_to_string         (WsSeverity                severity);

G_END_DECLS
