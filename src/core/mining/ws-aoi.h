/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-frame-classifier.h"
#include "ws-stack-db.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

/**
 * WsAoiStacks:
 * @WS_AOI_WAITING: waiting stacks: WAIT events, cost = wait time
 * @WS_AOI_RUNNING: running stacks: sampled RUNNING events, cost = sample
 *   period (exact switch-in → switch-out spans are not samples and would
 *   count the same CPU time twice)
 *
 * StackMine mines the two kinds separately (§V).
 */
typedef enum {
  WS_AOI_WAITING,
  WS_AOI_RUNNING,
} WsAoiStacks;

/**
 * WsEventSet:
 *
 * A scope: a set of event indices of one trace (StackMine §IV, scope-based
 * extraction).  Scopes from threads, scenario instances, wait graphs and
 * critical paths are all just sets, so they combine and plug in alike.
 */
typedef struct _WsEventSet WsEventSet;

#define WS_TYPE_EVENT_SET (ws_event_set_get_type ())
GType        ws_event_set_get_type     (void) G_GNUC_CONST;
WsEventSet  *ws_event_set_new          (guint             n_events);
WsEventSet  *ws_event_set_copy         (const WsEventSet *self);
void         ws_event_set_free         (WsEventSet       *self);
void         ws_event_set_add          (WsEventSet       *self,
                                        guint             event);
gboolean     ws_event_set_contains     (const WsEventSet *self,
                                        guint             event);
guint        ws_event_set_count        (const WsEventSet *self);
void         ws_event_set_union        (WsEventSet       *self,
                                        const WsEventSet *other);
void         ws_event_set_intersect    (WsEventSet       *self,
                                        const WsEventSet *other);
guint        ws_event_set_get_n_events (const WsEventSet *self);

WsEventSet  *ws_aoi_scope_threads      (WsTrace          *trace,
                                        const gint32     *tids,
                                        guint             n_tids);
WsEventSet  *ws_aoi_scope_delaying     (WsTrace          *trace,
                                        WsFrameClassifier *classifier);
WsEventSet  *ws_aoi_scope_window       (WsTrace          *trace,
                                        guint             thread,
                                        WsTime            t0,
                                        WsTime            t1);
WsEventSet  *ws_aoi_scope_scenario     (WsTrace          *trace,
                                        const char       *scenario);
WsEventSet  *ws_aoi_scope_wait_graph   (WsWaitGraph      *graph);
WsEventSet  *ws_aoi_scope_symptom_graph(WsTrace          *trace,
                                        const WsSymptom  *symptom,
                                        gboolean          critical_path_only,
                                        WsFrameClassifier *classifier,
                                        GCancellable     *cancellable,
                                        GError          **error);

/**
 * WsAoi:
 *
 * Content-based extraction (StackMine §IV): which kind of stack, and
 * regular expressions a stack must / must not match in at least one of its
 * frames, written as "function (module)".
 */
typedef struct _WsAoi WsAoi;

WsAoi       *ws_aoi_new                (WsAoiStacks       stacks);
void         ws_aoi_free               (WsAoi            *self);
WsAoiStacks  ws_aoi_get_stacks         (WsAoi            *self);
gboolean     ws_aoi_add_must           (WsAoi            *self,
                                        const char       *regex,
                                        GError          **error);
gboolean     ws_aoi_add_must_not       (WsAoi            *self,
                                        const char       *regex,
                                        GError          **error);
gboolean     ws_aoi_stack_matches      (WsAoi            *self,
                                        WsStackTable     *table,
                                        WsStackId         stack);
gboolean     ws_aoi_event_matches      (WsAoi            *self,
                                        WsTrace          *trace,
                                        guint             event);
guint        ws_aoi_extract            (WsAoi            *self,
                                        WsTrace          *trace,
                                        const WsEventSet *scope,
                                        WsStackDb        *db,
                                        guint             stream);
void         ws_aoi_count_left_out     (WsTrace          *trace,
                                        const WsEventSet *scope,
                                        const WsEventSet *only,
                                        guint64          *n_waits,
                                        gint64           *time);
guint        ws_aoi_extract_instances  (WsAoi            *self,
                                        WsTrace          *trace,
                                        const char       *scenario,
                                        WsStackDb        *db);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsEventSet, ws_event_set_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsAoi, ws_aoi_free)

G_END_DECLS
