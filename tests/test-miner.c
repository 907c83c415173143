/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The costly maximal pattern miner against an independent brute force: on
 * thousands of small random databases (short stacks, tiny alphabets so
 * that frames repeat inside stacks, duplicate stacks, equal costs, zero
 * costs, λ often equal to some pattern's exact cost), enumerate every
 * subsequence of every stack, cost it by scanning the raw events, keep those
 * of cost >= λ that have no costly proper super-sequence, and compare with
 * the miner: same patterns, same costs, events, streams and supports.
 */
#include "config.h"

#include <string.h>

#include "ws-error.h"
#include "ws-miner.h"

typedef struct {
  guint   stream;
  guint   n;
  guint32 f[16];
  gint64  cost;
} RawEvent;

typedef struct {
  guint   n;
  guint32 f[16];
  gint64  cost;
  guint64 n_events;
  guint   n_streams;
} BrutePattern;

static gboolean
is_subseq (const guint32 *p, guint np, const guint32 *s, guint ns)
{
  guint i = 0;

  for (guint k = 0; k < ns && i < np; k++)
    if (s[k] == p[i])
      i++;
  return i == np;
}

static char *
key_of (const guint32 *f, guint n)
{
  GString *s = g_string_new ("");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%u,", f[i]);
  return g_string_free (s, FALSE);
}

/* Every maximal pattern of cost >= λ, by exhaustive enumeration. */
static GArray *
brute_force (const RawEvent *events,
             guint           n_events,
             gint64          lambda)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) costly = g_array_new (FALSE, TRUE, sizeof (BrutePattern));
  GArray *maximal = g_array_new (FALSE, TRUE, sizeof (BrutePattern));

  for (guint e = 0; e < n_events; e++)
    for (guint mask = 1; mask < (1u << events[e].n); mask++)
      {
        BrutePattern bp = { 0 };
        g_autoptr(GHashTable) streams = g_hash_table_new (NULL, NULL);
        char *key;

        for (guint k = 0; k < events[e].n; k++)
          if (mask & (1u << k))
            bp.f[bp.n++] = events[e].f[k];
        key = key_of (bp.f, bp.n);
        if (g_hash_table_contains (seen, key))
          {
            g_free (key);
            continue;
          }
        g_hash_table_add (seen, key);

        for (guint x = 0; x < n_events; x++)
          if (is_subseq (bp.f, bp.n, events[x].f, events[x].n))
            {
              bp.cost += events[x].cost;
              bp.n_events++;
              g_hash_table_add (streams, GUINT_TO_POINTER (events[x].stream + 1));
            }
        bp.n_streams = g_hash_table_size (streams);
        if (bp.cost >= lambda)
          g_array_append_val (costly, bp);
      }

  for (guint i = 0; i < costly->len; i++)
    {
      const BrutePattern *p = &g_array_index (costly, BrutePattern, i);
      gboolean is_max = TRUE;

      for (guint j = 0; j < costly->len && is_max; j++)
        {
          const BrutePattern *q = &g_array_index (costly, BrutePattern, j);
          if (q->n > p->n && is_subseq (p->f, p->n, q->f, q->n))
            is_max = FALSE;
        }
      if (is_max)
        g_array_append_val (maximal, *p);
    }

  return maximal;
}

typedef struct {
  guint alphabet;
  guint max_stacks;
  guint max_depth;
  guint n_seeds;
} RandomParams;

