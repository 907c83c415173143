/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One job at a time, off the main thread.  A new job cancels the one
 * running (its thread polls the cancellable) and bumps the generation;
 * when a thread finishes, its result is handed on only if its generation
 * is still the newest, so a slow superseded job never overwrites a newer
 * answer (Hotspot's job tracker does the same).
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ws-worker.h"

struct _WsWorker
{
  GObject        parent_instance;

  GCancellable  *cancellable;
  guint          generation;
  gboolean       busy;
  int            nice;        /* > 0: jobs run on a thread of their own, lower */
};

G_DEFINE_FINAL_TYPE (WsWorker, ws_worker, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  WsWorker      *worker;
  GObject       *owner;
  guint          generation;
  WsWorkerDone   done;
} Call;

static void
set_busy (WsWorker *self,
          gboolean  busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Call *call = user_data;
  WsWorker *self = call->worker;
  g_autoptr(GError) error = NULL;
  gpointer value;

  /* Superseded: GTask frees the value it was never asked for. */
  if (call->generation != self->generation)
    goto out;

  set_busy (self, FALSE);
  value = g_task_propagate_pointer (G_TASK (result), &error);
  call->done (call->owner, value, error, g_task_get_task_data (G_TASK (result)));

out:
  /* Here, in the main thread, whatever thread drops the task last. */
  g_object_unref (call->owner);
  g_object_unref (call->worker);
  g_free (call);
}

static void
ws_worker_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, WS_WORKER (object)->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_worker_dispose (GObject *object)
{
  WsWorker *self = WS_WORKER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (ws_worker_parent_class)->dispose (object);
}

static void
ws_worker_class_init (WsWorkerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = ws_worker_get_property;
  object_class->dispose = ws_worker_dispose;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_worker_init (WsWorker *self)
{
}

WsWorker *
ws_worker_new (void)
{
  return g_object_new (WS_TYPE_WORKER, NULL);
}

/**
 * ws_worker_run:
 * @owner: a #GObject, the task's source object (kept alive until the
 *   thread returns) and @done's first argument
 * @job: (transfer full): the job's data, the thread's task data
 * @job_free: frees @job once the task is done with it
 * @thread_func: runs in a thread; returns with g_task_return_pointer() or
 *   g_task_return_error() and polls the task's cancellable
 * @done: called with the result if this job is still the newest
 *
 * Cancels the job running, if any, and starts @job.
 */
void
ws_worker_run (WsWorker        *self,
               gpointer         owner,
               gpointer         job,
               GDestroyNotify   job_free,
               GTaskThreadFunc  thread_func,
               WsWorkerDone     done)
{
  g_autoptr(GTask) task = NULL;
  Call *call;

  g_return_if_fail (WS_IS_WORKER (self));
  g_return_if_fail (G_IS_OBJECT (owner));
  g_return_if_fail (thread_func != NULL && done != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  call = g_new0 (Call, 1);
  call->worker = g_object_ref (self);
  call->owner = g_object_ref (owner);
  call->generation = ++self->generation;
  call->done = done;

  /* The owner is not the task's source object: the worker thread may drop
   * the last reference to the task after the callback ran, and a widget
   * closed meanwhile would then be finalized in that thread (a test once
   * aborted on "invalid unclassed pointer in cast to GObject" after the
   * Mining page's signature panel went away mid-computation).  The call
   * holds the owner instead and lets it go in job_done(), on the main
   * thread. */
  task = g_task_new (NULL, self->cancellable, job_done, call);
  g_task_set_source_tag (task, ws_worker_run);
  g_task_set_task_data (task, job, job_free);
  /* The callback always runs, so that the generation check frees the call. */
  g_task_set_return_on_cancel (task, FALSE);
  set_busy (self, TRUE);
  if (self->nice > 0)
    ws_task_run_in_thread_at_nice (task, thread_func, self->nice);
  else
    g_task_run_in_thread (task, thread_func);
}

/**
 * ws_worker_set_nice:
 * @nice: 0 (the default) to run jobs on GTask's pool, or a nice value
 *   above 0 to run each on a thread of its own at that lower priority
 *
 * For work the user is not waiting for first (see
 * ws_task_run_in_thread_at_nice()).
 */
void
ws_worker_set_nice (WsWorker *self,
                    int       nice)
{
  g_return_if_fail (WS_IS_WORKER (self));
  self->nice = CLAMP (nice, 0, 19);
}

typedef struct {
  GTask          *task;
  GTaskThreadFunc func;
  int             nice;
} NicedRun;

static gpointer
run_niced (gpointer data)
{
  NicedRun *run = data;
  GTask *task = run->task;

  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), run->nice);
  run->func (task, g_task_get_source_object (task), g_task_get_task_data (task), g_task_get_cancellable (task));
  g_free (run);
  g_object_unref (task);
  return NULL;
}

/**
 * ws_task_run_in_thread_at_nice:
 * @nice: the thread's nice value (threads it starts inherit it)
 *
 * g_task_run_in_thread() on a thread of its own at a lower priority (a
 * Linux thread's nice value is its own): on a machine of two cores,
 * work nothing on screen waits for first (recording the history,
 * scoring the anomalies) must not delay the Overview's answer.  Not on
 * GTask's pool: a pool thread would keep the lowered priority for the
 * next task, and an unprivileged thread cannot raise it again.
 */
void
ws_task_run_in_thread_at_nice (GTask           *task,
                               GTaskThreadFunc  func,
                               int              nice)
{
  NicedRun *run = g_new0 (NicedRun, 1);

  run->task = g_object_ref (task);
  run->func = func;
  run->nice = nice;
  g_thread_unref (g_thread_new ("ws-niced-job", run_niced, run));
}

/* Asks the running job to stop; its callback still comes (with the
 * cancellation error, or a result if it finished first). */
void
ws_worker_cancel (WsWorker *self)
{
  g_return_if_fail (WS_IS_WORKER (self));
  g_cancellable_cancel (self->cancellable);
}

/* Stops the running job and drops its result without a callback (a page
 * going away, or an input that no longer exists). */
void
ws_worker_drop (WsWorker *self)
{
  g_return_if_fail (WS_IS_WORKER (self));
  g_cancellable_cancel (self->cancellable);
  self->generation++;
  set_busy (self, FALSE);
}

gboolean
ws_worker_get_busy (WsWorker *self)
{
  g_return_val_if_fail (WS_IS_WORKER (self), FALSE);
  return self->busy;
}

/* The newest job's generation (each ws_worker_run() and ws_worker_drop()
 * changes it): a caller that must tell a late answer apart compares it. */
guint
ws_worker_get_generation (WsWorker *self)
{
  g_return_val_if_fail (WS_IS_WORKER (self), 0);
  return self->generation;
}
