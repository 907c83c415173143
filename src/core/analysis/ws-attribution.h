/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-behind.h"
#include "ws-critical-path.h"
#include "ws-frame-classifier.h"
#include "ws-progress.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsCauseKind:
 * @WS_CAUSE_RUNNING: the deepest thread was on a CPU (its signature is
 *   its process name; @top_function says where most samples fell)
 * @WS_CAUSE_READY: it was runnable but waiting for a CPU (signature "",
 *   or %WS_CAUSE_THROTTLED when its CPU sat idle meanwhile)
 * @WS_CAUSE_BLOCKED: it was blocked in a wait that nothing recorded
 *   explains further: woken by a timer, a device, or by nobody recorded
 *   (the share of each is kept in #WsCause)
 * @WS_CAUSE_NO_DATA: before the deepest thread's first recorded event
 *
 * What a moment of a delay was spent on, at the end of the readier walk.
 */
typedef enum {
  WS_CAUSE_RUNNING,
  WS_CAUSE_READY,
  WS_CAUSE_BLOCKED,
  WS_CAUSE_NO_DATA,
  WS_N_CAUSE_KINDS
} WsCauseKind;

/* The signature of the ready cause whose CPU sat idle: throttled. */
#define WS_CAUSE_THROTTLED "throttled"

/**
 * WsCauseThread:
 * @trace: the trace (not owned: the attribution keeps its traces alive)
 * @thread: thread index in @trace
 * @time: time of the cause spent on that thread (ns)
 */
typedef struct {
  WsTrace *trace;
  guint    thread;
  WsTime   time;
} WsCauseThread;

/**
 * WsBehindThread:
 * @trace, @thread: the competing thread
 * @time: its time inside the cause's pieces: on a CPU, in uninterruptible
 *   sleep, or with a block request in flight on the same device (@what)
 * @what: a #WsBehindWhat
 * @bytes: %WS_BEHIND_REQUESTS: the bytes of its requests, each in
 *   proportion to its part inside the pieces; else 0
 * @device: %WS_BEHIND_REQUESTS: the device (ws-block-requests.h); else 0
 */
typedef struct {
  WsTrace      *trace;
  guint         thread;
  WsTime        time;
  WsBehindWhat  what;
  guint64       bytes;
  guint32       device;
} WsBehindThread;

/**
 * WsCause:
 * @key: what causes are summed by: kind, state and signature, e.g.
 *   "blocked D fdatasync ← XLogFlush"; equal across traces
 * @label: the translated sentence shown to people ("uninterruptible in
 *   fdatasync ← XLogFlush")
 * @kind: a #WsCauseKind
 * @state: BLOCKED: the scheduler state letter of the wait ('S', 'D'…)
 * @signature: BLOCKED: the user-space blocking frame and its caller
 *   ("fdatasync ← XLogFlush"), else the kernel blocking function;
 *   RUNNING: the process name; READY: "" or %WS_CAUSE_THROTTLED; else ""
 * @kernel_function: BLOCKED: the kernel function the costliest wait
 *   blocked in, below the scheduler ("folio_wait_bit"), or %NULL
 * @top_function: RUNNING: the function most of the sampled time was in
 *   (user space preferred), or %NULL when no CPU sample fell inside
 * @time: total time (ns)
 * @share: @time / the attributed total, 0 … 1
 * @timer_time, @device_time, @unknown_time: BLOCKED: how much of @time was
 *   in waits woken by a timer, by a device (interrupt), or by nobody
 *   recorded; RUNNING/READY/NO_DATA: 0
 * @n_symptoms: how many of the attributed symptoms it appears in
 * @threads: (element-type WsCauseThread): the threads it was spent on,
 *   most time first
 * @behind: (element-type WsBehindThread): the step behind it, most bytes
 *   (block requests) then most time first: READY (not throttled): the threads on the CPUs while it waited
 *   for one; BLOCKED in state D: the other processes' threads with block
 *   requests in flight on the same device meanwhile when the trace has
 *   block requests, else those in uninterruptible sleep meanwhile (the
 *   disk's other users); else empty.
 *   A thread's time is its overlap with the cause's pieces, so the times
 *   may add up to more than @time (two CPUs, several competing sleeps)
 * @example_trace, @example_event: the costliest single piece: the WAIT
 *   event (BLOCKED, READY) or the first sample (RUNNING) — %WS_NONE if
 *   none — in that trace, for "show me"
 * @example_stack: (array zero-terminated=1): that piece's stack as
 *   "function (module)" lines, caller first, or an empty array
 *
 * One cause of a delay.
 */
typedef struct {
  char         *key;
  char         *label;
  WsCauseKind   kind;
  char          state;
  char         *signature;
  char         *kernel_function;
  char         *top_function;
  WsTime        time;
  double        share;
  WsTime        timer_time;
  WsTime        device_time;
  WsTime        unknown_time;
  guint         n_symptoms;
  GArray       *threads;
  GArray       *behind;
  WsTrace      *example_trace;
  guint         example_event;
  char        **example_stack;
} WsCause;

/**
 * WsAttributionTarget:
 * @trace: the trace
 * @symptom: the delay to explain: a thread and a window (one wait's span,
 *   one scenario instance, or any window)
 * @instance: the scenario instance it came from, or %WS_NONE
 */
typedef struct {
  WsTrace  *trace;
  WsSymptom symptom;
  guint     instance;
} WsAttributionTarget;

/**
 * WsAttributionSettings:
 * @classifier: (nullable): wake kinds for the walk (see
 *   ws_critical_path_build()); %NULL = the default lists
 * @cancellable: (nullable): polled between targets
 * @progress: (nullable): called every few targets
 * @progress_data: its user data
 *
 * Initialise with ws_attribution_settings_init().
 */
typedef struct {
  WsFrameClassifier *classifier;
  GCancellable      *cancellable;
  WsProgressFunc     progress;
  gpointer           progress_data;
} WsAttributionSettings;

void ws_attribution_settings_init (WsAttributionSettings *settings);

/*
 * WsAttribution: root-cause attribution of delays.  For each target, the
 * critical path (ws_critical_path_build()) walks back from the end of the
 * window through the readiers to the deepest thread that was holding
 * things up at each moment; every piece of the path is given a cause (see
 * #WsCause and docs/attribution.md) and the pieces are summed by cause
 * over all targets, of any number of traces.  Causes are sorted by time,
 * largest first.  Immutable once computed.
 */
#define WS_TYPE_ATTRIBUTION (ws_attribution_get_type ())
G_DECLARE_FINAL_TYPE (WsAttribution, ws_attribution, WS, ATTRIBUTION, GObject)

/*
 * ws_attribution_compute:
 * @targets: (element-type WsAttributionTarget): what to explain
 * @settings: (nullable): %NULL for the defaults
 *
 * The one entry point, used by `waitscope-cli why` and the GUI.
 *
 * Returns: (transfer full): the attribution, or %NULL with @error set
 *   (WS_ERROR_INVALID for a bad thread or window, WS_ERROR_CANCELLED)
 */
WsAttribution  *ws_attribution_compute        (GArray                      *targets,
                                               const WsAttributionSettings *settings,
                                               GError                     **error);

guint           ws_attribution_get_n_causes   (WsAttribution *self);
const WsCause  *ws_attribution_get_cause      (WsAttribution *self,
                                               guint          index);
/* Index of the cause with @key, or %WS_NONE. */
guint           ws_attribution_find_cause     (WsAttribution *self,
                                               const char    *key);
/* The summed duration of all targets' windows (ns). */
WsTime          ws_attribution_get_total      (WsAttribution *self);
guint           ws_attribution_get_n_targets  (WsAttribution *self);

/*
 * ws_attribution_segment_cause_key:
 * The cause key (see #WsCause) one critical-path segment is given.
 *
 * Returns: (transfer full): the key
 */
char           *ws_attribution_segment_cause_key (WsTrace                 *trace,
                                                  const WsCriticalSegment *segment,
                                                  WsFrameClassifier       *classifier);

/*
 * ws_attribution_segment_io_time:
 * Of a running segment, the time spent in the kernel inside the system
 * call or page fault of the thread's own device wait next to it (the
 * part attribution gives to that wait, docs/attribution.md).
 *
 * Returns: the time, 0 for any other segment
 */
WsTime          ws_attribution_segment_io_time   (WsTrace                 *trace,
                                                  const WsCriticalSegment *segment,
                                                  WsFrameClassifier       *classifier);

/*
 * ws_attribution_segment_throttled_time:
 * A ready segment that began with a preemption for the idle task
 * (%WS_EVENT_FLAG_TO_IDLE): the thread stayed runnable though nothing else
 * wanted its CPU — it waited not for a CPU others held but for one it was
 * not allowed (a CFS quota, cpu.max; real-time throttling).  Attribution
 * gives it the ready cause with signature %WS_CAUSE_THROTTLED.
 *
 * Returns: the segment's length for such a segment, else 0
 */
WsTime          ws_attribution_segment_throttled_time (WsTrace                 *trace,
                                                       const WsCriticalSegment *segment);

/*
 * ws_attribution_wait_signature:
 * @kernel_function: (out) (optional) (transfer full): the kernel blocking
 *   function, or %NULL
 *
 * The signature of a waiting stack: "blocking frame ← caller" in user
 * space (see docs/attribution.md), else the kernel blocking function, else
 * "".
 *
 * Returns: (transfer full): the signature
 */
char           *ws_attribution_wait_signature (WsTrace    *trace,
                                               WsStackId   stack,
                                               char      **kernel_function);

/* The same signature for a call stack given as frames (caller first) of
 * @table, e.g. a mined pattern.  Returns: (transfer full). */
char           *ws_attribution_frames_signature (WsStackTable    *table,
                                                 const WsFrameId *frames,
                                                 guint            n);

gboolean        ws_attribution_is_recorder    (WsTrace     *trace,
                                               guint        thread);

/*
 * ws_cause_describe_behind:
 * @max: name at most this many threads
 *
 * The step behind @cause in one translated line: "CPU contention: on the
 * CPUs meanwhile: hog 17750 (31 %), …" or "disk contention: other
 * processes in uninterruptible sleep meanwhile: dd 1234 (98 %)", each
 * thread with its time as a share of the cause's.
 *
 * Returns: (transfer full) (nullable): the line, %NULL when nothing is
 *   behind it
 */
char           *ws_cause_describe_behind      (const WsCause *cause,
                                               guint          max);

/*
 * Target pickers.  Scenario instances of all @traces (a GPtrArray of
 * WsTrace), slowest first: the @k slowest, or all slower than @threshold,
 * or the slowest @fraction (at least one).  @scenario %NULL = any.
 */
GArray         *ws_attribution_targets_slowest      (GPtrArray   *traces,
                                                     const char  *scenario,
                                                     guint        k);
GArray         *ws_attribution_targets_slower_than  (GPtrArray   *traces,
                                                     const char  *scenario,
                                                     WsTime       threshold);
GArray         *ws_attribution_targets_slowest_share (GPtrArray  *traces,
                                                     const char  *scenario,
                                                     double       fraction);
G_END_DECLS
