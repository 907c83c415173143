/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `info`'s JSON: per trace what it holds, per thread how long it waited
 * and ran, and the costliest waits with who readied them and both call
 * stacks.  One field a line, in the order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-block-requests.h"
#include "ws-json-fields.h"
#include "ws-json-stream.h"
#include "ws-perf-importer.h"
#include "ws-trace-summary.h"
#include "ws-trace-summary-export.h"
#include "ws-wait-readier.h"

/* Stacks are stored caller first; analysts read them leaf first, as perf
 * prints them, so every output is leaf first. */
static void
add_stack (JsonBuilder  *b,
           const char   *name,
           WsStackTable *stacks,
           WsStackId     stack)
{
  guint n = 0;
  const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

  ws_json_field_begin_array (b, name);
  for (guint k = n; k > 0; k--)
    {
      g_autofree char *text = ws_stack_table_format_frame (stacks, frames[k - 1]);
      json_builder_add_string_value (b, text);
    }
  json_builder_end_array (b);
}

static void
add_readier (JsonBuilder *b,
             WsTrace     *trace,
             guint        wait)
{
  guint readier_thread = WS_NONE;
  WsWaitReadier readier = ws_wait_readier_classify (trace, wait, &readier_thread);

  ws_json_field_begin_object (b, "readier");
  ws_json_field_string (b, "kind", ws_wait_readier_to_string (readier));
  if (readier == WS_WAIT_READIER_THREAD)
    {
      const WsThread *r = ws_trace_get_thread (trace, readier_thread);

      ws_json_field_int (b, "tid", r->tid);
      ws_json_field_string (b, "thread", r->name);
    }
  json_builder_end_object (b);
}

static void
add_wait (JsonBuilder *b,
          WsTrace     *trace,
          guint        index)
{
  const WsEvent *e = ws_trace_get_event (trace, index);
  const WsThread *thread = ws_trace_get_thread (trace, e->thread);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  char state[2] = { e->state, '\0' };

  json_builder_begin_object (b);
  ws_json_field_int (b, "event", index);
  ws_json_field_int (b, "tid", thread->tid);
  ws_json_field_string (b, "thread", thread->name);
  if (thread->pid >= 0)
    ws_json_field_int (b, "pid", thread->pid);
  else
    ws_json_field_null (b, "pid");   /* never recorded */
  ws_json_field_int (b, "time", e->time);
  ws_json_field_int (b, "cost", ws_event_duration (e));
  if (ws_trace_wait_ready_latency (trace, index) == WS_LATENCY_UNKNOWN)
    ws_json_field_null (b, "ready_latency");
  else
    ws_json_field_int (b, "ready_latency", ws_trace_wait_ready_latency (trace, index));
  ws_json_field_string (b, "state", state);
  ws_json_field_begin_array (b, "flags");
  for (guint bit = 0; bit < 8; bit++)
    if ((e->flags & (1u << bit)) && ws_event_flag_name (bit) != NULL)
      json_builder_add_string_value (b, ws_event_flag_name (bit));
  json_builder_end_array (b);
  add_readier (b, trace, index);
  add_stack (b, "waiting_stack", stacks, e->stack);
  if (e->peer == WS_NONE)
    {
      ws_json_field_null (b, "unwait_event");
      ws_json_field_null (b, "unwait_stack");
    }
  else
    {
      ws_json_field_int (b, "unwait_event", e->peer);
      add_stack (b, "unwait_stack", stacks, ws_trace_get_event (trace, e->peer)->stack);
    }
  json_builder_end_object (b);
}

static void
add_thread (JsonBuilder           *b,
            WsTrace               *trace,
            const WsThreadSummary *summary)
{
  const WsThreadTotals *s = &summary->totals;
  const WsThread *t = ws_trace_get_thread (trace, summary->thread);

  json_builder_begin_object (b);
  ws_json_field_int (b, "tid", t->tid);
  if (t->pid >= 0)
    ws_json_field_int (b, "pid", t->pid);
  else
    ws_json_field_null (b, "pid");   /* never recorded */
  ws_json_field_string (b, "name", t->name);
  ws_json_field_string (b, "process", ws_trace_summary_process_name (trace, t));
  ws_json_field_int (b, "waits", s->n_waits);
  ws_json_field_int (b, "wait_total", s->wait_total);
  ws_json_field_int (b, "waits_readier_unknown", s->n_unknown);
  ws_json_field_int (b, "waits_readier_hardware", s->n_hardware);
  ws_json_field_int (b, "run_total", s->run_total);
  ws_json_field_int (b, "samples", s->n_samples);
  ws_json_field_int (b, "sampled_run_total", s->sampled_total);
  ws_json_field_int (b, "preempt_total", s->preempt_total);
  json_builder_end_object (b);
}

