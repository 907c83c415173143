/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-mining-page.h"
#include "ws-pin.h"

G_BEGIN_DECLS

WsPin *ws_mining_pin_capture (WsMiningPage *page,
                              GPtrArray    *files);
void   ws_mining_pin_apply   (WsMiningPage *page,
                              WsPin        *pin,
                              GFile       **traces,
                              guint         n_traces);
/* The Mining page's pin vfuncs: the alignment and coverage kinds. */
void   ws_mining_pin_class_init (WsPageClass *page_class);

G_END_DECLS
