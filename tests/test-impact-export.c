/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `impact --json` as the core writes it (ws-impact-export), without the
 * binary, on the recorded PostgreSQL run.
 *
 * Oracles: the instances recounted from the transaction markers; the
 * paper's definitions — D_waitdist ≤ D_wait, distinct waits ≤ waits,
 * IA_opt = (D_wait − D_waitdist) / D_scn, IA_wait = D_wait / D_scn,
 * IA_run = D_run / D_scn.  Names that are not UTF-8 still give valid
 * UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>

#include "ws-export-test-util.h"
#include "ws-impact-export.h"
#include "ws-instance-set.h"

static JsonNode *
run_export (WsTrace    *trace,
            const char *scenario,
            const char *component)
{
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  const char *components[] = { component, "kernel", NULL };
  WsImpactSettings settings = { .components = components };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(JsonNode) node = NULL;

  ws_instance_set_add_trace (set, trace, "transaction");
  rows = ws_impact_run (set, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  node = ws_impact_export_json (scenario, rows);
  return ws_export_test_round_trip (node);
}

static void
check_row (JsonObject *c,
           guint       n_instances)
{
  double d_scn = json_object_get_int_member (c, "d_scn");
  gint64 d_wait = json_object_get_int_member (c, "d_wait"), d_waitdist = json_object_get_int_member (c, "d_waitdist");

  g_assert_cmpint (json_object_get_int_member (c, "instances"), ==, n_instances);
  g_assert_cmpint (d_waitdist, <=, d_wait);
  g_assert_cmpint (json_object_get_int_member (c, "distinct_waits"), <=, json_object_get_int_member (c, "waits"));
  g_assert_cmpfloat (d_scn, >, 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (c, "ia_opt"), (d_wait - d_waitdist) / d_scn, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (c, "ia_wait"), d_wait / d_scn, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (c, "ia_run"),
                                  json_object_get_int_member (c, "d_run") / d_scn, 1e-9);
}

static void
test_pg (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load ("pg-tpcb.perf.txt.gz");
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_autoptr(GPtrArray) found = ws_export_test_recount_transactions (trace, durations);
  g_autoptr(JsonNode) root = run_export (trace, "transaction", "postgres");
  JsonObject *o = json_node_get_object (root);
  JsonArray *components = json_object_get_array_member (o, "components");

  g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, WS_IMPACT_SCHEMA_VERSION);
  g_assert_cmpstr (json_object_get_string_member (o, "scenario"), ==, "transaction");
  g_assert_cmpstr (json_object_get_string_member (o, "time_unit"), ==, "ns");
  g_assert_cmpuint (json_array_get_length (components), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 0), "component"),
                   ==, "postgres");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 1), "component"),
                   ==, "kernel");
  for (guint i = 0; i < 2; i++)
    check_row (json_array_get_object_element (components, i), found->len);
}

static void
test_bad_names (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load_rewritten ("pg-contrast-slow.perf.txt.gz", "postgres ",
                                                            "post\xff\xfegres ");
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  g_autoptr(GPtrArray) found = ws_export_test_recount_transactions (trace, durations);
  g_autoptr(JsonNode) root = run_export (trace, "tr\xff", "p\xc3");
  JsonObject *o = json_node_get_object (root);
  JsonArray *components = json_object_get_array_member (o, "components");

  g_assert_cmpstr (json_object_get_string_member (o, "scenario"), ==, "tr\xef\xbf\xbd");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 0), "component"),
                   ==, "p\xef\xbf\xbd");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (components, 0), "instances"),
                   ==, found->len);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/impact-export/pg", test_pg);
  g_test_add_func ("/impact-export/bad-names", test_bad_names);
  return g_test_run ();
}
