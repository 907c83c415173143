/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli history: the real binary (env WS_CLI) on two real traces.
 * Each trace counts once however often it is added (also from a copy
 * elsewhere); `stats` prints what the store holds, and both equal a
 * brute-force count over the traces' waiting and sampled running stacks;
 * `top-functions` lists the functions in the most of those stacks.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-history-store.h"
#include "ws-trace-loader.h"

typedef struct {
  char *dir;
  char *history;
  char *decoy;      /* $WAITSCOPE_HISTORY: --history must win over it */
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer data)
{
  fx->dir = g_dir_make_tmp ("ws-cli-history-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  fx->history = g_build_filename (fx->dir, "h.sqlite", NULL);
  fx->decoy = g_build_filename (fx->dir, "decoy.sqlite", NULL);
}

static void
fixture_teardown (Fixture *fx, gconstpointer data)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", fx->dir);

  g_assert_cmpint (system (cmd), ==, 0);
  g_free (fx->dir);
  g_free (fx->history);
  g_free (fx->decoy);
}

/* Runs waitscope-cli ARGS… away from the user's history (the decoy);
 * returns its stdout, the exit status in @status and, if asked, its
 * stderr. */
static char *
run (Fixture *fx, int *status, char **err, ...)
{
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "WAITSCOPE_HISTORY", fx->decoy, TRUE);
  g_auto(WsCliRun) cli = { 0 };
  const char *first;
  va_list ap;

  va_start (ap, err);
  first = va_arg (ap, const char *);
  ws_cli_run_valist (&cli, (const char * const *) env, first, ap);
  va_end (ap);
  *status = cli.status;
  if (err != NULL)
    *err = g_steal_pointer (&cli.err);
  return g_steal_pointer (&cli.out);
}

static JsonObject *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The brute force: every callstack the history counts (waits, and running
 * samples that are not exact on-CPU spans), the functions and caller →
 * callee pairs in them, and per function the number of those stacks that
 * hold it. */
typedef struct {
  guint64     n_callstacks;
  GHashTable *functions;   /* "function\x01module" → count */
  GHashTable *bigrams;     /* "caller\x01module\x02callee\x01module" → NULL */
} Expected;

static char *
frame_key (const WsFrame *f)
{
  return g_strdup_printf ("%s\x01%s", f->function, f->module);
}

static void
count_trace (Expected *ex, const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsStackTable *table;

  g_assert_no_error (error);
  table = ws_trace_get_stack_table (trace);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      g_autoptr(GHashTable) in_stack = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      const WsFrameId *frames;
      guint n;

      if (e->stack == WS_STACK_EMPTY)
        continue;
      if (e->kind != WS_EVENT_WAIT && !(e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN)))
        continue;
      frames = ws_stack_table_get_stack (table, e->stack, &n);
      if (n == 0)
        continue;
      ex->n_callstacks++;
      for (guint k = 0; k < n; k++)
        {
          char *key = frame_key (ws_stack_table_get_frame (table, frames[k]));

          if (g_hash_table_add (in_stack, g_strdup (key)))
            g_hash_table_insert (ex->functions, key,
                                 GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (ex->functions, key)) + 1));
          else
            g_free (key);
          if (k + 1 < n)
            {
              g_autofree char *a = frame_key (ws_stack_table_get_frame (table, frames[k]));
              g_autofree char *b = frame_key (ws_stack_table_get_frame (table, frames[k + 1]));
              g_hash_table_add (ex->bigrams, g_strdup_printf ("%s\x02%s", a, b));
            }
        }
    }
}

typedef struct {
  const char *key;
  guint64     count;
} Ranked;

static int
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  /* name, then module: the key is "name\x01module" and \x01 sorts first */
  return strcmp (x->key, y->key);
}

