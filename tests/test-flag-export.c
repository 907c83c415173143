/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `flag list --json` and `flag add|remove --dry-run --json` as the core
 * writes them (ws-anomaly-flag-export), without the binary, over a real
 * SQLite history store holding flags on waits of a real trace.
 *
 * Oracles: the flags as the history store reads them back
 * (ws_history_store_list_wait_flags()), member by member, in the store's
 * order; the verdicts named here from the enum; for a dry run, the
 * detector's own reach and model threshold.  A trace whose names are not
 * UTF-8 (and a kind named with such bytes) still gives valid UTF-8 JSON,
 * with U+FFFD for the bad bytes.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-anomaly-export.h"
#include "ws-anomaly-flag.h"
#include "ws-anomaly-flag-export.h"
#include "ws-export-test-util.h"
#include "ws-wait-signature.h"

#define N_FLAGS 6

static const char *
verdict_name (WsAnomalyFlag flag)
{
  return flag == WS_ANOMALY_FLAG_ANOMALOUS ? "anomalous" : flag == WS_ANOMALY_FLAG_NORMAL ? "normal" : "none";
}

/* The first @n scored waits of @trace. */
static GArray *
scored_waits (WsTrace *trace,
              guint    n)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < ws_trace_get_n_events (trace) && events->len < n; i++)
    if (ws_wait_is_scored (ws_trace_get_event (trace, i)))
      g_array_append_val (events, i);
  g_assert_cmpuint (events->len, ==, n);
  return events;
}

static const char *
first_member (JsonObject *o)
{
  g_autoptr(GList) members = json_object_get_members (o);

  return members->data;
}

/* @node against @flags, as the store read them. */
static guint
check_list (JsonNode *node,
            GArray   *flags)
{
  g_autoptr(JsonNode) root = ws_export_test_round_trip (node);
  JsonObject *o = json_node_get_object (root);
  JsonArray *listed;
  guint n_replaced = 0;

  g_assert_cmpstr (first_member (o), ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, 1);
  listed = json_object_get_array_member (o, "flags");
  g_assert_nonnull (listed);
  g_assert_cmpuint (json_array_get_length (listed), ==, flags->len);
  for (guint i = 0; i < flags->len; i++)
    {
      const WsWaitFlag *f = &g_array_index (flags, WsWaitFlag, i);
      JsonObject *e = json_array_get_object_element (listed, i);
      g_autofree char *signature = g_utf8_make_valid (f->signature, -1);

      g_assert_cmpstr (json_object_get_string_member (e, "digest"), ==, f->trace_digest);
      g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, f->tid);
      g_assert_cmpint (json_object_get_int_member (e, "time_ns"), ==, f->event_time);
      g_assert_cmpint (json_object_get_int_member (e, "duration_ns"), ==, f->duration);
      g_assert_cmpstr (json_object_get_string_member (e, "signature"), ==, signature);
      g_assert_cmpstr (json_object_get_string_member (e, "flag"), ==, verdict_name (f->flag));
      g_assert_cmpint (json_object_get_int_member (e, "updated_at_us"), ==, f->updated_at);
      g_assert_cmpint (f->updated_at, >, 0);
      n_replaced += strstr (json_object_get_string_member (e, "signature"), "\xef\xbf\xbd") != NULL;
    }
  return n_replaced;
}

