/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli record [-o FILE] [--pid PID | --system] [--duration TIME]
 * [-- COMMAND…]: runs `perf record` with the events and call stacks
 * Waitscope reads, as the GUI's Record page does (one core recorder).
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-recorder.h"

/* Ctrl+C stops the recording and keeps it, as it does for perf itself:
 * perf runs in a process group of its own, so it is told through the
 * recorder. */
static WsRecorder *interrupted_recorder;

static void
on_sigint (int signum)
{
  if (interrupted_recorder != NULL)
    ws_recorder_stop (interrupted_recorder);
}

static void
print_progress (double      fraction,
                const char *message,
                gpointer    data)
{
  fprintf (stderr, "\r%-60s", message);
  fflush (stderr);
}

typedef struct {
  char     *output;
  char     *duration;
  int       pid;
  gboolean  system;
  gboolean  dwarf;
  gboolean  print;
} RecordOptions;

/* Options → settings; a usage error returns FALSE with @status set. */
static gboolean
build_settings (RecordOptions    *o,
                char            **command,
                WsRecordSettings *settings,
                int              *status)
{
  g_autoptr(GError) error = NULL;
  int targets = (o->pid > 0) + (o->system != FALSE) + (command[0] != NULL);

  if (targets != 1)
    {
      *status = cli_usage_error ("record", "%s", _("record one of: -- COMMAND…, --pid PID, --system"));
      return FALSE;
    }
  settings->target = command[0] != NULL ? WS_RECORD_COMMAND : o->pid > 0 ? WS_RECORD_PID : WS_RECORD_SYSTEM;
  settings->command = g_strdupv (command);
  settings->pid = o->pid;
  settings->stacks = o->dwarf ? WS_RECORD_STACKS_DWARF : WS_RECORD_STACKS_FP;
  settings->output = g_strdup (o->output ? o->output : "perf.data");
  settings->duration = settings->target == WS_RECORD_COMMAND ? 0 : 5;
  if (o->duration != NULL)
    {
      WsTime ns;
      if (!cli_parse_time (o->duration, &ns, &error))
        {
          *status = cli_usage_error ("record", "--duration: %s", error->message);
          return FALSE;
        }
      settings->duration = ns / 1e9;
    }
  if (!ws_record_settings_check (settings, &error))
    {
      *status = cli_usage_error ("record", "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
run_recorder (WsRecorder *recorder)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *size = NULL;
  struct sigaction action = { 0 }, old_action;
  const char *message;
  GStatBuf st;
  gboolean ok;

  if (ws_recorder_get_access (recorder, &message) == WS_RECORD_ACCESS_PKEXEC)
    fprintf (stderr, "waitscope-cli: %s\n", message);
  interrupted_recorder = recorder;
  action.sa_handler = on_sigint;
  sigaction (SIGINT, &action, &old_action);
  ok = ws_recorder_run (recorder, isatty (STDERR_FILENO) ? print_progress : NULL, NULL, NULL, &error);
  sigaction (SIGINT, &old_action, NULL);
  interrupted_recorder = NULL;
  if (isatty (STDERR_FILENO))
    fprintf (stderr, "\r%-60s\r", "");
  if (!ok)
    {
      fprintf (stderr, "waitscope-cli: record: %s\n", error->message);
      return CLI_EXIT_INPUT;
    }
  if (g_stat (ws_recorder_get_output (recorder), &st) != 0)
    st.st_size = 0;
  size = g_format_size (st.st_size);
  printf (_("Recorded %s (%s). Open it with “waitscope %s” or “waitscope-cli info %s”.\n"),
          ws_recorder_get_output (recorder), size,
          ws_recorder_get_output (recorder), ws_recorder_get_output (recorder));
  return CLI_EXIT_OK;
}

int
cli_record (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsRecordSettings) settings = ws_record_settings_new ();
  g_autoptr(WsRecordSystem) system = NULL;
  g_autoptr(WsRecorder) recorder = NULL;
  RecordOptions o = { NULL, NULL, 0, FALSE, FALSE, FALSE };
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("The perf.data file to write (default perf.data)"), N_("FILE") },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &o.pid, N_("Record this running process"), N_("PID") },
    { "system", 'a', 0, G_OPTION_ARG_NONE, &o.system, N_("Record the whole system (every CPU)"), NULL },
    { "duration", 'd', 0, G_OPTION_ARG_STRING, &o.duration,
      N_("How long to record a pid or the system (default 5 s); for a command, a limit"), N_("TIME") },
    { "dwarf", 0, 0, G_OPTION_ARG_NONE, &o.dwarf,
      N_("Complete user stacks with DWARF unwinding (files ~10× larger)"), NULL },
    { "print", 0, 0, G_OPTION_ARG_NONE, &o.print, N_("Print the command line that would run, and exit"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[-- COMMAND…] — record waits with perf, for Waitscope"));
  g_option_context_set_summary (context,
                                _("Runs perf record with the scheduler events, call stacks and CPU samples "
                                  "Waitscope reads. Ctrl+C stops early and keeps the recording."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "record", &argc, &argv, &status))
    {
      g_free (o.output);
      g_free (o.duration);
      return status;
    }
  if (!build_settings (&o, argv + 1, settings, &status))
    {
      g_free (o.output);
      g_free (o.duration);
      return status;
    }
  g_free (o.output);
  g_free (o.duration);

  system = ws_record_system_probe ();
  recorder = ws_recorder_new (settings, system);
  if (o.print)
    {
      GStrv full = ws_recorder_get_argv (recorder);
      g_autofree char *line = ws_record_settings_format (settings);
      const char *message;

      printf ("%s\n", line);
      if (full == NULL && ws_recorder_get_access (recorder, &message) != WS_RECORD_ACCESS_DIRECT)
        fprintf (stderr, "waitscope-cli: %s\n", message);
      return CLI_EXIT_OK;
    }
  return run_recorder (recorder);
}
