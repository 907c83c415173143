/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli collapse TRACE: folded stacks for flame graphs.  Samples
 * as stackcollapse-perf.pl folds them (the same lines for the same perf
 * text); --waits for off-CPU time, --waker to append the waker's stack as
 * offwaketime does.
 */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "cli-scope.h"
#include "ws-atomic-file.h"
#include "ws-collapse.h"
#include "ws-trace-loader.h"

static int
write_output (WsTrace                 *trace,
              const WsCollapseOptions *options,
              const char              *output)
{
  g_autoptr(WsAtomicFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (output == NULL || g_strcmp0 (output, "-") == 0)
    {
      g_autoptr(GPtrArray) lines = ws_collapse_lines (trace, options, NULL);

      for (guint i = 0; i < lines->len; i++)
        printf ("%s\n", (const char *) g_ptr_array_index (lines, i));
      return CLI_EXIT_OK;
    }
  file = ws_atomic_file_open (output, &error);
  if (file == NULL || !ws_collapse_write (trace, options, ws_atomic_file_get_stream (file), NULL, &error) ||
      !ws_atomic_file_commit (g_steal_pointer (&file), FALSE, &error))
    {
      fprintf (stderr, "waitscope-cli: %s: %s\n", output, error->message);
      return CLI_EXIT_INPUT;
    }
  return CLI_EXIT_OK;
}

int
cli_collapse (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *event = NULL;
  gboolean waits = FALSE, waker = FALSE, spans = FALSE, pid = FALSE, tid = FALSE, ns = FALSE;
  g_autofree char *window = NULL;
  g_auto(GStrv) tids = NULL;
  CliScope scope = { 0 };
  WsCollapseOptions options;
  int status;
  const GOptionEntry entries[] = {
    { "waits", 0, 0, G_OPTION_ARG_NONE, &waits,
      N_("Fold waits (off-CPU time, in microseconds) instead of samples"), NULL },
    { "waker", 0, 0, G_OPTION_ARG_NONE, &waker,
      N_("With --waits: append “--”, the waker's stack (leaf first) and its name, as offwaketime does"), NULL },
    { "spans", 0, 0, G_OPTION_ARG_NONE, &spans,
      N_("Fold the switch-in → switch-out spans (on-CPU time, in microseconds) instead of samples"), NULL },
    { "ns", 0, 0, G_OPTION_ARG_NONE, &ns, N_("With --waits or --spans: count nanoseconds, not microseconds"), NULL },
    { "window", 0, 0, G_OPTION_ARG_STRING, &window,
      N_("Only START:END: samples taken in it, the part of each wait or span inside it"), N_("START:END") },
    { "only-tid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tids,
      N_("Only this thread (repeat, or N,M,…)"), N_("TID") },
    { "event", 0, 0, G_OPTION_ARG_STRING, &event,
      N_("Fold only this sample event (default: the first one, as stackcollapse-perf.pl)"), N_("NAME") },
    { "pid", 0, 0, G_OPTION_ARG_NONE, &pid, N_("Name the first frame “comm-PID”"), NULL },
    { "tid", 0, 0, G_OPTION_ARG_NONE, &tid, N_("Name the first frame “comm-PID/TID”"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write here instead of standard output"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE — folded stacks for flame graphs"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Each line is “comm;caller;…;leaf COUNT”.  Samples are folded as stackcollapse-perf.pl folds the "
      "same perf script text (COUNT: the sample periods, or 1 per sample without a period column); "
      "waits are folded as off-CPU time."));
  if (!cli_parse_options (context, "collapse", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("collapse", "%s", argc < 2 ? _("no trace given") : _("give one trace"));
  if (waker)
    waits = TRUE;

  if (waits && spans)
    return cli_usage_error ("collapse", _("give either --waits or --spans, not both"));
  if ((status = cli_scope_parse_window ("collapse", window, &scope)) >= 0)
    return status;

  if ((trace = ws_trace_loader_load (argv[1], NULL, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if ((status = cli_scope_resolve_tids (argv[1], trace, tids, &scope)) >= 0)
    {
      cli_scope_clear (&scope);
      return status;
    }

  ws_collapse_options_init (&options);
  options.has_window = scope.has_window;
  options.window_start = scope.start;
  options.window_end = scope.end;
  options.threads = scope.threads ? (const guint *) scope.threads->data : NULL;
  options.n_threads = scope.threads ? scope.threads->len : 0;
  if (!waits && !spans && !ws_collapse_trace_has_samples (trace))
    {
      /* A scheduler recording without a sampling event still has waits. */
      fprintf (stderr, "%s\n", _("waitscope-cli collapse: the trace has no CPU samples; folding its waits (--waits)"));
      waits = TRUE;
    }
  options.mode = waits ? WS_COLLAPSE_WAITS : spans ? WS_COLLAPSE_SPANS : WS_COLLAPSE_SAMPLES;
  options.with_waker = waker;
  options.wait_unit_ns = ns ? 1 : 1000;
  options.event = event;
  options.name = tid ? WS_COLLAPSE_NAME_TID : pid ? WS_COLLAPSE_NAME_PID : WS_COLLAPSE_NAME_COMM;
  status = write_output (trace, &options, output);
  cli_scope_clear (&scope);
  return status;
}
