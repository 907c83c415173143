/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli impact, awg and contrast run as a user would: their JSON
 * parses and says what the core says, bad input exits 1 naming the file,
 * usage errors exit 2.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"

static JsonObject *
parse_object (const WsCliRun *run, JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  if (run->status != 0)
    g_printerr ("%s", run->err);
  g_assert_cmpint (run->status, ==, 0);
  g_assert_true (g_utf8_validate (run->out, -1, NULL));
  json_parser_load_from_data (parser, run->out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gboolean
array_has (JsonArray *a, const char *s)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (g_strcmp0 (json_array_get_string_element (a, i), s) == 0)
      return TRUE;
  return FALSE;
}

static void
test_contrast_json (void)
{
  g_autofree char *path = ws_cli_test_data_path ("paper-case.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(WsCliRun) run = { 0 };
  JsonObject *o, *top;

  ws_cli_run (&run, "contrast", "--component", "\\.sys\\)", "--fast-below", "300ms", "--slow-above", "500ms",
           "--json", path, NULL);
  o = parse_object (&run, parser);
  g_assert_cmpstr (json_object_get_string_member (o, "classes"), ==, "thresholds");
  g_assert_cmpint (json_object_get_int_member (o, "fast_instances"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (o, "slow_instances"), ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "coverage_top_percent")), ==, 100);
  top = json_array_get_object_element (json_object_get_array_member (o, "patterns"), 0);
  g_assert_cmpint (json_object_get_int_member (top, "rank"), ==, 1);
  g_assert_true (array_has (json_object_get_array_member (top, "wait"), "QueryFileTable"));
  g_assert_true (array_has (json_object_get_array_member (top, "unwait"), "AcquireMDU"));
  g_assert_true (array_has (json_object_get_array_member (top, "running"), "ReadDecrypt"));
  g_assert_true (array_has (json_object_get_array_member (top, "running"), "DiskService"));
  g_assert_cmpint (json_object_get_int_member (top, "c_per_n"), ==, 700000000);
  g_assert_cmpint (json_object_get_int_member (top, "slow_instances"), ==, 3);
}

/*
 * The pair recorded by tests/data/lock-contrast/record.sh after the ranking
 * was chosen: requests queue on a cache lock while its holder waits for a
 * loader thread computing in load_entries.  Ranked by total cost (the
 * default) the first pattern is that chain; both orders are what they say.
 */
static void
test_contrast_rank (void)
{
  g_autofree char *fast = ws_cli_test_data_path ("lock-contrast/lock-slowop-fast.perf.txt.gz");
  g_autofree char *slow = ws_cli_test_data_path ("lock-contrast/lock-slowop-slow.perf.txt.gz");
  const char *ranks[] = { NULL, "average" };

  for (guint r = 0; r < G_N_ELEMENTS (ranks); r++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_auto(WsCliRun) run = { 0 };
      JsonObject *o, *top;
      JsonArray *patterns;

      ws_cli_run (&run, "contrast", "--scenario", "request=lso:request_begin,lso:request_end",
                  "--component", "lock-slowop", "--fast", fast, "--slow", slow, "--top", "50", "--json",
                  ranks[r] ? "--rank" : NULL, ranks[r], NULL);
      o = parse_object (&run, parser);
      g_assert_cmpstr (json_object_get_string_member (o, "rank_by"), ==, ranks[r] ? ranks[r] : "total");
      patterns = json_object_get_array_member (o, "patterns");
      g_assert_cmpuint (json_array_get_length (patterns), >, 3);
      for (guint i = 1; i < json_array_get_length (patterns); i++)
        {
          JsonObject *a = json_array_get_object_element (patterns, i - 1), *b = json_array_get_object_element (patterns, i);
          const char *key = ranks[r] ? "c_per_n" : "c";

          g_assert_cmpint (json_object_get_int_member (a, key), >=, json_object_get_int_member (b, key));
        }
      top = json_array_get_object_element (patterns, 0);
      if (ranks[r] == NULL)
        {
          g_assert_true (array_has (json_object_get_array_member (top, "running"), "load_entries"));
          g_assert_true (array_has (json_object_get_array_member (top, "wait"), "refresh_under_lock"));
          g_assert_true (array_has (json_object_get_array_member (top, "wait"), "update_cache"));
          g_assert_true (json_object_get_boolean_member (top, "high_impact"));
        }
    }

  {
    g_auto(WsCliRun) run = { 0 };
    ws_cli_run (&run, "contrast", "--component", "x", "--rank", "C/N", fast, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "C/N"));
  }
}

