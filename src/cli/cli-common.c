/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-common.h"
#include "ws-error.h"
#include "ws-json-text.h"
#include "ws-trace-loader.h"

/**
 * cli_fail:
 *
 * Prints "waitscope-cli: MESSAGE" (importer messages start "FILE:LINE: ").
 *
 * Returns: %CLI_EXIT_INPUT
 */
int
cli_fail (const GError *error)
{
  fprintf (stderr, "waitscope-cli: %s\n", error->message);
  return CLI_EXIT_INPUT;
}

/**
 * cli_usage_error:
 *
 * Returns: %CLI_EXIT_USAGE
 */
int
cli_usage_error (const char *command,
                 const char *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "waitscope-cli %s: %s\n", command, message);
  fprintf (stderr, _("Run “waitscope-cli %s --help” for its options.\n"), command);
  return CLI_EXIT_USAGE;
}

/**
 * cli_parse_options:
 * @status: (out): the exit status when parsing says to stop
 *
 * Returns: %TRUE to go on; %FALSE on a usage error (@status 2)
 */
gboolean
cli_parse_options (GOptionContext   *context,
                   const char       *command,
                   int              *argc,
                   char           ***argv,
                   int              *status)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *status = cli_usage_error (command, "%s", error->message);
      return FALSE;
    }

  /* GOption stops at "--" but leaves it in place: drop it, so that
   * "info -- -x" reads a file called "-x", not one called "--". */
  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--") == 0)
      {
        memmove (&(*argv)[i], &(*argv)[i + 1], sizeof (char *) * (*argc - i));
        (*argc)--;
        break;
      }
  return TRUE;
}

/**
 * cli_build_rules:
 * @specs: (nullable): "NAME=BEGIN,END[,END…]" rules from --scenario
 * @rules_file: (nullable): a key file of `[scenario NAME]` groups
 * @status: (out): the exit status on failure: 1 for a bad file, 2 for a
 *   bad --scenario (the message is printed)
 *
 * Returns: (transfer full) (nullable): the built-in rules, then those of
 *   the file, then those of the command line (a later rule of the same
 *   name wins)
 */
WsScenarioRules *
cli_build_rules (char       **specs,
                 const char  *rules_file,
                 const char  *command,
                 int         *status)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;

  if (rules_file != NULL && !ws_scenario_rules_load_file (rules, rules_file, &error))
    {
      *status = cli_fail (error);
      return NULL;
    }
  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    if (!ws_scenario_rules_add_from_string (rules, specs[i], &error))
      {
        *status = cli_usage_error (command, "%s", error->message);
        return NULL;
      }
  return g_steal_pointer (&rules);
}

/**
 * cli_load_traces:
 *
 * Loads every path (any format the importers read), one per core at a
 * time, into one shared stack table, so stacks compare by id across
 * traces (ws_trace_loader_load_many()).
 *
 * Returns: (transfer full) (element-type WsTrace): the traces, or %NULL
 *   with @error set at the first that fails
 */
GPtrArray *
cli_load_traces (char            **paths,
                 WsScenarioRules  *rules,
                 GError          **error)
{
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();

  return ws_trace_loader_load_many (paths, stacks, rules, NULL, error);
}

/**
 * cli_parse_time:
 * @text: a number with an optional unit: "1986.6s", "12ms", "40us", "40µs",
 *   "250ns"; without a unit, seconds, as perf prints timestamps (one rule
 *   for every command)
 *
 * Parses exactly (decimal arithmetic, no floating point), so "1986.603075s"
 * is 1986603075000 ns.  Digits finer than a nanosecond are an error.
 */
typedef enum {
  TIME_OK,
  TIME_INVALID,
  TIME_PRECISION,
  TIME_RANGE,
} TimeStatus;

/* A decimal number as typed: whole part, up to nine fraction digits. */
typedef struct {
  gboolean negative;
  guint64  whole;
  guint64  frac;
  int      frac_digits;   /* digits kept in @frac */
} TimeNumber;

static const struct { const char *suffix; gint64 scale; int digits; } time_units[] = {
  { "ns", 1, 0 }, { "us", 1000, 3 }, { "µs", 1000, 3 }, { "ms", 1000000, 6 },
  { "s", 1000000000, 9 }, { "", 1000000000, 9 },
};

/* Reads the number at *@p and leaves *@p on what follows (the unit). */
static TimeStatus
parse_time_number (const char **p,
                   TimeNumber  *n)
{
  const char *q = *p;
  int n_whole = 0, n_frac = 0;

  while (g_ascii_isspace (*q))
    q++;
  if (*q == '-' || *q == '+')
    n->negative = *q++ == '-';
  for (; g_ascii_isdigit (*q); q++, n_whole++)
    {
      if (n->whole > (guint64) (G_MAXINT64 - (*q - '0')) / 10)
        return TIME_RANGE;
      n->whole = n->whole * 10 + (*q - '0');
    }
  if (*q == '.')
    for (q++; g_ascii_isdigit (*q); q++, n_frac++)
      {
        if (n_frac < 9)
          {
            n->frac = n->frac * 10 + (*q - '0');
            n->frac_digits++;
          }
        else if (*q != '0')
          return TIME_PRECISION;
      }
  *p = q;
  return n_whole + n_frac == 0 ? TIME_INVALID : TIME_OK;
}

