/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The flags' JSON: the flags the history store holds (`flag list`) and
 * what flags would change without saving them (`flag add|remove
 * --dry-run`).  One field a line, in the order docs/json-schemas.md lists
 * them.
 */
#include "config.h"

#include "ws-anomaly-export.h"
#include "ws-anomaly-flag-export.h"
#include "ws-json-fields.h"

static void
add_flag (JsonBuilder      *b,
          const WsWaitFlag *f)
{
  json_builder_begin_object (b);
  ws_json_field_text (b, "digest", f->trace_digest);
  ws_json_field_int (b, "tid", f->tid);
  ws_json_field_int (b, "time_ns", f->event_time);
  ws_json_field_int (b, "duration_ns", f->duration);
  ws_json_field_text (b, "signature", f->signature);
  ws_json_field_string (b, "flag", ws_anomaly_flag_to_string (f->flag));
  ws_json_field_int (b, "updated_at_us", f->updated_at);
  json_builder_end_object (b);
}

JsonNode *
ws_anomaly_flag_export_list_json (GArray *flags)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (flags != NULL, NULL);
  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_FLAG_JSON_SCHEMA_VERSION);
  ws_json_field_begin_array (b, "flags");
  for (guint i = 0; i < flags->len; i++)
    add_flag (b, &g_array_index (flags, WsWaitFlag, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
add_dry_run (JsonBuilder        *b,
             const WsFlagDryRun *r)
{
  json_builder_begin_object (b);
  ws_json_field_int (b, "tid", r->tid);
  ws_json_field_int (b, "time_ns", r->time);
  ws_json_field_text (b, "signature", r->reach.signature);
  ws_json_field_string (b, "flag", ws_anomaly_flag_to_string (r->verdict));
  ws_json_field_int (b, "to_anomalous", r->reach.n_to_anomalous);
  ws_json_field_int (b, "to_normal", r->reach.n_to_normal);
  ws_json_field_double (b, "threshold", r->threshold);
  ws_json_field_double (b, "threshold_after", r->reach.threshold);
  json_builder_end_object (b);
}

JsonNode *
ws_anomaly_flag_export_dry_run_json (const WsFlagDryRun *runs,
                                     guint               n_runs)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (runs != NULL || n_runs == 0, NULL);
  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_FLAG_JSON_SCHEMA_VERSION);
  ws_json_field_begin_array (b, "waits");
  for (guint i = 0; i < n_runs; i++)
    add_dry_run (b, &runs[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
