/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli mine TRACE…: the costly maximal call-stack patterns of the
 * traces' waiting (or running) stacks, StackMine §V, over an area of
 * interest chosen by scope and content (§IV).  The traces read are
 * recorded in the history store, whose counts weight `cluster`.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-common.h"
#include "cli-digest.h"
#include "cli-mine.h"
#include "ws-mining-words.h"
#include "ws-perf-importer.h"
#include "ws-error.h"

int cli_mine (int argc, char **argv);

void
cli_mine_options_init (CliMineOptions *options)
{
  memset (options, 0, sizeof *options);
  options->lambda_share = 0.01;
  options->top = 20;
}

void
cli_mine_options_clear (CliMineOptions *options)
{
  g_clear_pointer (&options->must, g_strfreev);
  g_clear_pointer (&options->must_not, g_strfreev);
  g_clear_pointer (&options->scope, g_free);
  g_clear_pointer (&options->lambda, g_free);
  g_clear_pointer (&options->lambda_delay, g_free);
  g_clear_pointer (&options->history, g_free);
  g_clear_pointer (&options->scenarios, g_strfreev);
  g_clear_pointer (&options->scenario_file, g_free);
  g_clear_pointer (&options->rank, g_free);
  cli_classes_clear (&options->classes);
}

void
cli_mine_add_entries (GOptionContext *context,
                      CliMineOptions *options)
{
  const GOptionEntry entries[] = {
    { "waiting", 0, 0, G_OPTION_ARG_NONE, &options->waiting,
      N_("Mine waiting stacks (the default)"), NULL },
    { "running", 0, 0, G_OPTION_ARG_NONE, &options->running,
      N_("Mine sampled running stacks instead"), NULL },
    { "must", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->must,
      N_("Keep only stacks with a frame matching REGEX (\"function (module)\"); repeatable"), N_("REGEX") },
    { "must-not", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->must_not,
      N_("Drop stacks with a frame matching REGEX; repeatable"), N_("REGEX") },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &options->scope,
      N_("delaying (the default: every wait that delayed another thread, no idle loops), all, scenario:NAME, "
         "tid:TID[,TID…], waitgraph:NAME or critical-path:NAME"), N_("SCOPE") },
    { "per-instance", 0, 0, G_OPTION_ARG_NONE, &options->per_instance,
      N_("With a scenario scope, make each instance a trace stream of its own"), NULL },
    { "lambda", 0, 0, G_OPTION_ARG_STRING, &options->lambda,
      N_("The cost threshold λ (a time: 30s, 12ms, 250000ns; a bare number is seconds)"), N_("TIME") },
    { "lambda-share", 0, 0, G_OPTION_ARG_DOUBLE, &options->lambda_share,
      N_("λ by the paper's guideline: this share of the streams (default 0.01)…"), N_("S") },
    { "lambda-delay", 0, 0, G_OPTION_ARG_STRING, &options->lambda_delay,
      N_("…times this delay per stream (default: the streams' mean delay)…, times the number of streams"), N_("TIME") },
    { "top", 0, 0, G_OPTION_ARG_INT, &options->top,
      N_("Show this many patterns or clusters (default 20; 0 = all)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options->json, N_("Print JSON"), NULL },
    { "history", 0, 0, G_OPTION_ARG_FILENAME, &options->history,
      N_("The history database (default $WAITSCOPE_HISTORY or ~/.local/share/waitscope/history.sqlite)"), N_("FILE") },
    { "by-cause", 0, 0, G_OPTION_ARG_NONE, &options->by_cause,
      N_("Mine what kept the delayed threads waiting: each wait that delayed another thread is charged to what "
         "its readier was doing meanwhile (followed through the readier's own waits), so a pattern costs the "
         "delay it propagated"), NULL },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &options->no_history,
      N_("Neither record the traces in the history nor read it"), NULL },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &options->scenario_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  cli_classes_add_entries (g_option_context_get_main_group (context), &options->classes);
}

void
cli_mine_result_clear (CliMineResult *result)
{
  g_clear_pointer (&result->run, ws_mining_result_unref);
  memset (result, 0, sizeof *result);
}

/* --scope: all, tid:TID[,TID…], scenario:NAME, waitgraph:NAME or
 * critical-path:NAME, into @settings (@name and @tids keep the strings
 * and ids the settings borrow). */
static gboolean
parse_scope (const char       *command,
             const char       *text,
             WsMiningSettings *settings,
             char            **name,
             GArray           *tids,
             int              *status)
{
  static const struct { const char *prefix; WsMiningRunScope scope; gboolean critical; } kinds[] = {
    { "scenario:", WS_MINING_RUN_SCOPE_INSTANCES, FALSE },
    { "waitgraph:", WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS, FALSE },
    { "critical-path:", WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS, TRUE },
  };

  /* No --scope: ws_mining_settings_init()'s default (delaying). */
  if (text == NULL)
    return TRUE;
  settings->scope = WS_MINING_RUN_SCOPE_DELAYING;
  if (g_str_equal (text, "delaying"))
    return TRUE;
  settings->scope = WS_MINING_RUN_SCOPE_ALL;
  if (g_str_equal (text, "all"))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_has_prefix (text, kinds[i].prefix) && text[strlen (kinds[i].prefix)] != '\0')
      {
        settings->scope = kinds[i].scope;
        settings->critical_path = kinds[i].critical;
        settings->scenario = *name = g_strdup (text + strlen (kinds[i].prefix));
        return TRUE;
      }

  if (g_str_has_prefix (text, "tid:"))
    {
      g_auto(GStrv) parts = g_strsplit (text + 4, ",", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          gint64 v;
          gint32 tid;

          if (!g_ascii_string_to_signed (parts[i], 10, 0, G_MAXINT32, &v, NULL))
            {
              *status = cli_usage_error (command, _("“%s” is not a thread id"), parts[i]);
              return FALSE;
            }
          tid = v;
          g_array_append_val (tids, tid);
        }
      settings->tids = (const gint32 *) (gpointer) tids->data;
      settings->n_tids = tids->len;
      return tids->len > 0;
    }

  *status = cli_usage_error (command, _("unknown scope “%s”: use delaying, all, scenario:NAME, tid:TID, "
                                        "waitgraph:NAME or critical-path:NAME"), text);
  return FALSE;
}

