/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

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

/*
 * WsProgressLoop: the cancel check and progress report of one long loop
 * of a run (growing a ready tree, walking a critical path, classifying
 * every wait), so that each loop does both the same way: every 16 steps
 * it checks @cancellable, and reports when the fraction has grown by 1 %
 * of the part [@from, @to] of the run's progress the loop covers.
 */
typedef struct {
  GCancellable   *cancellable;
  WsProgressFunc  progress;
  gpointer        progress_data;
  const char     *message;
  double          from;
  double          to;
  double          reported;
  guint           tick;
} WsProgressLoop;

void     ws_progress_loop_init (WsProgressLoop *loop,
                                GCancellable   *cancellable,
                                WsProgressFunc  progress,
                                gpointer        progress_data,
                                double          from,
                                double          to,
                                const char     *message);
gboolean ws_progress_loop_step (WsProgressLoop *loop,
                                double          done,
                                GError        **error);

G_END_DECLS
