/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cancel check and throttled progress report shared by the analyses'
 * long loops (see ws-progress.h).
 */
#include "config.h"

#include "ws-progress.h"

#define CHECK_EVERY 16   /* steps between cancel checks: a check is an atomic read */
#define REPORT_STEP 0.01 /* of the loop's share of the run */

/**
 * ws_progress_loop_init:
 * @cancellable: (nullable): checked every few steps
 * @progress: (nullable): told of the fraction reached
 * @from: the run's fraction when the loop starts
 * @to: the run's fraction when it ends (below 1: the run reports 1 itself)
 * @message: (nullable): what the loop does, translated
 */
void
ws_progress_loop_init (WsProgressLoop *loop,
                       GCancellable   *cancellable,
                       WsProgressFunc  progress,
                       gpointer        progress_data,
                       double          from,
                       double          to,
                       const char     *message)
{
  g_return_if_fail (loop != NULL);

  *loop = (WsProgressLoop) {
    .cancellable = cancellable,
    .progress = progress,
    .progress_data = progress_data,
    .message = message,
    .from = from,
    .to = to,
    .reported = from,
  };
}

/**
 * ws_progress_loop_step:
 * @done: how much of the loop is done, 0 … 1 (an estimate: reports never
 *   go backwards even if it does)
 *
 * Returns: %FALSE with %G_IO_ERROR_CANCELLED if the run was cancelled
 */
gboolean
ws_progress_loop_step (WsProgressLoop *loop,
                       double          done,
                       GError        **error)
{
  double fraction;

  if (++loop->tick % CHECK_EVERY != 0)
    return TRUE;
  if (g_cancellable_set_error_if_cancelled (loop->cancellable, error))
    return FALSE;
  fraction = loop->from + (loop->to - loop->from) * CLAMP (done, 0.0, 1.0);
  if (fraction >= loop->reported + REPORT_STEP * (loop->to - loop->from))
    {
      loop->reported = fraction;
      ws_progress_report (loop->progress, loop->progress_data, fraction, loop->message);
    }
  return TRUE;
}
