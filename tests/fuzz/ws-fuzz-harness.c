/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The checks behind every fuzz target (see ws-fuzz-harness.h).  The oracle
 * is the project's own promise: bad input gives a WS_ERROR whose message
 * starts with "FILE:LINE: ", good input gives a trace whose references are
 * all valid, and the JSON format is a lossless copy of the model, so any
 * trace that loads must write and read back event for event.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ws-attribution.h"
#include "ws-cause-chain.h"
#include "ws-chain.h"
#include "ws-contrast.h"
#include "ws-critical-path.h"
#include "ws-error.h"
#include "ws-folded-importer.h"
#include "ws-frame-classifier.h"
#include "ws-importer.h"
#include "ws-graph-export.h"
#include "ws-inspector.h"
#include "ws-json-trace.h"
#include "ws-perf-importer.h"
#include "ws-ready-tree.h"
#include "ws-scenario-rules.h"
#include "ws-trace-private.h"
#include "ws-wait-graph.h"

#include "ws-fuzz-harness.h"
#include "ws-why-targets.h"

void
ws_fuzz_fail (const char *format,
              ...)
{
  va_list args;

  fputs ("ws-fuzz: invariant broken: ", stderr);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  fflush (stderr);
  abort ();
}

/* abort(), which libFuzzer catches and keeps the input of; GLib's own
 * fatal path may end in a breakpoint trap, which it does not. */