static void
test_contrast_proposed (void)
{
  g_autofree char *path = ws_cli_test_data_path ("paper-case.json");
  g_auto(WsCliRun) run = { 0 };

  ws_cli_run (&run, "contrast", "--component", "\\.sys\\)", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  /* The text says the thresholds were proposed, and from what. */
  g_assert_nonnull (strstr (run.out, "median"));
  g_assert_nonnull (strstr (run.out, "90th percentile"));
}

static void
test_impact_and_awg_json (void)
{
  g_autofree char *path = ws_cli_test_data_path ("paper-case.json");
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_auto(WsCliRun) impact = { 0 };
  g_auto(WsCliRun) awg = { 0 };
  g_auto(WsCliRun) dot = { 0 };
  JsonObject *o, *row;

  ws_cli_run (&impact, "impact", "--component", "\\.sys\\)", "--component", "se\\.sys", "--json", path, NULL);
  o = parse_object (&impact, p1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "components")), ==, 2);
  row = json_array_get_object_element (json_object_get_array_member (o, "components"), 1);
  /* se.sys waits: the system thread's three 700 ms disk waits. */
  g_assert_cmpint (json_object_get_int_member (row, "d_wait"), ==, 2100000000);
  g_assert_cmpint (json_object_get_int_member (row, "instances"), ==, 11);

  ws_cli_run (&awg, "awg", "--component", "\\.sys\\)", "--above", "500ms", "--format", "json", path, NULL);
  o = parse_object (&awg, p2);
  g_assert_cmpint (json_object_get_int_member (o, "graphs"), ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "nodes")), ==, 10);

  ws_cli_run (&dot, "awg", "--component", "\\.sys\\)", "--format", "dot", path, NULL);
  g_assert_cmpint (dot.status, ==, 0);
  g_assert_true (g_str_has_prefix (dot.out, "digraph"));
  g_assert_nonnull (strstr (dot.out, "DiskService"));
}

static void
test_errors (void)
{
  g_autofree char *path = ws_cli_test_data_path ("paper-case.json");
  g_autofree char *bad = g_build_filename (g_get_tmp_dir (), "ws-contrast-bad.json", NULL);
  const char *usage[][8] = {
    { "impact", path, NULL },                                                /* no component (contrast defaults to the program) */
    { "contrast", "--component", "(", path, NULL },                          /* bad regex */
    { "contrast", "--component", "x", "--scenario-name", "nope", path, NULL },
    { "contrast", "--component", "x", "--fast", path, NULL },                /* --fast without --slow */
    { "contrast", "--component", "x", "-k", "0", path, NULL },
    { "awg", "--component", "x", "--format", "svg", path, NULL },
    { "impact", "--component", "x", NULL },                                  /* no trace */
  };

  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    {
      g_auto(WsCliRun) run = { 0 };
      ws_cli_run (&run, usage[i][0], usage[i][1], usage[i][2], usage[i][3], usage[i][4], usage[i][5], usage[i][6], NULL);
      g_assert_cmpint (run.status, ==, 2);
    }

  g_assert_true (g_file_set_contents (bad, "{\"format\": \"waitscope-trace\",\n \"version\": 1,\n \"events\": [}\n", -1, NULL));
  {
    g_auto(WsCliRun) run = { 0 };
    ws_cli_run (&run, "contrast", "--component", "x", bad, NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "ws-contrast-bad.json:"));
  }
  g_unlink (bad);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-contrast/contrast-json", test_contrast_json);
  g_test_add_func ("/cli-contrast/proposed-thresholds", test_contrast_proposed);
  g_test_add_func ("/cli-contrast/rank", test_contrast_rank);
  g_test_add_func ("/cli-contrast/impact-awg", test_impact_and_awg_json);
  g_test_add_func ("/cli-contrast/errors", test_errors);
  return g_test_run ();
}
