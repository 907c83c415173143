/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli why: what held a delay up — the root-cause attribution of
 * one thread's window, one scenario instance, or the slowest instances of
 * one or more traces, top cause first (see docs/attribution.md).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-common.h"
#include "ws-perf-importer.h"
#include "ws-attribution-export.h"
#include "ws-why-targets.h"
#include "ws-cause-ended.h"

int cli_why (int argc, char **argv);


typedef struct {
  char   **traces;
  int      tid;
  char    *from;
  char    *to;
  char    *at;
  int      event;
  int      scenario_instance;
  int      slowest;
  char    *slower_than;
  char    *scenario;
  int      top;
  gboolean json;
  char    *classifier_file;
  char   **scenarios;
  char    *scenario_file;
  char    *comm;
  int      pid;
} WhyOptions;

static void
why_options_clear (WhyOptions *o)
{
  g_strfreev (o->traces);
  g_free (o->from);
  g_free (o->to);
  g_free (o->at);
  g_free (o->slower_than);
  g_free (o->scenario);
  g_free (o->classifier_file);
  g_strfreev (o->scenarios);
  g_free (o->scenario_file);
  g_free (o->comm);
}

static GOptionContext *
why_context_new (WhyOptions *o)
{
  const GOptionEntry entries[] = {
    { "trace", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->traces,
      N_("A trace (repeatable; traces may also be given as arguments)"), N_("FILE") },
    { "tid", 0, 0, G_OPTION_ARG_INT, &o->tid, N_("Explain this thread's window"), N_("TID") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o->from,
      N_("Start of the window (1986.6, 12ms…); default: trace start"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o->to,
      N_("End of the window, or +DURATION after --from; default: trace end"), N_("TIME") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &o->at,
      N_("With --tid: explain the thread's wait in progress at TIME"), N_("TIME") },
    { "event", 0, 0, G_OPTION_ARG_INT, &o->event,
      N_("Explain this wait event (an index, as readytree --event takes)"), N_("INDEX") },
    { "scenario-instance", 0, 0, G_OPTION_ARG_INT, &o->scenario_instance,
      N_("Explain scenario instance N (0-based, one trace)"), "N" },
    { "slowest", 0, 0, G_OPTION_ARG_INT, &o->slowest,
      N_("Sum over the K slowest scenario instances of all traces"), "K" },
    { "slower-than", 0, 0, G_OPTION_ARG_STRING, &o->slower_than,
      N_("Sum over every scenario instance slower than TIME"), N_("TIME") },
    { "scenario-name", 0, 0, G_OPTION_ARG_STRING, &o->scenario,
      N_("Only instances of this scenario (default: any)"), N_("NAME") },
    { "comm", 0, 0, G_OPTION_ARG_STRING, &o->comm,
      N_("Without scenarios: explain the processes of this name instead of the program picked"), N_("NAME") },
    { "pid", 0, 0, G_OPTION_ARG_INT, &o->pid,
      N_("Without scenarios: explain this process instead of the program picked"), N_("PID") },
    { "top", 0, 0, G_OPTION_ARG_INT, &o->top, N_("Show this many causes (default 10; 0 = all)"), "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, N_("Print JSON"), NULL },
    { "classifier", 0, 0, G_OPTION_ARG_FILENAME, &o->classifier_file,
      N_("Key file overriding the timer / interrupt / heartbeat lists"), N_("FILE") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &o->scenario_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };
  GOptionContext *context = g_option_context_new (_("[TRACE…] — what held the delay up, top cause first"));

  memset (o, 0, sizeof *o);
  o->tid = G_MININT;
  o->scenario_instance = -1;
  o->event = -1;
  o->slowest = -1;
  o->top = 10;
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Walks back from the end of each delay through the threads that readied one another to "
      "the deepest thread holding things up at each moment, and sums those moments by cause: "
      "what that thread was blocked in (its user-space blocking frame and caller, or its kernel "
      "function), what it was running, or that it waited for a CPU.  Without a selection: the "
      "slowest 10 % of the scenario instances, or, with none, the threads of the program held up "
      "most (by its own threads, its I/O, or waiting for a CPU)."));
  return context;
}

/* Usage checks that need no trace.  Returns -1 to go on. */
static int
check_usage (WhyOptions *o,
             WsTime     *threshold)
{
  g_autoptr(GError) error = NULL;
  guint n_selectors = (o->tid != G_MININT) + (o->event >= 0) + (o->scenario_instance >= 0) + (o->slowest >= 0) +
                      (o->slower_than != NULL);

  if (n_selectors > 1)
    return cli_usage_error ("why", "%s", _("give one of --tid, --event, --scenario-instance, --slowest, --slower-than"));
  if ((o->from != NULL || o->to != NULL || o->at != NULL) && o->tid == G_MININT)
    return cli_usage_error ("why", "%s", _("--from/--to and --at go with --tid"));
  if (o->at != NULL && (o->from != NULL || o->to != NULL))
    return cli_usage_error ("why", "%s", _("give --at or --from/--to, not both"));
  if (o->event < -1)
    return cli_usage_error ("why", "%s", _("--event must not be negative"));
  if (o->slowest == 0)
    return cli_usage_error ("why", "%s", _("--slowest must be at least 1"));
  if (o->comm != NULL && o->pid != 0)
    return cli_usage_error ("why", "%s", _("give --comm or --pid, not both"));
  if (o->pid < 0)
    return cli_usage_error ("why", "%s", _("--pid must be positive"));
  if ((o->comm != NULL || o->pid != 0) && n_selectors > 0)
    return cli_usage_error ("why", "%s", _("--comm and --pid choose the program the picker explains; "
                                           "--tid, --event and the scenario options choose the delay themselves"));
  if (o->top < 0)
    return cli_usage_error ("why", "%s", _("--top must not be negative"));
  if (o->slower_than != NULL && !cli_parse_time (o->slower_than, threshold, &error))
    return cli_usage_error ("why", "--slower-than: %s", error->message);
  if ((o->tid != G_MININT || o->event >= 0 || o->scenario_instance >= 0) && g_strv_length (o->traces) != 1)
    return cli_usage_error ("why", "%s", _("--tid, --event and --scenario-instance need exactly one trace"));
  return -1;
}

/* The --tid window.  Returns -1 to go on. */
static int
window_target (WhyOptions *o,
               WsTrace    *trace,
               GArray     *targets)
{
  g_autoptr(GError) error = NULL;
  WsAttributionTarget t = { trace, { WS_NONE, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) }, WS_NONE };

  if (o->from != NULL && !cli_parse_time (o->from, &t.symptom.t0, &error))
    return cli_usage_error ("why", "%s", error->message);
  if (o->to != NULL && !cli_parse_time (o->to[0] == '+' ? o->to + 1 : o->to, &t.symptom.t1, &error))
    return cli_usage_error ("why", "%s", error->message);
  if (o->to != NULL && o->to[0] == '+')
    t.symptom.t1 += t.symptom.t0;
  if (t.symptom.t1 < t.symptom.t0)
    return cli_usage_error ("why", "%s", _("the window ends before it starts"));
  t.symptom.thread = ws_trace_find_thread (trace, o->tid);
  if (t.symptom.thread == WS_NONE)
    {
      fprintf (stderr, _("waitscope-cli: %s: no thread with tid %d in the trace\n"), ws_trace_get_path (trace), o->tid);
      return CLI_EXIT_INPUT;
    }
  g_array_append_val (targets, t);
  return -1;
}