static GLogWriterOutput
fatal_writer (GLogLevelFlags   level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      const char *message = "";

      for (gsize i = 0; i < n_fields; i++)
        if (strcmp (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
          message = fields[i].value;
      ws_fuzz_fail ("GLib %s: %s", level & G_LOG_LEVEL_CRITICAL ? "critical" : "warning", message);
    }
  return g_log_writer_default (level, fields, n_fields, user_data);
}

void
ws_fuzz_init (void)
{
  /* A g_return_if_fail() tripped by input is a bug as much as a crash. */
  g_log_set_writer_func (fatal_writer, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                     */
/* ------------------------------------------------------------------------ */

void
ws_fuzz_check_error (const GError *error,
                     const char   *name)
{
  const char *s;
  gsize name_len = strlen (name);
  guint64 line = 0;
  gboolean digits = FALSE;

  if (error == NULL)
    ws_fuzz_fail ("a load failed without an error");
  if (error->domain != WS_ERROR)
    ws_fuzz_fail ("error from domain %s, not WS_ERROR: %s",
                  g_quark_to_string (error->domain), error->message);
  if (error->message == NULL || strncmp (error->message, name, name_len) != 0
      || error->message[name_len] != ':')
    ws_fuzz_fail ("error does not start with “%s:”: %s", name, error->message);

  for (s = error->message + name_len + 1; g_ascii_isdigit (*s); s++)
    {
      digits = TRUE;
      line = line * 10 + (*s - '0');
    }
  if (!digits || line == 0 || s[0] != ':' || s[1] != ' ')
    ws_fuzz_fail ("error does not start with “%s:LINE: ”: %s", name, error->message);
  if (s[2] == '\0')
    ws_fuzz_fail ("error says nothing after its location: %s", error->message);
  if (!g_utf8_validate (error->message, -1, NULL))
    ws_fuzz_fail ("error message is not valid UTF-8");
}

/* ------------------------------------------------------------------------ */
/* Traces                                                                     */
/* ------------------------------------------------------------------------ */

void
ws_fuzz_check_trace (WsTrace *trace)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint n_events = ws_trace_get_n_events (trace);
  guint n_threads = ws_trace_get_n_threads (trace);
  guint n_stacks = ws_stack_table_get_n_stacks (stacks);
  guint n_frames = ws_stack_table_get_n_frames (stacks);
  const WsEvent *events = ws_trace_get_events (trace);
  guint counted[WS_N_EVENT_KINDS] = { 0 };
  guint in_threads = 0;

  for (guint i = 0; i < n_events; i++)
    {
      const WsEvent *e = &events[i];
      guint n = 0;
      const WsFrameId *frames;

      if (i > 0 && e->time < events[i - 1].time)
        ws_fuzz_fail ("event %u is before event %u", i, i - 1);
      if (e->kind >= WS_N_EVENT_KINDS)
        ws_fuzz_fail ("event %u: kind %u", i, e->kind);
      counted[e->kind]++;
      if (e->thread >= n_threads)
        ws_fuzz_fail ("event %u: thread %u of %u", i, e->thread, n_threads);
      if (ws_event_duration (e) < 0)
        ws_fuzz_fail ("event %u: negative duration", i);
      if (e->time > 0 && ws_event_duration (e) > G_MAXINT64 - e->time)
        ws_fuzz_fail ("event %u: end overflows", i);
      if (e->stack >= n_stacks)
        ws_fuzz_fail ("event %u: stack %u of %u", i, e->stack, n_stacks);
      frames = ws_stack_table_get_stack (stacks, e->stack, &n);
      for (guint k = 0; k < n; k++)
        if (frames[k] >= n_frames)
          ws_fuzz_fail ("event %u: frame %u of %u", i, frames[k], n_frames);

      if (e->kind == WS_EVENT_RUNNING && ws_event_name (e) != WS_NONE && ws_trace_get_string (trace, ws_event_name (e)) == NULL)
        ws_fuzz_fail ("sample %u: no event name %u", i, ws_event_name (e));
      if (e->kind == WS_EVENT_MARKER)
        {
          if (ws_event_name (e) != WS_NONE && ws_trace_get_string (trace, ws_event_name (e)) == NULL)
            ws_fuzz_fail ("marker %u: no string %u", i, ws_event_name (e));
          continue;
        }
      if (ws_event_target (e) != WS_NONE && ws_event_target (e) >= n_threads)
        ws_fuzz_fail ("event %u: target thread %u of %u", i, ws_event_target (e), n_threads);
      if (ws_event_peer (e) != WS_NONE)
        {
          const WsEvent *p;

          if (e->peer >= n_events)
            ws_fuzz_fail ("event %u: peer %u of %u", i, e->peer, n_events);
          p = &events[e->peer];
          if (e->kind == WS_EVENT_WAIT && p->kind != WS_EVENT_UNWAIT && p->kind != WS_EVENT_HW_SERVICE)
            ws_fuzz_fail ("wait %u: peer %u is a %s", i, e->peer, ws_event_kind_to_string (p->kind));
          if ((e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE) && p->kind != WS_EVENT_WAIT)
            ws_fuzz_fail ("wake-up %u: peer %u is a %s", i, e->peer, ws_event_kind_to_string (p->kind));
        }
      if (e->kind == WS_EVENT_WAIT)
        {
          guint readier = 0;
          WsReadierKind kind = ws_trace_wait_readier (trace, i, &readier);

          if (kind == WS_READIER_THREAD && readier >= n_threads)
            ws_fuzz_fail ("wait %u: readier %u of %u", i, readier, n_threads);
        }
    }

  for (guint k = 0; k < WS_N_EVENT_KINDS; k++)
    if (ws_trace_count_kind (trace, k) != counted[k])
      ws_fuzz_fail ("count of %s: %u, counted %u", ws_event_kind_to_string (k),
                    ws_trace_count_kind (trace, k), counted[k]);
  if (n_events > 0 && (ws_trace_get_start_time (trace) != events[0].time
                       || ws_trace_get_end_time (trace) < events[n_events - 1].time))
    ws_fuzz_fail ("time range does not cover the events");

  for (guint t = 0; t < n_threads; t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      guint found;

      if (thread->name == NULL)
        ws_fuzz_fail ("thread %u has no name", t);
      if (thread->process >= ws_trace_get_n_processes (trace))
        ws_fuzz_fail ("thread %u: process %u", t, thread->process);
      /* A tid reused by a new thread (ws_trace_forget_tid()) names one of
       * its threads, not necessarily this one: each must find one of its own. */
      found = ws_trace_find_thread (trace, thread->tid);
      if (found == WS_NONE || ws_trace_get_thread (trace, found)->tid != thread->tid)
        ws_fuzz_fail ("thread %u: tid %d finds another tid's thread", t, thread->tid);
      for (guint k = 0; k < thread->n_events; k++)
        {
          guint32 index = thread->events[k];

          if (index >= n_events || events[index].thread != t)
            ws_fuzz_fail ("thread %u: event list holds %u", t, index);
          if (k > 0 && index <= thread->events[k - 1])
            ws_fuzz_fail ("thread %u: event list out of order", t);
        }
      in_threads += thread->n_events;
      /* The binary search the views use must land inside the list. */
      if (ws_trace_thread_lower_bound (trace, t, thread->first_seen) > thread->n_events)
        ws_fuzz_fail ("thread %u: lower bound past the end", t);
    }
  if (in_threads != n_events)
    ws_fuzz_fail ("thread event lists hold %u events of %u", in_threads, n_events);

  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);

      if (inst->thread >= n_threads || inst->t1 < inst->t0
          || ws_trace_get_string (trace, inst->scenario) == NULL
          || (inst->begin_event != WS_NONE && inst->begin_event >= n_events)
          || (inst->end_event != WS_NONE && inst->end_event >= n_events))
        ws_fuzz_fail ("scenario instance %u is out of range", k);
    }
}

