/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf.data files are read through `perf script` (it knows the symbols,
 * the build-id cache and every format version), whose text is parsed as a
 * stream.
 */
#include "config.h"

#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "ws-perf-private.h"

/*
 * A perf.data file is read through `perf script` (it knows the symbols,
 * the build-id cache and every format version), parsed as a stream.
 */
WsTrace *
ws_perf_script_load (const char        *display_name,
                const char        *path,
                WsStackTable      *stacks,
                WsPerfImportStats *stats,
                WsProgressFunc     progress,
                gpointer           progress_data,
                GCancellable      *cancellable,
                GError           **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) perf_error = NULL;
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autofree char *stderr_path = NULL;
  g_autofree char *stderr_text = NULL;
  g_autoptr(WsTrace) trace = NULL;
  int fd;

  if (perf == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO,
                   _("%s:1: this is a perf.data file; reading it needs the “perf” program "
                     "(Debian package linux-perf), which is not installed. "
                     "Install it, or convert the file with “perf script” first."),
                   display_name);
      return NULL;
    }

  /* perf's warnings go to a file: a full stderr pipe would block it. */
  fd = g_file_open_tmp ("waitscope-perf-XXXXXX.txt", &stderr_path, &local_error);
  if (fd < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  close (fd);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_stderr_file_path (launcher, stderr_path);
  subprocess = g_subprocess_launcher_spawn (launcher, &local_error,
                                            perf, "script", "-f", "-i", path,
                                            "-F", "comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period",
                                            "--show-task-events", NULL);
  if (subprocess == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, _("%s:1: could not run perf script: %s"),
                   display_name, local_error->message);
      g_unlink (stderr_path);
      return NULL;
    }

  trace = ws_perf_load_source (display_name, NULL, g_subprocess_get_stdout_pipe (subprocess), 0,
                       stacks, stats, progress, progress_data, cancellable, &local_error);
  if (trace == NULL)
    g_subprocess_force_exit (subprocess);
  g_subprocess_wait (subprocess, NULL, NULL);

  g_file_get_contents (stderr_path, &stderr_text, NULL, NULL);
  g_unlink (stderr_path);

  if (trace == NULL && g_error_matches (local_error, WS_ERROR, WS_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (!g_subprocess_get_if_exited (subprocess) || g_subprocess_get_exit_status (subprocess) != 0)
    {
      /* perf's own words say best what is wrong with the file. */
      g_autofree char *why = g_strstrip (g_strdup (stderr_text ? stderr_text : ""));
      if (strlen (why) > 2000)
        why[2000] = '\0';
      g_set_error (error, WS_ERROR, WS_ERROR_PARSE, _("%s:1: perf script failed: %s"),
                   display_name, *why ? why : _("no message"));
      return NULL;
    }

  if (trace == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return g_steal_pointer (&trace);
}

/* A perf.data from a stream: perf needs a file, so copy it to one. */
WsTrace *
ws_perf_script_load_stream (const char        *display_name,
                       Source            *src,
                       WsStackTable      *stacks,
                       WsPerfImportStats *stats,
                       WsProgressFunc     progress,
                       gpointer           progress_data,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileIOStream) io = NULL;
  g_autoptr(GFile) tmp_file = NULL;
  WsTrace *trace;
  GOutputStream *out;
  gsize written;

  tmp_file = g_file_new_tmp ("waitscope-XXXXXX.data", &io, &local_error);
  if (tmp_file == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      return NULL;
    }
  out = g_io_stream_get_output_stream (G_IO_STREAM (io));
  if (!g_output_stream_write_all (out, src->head, src->head_len, &written, cancellable, &local_error) ||
      g_output_stream_splice (out, src->stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              cancellable, &local_error) < 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_IO, "%s:1: %s", display_name, local_error->message);
      g_file_delete (tmp_file, NULL, NULL);
      return NULL;
    }

  {
    g_autofree char *tmp_path = g_file_get_path (tmp_file);
    trace = ws_perf_script_load (display_name, tmp_path, stacks, stats, progress, progress_data,
                            cancellable, error);
  }
  g_file_delete (tmp_file, NULL, NULL);
  return trace;
}

