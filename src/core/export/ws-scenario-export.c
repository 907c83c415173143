/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `scenarios`' JSON: each trace's scenario instances, then each
 * scenario's durations summarized.  One field a line, in the order
 * docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-json-fields.h"
#include "ws-scenario-export.h"

static void
add_instance (JsonBuilder              *b,
              WsTrace                  *trace,
              const WsScenarioInstance *inst)
{
  const WsThread *t = ws_trace_get_thread (trace, inst->thread);

  json_builder_begin_object (b);
  ws_json_field_text (b, "scenario", ws_trace_get_string (trace, inst->scenario));
  ws_json_field_int (b, "tid", t->tid);
  ws_json_field_text (b, "thread", t->name);
  ws_json_field_int (b, "t0", inst->t0);
  ws_json_field_int (b, "t1", inst->t1);
  ws_json_field_int (b, "duration", inst->t1 - inst->t0);
  json_builder_end_object (b);
}

static void
add_trace (JsonBuilder *b,
           WsTrace     *trace)
{
  json_builder_begin_object (b);
  ws_json_field_text (b, "path", ws_trace_get_path (trace));
  ws_json_field_text (b, "name", ws_trace_get_name (trace));
  ws_json_field_begin_array (b, "instances");
  for (guint k = 0; k < ws_trace_get_n_scenario_instances (trace); k++)
    add_instance (b, trace, ws_trace_get_scenario_instance (trace, k));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_summary (JsonBuilder             *b,
             const WsScenarioSummary *s)
{
  const WsTime *d = (const WsTime *) (gconstpointer) s->durations->data;
  gsize n = s->durations->len;

  json_builder_begin_object (b);
  ws_json_field_text (b, "scenario", s->name);
  ws_json_field_int (b, "count", n);
  ws_json_field_int (b, "min", d[0]);
  ws_json_field_int (b, "p50", ws_time_percentile (d, n, 50));
  ws_json_field_int (b, "p90", ws_time_percentile (d, n, 90));
  ws_json_field_int (b, "max", d[n - 1]);
  json_builder_end_object (b);
}

JsonNode *
ws_scenario_export_json (WsTrace * const *traces,
                         guint            n_traces,
                         GPtrArray       *summaries)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_SCENARIO_SCHEMA_VERSION);
  ws_json_field_string (b, "time_unit", "ns");
  ws_json_field_begin_array (b, "traces");
  for (guint i = 0; i < n_traces; i++)
    add_trace (b, traces[i]);
  json_builder_end_array (b);
  ws_json_field_begin_array (b, "summary");
  for (guint i = 0; i < summaries->len; i++)
    add_summary (b, g_ptr_array_index (summaries, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
