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

G_END_DECLS
