/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `contrast`'s JSON: how the instances were classed and what the mining
 * found, then the ranked contrast patterns.  One field a line, in the
 * order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-contrast-export.h"
#include "ws-contrast-words.h"
#include "ws-json-fields.h"

static void
add_set (JsonBuilder   *b,
         WsSignatures  *sigs,
         const char    *name,
         const WsSigId *v,
         guint          n)
{
  ws_json_field_begin_array (b, name);
  for (guint i = 0; i < n; i++)
    json_builder_add_string_value (b, ws_signatures_get_name (sigs, v[i]));
  json_builder_end_array (b);
}

static const char *
classes_name (WsContrastResult *r)
{
  return ws_contrast_result_get_by_class (r) ? "by-trace"
         : ws_contrast_result_get_thresholds_proposed (r) ? "proposed-thresholds"
         : "thresholds";
}

static void
add_header (JsonBuilder      *b,
            WsContrastResult *r,
            const char       *scenario,
            const char       *component)
{
  g_autofree char *summary = ws_contrast_result_dup_summary (r, ws_contrast_result_get_by_class (r));
  guint mf, ms, mc;

  ws_contrast_result_get_meta_counts (r, &mf, &ms, &mc);
  ws_json_field_int (b, "schema_version", WS_CONTRAST_SCHEMA_VERSION);
  ws_json_field_text (b, "scenario", scenario);
  ws_json_field_text (b, "component", component);
  ws_json_field_string (b, "time_unit", "ns");
  ws_json_field_string (b, "classes", classes_name (r));
  ws_json_field_int (b, "t_fast", ws_contrast_result_get_t_fast (r));
  ws_json_field_int (b, "t_slow", ws_contrast_result_get_t_slow (r));
  ws_json_field_int (b, "fast_instances", ws_instance_set_get_n (ws_contrast_result_get_fast (r)));
  ws_json_field_int (b, "slow_instances", ws_instance_set_get_n (ws_contrast_result_get_slow (r)));
  ws_json_field_int (b, "k", ws_contrast_result_get_k (r));
  ws_json_field_string (b, "rank_by", ws_contrast_rank_to_string (ws_contrast_result_get_rank (r)));
  ws_json_field_int (b, "meta_patterns_fast", mf);
  ws_json_field_int (b, "meta_patterns_slow", ms);
  ws_json_field_int (b, "contrast_meta_patterns", mc);
  ws_json_field_int (b, "awg_fast_nodes", ws_awg_get_n_nodes (ws_contrast_result_get_awg_fast (r)));
  ws_json_field_int (b, "awg_slow_nodes", ws_awg_get_n_nodes (ws_contrast_result_get_awg_slow (r)));
  ws_json_field_int (b, "slow_component_cost", ws_contrast_result_get_total_cost (r));
  ws_json_field_text (b, "summary", summary);
  ws_json_field_double (b, "itc", ws_contrast_result_get_itc (r));
  ws_json_field_double (b, "ttc", ws_contrast_result_get_ttc (r));
  ws_json_field_begin_array (b, "coverage_top_percent");
  for (guint pct = 1; pct <= 100; pct++)
    json_builder_add_double_value (b, ws_contrast_result_get_coverage (r, pct));
  json_builder_end_array (b);
}

static void
add_pattern (JsonBuilder      *b,
             WsContrastResult *r,
             guint             i)
{
  WsSignatures *sigs = ws_contrast_result_get_signatures (r);
  const WsContrastPattern *p = ws_contrast_result_get_pattern (r, i);
  g_autoptr(GArray) inst = ws_contrast_result_dup_pattern_instances (r, i);

  json_builder_begin_object (b);
  ws_json_field_int (b, "rank", i + 1);
  add_set (b, sigs, "wait", p->w, p->n_w);
  add_set (b, sigs, "unwait", p->u, p->n_u);
  add_set (b, sigs, "running", p->r, p->n_r);
  ws_json_field_int (b, "c", p->c);
  ws_json_field_int (b, "n", (gint64) p->n);
  ws_json_field_int (b, "c_per_n", p->n ? p->c / (gint64) p->n : 0);
  ws_json_field_int (b, "c_max", p->c_max);
  ws_json_field_int (b, "c_path_max", p->c_path_max);
  ws_json_field_boolean (b, "high_impact", p->high_impact);
  ws_json_field_int (b, "slow_instances", inst->len);
  json_builder_end_object (b);
}

JsonNode *
ws_contrast_export_json (WsContrastResult *result,
                         const char       *scenario,
                         const char       *component,
                         guint             top)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = ws_contrast_result_get_n_patterns (result);

  json_builder_begin_object (b);
  add_header (b, result, scenario, component);
  ws_json_field_int (b, "patterns_total", n);
  ws_json_field_begin_array (b, "patterns");
  for (guint i = 0; i < MIN (n, top); i++)
    add_pattern (b, result, i);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
