/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `mine` and `cluster`'s JSON: the run (streams, λ, the miner's counts),
 * the patterns, the clusters and the signatures' coverage.  One field a
 * line, in the order docs/json-schemas.md lists them.
 */
#include "config.h"

#include "ws-json-fields.h"
#include "ws-mining-export.h"

const double ws_fig4_fractions[WS_FIG4_N_FRACTIONS] = { 0.25, 0.5, 0.75, 1.0 };

double
ws_fig4_streams_to_reach (WsCoverage *cov,
                          WsRanking   ranking,
                          double      fraction)
{
  return ws_coverage_streams_to_reach (cov, ranking, fraction * ws_coverage_get_total_coverage (cov), 0, 1);
}

static void
add_frames (JsonBuilder     *b,
            const char      *name,
            WsStackTable    *table,
            const WsFrameId *frames,
            guint            n_frames)
{
  ws_json_field_begin_array (b, name);
  for (guint i = 0; i < n_frames; i++)
    {
      g_autofree char *text = ws_stack_table_format_frame (table, frames[i]);
      json_builder_add_string_value (b, text);
    }
  json_builder_end_array (b);
}

static void
add_pattern (JsonBuilder     *b,
             WsStackTable    *table,
             const WsPattern *p,
             gboolean         discriminative)
{
  json_builder_begin_object (b);
  ws_json_field_int (b, "cost", p->cost);
  ws_json_field_int (b, "events", p->n_events);
  ws_json_field_int (b, "streams", p->n_streams);
  if (discriminative)
    ws_json_field_int (b, "discriminative", p->discriminative);
  add_frames (b, "frames", table, p->frames, p->n_frames);
  json_builder_end_object (b);
}

static void
add_history (JsonBuilder    *b,
             WsMiningResult *run)
{
  if (run->history == NULL)
    {
      ws_json_field_null (b, "history");
      return;
    }
  ws_json_field_begin_object (b, "history");
  ws_json_field_string (b, "path", ws_history_store_get_path (run->history));
  ws_json_field_int (b, "traces", ws_history_store_get_n_traces (run->history));
  ws_json_field_int (b, "newly_recorded", run->n_recorded);
  json_builder_end_object (b);
}

/* The members every mine/cluster document starts with. */
static void
add_header (JsonBuilder                 *b,
            WsMiningResult              *run,
            const WsMiningExportOptions *o)
{
  const WsMinerStats *st = ws_pattern_set_get_stats (run->patterns);

  ws_json_field_int (b, "schema_version", WS_MINING_SCHEMA_VERSION);
  ws_json_field_string (b, "time_unit", "ns");
  ws_json_field_string (b, "frame_order", "caller first");
  ws_json_field_string (b, "stacks", o->stacks);
  ws_json_field_string (b, "scope", o->scope ? o->scope : "delaying");
  ws_json_field_string (b, "scope_note", o->scope_note);
  ws_json_field_begin_object (b, "left_out");
  ws_json_field_int (b, "waits", run->n_left_out);
  ws_json_field_int (b, "time", run->left_out_time);
  json_builder_end_object (b);
  ws_json_field_begin_array (b, "traces");
  for (guint i = 0; i < run->n_traces; i++)
    json_builder_add_string_value (b, ws_mining_result_get_trace_path (run, i));
  json_builder_end_array (b);
  add_history (b, run);
  ws_json_field_int (b, "streams", ws_stack_db_get_n_streams (run->db));
  ws_json_field_int (b, "events", ws_stack_db_get_n_events (run->db));
  ws_json_field_int (b, "distinct_stacks", ws_stack_db_get_n_entries (run->db));
  ws_json_field_int (b, "total_cost", ws_stack_db_get_total_cost (run->db));
  ws_json_field_int (b, "total_delay", run->total_delay);
  ws_json_field_int (b, "lambda", run->lambda);
  ws_json_field_int (b, "n_patterns", ws_pattern_set_get_n_patterns (run->patterns));
  ws_json_field_begin_object (b, "miner");
  ws_json_field_int (b, "sequences", st->n_sequences);
  ws_json_field_int (b, "items", st->n_items);
  ws_json_field_int (b, "nodes", st->n_nodes);
  ws_json_field_int (b, "backscan_pruned", st->n_backscan_pruned);
  json_builder_end_object (b);
}

