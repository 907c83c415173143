/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Overview's cluster and contrast rows are the first rows of the runs
 * the Mining and Contrast pages and `waitscope-cli cluster` / `contrast`
 * make: ws_overview_top_cluster() and ws_overview_top_contrast() against
 * the real CLI's JSON (an independent front end of the same runs).  On
 * io-fsync the Overview's old copy of the mining pipeline (no function
 * weights) named a cluster of 13,537 events and 3.459 s where the CLI's
 * first cluster has 6,265 and 2.275 s.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-overview.h"
#include "ws-trace-loader.h"

static WsTrace *
load (const char *name)
{
  g_autofree char *path = ws_cli_test_data_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static JsonObject *
cli_json (JsonParser         *parser,
          const char * const *args)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = ws_test_run_cli (args, &out, &err);

  if (status == -1)
    {
      g_test_skip ("WS_CLI is not set");
      return NULL;
    }
  if (status != 0)
    g_printerr ("%s", err);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The CLI's first cluster, its costliest pattern's frames compared with
 * the Overview's row (same history store, recorded first by the CLI). */
static void
check_cluster (gconstpointer data)
{
  const char *name = data;
  g_autofree char *file = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = ws_cli_test_data_path (file);
  g_autofree char *dir = g_dir_make_tmp ("ws-overview-XXXXXX", NULL);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  const char *args[] = { "cluster", "--json", "--history", history, path, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = cli_json (parser, args);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WsOverviewCluster) row = NULL;
  g_autoptr(GError) error = NULL;
  WsMiningSettings settings;
  JsonObject *first;
  JsonArray *patterns, *frames = NULL;
  gint64 best = -1;

  if (root == NULL)
    return;
  first = json_array_get_object_element (json_object_get_array_member (root, "clusters"), 0);
  patterns = json_object_get_array_member (first, "patterns");
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      if (json_object_get_int_member (p, "cost") > best)
        {
          best = json_object_get_int_member (p, "cost");
          frames = json_object_get_array_member (p, "frames");
        }
    }

  g_ptr_array_add (traces, load (file));
  ws_mining_settings_init (&settings);
  settings.cluster = TRUE;
  settings.history_path = history;
  row = ws_overview_top_cluster (traces, &settings, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s: %s, %" G_GINT64_FORMAT " ns in %" G_GUINT64_FORMAT " events", name, row->label,
                  row->total_cost, row->n_events);
  g_assert_cmpint (row->total_cost, ==, json_object_get_int_member (first, "total_cost"));
  g_assert_cmpuint (row->n_events, ==, json_object_get_int_member (first, "events"));
  g_assert_cmpuint (row->n_patterns, ==, json_array_get_length (patterns));
  g_assert_cmpuint (row->n_left_out, ==, json_object_get_int_member (json_object_get_object_member (root, "left_out"),
                                                                       "waits"));
  g_assert_nonnull (frames);
  g_assert_cmpuint (g_strv_length (row->frames), ==, json_array_get_length (frames));
  for (guint i = 0; i < json_array_get_length (frames); i++)
    g_assert_cmpstr (row->frames[i], ==, json_array_get_string_element (frames, i));

  g_unlink (history);
  g_rmdir (dir);
}

/* The CLI's first contrast pattern (the Contrast page's first row) with
 * the scenario and component the Overview chose. */
static void
test_contrast (void)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(WsOverviewContrast) row = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = ws_cli_test_data_path ("pg-tpcb.perf.txt.gz");
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *first;
  const char *sets[] = { "wait", "unwait", "running" };

  g_ptr_array_add (traces, load ("pg-tpcb.perf.txt.gz"));
  row = ws_overview_top_contrast (traces, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (row);
  g_assert_nonnull (row->pattern);
  {
    const char *args[] = { "contrast", "--json", "--top", "1", "--scenario-name", row->scenario,
                           "--component", row->component, path, NULL };
    root = cli_json (parser, args);
  }
  if (root == NULL)
    return;
  first = json_array_get_object_element (json_object_get_array_member (root, "patterns"), 0);
  g_test_message ("top contrast pattern: %s", row->pattern);
  g_assert_cmpuint (row->occurrences, ==, json_object_get_int_member (first, "n"));
  g_assert_cmpint (row->cost_per_occurrence, ==, json_object_get_int_member (first, "c") / (gint64) row->occurrences);
  g_assert_cmpint (row->high_impact, ==, json_object_get_boolean_member (first, "high_impact"));
  g_assert_cmpuint (row->n_slow, ==, json_object_get_int_member (root, "slow_instances"));
  g_assert_cmpuint (row->n_fast, ==, json_object_get_int_member (root, "fast_instances"));
  for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
    {
      JsonArray *names = json_object_get_array_member (first, sets[s]);
      for (guint i = 0; i < json_array_get_length (names); i++)
        g_assert_nonnull (strstr (row->pattern, json_array_get_string_element (names, i)));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_TEST_DATA") == NULL)
    return 77;

  g_test_add_data_func ("/overview/cluster/io-fsync", "io-fsync", check_cluster);
  g_test_add_data_func ("/overview/cluster/pg-tpcb", "pg-tpcb", check_cluster);
  g_test_add_func ("/overview/contrast/pg-tpcb", test_contrast);
  return g_test_run ();
}
