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
#include "ws-json-stream.h"
#include "ws-perf-importer.h"
#include "ws-trace.h"
#include "ws-trace-stats.h"
#include "ws-wait-readier.h"

/* A thread's totals, and which thread: info sorts them by wait total. */
typedef struct {
  guint          thread;
  WsThreadTotals totals;
} ThreadStats;

static ThreadStats *
compute_thread_stats (WsTrace *trace)
{
  guint n_threads = ws_trace_get_n_threads (trace);
  g_autofree WsThreadTotals *totals = ws_trace_thread_totals (trace);
  ThreadStats *stats = g_new0 (ThreadStats, MAX (n_threads, 1));

  for (guint t = 0; t < n_threads; t++)
    stats[t] = (ThreadStats) { t, totals[t] };
  return stats;
}

static int
compare_wait_total (gconstpointer a,
                    gconstpointer b)
{
  const ThreadStats *sa = a, *sb = b;

  if (sa->totals.wait_total != sb->totals.wait_total)
    return sa->totals.wait_total > sb->totals.wait_total ? -1 : 1;
  return sa->thread < sb->thread ? -1 : sa->thread > sb->thread;
}

static int
compare_cost (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  WsTrace *trace = user_data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const WsEvent *ea = ws_trace_get_event (trace, ia);
  const WsEvent *eb = ws_trace_get_event (trace, ib);

  /* Costliest first; equal costs in time order, so the output is stable. */
  if (ea->duration != eb->duration)
    return ea->duration > eb->duration ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

static GArray *
top_waits (WsTrace *trace,
           guint    top)
{
  GArray *waits = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      g_array_append_val (waits, i);
  g_array_sort_with_data (waits, compare_cost, trace);
  if (waits->len > top)
    g_array_set_size (waits, top);
  return waits;
}

static const char *
thread_process_name (WsTrace        *trace,
                     const WsThread *thread)
{
  if (thread->process == WS_NONE)
    return NULL;
  return ws_trace_get_process (trace, thread->process)->name;
}

static void
add_wait_json (JsonBuilder *b,
               WsTrace     *trace,
               guint        index)
{
  const WsEvent *e = ws_trace_get_event (trace, index);
  const WsThread *thread = ws_trace_get_thread (trace, e->thread);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint readier_thread = WS_NONE;
  WsWaitReadier readier = ws_wait_readier_classify (trace, index, &readier_thread);
  char state[2] = { e->state, '\0' };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "event");
  json_builder_add_int_value (b, index);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, thread->tid);
  json_builder_set_member_name (b, "thread");
  json_builder_add_string_value (b, thread->name);
  json_builder_set_member_name (b, "pid");
  if (thread->pid >= 0)
    json_builder_add_int_value (b, thread->pid);
  else
    json_builder_add_null_value (b);   /* never recorded */
  json_builder_set_member_name (b, "time");
  json_builder_add_int_value (b, e->time);
  json_builder_set_member_name (b, "cost");
  json_builder_add_int_value (b, e->duration);
  json_builder_set_member_name (b, "ready_latency");
  if (e->ready_latency == WS_LATENCY_UNKNOWN)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, e->ready_latency);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, state);
  json_builder_set_member_name (b, "flags");
  json_builder_begin_array (b);
  for (guint bit = 0; bit < 8; bit++)
    if ((e->flags & (1u << bit)) && cli_event_flag_name (bit) != NULL)
      json_builder_add_string_value (b, cli_event_flag_name (bit));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "readier");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, ws_wait_readier_to_string (readier));
  if (readier == WS_WAIT_READIER_THREAD)
    {
      const WsThread *r = ws_trace_get_thread (trace, readier_thread);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, r->tid);
      json_builder_set_member_name (b, "thread");
      json_builder_add_string_value (b, r->name);
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "waiting_stack");
  cli_json_add_stack (b, stacks, e->stack);
  json_builder_set_member_name (b, "unwait_event");
  if (e->peer == WS_NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, e->peer);
  json_builder_set_member_name (b, "unwait_stack");
  if (e->peer == WS_NONE)
    json_builder_add_null_value (b);
  else
    cli_json_add_stack (b, stacks, ws_trace_get_event (trace, e->peer)->stack);
  json_builder_end_object (b);
}

/* One trace's object, streamed: a million threads are a million small
 * trees written one at a time (ws-json-stream.h). */