/* The writer replaces invalid UTF-8 with U+FFFD; compare what it meant. */
static gboolean
same_text (const char *a,
           const char *b)
{
  g_autofree char *va = NULL;

  if (a == NULL || b == NULL)
    return a == b;
  if (!g_utf8_validate (a, -1, NULL))
    a = va = g_utf8_make_valid (a, -1);
  return strcmp (a, b) == 0;
}

static void
check_same_stack (WsStackTable *sa,
                  WsStackId     a,
                  WsStackTable *sb,
                  WsStackId     b,
                  guint         event)
{
  guint na = 0, nb = 0;
  const WsFrameId *fa = ws_stack_table_get_stack (sa, a, &na);
  const WsFrameId *fb = ws_stack_table_get_stack (sb, b, &nb);

  if (na != nb)
    ws_fuzz_fail ("round trip: event %u has %u frames, read back %u", event, na, nb);
  for (guint k = 0; k < na; k++)
    {
      const WsFrame *x = ws_stack_table_get_frame (sa, fa[k]);
      const WsFrame *y = ws_stack_table_get_frame (sb, fb[k]);

      if (!same_text (x->function, y->function) || !same_text (x->module, y->module))
        ws_fuzz_fail ("round trip: event %u frame %u is “%s (%s)”, read back “%s (%s)”",
                      event, k, x->function, x->module, y->function, y->module);
    }
}

void
ws_fuzz_check_round_trip (WsTrace *trace)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) back = NULL;
  WsStackTable *sa = ws_trace_get_stack_table (trace);
  WsStackTable *sb;
  guint n_events = ws_trace_get_n_events (trace);
  guint n_threads = ws_trace_get_n_threads (trace);

  if (!ws_json_trace_write_stream (trace, out, NULL, &error) || !g_output_stream_close (out, NULL, &error))
    ws_fuzz_fail ("the JSON writer failed: %s", error->message);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  in = g_memory_input_stream_new_from_bytes (bytes);
  back = ws_json_trace_load_stream (in, "round-trip", NULL, NULL, NULL, NULL, &error);
  if (back == NULL)
    ws_fuzz_fail ("what the JSON writer wrote does not read back: %s", error->message);
  ws_fuzz_check_trace (back);
  sb = ws_trace_get_stack_table (back);

  if (ws_trace_get_n_events (back) != n_events || ws_trace_get_n_threads (back) != n_threads)
    ws_fuzz_fail ("round trip: %u events, %u threads; read back %u, %u", n_events, n_threads,
                  ws_trace_get_n_events (back), ws_trace_get_n_threads (back));

  for (guint t = 0; t < n_threads; t++)
    {
      const WsThread *x = ws_trace_get_thread (trace, t);
      const WsThread *y = ws_trace_get_thread (back, t);

      if (x->tid != y->tid || x->pid != y->pid || !same_text (x->name, y->name))
        ws_fuzz_fail ("round trip: thread %u is %d/%d “%s”, read back %d/%d “%s”",
                      t, x->pid, x->tid, x->name, y->pid, y->tid, y->name);
    }

  for (guint i = 0; i < n_events; i++)
    {
      const WsEvent *x = ws_trace_get_event (trace, i);
      const WsEvent *y = ws_trace_get_event (back, i);

      if (x->time != y->time || ws_event_duration (x) != ws_event_duration (y) || x->thread != y->thread
          || x->kind != y->kind || x->cpu != y->cpu || x->flags != y->flags
          || x->state != y->state || ws_trace_wait_ready_latency (trace, i) != ws_trace_wait_ready_latency (back, i)
          || ws_event_peer (x) != ws_event_peer (y))
        ws_fuzz_fail ("round trip: event %u differs (kind %u/%u t %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                      " state 0x%02x/0x%02x peer %u/%u)", i, x->kind, y->kind, x->time, y->time,
                      (guchar) x->state, (guchar) y->state, x->peer, y->peer);
      /* A marker's and a sample's name is a string id (the marker's,
       * the sample event's name), numbered by each trace in its own
       * order: compare the names, not the ids. */
      if (ws_event_is_named (x))
        {
          if ((ws_event_name (x) == WS_NONE) != (ws_event_name (y) == WS_NONE)
              || (ws_event_name (x) != WS_NONE && !same_text (ws_trace_get_string (trace, ws_event_name (x)),
                                                              ws_trace_get_string (back, ws_event_name (y)))))
            ws_fuzz_fail ("round trip: %s %u has another name", ws_event_kind_to_string (x->kind), i);
        }
      else if (ws_event_target (x) != ws_event_target (y))
        ws_fuzz_fail ("round trip: event %u targets thread %u, read back %u", i, ws_event_target (x), ws_event_target (y));
      check_same_stack (sa, x->stack, sb, y->stack, i);
    }

  if (ws_trace_get_n_scenario_instances (back) != ws_trace_get_n_scenario_instances (trace))
    ws_fuzz_fail ("round trip: scenario instances differ");
  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    {
      const WsScenarioInstance *x = ws_trace_get_scenario_instance (trace, k);
      const WsScenarioInstance *y = ws_trace_get_scenario_instance (back, k);

      if (x->thread != y->thread || x->t0 != y->t0 || x->t1 != y->t1
          || x->begin_event != y->begin_event || x->end_event != y->end_event
          || !same_text (ws_trace_get_string (trace, x->scenario), ws_trace_get_string (back, y->scenario)))
        ws_fuzz_fail ("round trip: scenario instance %u differs", k);
    }
}