/* The option checks that need no trace: usage errors exit 2 before any
 * trace is read, whatever the traces hold. */
static int
check_options (const char     *command,
               CliMineOptions *options,
               int             argc)
{
  g_autoptr(GError) error = NULL;
  WsTime scratch;

  if (argc < 2 && !cli_classes_given (&options->classes))
    return cli_usage_error (command, "%s", _("no trace given"));
  if (options->running && options->waiting)
    return cli_usage_error (command, "%s", _("--waiting and --running exclude each other"));
  if (options->lambda != NULL && options->lambda_delay != NULL)
    return cli_usage_error (command, "%s", _("--lambda and --lambda-delay exclude each other"));
  if (options->lambda_share <= 0 || options->lambda_share > 1)
    return cli_usage_error (command, "%s", _("--lambda-share must be in (0, 1]"));
  if (options->top < 0)
    return cli_usage_error (command, "%s", _("--top must not be negative"));
  if (options->lambda != NULL && !cli_parse_time (options->lambda, &scratch, &error))
    return cli_usage_error (command, "--lambda: %s", error->message);
  if (options->lambda != NULL && scratch <= 0)
    return cli_usage_error (command, "%s", _("λ must be positive"));
  if (options->lambda_delay != NULL && !cli_parse_time (options->lambda_delay, &scratch, &error))
    return cli_usage_error (command, "--lambda-delay: %s", error->message);
  return -1;
}

