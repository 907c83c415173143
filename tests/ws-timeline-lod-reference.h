/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-timeline-lod.h"

G_BEGIN_DECLS

void ws_timeline_lod_assert_as_reference (WsTimelineLod *lod,
                                          WsTrace       *trace);

G_END_DECLS
