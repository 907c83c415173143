/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-document.h"

G_BEGIN_DECLS

/**
 * WsSlowestKind:
 * @WS_SLOWEST_INSTANCE: a scenario instance (the index is the instance's)
 * @WS_SLOWEST_WAIT: a WAIT event (the index is the event's)
 */
typedef enum {
  WS_SLOWEST_INSTANCE,
  WS_SLOWEST_WAIT,
} WsSlowestKind;

/*
 * WsSlowestList: the slowest scenario instances and the longest waits of
 * every loaded trace, longest first, each row one activation (click,
 * Enter) from the timeline (::activated).  Rebuilt by
 * ws_slowest_list_refresh() — the window calls it each time its popover
 * opens, so traces loaded meanwhile are in.
 */
#define WS_TYPE_SLOWEST_LIST (ws_slowest_list_get_type ())
G_DECLARE_FINAL_TYPE (WsSlowestList, ws_slowest_list, WS, SLOWEST_LIST, GtkWidget)

GtkWidget *ws_slowest_list_new          (void);
void       ws_slowest_list_set_documents (WsSlowestList *self,
                                          GListModel    *documents);
void       ws_slowest_list_refresh      (WsSlowestList *self);
guint      ws_slowest_list_get_n_rows   (WsSlowestList *self,
                                         WsSlowestKind  kind);
gboolean   ws_slowest_list_get_row      (WsSlowestList *self,
                                         WsSlowestKind  kind,
                                         guint          position,
                                         WsDocument   **document,
                                         guint         *index,
                                         WsTime        *duration);
void       ws_slowest_list_activate_row (WsSlowestList *self,
                                         WsSlowestKind  kind,
                                         guint          position);

#define WS_SLOWEST_LIST_MAX_ROWS 12

G_END_DECLS
