/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether this user may record scheduler events, and the command line that
 * does it.  Scheduler tracepoints with their raw fields need root (or
 * CAP_PERFMON), or kernel.perf_event_paranoid = -1 and a tracefs the user
 * can read; otherwise pkexec runs perf as root, or the user is told what to
 * change.  In a Flatpak sandbox perf and pkexec are the host's, reached
 * through `flatpak-spawn --host`.
 */
#include "config.h"

#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "ws-record-access.h"

static int
read_paranoid (void)
{
  g_autofree char *text = NULL;
  gint64 value;
  char *end;

  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &text, NULL, NULL))
    return G_MAXINT;
  value = g_ascii_strtoll (text, &end, 10);
  if (end == text || value < G_MININT || value > G_MAXINT)
    return G_MAXINT;
  return (int) value;
}

static gboolean
tracefs_readable (void)
{
  static const char * const formats[] = {
    "/sys/kernel/tracing/events/sched/sched_switch/format",
    "/sys/kernel/debug/tracing/events/sched/sched_switch/format",
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_access (formats[i], R_OK) == 0)
      return TRUE;
  return FALSE;
}

/* Whether the kernel has the block layer's request tracepoints (asked only
 * where tracefs can be read: elsewhere perf is trusted to have them). */
static gboolean
block_tracepoints (void)
{
  return g_file_test ("/sys/kernel/tracing/events/block/block_rq_issue", G_FILE_TEST_IS_DIR) ||
         g_file_test ("/sys/kernel/debug/tracing/events/block/block_rq_issue", G_FILE_TEST_IS_DIR);
}

/**
 * ws_record_system_probe:
 *
 * Returns: (transfer full): what this machine and user allow
 */
WsRecordSystem *
ws_record_system_probe (void)
{
  WsRecordSystem *system = g_new0 (WsRecordSystem, 1);

  system->uid = geteuid ();
  system->paranoid = read_paranoid ();
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      /* The sandbox has no perf and no tracefs: the host's perf records,
       * as the user or through the host's pkexec. */
      system->host_prefix = g_strdupv ((char *[]) { "flatpak-spawn", "--host", NULL });
      system->perf = g_strdup ("perf");
      system->pkexec = g_strdup ("pkexec");
      system->tracefs_readable = FALSE;
      return system;
    }
  system->tracefs_readable = tracefs_readable ();
  system->no_block_tracepoints = system->tracefs_readable && !block_tracepoints ();
  system->perf = g_find_program_in_path ("perf");
  system->pkexec = g_find_program_in_path ("pkexec");
  return system;
}

WsRecordSystem *
ws_record_system_copy (const WsRecordSystem *system)
{
  WsRecordSystem *copy = g_memdup2 (system, sizeof *system);

  copy->perf = g_strdup (system->perf);
  copy->pkexec = g_strdup (system->pkexec);
  copy->host_prefix = g_strdupv (system->host_prefix);
  return copy;
}

void
ws_record_system_free (WsRecordSystem *system)
{
  if (system == NULL)
    return;
  g_free (system->perf);
  g_free (system->pkexec);
  g_strfreev (system->host_prefix);
  g_free (system);
}

/**
 * ws_record_access_decide:
 * @message: (out) (optional) (transfer full): for pkexec, denied and no
 *   perf, a sentence for the user saying why and what to do; %NULL when
 *   perf can run directly
 *
 * Returns: how perf can record scheduler events here
 */
