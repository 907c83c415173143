/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-view.h"

G_BEGIN_DECLS

/*
 * The timeline without a mouse: the key bindings that walk from wait to
 * wait along a thread and from thread to thread, and turn the selected
 * wait into the selected time window, plus the words an assistive
 * technology reads for the selection.
 */

void  ws_timeline_keys_install            (GtkWidgetClass *widget_class);
char *ws_timeline_keys_describe_selection (WsTimelineView *view);

G_END_DECLS
