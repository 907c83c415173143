/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A fleet of traces (tests/data/fleet, recorded by record.sh there): 24
 * short runs of fleet_service.c, six of which take a rare slow path (the
 * cache index flushed with fdatasync under the cache mutex).
 *
 *  - Discriminative mining ranks the culprit, the flush under the lock
 *    (fdatasync ← lookup_cache), first; the default cost ranking puts it
 *    behind the pacing sleep, the idle pipe reads and other programs'
 *    waits.  The culprit's streams are exactly the six slow runs.
 *  - Laws of the score, over random class assignments: swapping the
 *    classes negates every score; the same traces in both classes score 0.
 *  - The classes file: latencies give classes by the median and the 90th
 *    percentile; a bad line is an error naming the file and line.
 *  - `waitscope-cli contrast --classes` and `mine --rank discriminative`
 *    on the fleet, which has no scenario markers.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "ws-cli-test-util.h"
#include "ws-error.h"
#include "ws-mining-run.h"
#include "ws-trace-classes.h"
#include "ws-trace-loader.h"

static GPtrArray *fleet;        /* WsTrace, in classes.csv order */
static GArray    *fleet_classes; /* WsRunClass */

static char *
fleet_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), "fleet", name, NULL);
}

static void
load_fleet (void)
{
  g_autofree char *csv = fleet_path ("classes.csv");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) entries = ws_trace_classes_read_csv (csv, &error);

  g_assert_no_error (error);
  g_assert_true (ws_trace_classes_assign (entries, NAN, NAN, &error));
  fleet = g_ptr_array_new_with_free_func (g_object_unref);
  fleet_classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  for (guint i = 0; i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      WsTrace *trace = ws_trace_loader_load (e->path, NULL, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (fleet, trace);
      g_array_append_val (fleet_classes, e->klass);
    }
  g_assert_cmpuint (fleet->len, ==, 24);
}