static void
test_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-flag-export-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsTrace) trace = ws_export_test_load_bad ();
  g_autofree char *digest = NULL;
  g_autoptr(GArray) events = scored_waits (trace, N_FLAGS);
  g_autoptr(GArray) flags = NULL;
  g_autoptr(GArray) one_kind = NULL;
  g_autoptr(GArray) none = g_array_new (FALSE, TRUE, sizeof (WsWaitFlag));
  g_autofree char *kind = NULL;

  g_assert_no_error (error);
  store = ws_history_store_open (path, &error);
  g_assert_no_error (error);
  digest = ws_history_store_trace_digest (trace, &error);
  g_assert_no_error (error);

  /* Nothing flagged yet: an empty list, still versioned. */
  g_assert_cmpuint (check_list (ws_anomaly_flag_export_list_json (none), none), ==, 0);

  for (guint i = 0; i < N_FLAGS; i++)
    {
      guint event = g_array_index (events, guint, i);
      WsAnomalyFlag verdict = i % 2 ? WS_ANOMALY_FLAG_NORMAL : WS_ANOMALY_FLAG_ANOMALOUS;
      WsWaitFlag flag = { 0 };

      if (i == 3)   /* a kind named with bytes that are not UTF-8 */
        ws_anomaly_flag_init (&flag, trace, digest, event, "py\xff\xfe-lock;\xc3", verdict);
      else
        ws_anomaly_flag_for_wait (trace, digest, event, 2, verdict, i == 4, &flag);
      g_assert_true (ws_history_store_flag_wait (store, &flag, &error));
      g_assert_no_error (error);
      ws_wait_flag_clear (&flag);
    }

  flags = ws_history_store_list_wait_flags (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (flags->len, ==, N_FLAGS);
  g_assert_cmpuint (check_list (ws_anomaly_flag_export_list_json (flags), flags), >=, 1);

  /* --signature: that kind's flags only, as the store filters them. */
  kind = g_strdup (g_array_index (flags, WsWaitFlag, 0).signature);
  one_kind = ws_history_store_list_wait_flags (store, kind, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (one_kind->len, >=, 1);
  g_assert_cmpuint (one_kind->len, <, N_FLAGS);
  check_list (ws_anomaly_flag_export_list_json (one_kind), one_kind);

  g_clear_object (&store);
  g_unlink (path);
  g_rmdir (dir);
}

/* A dry run's entries: the reach the detector computes for each wait. */
static void
test_dry_run (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_export_test_load_bad ();
  const char *digests[] = { "digest-0" };
  g_autoptr(WsAnomalyResult) result = NULL;
  g_autoptr(GArray) events = scored_waits (trace, 3);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) root = NULL;
  WsFlagDryRun runs[3];
  WsAnomalySettings settings;
  JsonArray *waits;

  ws_anomaly_settings_init (&settings);
  result = ws_anomaly_detect (&trace, digests, 1, NULL, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    {
      guint event = g_array_index (events, guint, i);
      const WsWaitScore *s = ws_anomaly_result_lookup (result, 0, event);
      const WsEvent *e = ws_trace_get_event (trace, event);

      runs[i] = (WsFlagDryRun) { ws_trace_get_thread (trace, e->thread)->tid, e->time,
                                 i == 2 ? WS_ANOMALY_FLAG_NONE : WS_ANOMALY_FLAG_ANOMALOUS, { 0 },
                                 ws_anomaly_result_get_model (result, s->model)->threshold };
      g_assert_true (ws_anomaly_result_flag_reach (result, 0, event, runs[i].verdict, &runs[i].reach));
    }
  node = ws_anomaly_flag_export_dry_run_json (runs, 3);
  root = ws_export_test_round_trip (node);
  g_assert_cmpstr (first_member (json_node_get_object (root)), ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "schema_version"), ==, 1);
  waits = json_object_get_array_member (json_node_get_object (root), "waits");
  g_assert_cmpuint (json_array_get_length (waits), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *w = json_array_get_object_element (waits, i);
      g_autofree char *signature = g_utf8_make_valid (runs[i].reach.signature, -1);

      g_assert_cmpint (json_object_get_int_member (w, "tid"), ==, runs[i].tid);
      g_assert_cmpint (json_object_get_int_member (w, "time_ns"), ==, runs[i].time);
      g_assert_cmpstr (json_object_get_string_member (w, "signature"), ==, signature);
      g_assert_cmpstr (json_object_get_string_member (w, "flag"), ==, verdict_name (runs[i].verdict));
      g_assert_cmpint (json_object_get_int_member (w, "to_anomalous"), ==, runs[i].reach.n_to_anomalous);
      g_assert_cmpint (json_object_get_int_member (w, "to_normal"), ==, runs[i].reach.n_to_normal);
      g_assert_cmpfloat (json_object_get_double_member (w, "threshold"), ==, runs[i].threshold);
      g_assert_cmpfloat (json_object_get_double_member (w, "threshold_after"), ==, runs[i].reach.threshold);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flag-export/list", test_list);
  g_test_add_func ("/flag-export/dry-run", test_dry_run);
  return g_test_run ();
}
