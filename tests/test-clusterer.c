/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Pattern clustering: the fast pairwise similarities against
 * ws_similarity_sim() pair by pair, the nearest-neighbour-chain
 * agglomeration against a naive greedy agglomeration, and a hand-worked
 * example of the four cluster metrics and rankings (StackMine §II.B).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-clusterer.h"
#include "ws-error.h"

static WsFrameId
frame (WsStackTable *table, const char *name)
{
  return ws_stack_table_intern_frame (table, name, "/opt/m");
}

static guint
parse (WsStackTable *table, const char *text, WsFrameId *out)
{
  g_auto(GStrv) names = g_strsplit (text, " ", -1);
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    if (*names[i])
      out[n++] = frame (table, names[i]);
  return n;
}

static void
add_events (WsStackDb *db, guint stream, const char *stack, gint64 cost)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  WsFrameId f[64];
  guint n = parse (table, stack, f);

  ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, f, n), cost, 1);
}

static guint
add_pattern (WsPatternSet *set, const char *text)
{
  WsStackTable *table = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (set));
  WsFrameId f[64];
  guint n = parse (table, text, f);

  return ws_pattern_set_add_pattern (set, f, n);
}

/* The fast all-pairs similarities equal ws_similarity_sim() exactly. */
static void
test_similarities_match_reference (void)
{
  static const char * const names[] = {
    "main", "PostgresMain", "exec_simple_query", "PortalRun", "ExecUpdate", "heap_update",
    "heap_lock_tuple", "XactLockTableWait", "LockAcquireExtended", "ProcSleep", "WaitLatch",
    "epoll_wait", "do_epoll_wait", "schedule", "__schedule", "LockTuple",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
      WsStackTable *table = ws_stack_db_get_stack_table (db);
      g_autoptr(WsPatternSet) set = ws_pattern_set_new (db, 1);
      g_autoptr(WsSimilarity) sim = ws_similarity_new (table);
      g_autofree double *m = NULL;
      g_autoptr(GError) error = NULL;
      WsFrameId f[G_N_ELEMENTS (names)];
      guint n;

      ws_stack_db_add_stream (db, "t");
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        f[i] = ws_stack_table_intern_frame (table, names[i], i < 13 ? "/usr/bin/postgres" : "[kernel.kallsyms]");

      /* A random history for the weights. */
      for (guint s = 0; s < 40; s++)
        {
          WsFrameId st[12];
          guint len = g_rand_int_range (rand, 1, 12);

          for (guint k = 0; k < len; k++)
            st[k] = f[g_rand_int_range (rand, 0, G_N_ELEMENTS (f))];
          ws_similarity_count_stack (sim, st, len, g_rand_int_range (rand, 1, 5));
        }

      /* Patterns sharing prefixes, as mined ones do. */
      for (guint p = 0; p < 30; p++)
        {
          WsFrameId pat[14];
          guint len = g_rand_int_range (rand, 1, 14);

          for (guint k = 0; k < len; k++)
            pat[k] = k < 4 && g_rand_boolean (rand) ? f[k] : f[g_rand_int_range (rand, 0, G_N_ELEMENTS (f))];
          ws_pattern_set_add_pattern (set, pat, len);
        }
      /* A duplicate and a prefix of another pattern. */
      {
        const WsPattern *p0 = ws_pattern_set_get_pattern (set, 0);
        WsFrameId copy[14];

        memcpy (copy, p0->frames, p0->n_frames * sizeof (WsFrameId));
        ws_pattern_set_add_pattern (set, copy, p0->n_frames);
        ws_pattern_set_add_pattern (set, copy, MAX (p0->n_frames / 2, 1));
      }

      n = ws_pattern_set_get_n_patterns (set);
      m = ws_clusterer_similarities (set, sim, NULL, NULL, NULL, &error);
      g_assert_no_error (error);

      for (guint a = 0; a < n; a++)
        for (guint b = 0; b < n; b++)
          {
            const WsPattern *pa = ws_pattern_set_get_pattern (set, a);
            const WsPattern *pb = ws_pattern_set_get_pattern (set, b);
            /* The matrix is symmetric, filled from the lexicographically
             * smaller pattern's side: compare with both orders' reference
             * and require it to be one of them. */
            double r1 = ws_similarity_sim (sim, pa->frames, pa->n_frames, pb->frames, pb->n_frames);
            double r2 = ws_similarity_sim (sim, pb->frames, pb->n_frames, pa->frames, pa->n_frames);
            double got = m[a * n + b];

            if (a == b)
              g_assert_cmpfloat (got, ==, 1.0);
            else if (fabs (got - r1) > 1e-12 && fabs (got - r2) > 1e-12)
              g_error ("round %u: sim(%u,%u) = %.15g, reference %.15g / %.15g", round, a, b, got, r1, r2);
          }
    }
}

