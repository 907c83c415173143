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
#include <string.h>

#include "ws-ctf-importer.h"
#include "ws-error.h"
#include "ws-importer.h"
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

/* ------------------------------------------------------------------ */
/* Loading many traces without holding them                             */

typedef struct {
  char            **paths;
  guint             n_paths;
  WsScenarioRules  *rules;
  GCancellable     *cancellable;   /* the caller's, or the fold's own when it fails */
  WsTraceMapFunc    map;
  gpointer          data;
  GMutex            lock;
  GCond             ready;         /* a part was stored */
  gpointer         *parts;         /* n_paths: each trace's part, until folded */
  GError          **errors;        /* n_paths */
  gboolean         *done;          /* n_paths */
  gint              next;          /* the next path to take, atomically */
} Stream;

static void
cancel_too (GCancellable *cancellable,
            gpointer      stop)
{
  g_cancellable_cancel (stop);
}

/* Loads, maps and drops one trace: no worker holds more than one. */
static void
stream_one (Stream *s,
            guint   i)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load_full (s->paths[i], NULL, s->rules, NULL, NULL,
                                                        s->cancellable, &error);
  gpointer part = NULL;

  if (trace != NULL)
    part = s->map (i, trace, s->data, s->cancellable, &error);
  g_clear_object (&trace);
  g_mutex_lock (&s->lock);
  s->parts[i] = part;
  s->errors[i] = g_steal_pointer (&error);
  s->done[i] = TRUE;
  g_cond_signal (&s->ready);
  g_mutex_unlock (&s->lock);
}

static gpointer
stream_worker (gpointer data)
{
  Stream *s = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&s->next, 1)) < s->n_paths)
    stream_one (s, i);
  return NULL;
}

/**
 * ws_trace_loader_fold_many:
 * @paths: (array zero-terminated=1): the traces
 * @rules: (nullable): the scenario rules, or %NULL for the built-in ones
 * @map: reduces one loaded trace to what the caller keeps of it; runs on a
 *   loading thread, one trace per core at a time, and the trace is freed
 *   as soon as it returns
 * @fold: takes each part (even when it fails), on the calling thread, in
 *   the order of @paths
 * @free_part: frees a part that is not folded (after an error)
 *
 * Loads every path as ws_trace_loader_load_many() does, one per core at a
 * time, but keeps none of them: memory is a trace per loading thread plus
 * the parts, never the traces.  Each trace has a stack table of its own
 * (the parts must not point into it).  The parts are folded in the order
 * given whatever order the traces finish in, so the result is the one of
 * loading, mapping and folding them one after another; so is the error:
 * the one of the first path, in the order given, that fails to load, map
 * or fold.  After it nothing more is folded.
 *
 * Returns: %TRUE if every trace was loaded, mapped and folded
 */
gboolean
ws_trace_loader_fold_many (char             **paths,
                           WsScenarioRules   *rules,
                           GCancellable      *cancellable,
                           WsTraceMapFunc     map,
                           WsTraceFoldFunc    fold,
                           GDestroyNotify     free_part,
                           gpointer           data,
                           GError           **error)
{
  return ws_trace_loader_fold_many_full (paths, rules, cancellable, map, fold, NULL, free_part, data, error);
}

/**
 * ws_trace_loader_fold_many_full:
 * @failed: (nullable): takes the error of a trace that could not be loaded
 *   or mapped, on the calling thread, in the order of @paths, and the
 *   fold goes on without it; %NULL: the first such error stops the fold
 *   (ws_trace_loader_fold_many())
 *
 * ws_trace_loader_fold_many() that can go on past traces it cannot read,
 * as `digest` does over many traces: each is named, the others are
 * folded.  A cancellation still stops it, and a fold's own failure too.
 *
 * Returns: %TRUE if every trace was loaded, mapped and folded, or handed
 *   to @failed
 */