/* ------------------------------------------------------------------------ */
/* Targets                                                                    */
/* ------------------------------------------------------------------------ */

static gboolean
check_load (WsTrace      *trace,
            const GError *error)
{
  if (trace == NULL)
    {
      ws_fuzz_check_error (error, WS_FUZZ_INPUT_NAME);
      return FALSE;
    }
  if (error != NULL)
    ws_fuzz_fail ("a trace and an error: %s", error->message);
  ws_fuzz_check_trace (trace);
  ws_fuzz_check_round_trip (trace);
  return TRUE;
}

gboolean
ws_fuzz_perf_text (const guint8 *data,
                   gsize         size)
{
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;

  /* A perf.data file goes to `perf script` in a subprocess: not this
   * parser, and not something to start a million times. */
  if (size >= 8 && memcmp (data, "PERFILE2", 8) == 0)
    return FALSE;

  in = g_memory_input_stream_new_from_data (data, size, NULL);
  trace = ws_perf_importer_load_stream (in, WS_FUZZ_INPUT_NAME, NULL, NULL, NULL, NULL, &error);
  if (trace != NULL)
    {
      /* What the loader does next: scenario instances from the markers. */
      rules = ws_scenario_rules_new_default ();
      ws_scenario_rules_apply (rules, trace);
    }
  return check_load (trace, error);
}

/* Folded stacks ("comm;frame;… COUNT"), plain or gzip, as the loader
 * hands them over. */
gboolean
ws_fuzz_folded (const guint8 *data,
                gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GInputStream) text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  text = ws_importer_text_stream (in, size >= 2 && data[0] == 0x1f && data[1] == 0x8b);
  trace = ws_folded_importer_load_stream (text, WS_FUZZ_INPUT_NAME, NULL, NULL, NULL, NULL, &error);
  return check_load (trace, error);
}

/* trace-cmd .dat files: libtracecmd reads a path, so the importer writes
 * a stream to a temporary file first; this is that path. */
gboolean
ws_fuzz_tracecmd (const guint8 *data,
                  gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  trace = ws_tracecmd_importer.load_stream (in, WS_FUZZ_INPUT_NAME, size >= 2 && data[0] == 0x1f && data[1] == 0x8b,
                                            NULL, NULL, NULL, NULL, &error);
  return check_load (trace, error);
}

/* Perfetto protobuf traces (plain or gzip), read whole through the
 * importer's load_stream(). */
gboolean
ws_fuzz_perfetto (const guint8 *data,
                  gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  trace = ws_perfetto_importer.load_stream (in, WS_FUZZ_INPUT_NAME, size >= 2 && data[0] == 0x1f && data[1] == 0x8b,
                                            NULL, NULL, NULL, NULL, &error);
  return check_load (trace, error);
}

