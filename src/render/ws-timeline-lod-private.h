/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-timeline-lod.h"

G_BEGIN_DECLS

/* The steps of building one coarser level, for the tests of their laws
 * (tests/test-timeline-lod.c): the level at @bucket (a power of two)
 * built from the finer level @segs, %NULL past @max segments; and a
 * cheap count it never exceeds. */
WsStateSegment *ws_timeline_lod_build_level       (const WsStateSegment *segs,
                                                   guint                 n,
                                                   WsTime                bucket,
                                                   guint                 max,
                                                   guint                *n_out);
guint           ws_timeline_lod_level_lower_bound (const WsStateSegment *segs,
                                                   guint                 n,
                                                   WsTime                bucket,
                                                   guint                 max);

G_END_DECLS