gboolean
ws_trace_loader_fold_many_full (char             **paths,
                                WsScenarioRules   *rules,
                                GCancellable      *cancellable,
                                WsTraceMapFunc     map,
                                WsTraceFoldFunc    fold,
                                WsTraceFailFunc    failed_func,
                                GDestroyNotify     free_part,
                                gpointer           data,
                                GError           **error)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  Stream s = { paths, paths ? g_strv_length (paths) : 0, rules, stop, map, data };
  gulong relay = 0;
  GError *failed = NULL;
  guint n_threads;

  g_return_val_if_fail (paths != NULL && map != NULL && fold != NULL, FALSE);

  /* The caller's cancellable stops the loads through our own, which a
   * failure cancels too: the traces after a failed one are not needed. */
  if (cancellable != NULL)
    relay = g_cancellable_connect (cancellable, G_CALLBACK (cancel_too), stop, NULL);
  g_mutex_init (&s.lock);
  g_cond_init (&s.ready);
  s.parts = g_new0 (gpointer, MAX (s.n_paths, 1));
  s.errors = g_new0 (GError *, MAX (s.n_paths, 1));
  s.done = g_new0 (gboolean, MAX (s.n_paths, 1));

  /* Pipes and standard input are read one after another, on this thread. */
  n_threads = all_regular_files (paths) ? n_load_threads (s.n_paths) : 0;
  for (guint t = 0; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("ws-load-fold", stream_worker, &s));

  for (guint i = 0; i < s.n_paths; i++)
    {
      gpointer part;
      GError *e;

      if (n_threads == 0 && failed == NULL)
        stream_one (&s, i);
      g_mutex_lock (&s.lock);
      while (!s.done[i] && n_threads > 0)
        g_cond_wait (&s.ready, &s.lock);
      part = g_steal_pointer (&s.parts[i]);
      e = g_steal_pointer (&s.errors[i]);
      g_mutex_unlock (&s.lock);

      /* Not read: handed over and passed by, unless the run was cancelled
       * (then every load after it fails, and the run must stop). */
      if (failed == NULL && e != NULL && failed_func != NULL && !g_cancellable_is_cancelled (cancellable))
        {
          g_assert (part == NULL);
          failed_func (i, g_steal_pointer (&e), data);
          continue;
        }
      if (failed == NULL && e == NULL && !fold (i, part, data, &e))
        part = NULL;   /* fold took it, and failed */
      else if (failed == NULL && e == NULL)
        continue;      /* folded */
      if (part != NULL && free_part != NULL)
        free_part (part);
      if (failed == NULL && e != NULL)
        {
          failed = e;
          g_cancellable_cancel (stop);
        }
      else
        g_clear_error (&e);
      if (n_threads == 0 && failed != NULL)
        break;
    }

  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));
  if (relay != 0)
    g_cancellable_disconnect (cancellable, relay);
  g_free (s.parts);
  g_free (s.errors);
  g_free (s.done);
  g_mutex_clear (&s.lock);
  g_cond_clear (&s.ready);

  if (failed == NULL && g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* A folder of traces                                                   */

/* Whether @name matches a file-name pattern of a registered importer (the
 * Open dialog's "All Traces" filter), but for CTF's "metadata", which is a
 * part of a trace folder, not a trace. */
static gboolean
named_like_a_trace (const char *name)
{
  guint n;
  const WsImporter * const *importers = ws_importers_get (&n);

  for (guint i = 0; i < n; i++)
    for (guint k = 0; importers[i]->patterns[k] != NULL; k++)
      if (strchr (importers[i]->patterns[k], '*') != NULL && g_pattern_match_simple (importers[i]->patterns[k], name))
        return TRUE;
  return FALSE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * ws_trace_loader_expand_folder:
 * @path: a trace file, or a folder
 *
 * The traces @path stands for when many are opened together: a file is
 * itself; so is a folder the loader reads as one trace (LTTng CTF: a
 * `metadata` file a few levels down, ws_ctf_find_metadata()); any other folder stands for its files named as a trace
 * format names them (the Open dialog's "All Traces" patterns), hidden
 * files and sub-folders left out, sorted by name (bytes) so that the
 * fleet's order is the same on every run.
 *
 * Returns: (transfer full): the paths, perhaps none, or %NULL with @error
 *   set (naming @path) when the folder cannot be read
 */
GStrv
ws_trace_loader_expand_folder (const char  *path,
                               GError     **error)
{
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *metadata = NULL;
  const char *name;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || (metadata = ws_ctf_find_metadata (path)) != NULL)
    {
      g_strv_builder_add (out, path);
      return g_strv_builder_end (out);
    }
  if ((dir = g_dir_open (path, 0, &local_error)) == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s: %s", path, local_error->message);
      return NULL;
    }
  files = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = NULL;

      if (name[0] == '.' || !named_like_a_trace (name))
        continue;
      file = g_build_filename (path, name, NULL);
      if (g_file_test (file, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, g_steal_pointer (&file));
    }
  g_ptr_array_sort (files, compare_paths);
  for (guint i = 0; i < files->len; i++)
    g_strv_builder_add (out, g_ptr_array_index (files, i));
  return g_strv_builder_end (out);
}