/* LTTng CTF traces: a tar archive (plain or gzip) of a trace directory,
 * unpacked to a temporary directory for libbabeltrace2. */
gboolean
ws_fuzz_ctf (const guint8 *data,
             gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  trace = ws_ctf_importer.load_stream (in, WS_FUZZ_INPUT_NAME, size >= 2 && data[0] == 0x1f && data[1] == 0x8b,
                                       NULL, NULL, NULL, NULL, &error);
  return check_load (trace, error);
}

gboolean
ws_fuzz_json_trace (const guint8 *data,
                    gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;

  trace = ws_json_trace_load_stream (in, WS_FUZZ_INPUT_NAME, NULL, NULL, NULL, NULL, &error);
  if (trace != NULL)
    {
      rules = ws_scenario_rules_new_default ();
      ws_scenario_rules_apply (rules, trace);
    }
  return check_load (trace, error);
}

/* An analysis may refuse a symptom, with a WS_ERROR that says why. */
static void
check_refusal (const GError *error,
               const char   *what)
{
  if (error == NULL || error->domain != WS_ERROR || error->message == NULL || error->message[0] == '\0')
    ws_fuzz_fail ("%s failed without a WS_ERROR", what);
}

/* Everything the CLI does with one symptom. */
static void
analyse_symptom (WsTrace         *trace,
                 const WsSymptom *symptom)
{
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  g_autoptr(GError) error = NULL;
  WsReadyTreeOptions tree_options;

  if ((graph = ws_wait_graph_build (trace, symptom, NULL, NULL, &error)) != NULL)
    {
      g_autoptr(JsonNode) json = ws_graph_export_wait_graph_json (graph);
      g_autofree char *dot = ws_graph_export_wait_graph_dot (graph);
      g_autoptr(GPtrArray) findings = ws_inspect_wait_graph (graph, NULL);
      g_autoptr(JsonNode) findings_json = ws_graph_export_findings_json (trace, findings);

      for (guint i = 0; i < ws_wait_graph_get_n_edges (graph); i++)
        {
          const WsWaitEdge *edge = ws_wait_graph_get_edge (graph, i);
          if (edge->from >= ws_wait_graph_get_n_nodes (graph) || edge->to >= ws_wait_graph_get_n_nodes (graph))
            ws_fuzz_fail ("wait graph edge %u points past the nodes", i);
        }
    }
  else
    check_refusal (error, "the wait graph");
  g_clear_error (&error);

  /* A tree repeats events down its branches, so a small trace can fill
   * any budget: a small one keeps the exports (json-glib nodes) cheap. */
  ws_ready_tree_options_init (&tree_options);
  tree_options.max_nodes = 1000;
  if ((tree = ws_ready_tree_build_for_symptom (trace, symptom, &tree_options, &error)) != NULL)
    {
      g_autoptr(JsonNode) json = ws_graph_export_ready_tree_json (tree, WS_CHAIN_METRIC_AVERAGE);
      g_autofree char *dot = ws_graph_export_ready_tree_dot (tree, WS_CHAIN_METRIC_AVERAGE);

      if (ws_ready_tree_get_n_nodes (tree) > tree_options.max_nodes)
        ws_fuzz_fail ("ready tree of %u nodes, over its budget of %u",
                      ws_ready_tree_get_n_nodes (tree), tree_options.max_nodes);
      for (guint m = 0; m < WS_N_CHAIN_METRICS; m++)
        {
          guint chain = ws_ready_tree_anomalous_chain (tree, m);

          if (chain != WS_NONE && chain >= ws_ready_tree_get_n_chains (tree))
            ws_fuzz_fail ("anomalous chain %u of %u", chain, ws_ready_tree_get_n_chains (tree));
        }
    }
  else
    check_refusal (error, "the ready tree");
  g_clear_error (&error);

  if ((path = ws_critical_path_build (trace, symptom, NULL, &error)) != NULL)
    {
      g_autoptr(JsonNode) json = ws_graph_export_critical_path_json (path);
      g_autofree char *dot = ws_graph_export_critical_path_dot (path);
    }
  else
    check_refusal (error, "the critical path");
}

