/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The similarity model of StackMine §VI on worked examples: word splitting,
 * Sub() of named pairs (the functions of the paper's GetShortPathName
 * example and of our own traces), an alignment and its Sim(A) computed by
 * hand (written out below), the Uni/FBi/BBi counts of a small history.
 */
#include "config.h"

#include <math.h>

#include "ws-similarity.h"

static void
assert_words (const char *name, const char *expected)
{
  g_auto(GStrv) words = ws_similarity_split_words (name);
  g_autofree char *joined = g_strjoinv (" ", words);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_split_words (void)
{
  assert_words ("GetShortPathName", "get short path name");
  assert_words ("GetShortPathNameW", "get short path name w");
  assert_words ("ntdll.dll!RtlUserThreadStart", "ntdll dll rtl user thread start");
  assert_words ("HTTPServer::handle_request", "http server handle request");
  assert_words ("__x64_sys_futex", "x64 sys futex");
  assert_words ("XactLockTableWait", "xact lock table wait");
  assert_words ("postgres!heap_lock_tuple", "postgres heap lock tuple");
  assert_words ("[unknown]", "unknown");
  assert_words ("clock_nanosleep@GLIBC_2.2.5", "clock nanosleep glibc 2 2 5");
  assert_words ("", "");
}

static void
test_sub_named_pairs (void)
{
  /* The paper's third-party example (§I, §VII.B.2). */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("GetShortPathName", "GetLongPathName"),
                                  1.0 - 2.0 * 3 / 8, 1e-12);                 /* 0.25 */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("GetHashCode", "GetShortPathName"),
                                  1.0 - 2.0 * 1 / 7, 1e-12);                 /* 5/7 */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("InitComponents", "MmAccessFault"), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("GetHashCode", "GetHashCode"), 0.0, 1e-12);
  /* Windows "module!function" names: the module is a word too. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("kernel32.dll!GetShortPathNameW",
                                                           "kernel32.dll!GetLongPathNameW"),
                                  1.0 - 2.0 * 6 / 14, 1e-12);
  /* PostgreSQL's two row-lock paths. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("heap_lock_tuple", "heap_update"),
                                  1.0 - 2.0 * 1 / 5, 1e-12);                 /* 0.6 */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("XactLockTableWait", "LockAcquireExtended"),
                                  1.0 - 2.0 * 1 / 7, 1e-12);
  /* Words are a multiset: "LockLock" shares one "lock" with "Lock". */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("LockLock", "Lock"), 1.0 - 2.0 / 3, 1e-12);
  /* Case-insensitive across conventions. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub_names ("get_short_path_name", "GetShortPathName"),
                                  0.0, 1e-12);
}

static void
test_frame_names (void)
{
  WsFrame a = { "ProcSleep", "/usr/lib/postgresql/15/bin/postgres" };
  WsFrame b = { "schedule", "[kernel.kallsyms]" };
  WsFrame c = { "[unknown]", "/usr/lib/x86_64-linux-gnu/libc.so.6" };
  g_autofree char *na = ws_similarity_frame_name (&a);
  g_autofree char *nb = ws_similarity_frame_name (&b);
  g_autofree char *nc = ws_similarity_frame_name (&c);
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsSimilarity) sim = ws_similarity_new (table);
  WsFrameId u1 = ws_stack_table_intern_frame (table, "[unknown]", "/usr/lib/postgresql/15/bin/postgres");
  WsFrameId u2 = ws_stack_table_intern_frame (table, "[unknown]", "/usr/lib/x86_64-linux-gnu/libc.so.6");
  WsFrameId p1 = ws_stack_table_intern_frame (table, "ProcSleep", "/usr/lib/postgresql/15/bin/postgres");
  WsFrameId p2 = ws_stack_table_intern_frame (table, "ProcSleep", "/usr/lib/x86_64-linux-gnu/libpq.so.5");
  WsFrameId h1 = ws_stack_table_intern_frame (table, "heap_update", "/usr/lib/postgresql/15/bin/postgres");
  WsFrameId l1 = ws_stack_table_intern_frame (table, "ProcLock", "/usr/lib/postgresql/15/bin/postgres");

  g_assert_cmpstr (na, ==, "postgres!ProcSleep");
  g_assert_cmpstr (nb, ==, "kernel!schedule");
  g_assert_cmpstr (nc, ==, "libc![unknown]");

  /* No symbol: {unknown, postgres} vs {unknown, libc}: 1 - 2/4, plus the
   * module tie-breaker. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, u1, u2), 0.5 + WS_SIMILARITY_MODULE_COST, 1e-12);
  /* {unknown, postgres} vs {proc, sleep}: nothing in common. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, u1, p1), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, p1, p1), 0.0, 1e-12);
  /* Function names decide; one module does not make functions similar
   * (issue 8), another module only breaks the tie between equal names. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, p1, h1), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, p1, p2), WS_SIMILARITY_MODULE_COST, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, p1, l1), 1.0 - 2.0 / 4, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (sim, p2, l1), 1.0 - 2.0 / 4 + WS_SIMILARITY_MODULE_COST, 1e-12);
}

/*
 * The worked example.  All frames are in module "app" (Sub compares the
 * function names; one module adds nothing):
 *
 *   A = main      {main}           L = A B C D
 *   B = RunQuery  {run, query}     R = A E C D F
 *   E = RunUpdate {run, update}
 *   C = LockWait  {lock, wait}
 *   D = sleep     {sleep}
 *   F = futex_wait {futex, wait}
 *
 * Sub(B, E) = 1 - 2·1/4 = 1/2.  The optimal alignment is
 * M(A) S(B,E) M(C) M(D) I(F), cost 1/2 + 1 = 3/2 (deleting B and inserting
 * E instead would cost 2).  Segments: M1 = [A], S1 = [(B,E)], M2 = [C, D],
 * I1 = [F].
 *
 * History: 10 callstacks; A in all 10, B in 4, E in 2, C in 5, D in 5, F
 * in 1, so Uni = 0, 0.6, 0.8, 0.5, 0.5, 0.9.  C has a callee 5 times, D a
 * caller 5 times, C→D occurs 4 times: FBi(C, D) = BBi(C, D) = 1 - 4/5.
 *
 *   ω(A) in M1 = 0 · (1 + 1)/2                 = 0
 *   ω(C) in M2 = 0.5 · (FBi(φ,C) + BBi(C,D))/2 = 0.5 · (1 + 0.2)/2 = 0.3
 *   ω(D) in M2 = 0.5 · (FBi(C,D) + BBi(D,φ))/2 = 0.5 · (0.2 + 1)/2 = 0.3
 *   W(S1) = Sub(B,E) · (ω(B) + ω(E))/2 = 1/2 · (0.6 + 0.8)/2 = 0.35
 *   W(I1) = ω(F) = 0.9
 *
 *   Sim = 0.6 / (0.6 + 0.9 + 0.35) = 0.6 / 1.85 = 12/37
 *
 * Without history every weight is 1: Sim = 3 / (3 + 1 + 1/2) = 2/3.
 */
