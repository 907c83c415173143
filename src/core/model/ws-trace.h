/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib-object.h>

#include "ws-block-requests.h"
#include "ws-stack-table.h"
#include "ws-trace-types.h"

G_BEGIN_DECLS

#define WS_LATENCY_UNKNOWN G_MAXUINT32

/**
 * WsEventKind:
 * @WS_EVENT_RUNNING: the thread used the CPU: a CPU sample (cost = sample
 *   period) or, with %WS_EVENT_FLAG_SPAN, an exact switch-in → switch-out span
 * @WS_EVENT_WAIT: the thread blocked (switched out not runnable); its stack is
 *   the *waiting stack*, its duration the wait cost (switch-out → wake-up)
 * @WS_EVENT_UNWAIT: a thread (the *readier*, WTID) made another thread ready;
 *   its stack is the *unwait stack*
 * @WS_EVENT_HW_SERVICE: a wake-up from interrupt context (timer, I/O
 *   completion, IPI): no readier thread to follow
 * @WS_EVENT_PREEMPT: the thread was switched out while still runnable: it was
 *   ready, not blocked, and is kept apart from waits
 * @WS_EVENT_MARKER: any other recorded event (SDT/uprobe probe, fork, exit…),
 *   named by its event name; scenario rules match on these
 *
 * The four kinds of the ASPLOS'14 paper plus preemption and markers.
 */
typedef enum {
  WS_EVENT_RUNNING,
  WS_EVENT_WAIT,
  WS_EVENT_UNWAIT,
  WS_EVENT_HW_SERVICE,
  WS_EVENT_PREEMPT,
  WS_EVENT_MARKER,
  WS_N_EVENT_KINDS
} WsEventKind;

typedef enum {
  WS_EVENT_FLAG_SPAN             = 1 << 0, /* RUNNING: exact span, not a sample */
  WS_EVENT_FLAG_READIER_UNKNOWN  = 1 << 1, /* WAIT: no wake-up recorded; ended when next seen running */
  WS_EVENT_FLAG_UNINTERRUPTIBLE  = 1 << 2, /* WAIT: prev_state D (disk / uninterruptible) */
  WS_EVENT_FLAG_UNFINISHED       = 1 << 3, /* WAIT/PREEMPT/span: still open at the end of the trace */
  WS_EVENT_FLAG_ECHO             = 1 << 4, /* UNWAIT/HW: a second wake-up record of a thread already woken */
  WS_EVENT_FLAG_TO_IDLE          = 1 << 5, /* PREEMPT: its CPU went idle: switched out runnable for nothing */
} WsEventFlags;

/* How many flag bits an event holds (WsEvent's @flags field). */
#define WS_EVENT_N_FLAG_BITS 6

/**
 * WsEvent:
 * @time: start (RUNNING sample: the sample time; WAIT: switch-out; UNWAIT: wake-up)
 * @u: read it through ws_event_duration(), ws_event_target() and
 *   ws_trace_wait_ready_latency(), never directly: what the word holds
 *   depends on @kind
 * @thread: index of the thread in whose context the event was recorded
 * @stack: its call stack (caller first), %WS_STACK_EMPTY if none
 * @peer: WAIT: index of the UNWAIT/HW_SERVICE event that ended it, or
 *   %WS_NONE (readier unknown); UNWAIT/HW_SERVICE: index of the WAIT it
 *   ended, or %WS_NONE; PREEMPT: %WS_NONE.  RUNNING/MARKER: their name id,
 *   not a link: read ws_event_peer() and ws_event_name()
 * @cpu: CPU number
 * @kind: a #WsEventKind
 * @flags: #WsEventFlags
 * @state: WAIT/PREEMPT: the scheduler state letter ('S', 'D', 'I', 'R', ...)
 *
 * 32 bytes: each kind keeps what it uses in words another kind leaves
 * unused.  A wake-up (UNWAIT/HW_SERVICE) lasts no time: its duration word
 * holds the thread it made ready and the ready latency of the wait it
 * ended (wake-up → switch-in, the wait's own figure, kept where the wait
 * points: a wait has no spare word).  A sample or a marker links to no
 * event: its @peer holds its name id.  The four small fields share one
 * word (a cpu up to 65,535, a state letter in ASCII).  A hundred million
 * events take 3.2 GB (they took 4 GB at 40 bytes, 4.8 GB at 48).
 */
typedef struct {
  WsTime  time;
  union {
    WsTime duration;            /* RUNNING, WAIT, PREEMPT, MARKER */
    struct {
      guint32 target;           /* thread made ready, or WS_NONE */
      guint32 ready_latency;    /* of the wait @peer, or WS_LATENCY_UNKNOWN */
    } wake;                     /* UNWAIT, HW_SERVICE */
  } u;
  guint32 thread;
  guint32 stack;
  guint32 peer;
  /* One word for the small fields.  State letters are ASCII. */
  guint32 cpu   : 16;
  guint32 kind  : 3;
  guint32 flags : WS_EVENT_N_FLAG_BITS;
  guint32 state : 7;
} WsEvent;

