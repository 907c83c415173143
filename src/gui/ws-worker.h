/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * WsWorkerDone:
 * @owner: the object the job was run for
 * @result: (transfer full) (nullable): what the thread returned with
 *   g_task_return_pointer(), %NULL on error
 * @error: (nullable): the thread's error, %NULL on success
 * @job: the job data given to ws_worker_run()
 *
 * Called on the main thread for the newest job only: results of a job
 * that a newer one superseded (or ws_worker_drop() dropped) are freed
 * without a call.
 */
typedef void (*WsWorkerDone) (gpointer  owner,
                              gpointer  result,
                              GError   *error,
                              gpointer  job);

/*
 * WsWorker: the one-job-at-a-time plumbing every page repeated: running a
 * job in a thread (GTask), cancelling the job it supersedes, and a
 * generation counter that drops the results that arrive late.  "busy" is
 * true from ws_worker_run() until the newest job's callback.
 */
#define WS_TYPE_WORKER (ws_worker_get_type ())
G_DECLARE_FINAL_TYPE (WsWorker, ws_worker, WS, WORKER, GObject)

WsWorker     *ws_worker_new              (void);
void          ws_worker_run              (WsWorker         *self,
                                          gpointer          owner,
                                          gpointer          job,
                                          GDestroyNotify    job_free,
                                          GTaskThreadFunc   thread_func,
                                          WsWorkerDone      done);
void          ws_worker_cancel           (WsWorker         *self);
void          ws_worker_drop             (WsWorker         *self);
gboolean      ws_worker_get_busy         (WsWorker         *self);
guint         ws_worker_get_generation   (WsWorker         *self);
void          ws_worker_set_nice         (WsWorker         *self,
                                          int               nice);

void          ws_task_run_in_thread_at_nice (GTask           *task,
                                             GTaskThreadFunc  func,
                                             int              nice);

G_END_DECLS