static void
add_trace_json (WsJsonStream *out,
                WsTrace      *trace,
                guint         top)
{
  g_autofree ThreadStats *stats = compute_thread_stats (trace);
  g_autoptr(GArray) waits = top_waits (trace, top);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n_threads = ws_trace_get_n_threads (trace);

  qsort (stats, n_threads, sizeof (ThreadStats), compare_wait_total);

  ws_json_stream_begin_object (out);
  ws_json_stream_set_member_name (out, "path");
  ws_json_stream_add_string (out, ws_trace_get_path (trace));
  ws_json_stream_set_member_name (out, "name");
  ws_json_stream_add_string (out, ws_trace_get_name (trace));
  ws_json_stream_set_member_name (out, "start");
  ws_json_stream_add_int (out, ws_trace_get_start_time (trace));
  ws_json_stream_set_member_name (out, "end");
  ws_json_stream_add_int (out, ws_trace_get_end_time (trace));
  ws_json_stream_set_member_name (out, "duration");
  ws_json_stream_add_int (out, ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
  ws_json_stream_set_member_name (out, "n_events");
  ws_json_stream_add_int (out, ws_trace_get_n_events (trace));
  ws_json_stream_set_member_name (out, "events");
  json_builder_begin_object (b);
  for (guint k = 0; k < WS_N_EVENT_KINDS; k++)
    {
      json_builder_set_member_name (b, ws_event_kind_to_string (k));
      json_builder_add_int_value (b, ws_trace_count_kind (trace, k));
    }
  json_builder_end_object (b);
  ws_json_stream_add_builder (out, b);
  /* A profile of samples alone: what to record to see waits. */
  ws_json_stream_set_member_name (out, "waits_recorded");
  ws_json_stream_add_boolean (out, ws_trace_count_kind (trace, WS_EVENT_WAIT) > 0);
  ws_json_stream_set_member_name (out, "record_waits_command");
  if (ws_trace_count_kind (trace, WS_EVENT_WAIT) > 0)
    ws_json_stream_add_null (out);
  else
    ws_json_stream_add_string (out, WS_PERF_RECORD_WAITS_COMMAND);
  ws_json_stream_set_member_name (out, "n_processes");
  ws_json_stream_add_int (out, ws_trace_get_n_processes (trace));
  ws_json_stream_set_member_name (out, "n_scenario_instances");
  ws_json_stream_add_int (out, ws_trace_get_n_scenario_instances (trace));
  /* the block layer's requests, null when not recorded */
  ws_json_stream_set_member_name (out, "block_requests");
  if (ws_trace_get_block_requests (trace) == NULL)
    ws_json_stream_add_null (out);
  else
    {
      const WsBlockRequests *r = ws_trace_get_block_requests (trace);
      guint by_wait, unfinished = ws_block_requests_get_n_unfinished (r, &by_wait);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "n");
      json_builder_add_int_value (b, ws_block_requests_get_n (r));
      json_builder_set_member_name (b, "without_completion");
      json_builder_add_int_value (b, unfinished);
      json_builder_set_member_name (b, "ended_at_issuer_wait");
      json_builder_add_int_value (b, by_wait);
      json_builder_set_member_name (b, "completions_without_issue");
      json_builder_add_int_value (b, ws_block_requests_get_n_orphans (r));
      json_builder_end_object (b);
      ws_json_stream_add_builder (out, b);
    }

  ws_json_stream_set_member_name (out, "threads");
  ws_json_stream_begin_array (out);
  for (guint k = 0; k < n_threads; k++)
    {
      const WsThreadTotals *s = &stats[k].totals;
      const WsThread *t = ws_trace_get_thread (trace, stats[k].thread);
      const char *process = thread_process_name (trace, t);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, t->tid);
      json_builder_set_member_name (b, "pid");
      if (t->pid >= 0)
        json_builder_add_int_value (b, t->pid);
      else
        json_builder_add_null_value (b);   /* never recorded */
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, t->name);
      json_builder_set_member_name (b, "process");
      if (process)
        json_builder_add_string_value (b, process);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "waits");
      json_builder_add_int_value (b, s->n_waits);
      json_builder_set_member_name (b, "wait_total");
      json_builder_add_int_value (b, s->wait_total);
      json_builder_set_member_name (b, "waits_readier_unknown");
      json_builder_add_int_value (b, s->n_unknown);
      json_builder_set_member_name (b, "waits_readier_hardware");
      json_builder_add_int_value (b, s->n_hardware);
      json_builder_set_member_name (b, "run_total");
      json_builder_add_int_value (b, s->run_total);
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, s->n_samples);
      json_builder_set_member_name (b, "sampled_run_total");
      json_builder_add_int_value (b, s->sampled_total);
      json_builder_set_member_name (b, "preempt_total");
      json_builder_add_int_value (b, s->preempt_total);
      json_builder_end_object (b);
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_end_array (out);

  ws_json_stream_set_member_name (out, "top_waits");
  ws_json_stream_begin_array (out);
  for (guint k = 0; k < waits->len; k++)
    {
      add_wait_json (b, trace, g_array_index (waits, guint, k));
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_end_array (out);
  ws_json_stream_end_object (out);
}


static void
print_trace_text (WsTrace *trace,
                  guint    top)
{
  g_autofree ThreadStats *stats = compute_thread_stats (trace);
  g_autoptr(GArray) waits = top_waits (trace, top);
  g_autofree char *start = cli_format_timestamp (ws_trace_get_start_time (trace));
  g_autofree char *end = cli_format_timestamp (ws_trace_get_end_time (trace));
  g_autofree char *span = cli_format_duration (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint n_threads = ws_trace_get_n_threads (trace);

  qsort (stats, n_threads, sizeof (ThreadStats), compare_wait_total);

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
      const char *process = thread_process_name (trace, t);
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
      g_autofree char *cost = cli_format_duration (e->duration);
      g_autofree char *latency = e->ready_latency == WS_LATENCY_UNKNOWN
                                 ? g_strdup (_("unknown")) : cli_format_duration (e->ready_latency);

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
    {
      WsJsonStream *out = ws_json_stream_new (stdout);

      ws_json_stream_begin_object (out);
      ws_json_stream_set_member_name (out, "stack_order");
      ws_json_stream_add_string (out, "leaf-first");
      ws_json_stream_set_member_name (out, "time_unit");
      ws_json_stream_add_string (out, "ns");
      ws_json_stream_set_member_name (out, "traces");
      ws_json_stream_begin_array (out);
      for (guint i = 0; i < traces->len; i++)
        add_trace_json (out, g_ptr_array_index (traces, i), top);
      ws_json_stream_end_array (out);
      ws_json_stream_end_object (out);
      ws_json_stream_finish (out);
    }
  else
    for (guint i = 0; i < traces->len; i++)
      {
        if (i > 0)
          printf ("\n");
        print_trace_text (g_ptr_array_index (traces, i), top);
      }

  return CLI_EXIT_OK;
}