G_STATIC_ASSERT (WS_N_EVENT_KINDS <= 1 << 3);
G_STATIC_ASSERT (WS_EVENT_FLAG_TO_IDLE < 1 << WS_EVENT_N_FLAG_BITS);
G_STATIC_ASSERT (sizeof (WsEvent) == 32);

/* A wake-up: an UNWAIT or a HW_SERVICE event. */
static inline gboolean
ws_event_is_wake (const WsEvent *e)
{
  return e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE;
}

/* A RUNNING sample or span, or a MARKER: named, linked to no event. */
static inline gboolean
ws_event_is_named (const WsEvent *e)
{
  return e->kind == WS_EVENT_RUNNING || e->kind == WS_EVENT_MARKER;
}

/* RUNNING: period or span length; WAIT: cost; PREEMPT: time until
 * switched in again; MARKER: 0 (or what a JSON trace gave); UNWAIT and
 * HW_SERVICE: 0. */
static inline WsTime
ws_event_duration (const WsEvent *e)
{
  return ws_event_is_wake (e) ? 0 : e->u.duration;
}

/* UNWAIT/HW_SERVICE: index of the thread made ready, or %WS_NONE;
 * %WS_NONE for every other kind. */
static inline guint32
ws_event_target (const WsEvent *e)
{
  return ws_event_is_wake (e) ? e->u.wake.target : WS_NONE;
}

/* MARKER: its name id (ws_trace_get_string()); RUNNING: the sample
 * event's name id; else (or none recorded) %WS_NONE. */
static inline guint32
ws_event_name (const WsEvent *e)
{
  return ws_event_is_named (e) ? e->peer : WS_NONE;
}

/* The event @e is linked with (see #WsEvent's @peer), or %WS_NONE: a
 * RUNNING or MARKER event never is. */
static inline guint32
ws_event_peer (const WsEvent *e)
{
  return ws_event_is_named (e) ? WS_NONE : e->peer;
}

/* Events as the accessors above read them, for importers and tests that
 * build traces: ws_event_init() fills @e for @kind with no duration, no
 * stack, no link, no name and no target. */
static inline void
ws_event_init (WsEvent     *e,
               WsEventKind  kind,
               WsTime       time,
               guint32      thread)
{
  memset (e, 0, sizeof *e);
  e->time = time;
  e->kind = kind;
  e->thread = thread;
  e->stack = WS_STACK_EMPTY;
  e->peer = WS_NONE;
  if (ws_event_is_wake (e))
    {
      e->u.wake.target = WS_NONE;
      e->u.wake.ready_latency = WS_LATENCY_UNKNOWN;
    }
}

/* Sets the duration of an event of any kind but a wake-up (which has
 * none: its word is taken). */
static inline void
ws_event_set_duration (WsEvent *e,
                       WsTime   duration)
{
  g_return_if_fail (!ws_event_is_wake (e));
  e->u.duration = duration;
}

static inline void
ws_event_set_target (WsEvent *e,
                     guint32  thread)
{
  g_return_if_fail (ws_event_is_wake (e));
  e->u.wake.target = thread;
}

static inline void
ws_event_set_name (WsEvent *e,
                   guint32  name)
{
  g_return_if_fail (ws_event_is_named (e));
  e->peer = name;
}

typedef struct {
  gint32        tid;
  gint32        pid;
  const char   *name;        /* last comm seen */
  guint32       process;     /* index into processes */
  const guint32*events;      /* time-ordered event indices of this thread */
  guint32       n_events;
  WsTime        first_seen;
  WsTime        last_seen;
} WsThread;

typedef struct {
  gint32        pid;
  const char   *name;
  const guint32*threads;     /* thread indices */
  guint32       n_threads;
} WsProcess;

/**
 * WsScenarioInstance:
 *
 * ⟨trace, scenario, TID, t0, t1⟩ of the ASPLOS'14 paper; the trace is the
 * #WsTrace that holds it.
 */
typedef struct {
  guint32 scenario;     /* string id of the scenario name */
  guint32 thread;       /* thread index */
  WsTime  t0;
  WsTime  t1;
  guint32 begin_event;  /* event index, or WS_NONE */
  guint32 end_event;
} WsScenarioInstance;

typedef enum {
  WS_READIER_THREAD,    /* readied by a thread: follow it */
  WS_READIER_HARDWARE,  /* interrupt context: timer, device */
  WS_READIER_UNKNOWN,   /* no wake-up recorded (under-connection) */
} WsReadierKind;