/* What `waitscope-cli why` does without options: the picked threads. */
static void
analyse_why (WsTrace *trace)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attr = NULL;
  g_autoptr(GError) error = NULL;
  WsTime sum = 0;

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_picked (traces, ws_frame_classifier_get_default (), 3, NULL, &picks);
  if ((attr = ws_attribution_compute (targets, NULL, &error)) == NULL)
    {
      check_refusal (error, "why");
      return;
    }
  /* The causes share the targets' windows out: never more than they hold. */
  for (guint i = 0; i < ws_attribution_get_n_causes (attr); i++)
    {
      const WsCause *c = ws_attribution_get_cause (attr, i);
      if (c->time < 0)
        ws_fuzz_fail ("why: cause %u has a negative time", i);
      sum += c->time;
    }
  if (sum > ws_attribution_get_total (attr) + (WsTime) ws_attribution_get_n_targets (attr))
    ws_fuzz_fail ("why: the causes hold %" G_GINT64_FORMAT " ns of %" G_GINT64_FORMAT, sum,
                  ws_attribution_get_total (attr));
}

/* What `waitscope-cli contrast --scenario` does on the first scenario:
 * every component, T_fast and T_slow proposed. */
static void
analyse_contrast (WsTrace *trace)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_auto(GStrv) scenarios = NULL;
  g_autoptr(WsInstanceSet) set = NULL;
  g_autoptr(WsContrastResult) result = NULL;
  g_autoptr(GError) error = NULL;
  WsContrastSettings settings = { .component = "." };

  g_ptr_array_add (traces, trace);
  scenarios = ws_instance_set_list_scenarios (traces);
  if (scenarios == NULL || scenarios[0] == NULL)
    return;
  set = ws_instance_set_new ();
  ws_instance_set_add_trace (set, trace, scenarios[0]);
  settings.instances = set;
  if ((result = ws_contrast_run (&settings, NULL, NULL, NULL, &error)) == NULL)
    {
      check_refusal (error, "contrast");
      return;
    }
  for (guint r = 0; r < ws_contrast_result_get_n_patterns (result); r++)
    {
      g_autofree char *text = ws_contrast_result_format_pattern (result, ws_contrast_result_get_pattern (result, r));
      g_autoptr(GArray) in = ws_contrast_result_dup_pattern_instances (result, r);

      for (guint k = 0; k < in->len; k++)
        if (g_array_index (in, guint32, k) >= ws_instance_set_get_n (ws_contrast_result_get_slow (result)))
          ws_fuzz_fail ("contrast pattern %u names slow instance %u of %u", r, g_array_index (in, guint32, k),
                        ws_instance_set_get_n (ws_contrast_result_get_slow (result)));
    }
  for (guint pc = 1; pc <= 100; pc += 33)
    {
      double c = ws_contrast_result_get_coverage (result, pc);
      if (!(c >= 0 && c <= 1.000001))
        ws_fuzz_fail ("contrast coverage of the top %u %%: %g", pc, c);
    }
  if (!(ws_contrast_result_get_ttc (result) >= 0 && ws_contrast_result_get_ttc (result) <= 1.000001))
    ws_fuzz_fail ("contrast TTC %g", ws_contrast_result_get_ttc (result));
}

/*
 * A JSON trace (hand-written traces are the analyses' least trusted
 * input) through what `waitscope-cli waitgraph|readytree|critical-path|
 * inspect` do: the whole trace for the first threads and for the first
 * scenario instances, every export.
 */
gboolean
ws_fuzz_analyses (const guint8 *data,
                  gsize         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GPtrArray) findings = NULL;
  g_autoptr(JsonNode) findings_json = NULL;

  trace = ws_json_trace_load_stream (in, WS_FUZZ_INPUT_NAME, NULL, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      ws_fuzz_check_error (error, WS_FUZZ_INPUT_NAME);
      return FALSE;
    }

  for (guint t = 0; t < MIN (ws_trace_get_n_threads (trace), 4); t++)
    {
      WsSymptom symptom = { t, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) };
      analyse_symptom (trace, &symptom);
    }
  for (guint k = 0; k < MIN (ws_trace_get_n_scenario_instances (trace), 2); k++)
    {
      WsSymptom symptom;
      if (!ws_symptom_from_scenario_instance (trace, k, &symptom))
        ws_fuzz_fail ("scenario instance %u is not a symptom", k);
      analyse_symptom (trace, &symptom);
    }

  findings = ws_inspect_trace (trace, NULL);
  findings_json = ws_graph_export_findings_json (trace, findings);
  analyse_why (trace);
  analyse_contrast (trace);
  return TRUE;
}

