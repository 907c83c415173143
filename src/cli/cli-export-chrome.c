/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli export-chrome TRACE -o OUT.json: the trace as Chrome /
 * Perfetto trace event JSON (a track per thread, run and wait slices,
 * wake-up flows, scenario instances).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-chrome-trace.h"

int
cli_export_chrome (int    argc,
                   char **argv)
{
  const CliTraceWriter writer = {
    .command = "export-chrome",
    .parameter = _("TRACE -o OUT.json — the trace for ui.perfetto.dev and chrome://tracing"),
    .output_help = N_("Write the trace event JSON here"),
    .no_input = _("no trace given"),
    .many_inputs = _("give one trace"),
    .no_output = _("no output file given (-o OUT.json)"),
    .save = ws_chrome_trace_save,
  };

  return cli_write_trace (&writer, argc, argv);
}
