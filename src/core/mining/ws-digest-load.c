/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Many traces reduced to one digest as they are loaded, none of them held:
 * what `mine` and `cluster` over traces run on when their settings fit a
 * digest.  Each trace is loaded and reduced on a loading thread, one per
 * core (ws_trace_loader_fold_many()), and freed at once; its one-trace
 * digest is merged into the result in the order the paths were given.  The
 * memory is the merged digest's — distinct stacks, and each trace's
 * distinct stacks with their costs — plus a trace per loading thread,
 * whatever the number of traces.
 *
 * The result is the digest `digest` would write of each trace, merged in
 * the order given, so a run over it is the run over the digests, which
 * prints what the run over the traces prints (tests/test-digest.py,
 * tests/test-mining-stream-cli.py).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-trace-loader.h"

typedef struct {
  WsDigestReadFlags  skip;
  guint              areas;
  WsDigest          *all;
  /* ws_digest_load_traces_each() only */
  char             **paths;
  guint              n_paths;
  guint              n_done;     /* folded or passed by, in order */
  GPtrArray         *failed;
  WsProgressFunc     progress;
  gpointer           progress_data;
} Load;

/* "Trace k of n" once the k-th, in the order given, is done with. */
static void
one_done (Load  *load,
          guint  index)
{
  g_autofree char *name = NULL, *message = NULL;

  load->n_done++;
  if (load->progress == NULL)
    return;
  /* A label shows it: UTF-8 whatever the file name's bytes. */
  name = g_filename_display_basename (load->paths[index]);
  /* Translators: progress of opening traces as a fleet; the last is a file name */
  message = g_strdup_printf (_("Trace %u of %u: %s"), load->n_done, load->n_paths, name);
  load->progress ((double) load->n_done / MAX (load->n_paths, 1), message, load->progress_data);
}

/* On a loading thread: the trace's digest, over a table of its own. */
static gpointer
reduce (guint          index,
        WsTrace       *trace,
        gpointer       data,
        GCancellable  *cancellable,
        GError       **error)
{
  Load *load = data;
  g_autoptr(WsDigest) one = ws_digest_new ();

  if (!ws_digest_add_trace_full (one, trace, load->skip, load->areas, cancellable, error))
    return NULL;
  return g_steal_pointer (&one);
}

/* On the calling thread, in the order of the paths. */
static gboolean
merge (guint      index,
       gpointer   part,
       gpointer   data,
       GError   **error)
{
  Load *load = data;
  g_autoptr(WsDigest) one = part;

  /* The first is taken as it is, not copied. */
  if (load->all == NULL)
    load->all = g_steal_pointer (&one);
  else
    ws_digest_merge (load->all, one);
  if (load->paths != NULL)
    one_done (load, index);
  return TRUE;
}

/* A trace that could not be read, named and passed by. */
static void
pass_by (guint    index,
         GError  *error,
         gpointer data)
{
  Load *load = data;

  g_ptr_array_add (load->failed, error);
  one_done (load, index);
}

/**
 * ws_digest_load_traces:
 * @paths: (array zero-terminated=1): trace files (any format the importers
 *   read)
 * @rules: (nullable): the scenario rules, or %NULL for the built-in ones
 * @skip: the parts of each trace's digest the run will not read
 * @areas: the areas to reduce (ws_digest_add_trace_full())
 *
 * Loads and reduces every trace, one per core at a time, holding none.
 *
 * Returns: (transfer full): the traces' digest, in the order of @paths, or
 *   %NULL with @error set: the error of the first path, in that order,
 *   that could not be read
 */
WsDigest *
ws_digest_load_traces (char               **paths,
                       WsScenarioRules     *rules,
                       WsDigestReadFlags    skip,
                       guint                areas,
                       GCancellable        *cancellable,
                       GError             **error)
{
  Load load = { skip, areas, NULL };

  g_return_val_if_fail (paths != NULL, NULL);

  if (!ws_trace_loader_fold_many (paths, rules, cancellable, reduce, merge, (GDestroyNotify) ws_digest_unref,
                                  &load, error))
    {
      g_clear_pointer (&load.all, ws_digest_unref);
      return NULL;
    }
  return load.all != NULL ? load.all : ws_digest_new ();
}

/**
 * ws_digest_load_traces_each:
 * @paths: (array zero-terminated=1): trace files
 * @rules: (nullable): the scenario rules, or %NULL for the built-in ones
 * @skip: the parts of each trace's digest the run will not read
 * @areas: the areas to reduce
 * @progress: (nullable): told "trace k of n" as each trace, in the order
 *   given, is folded or passed by
 * @failed: (element-type GError): where each trace that could not be read
 *   goes, in the order given (its message names the file and the place)
 *
 * ws_digest_load_traces() that goes on past traces it cannot read, as
 * `waitscope-cli digest` over many traces does (each named, the others
 * reduced) and the fleet driver after it (tools/fleet/fleet.py: the rest
 * mined): the window's File → Open Traces as a Fleet.  The digest is the
 * one ws_digest_load_traces() gives over the traces that could be read.
 *
 * Returns: (transfer full): the readable traces' digest (perhaps of none),
 *   or %NULL with @error set when cancelled
 */