/*
 * @text in a scratch file, loaded with @load_file as a user's file would
 * be: it must succeed exactly when the key-file route (@loaded) did, and
 * fail with "PATH:LINE: ".
 */
static gboolean
rules_load_file (gpointer    self,
                 const char *path,
                 GError    **error)
{
  return ws_scenario_rules_load_file (self, path, error);
}

static gboolean
classifier_load_file (gpointer    self,
                      const char *path,
                      GError    **error)
{
  return ws_frame_classifier_load_file (self, path, error);
}

static void
check_load_file (const char *text,
                 gboolean    loaded,
                 gboolean  (*load_file) (gpointer self, const char *path, GError **error),
                 gpointer    self)
{
  g_autofree char *name = g_strdup_printf ("ws-fuzz-%d.ini", (int) getpid ());
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_NONE, 0600, &error))
    ws_fuzz_fail ("cannot write %s: %s", path, error->message);
  ok = load_file (self, path, &error);
  g_unlink (path);
  if (ok != loaded)
    ws_fuzz_fail ("the file %s where the key file %s: %s", ok ? "loads" : "fails",
                  loaded ? "loads" : "fails", error ? error->message : "");
  if (!ok)
    ws_fuzz_check_error (error, path);
}

/* The input as a C string: up to its first NUL. */
static char *
to_string (const guint8 *data,
           gsize         size)
{
  const guint8 *nul = memchr (data, '\0', size);
  return g_strndup ((const char *) data, nul ? (gsize) (nul - data) : size);
}

static void
check_rules_equal (WsScenarioRules *a,
                   guint            i,
                   WsScenarioRules *b,
                   guint            j)
{
  const char * const *ea = ws_scenario_rules_get_ends (a, i);
  const char * const *eb = ws_scenario_rules_get_ends (b, j);

  if (strcmp (ws_scenario_rules_get_name (a, i), ws_scenario_rules_get_name (b, j)) != 0
      || strcmp (ws_scenario_rules_get_begin (a, i), ws_scenario_rules_get_begin (b, j)) != 0
      || !g_strv_equal ((const char * const *) ea, (const char * const *) eb))
    ws_fuzz_fail ("scenario rule “%s” does not survive its round trip", ws_scenario_rules_get_name (a, i));
}

/*
 * The first line is a --scenario NAME=BEGIN,END string, the rest a key
 * file of [scenario NAME] groups.  Whatever loads must print with
 * ws_scenario_rules_to_string() into a string that reads back the same,
 * and must apply to a trace holding its markers.
 */
gboolean
ws_fuzz_scenario_rules (const guint8 *data,
                        gsize         size)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new ();
  g_autoptr(WsScenarioRules) again = ws_scenario_rules_new ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autofree char *text = to_string (data, size);
  char *nl = strchr (text, '\n');
  const char *rest = "";
  guint n, thread;
  gboolean loaded;

  if (nl != NULL)
    {
      *nl = '\0';
      rest = nl + 1;
    }

  if (!ws_scenario_rules_add_from_string (rules, text, &error))
    {
      if (error == NULL || error->domain != WS_ERROR || error->message[0] == '\0')
        ws_fuzz_fail ("a rule string failed without a WS_ERROR");
      g_clear_error (&error);
    }
  loaded = g_key_file_load_from_data (key_file, rest, -1, G_KEY_FILE_NONE, NULL);
  if (loaded && !ws_scenario_rules_load_key_file (rules, key_file, &error))
    {
      if (error == NULL || error->domain != WS_ERROR || error->message[0] == '\0')
        ws_fuzz_fail ("a rule file failed without a WS_ERROR");
      g_clear_error (&error);
      loaded = FALSE;
    }
  check_load_file (rest, loaded, rules_load_file, again);
  g_clear_object (&again);
  again = ws_scenario_rules_new ();

  n = ws_scenario_rules_get_n_rules (rules);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *spec = ws_scenario_rules_to_string (rules, i);

      if (!ws_scenario_rules_add_from_string (again, spec, &error))
        ws_fuzz_fail ("rule %u prints as “%s”, which does not read back: %s", i, spec, error->message);
      check_rules_equal (rules, i, again, ws_scenario_rules_get_n_rules (again) - 1);
    }

  /* Every rule's begin then each of its ends, on one thread. */
  trace = ws_trace_new ("fuzz", NULL);
  thread = ws_trace_ensure_thread (trace, 1, 1);
  for (guint i = 0, t = 0; i < n; i++)
    {
      const char * const *ends = ws_scenario_rules_get_ends (rules, i);
      const char *names[1 + WS_SCENARIO_RULES_MAX_ENDS + 1] = { ws_scenario_rules_get_begin (rules, i) };
      guint k = 1;

      for (guint e = 0; ends[e] != NULL && k < G_N_ELEMENTS (names) - 1; e++)
        names[k++] = ends[e];
      for (guint e = 0; e < k; e++)
        {
          WsEvent ev;

          ws_event_init (&ev, WS_EVENT_MARKER, ++t * 1000, thread);
          ws_event_set_name (&ev, ws_trace_intern_string (trace, names[e]));
          ws_trace_add_event (trace, &ev);
        }
    }
  ws_trace_finish (trace);
  ws_scenario_rules_apply (rules, trace);
  ws_fuzz_check_trace (trace);
  return n > 0;
}