WsRecordAccessKind
ws_record_access_decide (const WsRecordSystem *system,
                         char                **message)
{
  g_autofree char *paranoid = system->paranoid == G_MAXINT
                              ? g_strdup (_("unreadable"))
                              : g_strdup_printf ("%d", system->paranoid);
  WsRecordAccessKind kind;
  char *text = NULL;

  if (system->perf == NULL)
    {
      kind = WS_RECORD_ACCESS_NO_PERF;
      text = g_strdup (_("Recording needs the “perf” program, which is not installed "
                         "(Debian and Ubuntu: package linux-perf; Fedora: perf)."));
    }
  else if (system->uid == 0 || (system->paranoid <= -1 && system->tracefs_readable))
    kind = WS_RECORD_ACCESS_DIRECT;
  else if (system->pkexec != NULL)
    {
      kind = WS_RECORD_ACCESS_PKEXEC;
      text = g_strdup_printf (_("Recording scheduler events needs root here "
                                "(/proc/sys/kernel/perf_event_paranoid is %s): perf will run "
                                "through pkexec, which asks for an administrator password."),
                              paranoid);
    }
  else
    {
      kind = WS_RECORD_ACCESS_DENIED;
      text = g_strdup_printf (_("Recording scheduler events needs root here, and pkexec is not "
                                "installed. /proc/sys/kernel/perf_event_paranoid is %s; it must be "
                                "-1, and the tracing file system readable: "
                                "“sudo sysctl kernel.perf_event_paranoid=-1” and "
                                "“sudo mount -o remount,mode=755 /sys/kernel/tracing”. "
                                "Or install pkexec (package pkexec or policykit-1), or run as root."),
                              paranoid);
    }
  if (message != NULL)
    *message = text;
  else
    g_free (text);
  return kind;
}

/* Run as root by pkexec: perf in the background, stopped with SIGINT
 * (which makes it write the file and exit) when the caller closes our
 * standard input — the caller cannot signal a root process — and the
 * file handed to the user who asked (pkexec sets PKEXEC_UID). */
static const char pkexec_script[] =
  "o=$1; shift\n"
  "exec 3<&0 </dev/null\n"
  "\"$@\" &\n"
  "p=$!\n"
  "(cat <&3 >/dev/null; kill -INT \"$p\" 2>/dev/null) &\n"
  "w=$!\n"
  "exec 3<&-\n"
  "wait \"$p\"; s=$?\n"
  "kill \"$w\" 2>/dev/null\n"
  "chown \"$PKEXEC_UID\" \"$o\" 2>/dev/null\n"
  "exit \"$s\"\n";

/* The output file: the argument after "-o". */
static const char *
find_output (const char * const *perf_args)
{
  for (guint i = 0; perf_args[i] != NULL && perf_args[i + 1] != NULL; i++)
    if (g_str_equal (perf_args[i], "-o"))
      return perf_args[i + 1];
  return "perf.data";
}

/**
 * ws_record_access_argv:
 * @perf_args: the arguments after "perf" (ws_record_settings_perf_args())
 *
 * Returns: (transfer full): the whole command line to spawn for @kind
 *   (%WS_RECORD_ACCESS_DIRECT or %WS_RECORD_ACCESS_PKEXEC).  Under pkexec
 *   the recorded command itself runs as the user again (setpriv), not as
 *   root.
 */
GStrv
ws_record_access_argv (const WsRecordSystem *system,
                       WsRecordAccessKind    kind,
                       const char * const   *perf_args)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  gboolean after_dashes = FALSE;

  if (system->host_prefix != NULL)
    g_strv_builder_addv (b, (const char **) system->host_prefix);
  if (kind == WS_RECORD_ACCESS_PKEXEC)
    g_strv_builder_addv (b, (const char *[]) { system->pkexec ? system->pkexec : "pkexec",
                                               "/bin/sh", "-c", pkexec_script, "sh",
                                               find_output (perf_args), NULL });
  g_strv_builder_add (b, system->perf ? system->perf : "perf");
  for (guint i = 0; perf_args[i] != NULL; i++)
    {
      g_strv_builder_add (b, perf_args[i]);
      if (kind == WS_RECORD_ACCESS_PKEXEC && !after_dashes && g_str_equal (perf_args[i], "--"))
        {
          g_autofree char *reuid = g_strdup_printf ("--reuid=%u", system->uid);
          g_autofree char *regid = g_strdup_printf ("--regid=%u", (guint) getgid ());
          g_strv_builder_addv (b, (const char *[]) { "setpriv", reuid, regid, "--init-groups", "--", NULL });
          after_dashes = TRUE;
        }
    }
  return g_strv_builder_end (b);
}
