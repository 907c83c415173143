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
/* The Contrast page's pin vfuncs: a contrast pattern, or AWG_slow or
 * AWG_fast ("pattern", "slow", "fast" asked for by win.pin-contrast). */
void   ws_contrast_pin_class_init (WsPageClass *page_class);

G_END_DECLS
