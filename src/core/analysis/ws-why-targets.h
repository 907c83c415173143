/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-attribution.h"

G_BEGIN_DECLS

/* What "why" explains when told nothing, in the CLI and on the Overview
 * alike: the slowest 10 % of the scenario instances or, in traces without
 * any, the 3 threads held up longest of the program held up most. */
#define WS_WHY_DEFAULT_SHARE   0.10
#define WS_WHY_DEFAULT_THREADS 3

typedef enum {
  WS_WHY_TARGETS_SLOWEST_SHARE,   /* scenario instances */
  WS_WHY_TARGETS_PICKED_THREADS,  /* no scenario instance: threads */
} WsWhyTargetsKind;

GArray *ws_why_default_targets (GPtrArray          *traces,
                                const char         *scenario,
                                WsFrameClassifier  *classifier,
                                const WsPickChoice *choice,
                                GPtrArray         **picks,
                                WsWhyTargetsKind   *kind);

G_END_DECLS
