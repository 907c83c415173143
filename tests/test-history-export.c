/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `history add|stats|top-functions --json` as the core writes them
 * (ws-history-export), without the binary, over a real SQLite store that
 * real traces of tests/data are recorded into.
 *
 * Oracles: the number of traces recorded here; the callstacks summed over
 * the store's traces table (the stats read its running total); the
 * functions and caller/callee pairs counted in SQL; the top functions
 * most stacks first, each share its stacks over the callstacks; `add`'s
 * counts tallied from the outcomes given.  Frame names and paths that are
 * not UTF-8 still give valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-export-test-util.h"
#include "ws-history-export.h"

static gint64
sql_count (const char *path,
           const char *query)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static void
record (WsHistoryStore *store,
        WsTrace        *trace)
{
  g_autoptr(GError) error = NULL;
  gboolean newly = FALSE;

  g_assert_true (ws_history_store_record_trace (store, trace, &newly, &error));
  g_assert_no_error (error);
  g_assert_true (newly);
}

/* Returns how many functions' names hold U+FFFD. */
static guint
check_top (const char *path,
           GArray     *top,
           guint64     total)
{
  g_autoptr(JsonNode) node = ws_history_export_top_functions_json (path, top, total);
  g_autoptr(JsonNode) root = ws_export_test_round_trip (node);
  JsonObject *o = json_node_get_object (root);
  JsonArray *functions = json_object_get_array_member (o, "functions");
  gint64 previous = G_MAXINT64;
  guint n_bad = 0;

  g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (o, "schema_version"), ==, WS_HISTORY_JSON_SCHEMA_VERSION);
  g_assert_cmpint (json_object_get_int_member (o, "callstacks"), ==,
                   sql_count (path, "SELECT SUM(n_callstacks) FROM traces"));
  g_assert_cmpuint (json_array_get_length (functions), ==, top->len);
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);
      gint64 stacks = json_object_get_int_member (f, "stacks");

      g_assert_cmpint (stacks, <=, previous);
      previous = stacks;
      g_assert_cmpint (stacks, <=, (gint64) total);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (f, "share"), (double) stacks / total, 1e-12);
      n_bad += strstr (json_object_get_string_member (f, "function"), "\xef\xbf\xbd") != NULL;
    }
  return n_bad;
}

static void
test_store (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-history-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);
  g_autoptr(WsTrace) a = ws_export_test_load ("py-locks.perf.txt.gz");
  g_autoptr(WsTrace) b = ws_export_test_load ("causes/chain3.perf.txt.gz");
  g_autoptr(WsTrace) bad = ws_export_test_load_bad ();
  g_autoptr(GError) error = NULL;
  WsHistoryStats st = { 0 };
  JsonObject *o;

  {
    g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);

    g_assert_no_error (error);
    record (store, a);
    record (store, b);
    record (store, bad);
    g_assert_true (ws_history_store_get_stats (store, &st, &error));
    g_assert_no_error (error);

    {
      g_autoptr(JsonNode) node = ws_history_export_stats_json (path, TRUE, &st);
      g_autoptr(JsonNode) root = ws_export_test_round_trip (node);

      o = json_node_get_object (root);
      g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
      g_assert_cmpstr (json_object_get_string_member (o, "history"), ==, path);
      g_assert_true (json_object_get_boolean_member (o, "exists"));
      g_assert_cmpint (json_object_get_int_member (o, "traces"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (o, "callstacks"), ==,
                       sql_count (path, "SELECT SUM(n_callstacks) FROM traces"));
      g_assert_cmpint (json_object_get_int_member (o, "functions"), ==,
                       sql_count (path, "SELECT COUNT(*) FROM (SELECT DISTINCT name, module FROM functions)"));
      g_assert_cmpint (json_object_get_int_member (o, "bigrams"), ==, sql_count (path, "SELECT COUNT(*) FROM bigrams"));
      g_assert_cmpint (json_object_get_int_member (o, "flags"), ==, 0);
    }

    for (guint n = 0; n <= 10; n += 10)
      {
        g_autoptr(GArray) top = ws_history_store_top_functions (store, n, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (top->len, ==, n ? n : st.n_functions);
        /* All of them: the bad trace's "sche\xc3dule" among them. */
        g_assert_cmpuint (check_top (path, top, st.n_callstacks), >=, n ? 0 : 1);
      }
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* A store that is not there yet: all zero. */
static void
test_missing (void)
{
  WsHistoryStats st = { 0 };
  g_autoptr(JsonNode) node = ws_history_export_stats_json ("/no/such/h\xff.sqlite", FALSE, &st);
  g_autoptr(JsonNode) root = ws_export_test_round_trip (node);
  JsonObject *o = json_node_get_object (root);

  g_assert_false (json_object_get_boolean_member (o, "exists"));
  g_assert_cmpstr (json_object_get_string_member (o, "history"), ==, "/no/such/h\xef\xbf\xbd.sqlite");
  g_assert_cmpint (json_object_get_int_member (o, "traces"), ==, 0);
}

static void
test_add (void)
{
  WsHistoryAddOutcome outcomes[] = {
    { .path = (char *) "a.perf.txt", .digest = (char *) "00ff", .newly = TRUE },
    { .path = (char *) "b\xff.perf.txt", .digest = (char *) "11ee", .newly = FALSE },
    { .path = (char *) "c.perf.txt", .error = (char *) "c.perf.txt: no such file \xc3" },
    { .path = (char *) "d.perf.txt", .digest = (char *) "22dd", .newly = TRUE },
    { .path = (char *) "e.perf.txt", .digest = (char *) "33cc", .error = (char *) "disk full", .not_recorded = TRUE },
  };
  const char *status[] = { "new", "known", "failed", "new", "failed" };
  g_autoptr(JsonNode) node = ws_history_export_add_json ("h.sqlite", outcomes, G_N_ELEMENTS (outcomes));
  g_autoptr(JsonNode) root = ws_export_test_round_trip (node);
  JsonObject *o = json_node_get_object (root);
  JsonArray *traces = json_object_get_array_member (o, "traces");

  g_assert_cmpstr (json_object_get_members (o)->data, ==, "schema_version");
  g_assert_cmpint (json_object_get_int_member (o, "new"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "known"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "failed"), ==, 2);
  g_assert_cmpuint (json_array_get_length (traces), ==, G_N_ELEMENTS (outcomes));
  for (guint i = 0; i < G_N_ELEMENTS (outcomes); i++)
    {
      JsonObject *t = json_array_get_object_element (traces, i);

      g_assert_cmpstr (json_object_get_string_member (t, "status"), ==, status[i]);
      g_assert_cmpstr (json_object_get_string_member (t, "digest"), ==, outcomes[i].digest);
      g_assert_cmpint (json_object_has_member (t, "error"), ==, outcomes[i].error != NULL);
    }
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (traces, 1), "path"),
                   ==, "b\xef\xbf\xbd.perf.txt");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/history-export/store", test_store);
  g_test_add_func ("/history-export/missing", test_missing);
  g_test_add_func ("/history-export/add", test_add);
  return g_test_run ();
}
