/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsProgressFunc:
 * @fraction: 0.0 … 1.0, or a negative value when unknown
 * @message: (nullable): what is being done, translated
 *
 * Long core operations (import, mining, clustering) report progress through
 * this plain callback, from whatever thread they run in; the GUI coalesces
 * the reports into one idle source on the main thread.  Callers throttle:
 * a report every ~1 % or every few hundred milliseconds at most.
 */
typedef void (*WsProgressFunc) (double      fraction,
                                const char *message,
                                gpointer    user_data);

/* Calls @func if there is one: runs take a nullable progress callback. */
static inline void
ws_progress_report (WsProgressFunc  func,
                    gpointer        user_data,
                    double          fraction,
                    const char     *message)
{
  if (func != NULL)
    func (fraction, message, user_data);
}

G_END_DECLS
