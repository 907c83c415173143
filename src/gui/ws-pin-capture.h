/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-document.h"
#include "ws-graph-page.h"
#include "ws-pin.h"

G_BEGIN_DECLS

/* What a view shows, as a pin (the inputs that redraw it), or %NULL if it
 * shows nothing pinnable. */
WsPin *ws_pin_capture_timeline (WsDocument  *document);
WsPin *ws_pin_capture_graph    (WsGraphPage *page);
/* Back: the pin's window shown in the timeline, and its thread selected
 * over it; FALSE when the pin names no thread of @document's trace. */
gboolean ws_pin_select_in_timeline (WsPin      *pin,
                                    WsDocument *document);
/* The graph page's pin vfuncs: wait graph, ready tree, critical path. */
void   ws_graph_pin_class_init (WsPageClass *page_class);

G_END_DECLS
