/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `scenarios --json` as the core writes it (ws-scenario-export), without
 * the binary, on real traces of tests/data.
 *
 * Oracles, recounted here from the raw marker events with the built-in
 * rule (a transaction__start followed on its thread by a commit or an
 * abort, no other start between): each trace's instances, their
 * durations; per scenario the count, min, max and nearest-rank p50/p90
 * of the sorted durations over all traces.  The percentile's law over
 * random inputs; names that are not UTF-8 still give valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include "ws-export-test-util.h"
#include "ws-scenario-export.h"

static int
compare_str (gconstpointer a,
             gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? -1 : x > y;
}

static void
check_trace (WsTrace    *trace,
             JsonObject *t,
             GArray     *durations)
{
  g_autoptr(GPtrArray) want = ws_export_test_recount_transactions (trace, durations);
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  JsonArray *instances = json_object_get_array_member (t, "instances");

  g_assert_cmpstr (json_object_get_string_member (t, "path"), ==, ws_trace_get_path (trace));
  g_assert_cmpstr (json_object_get_string_member (t, "name"), ==, ws_trace_get_name (trace));
  for (guint k = 0; k < json_array_get_length (instances); k++)
    {
      JsonObject *inst = json_array_get_object_element (instances, k);
      gint64 t0 = json_object_get_int_member (inst, "t0"), t1 = json_object_get_int_member (inst, "t1");

      g_assert_cmpstr (json_object_get_string_member (inst, "scenario"), ==, "transaction");
      g_assert_cmpint (json_object_get_int_member (inst, "duration"), ==, t1 - t0);
      g_ptr_array_add (got, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                             json_object_get_int_member (inst, "tid"), t0, t1));
    }
  g_ptr_array_sort (want, compare_str);
  g_ptr_array_sort (got, compare_str);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint k = 0; k < got->len; k++)
    g_assert_cmpstr (g_ptr_array_index (got, k), ==, g_ptr_array_index (want, k));
}

/* The nearest rank, as a person computes it: ⌈p·n/100⌉-th smallest. */
static WsTime
oracle_percentile (GArray *sorted,
                   guint   percent)
{
  guint rank = (guint) ceil (percent * sorted->len / 100.0);

  return g_array_index (sorted, WsTime, MAX (rank, 1) - 1);
}

static void
test_real_traces (void)
{
  const char *names[] = { "pg-tpcb.perf.txt.gz", "pg-contrast-fast.perf.txt.gz", "pg-contrast-slow.perf.txt.gz" };
  WsTrace *traces[G_N_ELEMENTS (names)];
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(JsonNode) node = NULL, root = NULL;
  JsonObject *o, *summary;
  JsonArray *json_traces;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    traces[i] = ws_export_test_load (names[i]);
  summaries = ws_scenario_summarize (traces, G_N_ELEMENTS (traces));
  node = ws_scenario_export_json (traces, G_N_ELEMENTS (traces), summaries);
  root = ws_export_test_round_trip (node);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, WS_SCENARIO_SCHEMA_VERSION);
  g_assert_cmpstr (json_object_get_string_member (o, "time_unit"), ==, "ns");

  json_traces = json_object_get_array_member (o, "traces");
  g_assert_cmpuint (json_array_get_length (json_traces), ==, G_N_ELEMENTS (traces));
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    check_trace (traces[i], json_array_get_object_element (json_traces, i), durations);
  g_assert_cmpuint (durations->len, >, 100);
  g_array_sort (durations, compare_time);

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "summary")), ==, 1);
  summary = json_array_get_object_element (json_object_get_array_member (o, "summary"), 0);
  g_assert_cmpstr (json_object_get_string_member (summary, "scenario"), ==, "transaction");
  g_assert_cmpint (json_object_get_int_member (summary, "count"), ==, durations->len);
  g_assert_cmpint (json_object_get_int_member (summary, "min"), ==, g_array_index (durations, WsTime, 0));
  g_assert_cmpint (json_object_get_int_member (summary, "max"), ==, g_array_index (durations, WsTime, durations->len - 1));
  g_assert_cmpint (json_object_get_int_member (summary, "p50"), ==, oracle_percentile (durations, 50));
  g_assert_cmpint (json_object_get_int_member (summary, "p90"), ==, oracle_percentile (durations, 90));

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    g_object_unref (traces[i]);
}

/* Law: the p-th percentile is a value of the set with at least p % of the
 * values at or below it and fewer than p % strictly below it. */
static void
test_percentile_law (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2511);

  for (guint round = 0; round < 2000; round++)
    {
      guint n = g_rand_int_range (rand, 1, 60);
      guint percent = g_rand_int_range (rand, 0, 101);
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (WsTime));
      guint at_or_below = 0, below = 0;
      WsTime p;

      for (guint i = 0; i < n; i++)
        {
          WsTime v = g_rand_int_range (rand, 0, 20);
          g_array_append_val (values, v);
        }
      g_array_sort (values, compare_time);
      p = ws_time_percentile ((const WsTime *) (gconstpointer) values->data, n, percent);
      for (guint i = 0; i < n; i++)
        {
          WsTime v = g_array_index (values, WsTime, i);
          at_or_below += v <= p;
          below += v < p;
        }
      g_assert_cmpuint (100 * at_or_below, >=, percent * n);
      g_assert_true (below == 0 || 100 * below < percent * n);
      g_assert_cmpint (p, ==, oracle_percentile (values, percent));
    }
}

/* Transactions on threads named with bytes that are not UTF-8, of a
 * scenario named so too, in a file whose path is not UTF-8 either. */
static void
test_bad_names (void)
{
  WsTrace *trace = ws_export_test_load_rewritten ("pg-contrast-slow.perf.txt.gz", "postgres ", "post\xff\xfegres ");
  const char *ends[] = { "sdt_postgresql:transaction__commit", NULL };
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(JsonNode) node = NULL, root = NULL;
  JsonArray *instances;
  JsonObject *first;
  guint n;

  n = ws_trace_add_scenario_instances_full (trace, "sc\xff" "ene", "sdt_postgresql:transaction__start", ends);
  g_assert_cmpuint (n, >, 0);
  summaries = ws_scenario_summarize (&trace, 1);
  node = ws_scenario_export_json (&trace, 1, summaries);
  root = ws_export_test_round_trip (node);
  instances = json_object_get_array_member (json_array_get_object_element (
                json_object_get_array_member (json_node_get_object (root), "traces"), 0), "instances");
  g_assert_cmpuint (json_array_get_length (instances), ==, ws_trace_get_n_scenario_instances (trace));
  first = json_array_get_object_element (instances, json_array_get_length (instances) - 1);
  g_assert_cmpstr (json_object_get_string_member (first, "scenario"), ==, "sc\xef\xbf\xbd" "ene");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (first, "thread"), "post\xef\xbf\xbd"));
  g_object_unref (trace);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scenario-export/real-traces", test_real_traces);
  g_test_add_func ("/scenario-export/percentile-law", test_percentile_law);
  g_test_add_func ("/scenario-export/bad-names", test_bad_names);
  return g_test_run ();
}