static void
add_event_counts (JsonBuilder *b,
                  WsTrace     *trace)
{
  json_builder_begin_object (b);
  for (guint k = 0; k < WS_N_EVENT_KINDS; k++)
    ws_json_field_int (b, ws_event_kind_to_string (k), ws_trace_count_kind (trace, k));
  json_builder_end_object (b);
}

/* The block layer's requests. */
static void
add_block_requests (JsonBuilder           *b,
                    const WsBlockRequests *r)
{
  guint by_wait, unfinished = ws_block_requests_get_n_unfinished (r, &by_wait);

  json_builder_begin_object (b);
  ws_json_field_int (b, "n", ws_block_requests_get_n (r));
  ws_json_field_int (b, "without_completion", unfinished);
  ws_json_field_int (b, "ended_at_issuer_wait", by_wait);
  ws_json_field_int (b, "completions_without_issue", ws_block_requests_get_n_orphans (r));
  json_builder_end_object (b);
}

static void
add_trace (WsJsonStream *out,
           WsTrace      *trace,
           guint         top)
{
  g_autofree WsThreadSummary *threads = ws_trace_summary_threads (trace);
  g_autoptr(GArray) waits = ws_trace_summary_top_waits (trace, top);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const WsBlockRequests *requests = ws_trace_get_block_requests (trace);
  gboolean has_waits = ws_trace_count_kind (trace, WS_EVENT_WAIT) > 0;

  ws_json_stream_begin_object (out);
  ws_json_stream_field_string (out, "path", ws_trace_get_path (trace));
  ws_json_stream_field_string (out, "name", ws_trace_get_name (trace));
  ws_json_stream_field_int (out, "start", ws_trace_get_start_time (trace));
  ws_json_stream_field_int (out, "end", ws_trace_get_end_time (trace));
  ws_json_stream_field_int (out, "duration", ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace));
  ws_json_stream_field_int (out, "n_events", ws_trace_get_n_events (trace));
  ws_json_stream_set_member_name (out, "events");
  add_event_counts (b, trace);
  ws_json_stream_add_builder (out, b);
  /* A profile of samples alone: what to record to see waits. */
  ws_json_stream_set_member_name (out, "waits_recorded");
  ws_json_stream_add_boolean (out, has_waits);
  ws_json_stream_field_string (out, "record_waits_command", has_waits ? NULL : WS_PERF_RECORD_WAITS_COMMAND);
  ws_json_stream_field_int (out, "n_processes", ws_trace_get_n_processes (trace));
  ws_json_stream_field_int (out, "n_scenario_instances", ws_trace_get_n_scenario_instances (trace));
  ws_json_stream_set_member_name (out, "block_requests");
  if (requests == NULL)
    ws_json_stream_add_null (out);   /* not recorded */
  else
    {
      add_block_requests (b, requests);
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_set_member_name (out, "threads");
  ws_json_stream_begin_array (out);
  for (guint k = 0; k < ws_trace_get_n_threads (trace); k++)
    {
      add_thread (b, trace, &threads[k]);
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_end_array (out);
  ws_json_stream_set_member_name (out, "top_waits");
  ws_json_stream_begin_array (out);
  for (guint k = 0; k < waits->len; k++)
    {
      add_wait (b, trace, g_array_index (waits, guint, k));
      ws_json_stream_add_builder (out, b);
    }
  ws_json_stream_end_array (out);
  ws_json_stream_end_object (out);
}

gboolean
ws_trace_summary_export_json (FILE            *file,
                              WsTrace * const *traces,
                              guint            n_traces,
                              guint            top)
{
  WsJsonStream *out = ws_json_stream_new (file);

  ws_json_stream_begin_object (out);
  ws_json_stream_field_int (out, "schema_version", WS_TRACE_SUMMARY_SCHEMA_VERSION);
  ws_json_stream_field_string (out, "stack_order", "leaf-first");
  ws_json_stream_field_string (out, "time_unit", "ns");
  ws_json_stream_set_member_name (out, "traces");
  ws_json_stream_begin_array (out);
  for (guint i = 0; i < n_traces; i++)
    add_trace (out, traces[i], top);
  ws_json_stream_end_array (out);
  ws_json_stream_end_object (out);
  return ws_json_stream_finish (out);
}