/* The options' part of the settings (λ, stacks, filters, history). */
static void
fill_settings (CliMineOptions   *options,
               WsMiningSettings *settings)
{
  settings->stacks = options->running ? WS_AOI_RUNNING : WS_AOI_WAITING;
  settings->must = (const char *const *) options->must;
  settings->must_not = (const char *const *) options->must_not;
  settings->per_instance = options->per_instance;
  settings->lambda_share = options->lambda_share;
  if (options->lambda != NULL)
    cli_parse_time (options->lambda, &settings->lambda, NULL);
  if (options->lambda_delay != NULL)
    cli_parse_time (options->lambda_delay, &settings->lambda_delay, NULL);
  settings->history_path = options->history;
  settings->read_history = !options->no_history;
  settings->record_history = !options->no_history;
  settings->by_cause = options->by_cause;
}

static gboolean
traces_have_waits (GPtrArray *traces)
{
  for (guint i = 0; i < traces->len; i++)
    if (ws_trace_count_kind (g_ptr_array_index (traces, i), WS_EVENT_WAIT) > 0)
      return TRUE;
  return FALSE;
}

static int finish_run (const char *command, CliMineResult *result, GError *error);

/* Whether to load every trace before mining, as before traces were mined
 * as they load: WAITSCOPE_MINE_HOLD_TRACES=1, for the tests and benchmarks
 * that compare the two.  A scope a digest does not hold always does. */
static gboolean
hold_traces (void)
{
  return g_strcmp0 (g_getenv ("WAITSCOPE_MINE_HOLD_TRACES"), "1") == 0;
}

/* cli_mine_run() over digests, or over traces reduced to digests as they
 * load (none held: memory grows with distinct stacks, not with traces):
 * the same run, for the scopes a digest holds. */
static int
mine_digests (const char       *command,
              CliMineOptions   *options,
              WsMiningSettings *settings,
              char            **paths,
              CliMineResult    *result)
{
  g_autoptr(WsDigest) digest = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n_waits = 0;
  guint areas;

  if (!ws_mining_settings_fit_digest (settings, &error))
    return cli_usage_error (command, "%s", error->message);
  /* Traces are reduced to the area mined, and to the running stacks too
   * when a trace without waits may switch the run to them (below). */
  areas = 1u << ws_mining_settings_digest_area (settings);
  if (!options->running && !options->waiting)
    areas |= 1u << WS_DIGEST_AREA_RUNNING;
  if ((digest = cli_load_digests_areas (paths, WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_INSTANCES,
                                        areas, &error)) == NULL)
    return cli_fail (error);
  if (settings->classes != NULL && ws_digest_get_n_traces (digest) != g_strv_length (paths))
    return cli_usage_error (command, "%s", _("--slow, --fast and --classes take digests of one trace each"));
  for (guint i = 0; i < ws_digest_get_n_traces (digest); i++)
    n_waits += ws_digest_get_trace (digest, i)->n_waits;
  if (!options->running && !options->waiting && n_waits == 0)
    {
      options->running = TRUE;
      settings->stacks = WS_AOI_RUNNING;
      fprintf (stderr, "%s\n%s\n    %s\n",
               _("waitscope-cli: no waits in these traces (no sched_switch events): mining sampled running stacks (--running)."),
               _("To see waits, record the scheduler events with call stacks:"), WS_PERF_RECORD_WAITS_COMMAND);
    }
  result->run = ws_mining_run_digest (digest, settings, NULL, NULL, NULL, &error);
  return finish_run (command, result, error);
}

/**
 * cli_mine_run:
 * @settings: what the command adds (clustering, signatures); the options
 *   fill in the rest
 * @argv: argv[1…] are the traces
 *
 * Returns: -1 to go on with @result filled, else the exit status (the
 *   message is printed)
 */