/* @n in units of @scale ns with @digits fraction digits, in ns.  Fraction
 * digits beyond the unit's resolution must be zeros. */
static TimeStatus
scale_time_number (TimeNumber *n,
                   gint64      scale,
                   int         digits,
                   WsTime     *out)
{
  guint64 value;

  for (; n->frac_digits > digits; n->frac_digits--)
    {
      if (n->frac % 10 != 0)
        return TIME_PRECISION;
      n->frac /= 10;
    }
  for (; n->frac_digits < digits; n->frac_digits++)
    n->frac *= 10;

  if (n->whole > (guint64) G_MAXINT64 / scale)
    return TIME_RANGE;
  value = n->whole * scale + n->frac;
  if (value > (guint64) G_MAXINT64)
    return TIME_RANGE;
  *out = n->negative ? -(gint64) value : (gint64) value;
  return TIME_OK;
}

static gboolean
time_error (TimeStatus   status,
            const char  *text,
            GError     **error)
{
  switch (status)
    {
    case TIME_OK:
      return TRUE;
    case TIME_PRECISION:
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("invalid time “%s”: finer than a nanosecond"), text);
      break;
    case TIME_RANGE:
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("invalid time “%s”: out of range"), text);
      break;
    case TIME_INVALID:
    default:
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("invalid time “%s”: expected a number with an optional unit s, ms, us or ns"), text);
      break;
    }
  return FALSE;
}

gboolean
cli_parse_time (const char *text,
                WsTime     *out,
                GError    **error)
{
  TimeNumber n = { FALSE, 0, 0, 0 };
  const char *p = text;
  TimeStatus status;
  guint u;

  g_return_val_if_fail (text != NULL, FALSE);

  status = parse_time_number (&p, &n);
  if (status != TIME_OK)
    return time_error (status, text, error);
  for (u = 0; u < G_N_ELEMENTS (time_units); u++)
    if (g_str_equal (p, time_units[u].suffix))
      break;
  if (u == G_N_ELEMENTS (time_units))
    return time_error (TIME_INVALID, text, error);
  return time_error (scale_time_number (&n, time_units[u].scale, time_units[u].digits, out), text, error);
}

/**
 * cli_format_duration:
 *
 * Returns: (transfer full): @ns with a readable unit and four significant
 *   figures: "850 ns", "12.35 µs", "1.180 ms", "2.500 s"
 */
char *
cli_format_duration (WsTime ns)
{
  double v = (double) ns;
  double a = ABS (v);

  if (a < 1e3)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (a < 1e6)
    return g_strdup_printf (a < 1e4 ? "%.3f µs" : a < 1e5 ? "%.2f µs" : "%.1f µs", v / 1e3);
  if (a < 1e9)
    return g_strdup_printf (a < 1e7 ? "%.3f ms" : a < 1e8 ? "%.2f ms" : "%.1f ms", v / 1e6);
  return g_strdup_printf ("%.3f s", v / 1e9);
}

/**
 * cli_format_timestamp:
 *
 * Returns: (transfer full): a trace time in seconds as perf prints it
 *   ("1986.603075 s"), with nanoseconds when it has any
 */
char *
cli_format_timestamp (WsTime ns)
{
  const char *sign = ns < 0 ? "-" : "";
  guint64 a = ns < 0 ? -(guint64) ns : (guint64) ns;

  if (a % 1000 == 0)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%06u s", sign, a / 1000000000, (guint) (a % 1000000000 / 1000));
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09u s", sign, a / 1000000000, (guint) (a % 1000000000));
}

/* Stacks are stored caller first; analysts read them leaf first, as perf
 * prints them, so every CLI output is leaf first. */
void
cli_print_stack (FILE         *out,
                 WsStackTable *stacks,
                 WsStackId     stack,
                 const char   *indent)
{
  guint n = 0;
  const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

  if (n == 0)
    fprintf (out, "%s%s\n", indent, _("(no stack recorded)"));
  for (guint k = n; k > 0; k--)
    {
      g_autofree char *text = ws_stack_table_format_frame (stacks, frames[k - 1]);
      fprintf (out, "%s%s\n", indent, text);
    }
}

void
cli_print_json (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  cli_print_json_node (root);
}

/* A core export's JSON (ws-*-export.h) on stdout, as valid UTF-8. */
void
cli_print_json_node (JsonNode *node)
{
  g_autofree char *text = ws_json_text_from_node (node);

  fputs (text, stdout);
}

/**
 * cli_write_trace:
 *
 * The whole of a command described by @writer: options, the trace given,
 * and @writer's save into -o FILE.
 *
 * Returns: the exit status
 */
int
cli_write_trace (const CliTraceWriter *writer,
                 int                   argc,
                 char                **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) scenarios = NULL;
  g_autofree char *rules_file = NULL;
  g_autofree char *output = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, writer->output_help, N_("FILE") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (writer->parameter);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, writer->command, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error (writer->command, "%s", argc < 2 ? writer->no_input : writer->many_inputs);
  if (output == NULL)
    return cli_usage_error (writer->command, "%s", writer->no_output);

  if ((rules = cli_build_rules (scenarios, rules_file, writer->command, &status)) == NULL)
    return status;
  if ((trace = ws_trace_loader_load_full (argv[1], NULL, rules, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if (!writer->save (trace, output, NULL, &error))
    return cli_fail (error);
  return CLI_EXIT_OK;
}