/* One wait: --event INDEX, or --tid TID --at TIME.  Returns -1 to go on. */
static int
wait_target (WhyOptions *o,
             WsTrace    *trace,
             GArray     *targets,
             char      **what)
{
  g_autoptr(GError) error = NULL;
  WsAttributionTarget t = { trace, { 0 }, WS_NONE };
  guint event = o->event >= 0 ? (guint) o->event : WS_NONE;

  if (o->at != NULL)
    {
      WsTime at;
      guint thread = ws_trace_find_thread (trace, o->tid);

      if (!cli_parse_time (o->at, &at, &error))
        return cli_usage_error ("why", "--at: %s", error->message);
      if (thread == WS_NONE)
        {
          fprintf (stderr, _("waitscope-cli: %s: no thread with tid %d in the trace\n"), ws_trace_get_path (trace), o->tid);
          return CLI_EXIT_INPUT;
        }
      event = ws_symptom_wait_at (trace, thread, at);
      if (event == WS_NONE)
        {
          fprintf (stderr, _("waitscope-cli: %s: thread %d was not waiting at %s\n"), ws_trace_get_path (trace), o->tid, o->at);
          return CLI_EXIT_INPUT;
        }
    }
  if (!ws_symptom_from_wait (trace, event, &t.symptom))
    {
      fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "waitscope-cli: %s: event %d is not a wait (the trace has %u event)\n",
                            "waitscope-cli: %s: event %d is not a wait (the trace has %u events)\n",
                            ws_trace_get_n_events (trace)),
               ws_trace_get_path (trace), o->event, ws_trace_get_n_events (trace));
      return CLI_EXIT_INPUT;
    }
  g_array_append_val (targets, t);
  *what = g_strdup_printf (_("wait event %u of thread %d"), event, ws_trace_get_thread (trace, t.symptom.thread)->tid);
  return -1;
}

