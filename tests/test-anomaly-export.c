/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `anomalies --json` as the core writes it (ws-anomaly-export), without
 * the binary: the detector run on real traces of tests/data, no history.
 *
 * Oracles: every finished WAIT event longer than 0 is scored; with every wait listed, each entry is a WAIT event of its
 * trace with that event's thread and duration, each wait at most once,
 * and the counts n_waits and n_anomalous are the entries and the
 * anomalous ones; without, the list is exactly the anomalous and flagged
 * entries of the full list; every wait's signature is a listed model.
 * Thread and frame names that are not UTF-8 still give valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "ws-anomaly-export.h"
#include "ws-export-test-util.h"

typedef struct {
  WsAnomalyResult *result;
  gboolean         all;
} Export;

static void
write_export (FILE    *out,
              gpointer data)
{
  Export *e = data;

  g_assert_true (ws_anomaly_export_json (out, e->result, NULL, e->all));
}

static JsonNode *
export (WsAnomalyResult *result,
        gboolean         all)
{
  Export e = { result, all };
  g_autofree char *text = ws_export_test_capture (write_export, &e);

  return ws_export_test_parse (text);
}

static WsAnomalyResult *
detect (WsTrace **traces,
        guint     n)
{
  const char *digests[] = { "digest-0", "digest-1", "digest-2" };
  g_autoptr(GError) error = NULL;
  WsAnomalySettings settings;
  WsAnomalyResult *result;

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (digests));
  ws_anomaly_settings_init (&settings);
  result = ws_anomaly_detect ((WsTrace * const *) traces, digests, n, NULL, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return result;
}

static void
check_trace (WsTrace    *trace,
             JsonObject *all,
             JsonObject *some,
             GHashTable *models)
{
  JsonArray *waits = json_object_get_array_member (all, "waits");
  JsonArray *shown = json_object_get_array_member (some, "waits");
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint n_anomalous = 0, k = 0, n_finished = 0;

  /* every finished wait of some length is scored */
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    n_finished += ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT &&
                  !(ws_trace_get_event (trace, i)->flags & WS_EVENT_FLAG_UNFINISHED) &&
                  ws_event_duration (ws_trace_get_event (trace, i)) > 0;
  g_assert_cmpint (json_object_get_int_member (all, "n_waits"), ==, n_finished);
  g_assert_cmpint (json_object_get_int_member (all, "n_waits"), ==, json_array_get_length (waits));
  for (guint i = 0; i < json_array_get_length (waits); i++)
    {
      JsonObject *w = json_array_get_object_element (waits, i);
      gint64 index = json_object_get_int_member (w, "event");
      const WsEvent *e = ws_trace_get_event (trace, index);
      gboolean listed = json_object_get_boolean_member (w, "anomalous") ||
                        !g_str_equal (json_object_get_string_member (w, "flag"), "none");

      g_assert_cmpint (e->kind, ==, WS_EVENT_WAIT);
      g_assert_false (g_hash_table_contains (seen, GINT_TO_POINTER (index + 1)));
      g_hash_table_add (seen, GINT_TO_POINTER (index + 1));
      g_assert_cmpint (json_object_get_int_member (w, "duration_ns"), ==, ws_event_duration (e));
      g_assert_cmpint (json_object_get_int_member (w, "time_ns"), ==, e->time);
      g_assert_cmpint (json_object_get_int_member (w, "tid"), ==, ws_trace_get_thread (trace, e->thread)->tid);
      g_assert_true (g_hash_table_contains (models, json_object_get_string_member (w, "signature")));
      n_anomalous += json_object_get_boolean_member (w, "anomalous");
      if (listed)
        g_assert_true (json_node_equal (json_array_get_element (waits, i), json_array_get_element (shown, k++)));
    }
  g_assert_cmpuint (k, ==, json_array_get_length (shown));
  g_assert_cmpint (json_object_get_int_member (all, "n_anomalous"), ==, n_anomalous);
  g_assert_cmpint (json_object_get_int_member (some, "n_anomalous"), ==, n_anomalous);
}

/* `model show --json` of each model: schema_version first, then the very
 * members `anomalies` lists the model with, value for value. */
static void
check_model_show (WsAnomalyResult *result,
                  JsonArray       *models)
{
  g_assert_cmpuint (json_array_get_length (models), ==, ws_anomaly_result_get_n_models (result));
  for (guint m = 0; m < ws_anomaly_result_get_n_models (result); m++)
    {
      g_autoptr(JsonNode) node = ws_anomaly_export_model_show_json (ws_anomaly_result_get_model (result, m));
      g_autoptr(JsonNode) shown = ws_export_test_round_trip (node);
      JsonObject *o = json_node_get_object (shown), *listed = json_array_get_object_element (models, m);
      g_autoptr(GList) names = json_object_get_members (o);
      g_autoptr(GList) listed_names = json_object_get_members (listed);

      g_assert_cmpstr (names->data, ==, "schema_version");
      g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, WS_ANOMALY_SCHEMA_VERSION);
      g_assert_cmpuint (g_list_length (names), ==, g_list_length (listed_names) + 1);
      for (GList *l = names->next, *k = listed_names; l != NULL; l = l->next, k = k->next)
        {
          g_assert_cmpstr (l->data, ==, k->data);
          g_assert_true (json_node_equal (json_object_get_member (o, l->data), json_object_get_member (listed, k->data)));
        }
    }
}

static void
check_result (WsTrace         **traces,
              guint             n,
              WsAnomalyResult  *result)
{
  g_autoptr(JsonNode) all = export (result, TRUE);
  g_autoptr(JsonNode) some = export (result, FALSE);
  JsonObject *root = json_node_get_object (all);
  JsonArray *models = json_object_get_array_member (root, "models");
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, WS_ANOMALY_SCHEMA_VERSION);
  g_assert_true (json_object_get_null_member (root, "history"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "traces")), ==, n);
  for (guint m = 0; m < json_array_get_length (models); m++)
    g_hash_table_add (keys, (gpointer) json_object_get_string_member (json_array_get_object_element (models, m), "signature"));
  for (guint t = 0; t < n; t++)
    check_trace (traces[t], json_array_get_object_element (json_object_get_array_member (root, "traces"), t),
                 json_array_get_object_element (json_object_get_array_member (json_node_get_object (some), "traces"), t),
                 keys);
  check_model_show (result, models);
}

static void
test_real_traces (void)
{
  WsTrace *traces[2] = { ws_export_test_load ("pg-tpcb.perf.txt.gz"), ws_export_test_load ("causes/fsync-dd.perf.txt.gz") };
  g_autoptr(WsAnomalyResult) result = detect (traces, G_N_ELEMENTS (traces));

  check_result (traces, G_N_ELEMENTS (traces), result);
  for (guint t = 0; t < G_N_ELEMENTS (traces); t++)
    g_object_unref (traces[t]);
}

static void
test_bad_names (void)
{
  WsTrace *trace = ws_export_test_load_bad ();
  g_autoptr(WsAnomalyResult) result = detect (&trace, 1);
  Export e = { result, TRUE };
  g_autofree char *text = ws_export_test_capture (write_export, &e);

  check_result (&trace, 1, result);
  g_assert_nonnull (strstr (text, "py\xef\xbf\xbd"));
  g_object_unref (trace);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anomaly-export/real-traces", test_real_traces);
  g_test_add_func ("/anomaly-export/bad-names", test_bad_names);
  return g_test_run ();
}