static void
check_one_seed (guint32             seed,
                const RandomParams *params)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GArray) expected = NULL;
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  static const gint64 costs[] = { 0, 1, 1, 2, 3, 5, 8 };
  guint alphabet = g_rand_int_range (rand, 1, params->alphabet + 1);
  guint n_streams = g_rand_int_range (rand, 1, 4);
  guint n_events = g_rand_int_range (rand, 1, params->max_stacks + 1);
  RawEvent events[64];
  WsFrameId frames[8];
  gint64 lambda, total = 0;

  g_assert_cmpuint (n_events, <=, G_N_ELEMENTS (events));

  for (guint a = 0; a < alphabet; a++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", a);
      frames[a] = ws_stack_table_intern_frame (table, name, "m");
    }
  for (guint s = 0; s < n_streams; s++)
    ws_stack_db_add_stream (db, "s");

  for (guint e = 0; e < n_events; e++)
    {
      RawEvent *ev = &events[e];

      if (e > 0 && g_rand_int_range (rand, 0, 4) == 0)
        *ev = events[g_rand_int_range (rand, 0, e)];   /* a duplicate stack */
      else
        {
          ev->n = g_rand_int_range (rand, 1, params->max_depth + 1);
          for (guint k = 0; k < ev->n; k++)
            ev->f[k] = frames[g_rand_int_range (rand, 0, alphabet)];
        }
      ev->cost = costs[g_rand_int_range (rand, 0, G_N_ELEMENTS (costs))];
      ev->stream = g_rand_int_range (rand, 0, n_streams);
      total += ev->cost;

      ws_stack_db_add (db, ev->stream, ws_stack_table_intern_stack (table, ev->f, ev->n), ev->cost, 1);
    }

  /* λ: half the time exactly the cost of some random subsequence (the
   * ">=" boundary), otherwise anywhere in [1, total]. */
  if (g_rand_boolean (rand))
    {
      const RawEvent *ev = &events[g_rand_int_range (rand, 0, n_events)];
      guint32 sub[16];
      guint n = 0;

      for (guint k = 0; k < ev->n; k++)
        if (g_rand_boolean (rand))
          sub[n++] = ev->f[k];
      lambda = 0;
      for (guint x = 0; x < n_events; x++)
        if (is_subseq (sub, n, events[x].f, events[x].n))
          lambda += events[x].cost;
    }
  else
    lambda = g_rand_int_range (rand, 1, MAX (total, 1) + 1);
  lambda = MAX (lambda, 1);

  set = ws_miner_mine (db, lambda, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  expected = brute_force (events, n_events, lambda);

  for (guint i = 0; i < expected->len; i++)
    {
      BrutePattern *bp = &g_array_index (expected, BrutePattern, i);
      g_hash_table_insert (by_key, key_of (bp->f, bp->n), bp);
    }

  if (ws_pattern_set_get_n_patterns (set) != expected->len)
    g_error ("seed %u: miner found %u patterns, brute force %u (λ=%" G_GINT64_FORMAT ")",
             seed, ws_pattern_set_get_n_patterns (set), expected->len, lambda);

  for (guint i = 0; i < ws_pattern_set_get_n_patterns (set); i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, i);
      g_autofree char *key = key_of (p->frames, p->n_frames);
      BrutePattern *bp = g_hash_table_lookup (by_key, key);
      gint64 support_cost = 0;

      if (bp == NULL)
        g_error ("seed %u: miner output %s is not a maximal costly pattern", seed, key);
      g_assert_cmpint (p->cost, ==, bp->cost);
      g_assert_cmpuint (p->n_events, ==, bp->n_events);
      g_assert_cmpuint (p->n_streams, ==, bp->n_streams);
      g_assert_cmpint (p->cost, >=, lambda);

      /* The support: exactly the entries whose stack contains it. */
      for (guint s = 0, k = 0; s < ws_stack_db_get_n_entries (db); s++)
        {
          guint n;
          const WsFrameId *st = ws_stack_db_get_frames (db, s, &n);
          gboolean in = is_subseq (p->frames, p->n_frames, st, n);

          if (in)
            {
              g_assert_cmpuint (k, <, p->n_support);
              g_assert_cmpuint (p->support[k], ==, s);
              k++;
              support_cost += ws_stack_db_get_entry (db, s)->cost;
            }
          if (s + 1 == ws_stack_db_get_n_entries (db))
            g_assert_cmpuint (k, ==, p->n_support);
        }
      g_assert_cmpint (support_cost, ==, p->cost);

      /* Sorted by decreasing cost. */
      if (i > 0)
        g_assert_cmpint (ws_pattern_set_get_pattern (set, i - 1)->cost, >=, p->cost);
    }
}

static void
test_random_vs_brute_force (gconstpointer data)
{
  const RandomParams *params = data;

  for (guint seed = 1; seed <= params->n_seeds; seed++)
    check_one_seed (seed * 7919u + params->max_depth, params);
}

static WsFrameId
frame (WsStackTable *table, const char *name)
{
  return ws_stack_table_intern_frame (table, name, "m");
}

static void
add (WsStackDb *db, guint stream, const char *stack, gint64 cost)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  g_auto(GStrv) names = g_strsplit (stack, " ", -1);
  WsFrameId ids[64];
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    ids[n++] = frame (table, names[i]);
  ws_stack_db_add (db, stream, ws_stack_table_intern_stack (table, ids, n), cost, 1);
}

static char *
pattern_string (WsPatternSet *set, guint i)
{
  WsStackDb *db = ws_pattern_set_get_stack_db (set);
  return ws_pattern_format (ws_pattern_set_get_pattern (set, i),
                            ws_stack_db_get_stack_table (db), " ");
}

