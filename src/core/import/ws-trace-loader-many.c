/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading many traces on every core.  Each trace is parsed on a worker
 * thread into a stack table of its own; the caller's thread then moves
 * them, in the order given, into the one shared table
 * (ws_trace_move_to_stack_table()), which gives every stack the id
 * loading them one after another would have: the analyses see the same
 * traces, bit for bit, whatever the number of threads.
 */
#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "ws-threads-env.h"
#include "ws-trace-loader.h"

typedef struct {
  char            **paths;
  guint             n_paths;
  WsScenarioRules  *rules;
  GCancellable     *cancellable;
  WsTrace         **traces;   /* n_paths: filled by the workers */
  GError          **errors;   /* n_paths */
  gint              next;     /* the next path to take, atomically */
} Batch;

static gpointer
load_worker (gpointer data)
{
  Batch *batch = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&batch->next, 1)) < batch->n_paths)
    batch->traces[i] = ws_trace_loader_load_full (batch->paths[i], NULL, batch->rules, NULL, NULL,
                                                  batch->cancellable, &batch->errors[i]);
  return NULL;
}

/* Threads to load with: one per core, or WAITSCOPE_LOAD_THREADS (1 loads
 * on the calling thread alone, as before). */
static guint
n_load_threads (guint n_paths)
{
  return CLAMP (ws_threads_from_env ("WAITSCOPE_LOAD_THREADS"), 1, MAX (n_paths, 1));
}

/* Standard input and pipes are read once, as they come: not in parallel. */
static gboolean
all_regular_files (char **paths)
{
  for (guint i = 0; paths[i] != NULL; i++)
    {
      GStatBuf st;

      if (g_strcmp0 (paths[i], "-") == 0 || g_stat (paths[i], &st) != 0
          || !(S_ISREG (st.st_mode) || S_ISDIR (st.st_mode)))
        return FALSE;
    }
  return TRUE;
}

/**
 * ws_trace_loader_load_many:
 * @paths: (array zero-terminated=1): the traces
 * @stacks: the stack table they share (stacks compare by id across them)
 * @rules: (nullable): the scenario rules, or %NULL for the built-in ones
 *
 * Loads every path, one per core at a time, into @stacks.  The result is
 * the same as loading each in turn with ws_trace_loader_load_full() into
 * @stacks; so is the error: the one of the first path, in the order
 * given, that fails.
 *
 * Returns: (transfer full) (element-type WsTrace): the traces in the order
 *   of @paths, or %NULL with @error set
 */
GPtrArray *
ws_trace_loader_load_many (char            **paths,
                           WsStackTable     *stacks,
                           WsScenarioRules  *rules,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Batch batch = { paths, paths ? g_strv_length (paths) : 0, rules, cancellable };
  guint n_threads;
  GError *failed = NULL;

  g_return_val_if_fail (paths != NULL && WS_IS_STACK_TABLE (stacks), NULL);

  n_threads = all_regular_files (paths) ? n_load_threads (batch.n_paths) : 1;
  if (n_threads == 1)
    {
      for (guint i = 0; i < batch.n_paths; i++)
        {
          WsTrace *trace = ws_trace_loader_load_full (paths[i], stacks, rules, NULL, NULL, cancellable, error);

          if (trace == NULL)
            return NULL;
          g_ptr_array_add (traces, trace);
        }
      return g_steal_pointer (&traces);
    }

  batch.traces = g_new0 (WsTrace *, batch.n_paths);
  batch.errors = g_new0 (GError *, batch.n_paths);
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("ws-load", load_worker, &batch));
  load_worker (&batch);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));

  for (guint i = 0; i < batch.n_paths; i++)
    {
      if (failed == NULL && batch.traces[i] == NULL)
        failed = g_steal_pointer (&batch.errors[i]);
      if (failed == NULL)
        {
          ws_trace_move_to_stack_table (batch.traces[i], stacks);
          g_ptr_array_add (traces, batch.traces[i]);
        }
      else
        g_clear_object (&batch.traces[i]);
      g_clear_error (&batch.errors[i]);
    }
  g_free (batch.traces);
  g_free (batch.errors);
  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      return NULL;
    }
  return g_steal_pointer (&traces);
}
