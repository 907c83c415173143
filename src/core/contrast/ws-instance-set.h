/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-awg-input.h"
#include "ws-symptom.h"
#include "ws-trace.h"

G_BEGIN_DECLS

/**
 * WsInstanceRef:
 * @trace: (transfer none): the trace that holds the instance
 * @index: its index among the trace's scenario instances, or %WS_NONE
 *   for a thread span (ws_instance_set_add_span())
 * @duration: t1 − t0 (ns)
 * @span: its thread and window, what its wait graph is built from
 * @input: (nullable): an instance of a digest (@trace is then %NULL): its
 *   wait graph as the digest keeps it, its stacks in @stacks
 * @stacks: (nullable): see @input
 * @program: (nullable): a digest instance's process name
 *
 * One scenario instance ⟨TS, S, TID, t0, t1⟩ of the paper, among many
 * traces; or, for traces without scenario markers, one thread of the
 * program of interest from its first to its last event.
 */
typedef struct {
  WsTrace  *trace;
  guint     index;
  WsTime    duration;
  WsSymptom span;
  WsAwgInput   *input;
  WsStackTable *stacks;
  const char   *program;
} WsInstanceRef;

/*
 * WsInstanceSet: the instances of one scenario over any number of traces,
 * the input of impact analysis and of the contrast classes.  Immutable once
 * built; holds references to its traces.
 */
#define WS_TYPE_INSTANCE_SET (ws_instance_set_get_type ())
G_DECLARE_FINAL_TYPE (WsInstanceSet, ws_instance_set, WS, INSTANCE_SET, GObject)

WsInstanceSet       *ws_instance_set_new          (void);
/* Adds every instance of @scenario in @trace; returns how many. */
guint                ws_instance_set_add_trace    (WsInstanceSet *self,
                                                   WsTrace       *trace,
                                                   const char    *scenario);
void                 ws_instance_set_add          (WsInstanceSet *self,
                                                   WsTrace       *trace,
                                                   guint          index);
void                 ws_instance_set_add_span     (WsInstanceSet *self,
                                                   WsTrace       *trace,
                                                   guint          thread,
                                                   WsTime         t0,
                                                   WsTime         t1);
guint                ws_instance_set_add_thread_spans (WsInstanceSet *self,
                                                   WsTrace       *trace,
                                                   const char    *program);
/* An instance read from a digest: no trace, its reduced wait graph
 * @input (stacks in @stacks) and its program's name (@program, kept as
 * long as @stacks). */
void                 ws_instance_set_add_digested (WsInstanceSet *self,
                                                   WsAwgInput    *input,
                                                   WsStackTable  *stacks,
                                                   WsTime         duration,
                                                   const char    *program);
/* The instances of @self whose duration is <= @at_most (or >= @at_least,
 * pass -1 to leave a side open). */
WsInstanceSet       *ws_instance_set_filter       (WsInstanceSet *self,
                                                   WsTime         at_least,
                                                   WsTime         at_most);
guint                ws_instance_set_get_n        (WsInstanceSet *self);
const WsInstanceRef *ws_instance_set_get          (WsInstanceSet *self,
                                                   guint          i);
/* Durations, sorted ascending (owned by @self). */
const WsTime        *ws_instance_set_get_sorted_durations (WsInstanceSet *self);
WsTime               ws_instance_set_percentile   (WsInstanceSet *self,
                                                   double         fraction);
/* Index of the longest instance, or %WS_NONE if empty. */
guint                ws_instance_set_get_longest  (WsInstanceSet *self);

/* The component a contrast defaults to: the longest instance's program
 * (its process name, regex-escaped), or %NULL if empty (transfer full). */
char                *ws_instance_set_dup_default_component (WsInstanceSet *self);

/* Names of the scenarios with instances in @traces, sorted (transfer full). */
GStrv                ws_instance_set_list_scenarios (GPtrArray   *traces);

G_END_DECLS
