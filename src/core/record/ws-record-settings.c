/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What to record and the `perf record` command line for it.  The events
 * are those the perf importer turns into waits, wake-ups and samples; the
 * line for "the whole system, 5 s" is the one Waitscope prints wherever it
 * tells users what to record (WS_PERF_RECORD_WAITS_COMMAND, a test keeps
 * them equal).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-record-settings.h"

/* Scheduler tracepoints with every hit kept (period 1), and CPU samples at
 * 499 Hz on cpu-clock alone: a global -F would frequency-sample the
 * tracepoints too and silently drop most switches. */
static const char * const record_events[] = {
  "-e", "sched:sched_switch",
  "-e", "sched:sched_waking",
  "-e", "sched:sched_wakeup",
  "-e", "cpu-clock/freq=499,name=cpu-clock/",
};

/* The block layer's requests: whose I/O was in a device's queue while a
 * thread waited for its own (docs/attribution.md, "Behind the cause").
 * Left out only where the kernel has no such tracepoints
 * (WsRecordSettings.skip_block_requests): perf would refuse to start. */
static const char * const block_events[] = {
  "-e", "block:block_rq_issue",
  "-e", "block:block_rq_complete",
};

WsRecordSettings *
ws_record_settings_new (void)
{
  WsRecordSettings *settings = g_new0 (WsRecordSettings, 1);

  settings->target = WS_RECORD_SYSTEM;
  settings->duration = 5.0;
  settings->pid = -1;
  return settings;
}

void
ws_record_settings_free (WsRecordSettings *settings)
{
  if (settings == NULL)
    return;
  g_strfreev (settings->command);
  g_free (settings->output);
  g_free (settings);
}

/**
 * ws_record_settings_check:
 *
 * Whether @settings describe a recording that can be started: a command
 * to run, a pid that exists, a duration for a pid or the system, an
 * output file.  Errors are %WS_ERROR_INVALID with a sentence for the user.
 */
gboolean
ws_record_settings_check (const WsRecordSettings *settings,
                          GError                **error)
{
  if (settings->output == NULL || settings->output[0] == '\0')
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("No output file for the recording."));
      return FALSE;
    }
  if (!(settings->duration >= 0 && settings->duration <= WS_RECORD_MAX_DURATION))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("The duration must be between 0 and 24 hours."));
      return FALSE;
    }
  switch (settings->target)
    {
    case WS_RECORD_COMMAND:
      if (settings->command == NULL || settings->command[0] == NULL || settings->command[0][0] == '\0')
        {
          g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("No command to record."));
          return FALSE;
        }
      return TRUE;
    case WS_RECORD_PID:
      {
        g_autofree char *proc = g_strdup_printf ("/proc/%d", settings->pid);
        if (settings->pid <= 0 || !g_file_test (proc, G_FILE_TEST_IS_DIR))
          {
            g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No process with pid %d."), settings->pid);
            return FALSE;
          }
      }
      G_GNUC_FALLTHROUGH;
    case WS_RECORD_SYSTEM:
    default:
      if (settings->duration <= 0)
        {
          g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                               _("Recording a process or the whole system needs a duration."));
          return FALSE;
        }
      return TRUE;
    }
}

/* Seconds as `sleep` reads them: no exponent, no trailing zeros. */
static char *
format_seconds (double seconds)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *text = g_strdup (g_ascii_formatd (buf, sizeof buf, "%.3f", seconds));
  char *end = text + strlen (text) - 1;

  while (end > text && *end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  return text;
}

/**
 * ws_record_settings_perf_args:
 *
 * Returns: (transfer full): the arguments after "perf": "record", the
 *   call-graph option, the target, the events, "-o OUTPUT", "--" and the
 *   command (for a pid or the system, `sleep DURATION`, which perf runs
 *   as the length of the recording)
 */
GStrv
ws_record_settings_perf_args (const WsRecordSettings *settings)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  g_strv_builder_add (b, "record");
  if (settings->stacks == WS_RECORD_STACKS_DWARF)
    /* 16 KiB of user stack per event, and buffers to hold them. */
    g_strv_builder_addv (b, (const char *[]) { "--call-graph", "dwarf,16384", "-m", "64M", NULL });
  else
    g_strv_builder_add (b, "-g");
  /* A command's waits end at wake-ups from other tasks (a timer's
   * interrupt, the thread holding its lock): recorded for the command's
   * tasks only, those are lost and a 50 ms sleep lasts until its task
   * next shows.  So the scheduler is recorded system-wide while the
   * command runs; the picker still explains the command (perf's header
   * names it).  A pid cannot be combined with -a: it keeps perf's -p. */
  if (settings->target == WS_RECORD_SYSTEM || settings->target == WS_RECORD_COMMAND)
    g_strv_builder_add (b, "-a");
  else if (settings->target == WS_RECORD_PID)
    {
      g_autofree char *pid = g_strdup_printf ("%d", settings->pid);
      g_strv_builder_addv (b, (const char *[]) { "-p", pid, NULL });
    }
  for (guint i = 0; i < G_N_ELEMENTS (record_events); i++)
    g_strv_builder_add (b, record_events[i]);
  for (guint i = 0; !settings->skip_block_requests && i < G_N_ELEMENTS (block_events); i++)
    g_strv_builder_add (b, block_events[i]);
  g_strv_builder_addv (b, (const char *[]) { "-o", settings->output ? settings->output : "perf.data", "--", NULL });
  if (settings->target == WS_RECORD_COMMAND)
    {
      if (settings->command != NULL)   /* none yet, as the user types */
        g_strv_builder_addv (b, (const char **) settings->command);
    }
  else
    {
      g_autofree char *seconds = format_seconds (settings->duration);
      g_strv_builder_addv (b, (const char *[]) { "sleep", seconds, NULL });
    }
  return g_strv_builder_end (b);
}

/**
 * ws_record_settings_format:
 *
 * Returns: (transfer full): the command line to type in a shell, "perf
 *   record …", words quoted only where a shell needs it
 */
char *
ws_record_settings_format (const WsRecordSettings *settings)
{
  g_auto(GStrv) args = ws_record_settings_perf_args (settings);
  GString *line = g_string_new ("perf");

  for (guint i = 0; args[i] != NULL; i++)
    {
      const char *a = args[i];
      gboolean plain = a[0] != '\0' && a[strspn (a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                    "0123456789-_./:,=+@%")] == '\0';
      g_autofree char *quoted = plain ? g_strdup (a) : g_shell_quote (a);

      g_string_append_c (line, ' ');
      g_string_append (line, quoted);
    }
  return g_string_free (line, FALSE);
}

/**
 * ws_record_settings_default_output:
 *
 * Returns: (transfer full): a new file name for a recording, dated, in
 *   `$XDG_DATA_HOME/waitscope/recordings/` (created)
 */
char *
ws_record_settings_default_output (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "waitscope", "recordings", NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d-%H%M%S");
  g_autofree char *name = NULL;

  g_mkdir_with_parents (dir, 0700);
  for (guint n = 0;; n++)
    {
      g_autofree char *path = NULL;

      g_free (name);
      name = n == 0 ? g_strdup_printf ("record-%s.perf.data", stamp)
                    : g_strdup_printf ("record-%s-%u.perf.data", stamp, n);
      path = g_build_filename (dir, name, NULL);
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&path);
    }
}