int
cli_mine_run (const char       *command,
              CliMineOptions   *options,
              WsMiningSettings *settings,
              int               argc,
              char            **argv,
              CliMineResult    *result)
{
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_auto(GStrv) paths = NULL;
  int status;

  memset (result, 0, sizeof *result);
  if ((status = check_options (command, options, argc)) >= 0)
    return status;
  if (!parse_scope (command, options->scope, settings, &scenario, tids, &status))
    return status;
  if (options->per_instance && (settings->scope == WS_MINING_RUN_SCOPE_ALL ||
                                settings->scope == WS_MINING_RUN_SCOPE_DELAYING))
    return cli_usage_error (command, "%s", _("--per-instance needs a scenario, waitgraph or critical-path scope"));
  fill_settings (options, settings);
  if (!ws_mining_settings_check (settings, &error))
    return cli_usage_error (command, "%s", error->message);

  if ((rules = cli_build_rules (options->scenarios, options->scenario_file, command, &status)) == NULL)
    return status;
  if (settings->rank == WS_CLUSTER_RANK_DISCRIMINATIVE && !cli_classes_given (&options->classes))
    return cli_usage_error (command, "%s", _("ranking by the discriminative score needs --slow and --fast traces, "
                                             "or --classes"));
  if ((paths = cli_classes_paths (command, &options->classes, argv + 1, &status)) == NULL)
    return status;
  if (cli_classes_given (&options->classes))
    settings->classes = (const WsRunClass *) (gconstpointer) options->classes.classes->data;
  if (cli_paths_have_digest (paths) || (ws_mining_settings_fit_digest (settings, NULL) && !hold_traces ()))
    return mine_digests (command, options, settings, paths, result);
  if ((traces = cli_load_traces (paths, rules, &error)) == NULL)
    return cli_fail (error);

  /* A profile of samples alone has no waits: mine what it has, and say
   * how to record waits. */
  if (!options->running && !options->waiting && !traces_have_waits (traces))
    {
      options->running = TRUE;
      settings->stacks = WS_AOI_RUNNING;
      fprintf (stderr, "%s\n%s\n    %s\n",
               _("waitscope-cli: no waits in these traces (no sched_switch events): mining sampled running stacks (--running)."),
               _("To see waits, record the scheduler events with call stacks:"), WS_PERF_RECORD_WAITS_COMMAND);
    }

  result->run = ws_mining_run (traces, settings, NULL, NULL, NULL, &error);
  return finish_run (command, result, error);
}

/* After the run: its warnings, or its error. */
static int
finish_run (const char    *command,
            CliMineResult *result,
            GError        *error)
{
  if (result->run == NULL)
    /* Settings were checked: what is left invalid is a --signature. */
    return g_error_matches (error, WS_ERROR, WS_ERROR_INVALID)
           ? cli_usage_error (command, "--signature: %s", error->message) : cli_fail (error);
  for (guint i = 0; i < result->run->warnings->len; i++)
    fprintf (stderr, _("waitscope-cli: warning: %s\n"), (const char *) g_ptr_array_index (result->run->warnings, i));

  result->traces = result->run->traces;
  result->db = result->run->db;
  result->patterns = result->run->patterns;
  result->history = result->run->history;
  result->lambda = result->run->lambda;
  result->total_delay = result->run->total_delay;
  result->n_recorded = result->run->n_recorded;
  return -1;
}

char *
cli_mine_format_discriminative (gint64 score)
{
  g_autofree char *d = cli_format_duration (ABS (score));

  return ws_mining_dup_discriminative (score, d);
}

/* "transaction (1368), other (2)": the scenarios the traces hold; adds
 * the instances of @scenario to @n_named. */
static char *
scenarios_present (GPtrArray  *traces,
                   const char *scenario,
                   guint      *n_named)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) names = NULL;
  GString *out = g_string_new (NULL);

  for (guint t = 0; t < traces->len; t++)
    {
      WsTrace *trace = g_ptr_array_index (traces, t);

      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const char *name = ws_trace_get_string (trace, ws_trace_get_scenario_instance (trace, i)->scenario);
          g_hash_table_insert (counts, (gpointer) name,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
          *n_named += g_strcmp0 (name, scenario) == 0;
        }
    }
  names = g_list_sort (g_hash_table_get_keys (counts), (GCompareFunc) g_strcmp0);
  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (out, "%s%s (%u)", out->len ? ", " : "", (char *) l->data,
                            GPOINTER_TO_UINT (g_hash_table_lookup (counts, l->data)));
  return g_string_free (out, FALSE);
}

/* What the scope left out or why it is empty, translated; NULL if nothing
 * needs saying. */
