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

/* Whether every "sample_type: A|B|…" line of `perf evlist -v` has @bit. */
static gboolean
all_have (char       **lines,
          const char  *bit)
{
  gboolean any = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *st = strstr (lines[i], "sample_type: ");
      g_autofree char *pattern = NULL;
      const char *end;
      g_autofree char *types = NULL;
      g_autofree char *field = NULL;

      if (st == NULL || g_str_has_prefix (lines[i], "dummy:"))
        continue;
      st += 13;
      end = strchr (st, ',');
      field = end ? g_strndup (st, end - st) : g_strdup (st);
      types = g_strconcat ("|", field, "|", NULL);
      pattern = g_strconcat ("|", bit, "|", NULL);
      if (strstr (types, pattern) == NULL)
        return FALSE;
      any = TRUE;
    }
  return any;
}

/*
 * The fields to ask `perf script` for: only those every event of the file
 * recorded, since perf refuses the whole file otherwise ("Samples for
 * 'cpu-clock' event do not have CPU attribute set", a recording made
 * without -a).  `perf evlist -v` says what each event has; if it cannot,
 * the full list is tried.
 */
/*
 * The perf command: the one in PATH, or inside a Flatpak sandbox (which
 * has no perf) the host's, through `flatpak-spawn --host` (the manifest
 * grants talking to org.freedesktop.Flatpak).  %NULL when there is none.
 */
static GStrv
perf_command (void)
{
  g_autofree char *perf = g_find_program_in_path ("perf");

  if (perf != NULL)
    return g_strdupv ((char *[]) { perf, NULL });
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return g_strdupv ((char *[]) { (char *) "flatpak-spawn", (char *) "--host", (char *) "perf", NULL });
  return NULL;
}

/* @perf followed by @args. */
static GStrv
perf_argv (GStrv               perf,
           const char * const *args)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  g_strv_builder_addv (b, (const char **) perf);
  g_strv_builder_addv (b, (const char **) args);
  return g_strv_builder_end (b);
}

static char *
choose_fields (GStrv       perf,
               const char *path)
{
  g_auto(GStrv) argv = perf_argv (perf, (const char *[]) { "evlist", "-v", "-i", path, NULL });
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int status = -1;
  GString *fields;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL | G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, NULL, &status, NULL) || !g_spawn_check_wait_status (status, NULL) ||
      out == NULL)
    return g_strdup ("comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period");

  if (strstr (out, "sample_type: ") == NULL)
    return g_strdup ("comm,tid,pid,cpu,time,event,trace,ip,sym,dso,period");
  lines = g_strsplit (out, "\n", -1);
  fields = g_string_new ("comm,tid,pid");
  if (all_have (lines, "CPU"))
    g_string_append (fields, ",cpu");
  if (all_have (lines, "TIME"))
    g_string_append (fields, ",time");
  g_string_append (fields, ",event");
  if (strstr (out, "type: 2,") != NULL)   /* a tracepoint: its fields */
    g_string_append (fields, ",trace");
  g_string_append (fields, ",ip,sym,dso");
  if (all_have (lines, "PERIOD"))
    g_string_append (fields, ",period");
  return g_string_free (fields, FALSE);
}

/* perf's stderr without its "'trace' not valid for hardware events.
 * Ignoring." lines: they answer the -F we chose, not the user's file, and
 * buried the reason under them. */
static char *
drop_field_warnings (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *kept = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], " not valid for ") != NULL && strstr (lines[i], "Ignoring") != NULL)
        continue;
      if (kept->len > 0)
        g_string_append_c (kept, '\n');
      g_string_append (kept, lines[i]);
    }
  return g_string_free (kept, FALSE);
}

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
  g_auto(GStrv) perf = perf_command ();
  g_auto(GStrv) argv = NULL;
  g_autofree char *stderr_path = NULL;
  g_autofree char *stderr_text = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autofree char *fields = NULL;
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

  if (!ws_perf_data_check_header (display_name, path, error))
    return NULL;
  fields = choose_fields (perf, path);

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
  argv = perf_argv (perf, (const char *[]) { "script", "-i", path, "-F", fields,
                                            "--show-task-events", NULL });
  subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &local_error);
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
      g_autofree char *why = g_strstrip (drop_field_warnings (stderr_text ? stderr_text : ""));
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

