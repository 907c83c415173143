/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one job that reads a fleet's traces on a worker (ws-fleet-read.h):
 * opening traces as a fleet (ws-window-fleet.c) and reading their wait
 * graphs again for a contrast (ws-contrast-page.c) differ only in what
 * reads them.
 */
#include "config.h"

#include "ws-fleet-read.h"

/**
 * ws_fleet_read_new:
 * @paths: (transfer full): the traces
 * @hashes: (transfer full) (nullable): their content hashes
 * @relay: the progress relay of the page or window that asks
 *
 * Returns: (transfer full): the job, for ws_worker_run() with
 *   ws_fleet_read_free() and ws_fleet_read_in_thread()
 */
WsFleetRead *
ws_fleet_read_new (WsFleetReadFunc  read,
                   GStrv            paths,
                   GStrv            hashes,
                   WsProgressRelay *relay)
{
  WsFleetRead *job = g_new0 (WsFleetRead, 1);

  job->read = read;
  job->paths = paths;
  job->hashes = hashes;
  job->relay = g_object_ref (relay);
  return job;
}

void
ws_fleet_read_free (gpointer data)
{
  WsFleetRead *job = data;

  g_clear_pointer (&job->fleet, ws_digest_unref);
  g_strfreev (job->paths);
  g_strfreev (job->hashes);
  g_clear_object (&job->relay);
  g_free (job);
}

void
ws_fleet_read_result_free (gpointer data)
{
  WsFleetReadResult *result = data;

  g_clear_pointer (&result->digest, ws_digest_unref);
  g_clear_pointer (&result->failed, g_ptr_array_unref);
  g_free (result);
}

/* Returns a #WsFleetReadResult, or the read's error (cancelled included). */
void
ws_fleet_read_in_thread (GTask        *task,
                         gpointer      source,
                         gpointer      data,
                         GCancellable *cancellable)
{
  WsFleetRead *job = data;
  WsFleetReadResult *result = g_new0 (WsFleetReadResult, 1);
  GError *error = NULL;

  result->failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  result->digest = job->read (job->paths, job->hashes, ws_progress_relay_report, job->relay, result->failed,
                              cancellable, &error);
  if (result->digest == NULL)
    {
      ws_fleet_read_result_free (result);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, result, ws_fleet_read_result_free);
}
