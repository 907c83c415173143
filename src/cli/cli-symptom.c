/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared option handling of the symptom subcommands.  A symptom is StackMine's
 * ⟨thread, t0, t1⟩: --tid with --from/--to (defaulting to the whole trace),
 * or the Nth scenario instance of the trace.
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli-common.h"
#include "cli-symptom.h"
#include "ws-atomic-file.h"
#include "ws-error.h"
#include "ws-json-text.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"

void
cli_symptom_options_init (CliSymptomOptions *options)
{
  memset (options, 0, sizeof *options);
  options->tid = G_MININT;
  options->scenario_instance = -1;
}

void
cli_symptom_options_clear (CliSymptomOptions *options)
{
  g_clear_pointer (&options->trace_path, g_free);
  g_clear_pointer (&options->from, g_free);
  g_clear_pointer (&options->to, g_free);
  g_clear_pointer (&options->format, g_free);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->classifier_file, g_free);
}

void
cli_symptom_add_entries (GOptionContext    *context,
                         CliSymptomOptions *options)
{
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &options->trace_path,
      N_("The trace (perf script text or Waitscope JSON, gzip or not)"), N_("FILE") },
    { "tid", 0, 0, G_OPTION_ARG_INT, &options->tid,
      N_("The thread of interest"), N_("TID") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &options->from,
      N_("Start of the window: seconds as perf prints them (1986.6) or with a unit (12ms, 500us, 123ns); default: trace start"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &options->to,
      N_("End of the window, as --from, or +DURATION after it (+50ms); default: trace end"), N_("TIME") },
    { "scenario-instance", 0, 0, G_OPTION_ARG_INT, &options->scenario_instance,
      N_("Use scenario instance N (0-based, as “waitscope-cli scenarios” lists them) as thread and window"), "N" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &options->format,
      N_("Output format"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options->output,
      N_("Write to FILE instead of standard output"), N_("FILE") },
    { "classifier", 0, 0, G_OPTION_ARG_FILENAME, &options->classifier_file,
      N_("Key file overriding the lock / false-run / interrupt / heartbeat / daemon lists"), N_("FILE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

GOptionContext *
cli_symptom_context_new (CliSymptomOptions *options,
                         const char        *parameter_string,
                         const char        *description)
{
  GOptionContext *context;

  cli_symptom_options_init (options);
  context = g_option_context_new (parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_symptom_add_entries (context, options);
  g_option_context_set_description (context, description);
  return context;
}

/* TRACE as the lone positional argument, or --trace. */
static int
resolve_trace_path (const char        *command,
                    CliSymptomOptions *options,
                    int                argc,
                    char             **argv)
{
  if (options->trace_path == NULL && argc == 2)
    options->trace_path = g_strdup (argv[1]);
  else if (argc > 1)
    return cli_usage_error (command, _("unexpected argument “%s”"), argv[1]);
  if (options->trace_path == NULL)
    return cli_usage_error (command, _("no trace given (--trace FILE)"));
  return -1;
}

static int
resolve_format (const char         *command,
                CliSymptomOptions  *options,
                const char * const *formats)
{
  g_autofree char *list = NULL;

  if (options->format == NULL)
    options->format = g_strdup (formats[0]);
  if (g_strv_contains (formats, options->format))
    return -1;
  list = g_strjoinv ("|", (char **) formats);
  return cli_usage_error (command, _("unknown format “%s” (expected %s)"), options->format, list);
}

/* Usage errors before the (possibly long) load, and whatever the file. */
static int
check_symptom_options (const char        *command,
                       CliSymptomOptions *options,
                       gboolean           require_symptom)
{
  if (options->scenario_instance >= 0 && options->tid != G_MININT)
    return cli_usage_error (command, _("give either --tid or --scenario-instance, not both"));
  if (require_symptom && options->scenario_instance < 0 && options->tid == G_MININT)
    return cli_usage_error (command, _("no thread given (--tid TID or --scenario-instance N)"));
  if (options->scenario_instance >= 0 && (options->from != NULL || options->to != NULL))
    return cli_usage_error (command, _("--from/--to do not go with --scenario-instance"));
  return -1;
}

/* Whether the window's end t0 + d overflows a WsTime. */
static gboolean
sum_overflows (WsTime t0,
               WsTime d)
{
  return t0 > 0 && d > G_MAXINT64 - t0;
}

/* --from and --to as typed, before the trace gives the defaults. */
static int
parse_window (const char        *command,
              CliSymptomOptions *options,
              WsSymptom         *symptom)
{
  g_autoptr(GError) error = NULL;
  gboolean relative = options->to != NULL && options->to[0] == '+';

  symptom->thread = WS_NONE;
  symptom->t0 = symptom->t1 = 0;
  if (options->from != NULL && !cli_parse_time (options->from, &symptom->t0, &error))
    return cli_usage_error (command, "%s", error->message);
  /* "--to +50ms": relative to --from (or to the trace start, see below). */
  if (options->to != NULL && !cli_parse_time (relative ? options->to + 1 : options->to, &symptom->t1, &error))
    return cli_usage_error (command, "%s", error->message);
  if (relative && symptom->t1 < 0)
    return cli_usage_error (command, _("the window ends before it starts"));
  if (options->from == NULL || options->to == NULL)
    return -1;
  if (!relative && symptom->t1 < symptom->t0)
    return cli_usage_error (command, _("the window ends before it starts"));
  if (relative && sum_overflows (symptom->t0, symptom->t1))
    return cli_usage_error (command, _("invalid time “%s”: out of range"), options->to);
  return -1;
}

static int
resolve_scenario_instance (CliSymptomOptions *options,
                           WsTrace           *trace,
                           WsSymptom         *symptom)
{
  if (ws_symptom_from_scenario_instance (trace, options->scenario_instance, symptom))
    return -1;
  fprintf (stderr, _("waitscope-cli: %s: no scenario instance %d (the trace has %u)\n"),
           options->trace_path, options->scenario_instance,
           ws_trace_get_n_scenario_instances (trace));
  return 1;
}

/* Fills in the window's defaults from the trace and finds the thread. */
static int
resolve_thread_window (const char        *command,
                       CliSymptomOptions *options,
                       WsTrace           *trace,
                       WsSymptom         *symptom)
{
  if (options->from == NULL)
    symptom->t0 = ws_trace_get_start_time (trace);
  if (options->to == NULL)
    symptom->t1 = ws_trace_get_end_time (trace);
  else if (options->to[0] == '+')
    {
      if (sum_overflows (symptom->t0, symptom->t1))
        return cli_usage_error (command, _("invalid time “%s”: out of range"), options->to);
      symptom->t1 += symptom->t0;
    }
  if (symptom->t1 < symptom->t0)
    return cli_usage_error (command, _("the window ends before it starts"));
  if (options->tid == G_MININT)
    return -1;
  symptom->thread = ws_trace_find_thread (trace, options->tid);
  if (symptom->thread != WS_NONE)
    return -1;
  fprintf (stderr, _("waitscope-cli: %s: no thread with tid %d in the trace\n"),
           options->trace_path, options->tid);
  return 1;
}

int
cli_symptom_resolve (const char          *command,
                     CliSymptomOptions   *options,
                     int                  argc,
                     char               **argv,
                     gboolean             require_symptom,
                     const char * const  *formats,
                     WsTrace            **trace_out,
                     WsSymptom           *symptom,
                     WsFrameClassifier  **classifier_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  int status;

  if ((status = resolve_trace_path (command, options, argc, argv)) >= 0 ||
      (status = resolve_format (command, options, formats)) >= 0 ||
      (status = check_symptom_options (command, options, require_symptom)) >= 0 ||
      (status = parse_window (command, options, symptom)) >= 0)
    return status;

  classifier = ws_frame_classifier_new ();
  if (options->classifier_file != NULL &&
      !ws_frame_classifier_load_file (classifier, options->classifier_file, &error))
    return cli_fail (error);

  rules = ws_scenario_rules_new_default ();
  trace = ws_trace_loader_load_full (options->trace_path, NULL, rules, NULL, NULL, NULL, &error);
  if (trace == NULL)
    return cli_fail (error);

  if (options->scenario_instance >= 0)
    status = resolve_scenario_instance (options, trace, symptom);
  else
    status = resolve_thread_window (command, options, trace, symptom);
  if (status >= 0)
    return status;

  *trace_out = g_steal_pointer (&trace);
  *classifier_out = g_steal_pointer (&classifier);
  return -1;
}

int
cli_symptom_check_event (const char        *command,
                         CliSymptomOptions *options,
                         int                event)
{
  if (event < -1)
    return cli_usage_error (command, _("--event must not be negative"));
  if (event >= 0 && (options->tid != G_MININT || options->scenario_instance >= 0 ||
                     options->from != NULL || options->to != NULL))
    return cli_usage_error (command, _("--event names one wait: it does not go with --tid, --from, --to or --scenario-instance"));
  return -1;
}

int
cli_symptom_from_event (CliSymptomOptions *options,
                        WsTrace           *trace,
                        int                event,
                        WsSymptom         *symptom)
{
  if (ws_symptom_from_wait (trace, (guint) event, symptom))
    return -1;
  fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "waitscope-cli: %s: event %d is not a wait (the trace has %u event)\n",
                            "waitscope-cli: %s: event %d is not a wait (the trace has %u events)\n",
                            ws_trace_get_n_events (trace)),
           options->trace_path, event, ws_trace_get_n_events (trace));
  return 1;
}

int
cli_symptom_write (CliSymptomOptions *options,
                   const char        *text)
{
  g_autoptr(GError) error = NULL;

  if (options->output == NULL)
    {
      fputs (text, stdout);
      return fflush (stdout) == 0 ? 0 : 1;
    }
  if (!ws_atomic_file_set_contents (options->output, text, -1, FALSE, &error))
    {
      g_prefix_error (&error, "%s: ", options->output);
      return cli_fail (error);
    }
  return 0;
}

int
cli_symptom_write_json (CliSymptomOptions *options,
                        JsonNode          *node)
{
  g_autofree char *text = ws_json_text_from_node (node);

  return cli_symptom_write (options, text);
}

/* Options → symptom (or the wait --event names) → @run → JSON or DOT. */
int
cli_symptom_graph_main (int                  argc,
                        char               **argv,
                        const char          *command,
                        const char          *parameter,
                        const char          *description,
                        CliSymptomGraphFunc  run)
{
  static const char * const formats[] = { "json", "dot", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  CliSymptomOptions options;
  WsSymptom symptom;
  int event = -1;
  int status;
  const GOptionEntry entries[] = {
    { "event", 0, 0, G_OPTION_ARG_INT, &event,
      N_("One wait as the symptom: its thread over the wait's span (an event index, as readytree --event takes)"),
      N_("INDEX") },
    { NULL }
  };

  context = cli_symptom_context_new (&options, parameter, description);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!cli_parse_options (context, command, &argc, &argv, &status))
    goto out;
  if ((status = cli_symptom_check_event (command, &options, event)) >= 0)
    goto out;
  status = cli_symptom_resolve (command, &options, argc, argv, event < 0, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0 || (event >= 0 && (status = cli_symptom_from_event (&options, trace, event, &symptom)) >= 0))
    goto out;

  {
    g_autoptr(JsonNode) json = NULL;
    g_autofree char *dot = NULL;

    if (!run (trace, &symptom, classifier, g_str_equal (options.format, "dot") ? &dot : NULL, &json, &error))
      status = cli_fail (error);
    else if (dot != NULL)
      status = cli_symptom_write (&options, dot);
    else
      status = cli_symptom_write_json (&options, json);
  }

out:
  cli_symptom_options_clear (&options);
  return status;
}
