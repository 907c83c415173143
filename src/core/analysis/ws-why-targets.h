/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-attribution.h"
#include "ws-thread-picker.h"

G_BEGIN_DECLS

/*
 * ws_attribution_targets_waiting_threads:
 * Without scenarios: the @k threads held up longest of the program held
 * up most in each trace, each over its whole recorded life — the threads
 * ws_thread_picker_pick() chooses (see docs/attribution.md, "The thread
 * picker").
 */
GArray         *ws_attribution_targets_waiting_threads (GPtrArray        *traces,
                                                        WsFrameClassifier *classifier,
                                                        guint              k);
/* The same, and @picks (out) (optional) (element-type WsThreadPick):
 * which program was chosen in each trace and why. */
GArray         *ws_attribution_targets_waiting_threads_full (GPtrArray         *traces,
                                                             WsFrameClassifier *classifier,
                                                             guint              k,
                                                             GPtrArray        **picks);
/* The same for the program @choice names (nullable: the recording's
 * subject, else the ranking's first; ws_thread_picker_pick_full()). */
GArray         *ws_attribution_targets_picked (GPtrArray          *traces,
                                               WsFrameClassifier  *classifier,
                                               guint               k,
                                               const WsPickChoice *choice,
                                               GPtrArray         **picks);


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