static WsMiningResult *
mine (GPtrArray        *traces,
      const WsRunClass *classes,
      WsClusterRank     rank)
{
  g_autoptr(GError) error = NULL;
  WsMiningSettings settings;
  WsMiningResult *run;

  ws_mining_settings_init (&settings);
  settings.read_history = settings.record_history = FALSE;
  settings.classes = classes;
  settings.rank = rank;
  run = ws_mining_run (traces, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return run;
}

static gboolean has_frame (WsMiningResult *run, const WsPattern *p, const char *function);
static gboolean is_culprit (WsMiningResult *run, const WsPattern *p);

/* Mining by cause: what kept the delayed threads waiting.  On pg-tpcb the
 * default puts the lock waiters' wait (epoll_wait ← ProcSleep) first, by
 * cause the WAL flush their holders made (XLogFlush) comes first.  A wait
 * is charged at most its own length, so the cause mining's total is at
 * most the waits' (a law, checked on both traces). */
static void
test_by_cause_pg (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsMiningResult) waits = NULL, causes = NULL;
  WsMiningSettings settings;

  g_ptr_array_add (traces, ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  ws_mining_settings_init (&settings);
  settings.read_history = settings.record_history = FALSE;
  waits = ws_mining_run (traces, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  settings.by_cause = TRUE;
  causes = ws_mining_run (traces, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (has_frame (waits, ws_pattern_set_get_pattern (waits->patterns, 0), "ProcSleep"));
  g_assert_false (has_frame (waits, ws_pattern_set_get_pattern (waits->patterns, 0), "XLogFlush"));
  g_assert_true (has_frame (causes, ws_pattern_set_get_pattern (causes->patterns, 0), "XLogFlush"));
  g_assert_cmpint (ws_stack_db_get_total_cost (causes->db), <=, ws_stack_db_get_total_cost (waits->db));

  /* A cause mining that asks for another scope is refused. */
  settings.scope = WS_MINING_RUN_SCOPE_ALL;
  g_assert_null (ws_mining_run (traces, &settings, NULL, NULL, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

/* On the fleet, by cause and by the discriminative score: the flush made
 * under the cache lock first. */
static void
test_by_cause_fleet (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsMiningResult) run = NULL, waits = NULL;
  WsMiningSettings settings;

  ws_mining_settings_init (&settings);
  settings.read_history = settings.record_history = FALSE;
  waits = ws_mining_run (fleet, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  settings.by_cause = TRUE;
  settings.classes = (const WsRunClass *) (gpointer) fleet_classes->data;
  settings.rank = WS_CLUSTER_RANK_DISCRIMINATIVE;
  run = ws_mining_run (fleet, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (is_culprit (run, ws_pattern_set_get_pattern (run->patterns, 0)));
  g_assert_cmpint (ws_stack_db_get_total_cost (run->db), <=, ws_stack_db_get_total_cost (waits->db));
}

static gboolean
has_frame (WsMiningResult  *run,
           const WsPattern *p,
           const char      *function)
{
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);

  for (guint k = 0; k < p->n_frames; k++)
    if (g_strcmp0 (ws_stack_table_get_frame (table, p->frames[k])->function, function) == 0)
      return TRUE;
  return FALSE;
}

/* The flush under the cache lock: the slow path's own wait. */
static gboolean
is_culprit (WsMiningResult  *run,
            const WsPattern *p)
{
  return has_frame (run, p, "lookup_cache") && has_frame (run, p, "fdatasync");
}

static guint
culprit_rank (WsMiningResult *run)
{
  for (guint i = 0; i < ws_pattern_set_get_n_patterns (run->patterns); i++)
    if (is_culprit (run, ws_pattern_set_get_pattern (run->patterns, i)))
      return i + 1;
  return 0;
}

static void
test_discriminative (void)
{
  g_autoptr(WsMiningResult) by_cost = mine (fleet, NULL, WS_CLUSTER_RANK_TOTAL);
  g_autoptr(WsMiningResult) by_score = mine (fleet, (const WsRunClass *) (gpointer) fleet_classes->data,
                                             WS_CLUSTER_RANK_DISCRIMINATIVE);
  const WsPattern *top = ws_pattern_set_get_pattern (by_score->patterns, 0);
  guint n_slow = 0;

  for (guint i = 0; i < fleet_classes->len; i++)
    n_slow += g_array_index (fleet_classes, WsRunClass, i) == WS_RUN_CLASS_SLOW;
  g_assert_cmpuint (n_slow, ==, 6);
  g_test_message ("the culprit ranks %u of %u by cost, %u of %u by the discriminative score",
                  culprit_rank (by_cost), ws_pattern_set_get_n_patterns (by_cost->patterns),
                  culprit_rank (by_score), ws_pattern_set_get_n_patterns (by_score->patterns));
  g_assert_false (by_cost->discriminative);
  g_assert_true (by_score->discriminative);
  /* By cost the pattern every run has comes first, the culprit later. */
  g_assert_cmpuint (culprit_rank (by_cost), >, 1);
  g_assert_cmpuint (ws_pattern_set_get_pattern (by_cost->patterns, 0)->n_streams, ==, 24);
  /* By the score, the culprit first: only the slow runs pay it, so its
   * score is its cost over the six of them. */
  g_assert_true (is_culprit (by_score, top));
  g_assert_cmpuint (top->n_streams, ==, n_slow);
  g_assert_cmpint (top->discriminative, ==, top->cost / n_slow);
  /* Sorted by the score. */
  for (guint i = 1; i < ws_pattern_set_get_n_patterns (by_score->patterns); i++)
    g_assert_cmpint (ws_pattern_set_get_pattern (by_score->patterns, i - 1)->discriminative, >=,
                     ws_pattern_set_get_pattern (by_score->patterns, i)->discriminative);
}

/* Each pattern's score by its frames (the order differs between runs). */
static GHashTable *
scores_by_frames (WsMiningResult *run)
{
  GHashTable *scores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);

  for (guint i = 0; i < ws_pattern_set_get_n_patterns (run->patterns); i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (run->patterns, i);
      g_hash_table_insert (scores, ws_pattern_format (p, table, ";"), GINT_TO_POINTER ((gint) (p->discriminative / 1000)));
    }
  return scores;
}

/* Swapping the classes negates every score (μs, integer division's
 * rounding aside), over random assignments with both classes present. */
static void
test_swap_law (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (22);

  for (guint round = 0; round < 4; round++)
    {
      g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
      g_autoptr(GArray) b = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
      g_autoptr(WsMiningResult) ra = NULL, rb = NULL;
      g_autoptr(GHashTable) sa = NULL, sb = NULL;
      GHashTableIter iter;
      gpointer key, value;

      for (guint i = 0; i < fleet->len; i++)
        {
          WsRunClass x = i == 0 ? WS_RUN_CLASS_SLOW : i == 1 ? WS_RUN_CLASS_FAST : g_rand_int_range (rand, 0, 3);
          WsRunClass y = x == WS_RUN_CLASS_SLOW ? WS_RUN_CLASS_FAST : x == WS_RUN_CLASS_FAST ? WS_RUN_CLASS_SLOW : x;

          g_array_append_val (a, x);
          g_array_append_val (b, y);
        }
      ra = mine (fleet, (const WsRunClass *) (gpointer) a->data, WS_CLUSTER_RANK_TOTAL);
      rb = mine (fleet, (const WsRunClass *) (gpointer) b->data, WS_CLUSTER_RANK_TOTAL);
      sa = scores_by_frames (ra);
      sb = scores_by_frames (rb);
      g_assert_cmpuint (g_hash_table_size (sa), ==, g_hash_table_size (sb));
      g_hash_table_iter_init (&iter, sa);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          gpointer other;

          g_assert_true (g_hash_table_lookup_extended (sb, key, NULL, &other));
          g_assert_cmpint (ABS (GPOINTER_TO_INT (value) + GPOINTER_TO_INT (other)), <=, 1);
        }
    }
}

/* The same traces in both classes: no pattern discriminates. */
static void
test_same_traces_law (void)
{
  g_autoptr(GPtrArray) twice = g_ptr_array_new ();
  g_autoptr(GArray) classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));
  g_autoptr(WsMiningResult) run = NULL;

  for (guint i = 0; i < 6; i++)
    {
      WsRunClass s = WS_RUN_CLASS_SLOW, f = WS_RUN_CLASS_FAST;

      g_ptr_array_add (twice, g_ptr_array_index (fleet, i));
      g_array_append_val (classes, s);
      g_ptr_array_add (twice, g_ptr_array_index (fleet, i));
      g_array_append_val (classes, f);
    }
  run = mine (twice, (const WsRunClass *) (gpointer) classes->data, WS_CLUSTER_RANK_DISCRIMINATIVE);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (run->patterns), >, 0);
  for (guint i = 0; i < ws_pattern_set_get_n_patterns (run->patterns); i++)
    g_assert_cmpint (ws_pattern_set_get_pattern (run->patterns, i)->discriminative, ==, 0);
}

static char *
write_csv (const char *dir,
           const char *text)
{
  char *path = g_build_filename (dir, "classes.csv", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_classes_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-fleet-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autofree char *path = NULL;
  GString *text = g_string_new ("trace,latency_ms\n# ten runs\n");
  guint n_fast = 0, n_slow = 0;

  /* Latencies 1…10: the median (5) and faster are fast, the 90th
   * percentile (9) and slower slow, the rest in neither class. */
  for (guint i = 1; i <= 10; i++)
    g_string_append_printf (text, "run-%u.perf.txt.gz,%u\n", i, i);
  path = write_csv (dir, text->str);
  g_string_free (text, TRUE);
  entries = ws_trace_classes_read_csv (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 10);
  g_assert_true (ws_trace_classes_assign (entries, NAN, NAN, &error));
  for (guint i = 0; i < entries->len; i++)
    {
      const WsRunClassEntry *e = &g_array_index (entries, WsRunClassEntry, i);
      g_autofree char *expected = g_strdup_printf ("%s/run-%u.perf.txt.gz", dir, i + 1);

      g_assert_cmpstr (e->path, ==, expected);
      g_assert_cmpint (e->klass, ==, i + 1 <= 5 ? WS_RUN_CLASS_FAST : i + 1 >= 9 ? WS_RUN_CLASS_SLOW : WS_RUN_CLASS_NONE);
      n_fast += e->klass == WS_RUN_CLASS_FAST;
      n_slow += e->klass == WS_RUN_CLASS_SLOW;
    }
  g_assert_cmpuint (n_fast, ==, 5);
  g_assert_cmpuint (n_slow, ==, 2);
  g_clear_pointer (&entries, g_array_unref);
  g_free (path);

  /* A bad line: the file and the line are named. */
  path = write_csv (dir, "trace,class\na.perf.txt.gz,slow\nb.perf.txt.gz,quick\n");
  entries = ws_trace_classes_read_csv (path, &error);
  g_assert_null (entries);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "classes.csv:3"));
  g_clear_error (&error);
  g_free (path);

  /* Labels only, all slow: no fast class. */
  path = write_csv (dir, "a.perf.txt.gz,slow\nb.perf.txt.gz,slow\n");
  entries = ws_trace_classes_read_csv (path, &error);
  g_assert_no_error (error);
  g_assert_false (ws_trace_classes_assign (entries, NAN, NAN, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_unlink (path);
  g_rmdir (dir);
}

static JsonObject *
run_cli_json (JsonParser         *parser,
              const char * const *args)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = ws_test_run_cli (args, &out, &err);

  if (status != 0)
    g_printerr ("%s", err);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static gboolean
names_contain (JsonObject *pattern,
               const char *set,
               const char *name)
{
  JsonArray *names = json_object_get_array_member (pattern, set);

  for (guint i = 0; i < json_array_get_length (names); i++)
    if (g_strcmp0 (json_array_get_string_element (names, i), name) == 0)
      return TRUE;
  return FALSE;
}

static void
test_cli (void)
{
  g_autofree char *csv = fleet_path ("classes.csv");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser2 = json_parser_new ();
  g_autofree char *err = NULL;
  JsonObject *root, *costliest = NULL;
  JsonArray *patterns;
  const char *contrast_args[] = { "contrast", "--json", "--top", "1000", "--classes", csv, NULL };
  const char *mine_args[] = { "mine", "--json", "--no-history", "--rank", "discriminative", "--classes", csv, NULL };
  const char *bad_args[] = { "mine", "--no-history", "--rank", "discriminative", csv, NULL };

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set");
      return;
    }
  /* The fleet has no scenario markers: each thread of the program of
   * interest is an instance, and the component defaults to it. */
  root = run_cli_json (parser, contrast_args);
  g_assert_cmpstr (json_object_get_string_member (root, "component"), ==, "fleet-service");
  g_assert_cmpstr (json_object_get_string_member (root, "classes"), ==, "by-trace");
  g_assert_cmpint (json_object_get_int_member (root, "slow_instances"), >, 0);
  patterns = json_object_get_array_member (root, "patterns");
  g_assert_cmpuint (json_array_get_length (patterns), >, 0);
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      if (costliest == NULL || json_object_get_int_member (p, "c") > json_object_get_int_member (costliest, "c"))
        costliest = p;
    }
  /* What costs the slow runs most that no fast run has: the disk serving
   * the flush made inside lookup_cache, under the lock (libc's fdatasync
   * keeps no frame pointer, so the unwinder skips rebuild_index). */
  g_assert_true (names_contain (costliest, "running", "lookup_cache"));
  g_assert_true (names_contain (costliest, "running", "DiskService"));

  root = run_cli_json (parser2, mine_args);
  patterns = json_object_get_array_member (root, "patterns");
  {
    JsonObject *top = json_array_get_object_element (patterns, 0);
    JsonArray *frames = json_object_get_array_member (top, "frames");
    gboolean lookup = FALSE, flush = FALSE;

    for (guint i = 0; i < json_array_get_length (frames); i++)
      {
        lookup |= g_str_has_prefix (json_array_get_string_element (frames, i), "lookup_cache ");
        flush |= g_str_has_prefix (json_array_get_string_element (frames, i), "fdatasync ");
      }
    g_assert_true (lookup && flush);
    g_assert_cmpint (json_object_get_int_member (top, "discriminative"), >, 0);
  }

  /* Ranking by the score without classes is a usage error. */
  g_assert_cmpint (ws_test_run_cli (bad_args, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--slow"));

  /* A trace named both on the command line (spelled differently) and in
   * the classes is one trace, in its class; in both classes, an error. */
  {
    g_autoptr(JsonParser) parser3 = json_parser_new ();
    g_autofree char *dir = fleet_path (".");
    g_autofree char *again = g_build_filename (dir, ".", "run-03.perf.txt.gz", NULL);
    g_autofree char *fast = fleet_path ("run-03.perf.txt.gz");
    g_autofree char *err2 = NULL;
    const char *twice_args[] = { "mine", "--json", "--no-history", "--classes", csv, again, NULL };
    const char *both_args[] = { "mine", "--no-history", "--classes", csv, "--fast", fast, NULL };
    JsonObject *twice = run_cli_json (parser3, twice_args);

    g_assert_cmpint (json_object_get_int_member (twice, "streams"), ==, fleet->len);
    g_assert_cmpint (ws_test_run_cli (both_args, NULL, &err2), ==, 2);
    g_assert_nonnull (strstr (err2, "both the slow and the fast class"));
  }

  /* Classes given without latencies have no medians to print: the
   * contrast's stand-in thresholds (1 ns, "never") are no durations. */
  {
    g_autofree char *slow = fleet_path ("run-03.perf.txt.gz");
    g_autofree char *fast = fleet_path ("run-01.perf.txt.gz");
    g_autofree char *out = NULL;
    g_autofree char *out2 = NULL;
    const char *args[] = { "contrast", "--slow", slow, "--fast", fast, NULL };
    const char *with_latencies[] = { "contrast", "--classes", csv, NULL };

    g_assert_cmpint (ws_test_run_cli (args, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "Classes by trace (no latencies given)"));
    g_assert_null (strstr (out, "median"));
    g_assert_cmpint (ws_test_run_cli (with_latencies, &out2, NULL), ==, 0);
    g_assert_nonnull (strstr (out2, "(median 6.278 ms)"));
  }

  /* Mining a fleet with no classes says that it ranks by cost over all
   * traces and how to rank what the slow ones have more of. */
  {
    g_autofree char *a = fleet_path ("run-03.perf.txt.gz");
    g_autofree char *b = fleet_path ("run-01.perf.txt.gz");
    g_autofree char *out = NULL;
    g_autofree char *out2 = NULL;
    const char *plain[] = { "mine", "--no-history", a, b, NULL };
    const char *by_class[] = { "mine", "--no-history", "--slow", a, "--fast", b, "--rank", "discriminative", NULL };

    g_assert_cmpint (ws_test_run_cli (plain, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "2 traces, no slow or fast class"));
    g_assert_cmpint (ws_test_run_cli (by_class, &out2, NULL), ==, 0);
    g_assert_null (strstr (out2, "no slow or fast class"));
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("WS_TEST_DATA") == NULL)
    return 77;
  load_fleet ();
  g_test_add_func ("/fleet/discriminative", test_discriminative);
  g_test_add_func ("/fleet/law/swap-classes", test_swap_law);
  g_test_add_func ("/fleet/law/same-traces", test_same_traces_law);
  g_test_add_func ("/fleet/classes-file", test_classes_file);
  g_test_add_func ("/fleet/cli", test_cli);
  g_test_add_func ("/fleet/by-cause/pg-tpcb", test_by_cause_pg);
  g_test_add_func ("/fleet/by-cause/fleet", test_by_cause_fleet);
  status = g_test_run ();
  g_ptr_array_unref (fleet);
  g_array_unref (fleet_classes);
  return status;
}
