/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-timeline-view.h"
#include "ws-window.h"

G_BEGIN_DECLS

/* The anomaly part of WsWindow (ws-window-anomaly.c). */
void            ws_window_anomaly_install    (GtkWidgetClass *widget_class);
void            ws_window_anomaly_attach     (WsWindow       *self);
void            ws_window_anomaly_update     (WsWindow       *self);
void            ws_window_anomaly_prepare_document (WsWindow   *self,
                                              WsDocument     *document);

/* From ws-window.c, for the files that make up the window. */
void            ws_window_show_toast         (WsWindow       *self,
                                              const char     *message);

G_END_DECLS
