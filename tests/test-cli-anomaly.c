/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli anomalies, flag and model: the real binary (env WS_CLI) on
 * a real trace.  `anomalies` reads only (no store is created); a wait the
 * model calls anomalous, flagged normal, is no longer anomalous and shows
 * its flag; `flag list` lists it and `flag remove` takes it back; `model
 * show` prints a signature's mixture once the trace is in the history;
 * bad options are usage errors (2), a missing trace bad input (1).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-cli-test-util.h"

static char *dir, *history;

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

static JsonObject *
first_trace (JsonNode *root)
{
  return json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "traces"), 0);
}

/* `flag list --json`: {"schema_version": 1, "flags": [...]}. */
static JsonArray *
flag_list (JsonNode *root)
{
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_object_get_array_member (json_node_get_object (root), "flags");
}

static void
test_flag_roundtrip (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *out = NULL, *wait = NULL, *signature = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *waits;
  JsonObject *w;
  gint64 tid, time;
  int status;

  out = ws_cli_run_stdout (&status, "anomalies", trace, "--json", "--history", history, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_false (g_file_test (history, G_FILE_TEST_EXISTS));
  root = parse (out);
  g_assert_cmpint (json_object_get_int_member (first_trace (root), "n_anomalous"), >, 0);
  waits = json_object_get_array_member (first_trace (root), "waits");
  w = json_array_get_object_element (waits, 0);
  g_assert_true (json_object_get_boolean_member (w, "anomalous"));
  tid = json_object_get_int_member (w, "tid");
  time = json_object_get_int_member (w, "time_ns");
  signature = g_strdup (json_object_get_string_member (w, "signature"));
  wait = g_strdup_printf ("%" G_GINT64_FORMAT "@%" G_GINT64_FORMAT "ns", tid, time);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&root, json_node_unref);

  out = ws_cli_run_stdout (&status, "flag", "add", trace, "--normal", "--wait", wait, "--history", history, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "normal "));
  g_clear_pointer (&out, g_free);

  out = ws_cli_run_stdout (&status, "anomalies", trace, "--json", "--all", "--history", history, NULL);
  root = parse (out);
  waits = json_object_get_array_member (first_trace (root), "waits");
  for (guint i = 0; i < json_array_get_length (waits); i++)
    {
      w = json_array_get_object_element (waits, i);
      if (json_object_get_int_member (w, "tid") == tid && json_object_get_int_member (w, "time_ns") == time)
        {
          g_assert_cmpstr (json_object_get_string_member (w, "flag"), ==, "normal");
          /* Its verdict is the flag's; the model's own may stand, since
           * this is the kind's most improbable wait and one flag does not
           * outvote the model on the rest of its tail
           * (docs/anomaly-detection.md, "Flags and the learning rule"). */
          g_assert_false (json_object_get_boolean_member (w, "anomalous"));
          g_assert_true (json_object_has_member (w, "model_anomalous"));
        }
    }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&root, json_node_unref);

  out = ws_cli_run_stdout (&status, "flag", "list", "--json", "--history", history, NULL);
  root = parse (out);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "schema_version"), ==, 1);
  g_assert_cmpuint (json_array_get_length (flag_list (root)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (flag_list (root), 0),
                                                  "signature"), ==, signature);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&root, json_node_unref);

  g_free (ws_cli_run_stdout (&status, "flag", "remove", trace, "--wait", wait, "--history", history, NULL));
  g_assert_cmpint (status, ==, 0);
  out = ws_cli_run_stdout (&status, "flag", "list", "--json", "--history", history, NULL);
  root = parse (out);
  g_assert_cmpuint (json_array_get_length (flag_list (root)), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&root, json_node_unref);

  /* model show: once the trace's waits are in the history. */
  out = ws_cli_run_stdout (&status, "model", "show", signature, "--history", history, NULL);
  g_assert_cmpint (status, ==, 1);
  g_free (out);
  g_free (ws_cli_run_stdout (&status, "history", "add", trace, "--history", history, NULL));
  g_assert_cmpint (status, ==, 0);
  out = ws_cli_run_stdout (&status, "model", "show", signature, "--json", "--history", history, NULL);
  g_assert_cmpint (status, ==, 0);
  root = parse (out);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "components")), >=, 1);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "n_history"), >, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&root, json_node_unref);

  /* The model view as a figure (the patent's Fig. 6). */
  {
    g_autofree char *svg = g_build_filename (dir, "model.svg", NULL);
    g_autofree char *text = NULL;

    g_free (ws_cli_run_stdout (&status, "model", "show", signature, "--figure", svg, "--history", history, NULL));
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "<svg"));
  }
}

/* The signature of @root's models with a slow component that its cut lies
 * above (the fault trace's lock kind), that component's index, and the
 * range of log-durations well inside it and below the cut. */
static const char *
slow_component_kind (JsonNode *root,
                     guint    *component,
                     double   *lo,
                     double   *hi)
{
  JsonArray *models = json_object_get_array_member (json_node_get_object (root), "models");

  for (guint m = 0; m < json_array_get_length (models); m++)
    {
      JsonObject *model = json_array_get_object_element (models, m);
      JsonArray *cs = json_object_get_array_member (model, "components");
      double cut = log ((double) json_object_get_int_member (model, "anomalous_from_ns")), heaviest = 0, main_mean = 0;

      for (guint k = 0; k < json_array_get_length (cs); k++)
        if (json_object_get_double_member (json_array_get_object_element (cs, k), "weight") > heaviest)
          {
            heaviest = json_object_get_double_member (json_array_get_object_element (cs, k), "weight");
            main_mean = json_object_get_double_member (json_array_get_object_element (cs, k), "mean_log_ns");
          }
      for (guint k = 0; k < json_array_get_length (cs); k++)
        {
          JsonObject *c = json_array_get_object_element (cs, k);
          double mean = json_object_get_double_member (c, "mean_log_ns");

          if (mean > main_mean && mean < cut - 0.25 && json_object_get_double_member (c, "weight") < 0.5)
            {
              *component = k;
              *lo = mean - 0.5 * json_object_get_double_member (c, "sd_log_ns");
              *hi = cut - 0.25;
              return json_object_get_string_member (model, "signature");
            }
        }
    }
  g_assert_not_reached ();
}

