/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-pivot.h"
#include "ws-page.h"
#include "ws-session.h"

G_BEGIN_DECLS

/**
 * WsPivotScope:
 * @WS_PIVOT_SCOPE_TRACE: every thread, the whole trace
 * @WS_PIVOT_SCOPE_WINDOW: every thread, over the timeline's selected
 *   window (the whole trace when nothing is selected)
 * @WS_PIVOT_SCOPE_THREAD: the selected thread over the selected window
 */
typedef enum {
  WS_PIVOT_SCOPE_TRACE,
  WS_PIVOT_SCOPE_WINDOW,
  WS_PIVOT_SCOPE_THREAD,
} WsPivotScope;

/*
 * WsPivotPage: where the selection's time goes, as an expandable table
 * grouped by the columns the user picks and orders (process, thread,
 * state, readier, functions), from ws_pivot_run() — the entry point of
 * `waitscope-cli pivot`.  It reads the trace shown and the timeline's
 * selection through its #WsSession, and asks the window to show a row's
 * first span with "show-in-timeline".
 */
#define WS_TYPE_PIVOT_PAGE (ws_pivot_page_get_type ())
G_DECLARE_FINAL_TYPE (WsPivotPage, ws_pivot_page, WS, PIVOT_PAGE, WsPage)

void            ws_pivot_page_set_columns  (WsPivotPage         *self,
                                            const WsPivotColumn *columns,
                                            guint                n_columns);
void            ws_pivot_page_set_scope    (WsPivotPage         *self,
                                            WsPivotScope         scope);
gboolean        ws_pivot_page_get_busy     (WsPivotPage         *self);
const WsPivot  *ws_pivot_page_get_pivot    (WsPivotPage         *self);

G_END_DECLS
