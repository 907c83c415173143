/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * trace-cmd (ftrace) `.dat` files, read through libtracecmd and
 * libtraceevent (docs/importers.md, "trace-cmd .dat").
 *
 * The scheduler events are the ones perf records from the same
 * tracepoints, so they are handed, decoded, to the perf importer's first
 * pass (ws_perf_parser_add_record() and friends) and derived by its second
 * (ws_perf_derive()): the same events make the same waits, readiers,
 * preemptions and spans whichever tool recorded them.  What ftrace adds or
 * lacks:
 *
 *  - a kernel stack (`trace-cmd record -T`, the stacktrace option) is a
 *    separate `ftrace:kernel_stack` event right after its event on the
 *    same CPU: it is held per CPU until the next event there;
 *  - ftrace events carry thread ids only, no process id: a thread's
 *    process comes from `task:task_newtask` (CLONE_THREAD) and
 *    `sched:sched_process_fork` when the file has them, and is otherwise
 *    unknown (each such thread is a process of its own);
 *  - the interrupt context is in each event's flags: a wake-up from a
 *    hard interrupt has no readier thread even without a stack.
 *
 * libtracecmd reads a file by its path, so a stream or a gzip-compressed
 * file is first copied (inflated, bounded) to a temporary file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "ws-importer.h"
#include "ws-importer-open.h"
#include "ws-perf-private.h"
#include "ws-tracecmd-importer.h"

/* "\027\010Dtracing": the first ten bytes of every trace-cmd file. */
static const guint8 tracecmd_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/**
 * ws_tracecmd_importer_sniff:
 * @head: the first bytes of a file, inflated if it was gzip
 *
 * Returns: whether they start a trace-cmd `.dat` file (any version)
 */
gboolean
ws_tracecmd_importer_sniff (const guint8 *head,
                            gsize         len)
{
  g_return_val_if_fail (head != NULL || len == 0, FALSE);

  return len >= sizeof tracecmd_magic && memcmp (head, tracecmd_magic, sizeof tracecmd_magic) == 0;
}

/*
 * Copies @stream (inflating gzip, within the decompression ceiling) to a
 * temporary file for libtracecmd.  Returns: (transfer full) (nullable):
 * its path; the caller unlinks it.
 */
static char *
copy_to_temp_file (GInputStream  *stream,
                   const char    *display_name,
                   gboolean       compressed,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GInputStream) input = ws_importer_text_stream (stream, compressed);
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  int fd;

  fd = g_file_open_tmp ("waitscope-XXXXXX.dat", &path, &local_error);
  if (fd < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  output = g_unix_output_stream_new (fd, TRUE);
  if (g_output_stream_splice (output, input,
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              cancellable, &local_error) < 0)
    {
      WsError code = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? WS_ERROR_CANCELLED
                     : local_error->domain == WS_ERROR ? (WsError) local_error->code : WS_ERROR_IO;

      g_unlink (path);
      g_set_error (error, WS_ERROR, code, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  return g_steal_pointer (&path);
}


/* Reads @path (a plain .dat) under the name @display_name. */
static WsTrace *
load_plain (const char      *path,
            const char      *display_name,
            WsStackTable    *stacks,
            WsProgressFunc   progress,
            gpointer         progress_data,
            GCancellable    *cancellable,
            GError         **error);

/* libtracecmd reads a path: @stream goes to a temporary file first. */
static WsTrace *
load_copy (GInputStream   *stream,
           const char     *display_name,
           gboolean        compressed,
           WsStackTable   *stacks,
           WsProgressFunc  progress,
           gpointer        progress_data,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autofree char *temp = copy_to_temp_file (stream, display_name, compressed, cancellable, error);
  WsTrace *trace;

  if (temp == NULL)
    return NULL;
  trace = load_plain (temp, display_name, stacks, progress, progress_data, cancellable, error);
  g_unlink (temp);
  return trace;
}

/**
 * ws_tracecmd_importer_load:
 * @path: a trace-cmd `.dat` file, plain or gzip-compressed
 * @stacks: (nullable): a stack table to share with other traces
 *
 * Returns: (transfer full): the trace, or %NULL with @error set to a
 *   %WS_ERROR whose message starts "PATH:1: "
 */
WsTrace *
ws_tracecmd_importer_load (const char     *path,
                           WsStackTable   *stacks,
                           WsProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  gboolean compressed = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((stream = ws_importer_open_file (path, &compressed, cancellable, error)) == NULL)
    return NULL;
  if (!compressed)
    {
      /* libtracecmd reads the file by its path. */
      g_clear_object (&stream);
      return load_plain (path, path, stacks, progress, progress_data, cancellable, error);
    }
  return load_copy (G_INPUT_STREAM (stream), path, TRUE, stacks, progress, progress_data, cancellable, error);
}

static WsTrace *
tracecmd_load_stream (GInputStream   *stream,
                      const char     *display_name,
                      gboolean        compressed,
                      WsStackTable   *stacks,
                      WsProgressFunc  progress,
                      gpointer        progress_data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  return load_copy (stream, display_name ? display_name : "stdin", compressed, stacks, progress,
                    progress_data, cancellable, error);
}

#ifndef HAVE_LIBTRACECMD

static WsTrace *
load_plain (const char      *path,
            const char      *display_name,
            WsStackTable    *stacks,
            WsProgressFunc   progress,
            gpointer         progress_data,
            GCancellable    *cancellable,
            GError         **error)
{
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s:1: %s", display_name,
               _("a trace-cmd file, but this build of Waitscope cannot read trace-cmd files: "
                 "it was built without libtracecmd (Debian: libtracecmd-dev)"));
  return NULL;
}

#else

#include "ws-tracecmd-reader.h"

static WsTrace *
load_plain (const char      *path,
            const char      *display_name,
            WsStackTable    *stacks,
            WsProgressFunc   progress,
            gpointer         progress_data,
            GCancellable    *cancellable,
            GError         **error)
{
  return ws_tracecmd_read (path, display_name, stacks, progress, progress_data, cancellable, error);
}

#endif

static const char * const tracecmd_patterns[] = { "*.dat", "*.dat.gz", NULL };

const WsImporter ws_tracecmd_importer = {
  .id = "trace-cmd",
  .name = N_("trace-cmd (ftrace) .dat"),
  .patterns = tracecmd_patterns,
  .sniff = ws_tracecmd_importer_sniff,
  .load_file = ws_tracecmd_importer_load,
  .load_stream = tracecmd_load_stream,
};