/*
 * A key file for ws_frame_classifier_load_key_file().  On error nothing
 * may change; on success the lists must survive save_to_key_file() and a
 * reload, and must match names without trouble.
 */
gboolean
ws_fuzz_classifier (const guint8 *data,
                    gsize         size)
{
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();
  g_autoptr(WsFrameClassifier) again = NULL;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GKeyFile) saved = g_key_file_new ();
  g_autoptr(GKeyFile) reread = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = to_string (data, size);
  g_autofree char *saved_text = NULL;
  g_auto(GStrv) lines = NULL;
  GStrv before[WS_N_FRAME_CATEGORIES];
  gboolean loaded;

  if (!g_key_file_load_from_data (key_file, text, -1, G_KEY_FILE_NONE, NULL))
    {
      g_autoptr(WsFrameClassifier) scratch = ws_frame_classifier_new_empty ();
      check_load_file (text, FALSE, classifier_load_file, scratch);
      return FALSE;
    }

  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    before[c] = ws_frame_classifier_get_patterns (classifier, c);

  loaded = ws_frame_classifier_load_key_file (classifier, key_file, &error);
  if (!loaded)
    {
      if (error == NULL || error->message[0] == '\0')
        ws_fuzz_fail ("the classifier failed without an error");
      for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
        {
          g_auto(GStrv) after = ws_frame_classifier_get_patterns (classifier, c);
          if (!g_strv_equal ((const char * const *) before[c], (const char * const *) after))
            ws_fuzz_fail ("a failed classifier load changed %s", ws_frame_category_to_key (c));
        }
    }
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    g_strfreev (before[c]);
  {
    g_autoptr(WsFrameClassifier) scratch = ws_frame_classifier_new ();
    check_load_file (text, loaded, classifier_load_file, scratch);
  }
  if (!loaded)
    return FALSE;

  ws_frame_classifier_save_to_key_file (classifier, saved);
  saved_text = g_key_file_to_data (saved, NULL, NULL);
  again = ws_frame_classifier_new_empty ();
  if (!g_key_file_load_from_data (reread, saved_text, -1, G_KEY_FILE_NONE, &error)
      || !ws_frame_classifier_load_key_file (again, reread, &error))
    ws_fuzz_fail ("saved classifier lists do not load back: %s\n%s", error->message, saved_text);
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      g_auto(GStrv) a = ws_frame_classifier_get_patterns (classifier, c);
      g_auto(GStrv) b = ws_frame_classifier_get_patterns (again, c);
      if (!g_strv_equal ((const char * const *) a, (const char * const *) b))
        ws_fuzz_fail ("classifier list %s does not survive save and load:\n%s",
                      ws_frame_category_to_key (c), saved_text);
    }

  /* Match the patterns against the input's own lines and a few real names. */
  lines = g_strsplit (text, "\n", 64);
  for (guint c = 0; c < WS_N_FRAME_CATEGORIES; c++)
    {
      static const char * const names[] = {
        "futex_wait", "hrtimer_wakeup", "kworker/0:1H", "systemd-journald", "", "ProcSleep",
        /* perf prints comm and symbol bytes as they are: not always UTF-8 */
        "worker-\xff\xfe", "\xc3(",
      };
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        ws_frame_classifier_match (classifier, c, names[i]);
      for (guint i = 0; lines[i] != NULL; i++)
        ws_frame_classifier_match (classifier, c, lines[i]);
    }
  return TRUE;
}