WsDigest *
ws_digest_load_traces_each (char               **paths,
                            WsScenarioRules     *rules,
                            WsDigestReadFlags    skip,
                            guint                areas,
                            WsProgressFunc       progress,
                            gpointer             progress_data,
                            GPtrArray           *failed,
                            GCancellable        *cancellable,
                            GError             **error)
{
  Load load = { skip, areas, NULL, paths, 0, 0, failed, progress, progress_data };

  g_return_val_if_fail (paths != NULL && failed != NULL, NULL);

  load.n_paths = g_strv_length (paths);
  if (!ws_trace_loader_fold_many_full (paths, rules, cancellable, reduce, merge, pass_by,
                                       (GDestroyNotify) ws_digest_unref, &load, error))
    {
      g_clear_pointer (&load.all, ws_digest_unref);
      return NULL;
    }
  return load.all != NULL ? load.all : ws_digest_new ();
}

/**
 * ws_digest_load_spans:
 * @paths: (array zero-terminated=1): the traces of a fleet read without
 *   their contrast instances (%WS_DIGEST_READ_SKIP_INSTANCES), in its order
 * @hashes: (array zero-terminated=1): each one's content hash as the fleet
 *   recorded it
 * @progress: (nullable): told "trace k of n" as each trace is read
 * @failed: (element-type GError): each trace left out, in the order given:
 *   one that cannot be read (moved, removed: the loader's message) or whose
 *   content is no longer the one the fleet was made of
 *
 * Reads the traces again for what a contrast by trace class reads — the
 * thread spans with their wait graphs, and the programs — and nothing of
 * what mining reads: the second pass of a fleet opened for mining alone
 * (ws-window-fleet.c), so that its memory stays flat until Contrast is
 * asked for.  Each trace is reduced by the call a fleet that kept its spans
 * makes (%WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES), so the contrast over
 * the result is the contrast over that fleet.  A trace whose content hash
 * differs from @hashes is never used: the fleet's mining was of the other.
 *
 * Returns: (transfer full): a digest of the traces kept, in the order of
 *   @paths, holding their instances and no areas, or %NULL with @error set
 *   when cancelled
 */
WsDigest *
ws_digest_load_spans (char               **paths,
                      char               **hashes,
                      WsProgressFunc       progress,
                      gpointer             progress_data,
                      GPtrArray           *failed,
                      GCancellable        *cancellable,
                      GError             **error)
{
  g_autoptr(WsDigest) read = NULL;
  g_autoptr(GArray) keep = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n;

  g_return_val_if_fail (paths != NULL && hashes != NULL && failed != NULL, NULL);
  n = g_strv_length (paths);
  g_return_val_if_fail (g_strv_length (hashes) == n, NULL);

  read = ws_digest_load_traces_each (paths, NULL,
                                     WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_SCENARIO_INSTANCES,
                                     0, progress, progress_data, failed, cancellable, error);
  if (read == NULL)
    return NULL;
  /* The traces read are in the order of @paths, the unreadable left out. */
  for (guint i = 0, p = 0; i < ws_digest_get_n_traces (read); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (read, i);

      while (p < n && !g_str_equal (paths[p], t->path))
        p++;
      if (p < n && g_str_equal (hashes[p], t->content_hash))
        g_array_append_val (keep, i);
      else
        {
          g_autofree char *shown = g_filename_display_name (t->path);

          g_ptr_array_add (failed,
                           g_error_new (WS_ERROR, WS_ERROR_INVALID,
                                        /* Translators: %s is a trace's path */
                                        _("%s: changed since the fleet was opened (its content is not the one "
                                          "mined): left out; open the traces as a fleet again to contrast it"),
                                        shown));
        }
      p += p < n;
    }
  return ws_digest_take_selected (read, (const guint *) (gpointer) keep->data, keep->len);
}

/**
 * ws_digest_count_instances:
 *
 * Returns: how many contrast instances (scenario instances and thread
 *   spans, each with its wait graph) @self's traces hold: none for a fleet
 *   read for mining alone
 */
guint
ws_digest_count_instances (WsDigest *self)
{
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint i = 0; i < ws_digest_get_n_traces (self); i++)
    n += ws_digest_get_trace (self, i)->instances->len;
  return n;
}

/* What a trace's thread spans take in a fleet's digest: a line through
 * the two traces measured on the window's fleet (docs/performance.md, "A
 * fleet in the window"), a PostgreSQL trace's spans 5.5 MB for its 26,509
 * waits and a run of the recorded service fleet's 0.3 MB for 559.  A
 * guess, said as one ("about"): the graphs grow with the waits of the
 * programs the spans follow, not with all of the trace's. */
#define SPAN_BYTES_FIXED    190e3
#define SPAN_BYTES_PER_WAIT 200.0

/**
 * ws_digest_guess_span_bytes:
 *
 * What reading @self's traces again for their thread spans
 * (ws_digest_load_spans()) will likely add, a trace on average: a guess
 * from their waits, which the wait graphs grow with, for the Contrast
 * page's line to say before the analyst asks.
 *
 * Returns: bytes
 */
guint64
ws_digest_guess_span_bytes (WsDigest *self)
{
  guint64 waits = 0;
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  if ((n = ws_digest_get_n_traces (self)) == 0)
    return 0;
  for (guint i = 0; i < n; i++)
    waits += ws_digest_get_trace (self, i)->n_waits;
  return (guint64) (SPAN_BYTES_FIXED + (double) waits / n * SPAN_BYTES_PER_WAIT);
}
