/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Running `perf record`.  perf writes its file when it gets SIGINT, so
 * stopping early (the Stop button, a command's time limit) and cancelling
 * both interrupt it: perf and the command it runs form their own process
 * group, which gets the signal as a terminal's Ctrl+C would give it.
 * Under pkexec the caller cannot signal a root process; closing perf's
 * standard input makes the wrapper script interrupt it instead
 * (ws-record-access.c).  Cancelling then deletes the file.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-error.h"
#include "ws-recorder.h"

/* Seconds perf gets to write its file after the interrupt before it is
 * killed (it reads build ids of every binary it saw: seconds on a busy
 * system, not minutes). */
#define FINISH_TIMEOUT_S 60

struct _WsRecorder
{
  GObject             parent_instance;
  WsRecordSettings   *settings;
  WsRecordAccessKind  access;
  char               *access_message;
  GStrv               argv;
  char               *log;
  gint                stop_requested;   /* atomic */
};

G_DEFINE_FINAL_TYPE (WsRecorder, ws_recorder, G_TYPE_OBJECT)

static void
ws_recorder_finalize (GObject *object)
{
  WsRecorder *self = WS_RECORDER (object);

  ws_record_settings_free (self->settings);
  g_free (self->access_message);
  g_strfreev (self->argv);
  g_free (self->log);
  G_OBJECT_CLASS (ws_recorder_parent_class)->finalize (object);
}

static void
ws_recorder_class_init (WsRecorderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_recorder_finalize;
}

static void
ws_recorder_init (WsRecorder *self)
{
}

static WsRecordSettings *
copy_settings (const WsRecordSettings *settings)
{
  WsRecordSettings *copy = g_memdup2 (settings, sizeof *settings);

  copy->command = g_strdupv (settings->command);
  copy->output = g_strdup (settings->output);
  return copy;
}

/**
 * ws_recorder_new:
 * @system: what this machine allows (ws_record_system_probe())
 *
 * Returns: (transfer full): a recorder for @settings, which it copies; the
 *   access and the command line are decided now, for showing before the run
 */
WsRecorder *
ws_recorder_new (const WsRecordSettings *settings,
                 const WsRecordSystem   *system)
{
  WsRecorder *self = g_object_new (WS_TYPE_RECORDER, NULL);
  g_auto(GStrv) perf_args = NULL;

  self->settings = copy_settings (settings);
  self->settings->skip_block_requests |= system->no_block_tracepoints;
  perf_args = ws_record_settings_perf_args (self->settings);
  self->access = ws_record_access_decide (system, &self->access_message);
  if (self->access == WS_RECORD_ACCESS_DIRECT || self->access == WS_RECORD_ACCESS_PKEXEC)
    self->argv = ws_record_access_argv (system, self->access, (const char * const *) perf_args);
  return self;
}

/**
 * ws_recorder_get_access:
 * @message: (out) (optional) (transfer none): why, for anything but direct
 */
WsRecordAccessKind
ws_recorder_get_access (WsRecorder  *self,
                        const char **message)
{
  if (message != NULL)
    *message = self->access_message;
  return self->access;
}

/* Returns: (transfer none) (nullable): what will be spawned, %NULL when it cannot be */
GStrv
ws_recorder_get_argv (WsRecorder *self)
{
  return self->argv;
}

const char *
ws_recorder_get_output (WsRecorder *self)
{
  return self->settings->output;
}

/* Returns: (nullable): perf's messages (and the command's output) of the last run */
const char *
ws_recorder_get_log (WsRecorder *self)
{
  return self->log;
}

/* Ends the recording early, keeping what was recorded; any thread. */
void
ws_recorder_stop (WsRecorder *self)
{
  g_atomic_int_set (&self->stop_requested, 1);
}

/* perf and its command in a group of their own (see the top). */
static void
child_setup (gpointer data)
{
  setpgid (0, 0);
}

typedef struct {
  WsRecorder     *self;
  GSubprocess    *process;
  GCancellable   *cancellable;
  WsProgressFunc  progress;
  gpointer        progress_data;
  gint64          start;
  gint64          interrupted_at;   /* 0: not yet */
  gboolean        done;
} Run;

static void
interrupt (Run *run)
{
  if (run->self->access == WS_RECORD_ACCESS_PKEXEC)
    g_output_stream_close (g_subprocess_get_stdin_pipe (run->process), NULL, NULL);
  else
    {
      const char *id = g_subprocess_get_identifier (run->process);
      if (id != NULL)
        kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGINT);
    }
  run->interrupted_at = g_get_monotonic_time ();
}

static void
report (Run    *run,
        double  elapsed)
{
  double duration = run->self->settings->duration;
  g_autofree char *message = NULL;

  if (run->interrupted_at != 0)
    message = g_strdup (_("Writing the recording…"));
  else if (duration > 0)
    message = g_strdup_printf (_("Recording: %.1f s of %.1f s"), MIN (elapsed, duration), duration);
  else
    message = g_strdup_printf (_("Recording: %.1f s"), elapsed);
  ws_progress_report (run->progress, run->progress_data,
                      duration > 0 && run->interrupted_at == 0 ? MIN (elapsed / duration, 1.0) : -1.0,
                      message);
}