/* What to explain, and a sentence saying so.  Returns -1 to go on. */
static int
pick_targets (WhyOptions        *o,
              GPtrArray         *traces,
              WsTime             threshold,
              WsFrameClassifier *classifier,
              GArray           **targets,
              char             **what,
              GPtrArray        **picks)
{
  WsTrace *first = g_ptr_array_index (traces, 0);

  if (o->event >= 0 || o->at != NULL)
    {
      *targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
      return wait_target (o, first, *targets, what);
    }
  if (o->tid != G_MININT)
    {
      *targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
      *what = g_strdup_printf (_("thread %d in the window"), o->tid);
      return window_target (o, first, *targets);
    }
  if (o->scenario_instance >= 0)
    {
      WsAttributionTarget t = { first, { 0 }, o->scenario_instance };

      if (!ws_symptom_from_scenario_instance (first, o->scenario_instance, &t.symptom))
        {
          fprintf (stderr, _("waitscope-cli: %s: no scenario instance %d (the trace has %u)\n"),
                   ws_trace_get_path (first), o->scenario_instance, ws_trace_get_n_scenario_instances (first));
          return CLI_EXIT_INPUT;
        }
      *targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
      g_array_append_val (*targets, t);
      *what = g_strdup_printf (_("scenario instance %d"), o->scenario_instance);
      return -1;
    }
  if (o->slowest > 0)
    {
      *targets = ws_attribution_targets_slowest (traces, o->scenario, o->slowest);
      *what = g_strdup_printf (_("the %u slowest scenario instances"), (*targets)->len);
    }
  else if (o->slower_than != NULL)
    {
      *targets = ws_attribution_targets_slower_than (traces, o->scenario, threshold);
      *what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the %u scenario instance slower than %s",
                                            "the %u scenario instances slower than %s", (*targets)->len),
                               (*targets)->len, o->slower_than);
    }
  else
    {
      WsPickChoice choice = { o->comm, o->pid };
      WsWhyTargetsKind kind;

      *targets = ws_why_default_targets (traces, o->scenario, classifier,
                                         o->comm != NULL || o->pid > 0 ? &choice : NULL, picks, &kind);
      if (kind == WS_WHY_TARGETS_SLOWEST_SHARE)
        *what = g_strdup_printf (_("the slowest 10 %% of the scenario instances (%u)"), (*targets)->len);
      else
        {
          if ((*targets)->len == 0 && (o->comm != NULL || o->pid > 0))
            {
              if (o->comm != NULL)
                fprintf (stderr, _("waitscope-cli: why: no process named “%s” was held up in the trace\n"), o->comm);
              else
                fprintf (stderr, _("waitscope-cli: why: no process with pid %d was held up in the trace\n"), o->pid);
              return CLI_EXIT_INPUT;
            }
          *what = ws_thread_picks_explained (*picks, (*targets)->len);
        }
    }
  if ((*targets)->len == 0)
    {
      fprintf (stderr, "%s\n", _("waitscope-cli: why: no scenario instance matches; "
                                 "“waitscope-cli scenarios TRACE” lists them, --tid explains a thread instead"));
      return CLI_EXIT_INPUT;
    }
  return -1;
}

