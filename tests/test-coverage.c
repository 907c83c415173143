/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Signatures, bottleneck coverage (StackMine §VII.A.2) and the Fig. 4
 * comparison on a hand-worked example:
 *
 * Streams (total delay, longest delay): s0 (100, 60), s1 (150, 90),
 * s2 (120, 30), s3 (30, 50); total delay 400.  Stacks:
 *
 *   E1 "main lockA wait"  s0: 40, s1: 30
 *   E2 "main lockB wait"  s2: 20
 *   E3 "main io flush"    s1: 50, s3: 10
 *   E4 "main idle"        s0: 5
 *
 * Signatures:  σ0 = lockA  -> E1 (70):  0.175, streams s0 s1
 *              σ1 = io flush -> E3 (60): 0.15, streams s1 s3
 *              σ2 = lockB  -> E2 (20):  0.05, stream s2
 *              σ3 = main…wait -> E1, E2 (90): 0.225, streams s0 s1 s2
 * All together: E1 + E2 + E3 = 150 / 400 = 0.375; {σ0, σ3} = 90/400.
 *
 * StackMine: σ3 first, its costliest stream s0 (40) reveals σ0, σ3
 * (0.225); next unrevealed σ1 -> s1 (50 > 10) reveals σ1 (0.375); σ2 -> s2;
 * then s3.  Greedy-Total: s1 s2 s0 s3; Greedy-Max: s1 s0 s3 s2 — s1 alone
 * reveals σ0 σ1 σ3, i.e. 0.375.
 *
 * Random, exactly over the 24 orders: after one stream the coverage is
 * 0.225 (s0), 0.375 (s1), 0.225 (s2) or 0.15 (s3): mean 0.24375.  To reach
 * 0.375 needs one of {s1, s3} (for E3) and one of {s0, s1, s2} (for E1 and
 * E2): k = 1 if s1 comes first (1/4); k = 2 if s3 comes first (1/4); if s0
 * or s2 comes first (1/2), k = 2 with probability 2/3 and 3 otherwise:
 * E[k] = 1/4 + 2/4 + 1/2 · (4/3 + 1) = 23/12.
 */
#include "config.h"

#include "ws-coverage.h"

static WsFrameId
frame (WsStackTable *table, const char *name)
{
  return ws_stack_table_intern_frame (table, name, "/opt/app");
}

static guint
parse (WsStackTable *table, const char *text, WsFrameId *out)
{
  g_auto(GStrv) names = g_strsplit (text, " ", -1);
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    out[n++] = frame (table, names[i]);
  return n;
}

static void
add (WsStackDb *db, guint stream, const char *stack, gint64 cost)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  WsFrameId f[16];
  guint n = parse (table, stack, f);

  ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, f, n), cost, 1);
}

static guint
signature (WsCoverage *cov, WsStackDb *db, const char *text)
{
  WsFrameId f[16];
  guint n = parse (ws_stack_db_get_stack_table (db), text, f);

  return ws_coverage_add_signature (cov, text, f, n);
}

static WsStackDb *
example_db (void)
{
  WsStackDb *db = ws_stack_db_new (NULL);
  static const gint64 total[] = { 100, 150, 120, 30 }, max[] = { 60, 90, 30, 50 };

  for (guint s = 0; s < 4; s++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", s);
      ws_stack_db_add_stream (db, name);
      ws_stack_db_set_stream_delay (db, s, total[s], max[s]);
    }
  add (db, 0, "main lockA wait", 40);
  add (db, 1, "main lockA wait", 30);
  add (db, 2, "main lockB wait", 20);
  add (db, 1, "main io flush", 50);
  add (db, 3, "main io flush", 10);
  add (db, 0, "main idle", 5);
  return db;
}

static void
assert_order (WsCoverage *cov, WsRanking ranking, const guint *expected)
{
  g_autoptr(GArray) order = ws_coverage_stream_order (cov, ranking, 1);

  g_assert_cmpuint (order->len, ==, 4);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpuint (g_array_index (order, guint, k), ==, expected[k]);
}

static void
test_coverage_by_hand (void)
{
  g_autoptr(WsStackDb) db = example_db ();
  g_autoptr(WsCoverage) cov = ws_coverage_new (db);
  guint s0 = signature (cov, db, "lockA");
  guint s1 = signature (cov, db, "io flush");
  guint s2 = signature (cov, db, "lockB");
  guint s3 = signature (cov, db, "main wait");
  guint pair[2] = { s0, s3 };

  g_assert_cmpint (ws_coverage_get_total_delay (cov), ==, 400);
  g_assert_cmpint (ws_coverage_get_signature_cost (cov, s3), ==, 90);
  g_assert_cmpuint (ws_coverage_get_signature_n_streams (cov, s3), ==, 3);
  g_assert_cmpuint (ws_coverage_get_signature_n_streams (cov, s1), ==, 2);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_signature_coverage (cov, s0), 0.175, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_signature_coverage (cov, s1), 0.15, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_signature_coverage (cov, s2), 0.05, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_coverage (cov, pair, 2), 0.225, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_total_coverage (cov), 0.375, 1e-12);
  g_assert_cmpstr (ws_coverage_get_signature_name (cov, s1), ==, "io flush");
}

