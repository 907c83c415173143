/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli convert INPUT -o OUTPUT.json[.gz]: any trace Waitscope
 * reads (perf script text, JSON; gzip or not) to the JSON trace format,
 * with the scenario instances the rules find.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-json-trace.h"

int
cli_convert (int    argc,
             char **argv)
{
  const CliTraceWriter writer = {
    .command = "convert",
    .parameter = _("INPUT -o OUTPUT.json[.gz] — convert a trace to the JSON trace format"),
    .output_help = N_("Write the JSON trace here (gzip-compressed if it ends in .gz)"),
    .no_input = _("no input trace given"),
    .many_inputs = _("give one input trace"),
    .no_output = _("no output file given (-o OUTPUT.json)"),
    .save = ws_json_trace_save,
  };

  return cli_write_trace (&writer, argc, argv);
}