/* Naive greedy agglomeration: merge the most similar pair while >= τ. */
static guint *
naive_agglomerate (const double *matrix, guint n, double threshold, WsLinkage linkage)
{
  g_autofree double *m = g_memdup2 (matrix, sizeof (double) * n * n);
  g_autofree guint *size = g_new (guint, n);
  g_autofree gboolean *active = g_new (gboolean, n);
  guint *owner = g_new (guint, n);

  for (guint i = 0; i < n; i++)
    {
      size[i] = 1;
      active[i] = TRUE;
      owner[i] = i;
    }

  for (;;)
    {
      double best = -1;
      guint bx = 0, by = 0;

      for (guint x = 0; x < n; x++)
        for (guint y = x + 1; y < n; y++)
          if (active[x] && active[y] && m[x * n + y] > best)
            best = m[x * n + y], bx = x, by = y;
      if (best < threshold || best < 0)
        break;

      for (guint c = 0; c < n; c++)
        {
          double sx = m[bx * n + c], sy = m[by * n + c], s;

          if (!active[c] || c == bx || c == by)
            continue;
          s = linkage == WS_LINKAGE_COMPLETE ? MIN (sx, sy)
            : linkage == WS_LINKAGE_SINGLE ? MAX (sx, sy)
            : (size[bx] * sx + size[by] * sy) / (size[bx] + size[by]);
          m[bx * n + c] = m[c * n + bx] = s;
        }
      size[bx] += size[by];
      active[by] = FALSE;
      for (guint i = 0; i < n; i++)
        if (owner[i] == by)
          owner[i] = bx;
    }
  return owner;
}

static void
test_agglomeration_matches_naive (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint round = 0; round < 300; round++)
    {
      guint n = g_rand_int_range (rand, 1, 25);
      g_autofree double *m = g_new (double, n * n);
      g_autofree double *copy = NULL;
      g_autofree guint *fast = NULL;
      g_autofree guint *naive = NULL;
      WsLinkage linkage = round % 3;
      double threshold = g_rand_double (rand);

      for (guint x = 0; x < n; x++)
        {
          m[x * n + x] = 1.0;
          for (guint y = x + 1; y < n; y++)
            m[x * n + y] = m[y * n + x] = g_rand_double (rand);
        }
      copy = g_memdup2 (m, sizeof (double) * n * n);
      fast = ws_clusterer_agglomerate (copy, n, threshold, linkage, NULL);
      naive = naive_agglomerate (m, n, threshold, linkage);

      /* Same partition: i and j together in one iff together in the other. */
      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < n; j++)
          if ((fast[i] == fast[j]) != (naive[i] == naive[j]))
            g_error ("round %u (linkage %u, n %u, τ %.3f): items %u and %u differ", round, linkage, n, threshold, i, j);

      /* Numbered by lowest member. */
      for (guint i = 0, next = 0; i < n; i++)
        if (fast[i] == next)
          next++;
        else
          g_assert_cmpuint (fast[i], <, next);
    }
}

/*
 * Metrics by hand.  Streams t0, t1, t2; stacks (cost):
 *   "main a lock wait"  t0 10, t1 5   -> one entry: 15, 2 events, {t0, t1}
 *   "main b lock wait"  t1 20
 *   "main idle poll"    t2 100, t2 1  -> 101, 2 events
 *   "x y"               t0 50
 * Patterns: P0 "main a lock wait" (15), P1 "main b lock wait" (20),
 * P2 "main lock wait" (35), P3 "main idle poll" (101), P4 "x y" (50).
 *
 * Without history every ω is 1.  Sub(a, b) = 1 - 2·1/4 = 1/2 (both names
 * have the module word "m"), so Sim(P0, P1) = 3 / (3 + 1/2) = 6/7 and
 * Sim(P0, P2) = Sim(P1, P2) = 3/4.  At τ = 0.7 (average linkage) P0 and P1
 * merge at 6/7, then P2 joins at (3/4 + 3/4)/2 = 3/4.  The lock cluster's
 * events are those of its two stacks, each once: total 35 (not 15 + 20 +
 * 35), 3 events, streams {t0, t1}, average 35/3.
 */