static guint
n_listed (guint n,
          guint top)
{
  return top == 0 ? n : MIN (top, n);
}

JsonNode *
ws_mining_export_patterns_json (WsMiningResult              *run,
                                const WsMiningExportOptions *o)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);
  guint shown = n_listed (ws_pattern_set_get_n_patterns (run->patterns), o->top);

  json_builder_begin_object (b);
  add_header (b, run, o);
  ws_json_field_begin_array (b, "patterns");
  for (guint i = 0; i < shown; i++)
    add_pattern (b, table, ws_pattern_set_get_pattern (run->patterns, i), run->discriminative);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
add_cluster (JsonBuilder    *b,
             WsMiningResult *run,
             guint           c)
{
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);
  const WsCluster *cl = ws_cluster_set_get_cluster (run->clusters, c);
  guint n_common;
  g_autofree WsFrameId *common = ws_coverage_cluster_common_frames (run->clusters, c, &n_common);

  json_builder_begin_object (b);
  ws_json_field_int (b, "rank", c + 1);
  ws_json_field_int (b, "total_cost", cl->total_cost);
  ws_json_field_int (b, "streams", cl->n_streams);
  ws_json_field_int (b, "events", cl->n_events);
  ws_json_field_double (b, "average_cost", cl->average_cost);
  ws_json_field_double (b, "merge_similarity", cl->merge_similarity);
  add_frames (b, "common", table, common, n_common);
  ws_json_field_begin_array (b, "patterns");
  for (guint k = 0; k < cl->n_patterns; k++)
    add_pattern (b, table, ws_pattern_set_get_pattern (run->patterns, cl->patterns[k]), run->discriminative);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_signature (JsonBuilder *b,
               WsCoverage  *cov,
               guint        i)
{
  json_builder_begin_object (b);
  ws_json_field_string (b, "name", ws_coverage_get_signature_name (cov, i));
  ws_json_field_int (b, "cost", ws_coverage_get_signature_cost (cov, i));
  ws_json_field_int (b, "streams", ws_coverage_get_signature_n_streams (cov, i));
  ws_json_field_double (b, "coverage", ws_coverage_get_signature_coverage (cov, i));
  json_builder_end_object (b);
}

/* The signatures, their coverage, and StackMine Fig. 4 read at
 * ws_fig4_fractions. */
static void
add_coverage (JsonBuilder *b,
              WsCoverage  *cov)
{
  ws_json_field_begin_array (b, "signatures");
  for (guint i = 0; i < ws_coverage_get_n_signatures (cov); i++)
    add_signature (b, cov, i);
  json_builder_end_array (b);
  ws_json_field_double (b, "coverage", ws_coverage_get_total_coverage (cov));
  ws_json_field_begin_object (b, "fig4");
  ws_json_field_begin_array (b, "coverage");
  for (guint k = 0; k < WS_FIG4_N_FRACTIONS; k++)
    json_builder_add_double_value (b, ws_fig4_fractions[k] * ws_coverage_get_total_coverage (cov));
  json_builder_end_array (b);
  for (WsRanking r = 0; r < WS_N_RANKINGS; r++)
    {
      ws_json_field_begin_array (b, ws_ranking_to_string (r));
      for (guint k = 0; k < WS_FIG4_N_FRACTIONS; k++)
        json_builder_add_double_value (b, ws_fig4_streams_to_reach (cov, r, ws_fig4_fractions[k]));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

JsonNode *
ws_mining_export_clusters_json (WsMiningResult              *run,
                                const WsMiningExportOptions *o)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint n = ws_cluster_set_get_n_clusters (run->clusters);

  json_builder_begin_object (b);
  add_header (b, run, o);
  ws_json_field_double (b, "threshold", ws_cluster_set_get_threshold (run->clusters));
  ws_json_field_string (b, "linkage", o->linkage);
  ws_json_field_string (b, "rank", o->rank);
  ws_json_field_string (b, "weights", ws_mining_weights_to_string (run->weights));
  ws_json_field_int (b, "n_clusters", n);
  ws_json_field_begin_array (b, "clusters");
  for (guint c = 0; c < n_listed (n, o->top); c++)
    add_cluster (b, run, c);
  json_builder_end_array (b);
  if (run->coverage != NULL)
    add_coverage (b, run->coverage);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