static void
print_text (WsAttribution *attr,
            const char    *what,
            GPtrArray     *picks,
            guint          top)
{
  g_autofree char *total = cli_format_duration (ws_attribution_get_total (attr));
  guint n = ws_attribution_get_n_causes (attr);

  printf (_("Why: %s, %s in all\n"), what, total);
  for (guint i = 0; picks != NULL && i < picks->len; i++)
    {
      g_autofree char *reason = ws_thread_pick_describe (g_ptr_array_index (picks, i));
      printf ("%s\n", reason);
    }
  printf ("%s\n", _("share      time  cause  [threads]"));
  for (guint i = 0; i < n && (top == 0 || i < top); i++)
    {
      const WsCause *c = ws_attribution_get_cause (attr, i);
      g_autofree char *time = cli_format_duration (c->time);
      g_autoptr(GString) threads = g_string_new (NULL);

      for (guint k = 0; k < c->threads->len && k < 3; k++)
        {
          const WsCauseThread *t = &g_array_index (c->threads, WsCauseThread, k);
          const WsThread *th = ws_trace_get_thread (t->trace, t->thread);
          g_string_append_printf (threads, "%s%s %d", k ? ", " : "", th->name ? th->name : "?", th->tid);
        }
      if (c->threads->len > 3)
        g_string_append_printf (threads, ngettext (", %u more", ", %u more", c->threads->len - 3), c->threads->len - 3);
      printf ("%5.1f%% %9s  %s  [%s]\n", 100.0 * c->share, time, c->label, threads->str);
      {
        g_autofree char *ended = ws_cause_dup_ended (c);

        if (ended != NULL)
          printf ("              %s\n", ended);
      }
      if (i == 0 && c->kernel_function != NULL && g_strcmp0 (c->kernel_function, c->signature) != 0)
        printf (_("              in the kernel: %s\n"), c->kernel_function);
      if (i == 0 && c->behind != NULL && c->behind->len > 0)
        {
          g_autofree char *behind = ws_cause_describe_behind (c, 3);
          printf ("              %s\n", behind);
        }
    }
}

static gboolean
any_waits (GPtrArray *traces)
{
  for (guint i = 0; i < traces->len; i++)
    if (ws_trace_count_kind (g_ptr_array_index (traces, i), WS_EVENT_WAIT) > 0)
      return TRUE;
  return FALSE;
}

int
cli_why (int    argc,
         char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();
  g_autoptr(GArray) targets = NULL;
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(WsAttribution) attr = NULL;
  g_autofree char *what = NULL;
  WsAttributionSettings settings;
  WhyOptions o;
  WsTime threshold = 0;
  int status;

  context = why_context_new (&o);
  if (!cli_parse_options (context, "why", &argc, &argv, &status))
    goto out;
  if (argc > 1)
    {
      g_autoptr(GStrvBuilder) all = g_strv_builder_new ();
      if (o.traces != NULL)
        g_strv_builder_addv (all, (const char **) o.traces);
      g_strv_builder_addv (all, (const char **) argv + 1);
      g_strfreev (o.traces);
      o.traces = g_strv_builder_end (all);
    }
  if (o.traces == NULL)
    {
      status = cli_usage_error ("why", "%s", _("no trace given"));
      goto out;
    }
  if ((status = check_usage (&o, &threshold)) >= 0)
    goto out;
  if (o.classifier_file != NULL && !ws_frame_classifier_load_file (classifier, o.classifier_file, &error))
    {
      status = cli_fail (error);
      goto out;
    }
  if ((rules = cli_build_rules (o.scenarios, o.scenario_file, "why", &status)) == NULL)
    goto out;
  if ((traces = cli_load_traces (o.traces, rules, &error)) == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (!any_waits (traces))
    {
      /* CPU samples alone say where the CPUs went, not why anyone
       * waited: a "why" from them would call every gap between samples
       * running (a `sleep` sampled twice "ran" its whole second). */
      fprintf (stderr, "%s\n%s\n    %s\n",
               _("waitscope-cli: why: no waits in these traces (no sched_switch events): "
                 "CPU samples say where the CPUs went, not why threads waited; "
                 "“waitscope-cli flamegraph” or “mine --running” show them."),
               _("To see waits, record the scheduler events with call stacks:"), WS_PERF_RECORD_WAITS_COMMAND);
      status = CLI_EXIT_INPUT;
      goto out;
    }
  if ((status = pick_targets (&o, traces, threshold, classifier, &targets, &what, &picks)) >= 0)
    goto out;

  ws_attribution_settings_init (&settings);
  settings.classifier = classifier;
  if ((attr = ws_attribution_compute (targets, &settings, &error)) == NULL)
    {
      status = cli_fail (error);
      goto out;
    }
  if (o.json)
    {
      g_autoptr(JsonNode) json = ws_attribution_export_json (attr, what, picks, o.top);
      cli_print_json_node (json);
    }
  else
    print_text (attr, what, picks, o.top);
  status = CLI_EXIT_OK;

out:
  why_options_clear (&o);
  return status;
}
