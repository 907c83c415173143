/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli info TRACE…: what a trace holds, per thread how long it
 * waited and ran, and the costliest waits with who readied them and both
 * call stacks.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "ws-block-requests.h"
#include "ws-perf-importer.h"
#include "ws-trace-summary.h"
#include "ws-trace-summary-export.h"
#include "ws-wait-readier.h"

static void
print_trace_text (WsTrace *trace,
                  guint    top)
{
  g_autofree WsThreadSummary *stats = ws_trace_summary_threads (trace);
  g_autoptr(GArray) waits = ws_trace_summary_top_waits (trace, top);
  g_autofree char *start = cli_format_timestamp (ws_trace_get_start_time (trace));
  g_autofree char *end = cli_format_timestamp (ws_trace_get_end_time (trace));
  g_autofree char *span = cli_format_duration (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint n_threads = ws_trace_get_n_threads (trace);

  printf ("%s (%s)\n", ws_trace_get_name (trace), ws_trace_get_path (trace));
  printf (_("  time range   %s – %s (%s)\n"), start, end, span);
  printf (_("  events       %u:"), ws_trace_get_n_events (trace));
  for (guint k = 0; k < WS_N_EVENT_KINDS; k++)
    printf ("%s %u %s", k ? "," : "", ws_trace_count_kind (trace, k), ws_event_kind_to_string (k));
  printf ("\n");
  printf (g_dngettext (GETTEXT_PACKAGE, "  threads      %u in %u process\n", "  threads      %u in %u processes\n",
                       ws_trace_get_n_processes (trace)), n_threads, ws_trace_get_n_processes (trace));
  printf (g_dngettext (GETTEXT_PACKAGE, "  scenarios    %u instance\n", "  scenarios    %u instances\n",
                       ws_trace_get_n_scenario_instances (trace)), ws_trace_get_n_scenario_instances (trace));
  if (ws_trace_get_block_requests (trace) != NULL)
    {
      const WsBlockRequests *r = ws_trace_get_block_requests (trace);
      guint unfinished = ws_block_requests_get_n_unfinished (r, NULL);

      /* TRANSLATORS: the block layer's requests recorded, and how many of
       * them have no recorded completion */
      printf (g_dngettext (GETTEXT_PACKAGE, "  block I/O    %u request (%u without a completion)\n",
                           "  block I/O    %u requests (%u without a completion)\n", ws_block_requests_get_n (r)),
              ws_block_requests_get_n (r), unfinished);
    }
  if (ws_trace_count_kind (trace, WS_EVENT_WAIT) == 0)
    printf ("  %s\n  %s\n      %s\n",
            _("no waits     this trace has no scheduler events (sched_switch): CPU samples only."),
            _("To see waits, record the scheduler events with call stacks:"), WS_PERF_RECORD_WAITS_COMMAND);
  printf ("\n  %8s %8s  %-16s %-16s %6s %8s %12s %12s %8s\n",
          _("TID"), _("PID"), _("THREAD"), _("PROCESS"), _("WAITS"), _("UNKNOWN"),
          _("WAIT TOTAL"), _("RUN TOTAL"), _("SAMPLES"));
  for (guint k = 0; k < n_threads; k++)
    {
      const WsThreadTotals *s = &stats[k].totals;
      const WsThread *t = ws_trace_get_thread (trace, stats[k].thread);
      const char *process = ws_trace_summary_process_name (trace, t);
      g_autofree char *wait = cli_format_duration (s->wait_total);
      g_autofree char *run = cli_format_duration (s->run_total);

      /* A thread seen only as a wake-up or switch-in target never told
       * perf its pid: say so rather than print -1. */
      g_autofree char *pid = t->pid >= 0 ? g_strdup_printf ("%d", t->pid) : g_strdup ("?");

      printf ("  %8d %8s  %-16s %-16s %6u %8u %12s %12s %8u\n",
              t->tid, pid, t->name, process ? process : "", s->n_waits, s->n_unknown,
              wait, run, s->n_samples);
    }

  printf ("\n");
  printf (g_dngettext (GETTEXT_PACKAGE, "  top %u wait by cost (stacks leaf first)\n",
                       "  top %u waits by cost (stacks leaf first)\n", waits->len), waits->len);
  for (guint k = 0; k < waits->len; k++)
    {
      guint i = g_array_index (waits, guint, k);
      const WsEvent *e = ws_trace_get_event (trace, i);
      const WsThread *t = ws_trace_get_thread (trace, e->thread);
      g_autofree char *when = cli_format_timestamp (e->time);
      g_autofree char *cost = cli_format_duration (ws_event_duration (e));
      guint32 ready_latency = ws_trace_wait_ready_latency (trace, i);
      g_autofree char *latency = ready_latency == WS_LATENCY_UNKNOWN
                                 ? g_strdup (_("unknown")) : cli_format_duration (ready_latency);

      printf (_("  #%u  %s (%d) at %s: cost %s, ready latency %s, state %c\n"),
              k + 1, t->name, t->tid, when, cost, latency, e->state ? e->state : '?');
      {
        g_autofree char *readier = ws_wait_readier_dup_sentence (NULL, trace, i);
        printf ("      %s\n", readier);
      }
      printf ("      %s\n", _("waiting stack:"));
      cli_print_stack (stdout, stacks, e->stack, "        ");
      if (e->peer != WS_NONE)
        {
          printf ("      %s\n", _("unwait stack:"));
          cli_print_stack (stdout, stacks, ws_trace_get_event (trace, e->peer)->stack, "        ");
        }
    }
}

int
cli_info (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) scenarios = NULL;
  g_autofree char *rules_file = NULL;
  gboolean json = FALSE;
  int top = 10;
  int status;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Show the N costliest waits (default 10)"), N_("N") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING_ARRAY, &scenarios,
      N_("A scenario rule: begin and end events on one thread"), N_("NAME=BEGIN,END") },
    { "scenario-file", 0, 0, G_OPTION_ARG_FILENAME, &rules_file,
      N_("Scenario rules from a key file ([scenario NAME] begin= end=)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE… — what a trace holds and its costliest waits"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!cli_parse_options (context, "info", &argc, &argv, &status))
    return status;
  if (argc < 2)
    return cli_usage_error ("info", "%s", _("no trace given"));
  if (top < 0)
    return cli_usage_error ("info", "%s", _("--top must be 0 or more"));

  if ((rules = cli_build_rules (scenarios, rules_file, "info", &status)) == NULL)
    return status;
  if ((traces = cli_load_traces (argv + 1, rules, &error)) == NULL)
    return cli_fail (error);

  if (json)
    ws_trace_summary_export_json (stdout, (WsTrace * const *) traces->pdata, traces->len, top);
  else
    for (guint i = 0; i < traces->len; i++)
      {
        if (i > 0)
          printf ("\n");
        print_trace_text (g_ptr_array_index (traces, i), top);
      }

  return CLI_EXIT_OK;
}
