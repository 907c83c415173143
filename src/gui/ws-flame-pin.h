/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-flame-page.h"
#include "ws-pin.h"

G_BEGIN_DECLS

WsPin *ws_flame_pin_capture (WsFlamePage *page,
                             GPtrArray   *files);
void   ws_flame_pin_apply   (WsFlamePage *page,
                             WsPin       *pin,
                             WsDocument  *document,
                             WsDocument  *base);
/* The Flame Graph page's pin vfuncs: its graph, over its trace and the
 * compared one. */
void   ws_flame_pin_class_init (WsPageClass *page_class);

G_END_DECLS
