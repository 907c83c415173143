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

G_END_DECLS
