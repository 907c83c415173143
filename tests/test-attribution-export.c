/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `why --json` as the core writes it (ws-attribution-export), without the
 * binary: the attribution of a real trace's default targets and of one
 * thread's whole window.
 *
 * Oracles: the total is recomputed from the targets' own windows; every
 * moment is attributed to one cause, so the causes' times add up to the
 * total and their shares to 1; a cause's time is the sum of its threads';
 * the tids "picked" names are the targets' threads; --top cuts the list.
 * Thread and frame names that are not UTF-8 still give valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "ws-attribution-export.h"
#include "ws-export-test-util.h"
#include "ws-why-targets.h"

static JsonNode *
export_default (WsTrace  *trace,
                guint     top,
                WsTime   *total,
                GArray  **target_threads)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) targets = NULL;
  g_autoptr(WsAttribution) attr = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  WsAttributionSettings settings;
  WsWhyTargetsKind kind;

  g_ptr_array_add (traces, trace);
  targets = ws_why_default_targets (traces, NULL, NULL, NULL, &picks, &kind);
  g_assert_cmpuint (targets->len, >, 0);
  *total = 0;
  *target_threads = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < targets->len; i++)
    {
      const WsAttributionTarget *t = &g_array_index (targets, WsAttributionTarget, i);
      gint64 tid = ws_trace_get_thread (trace, t->symptom.thread)->tid;

      *total += t->symptom.t1 - t->symptom.t0;
      g_array_append_val (*target_threads, tid);
    }
  ws_attribution_settings_init (&settings);
  attr = ws_attribution_compute (targets, &settings, &error);
  g_assert_no_error (error);
  node = ws_attribution_export_json (attr, "the delays", picks, top);
  return ws_export_test_round_trip (node);
}

/* The causes add up to the total; a cause is the sum of its threads. */
static void
check_causes (JsonObject *root,
              WsTrace    *trace,
              WsTime      total)
{
  JsonArray *causes = json_object_get_array_member (root, "causes");
  gint64 sum = 0;
  double shares = 0;

  g_assert_cmpint (json_object_get_int_member (root, "total"), ==, total);
  g_assert_cmpuint (json_array_get_length (causes), >, 0);
  for (guint i = 0; i < json_array_get_length (causes); i++)
    {
      JsonObject *c = json_array_get_object_element (causes, i);
      JsonArray *threads = json_object_get_array_member (c, "threads");
      gint64 time = json_object_get_int_member (c, "time"), by_thread = 0;

      sum += time;
      shares += json_object_get_double_member (c, "share");
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (c, "share"), (double) time / total, 1e-12);
      for (guint k = 0; k < json_array_get_length (threads); k++)
        {
          JsonObject *t = json_array_get_object_element (threads, k);

          by_thread += json_object_get_int_member (t, "time");
          g_assert_cmpuint (ws_trace_find_thread (trace, json_object_get_int_member (t, "tid")), !=, WS_NONE);
        }
      g_assert_cmpint (by_thread, ==, time);
    }
  g_assert_cmpint (sum, ==, total);
  g_assert_cmpfloat_with_epsilon (shares, 1.0, 1e-9);
}

static void
test_default_targets (void)
{
  static const char * const names[] = { "pg-tpcb.perf.txt.gz", "causes/fsync-dd.perf.txt.gz", "paper-case.json" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(WsTrace) trace = ws_export_test_load (names[n]);
      g_autoptr(GArray) tids = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(JsonNode) cut = NULL;
      g_autoptr(GArray) tids_cut = NULL;
      JsonObject *root;
      JsonArray *picked;
      WsTime total;
      guint n_picked_tids = 0;

      g_test_message ("%s", names[n]);
      node = export_default (trace, 0, &total, &tids);
      root = json_node_get_object (node);
      g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, WS_ATTRIBUTION_SCHEMA_VERSION);
      g_assert_cmpstr (json_object_get_string_member (root, "explained"), ==, "the delays");
      g_assert_cmpint (json_object_get_int_member (root, "targets"), ==, tids->len);
      check_causes (root, trace, total);

      /* Without scenarios the targets are the picked program's threads. */
      picked = json_object_get_array_member (root, "picked");
      for (guint i = 0; i < json_array_get_length (picked); i++)
        {
          JsonArray *pt = json_object_get_array_member (json_array_get_object_element (picked, i), "tids");

          for (guint k = 0; k < json_array_get_length (pt); k++, n_picked_tids++)
            g_assert_cmpint (json_array_get_int_element (pt, k), ==, g_array_index (tids, gint64, n_picked_tids));
        }
      if (ws_trace_get_n_scenario_instances (trace) == 0)
        g_assert_cmpuint (n_picked_tids, ==, tids->len);

      cut = export_default (trace, 2, &total, &tids_cut);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (cut), "causes")), ==,
                        MIN (2, json_array_get_length (json_object_get_array_member (root, "causes"))));
    }
}

/* One thread's whole window: the total is the trace's span. */
static void
test_thread_window (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load ("py-locks.perf.txt.gz");
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) attr = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) back = NULL;
  WsAttributionSettings settings;
  WsAttributionTarget t = { trace, { 0, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace) }, WS_NONE };
  WsTime span = ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace);

  for (guint i = 0; i < ws_trace_get_n_threads (trace); i++)
    if (g_str_has_prefix (ws_trace_get_thread (trace, i)->name, "pylk-w0"))
      t.symptom.thread = i;
  g_array_append_val (targets, t);
  ws_attribution_settings_init (&settings);
  attr = ws_attribution_compute (targets, &settings, &error);
  g_assert_no_error (error);
  node = ws_attribution_export_json (attr, "thread", NULL, 0);
  back = ws_export_test_round_trip (node);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (back), "picked")), ==, 0);
  check_causes (json_node_get_object (back), trace, span);
}

static void
test_bad_names (void)
{
  g_autoptr(WsTrace) trace = ws_export_test_load_bad ();
  g_autoptr(GArray) tids = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  WsTime total;

  node = export_default (trace, 0, &total, &tids);
  check_causes (json_node_get_object (node), trace, total);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, NULL);
  /* the bad bytes were there, and came out as U+FFFD */
  g_assert_nonnull (strstr (text, "py\xef\xbf\xbd"));
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/attribution-export/default-targets", test_default_targets);
  g_test_add_func ("/attribution-export/thread-window", test_thread_window);
  g_test_add_func ("/attribution-export/bad-names", test_bad_names);
  return g_test_run ();
}