typedef struct {
  WsStackTable *table;
  WsSimilarity *sim;
  WsFrameId A, B, C, D, E, F;
} Example;

static void
example_init (Example *ex)
{
  ex->table = ws_stack_table_new ();
  ex->sim = ws_similarity_new (ex->table);
  ex->A = ws_stack_table_intern_frame (ex->table, "main", "/opt/app");
  ex->B = ws_stack_table_intern_frame (ex->table, "RunQuery", "/opt/app");
  ex->C = ws_stack_table_intern_frame (ex->table, "LockWait", "/opt/app");
  ex->D = ws_stack_table_intern_frame (ex->table, "sleep", "/opt/app");
  ex->E = ws_stack_table_intern_frame (ex->table, "RunUpdate", "/opt/app");
  ex->F = ws_stack_table_intern_frame (ex->table, "futex_wait", "/opt/app");
}

static void
example_clear (Example *ex)
{
  g_clear_object (&ex->sim);
  g_clear_object (&ex->table);
}

static void
test_worked_alignment (void)
{
  Example ex;
  g_autoptr(GArray) steps = NULL;
  double cost;
  WsFrameId L[4], R[5];
  static const guint8 ops[] = { WS_ALIGN_MATCH, WS_ALIGN_SUBSTITUTE, WS_ALIGN_MATCH, WS_ALIGN_MATCH, WS_ALIGN_INSERT };
  struct { guint64 n; WsFrameId f; } uni[6];

  example_init (&ex);
  L[0] = ex.A; L[1] = ex.B; L[2] = ex.C; L[3] = ex.D;
  R[0] = ex.A; R[1] = ex.E; R[2] = ex.C; R[3] = ex.D; R[4] = ex.F;

  g_assert_cmpfloat_with_epsilon (ws_similarity_sub (ex.sim, ex.B, ex.E), 0.5, 1e-12);

  steps = ws_similarity_align (ex.sim, L, 4, R, 5, &cost);
  g_assert_cmpfloat_with_epsilon (cost, 1.5, 1e-12);
  g_assert_cmpuint (steps->len, ==, 5);
  for (guint k = 0; k < 5; k++)
    g_assert_cmpuint (g_array_index (steps, WsAlignStep, k).op, ==, ops[k]);
  g_assert_cmpuint (g_array_index (steps, WsAlignStep, 4).right, ==, 4);

  /* No history: every weight 1. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sim (ex.sim, L, 4, R, 5), 2.0 / 3, 1e-12);

  /* With the history of the comment above. */
  ws_similarity_set_n_callstacks (ex.sim, 10);
  uni[0].f = ex.A; uni[0].n = 10;
  uni[1].f = ex.B; uni[1].n = 4;
  uni[2].f = ex.E; uni[2].n = 2;
  uni[3].f = ex.C; uni[3].n = 5;
  uni[4].f = ex.D; uni[4].n = 5;
  uni[5].f = ex.F; uni[5].n = 1;
  for (guint i = 0; i < 6; i++)
    {
      WsFunctionCounts c = { uni[i].n, 0, 0 };

      if (uni[i].f == ex.C)
        c.n_with_callee = 5;
      if (uni[i].f == ex.D)
        c.n_with_caller = 5;
      ws_similarity_set_function (ex.sim, uni[i].f, &c);
    }
  ws_similarity_set_bigram (ex.sim, ex.C, ex.D, 4);

  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (ex.sim, ex.A), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (ex.sim, ex.E), 0.8, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (ex.sim, ex.C, ex.D), 0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_bbi (ex.sim, ex.C, ex.D), 0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (ex.sim, WS_FRAME_NONE, ex.C), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_bbi (ex.sim, ex.D, WS_FRAME_NONE), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_weight (ex.sim, WS_FRAME_NONE, ex.C, ex.D), 0.3, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_weight (ex.sim, ex.C, ex.D, WS_FRAME_NONE), 0.3, 1e-12);

  g_assert_cmpfloat_with_epsilon (ws_similarity_sim (ex.sim, L, 4, R, 5), 12.0 / 37, 1e-12);
  /* Symmetric here: the mirror alignment has the same segments. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sim (ex.sim, R, 5, L, 4), 12.0 / 37, 1e-12);
  /* Identical patterns. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_sim (ex.sim, R, 5, R, 5), 1.0, 1e-12);

  example_clear (&ex);
}

/*
 * Counting a small history:  S1 = A B C D,  S2 = A C D,  S3 = A B A.
 * 3 callstacks; A is in all three (S3 counts once), has a callee 3 times
 * (S1, S2, S3 position 0) and a caller once (S3 position 2); A→B occurs
 * twice, B has a caller twice and a callee twice (B→C in S1, B→A in S3).
 *
 *   Uni(A) = 0, Uni(B) = 1/3
 *   FBi(A, B) = 1 - 2/3 (A with a callee: 3)
 *   BBi(A, B) = 1 - 2/2 = 0 (B with a caller: 2)
 *
 * The paper's printed FBi denominator ("f2 with a callee", here B→C once)
 * would give 1 - 2/1 = -1, outside [0, 1]: see ws-similarity.c.
 */
