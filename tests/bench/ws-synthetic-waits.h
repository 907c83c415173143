/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Hand-built and synthetic traces for the wait-graph family of tests and
 * benchmarks.
 *
 * WsTestTrace wraps the builder side of WsTrace so that a test can write a
 * trace as "thread X ran from 0 to 100, then waited until B readied it at
 * 400" and then ask for the final (time-sorted) index of each event it
 * added, to state the exact node and edge sets it expects.
 *
 * ws_synthetic_wait_trace() makes large, self-consistent traces (a readier
 * is always running when it readies) for benchmarks, and
 * ws_synthetic_wait_graph() the Fig. 2 graph of at least N nodes from one
 * (8 threads, ~20,000 events for 10,000 nodes), e.g. for the GUI's layout
 * benchmark.
 */

#include "ws-trace-private.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

typedef struct _WsTestTrace WsTestTrace;

WsTestTrace *ws_test_trace_new        (void);
void         ws_test_trace_free       (WsTestTrace *tt);
WsTrace     *ws_test_trace_get_trace  (WsTestTrace *tt);

guint        ws_test_trace_thread     (WsTestTrace *tt,
                                       gint32       tid,
                                       gint32       pid,
                                       const char  *name);
void         ws_test_trace_process    (WsTestTrace *tt,
                                       gint32       pid,
                                       const char  *name);
/* "outer;middle;leaf" (caller first, as Waitscope stores stacks), module "m". */
WsStackId    ws_test_trace_stack      (WsTestTrace *tt,
                                       const char  *frames);

/* Each returns the event's *builder* index; see ws_test_trace_index(). */
guint        ws_test_trace_run        (WsTestTrace *tt,
                                       guint        thread,
                                       WsTime       start,
                                       WsTime       end,
                                       WsStackId    stack);
guint        ws_test_trace_sample     (WsTestTrace *tt,
                                       guint        thread,
                                       WsTime       time,
                                       WsTime       period,
                                       WsStackId    stack);
/* A wait [start, end) with no readier yet (flag READIER_UNKNOWN). */
guint        ws_test_trace_wait       (WsTestTrace *tt,
                                       guint        thread,
                                       WsTime       start,
                                       WsTime       end,
                                       WsStackId    stack);
void         ws_test_trace_set_latency (WsTestTrace *tt,
                                       guint        wait,
                                       guint32      ready_latency);
/* @readier thread readies @wait at its end: an UNWAIT linked both ways. */
guint        ws_test_trace_wake       (WsTestTrace *tt,
                                       guint        readier,
                                       guint        wait,
                                       WsStackId    stack);
/* An interrupt-context wake-up (HW_SERVICE) recorded in @context_thread. */
guint        ws_test_trace_hw_wake    (WsTestTrace *tt,
                                       guint        context_thread,
                                       guint        wait,
                                       WsStackId    stack);
guint        ws_test_trace_preempt    (WsTestTrace *tt,
                                       guint        thread,
                                       WsTime       start,
                                       WsTime       end);
guint        ws_test_trace_marker     (WsTestTrace *tt,
                                       guint        thread,
                                       WsTime       time,
                                       const char  *name);

/* Sorts the trace (ws_trace_finish); afterwards only the queries below. */
void         ws_test_trace_finish     (WsTestTrace *tt);
/* The final index of the event added as builder index @built. */
guint        ws_test_trace_index      (WsTestTrace *tt,
                                       guint        built);

/*
 * ws_synthetic_wait_trace:
 * @n_threads: threads (>= 2)
 * @n_steps: simulated scheduler steps of 1 µs
 * @seed: for g_rand
 * @symptom: (out): thread 0 over the whole trace
 *
 * A discrete simulation: each step, every running thread may block (with
 * a lock-like waiting stack), and every blocked thread may be readied by a
 * randomly chosen running thread (UNWAIT with a release stack), or rarely
 * by a timer interrupt, or stay unwoken; one thread per 16 never blocks,
 * so that someone can always ready the others.
 *
 * Returns: (transfer full): a finished trace
 */
WsTrace     *ws_synthetic_wait_trace  (guint        n_threads,
                                       guint        n_steps,
                                       guint32      seed,
                                       WsSymptom   *symptom);

/*
 * ws_synthetic_wait_graph:
 * @min_nodes: the graph has at least this many nodes
 *
 * Returns: (transfer full): the wait graph of thread 0 over a synthetic
 *   trace of 8 threads, grown (50 % more steps at a time, from 2000) until
 *   it has @min_nodes nodes; the same @min_nodes and @seed give the same
 *   graph
 */
WsWaitGraph *ws_synthetic_wait_graph  (guint        min_nodes,
                                       guint32      seed);

G_END_DECLS
