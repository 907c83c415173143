/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Helpers shared by the waitscope-cli subcommands: option parsing, loading
 * a list of traces, times and durations in and out, JSON output, and the
 * exit-status conventions (0 ok, 1 bad input, 2 usage error).
 */

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "ws-scenario-rules.h"
#include "ws-trace.h"

G_BEGIN_DECLS

#define CLI_EXIT_OK    0
#define CLI_EXIT_INPUT 1
#define CLI_EXIT_USAGE 2

int              cli_fail                (const GError        *error);
int              cli_usage_error         (const char          *command,
                                          const char          *format,
                                          ...) G_GNUC_PRINTF (2, 3);
gboolean         cli_parse_options       (GOptionContext      *context,
                                          const char          *command,
                                          int                 *argc,
                                          char              ***argv,
                                          int                 *status);

WsScenarioRules *cli_build_rules         (char               **specs,
                                          const char          *rules_file,
                                          const char          *command,
                                          int                 *status);
GPtrArray       *cli_load_traces         (char               **paths,
                                          WsScenarioRules     *rules,
                                          GError             **error);

gboolean         cli_parse_time          (const char          *text,
                                          WsTime              *out,
                                          GError             **error);
char            *cli_format_duration     (WsTime               ns);
char            *cli_format_timestamp    (WsTime               ns);

void             cli_print_stack         (FILE                *out,
                                          WsStackTable        *stacks,
                                          WsStackId            stack,
                                          const char          *indent);
void             cli_print_json          (JsonBuilder         *builder);
void             cli_print_json_node     (JsonNode            *node);

/*
 * CliTraceWriter: a command that loads one trace (with the scenario
 * options) and writes it in another format to -o FILE: convert and
 * export-chrome differ only in these.
 */
typedef gboolean (*CliTraceSaveFunc) (WsTrace       *trace,
                                      const char    *path,
                                      GCancellable  *cancellable,
                                      GError       **error);
typedef struct {
  const char       *command;
  const char       *parameter;     /* the usage line, translated */
  const char       *output_help;   /* N_(): the option context translates it */
  const char       *no_input;      /* usage errors, translated */
  const char       *many_inputs;
  const char       *no_output;
  CliTraceSaveFunc  save;
} CliTraceWriter;

int              cli_write_trace         (const CliTraceWriter *writer,
                                          int                   argc,
                                          char                **argv);

G_END_DECLS