static void
test_counts (void)
{
  Example ex;
  WsFrameId s1[4], s2[3], s3[3];

  example_init (&ex);
  s1[0] = ex.A; s1[1] = ex.B; s1[2] = ex.C; s1[3] = ex.D;
  s2[0] = ex.A; s2[1] = ex.C; s2[2] = ex.D;
  s3[0] = ex.A; s3[1] = ex.B; s3[2] = ex.A;
  ws_similarity_count_stack (ex.sim, s1, 4, 1);
  ws_similarity_count_stack (ex.sim, s2, 3, 1);
  ws_similarity_count_stack (ex.sim, s3, 3, 1);

  g_assert_cmpuint (ws_similarity_get_n_callstacks (ex.sim), ==, 3);
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (ex.sim, ex.A), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (ex.sim, ex.B), 1.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_uni (ex.sim, ex.F), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (ex.sim, ex.A, ex.B), 1.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_bbi (ex.sim, ex.A, ex.B), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (ex.sim, ex.C, ex.D), 0.0, 1e-12);
  /* B→A once out of B's two callees. */
  g_assert_cmpfloat_with_epsilon (ws_similarity_fbi (ex.sim, ex.B, ex.A), 0.5, 1e-12);

  example_clear (&ex);
}

/* The alignment is optimal: compare its cost with a brute-force edit
 * distance over all alignments on short random patterns. */