static void
test_fig4_by_hand (void)
{
  g_autoptr(WsStackDb) db = example_db ();
  g_autoptr(WsCoverage) cov = ws_coverage_new (db);
  g_autoptr(GArray) curve = NULL;
  g_autoptr(GArray) random = NULL;
  static const guint stackmine[] = { 0, 1, 2, 3 };
  static const guint greedy_total[] = { 1, 2, 0, 3 };
  static const guint greedy_max[] = { 1, 0, 3, 2 };

  signature (cov, db, "lockA");
  signature (cov, db, "io flush");
  signature (cov, db, "lockB");
  signature (cov, db, "main wait");

  assert_order (cov, WS_RANKING_STACKMINE, stackmine);
  assert_order (cov, WS_RANKING_GREEDY_TOTAL, greedy_total);
  assert_order (cov, WS_RANKING_GREEDY_MAX, greedy_max);

  curve = ws_coverage_curve (cov, WS_RANKING_STACKMINE, 0, 1);
  g_assert_cmpuint (curve->len, ==, 5);
  g_assert_cmpfloat_with_epsilon (g_array_index (curve, double, 0), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (curve, double, 1), 0.225, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (curve, double, 2), 0.375, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (curve, double, 4), 0.375, 1e-12);

  random = ws_coverage_curve (cov, WS_RANKING_RANDOM, 0, 1);
  g_assert_cmpfloat_with_epsilon (g_array_index (random, double, 1), 0.24375, 1e-12);
  g_assert_cmpfloat_with_epsilon (g_array_index (random, double, 4), 0.375, 1e-12);

  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_STACKMINE, 0.375, 0, 1), 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_GREEDY_TOTAL, 0.375, 0, 1), 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_GREEDY_MAX, 0.375, 0, 1), 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_RANDOM, 0.375, 0, 1), 23.0 / 12, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_STACKMINE, 0.2, 0, 1), 1, 1e-12);
  g_assert_cmpfloat (ws_coverage_streams_to_reach (cov, WS_RANKING_RANDOM, 0.5, 0, 1), ==, -1);

  /* Sampled shuffles converge on the exact mean. */
  g_assert_cmpfloat_with_epsilon (ws_coverage_streams_to_reach (cov, WS_RANKING_RANDOM, 0.375, 20000, 9),
                                  23.0 / 12, 0.03);
  g_assert_cmpstr (ws_ranking_to_string (WS_RANKING_GREEDY_MAX), ==, "greedy-max");
}

/* Default delays: a stream's delay is its cost, so coverage is the share of
 * the AOI's cost the signatures explain. */
static void
test_default_delays (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsCoverage) cov = NULL;

  ws_stack_db_add_stream (db, "a");
  ws_stack_db_add_stream (db, "b");
  add (db, 0, "main x", 30);
  add (db, 1, "main y", 10);
  cov = ws_coverage_new (db);
  signature (cov, db, "x");
  g_assert_cmpint (ws_coverage_get_total_delay (cov), ==, 40);
  g_assert_cmpfloat_with_epsilon (ws_coverage_get_total_coverage (cov), 0.75, 1e-12);
}

static void
test_common_frames (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsPatternSet) set = ws_pattern_set_new (db, 1);
  g_autoptr(WsSimilarity) sim = ws_similarity_new (ws_stack_db_get_stack_table (db));
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree WsFrameId *common = NULL;
  WsFrameId f[8];
  guint n;

  ws_stack_db_add_stream (db, "t");
  add (db, 0, "main a lock wait", 10);
  add (db, 0, "main b lock wait", 20);
  n = parse (ws_stack_db_get_stack_table (db), "main a lock wait", f);
  ws_pattern_set_add_pattern (set, f, n);
  n = parse (ws_stack_db_get_stack_table (db), "main b lock wait", f);
  ws_pattern_set_add_pattern (set, f, n);
  n = parse (ws_stack_db_get_stack_table (db), "main lock wait", f);
  ws_pattern_set_add_pattern (set, f, n);

  clusters = ws_clusterer_cluster (set, sim, 0.7, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), ==, 1);
  common = ws_coverage_cluster_common_frames (clusters, 0, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (ws_stack_table_get_frame (ws_stack_db_get_stack_table (db), common[0])->function, ==, "main");
  g_assert_cmpstr (ws_stack_table_get_frame (ws_stack_db_get_stack_table (db), common[1])->function, ==, "lock");
  g_assert_cmpstr (ws_stack_table_get_frame (ws_stack_db_get_stack_table (db), common[2])->function, ==, "wait");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/coverage/by-hand", test_coverage_by_hand);
  g_test_add_func ("/coverage/fig4-by-hand", test_fig4_by_hand);
  g_test_add_func ("/coverage/default-delays", test_default_delays);
  g_test_add_func ("/coverage/common-frames", test_common_frames);

  return g_test_run ();
}
