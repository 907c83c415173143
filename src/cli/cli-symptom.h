/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The options the symptom-based subcommands share (waitgraph, readytree,
 * critical-path, inspect): which trace, which thread and window (or which
 * scenario instance), the frame-classifier file, and where and how to
 * write the result.
 */

#include <json-glib/json-glib.h>

#include "ws-frame-classifier.h"
#include "ws-trace.h"
#include "ws-wait-graph.h"

G_BEGIN_DECLS

typedef struct {
  char    *trace_path;
  int      tid;
  char    *from;
  char    *to;
  int      scenario_instance;   /* -1: none */
  char    *format;
  char    *output;
  char    *classifier_file;
} CliSymptomOptions;

void      cli_symptom_options_init    (CliSymptomOptions *options);
void      cli_symptom_options_clear   (CliSymptomOptions *options);
/* Adds --trace --tid --from --to --scenario-instance --format -o --classifier. */
void      cli_symptom_add_entries     (GOptionContext    *context,
                                       CliSymptomOptions *options);
/* Initialises @options and returns a context holding their entries, in
 * GETTEXT_PACKAGE, with @parameter_string and @description (translated). */
GOptionContext *cli_symptom_context_new (CliSymptomOptions *options,
                                         const char        *parameter_string,
                                         const char        *description);

/*
 * cli_symptom_resolve:
 * @argc/@argv: what option parsing left (a lone positional TRACE is
 *   accepted instead of --trace)
 * @require_symptom: whether --tid or --scenario-instance is mandatory
 * @formats: NULL-terminated accepted --format values, the first the default
 * @symptom: (out): set when a thread was given (else thread = WS_NONE)
 *
 * Returns: -1 to go on, or the exit status to return (the message printed)
 */
int       cli_symptom_resolve         (const char         *command,
                                       CliSymptomOptions  *options,
                                       int                 argc,
                                       char              **argv,
                                       gboolean            require_symptom,
                                       const char * const *formats,
                                       WsTrace           **trace,
                                       WsSymptom          *symptom,
                                       WsFrameClassifier **classifier);

/*
 * cli_symptom_check_event:
 * @event: the --event INDEX given, or -1
 *
 * --event names one wait as the symptom, so it excludes --tid, --from,
 * --to and --scenario-instance.  Returns -1 to go on, else the exit status
 * (usage error, printed).
 */
int       cli_symptom_check_event     (const char         *command,
                                       CliSymptomOptions  *options,
                                       int                 event);

/*
 * cli_symptom_from_event:
 * The symptom of WAIT event @event (its thread over the wait's span, as
 * the GUI's context menu asks for it).  Returns -1 to go on, else 1 with
 * a message naming the trace.
 */
int       cli_symptom_from_event      (CliSymptomOptions  *options,
                                       WsTrace            *trace,
                                       int                 event,
                                       WsSymptom          *symptom);

/* Writes @text to -o FILE or stdout.  Returns the exit status. */
int       cli_symptom_write           (CliSymptomOptions  *options,
                                       const char         *text);
int       cli_symptom_write_json      (CliSymptomOptions  *options,
                                       JsonNode           *node);

/*
 * CliSymptomGraphFunc: runs one analysis over @symptom and exports its
 * result, as DOT text in @dot when @dot is not NULL, else as JSON in @json.
 * Returns FALSE with @error set.
 */
typedef gboolean (*CliSymptomGraphFunc) (WsTrace            *trace,
                                         const WsSymptom    *symptom,
                                         WsFrameClassifier  *classifier,
                                         char              **dot,
                                         JsonNode          **json,
                                         GError            **error);

/* The body of the commands that run one analysis over a symptom (or over
 * the one wait --event names) and write its result as JSON or DOT
 * (waitgraph, critical-path).  @parameter and @description are translated. */
int       cli_symptom_graph_main      (int                  argc,
                                       char               **argv,
                                       const char          *command,
                                       const char          *parameter,
                                       const char          *description,
                                       CliSymptomGraphFunc  run);

G_END_DECLS
