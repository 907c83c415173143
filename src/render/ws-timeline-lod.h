/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-thread-state.h"
#include "ws-trace-stats.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsMarkKind:
 * @WS_MARK_SAMPLE: a CPU sample (RUNNING event without an exact span)
 * @WS_MARK_UNWAIT: the thread woke another thread (an UNWAIT it recorded)
 * @WS_MARK_MARKER: a marker event (probe, fork, exit)
 */
typedef enum {
  WS_MARK_SAMPLE,
  WS_MARK_UNWAIT,
  WS_MARK_MARKER,
  WS_N_MARK_KINDS
} WsMarkKind;

/**
 * WsStateSegment:
 * @t0: start
 * @t1: end
 * @state: the #WsThreadState covering it (the dominant one if @mixed)
 * @mixed: the segment is one bucket of a coarse level holding several
 *   states, or gaps: @cover says how much of each
 * @cover: if @mixed, the share of [t0, t1) in each state, in 1/255ths
 *
 * Segments of one level never overlap and are sorted by time.  Coarse
 * levels keep the mix of states of each bucket (a histogram, not just the
 * winner), so merging buckets into pixel columns stays faithful at any
 * zoom.
 */
typedef struct {
  WsTime t0;
  WsTime t1;
  guint8 state;
  guint8 mixed;
  guint8 cover[WS_N_THREAD_STATES];
} WsStateSegment;

typedef struct {
  WsTime time;
  guint8 kind;
} WsLodMark;

/**
 * WsThreadStats:
 * @run: ns on a CPU (exact spans)
 * @ready: ns runnable but not running (preemption + ready latency)
 * @wait: ns blocked, by state: [0] S, [1] D, [2] other
 * @totals: the counts (waits, no wake-up recorded, samples, the longest
 *   wait), as `info` counts them (ws-trace-stats.h)
 *
 * Per-thread totals, shown by the thread table beside the timeline: the
 * times are the row's disjoint state spans, so that the table, the
 * timeline and the pivot table agree to the nanosecond.
 */
typedef struct {
  WsTime         run;
  WsTime         ready;
  WsTime         wait[3];
  WsThreadTotals totals;
} WsThreadStats;

/**
 * WsLodWait:
 * @t0: start of the wait
 * @t1: its end (without the ready latency that follows)
 * @event: the WAIT event's index
 * @state: its #WsThreadState
 *
 * One wait of the duration index: the waits long enough to be encoded
 * by thickness (at least %WS_TIMELINE_LOD_MIN_WAIT), kept apart from the
 * state segments so that coarse levels never merge them away.
 */
typedef struct {
  WsTime  t0;
  WsTime  t1;
  guint32 event;
  guint8  state;
} WsLodWait;

/*
 * WsTimelineLod: per-thread state segments at several levels of detail,
 * so that drawing a row costs O(pixels), not O(events).  Level 0 holds the
 * exact segments; level k ≥ 1 divides time into buckets of 256·4^(k-1) ns;
 * a bucket covered by one state is merged with equal neighbours, a bucket
 * holding several keeps their shares.  A level is kept only if it has at most 3/4 of the segments
 * of the finer one, so a sparse thread costs no more than its events.
 *
 * Built once per trace (off the main thread: it reads every event), then
 * immutable and safe to read from any thread.
 */
#define WS_TYPE_TIMELINE_LOD (ws_timeline_lod_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineLod, ws_timeline_lod, WS, TIMELINE_LOD, GObject)

WsTimelineLod        *ws_timeline_lod_new             (WsTrace        *trace,
                                                       GCancellable   *cancellable,
                                                       GError        **error);
WsTrace              *ws_timeline_lod_get_trace       (WsTimelineLod  *self);

const WsStateSegment *ws_timeline_lod_get_segments    (WsTimelineLod  *self,
                                                       guint           thread,
                                                       double          ns_per_px,
                                                       WsTime          t0,
                                                       WsTime          t1,
                                                       guint          *n_segments);
const WsLodMark      *ws_timeline_lod_get_marks       (WsTimelineLod  *self,
                                                       guint           thread,
                                                       double          ns_per_px,
                                                       WsTime          t0,
                                                       WsTime          t1,
                                                       guint          *n_marks);
guint                 ws_timeline_lod_get_n_levels    (WsTimelineLod  *self,
                                                       guint           thread);
const WsStateSegment *ws_timeline_lod_get_level       (WsTimelineLod  *self,
                                                       guint           thread,
                                                       guint           level,
                                                       WsTime         *bucket,
                                                       guint          *n_segments);
const WsThreadStats  *ws_timeline_lod_get_stats       (WsTimelineLod  *self,
                                                       guint           thread);
gsize                 ws_timeline_lod_get_memory_size (WsTimelineLod  *self);

const WsLodWait      *ws_timeline_lod_get_waits       (WsTimelineLod  *self,
                                                       guint           thread,
                                                       double          ns_per_px,
                                                       WsTime          t0,
                                                       WsTime          t1,
                                                       guint          *n_waits);
const WsLodWait      *ws_timeline_lod_get_long_waits  (WsTimelineLod  *self,
                                                       guint           thread,
                                                       WsTime          t0,
                                                       WsTime          t1,
                                                       guint          *n_waits);
WsTime                ws_timeline_lod_get_long_wait_threshold (WsTimelineLod *self);
WsTime                ws_timeline_lod_get_slowest_instance (WsTimelineLod *self);
GArray               *ws_timeline_lod_dup_longest_waits (WsTimelineLod *self,
                                                       guint           max);
const guint32        *ws_timeline_lod_get_thread_instances (WsTimelineLod *self,
                                                       guint           thread,
                                                       guint          *n_instances);


#define WS_TIMELINE_LOD_BASE_BUCKET 256

/* Waits at least this long (1 ms) are in the duration index. */
#define WS_TIMELINE_LOD_MIN_WAIT (G_GINT64_CONSTANT (1000000))

G_END_DECLS
