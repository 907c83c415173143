/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsCriticalState:
 * @WS_CRITICAL_RUNNING: the thread was on a CPU (or at least not blocked
 *   nor known to be runnable-but-off-CPU)
 * @WS_CRITICAL_READY: runnable, waiting for a CPU: the ready latency after
 *   a wake-up, or a preemption
 * @WS_CRITICAL_BLOCKED_HARDWARE: blocked in a wait ended from interrupt
 *   context (timer, I/O completion): the path cannot go further back
 * @WS_CRITICAL_BLOCKED_UNKNOWN: blocked in a wait whose wake-up was not
 *   recorded (under-connection): the path cannot go further back
 * @WS_CRITICAL_NO_DATA: before the thread's first recorded event
 */
typedef enum {
  WS_CRITICAL_RUNNING,
  WS_CRITICAL_READY,
  WS_CRITICAL_BLOCKED_HARDWARE,
  WS_CRITICAL_BLOCKED_UNKNOWN,
  WS_CRITICAL_NO_DATA,
  WS_N_CRITICAL_STATES
} WsCriticalState;

/**
 * WsCriticalSegment:
 * @thread: thread index the time is spent on
 * @start: start (ns)
 * @end: end (ns), > @start
 * @event: BLOCKED_*: the WAIT event; READY: the WAIT whose ready latency it
 *   is or the PREEMPT event; otherwise %WS_NONE
 * @on_behalf_of: the WAIT event (of another thread) that this thread's
 *   activity was ending, i.e. why the path jumped here; %WS_NONE on the
 *   symptom thread
 * @depth: number of readier jumps from the symptom thread (0 on it)
 * @state: a #WsCriticalState
 *
 * One piece of a critical path.  Consecutive segments touch: the path
 * covers [t0, t1] exactly.
 */
typedef struct {
  guint32  thread;
  WsTime   start;
  WsTime   end;
  guint32  event;
  guint32  on_behalf_of;
  guint16  depth;
  guint8   state;
} WsCriticalSegment;

/*
 * WsCriticalPath: what determined the end time of a symptom ⟨T, t0, t1⟩,
 * as Perfetto's and Trace Compass' critical path: walking back from t1 on
 * T, time T spends running or runnable is on the path; when T is blocked
 * in a wait readied by thread P, the path jumps to P at the wake-up time
 * and follows P back (recursively, with the same rule) to the start of the
 * wait, then resumes on T.  Waits ended by hardware or by an unknown
 * readier stay on the waiting thread, marked so.
 *
 * Segments are in time order; adjacent segments of one thread and state
 * (and event) are merged.
 */
#define WS_TYPE_CRITICAL_PATH (ws_critical_path_get_type ())
G_DECLARE_FINAL_TYPE (WsCriticalPath, ws_critical_path, WS, CRITICAL_PATH, GObject)

/*
 * ws_critical_path_build:
 * @classifier: (nullable): decides the wake kind of each wait (see
 *   ws_frame_classifier_classify_wake()): THREAD and HEARTBEAT readiers are
 *   followed, a TIMER/INTERRUPT wake-up is hardware even when the importer
 *   recorded it in some interrupted thread's context; %NULL = default
 *
 * Returns: (transfer full): the path, or %NULL with WS_ERROR_INVALID for a
 *   bad thread or window
 */
WsCriticalPath          *ws_critical_path_build          (WsTrace           *trace,
                                                          const WsSymptom   *symptom,
                                                          WsFrameClassifier *classifier,
                                                          GError           **error);
WsCriticalPath          *ws_critical_path_build_full     (WsTrace           *trace,
                                                         const WsSymptom   *symptom,
                                                         WsFrameClassifier *classifier,
                                                         GCancellable      *cancellable,
                                                         WsProgressFunc     progress,
                                                         gpointer           progress_data,
                                                         GError           **error);

WsTrace                 *ws_critical_path_get_trace      (WsCriticalPath *self);
const WsSymptom         *ws_critical_path_get_symptom    (WsCriticalPath *self);
guint                    ws_critical_path_get_n_segments (WsCriticalPath *self);
const WsCriticalSegment *ws_critical_path_get_segment    (WsCriticalPath *self,
                                                          guint           segment);
const WsCriticalSegment *ws_critical_path_get_segments   (WsCriticalPath *self);
/* Total time of the path spent on @thread (all states). */
WsTime                   ws_critical_path_get_thread_time (WsCriticalPath *self,
                                                          guint           thread);
/* Total time of the path spent in @state (all threads). */
WsTime                   ws_critical_path_get_state_time (WsCriticalPath *self,
                                                          WsCriticalState state);

const char              *ws_critical_state_to_string     (WsCriticalState state);
/* What @state means, translated ("Running", "Blocked, readier unknown"…). */
const char              *ws_critical_state_get_label     (WsCriticalState state);
/* For a person: the busiest threads of the path, and the time per state
 * (see ws-critical-path.c for examples). */
char                    *ws_critical_path_dup_thread_summary (WsCriticalPath *path,
                                                          guint           max_threads);
char                    *ws_critical_path_dup_state_summary  (WsCriticalPath *path);
/* What one segment's time was: the state's label, or "Disk
 * (uninterruptible I/O)", or "CPU contention (waiting for a CPU)". */
gboolean                  ws_critical_path_segment_is_disk (WsCriticalPath *path,
                                                           guint           segment);
const char              *ws_critical_path_segment_label  (WsCriticalPath *path,
                                                          guint           segment);
WsTime                   ws_critical_path_get_disk_time  (WsCriticalPath *path);
/* Who else held the disk and the CPUs the path waited for, or %NULL. */
char                    *ws_critical_path_dup_behind     (WsCriticalPath *path);

/*
 * ws_critical_path_timed_out_lock_holder:
 * @wait_event: a WAIT event
 *
 * A lock wait the program's own timeout cut into pieces (a #WsWaitChain,
 * ws_false_runs_get()) was held up by the lock's holder, not by the
 * timer: the holder is the thread that ended the chain's last piece.  The
 * walk takes the chain as one wait and follows that thread.
 *
 * Returns: the holder's thread index, or %WS_NONE (@wait_event is not a
 *   piece of a chain, or no other thread ended the chain)
 */
guint ws_critical_path_timed_out_lock_holder (WsTrace           *trace,
                                              WsFrameClassifier *classifier,
                                              guint              wait_event);

G_END_DECLS
