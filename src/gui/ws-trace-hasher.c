/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Hashing traces off the main thread.  Pinning records the trace by its
 * content hash; reading a 1 GB trace on the main thread froze the window
 * for seconds.  The worker reads, the main thread records; a cancelled
 * hash (window closed, another session opened) stops within a megabyte.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "ws-session-file.h"
#include "ws-trace-hasher.h"

typedef struct {
  gint64  size;
  gint64  mtime;
  char   *sha256;
} Known;

struct _WsTraceHasher
{
  GObject     parent_instance;

  GHashTable *known;   /* canonical path → Known; main thread only */
};

G_DEFINE_FINAL_TYPE (WsTraceHasher, ws_trace_hasher, G_TYPE_OBJECT)

typedef struct {
  char   *path;
  char   *sha256;
  gint64  size;
  gint64  mtime;
} Job;

static void
known_free (gpointer data)
{
  Known *k = data;

  g_free (k->sha256);
  g_free (k);
}

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->path);
  g_free (job->sha256);
  g_free (job);
}

static void
ws_trace_hasher_finalize (GObject *object)
{
  WsTraceHasher *self = WS_TRACE_HASHER (object);

  g_clear_pointer (&self->known, g_hash_table_unref);
  G_OBJECT_CLASS (ws_trace_hasher_parent_class)->finalize (object);
}

static void
ws_trace_hasher_class_init (WsTraceHasherClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_trace_hasher_finalize;
}

static void
ws_trace_hasher_init (WsTraceHasher *self)
{
  self->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, known_free);
}

WsTraceHasher *
ws_trace_hasher_new (void)
{
  return g_object_new (WS_TYPE_TRACE_HASHER, NULL);
}

static gboolean
stat_file (const char *path,
           gint64     *size,
           gint64     *mtime)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return FALSE;
  *size = st.st_size;
  *mtime = st.st_mtime;
  return TRUE;
}

static void
hash_in_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  gint64 mtime = 0, ignored = 0;

  /* The time before reading: a file changed while hashed is hashed again. */
  stat_file (job->path, &ignored, &mtime);
  job->sha256 = ws_session_file_hash_file_full (job->path, &job->size, cancellable, &error);
  job->mtime = mtime;
  if (job->sha256 == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * ws_trace_hasher_hash_async:
 *
 * Hashes @path on a worker thread (or answers at once, on the next main
 * loop iteration, for a file already hashed and unchanged since).
 */
void
ws_trace_hasher_hash_async (WsTraceHasher       *self,
                            const char          *path,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;
  Known *known;
  gint64 size = 0, mtime = 0;

  g_return_if_fail (WS_IS_TRACE_HASHER (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_trace_hasher_hash_async);
  job = g_new0 (Job, 1);
  job->path = g_canonicalize_filename (path, NULL);
  g_task_set_task_data (task, job, job_free);

  known = g_hash_table_lookup (self->known, job->path);
  if (known != NULL && stat_file (job->path, &size, &mtime) && size == known->size && mtime == known->mtime)
    {
      job->sha256 = g_strdup (known->sha256);
      job->size = size;
      job->mtime = mtime;
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_task_run_in_thread (task, hash_in_thread);
}

/**
 * ws_trace_hasher_hash_finish:
 * @size: (out) (optional): the file's size
 *
 * Returns: (transfer full) (nullable): the hex SHA-256, or %NULL with
 *   @error (WS_ERROR_CANCELLED when cancelled)
 */
char *
ws_trace_hasher_hash_finish (WsTraceHasher  *self,
                             GAsyncResult   *result,
                             gint64         *size,
                             GError        **error)
{
  Job *job;
  Known *known;

  g_return_val_if_fail (WS_IS_TRACE_HASHER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  job = g_task_get_task_data (G_TASK (result));
  known = g_new0 (Known, 1);
  known->size = job->size;
  known->mtime = job->mtime;
  known->sha256 = g_strdup (job->sha256);
  g_hash_table_replace (self->known, g_strdup (job->path), known);
  if (size)
    *size = job->size;
  return g_strdup (job->sha256);
}