static double
brute_cost (WsSimilarity *sim, const WsFrameId *l, guint nl, const WsFrameId *r, guint nr)
{
  double best;

  if (nl == 0)
    return nr;
  if (nr == 0)
    return nl;
  best = brute_cost (sim, l + 1, nl - 1, r + 1, nr - 1) + ws_similarity_sub (sim, l[0], r[0]);
  best = MIN (best, brute_cost (sim, l + 1, nl - 1, r, nr) + 1.0);
  best = MIN (best, brute_cost (sim, l, nl, r + 1, nr - 1) + 1.0);
  return best;
}

static void
test_alignment_is_optimal (void)
{
  static const char * const names[] = {
    "LockAcquire", "LockRelease", "ProcSleep", "heap_update", "heap_lock_tuple", "WaitLatch",
  };
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsSimilarity) sim = ws_similarity_new (table);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  WsFrameId f[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    f[i] = ws_stack_table_intern_frame (table, names[i], "pg");

  for (guint round = 0; round < 300; round++)
    {
      WsFrameId l[6], r[6];
      guint nl = g_rand_int_range (rand, 0, 7), nr = g_rand_int_range (rand, 0, 7);
      double cost, sum = 0;
      g_autoptr(GArray) steps = NULL;

      for (guint i = 0; i < nl; i++)
        l[i] = f[g_rand_int_range (rand, 0, G_N_ELEMENTS (f))];
      for (guint i = 0; i < nr; i++)
        r[i] = f[g_rand_int_range (rand, 0, G_N_ELEMENTS (f))];

      steps = ws_similarity_align (sim, l, nl, r, nr, &cost);
      g_assert_cmpfloat_with_epsilon (cost, brute_cost (sim, l, nl, r, nr), 1e-9);

      /* The steps spell out an alignment of that cost. */
      for (guint k = 0; k < steps->len; k++)
        {
          const WsAlignStep *st = &g_array_index (steps, WsAlignStep, k);

          if (st->op == WS_ALIGN_MATCH)
            g_assert_cmpuint (l[st->left], ==, r[st->right]);
          else if (st->op == WS_ALIGN_SUBSTITUTE)
            sum += ws_similarity_sub (sim, l[st->left], r[st->right]);
          else
            sum += 1.0;
        }
      g_assert_cmpfloat_with_epsilon (sum, cost, 1e-9);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/similarity/split-words", test_split_words);
  g_test_add_func ("/similarity/sub-named-pairs", test_sub_named_pairs);
  g_test_add_func ("/similarity/frame-names", test_frame_names);
  g_test_add_func ("/similarity/worked-alignment", test_worked_alignment);
  g_test_add_func ("/similarity/counts", test_counts);
  g_test_add_func ("/similarity/alignment-is-optimal", test_alignment_is_optimal);

  return g_test_run ();
}