static char *
scope_note (CliMineOptions *options,
            CliMineResult  *result)
{
  const char *scope = options->scope;
  const char *colon = scope != NULL ? strchr (scope, ':') : NULL;
  g_autofree char *present = NULL;
  guint n_named = 0;

  if ((scope == NULL || g_str_equal (scope, "delaying")) && result->run->n_left_out > 0)
    {
      g_autofree char *time = cli_format_duration (result->run->left_out_time);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Left out %llu wait (%s) that delayed no other thread (idle loops, daemons "
                                           "waiting for work); --scope all includes it.",
                                           "Left out %llu waits (%s) that delayed no other thread (idle loops, daemons "
                                           "waiting for work); --scope all includes them.", result->run->n_left_out),
                              (unsigned long long) result->run->n_left_out, time);
    }
  if (colon == NULL || g_str_has_prefix (scope, "tid:"))
    return NULL;
  present = scenarios_present (result->traces, colon + 1, &n_named);
  if (n_named > 0)
    return NULL;
  if (present[0] == '\0')
    return g_strdup_printf (_("Scope “%s” matches nothing: the traces have no scenario instances. "
                              "Use --scope delaying (the default), all or tid:TID, or define a scenario "
                              "with --scenario NAME=BEGIN,END."), scope);
  return g_strdup_printf (_("Scope “%s” matches nothing: no instance of scenario “%s”. The traces have: %s."),
                          scope, colon + 1, present);
}

void
cli_mine_print_scope_note (CliMineOptions *options,
                           CliMineResult  *result)
{
  g_autofree char *note = scope_note (options, result);

  if (note != NULL)
    printf ("%s\n", note);
}

/**
 * cli_mine_export_options:
 * @note: (out): keeps the scope note the options borrow; free it
 *
 * What the JSON says that the run does not know of itself: what was
 * mined, the scope as given, its note, how many to list.
 */
void
cli_mine_export_options (CliMineOptions        *options,
                         CliMineResult         *result,
                         WsMiningExportOptions *export,
                         char                 **note)
{
  *note = scope_note (options, result);
  *export = (WsMiningExportOptions) {
    .stacks = options->by_cause ? "causes" : options->running ? "running" : "waiting",
    .scope = options->scope,
    .scope_note = *note,
    .top = options->top,
  };
}

void
cli_mine_print_frames (WsStackTable    *table,
                       const WsFrameId *frames,
                       guint            n_frames,
                       const char      *indent)
{
  for (guint i = 0; i < n_frames; i++)
    {
      g_autofree char *text = ws_stack_table_format_frame (table, frames[i]);
      printf ("%s%s\n", indent, text);
    }
}

