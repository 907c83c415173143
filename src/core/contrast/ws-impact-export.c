/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `impact`'s JSON: one row per component.  One field a line, in the
 * order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-impact-export.h"
#include "ws-json-fields.h"

static void
add_row (JsonBuilder    *b,
         const WsImpact *m)
{
  json_builder_begin_object (b);
  ws_json_field_text (b, "component", m->component);
  ws_json_field_int (b, "instances", m->n_instances);
  ws_json_field_int (b, "d_scn", m->d_scn);
  ws_json_field_int (b, "d_wait", m->d_wait);
  ws_json_field_int (b, "d_run", m->d_run);
  ws_json_field_int (b, "d_waitdist", m->d_waitdist);
  ws_json_field_int (b, "waits", m->n_waits);
  ws_json_field_int (b, "distinct_waits", m->n_distinct_waits);
  ws_json_field_double (b, "ia_run", m->ia_run);
  ws_json_field_double (b, "ia_wait", m->ia_wait);
  ws_json_field_double (b, "ia_opt", m->ia_opt);
  ws_json_field_double (b, "wait_ratio", m->wait_ratio);
  json_builder_end_object (b);
}

JsonNode *
ws_impact_export_json (const char *scenario,
                       GArray     *rows)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ws_json_field_int (b, "schema_version", WS_IMPACT_SCHEMA_VERSION);
  ws_json_field_text (b, "scenario", scenario);
  ws_json_field_string (b, "time_unit", "ns");
  ws_json_field_begin_array (b, "components");
  for (guint i = 0; i < rows->len; i++)
    add_row (b, &g_array_index (rows, WsImpact, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
