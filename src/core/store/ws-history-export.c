/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The history store's JSON: what `history add` did, what the store holds
 * (`history stats`) and its commonest functions (`history top-functions`).
 * One field a line, in the order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-history-export.h"
#include "ws-json-fields.h"

static const char *
outcome_status (const WsHistoryAddOutcome *o)
{
  return o->error ? "failed" : o->newly ? "new" : "known";
}

static void
add_outcome (JsonBuilder               *b,
             const WsHistoryAddOutcome *o)
{
  json_builder_begin_object (b);
  ws_json_field_text (b, "path", o->path);
  ws_json_field_string (b, "status", outcome_status (o));
  ws_json_field_string (b, "digest", o->digest);
  if (o->error != NULL)
    ws_json_field_text (b, "error", o->error);
  json_builder_end_object (b);
}

JsonNode *
ws_history_export_add_json (const char                *history,
                            const WsHistoryAddOutcome *outcomes,
                            guint                      n_outcomes)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n_new = 0, n_known = 0, n_failed = 0;

  for (guint i = 0; i < n_outcomes; i++)
    {
      const char *status = outcome_status (&outcomes[i]);

      n_failed += g_str_equal (status, "failed");
      n_new += g_str_equal (status, "new");
      n_known += g_str_equal (status, "known");
    }
  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_HISTORY_JSON_SCHEMA_VERSION);
  ws_json_field_text (b, "history", history);
  ws_json_field_int (b, "new", n_new);
  ws_json_field_int (b, "known", n_known);
  ws_json_field_int (b, "failed", n_failed);
  ws_json_field_begin_array (b, "traces");
  for (guint i = 0; i < n_outcomes; i++)
    add_outcome (b, &outcomes[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_history_export_stats_json (const char           *history,
                              gboolean              exists,
                              const WsHistoryStats *stats)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_HISTORY_JSON_SCHEMA_VERSION);
  ws_json_field_text (b, "history", history);
  ws_json_field_boolean (b, "exists", exists);
  ws_json_field_int (b, "traces", stats->n_traces);
  ws_json_field_int (b, "callstacks", stats->n_callstacks);
  ws_json_field_int (b, "functions", stats->n_functions);
  ws_json_field_int (b, "bigrams", stats->n_bigrams);
  ws_json_field_int (b, "wait_samples", stats->n_wait_samples);
  ws_json_field_int (b, "wait_signatures", stats->n_wait_signatures);
  ws_json_field_int (b, "flags", stats->n_flags);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
add_function (JsonBuilder             *b,
              const WsHistoryFunction *f,
              guint64                  total)
{
  json_builder_begin_object (b);
  ws_json_field_text (b, "function", f->function);
  ws_json_field_text (b, "module", f->module);
  ws_json_field_int (b, "stacks", f->counts.n_stacks);
  ws_json_field_int (b, "with_callee", f->counts.n_with_callee);
  ws_json_field_int (b, "with_caller", f->counts.n_with_caller);
  ws_json_field_double (b, "share", total ? (double) f->counts.n_stacks / total : 0);
  json_builder_end_object (b);
}

JsonNode *
ws_history_export_top_functions_json (const char *history,
                                      GArray     *top,
                                      guint64     total)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_HISTORY_JSON_SCHEMA_VERSION);
  ws_json_field_text (b, "history", history);
  ws_json_field_int (b, "callstacks", total);
  ws_json_field_begin_array (b, "functions");
  for (guint i = 0; i < top->len; i++)
    add_function (b, &g_array_index (top, WsHistoryFunction, i), total);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