static void
test_add_stats_top (Fixture *fx, gconstpointer data)
{
  g_autofree char *py = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *build = ws_cli_test_data_path ("build.perf.txt.gz");
  g_autofree char *copy = g_build_filename (fx->dir, "copy-of-py-locks.perf.txt.gz", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) o = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));
  g_autoptr(GError) error = NULL;
  Expected ex = { 0 };
  WsHistoryStats st;
  JsonArray *traces, *functions;
  GHashTableIter iter;
  gpointer key, value;
  gsize len;
  int status;

  /* Nothing yet: reported empty, and not created by reading. */
  out = run (fx, &status, NULL, "history", "stats", "--json", "--history", fx->history, NULL);
  g_assert_cmpint (status, ==, 0);
  o = parse (out);
  g_assert_false (json_object_get_boolean_member (o, "exists"));
  g_assert_cmpint (json_object_get_int_member (o, "traces"), ==, 0);
  g_assert_false (g_file_test (fx->history, G_FILE_TEST_EXISTS));
  g_clear_pointer (&o, json_object_unref);
  g_clear_pointer (&out, g_free);

  /* Two new traces. */
  out = run (fx, &status, NULL, "history", "add", "--json", "--history", fx->history, py, build, NULL);
  g_assert_cmpint (status, ==, 0);
  o = parse (out);
  g_assert_cmpstr (json_object_get_string_member (o, "history"), ==, fx->history);
  g_assert_cmpint (json_object_get_int_member (o, "new"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "known"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "failed"), ==, 0);
  traces = json_object_get_array_member (o, "traces");
  g_assert_cmpuint (json_array_get_length (traces), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (traces, 0), "status"), ==, "new");
  g_assert_cmpuint (strlen (json_object_get_string_member (json_array_get_object_element (traces, 0), "digest")), ==, 64);
  g_clear_pointer (&o, json_object_unref);
  g_clear_pointer (&out, g_free);

  /* py-locks again, and a byte-for-byte copy of it elsewhere: both known. */
  g_assert_true (g_file_get_contents (py, &contents, &len, &error));
  g_assert_true (g_file_set_contents (copy, contents, len, &error));
  out = run (fx, &status, NULL, "history", "add", "--history", fx->history, py, copy, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "0 new traces recorded, 2 already known"));
  g_clear_pointer (&out, g_free);

  /* The store holds what the brute force counts. */
  ex.functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ex.bigrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  count_trace (&ex, py);
  count_trace (&ex, build);
  g_assert_cmpuint (ex.n_callstacks, >, 1000);

  store = ws_history_store_open (fx->history, &error);
  g_assert_no_error (error);
  g_assert_true (ws_history_store_get_stats (store, &st, &error));
  g_assert_cmpuint (st.n_traces, ==, 2);
  g_assert_cmpuint (st.n_callstacks, ==, ex.n_callstacks);
  g_assert_cmpuint (st.n_functions, ==, g_hash_table_size (ex.functions));
  g_assert_cmpuint (st.n_bigrams, ==, g_hash_table_size (ex.bigrams));

  /* …and `stats` prints those numbers. */
  out = run (fx, &status, NULL, "history", "stats", "--json", "--history", fx->history, NULL);
  g_assert_cmpint (status, ==, 0);
  o = parse (out);
  g_assert_true (json_object_get_boolean_member (o, "exists"));
  g_assert_cmpint (json_object_get_int_member (o, "traces"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "callstacks"), ==, ex.n_callstacks);
  g_assert_cmpint (json_object_get_int_member (o, "functions"), ==, g_hash_table_size (ex.functions));
  g_assert_cmpint (json_object_get_int_member (o, "bigrams"), ==, g_hash_table_size (ex.bigrams));
  /* `add` records the waits too (reservoirs per signature, pool and "*"). */
  g_assert_cmpint (json_object_get_int_member (o, "wait_samples"), ==, st.n_wait_samples);
  g_assert_cmpint (json_object_get_int_member (o, "wait_samples"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "flags"), ==, 0);
  g_clear_pointer (&o, json_object_unref);
  g_clear_pointer (&out, g_free);

  /* top-functions: the brute force's order (count, then name, module). */
  g_hash_table_iter_init (&iter, ex.functions);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Ranked r = { key, GPOINTER_TO_SIZE (value) };
      g_array_append_val (ranked, r);
    }
  g_array_sort (ranked, compare_ranked);
  out = run (fx, &status, NULL, "history", "top-functions", "--n", "6", "--json", "--history", fx->history, NULL);
  g_assert_cmpint (status, ==, 0);
  o = parse (out);
  g_assert_cmpint (json_object_get_int_member (o, "callstacks"), ==, ex.n_callstacks);
  functions = json_object_get_array_member (o, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);
      const Ranked *r = &g_array_index (ranked, Ranked, i);
      g_autofree char *k = g_strdup_printf ("%s\x01%s", json_object_get_string_member (f, "function"),
                                            json_object_get_string_member (f, "module"));

      g_assert_cmpstr (k, ==, r->key);
      g_assert_cmpint (json_object_get_int_member (f, "stacks"), ==, r->count);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (f, "share"),
                                      (double) r->count / ex.n_callstacks, 1e-12);
    }
  g_clear_pointer (&o, json_object_unref);
  g_clear_pointer (&out, g_free);

  /* --history won over $WAITSCOPE_HISTORY throughout. */
  g_assert_false (g_file_test (fx->decoy, G_FILE_TEST_EXISTS));

  g_hash_table_unref (ex.functions);
  g_hash_table_unref (ex.bigrams);
}

/* Without --history, $WAITSCOPE_HISTORY; usage errors exit 2, unreadable
 * traces 1 with the file named, the others still recorded. */
static void
test_errors_and_env (Fixture *fx, gconstpointer data)
{
  g_autofree char *py = ws_cli_test_data_path ("py-locks.perf.txt.gz");
  g_autofree char *missing = g_build_filename (fx->dir, "missing.perf.txt", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  out = run (fx, &status, &err, "history", "add", missing, py, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, missing));
  g_assert_nonnull (strstr (out, "1 new trace recorded, 0 already known, 1 could not be read"));
  g_assert_nonnull (strstr (out, fx->decoy));
  store = ws_history_store_open (fx->decoy, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_history_store_get_n_traces (store), ==, 1);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run (fx, &status, NULL, "history", "top-functions", "--n", "3", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "  3 "));
  g_assert_null (strstr (out, "  4 "));
  g_clear_pointer (&out, g_free);

  {
    const char *bad[][4] = {
      { "history", NULL },
      { "history", "bogus", NULL },
      { "history", "add", NULL },
      { "history", "stats", "extra", NULL },
      { "history", "top-functions", "--n", "-1" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_free (run (fx, &status, NULL, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL));
        g_assert_cmpint (status, ==, 2);
      }
  }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("WS_CLI") == NULL || g_getenv ("WS_TEST_DATA") == NULL)
    {
      g_test_skip ("WS_CLI and WS_TEST_DATA must be set");
      return g_test_run ();
    }
  g_test_add ("/cli-history/add-stats-top", Fixture, NULL, fixture_setup, test_add_stats_top, fixture_teardown);
  g_test_add ("/cli-history/errors-and-env", Fixture, NULL, fixture_setup, test_errors_and_env, fixture_teardown);
  return g_test_run ();
}