#define WS_TYPE_TRACE (ws_trace_get_type ())
G_DECLARE_FINAL_TYPE (WsTrace, ws_trace, WS, TRACE, GObject)

const char             *ws_trace_get_path              (WsTrace     *self);
const char             *ws_trace_get_name              (WsTrace     *self);
WsStackTable           *ws_trace_get_stack_table       (WsTrace     *self);
void                    ws_trace_move_to_stack_table   (WsTrace      *self,
                                                        WsStackTable *stacks);

guint                   ws_trace_get_n_events          (WsTrace     *self);
const WsEvent          *ws_trace_get_event             (WsTrace     *self,
                                                        guint        index);
const WsEvent          *ws_trace_get_events            (WsTrace     *self);
guint                   ws_trace_count_kind            (WsTrace     *self,
                                                        WsEventKind  kind);
WsTime                  ws_trace_get_start_time        (WsTrace     *self);
WsTime                  ws_trace_get_end_time          (WsTrace     *self);

guint                   ws_trace_get_n_threads         (WsTrace     *self);
const WsThread         *ws_trace_get_thread            (WsTrace     *self,
                                                        guint        index);
guint                   ws_trace_find_thread           (WsTrace     *self,
                                                        gint32       tid);
const char             *ws_trace_get_thread_comm_at    (WsTrace     *self,
                                                        guint        thread,
                                                        WsTime       time);
guint                   ws_trace_get_n_processes       (WsTrace     *self);
const WsProcess        *ws_trace_get_process           (WsTrace     *self,
                                                        guint        index);
const char             *ws_trace_get_program_name      (WsTrace     *self,
                                                        guint        thread);

WsTime                  ws_trace_get_thread_exit_time  (WsTrace     *self,
                                                        guint        thread);
gint32                  ws_trace_get_process_parent    (WsTrace     *self,
                                                        guint        process);
const char             *ws_trace_get_record_command    (WsTrace     *self);
const WsBlockRequests  *ws_trace_get_block_requests    (WsTrace     *self);
guint                   ws_trace_get_n_scenario_instances (WsTrace  *self);
const WsScenarioInstance *ws_trace_get_scenario_instance  (WsTrace  *self,
                                                        guint        index);

const char             *ws_trace_get_string            (WsTrace     *self,
                                                        guint32      id);
guint32                 ws_trace_lookup_string         (WsTrace     *self,
                                                        const char  *str);

guint                   ws_trace_thread_lower_bound    (WsTrace     *self,
                                                        guint        thread,
                                                        WsTime       time);
/**
 * WsEndIndex:
 * @WS_END_INDEX_ALL: over every event of the thread
 * @WS_END_INDEX_WAITS: over its WAIT events only (G_MININT64 before the first)
 *
 * Which events ws_trace_thread_end_prefix_max() takes the maximum over.
 */
typedef enum {
  WS_END_INDEX_ALL,
  WS_END_INDEX_WAITS,
  WS_N_END_INDEXES,
} WsEndIndex;

/**
 * WsWakeupFixes:
 * @ipi_unknown: waits an IPI delivered the wake-up of, whose readier is
 *   now unknown (was hardware)
 * @ipi_sender: the same, paired with the recorded wake-up of the thread
 *   that queued it
 *
 * What ws_trace_finish() rewrote so that wake-ups read as they happened.
 */
typedef struct {
  guint ipi_unknown;
  guint ipi_sender;
} WsWakeupFixes;

const WsWakeupFixes    *ws_trace_get_wakeup_fixes      (WsTrace     *self);
const WsTime           *ws_trace_thread_end_prefix_max (WsTrace     *self,
                                                        guint        thread,
                                                        WsEndIndex   which);
guint32                 ws_trace_wait_ready_latency    (WsTrace     *self,
                                                        guint        wait_event);
WsReadierKind           ws_trace_wait_readier          (WsTrace     *self,
                                                        guint        wait_event,
                                                        guint       *readier_thread);
const char             *ws_event_kind_to_string        (WsEventKind  kind);
char                   *ws_format_pid                  (gint32       pid);
gboolean                ws_event_kind_from_string      (const char  *str,
                                                        WsEventKind *kind);
gsize                   ws_trace_get_memory_size       (WsTrace     *self);
guint                   ws_trace_add_scenario_instances (WsTrace    *self,
                                                        const char  *scenario,
                                                        const char  *begin_marker,
                                                        const char  *end_marker);
guint                   ws_trace_add_scenario_instances_full (WsTrace *self,
                                                        const char  *scenario,
                                                        const char  *begin_marker,
                                                        const char * const *end_markers);

G_END_DECLS
