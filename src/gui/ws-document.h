/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-timeline-layout.h"
#include "ws-timeline-lod.h"
#include "ws-timeline-viewport.h"
#include "ws-trace.h"

G_BEGIN_DECLS

typedef enum {
  WS_DOCUMENT_LOADING,
  WS_DOCUMENT_READY,
  WS_DOCUMENT_FAILED,
} WsDocumentState;

/*
 * WsDocument: one trace open in a window, from the moment it starts
 * loading.  It loads off the main thread (the importer, then the timeline's
 * levels of detail), reports progress coalesced into one idle callback on
 * the main thread, can be cancelled, and afterwards holds the trace with
 * the per-trace view state (layout, viewport) so that switching between
 * open traces keeps each one's zoom and selection.
 */
#define WS_TYPE_DOCUMENT (ws_document_get_type ())
G_DECLARE_FINAL_TYPE (WsDocument, ws_document, WS, DOCUMENT, GObject)

WsDocument         *ws_document_new          (GFile               *file);
GFile              *ws_document_get_file     (WsDocument          *self);
const char         *ws_document_get_title    (WsDocument          *self);
const char         *ws_document_get_subtitle (WsDocument          *self);
WsDocumentState     ws_document_get_state    (WsDocument          *self);
double              ws_document_get_progress (WsDocument          *self);
const char         *ws_document_get_message  (WsDocument          *self);
const GError       *ws_document_get_error    (WsDocument          *self);
const char         *ws_document_get_digest   (WsDocument          *self);
WsTrace            *ws_document_get_trace    (WsDocument          *self);
WsTimelineLod      *ws_document_get_lod      (WsDocument          *self);
WsTimelineLayout   *ws_document_get_layout   (WsDocument          *self);
WsTimelineViewport *ws_document_get_viewport (WsDocument          *self);

void                ws_document_load_async   (WsDocument          *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean            ws_document_load_finish  (WsDocument          *self,
                                              GAsyncResult        *result,
                                              GError             **error);
void                ws_document_cancel       (WsDocument          *self);
void                ws_document_set_record_history
                                             (WsDocument          *self,
                                              gboolean             record);
gboolean            ws_document_get_record_history
                                             (WsDocument          *self);
void                ws_document_set_history_path (WsDocument *self,
                                                  const char *path);
void                ws_document_set_signature_depth (WsDocument *self,
                                                     guint       depth);
gboolean            ws_document_get_recording (WsDocument         *self);
const GError       *ws_document_get_history_error
                                             (WsDocument          *self);

G_END_DECLS
