/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The plain types of the trace model, apart so that parts of a trace
 * (its block requests) need not include the trace. */

/* No thread, event or index. */
#define WS_NONE G_MAXUINT32

/* All times are nanoseconds on the trace's own clock (perf: since boot). */
typedef gint64 WsTime;

/* The times a trace may hold: within 2^61 ns (73 years) of zero, and
 * durations up to as long, so that no time + duration, nor any difference
 * of two such sums, can overflow 64 bits.  Both importers reject the rest
 * with the file and line. */
#define WS_TIME_MIN (-(G_GINT64_CONSTANT (1) << 61))
#define WS_TIME_MAX (G_GINT64_CONSTANT (1) << 61)

G_END_DECLS