static void
test_metrics_by_hand (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsPatternSet) set = ws_pattern_set_new (db, 1);
  g_autoptr(WsSimilarity) sim = ws_similarity_new (ws_stack_db_get_stack_table (db));
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autoptr(GError) error = NULL;
  const WsCluster *c;
  WsClusterRank rank;

  ws_stack_db_add_stream (db, "t0");
  ws_stack_db_add_stream (db, "t1");
  ws_stack_db_add_stream (db, "t2");
  add_events (db, 0, "main a lock wait", 10);
  add_events (db, 1, "main a lock wait", 5);
  add_events (db, 1, "main b lock wait", 20);
  add_events (db, 2, "main idle poll", 100);
  add_events (db, 2, "main idle poll", 1);
  add_events (db, 0, "x y", 50);

  add_pattern (set, "main a lock wait");
  add_pattern (set, "main b lock wait");
  add_pattern (set, "main lock wait");
  add_pattern (set, "main idle poll");
  add_pattern (set, "x y");
  g_assert_cmpint (ws_pattern_set_get_pattern (set, 2)->cost, ==, 35);

  clusters = ws_clusterer_cluster (set, sim, 0.7, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), ==, 3);

  /* Ranked by total cost: idle (101), x y (50), lock (35). */
  c = ws_cluster_set_get_cluster (clusters, 0);
  g_assert_cmpuint (c->n_patterns, ==, 1);
  g_assert_cmpuint (c->patterns[0], ==, 3);
  g_assert_cmpint (c->total_cost, ==, 101);
  g_assert_cmpuint (c->n_events, ==, 2);
  g_assert_cmpuint (c->n_streams, ==, 1);
  g_assert_cmpfloat_with_epsilon (c->average_cost, 50.5, 1e-12);

  c = ws_cluster_set_get_cluster (clusters, 2);
  g_assert_cmpuint (c->n_patterns, ==, 3);
  g_assert_cmpuint (c->patterns[0], ==, 0);
  g_assert_cmpuint (c->patterns[1], ==, 1);
  g_assert_cmpuint (c->patterns[2], ==, 2);
  g_assert_cmpint (c->total_cost, ==, 35);
  g_assert_cmpuint (c->n_events, ==, 3);
  g_assert_cmpuint (c->n_streams, ==, 2);
  g_assert_cmpuint (c->n_support, ==, 2);
  g_assert_cmpfloat_with_epsilon (c->average_cost, 35.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (c->merge_similarity, 0.75, 1e-12);
  g_assert_cmpuint (ws_cluster_set_find_pattern (clusters, 1), ==, 2);

  /* The other rankings. */
  ws_cluster_set_rank (clusters, WS_CLUSTER_RANK_STREAMS);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 0)->n_patterns, ==, 3);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 1)->patterns[0], ==, 3);  /* tie on 1 stream: 101 > 50 */
  ws_cluster_set_rank (clusters, WS_CLUSTER_RANK_EVENTS);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 0)->n_events, ==, 3);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 2)->patterns[0], ==, 4);
  ws_cluster_set_rank (clusters, WS_CLUSTER_RANK_AVERAGE);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 0)->patterns[0], ==, 3);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 1)->patterns[0], ==, 4);
  g_assert_cmpuint (ws_cluster_set_get_cluster (clusters, 2)->patterns[0], ==, 0);
  g_assert_cmpuint (ws_cluster_set_find_pattern (clusters, 2), ==, 2);

  g_assert_true (ws_cluster_rank_from_string ("streams", &rank));
  g_assert_cmpint (rank, ==, WS_CLUSTER_RANK_STREAMS);
  g_assert_false (ws_cluster_rank_from_string ("bogus", &rank));

  /* A threshold above 6/7 keeps every pattern alone. */
  g_clear_pointer (&clusters, ws_cluster_set_unref);
  clusters = ws_clusterer_cluster (set, sim, 0.9, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), ==, 5);
}

static void
test_cancel (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsPatternSet) set = ws_pattern_set_new (db, 1);
  g_autoptr(WsSimilarity) sim = ws_similarity_new (ws_stack_db_get_stack_table (db));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  ws_stack_db_add_stream (db, "t");
  add_events (db, 0, "a b", 1);
  add_pattern (set, "a b");
  add_pattern (set, "a");
  g_cancellable_cancel (cancellable);
  g_assert_null (ws_clusterer_cluster (set, sim, 0.5, WS_LINKAGE_AVERAGE, cancellable, NULL, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/clusterer/similarities-match-reference", test_similarities_match_reference);
  g_test_add_func ("/clusterer/agglomeration-matches-naive", test_agglomeration_matches_naive);
  g_test_add_func ("/clusterer/metrics-by-hand", test_metrics_by_hand);
  g_test_add_func ("/clusterer/cancel", test_cancel);

  return g_test_run ();
}
