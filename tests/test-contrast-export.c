/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `contrast --json` as the core writes it (ws-contrast-export), without
 * the binary, on the recorded PostgreSQL pair (fast run, slow run).
 *
 * Oracles: the classes' sizes recounted from each trace's transaction
 * markers; the patterns' laws — ranks 1…n, total cost C non-increasing,
 * C/N = C div N, C_max ≤ C, a pattern's slow instances ≤ the slow class,
 * high impact exactly when C_path,max > T_slow — and the coverage curve
 * non-decreasing in [0, 1].  Names that are not UTF-8 still give valid
 * UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>

#include "ws-cli-test-util.h"
#include "ws-contrast-export.h"
#include "ws-export-test-util.h"
#include "ws-trace-loader.h"

static WsTrace *
load_shared (const char   *name,
             WsStackTable *stacks)
{
  g_autofree char *path = ws_cli_test_data_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, stacks, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static guint
count_transactions (WsTrace *trace)
{
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_autoptr(GPtrArray) found = ws_export_test_recount_transactions (trace, durations);

  return found->len;
}

static void
check_patterns (JsonObject *o,
                guint       top)
{
  JsonArray *patterns = json_object_get_array_member (o, "patterns");
  gint64 total = json_object_get_int_member (o, "patterns_total");
  gint64 previous_c = G_MAXINT64;

  g_assert_cmpint (json_array_get_length (patterns), ==, MIN ((gint64) top, total));
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      gint64 c = json_object_get_int_member (p, "c"), n = json_object_get_int_member (p, "n");

      g_assert_cmpint (json_object_get_int_member (p, "rank"), ==, i + 1);
      g_assert_cmpint (c, <=, previous_c);
      previous_c = c;
      g_assert_cmpint (n, >, 0);
      g_assert_cmpint (json_object_get_int_member (p, "c_per_n"), ==, c / n);
      g_assert_cmpint (json_object_get_int_member (p, "c_max"), <=, c);
      g_assert_cmpint (json_object_get_int_member (p, "slow_instances"), <=,
                       json_object_get_int_member (o, "slow_instances"));
      g_assert_cmpint (json_object_get_boolean_member (p, "high_impact"), ==,
                       json_object_get_int_member (p, "c_path_max") > json_object_get_int_member (o, "t_slow"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (p, "wait"))
                        + json_array_get_length (json_object_get_array_member (p, "unwait"))
                        + json_array_get_length (json_object_get_array_member (p, "running")), >, 0);
    }
}

static void
check_coverage (JsonObject *o)
{
  JsonArray *coverage = json_object_get_array_member (o, "coverage_top_percent");
  double previous = 0;

  g_assert_cmpuint (json_array_get_length (coverage), ==, 100);
  for (guint i = 0; i < 100; i++)
    {
      double v = json_array_get_double_element (coverage, i);

      g_assert_cmpfloat (v, >=, previous - 1e-12);
      g_assert_cmpfloat (v, <=, 1 + 1e-12);
      previous = v;
    }
}

static void
test_pg_pair (void)
{
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(WsTrace) fast_trace = load_shared ("pg-contrast-fast.perf.txt.gz", stacks);
  g_autoptr(WsTrace) slow_trace = load_shared ("pg-contrast-slow.perf.txt.gz", stacks);
  g_autoptr(WsInstanceSet) fast = ws_instance_set_new ();
  g_autoptr(WsInstanceSet) slow = ws_instance_set_new ();
  g_autoptr(WsContrastResult) r = NULL;
  g_autoptr(GError) error = NULL;
  WsContrastSettings s = { .component = "postgres" };
  const guint tops[] = { G_MAXUINT, 3 };

  ws_instance_set_add_trace (fast, fast_trace, "transaction");
  ws_instance_set_add_trace (slow, slow_trace, "transaction");
  s.fast = fast;
  s.slow = slow;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint t = 0; t < G_N_ELEMENTS (tops); t++)
    {
      g_autoptr(JsonNode) node = ws_contrast_export_json (r, "transaction", "postgres", tops[t]);
      g_autoptr(JsonNode) root = ws_export_test_round_trip (node);
      JsonObject *o = json_node_get_object (root);

      g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
      g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, WS_CONTRAST_SCHEMA_VERSION);
      g_assert_cmpstr (json_object_get_string_member (o, "scenario"), ==, "transaction");
      g_assert_cmpstr (json_object_get_string_member (o, "component"), ==, "postgres");
      g_assert_cmpstr (json_object_get_string_member (o, "classes"), ==, "by-trace");
      g_assert_cmpint (json_object_get_int_member (o, "fast_instances"), ==, count_transactions (fast_trace));
      g_assert_cmpint (json_object_get_int_member (o, "slow_instances"), ==, count_transactions (slow_trace));
      g_assert_cmpstr (json_object_get_string_member (o, "rank_by"), ==, "total");
      g_assert_cmpint (json_object_get_int_member (o, "patterns_total"), >, 3);
      check_patterns (o, tops[t]);
      check_coverage (o);
    }
}

/* Threads and frames named with bytes that are not UTF-8, and a scenario
 * and component named so too. */
static void
test_bad_names (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load_rewritten ("pg-contrast-slow.perf.txt.gz", "postgres ",
                                                            "post\xff\xfegres ");
  g_autoptr(WsInstanceSet) all = ws_instance_set_new ();
  g_autoptr(WsContrastResult) r = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL, root = NULL;
  WsContrastSettings s = { .component = "post" };
  JsonObject *o;

  g_assert_cmpuint (ws_instance_set_add_trace (all, trace, "transaction"), >, 10);
  s.instances = all;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  node = ws_contrast_export_json (r, "sc\xff" "ene", "p\xc3", G_MAXUINT);
  root = ws_export_test_round_trip (node);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "scenario"), ==, "sc\xef\xbf\xbd" "ene");
  g_assert_cmpstr (json_object_get_string_member (o, "component"), ==, "p\xef\xbf\xbd");
  g_assert_cmpint (json_object_get_int_member (o, "patterns_total"), >, 0);
  check_patterns (o, G_MAXUINT);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/contrast-export/pg-pair", test_pg_pair);
  g_test_add_func ("/contrast-export/bad-names", test_bad_names);
  return g_test_run ();
}
