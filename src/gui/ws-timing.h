/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The window's own timing log: with WAITSCOPE_TIMING set, the first time
 * each milestone of opening a trace is reached (trace parsed, timeline
 * detail built, trace identified, trace read, first timeline frame
 * drawn, first answer shown) one line goes to stderr,
 * "waitscope-timing: 1.234 s first-timeline-frame", counted from the
 * start of main().  tools/gui-timing.sh reads it.
 */

#include <glib.h>

G_BEGIN_DECLS

void ws_timing_start (void);
void ws_timing_mark  (const char *milestone);

G_END_DECLS