static void
print_text (CliMineOptions *options,
            CliMineResult  *result)
{
  WsStackTable *table = ws_stack_db_get_stack_table (result->db);
  guint n = ws_pattern_set_get_n_patterns (result->patterns);
  guint shown = options->top == 0 ? n : MIN ((guint) options->top, n);
  g_autofree char *lambda = cli_format_duration (result->lambda);
  g_autofree char *cost = cli_format_duration (ws_stack_db_get_total_cost (result->db));

  {
    guint n_streams = ws_stack_db_get_n_streams (result->db);
    guint64 n_events = ws_stack_db_get_n_events (result->db);
    g_autofree char *streams = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u trace stream", "%u trace streams",
                                                             n_streams), n_streams);

    /* Translators: "3 trace streams", then stack count, running/waiting,
     * distinct stacks, total cost */
    printf (g_dngettext (GETTEXT_PACKAGE, "%s, %llu %s stack (%u distinct), total cost %s\n",
                         "%s, %llu %s stacks (%u distinct), total cost %s\n", n_events),
            streams, (unsigned long long) n_events,
            options->by_cause ? _("cause") : options->running ? _("running") : _("waiting"),
            ws_stack_db_get_n_entries (result->db), cost);
  }
  cli_mine_print_scope_note (options, result);
  /* Over a fleet with no slow or fast class the costliest patterns are
   * what every trace does most (a service's pacing sleep, its idle
   * reads), not what the slow traces have more of: say how to ask that. */
  if (!result->run->discriminative)
    {
      g_autofree char *note = ws_mining_dup_unclassed_note (result->run->n_traces);

      if (note != NULL)
        /* Translators: after "24 traces, no slow or fast class: ranked by
         * cost over all of them.": how the command line takes classes */
        printf ("%s %s\n", note, _("To rank what slow traces have more of than fast ones, give --classes FILE "
                                   "or --slow/--fast with --rank discriminative."));
    }
  printf (g_dngettext (GETTEXT_PACKAGE,
                       "λ = %s: %u maximal pattern of cost ≥ λ (frames caller first)\n",
                       "λ = %s: %u maximal patterns of cost ≥ λ (frames caller first)\n", n),
          lambda, n);

  for (guint i = 0; i < shown; i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (result->patterns, i);
      g_autofree char *c = cli_format_duration (p->cost);

      printf ("\n#%u  %s  ", i + 1, c);
      printf (g_dngettext (GETTEXT_PACKAGE, "%llu event", "%llu events", p->n_events),
              (unsigned long long) p->n_events);
      printf ("  ");
      printf (g_dngettext (GETTEXT_PACKAGE, "%u stream", "%u streams", p->n_streams), p->n_streams);
      if (result->run->discriminative)
        {
          g_autofree char *d = cli_mine_format_discriminative (p->discriminative);
          printf ("  %s", d);
        }
      printf ("\n");
      cli_mine_print_frames (table, p->frames, p->n_frames, "    ");
    }
}

int
cli_mine (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  CliMineOptions options;
  CliMineResult result = { 0 };
  WsMiningSettings settings;
  int status;

  cli_mine_options_init (&options);
  ws_mining_settings_init (&settings);
  context = g_option_context_new (_("TRACE… — costly maximal call-stack patterns (StackMine)"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  cli_mine_add_entries (context, &options);
  {
    const GOptionEntry rank_entries[] = {
      { "rank", 0, 0, G_OPTION_ARG_STRING, &options.rank,
        N_("Order the patterns by total cost (the default) or by their discriminative score (how much more they "
           "cost a slow trace than a fast one; needs --slow and --fast, or --classes)"), N_("total|discriminative") },
      { NULL }
    };
    g_option_context_add_main_entries (context, rank_entries, GETTEXT_PACKAGE);
  }
  g_option_context_set_description (context,
    _("A pattern is a subsequence of a call stack (caller first); its cost is the summed cost "
      "(wait time, or sample periods) of the events whose stack contains it.  Printed: every "
      "pattern of cost ≥ λ with no super-pattern of cost ≥ λ, by decreasing cost.  Trace streams "
      "are the traces, or with --per-instance the scenario instances; λ defaults to the paper's "
      "guideline with a share of 0.01 and the streams' mean delay.  Traces read are recorded in "
      "the history store."));

  if (!cli_parse_options (context, "mine", &argc, &argv, &status))
    goto out;
  if (g_strcmp0 (options.rank, "discriminative") == 0)
    settings.rank = WS_CLUSTER_RANK_DISCRIMINATIVE;
  else if (options.rank != NULL && g_strcmp0 (options.rank, "total") != 0)
    {
      status = cli_usage_error ("mine", _("unknown order “%s”: use total or discriminative"), options.rank);
      goto out;
    }
  status = cli_mine_run ("mine", &options, &settings, argc, argv, &result);
  if (status >= 0)
    goto out;

  if (options.json)
    {
      g_autofree char *note = NULL;
      WsMiningExportOptions export;
      g_autoptr(JsonNode) json = NULL;

      cli_mine_export_options (&options, &result, &export, &note);
      json = ws_mining_export_patterns_json (result.run, &export);
      cli_print_json_node (json);
    }
  else
    print_text (&options, &result);

  status = CLI_EXIT_OK;
out:
  cli_mine_result_clear (&result);
  cli_mine_options_clear (&options);
  return status;
}