/* The counter-example of ws-miner.c: "ab" is not maximal (a-e-b is costly)
 * but "abc" is, and is only reachable through the prefix "ab". */
static void
test_weaker_backscan_would_be_wrong (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *p0 = NULL, *p1 = NULL;

  ws_stack_db_add_stream (db, "t");
  add (db, 0, "a e b", 10);
  add (db, 0, "a b c", 10);

  set = ws_miner_mine (db, 10, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 2);
  p0 = pattern_string (set, 0);
  p1 = pattern_string (set, 1);
  /* Equal costs: ties ordered by frame ids (a=0, e=1, b=2, c=3). */
  g_assert_cmpstr (p0, ==, "a e b");
  g_assert_cmpstr (p1, ==, "a b c");

  /* At λ = 20 only what both share: "a b". */
  g_clear_pointer (&set, ws_pattern_set_unref);
  set = ws_miner_mine (db, 20, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 1);
  g_free (p0);
  p0 = pattern_string (set, 0);
  g_assert_cmpstr (p0, ==, "a b");
  g_assert_cmpint (ws_pattern_set_get_pattern (set, 0)->cost, ==, 20);
}

/* Identical stacks are merged before mining; the pattern of a stack that
 * differs only in its callers is the common tail with the common root. */
static void
test_hand_example (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  const WsStackDbEntry *e;

  ws_stack_db_add_stream (db, "t0");
  ws_stack_db_add_stream (db, "t1");
  add (db, 0, "main run query lock_wait sleep", 30);
  add (db, 1, "main run query lock_wait sleep", 20);
  add (db, 0, "main run update lock_wait sleep", 40);
  add (db, 1, "main idle poll", 45);
  add (db, 1, "main idle poll", 5);

  g_assert_cmpuint (ws_stack_db_get_n_entries (db), ==, 3);
  e = ws_stack_db_get_entry (db, 0);
  g_assert_cmpint (e->cost, ==, 50);
  g_assert_cmpuint (e->n_events, ==, 2);
  g_assert_cmpuint (e->n_shares, ==, 2);
  g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 140);
  g_assert_cmpint (ws_stack_db_get_stream_cost (db, 1), ==, 70);
  g_assert_cmpint (ws_stack_db_get_stream_delay_max (db, 1), ==, 45);

  /* λ = 50: the query stack (50) is costly, so the common lock-wait part
   * "main run lock_wait sleep" (90) is not maximal; the update stack (40)
   * is not costly; "main idle poll" costs 50. */
  set = ws_miner_mine (db, 50, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 2);
  {
    g_autofree char *p0 = pattern_string (set, 0);
    g_autofree char *p1 = pattern_string (set, 1);
    const WsPattern *p = ws_pattern_set_get_pattern (set, 1);

    g_assert_cmpstr (p0, ==, "main run query lock_wait sleep");
    g_assert_cmpint (ws_pattern_set_get_pattern (set, 0)->cost, ==, 50);
    /* "main idle poll" also costs 50 and sorts after by frame ids. */
    g_assert_cmpstr (p1, ==, "main idle poll");
    g_assert_cmpint (p->cost, ==, 50);
    g_assert_cmpuint (p->n_events, ==, 2);
    g_assert_cmpuint (p->n_streams, ==, 1);
  }

  /* λ = 51: only the merged lock wait pattern. */
  g_clear_pointer (&set, ws_pattern_set_unref);
  set = ws_miner_mine (db, 51, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 1);
  {
    g_autofree char *p0 = pattern_string (set, 0);
    const WsPattern *p = ws_pattern_set_get_pattern (set, 0);

    g_assert_cmpstr (p0, ==, "main run lock_wait sleep");
    g_assert_cmpint (p->cost, ==, 90);
    g_assert_cmpuint (p->n_events, ==, 3);
    g_assert_cmpuint (p->n_streams, ==, 2);
    g_assert_cmpuint (p->n_support, ==, 2);
  }
}

/* A deep stack repeated many times: 2^60 costly subsequences, one maximal
 * pattern; BackScan must keep the search linear. */