static gboolean
tick (gpointer data)
{
  Run *run = data;
  double elapsed = (g_get_monotonic_time () - run->start) / (double) G_USEC_PER_SEC;
  const WsRecordSettings *settings = run->self->settings;
  gboolean over_limit = settings->target == WS_RECORD_COMMAND && settings->duration > 0 &&
                        elapsed >= settings->duration;

  if (run->interrupted_at == 0 &&
      (g_atomic_int_get (&run->self->stop_requested) || over_limit ||
       g_cancellable_is_cancelled (run->cancellable)))
    interrupt (run);
  else if (run->interrupted_at != 0 &&
           g_get_monotonic_time () - run->interrupted_at > FINISH_TIMEOUT_S * G_USEC_PER_SEC)
    g_subprocess_force_exit (run->process);
  report (run, elapsed);
  return G_SOURCE_CONTINUE;
}

static void
wait_done (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  Run *run = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  run->done = TRUE;
}

/* Spawns perf, its output in @log_path.  Returns %NULL on error. */
static GSubprocess *
spawn (WsRecorder  *self,
       const char  *log_path,
       GError     **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_MERGE;
  GSubprocess *process;

  if (self->access == WS_RECORD_ACCESS_PKEXEC)
    flags |= G_SUBPROCESS_FLAGS_STDIN_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  g_subprocess_launcher_set_stdout_file_path (launcher, log_path);
  if (self->access == WS_RECORD_ACCESS_DIRECT)
    g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) self->argv, &local_error);
  if (process == NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_IO, _("Could not run %s: %s"),
                 self->argv[0], local_error->message);
  return process;
}

/* Whether perf wrote its file, else why not, from its exit and its log. */
static gboolean
check_result (WsRecorder   *self,
              GSubprocess  *process,
              GError      **error)
{
  GStatBuf st;
  g_autofree char *tail = NULL;
  gsize len = self->log ? strlen (self->log) : 0;

  if (self->log != NULL && strstr (self->log, "Captured and wrote") != NULL &&
      g_stat (self->settings->output, &st) == 0 && st.st_size > 0)
    return TRUE;

  if (self->access == WS_RECORD_ACCESS_PKEXEC && g_subprocess_get_if_exited (process) &&
      (g_subprocess_get_exit_status (process) == 126 || g_subprocess_get_exit_status (process) == 127))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO,
                           _("perf record did not run: authentication was cancelled or refused."));
      return FALSE;
    }
  /* perf's own last words say best what went wrong. */
  tail = g_strstrip (g_strdup (self->log ? self->log + (len > 1500 ? len - 1500 : 0) : ""));
  g_set_error (error, WS_ERROR, WS_ERROR_IO, _("perf record failed: %s"),
               *tail ? tail : _("no message"));
  return FALSE;
}

/**
 * ws_recorder_run:
 *
 * Records, blocking until perf has written its file: for the duration, or
 * until the command ends (or its time limit), or ws_recorder_stop(), or
 * @cancellable (then the file is deleted and the error is
 * %WS_ERROR_CANCELLED).  @progress gets the fraction of the duration (or
 * -1 when it is open-ended) every 100 ms.
 *
 * Returns: whether the recording was written to the settings' output
 */
gboolean
ws_recorder_run (WsRecorder      *self,
                 WsProgressFunc   progress,
                 gpointer         progress_data,
                 GCancellable    *cancellable,
                 GError         **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(GSource) timer = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *log_path = NULL;
  Run run = { self, NULL, cancellable, progress, progress_data, 0, 0, FALSE };
  gboolean ok;
  int fd;

  if (self->argv == NULL)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, self->access_message);
      return FALSE;
    }
  if (!ws_record_settings_check (self->settings, error))
    return FALSE;
  fd = g_file_open_tmp ("waitscope-record-XXXXXX.log", &log_path, &local_error);
  if (fd < 0)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_IO, local_error->message);
      return FALSE;
    }
  close (fd);
  g_atomic_int_set (&self->stop_requested, 0);

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  process = spawn (self, log_path, error);
  if (process != NULL)
    {
      run.process = process;
      run.start = g_get_monotonic_time ();
      g_subprocess_wait_async (process, NULL, wait_done, &run);
      timer = g_timeout_source_new (100);
      g_source_set_callback (timer, tick, &run, NULL);
      g_source_attach (timer, context);
      while (!run.done)
        g_main_context_iteration (context, TRUE);
      g_source_destroy (timer);
      if (self->access == WS_RECORD_ACCESS_PKEXEC)
        g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, NULL);
    }
  g_main_context_pop_thread_default (context);

  g_clear_pointer (&self->log, g_free);
  g_file_get_contents (log_path, &self->log, NULL, NULL);
  g_unlink (log_path);
  if (process == NULL)
    return FALSE;

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_unlink (self->settings->output);
      g_set_error_literal (error, WS_ERROR, WS_ERROR_CANCELLED, _("Recording cancelled."));
      return FALSE;
    }
  ok = check_result (self, process, error);
  return ok;
}
