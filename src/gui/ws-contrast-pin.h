/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-contrast-page.h"
#include "ws-pin.h"

G_BEGIN_DECLS

WsPin *ws_contrast_pin_capture (WsContrastPage *page,
                                const char     *kind,
                                gboolean        slow,
                                GListModel     *documents,
                                GPtrArray      *files);
void   ws_contrast_pin_apply   (WsContrastPage *page,
                                WsPin          *pin);

G_END_DECLS
