/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-analysis-kind.h"
#include "ws-details-pane.h"
#include "ws-document.h"
#include "ws-findings-page.h"
#include "ws-graph-page.h"
#include "ws-mining-page.h"
#include "ws-page.h"
#include "ws-session.h"
#include "ws-slowest-list.h"
#include "ws-stack-search.h"
#include "ws-thread-table.h"
#include "ws-timeline-view.h"

G_BEGIN_DECLS

/*
 * WsWindow: a main window.  A sidebar lists the traces open in it (each
 * loading in the background with its own progress and Cancel); the
 * selected one fills the timeline, the details pane and the thread table.
 * Selecting a window of a thread and choosing Wait Graph or Ready Tree
 * emits ::analysis-requested with the symptom ⟨trace, thread, t0, t1⟩:
 * the graph views connect there.
 */
#define WS_TYPE_WINDOW (ws_window_get_type ())
G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, AdwApplicationWindow)

WsWindow       *ws_window_new                  (GtkApplication *application);
WsDocument     *ws_window_open_file            (WsWindow       *self,
                                                GFile          *file);
void            ws_window_open_fleet           (WsWindow       *self,
                                                GListModel     *files);
gboolean        ws_window_get_fleet_busy       (WsWindow       *self);
WsDocument     *ws_window_open_trace           (WsWindow       *self,
                                                GFile          *file);
WsSession      *ws_window_get_session          (WsWindow       *self);
void            ws_window_add_recent           (WsWindow       *self,
                                                GFile          *file);
WsDocument     *ws_window_get_current_document (WsWindow       *self);
GListModel     *ws_window_get_documents        (WsWindow       *self);
WsTimelineView *ws_window_get_timeline_view    (WsWindow       *self);
WsDetailsPane  *ws_window_get_details_pane     (WsWindow       *self);
WsThreadTable  *ws_window_get_thread_table     (WsWindow       *self);
WsMiningPage   *ws_window_get_mining_page      (WsWindow       *self);
WsGraphPage    *ws_window_get_graph_page       (WsWindow       *self);
WsFindingsPage *ws_window_get_findings_page    (WsWindow       *self);
const char     *ws_window_get_details_page     (WsWindow       *self);
WsStackSearch  *ws_window_get_search           (WsWindow       *self);
void            ws_window_set_search_text      (WsWindow       *self,
                                                const char     *text);
const char     *ws_window_get_search_status    (WsWindow       *self);
void            ws_window_show_details_page    (WsWindow       *self,
                                                const char     *name);
void            ws_window_add_page             (WsWindow       *self,
                                                WsPage         *page,
                                                const char     *name);
WsSlowestList  *ws_window_get_slowest_list     (WsWindow       *self);
gboolean        ws_window_export_timeline      (WsWindow       *self,
                                                const char     *path,
                                                GError        **error);
gboolean        ws_window_export_chrome        (WsWindow       *self,
                                                const char     *path,
                                                GError        **error);

G_END_DECLS
