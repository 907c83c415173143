/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-stack-db.h"
#include "ws-stack-search.h"

G_BEGIN_DECLS

/*
 * WsPatternEvents: "Show Events" of the Mining page.  A query holds
 * mined patterns (frames of the run's stack database) and the traces
 * mined; run in a thread (ws_pattern_events_run_in_thread(), a
 * GTaskThreadFunc over the query as task data) it finds in each trace the
 * events whose stack contains one of the patterns as a subsequence, by
 * frame names (each trace has its own table), and returns a
 * WsPatternEvents: the matches of the trace to show.
 */
typedef struct _WsPatternEventsQuery WsPatternEventsQuery;

typedef struct {
  guint          stream;     /* the trace shown, or G_MAXUINT */
  WsStackSearch *search;     /* its matches, or NULL if no trace has any */
  guint          n_traces;   /* traces with at least one match */
  guint64        n_matches;  /* over all traces */
} WsPatternEvents;

char                 *ws_pattern_frame_key             (const WsFrame        *frame);

WsPatternEventsQuery *ws_pattern_events_query_new      (GPtrArray            *traces,
                                                        WsStackDb            *db,
                                                        const char           *label,
                                                        guint                 prefer);
void                  ws_pattern_events_query_add      (WsPatternEventsQuery *query,
                                                        const WsFrameId      *frames,
                                                        guint                 n_frames);
void                  ws_pattern_events_query_free     (WsPatternEventsQuery *query);
void                  ws_pattern_events_run_in_thread  (GTask                *task,
                                                        gpointer              source_object,
                                                        gpointer              task_data,
                                                        GCancellable         *cancellable);
void                  ws_pattern_events_free           (WsPatternEvents      *events);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPatternEvents, ws_pattern_events_free)

G_END_DECLS