/* One wait of a slow component flagged anomalous marks the component:
 * `anomalies --json` gives it "anomalous": true, the kind's threshold
 * drops below the flagged wait, and more unflagged waits of the kind
 * are anomalous than before (docs/anomaly-detection.md, step 3). */
static void
test_component_mark (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("anomaly/faults.perf.txt.gz");
  g_autofree char *store = g_build_filename (dir, "marks.sqlite", NULL);
  g_autofree char *out = NULL, *wait = NULL, *signature = NULL;
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) after = NULL;
  guint component = 0, n_before = 0, n_after = 0;
  double lo = 0, hi = 0;
  JsonArray *waits, *models;
  int status;

  out = ws_cli_run_stdout (&status, "anomalies", trace, "--json", "--all", "--history", store, NULL);
  g_assert_cmpint (status, ==, 0);
  before = parse (out);
  signature = g_strdup (slow_component_kind (before, &component, &lo, &hi));
  waits = json_object_get_array_member (first_trace (before), "waits");
  for (guint i = 0; i < json_array_get_length (waits); i++)
    {
      JsonObject *w = json_array_get_object_element (waits, i);
      double x = log ((double) json_object_get_int_member (w, "duration_ns"));

      if (strcmp (json_object_get_string_member (w, "signature"), signature) != 0)
        continue;
      n_before += json_object_get_boolean_member (w, "anomalous");
      if (wait == NULL && x > lo && x < hi)
        wait = g_strdup_printf ("%" G_GINT64_FORMAT "@%" G_GINT64_FORMAT "ns", json_object_get_int_member (w, "tid"),
                                json_object_get_int_member (w, "time_ns"));
    }
  g_assert_nonnull (wait);
  g_free (out);
  g_free (ws_cli_run_stdout (&status, "flag", "add", trace, "--anomalous", "--wait", wait, "--history", store, NULL));
  g_assert_cmpint (status, ==, 0);

  out = ws_cli_run_stdout (&status, "anomalies", trace, "--json", "--all", "--history", store, NULL);
  g_assert_cmpint (status, ==, 0);
  after = parse (out);
  models = json_object_get_array_member (json_node_get_object (after), "models");
  for (guint m = 0; m < json_array_get_length (models); m++)
    {
      JsonObject *model = json_array_get_object_element (models, m);
      JsonArray *cs = json_object_get_array_member (model, "components");

      if (strcmp (json_object_get_string_member (model, "signature"), signature) != 0)
        continue;
      g_assert_true (json_object_get_boolean_member (json_array_get_object_element (cs, component), "anomalous"));
      g_assert_cmpfloat (log ((double) json_object_get_int_member (model, "anomalous_from_ns")), <, lo);
    }
  waits = json_object_get_array_member (first_trace (after), "waits");
  for (guint i = 0; i < json_array_get_length (waits); i++)
    {
      JsonObject *w = json_array_get_object_element (waits, i);

      n_after += strcmp (json_object_get_string_member (w, "signature"), signature) == 0
                 && json_object_get_boolean_member (w, "anomalous");
    }
  g_test_message ("%s: flagging %s anomalous marks component %u; anomalous waits of the kind %u -> %u",
                  signature, wait, component, n_before, n_after);
  g_assert_cmpuint (n_after, >, n_before + 20);
}

static void
test_errors (void)
{
  g_autofree char *trace = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  int status;

  g_free (ws_cli_run_stdout (&status, "anomalies", trace, "--threshold", "1.5", NULL));
  g_assert_cmpint (status, ==, 2);
  g_free (ws_cli_run_stdout (&status, "anomalies", NULL));
  g_assert_cmpint (status, ==, 2);
  g_free (ws_cli_run_stdout (&status, "anomalies", "/nonexistent/trace.perf.txt", NULL));
  g_assert_cmpint (status, ==, 1);
  g_free (ws_cli_run_stdout (&status, "flag", "add", trace, "--wait", "1@1", "--history", history, NULL));
  g_assert_cmpint (status, ==, 2);
  g_free (ws_cli_run_stdout (&status, "flag", "add", trace, "--anomalous", "--wait", "1@1", "--history", history, NULL));
  g_assert_cmpint (status, ==, 1);
  g_free (ws_cli_run_stdout (&status, "flag", "frob", NULL));
  g_assert_cmpint (status, ==, 2);
  g_free (ws_cli_run_stdout (&status, "model", "show", NULL));
  g_assert_cmpint (status, ==, 2);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = g_dir_make_tmp ("ws-cli-anomaly-XXXXXX", NULL);
  history = g_build_filename (dir, "h.sqlite", NULL);
  g_test_add_func ("/cli/anomaly/flag-roundtrip", test_flag_roundtrip);
  g_test_add_func ("/cli/anomaly/component-mark", test_component_mark);
  g_test_add_func ("/cli/anomaly/errors", test_errors);
  status = g_test_run ();
  g_free (history);
  g_free (dir);
  return status;
}
