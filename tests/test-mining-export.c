/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `mine --json` and `cluster --json` as the core writes them
 * (ws-mining-export), without the binary: a mining run over every wait of
 * real traces of tests/data, no history.
 *
 * Oracles: a pattern's cost is recounted here from the trace — the summed
 * durations of the waits whose stack (caller first) holds the pattern's
 * frames in order — and is at least λ; the total cost is every wait's
 * duration; the patterns come costliest first; with every cluster listed
 * each pattern is in exactly one cluster, and a cluster costs at least its
 * costliest pattern and at most the sum of its patterns; Fig. 4's
 * coverage grows.  Thread and frame names that are not UTF-8 still give
 * valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "ws-export-test-util.h"
#include "ws-json-text.h"
#include "ws-mining-export.h"

static WsMiningResult *
mine (WsTrace            *trace,
      const char * const *signatures)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  WsMiningSettings settings;
  WsMiningResult *run;

  g_ptr_array_add (traces, trace);
  ws_mining_settings_init (&settings);
  settings.scope = WS_MINING_RUN_SCOPE_ALL;
  settings.read_history = FALSE;
  settings.record_history = FALSE;
  settings.cluster = TRUE;
  settings.signatures = signatures;
  run = ws_mining_run (traces, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return run;
}

/* Does the stack of @event hold @frames in order? */
static gboolean
stack_holds (WsTrace   *trace,
             WsStackId  stack,
             JsonArray *frames)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  guint n = 0, k = 0;
  const WsFrameId *ids = ws_stack_table_get_stack (table, stack, &n);

  for (guint i = 0; i < n && k < json_array_get_length (frames); i++)
    {
      g_autofree char *text = ws_stack_table_format_frame (table, ids[i]);
      g_autofree char *valid = g_utf8_make_valid (text, -1);

      k += g_str_equal (valid, json_array_get_string_element (frames, k));
    }
  return k == json_array_get_length (frames);
}

static gint64
recount_cost (WsTrace   *trace,
              JsonArray *frames)
{
  gint64 cost = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);

      if (e->kind == WS_EVENT_WAIT && stack_holds (trace, e->stack, frames))
        cost += ws_event_duration (e);
    }
  return cost;
}

static void
check_patterns (WsTrace    *trace,
                JsonObject *root,
                guint       top)
{
  JsonArray *patterns = json_object_get_array_member (root, "patterns");
  gint64 previous = G_MAXINT64, total = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      total += ws_event_duration (ws_trace_get_event (trace, i));
  g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, WS_MINING_SCHEMA_VERSION);
  g_assert_cmpint (json_object_get_int_member (root, "total_cost"), ==, total);
  g_assert_cmpuint (json_array_get_length (patterns), ==, MIN (top, json_object_get_int_member (root, "n_patterns")));
  g_assert_cmpuint (json_array_get_length (patterns), >, 0);
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      gint64 cost = json_object_get_int_member (p, "cost");

      g_assert_cmpint (cost, ==, recount_cost (trace, json_object_get_array_member (p, "frames")));
      g_assert_cmpint (cost, >=, json_object_get_int_member (root, "lambda"));
      g_assert_cmpint (cost, <=, previous);
      previous = cost;
    }
}

static void
check_clusters (JsonObject *root)
{
  JsonArray *clusters = json_object_get_array_member (root, "clusters");
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_patterns = 0;

  g_assert_cmpuint (json_array_get_length (clusters), ==, json_object_get_int_member (root, "n_clusters"));
  for (guint c = 0; c < json_array_get_length (clusters); c++)
    {
      JsonObject *cl = json_array_get_object_element (clusters, c);
      JsonArray *patterns = json_object_get_array_member (cl, "patterns");
      gint64 max = 0, sum = 0;

      g_assert_cmpint (json_object_get_int_member (cl, "rank"), ==, c + 1);
      for (guint k = 0; k < json_array_get_length (patterns); k++, n_patterns++)
        {
          JsonObject *p = json_array_get_object_element (patterns, k);
          JsonNode *frames = json_object_get_member (p, "frames");

          max = MAX (max, json_object_get_int_member (p, "cost"));
          sum += json_object_get_int_member (p, "cost");
          g_assert_true (g_hash_table_add (seen, ws_json_text_from_node (frames)));
        }
      g_assert_cmpint (json_object_get_int_member (cl, "total_cost"), >=, max);
      g_assert_cmpint (json_object_get_int_member (cl, "total_cost"), <=, sum);
    }
  g_assert_cmpuint (n_patterns, ==, json_object_get_int_member (root, "n_patterns"));
}

static void
check_fig4 (JsonObject *root)
{
  JsonObject *fig4 = json_object_get_object_member (root, "fig4");
  g_autoptr(GList) rankings = json_object_get_members (fig4);

  for (GList *l = rankings; l != NULL; l = l->next)
    {
      JsonArray *values = json_object_get_array_member (fig4, l->data);

      g_assert_cmpuint (json_array_get_length (values), ==, WS_FIG4_N_FRACTIONS);
      for (guint k = 1; k < WS_FIG4_N_FRACTIONS; k++)
        g_assert_cmpfloat (json_array_get_double_element (values, k), >=, json_array_get_double_element (values, k - 1));
    }
  g_assert_cmpfloat (json_object_get_double_member (root, "coverage"), <=, 1.0);
}

static void
check_run (WsTrace            *trace,
           const char * const *signatures)
{
  g_autoptr(WsMiningResult) run = mine (trace, signatures);
  WsMiningExportOptions options = { "waiting", "all", NULL, 5, "average", "total" };
  g_autoptr(JsonNode) patterns = ws_mining_export_patterns_json (run, &options);
  g_autoptr(JsonNode) back = ws_export_test_round_trip (patterns);
  g_autoptr(JsonNode) clusters = NULL;
  g_autoptr(JsonNode) clusters_back = NULL;

  check_patterns (trace, json_node_get_object (back), 5);
  options.top = 0;
  clusters = ws_mining_export_clusters_json (run, &options);
  clusters_back = ws_export_test_round_trip (clusters);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (clusters_back), "schema_version"), ==,
                   WS_MINING_SCHEMA_VERSION);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (clusters_back), "linkage"), ==, "average");
  check_clusters (json_node_get_object (clusters_back));
  if (signatures != NULL)
    check_fig4 (json_node_get_object (clusters_back));
}

static void
test_real_traces (void)
{
  static const char * const pg_signatures[] = { "PostgresMain,PortalRun", "main,PostmasterMain", NULL };
  g_autoptr(WsTrace) pg = ws_export_test_load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsTrace) fsync = ws_export_test_load ("causes/fsync-dd.perf.txt.gz");

  check_run (pg, pg_signatures);
  check_run (fsync, NULL);
}

static void
test_bad_names (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load_bad ();
  g_autoptr(WsMiningResult) run = mine (trace, NULL);
  WsMiningExportOptions options = { "waiting", "all", NULL, 0, "average", "total" };
  g_autoptr(JsonNode) node = ws_mining_export_clusters_json (run, &options);
  g_autofree char *text = ws_json_text_from_node (node);
  g_autoptr(JsonNode) back = ws_export_test_parse (text);

  check_clusters (json_node_get_object (back));
  g_assert_nonnull (strstr (text, "sche\xef\xbf\xbd" "dule"));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mining-export/real-traces", test_real_traces);
  g_test_add_func ("/mining-export/bad-names", test_bad_names);
  return g_test_run ();
}