static void
test_deep_stacks_do_not_blow_up (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  WsFrameId ids[60], variant[60];

  ws_stack_db_add_stream (db, "t");
  for (guint i = 0; i < 60; i++)
    {
      g_autofree char *name = g_strdup_printf ("frame_%u", i);
      ids[i] = frame (table, name);
    }
  memcpy (variant, ids, sizeof ids);
  variant[10] = frame (table, "other_caller");

  for (guint i = 0; i < 1000; i++)
    ws_stack_db_add (db, 0, ws_stack_table_intern_stack (table, i % 2 ? ids : variant, 60), 1000, 1);

  /* Each full stack costs 500000: above that, only their common part. */
  set = ws_miner_mine (db, 600000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 1);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 0)->n_frames, ==, 59);
  g_assert_cmpint (ws_pattern_set_get_pattern (set, 0)->cost, ==, 1000000);
  g_assert_cmpuint (ws_pattern_set_get_stats (set)->n_nodes, <, 5000);

  g_clear_pointer (&set, ws_pattern_set_unref);
  set = ws_miner_mine (db, 500000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), ==, 2);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 0)->n_frames, ==, 60);
  g_assert_cmpuint (ws_pattern_set_get_pattern (set, 1)->n_frames, ==, 60);
}

static void
test_cancel_and_bad_lambda (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  WsPatternSet *set;

  ws_stack_db_add_stream (db, "t");
  add (db, 0, "a b c", 10);

  set = ws_miner_mine (db, 0, NULL, NULL, NULL, &error);
  g_assert_null (set);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  set = ws_miner_mine (db, 5, cancellable, NULL, NULL, &error);
  g_assert_null (set);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
}

static void
test_lambda_guideline (void)
{
  /* StackMine §V: 10 % of 1000 streams × 0.3 s = 30 s. */
  g_assert_cmpint (ws_miner_lambda_from_guideline (0.10, 300 * G_GINT64_CONSTANT (1000000), 1000),
                   ==, 30 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (ws_miner_lambda_from_guideline (0.5, 3, 1), ==, 2);
}

/* Stacks from another table are remapped frame by frame. */
static void
test_remap (void)
{
  g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
  g_autoptr(WsStackTable) other = ws_stack_table_new ();
  WsFrameId f[2];
  WsStackId s, mapped;
  guint n;
  const WsFrameId *got;

  ws_stack_db_add_stream (db, "t");
  ws_stack_table_intern_frame (other, "padding", "x");
  f[0] = ws_stack_table_intern_frame (other, "main", "app");
  f[1] = ws_stack_table_intern_frame (other, "leaf", "libc");
  s = ws_stack_table_intern_stack (other, f, 2);

  ws_stack_db_add_from (db, 0, other, s, 7);
  ws_stack_db_add_from (db, 0, other, s, 8);
  mapped = ws_stack_db_import_stack (db, other, s);
  g_assert_cmpuint (ws_stack_db_get_n_entries (db), ==, 1);
  g_assert_cmpuint (ws_stack_db_get_entry (db, 0)->stack, ==, mapped);
  g_assert_cmpint (ws_stack_db_get_entry (db, 0)->cost, ==, 15);
  got = ws_stack_table_get_stack (ws_stack_db_get_stack_table (db), mapped, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (ws_stack_table_get_frame (ws_stack_db_get_stack_table (db), got[1])->module, ==, "libc");
  g_assert_cmpuint (ws_stack_table_get_n_frames (ws_stack_db_get_stack_table (db)), ==, 2);
}

int
main (int argc, char *argv[])
{
  static const RandomParams small = { 3, 8, 5, 3000 };
  static const RandomParams wide = { 6, 12, 7, 1500 };
  static const RandomParams deep = { 2, 10, 11, 400 };
  static const RandomParams many = { 4, 60, 6, 200 };

  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/miner/brute-force/small", &small, test_random_vs_brute_force);
  g_test_add_data_func ("/miner/brute-force/wide", &wide, test_random_vs_brute_force);
  g_test_add_data_func ("/miner/brute-force/deep-repeats", &deep, test_random_vs_brute_force);
  g_test_add_data_func ("/miner/brute-force/many-stacks", &many, test_random_vs_brute_force);
  g_test_add_func ("/miner/weaker-backscan-would-be-wrong", test_weaker_backscan_would_be_wrong);
  g_test_add_func ("/miner/hand-example", test_hand_example);
  g_test_add_func ("/miner/deep-stacks", test_deep_stacks_do_not_blow_up);
  g_test_add_func ("/miner/cancel-and-bad-lambda", test_cancel_and_bad_lambda);
  g_test_add_func ("/miner/lambda-guideline", test_lambda_guideline);
  g_test_add_func ("/stack-db/remap", test_remap);

  return g_test_run ();
}
