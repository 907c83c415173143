/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Impact analysis, Algorithm 1 and contrast mining on graphs small enough
 * to work out by hand (the numbers in the comments), and the paper's
 * motivating case (tests/data/paper-case.json, made by make-paper-case.py).
 */
#include "config.h"

#include <gio/gio.h>

#include "ws-awg.h"
#include "ws-contrast.h"
#include "ws-error.h"
#include "ws-impact.h"
#include "ws-json-trace.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"

#define MS 1000000

/*
 * Three instances of "op", times in ms, component "app":
 *   A [0,100]: run 0-10 (main, app) · wait 10-90 in lock, readied by H's
 *     unlock at 90 · run 90-100 in libc (no component frame)
 *   B [0,100]: wait 5-95 in poll (no component), readied by H at 95 · run 95-100
 *   C [30,100]: wait 30-85 (no component), readied by H at 85 · run 85-100
 *   H: run 20-40 compute · D-state wait 40-80 in flush, woken by a block
 *     I/O interrupt at 80 · run 80-88 worker
 */
static const char small_trace[] =
  "{\"format\":\"waitscope-trace\",\"version\":1,\"name\":\"small\","
  "\"threads\":[{\"tid\":1,\"name\":\"A\"},{\"tid\":2,\"name\":\"B\"},{\"tid\":3,\"name\":\"H\"},"
  "{\"tid\":5,\"name\":\"C\"},{\"tid\":9,\"name\":\"idle\"}],"
  "\"events\":["
  "{\"kind\":\"running\",\"t\":0,\"dur\":10000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]},"
  "{\"kind\":\"wait\",\"t\":10000000,\"dur\":80000000,\"tid\":1,\"state\":\"S\",\"peer\":2,\"stack\":[\"main (app)\",\"lock (app)\"]},"
  "{\"kind\":\"unwait\",\"t\":90000000,\"tid\":3,\"target\":1,\"stack\":[\"worker (app)\",\"unlock (app)\"]},"
  "{\"kind\":\"running\",\"t\":90000000,\"dur\":10000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (libc)\"]},"
  "{\"kind\":\"wait\",\"t\":5000000,\"dur\":90000000,\"tid\":2,\"state\":\"S\",\"peer\":5,\"stack\":[\"bmain (other)\",\"poll (kernel)\"]},"
  "{\"kind\":\"unwait\",\"t\":95000000,\"tid\":3,\"target\":2,\"stack\":[\"worker (app)\",\"notify (app)\"]},"
  "{\"kind\":\"running\",\"t\":95000000,\"dur\":5000000,\"tid\":2,\"flags\":[\"span\"],\"stack\":[\"bmain (other)\"]},"
  "{\"kind\":\"running\",\"t\":20000000,\"dur\":20000000,\"tid\":3,\"flags\":[\"span\"],\"stack\":[\"worker (app)\",\"compute (app)\"]},"
  "{\"kind\":\"wait\",\"t\":40000000,\"dur\":40000000,\"tid\":3,\"state\":\"D\",\"flags\":[\"uninterruptible\"],\"peer\":9,"
  "\"stack\":[\"worker (app)\",\"flush (app)\",\"io_schedule ([kernel])\"]},"
  "{\"kind\":\"hw-service\",\"t\":80000000,\"tid\":9,\"target\":3,\"stack\":[\"irq ([kernel])\",\"blk_mq_end_request ([kernel])\"]},"
  "{\"kind\":\"running\",\"t\":80000000,\"dur\":8000000,\"tid\":3,\"flags\":[\"span\"],\"stack\":[\"worker (app)\"]},"
  "{\"kind\":\"wait\",\"t\":30000000,\"dur\":55000000,\"tid\":5,\"state\":\"S\",\"peer\":12,\"stack\":[\"cmain (other)\"]},"
  "{\"kind\":\"unwait\",\"t\":85000000,\"tid\":3,\"target\":5,\"stack\":[\"worker (app)\",\"notify (app)\"]},"
  "{\"kind\":\"running\",\"t\":85000000,\"dur\":15000000,\"tid\":5,\"flags\":[\"span\"],\"stack\":[\"cmain (other)\"]}"
  "],\"scenario_instances\":["
  "{\"scenario\":\"op\",\"tid\":1,\"t0\":0,\"t1\":100000000},"
  "{\"scenario\":\"op\",\"tid\":2,\"t0\":0,\"t1\":100000000},"
  "{\"scenario\":\"op\",\"tid\":5,\"t0\":30000000,\"t1\":100000000}]}";

static WsInstanceSet *
load_small (void)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (small_trace, sizeof small_trace - 1, NULL);
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_json_trace_load_stream (in, "small.json", stacks, NULL, NULL, NULL, &error);
  WsInstanceSet *set;

  g_assert_no_error (error);
  set = ws_instance_set_new ();
  g_assert_cmpuint (ws_instance_set_add_trace (set, trace, "op"), ==, 3);
  return set;
}

static void
test_impact_small (void)
{
  g_autoptr(WsInstanceSet) set = load_small ();
  const char *components[] = { "app", "nothing-matches", NULL };
  WsImpactSettings settings = { components, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = ws_impact_run (set, &settings, NULL, NULL, NULL, &error);
  const WsImpact *m;

  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  m = &g_array_index (rows, WsImpact, 0);
  g_assert_cmpuint (m->n_instances, ==, 3);
  /* D_scn: A 10+80+10, B 90+5, C 55+15. */
  g_assert_cmpint (m->d_scn, ==, 265 * MS);
  /* D_wait: A's own lock wait (80); B and C wait outside the component, so
   * the search goes on to H's flush wait (40) in both. */
  g_assert_cmpint (m->d_wait, ==, 160 * MS);
  g_assert_cmpuint (m->n_waits, ==, 3);
  /* D_waitdist: H's flush wait counted once. */
  g_assert_cmpint (m->d_waitdist, ==, 120 * MS);
  g_assert_cmpuint (m->n_distinct_waits, ==, 2);
  /* D_run: A 10 (main; 90-100 is libc); H 20 + 8 in A's and B's graphs, 20 in C's. */
  g_assert_cmpint (m->d_run, ==, 86 * MS);
  g_assert_cmpfloat_with_epsilon (m->ia_run, 86.0 / 265, 1e-9);
  g_assert_cmpfloat_with_epsilon (m->ia_wait, 160.0 / 265, 1e-9);
  g_assert_cmpfloat_with_epsilon (m->ia_opt, 40.0 / 265, 1e-9);
  g_assert_cmpfloat_with_epsilon (m->wait_ratio, 160.0 / 120, 1e-9);

  m = &g_array_index (rows, WsImpact, 1);
  g_assert_cmpint (m->d_scn, ==, 265 * MS);
  g_assert_cmpint (m->d_wait, ==, 0);
  g_assert_cmpint (m->d_run, ==, 0);
  g_assert_cmpfloat (m->wait_ratio, ==, 0);
}

static guint
find (WsAwg *awg, guint32 parent, WsAwgNodeKind kind, const char *sig)
{
  WsSignatures *sigs = ws_awg_get_signatures (awg);

  for (guint i = 0; i < ws_awg_get_n_nodes (awg); i++)
    {
      const WsAwgNode *n = ws_awg_get_node (awg, i);
      WsSigId s = kind == WS_AWG_WAITING ? n->w : n->r;

      if (n->parent == parent && n->kind == kind && g_strcmp0 (ws_signatures_get_name (sigs, s), sig) == 0)
        return i;
    }
  return G_MAXUINT32;
}

static void
test_awg_small (void)
{
  g_autoptr(WsInstanceSet) set = load_small ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsSignatures) sigs = ws_signatures_new ("app", FALSE, &error);
  g_autoptr(WsAwg) awg = ws_awg_build (set, sigs, NULL, NULL, NULL, NULL, 0, 1, &error);
  guint n_roots = 0, n_inst = 0, lock, flush, compute;
  const guint32 *inst;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_awg_get_n_graphs (awg), ==, 3);
  /* Before ReduceAWG the roots were: A's main run (10), A's lock wait (80);
   * B's and C's irrelevant waits removed, promoting H's compute run
   * (20 + 20), flush wait (40 + 40) and worker run (8, B only). */
  g_assert_cmpint (ws_awg_get_total_cost (awg), ==, 218 * MS);
  /* The flush root points to one hardware leaf: pruned. */
  g_assert_cmpuint (ws_awg_get_n_pruned (awg), ==, 1);
  g_assert_cmpint (ws_awg_get_pruned_cost (awg), ==, 80 * MS);
  g_assert_cmpuint (ws_awg_get_n_nodes (awg), ==, 8);
  ws_awg_get_roots (awg, &n_roots);
  g_assert_cmpuint (n_roots, ==, 4);

  lock = find (awg, G_MAXUINT32, WS_AWG_WAITING, "lock");
  g_assert_cmpuint (lock, !=, G_MAXUINT32);
  g_assert_cmpstr (ws_signatures_get_name (sigs, ws_awg_get_node (awg, lock)->u), ==, "unlock");
  g_assert_cmpint (ws_awg_get_node (awg, lock)->c, ==, 80 * MS);
  flush = find (awg, lock, WS_AWG_SERVICED, "flush");
  g_assert_cmpuint (flush, !=, G_MAXUINT32);
  g_assert_cmpint (ws_awg_get_node (awg, flush)->c, ==, 40 * MS);
  g_assert_cmpuint (find (awg, flush, WS_AWG_HARDWARE, "DiskService"), !=, G_MAXUINT32);
  g_assert_cmpuint (find (awg, lock, WS_AWG_RUNNING, "worker"), !=, G_MAXUINT32);
  /* A's one chain, executed once: its delays along the path summed.  The
   * lock wait alone 80; then H's flush 80 + 40; the disk adds nothing (it
   * is the flush's own cost again); H's worker run after the flush 80 + 8. */
  g_assert_cmpint (ws_awg_get_node (awg, lock)->c_path_max, ==, 80 * MS);
  g_assert_cmpint (ws_awg_get_node (awg, flush)->c_path_max, ==, 120 * MS);
  g_assert_cmpint (ws_awg_get_node (awg, find (awg, flush, WS_AWG_HARDWARE, "DiskService"))->c_path_max, ==, 120 * MS);
  g_assert_cmpint (ws_awg_get_node (awg, find (awg, lock, WS_AWG_RUNNING, "worker"))->c_path_max, ==, 88 * MS);

  compute = find (awg, G_MAXUINT32, WS_AWG_RUNNING, "compute");
  g_assert_cmpuint (compute, !=, G_MAXUINT32);
  g_assert_cmpint (ws_awg_get_node (awg, compute)->c, ==, 40 * MS);
  g_assert_cmpuint (ws_awg_get_node (awg, compute)->n, ==, 2);
  inst = ws_awg_get_node_instances (awg, compute, &n_inst);
  g_assert_cmpuint (n_inst, ==, 2);
  g_assert_cmpuint (inst[0], ==, 1);
  g_assert_cmpuint (inst[1], ==, 2);
  g_assert_cmpuint (find (awg, G_MAXUINT32, WS_AWG_SERVICED, "flush"), ==, G_MAXUINT32);
  g_assert_cmpuint (find (awg, G_MAXUINT32, WS_AWG_RUNNING, "main"), !=, G_MAXUINT32);
}

static void
test_widen (void)
{
  g_autoptr(WsInstanceSet) set = load_small ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsSignatures) sigs = ws_signatures_new ("app", TRUE, &error);
  g_autoptr(WsAwg) awg = ws_awg_build (set, sigs, NULL, NULL, NULL, NULL, 0, 1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (find (awg, G_MAXUINT32, WS_AWG_WAITING, "lock ← main"), !=, G_MAXUINT32);
  g_assert_null (ws_signatures_new ("(", FALSE, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
}

static void
test_paper_case (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "paper-case.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(WsContrastResult) r = NULL;
  WsContrastSettings s = { .component = "\\.sys\\)", .t_fast = 300 * MS, .t_slow = 500 * MS };
  const WsContrastPattern *top, *second;
  g_autofree char *text = NULL;
  g_autoptr(GArray) inst = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_add_trace (set, trace, "BrowserTabCreate"), ==, 11);
  s.instances = set;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_get_n (ws_contrast_result_get_fast (r)), ==, 6);
  g_assert_cmpuint (ws_instance_set_get_n (ws_contrast_result_get_slow (r)), ==, 5);

  /* ⟨{QueryFileTable, AcquireMDU}, {QueryFileTable, AcquireMDU}, {ReadDecrypt, DiskService}⟩ first. */
  top = ws_contrast_result_get_top_pattern (r);
  g_assert_nonnull (top);
  text = ws_contrast_result_format_pattern (r, top);
  g_test_message ("top pattern %s", text);
  g_assert_cmpuint (top->n_w, ==, 2);
  g_assert_cmpuint (top->n_u, ==, 2);
  g_assert_cmpuint (top->n_r, ==, 2);
  for (guint set_i = 0; set_i < 2; set_i++)
    {
      g_assert_true (ws_contrast_pattern_has (r, top, set_i, "QueryFileTable"));
      g_assert_true (ws_contrast_pattern_has (r, top, set_i, "AcquireMDU"));
    }
  g_assert_true (ws_contrast_pattern_has (r, top, 2, "ReadDecrypt"));
  g_assert_true (ws_contrast_pattern_has (r, top, 2, "DiskService"));
  /* Three disk instances, 700 ms of disk each. */
  g_assert_cmpint (top->c, ==, 2100 * (gint64) MS);
  g_assert_cmpuint (top->n, ==, 3);
  g_assert_true (top->high_impact);
  inst = ws_contrast_result_dup_pattern_instances (r, 0);
  g_assert_cmpuint (inst->len, ==, 3);

  /* Then W1 computing in HashEntries, 580 ms per time. */
  second = ws_contrast_result_get_pattern (r, 1);
  g_assert_true (ws_contrast_pattern_has (r, second, 2, "HashEntries"));
  g_assert_cmpint (second->c / (gint64) second->n, ==, 580 * MS);

  /* Ranked by total cost; coverage grows to 1. */
  g_assert_cmpint (ws_contrast_result_get_rank (r), ==, WS_CONTRAST_RANK_TOTAL);
  for (guint i = 1; i < ws_contrast_result_get_n_patterns (r); i++)
    g_assert_cmpint (ws_contrast_result_get_pattern (r, i - 1)->c, >=, ws_contrast_result_get_pattern (r, i)->c);
  g_assert_cmpfloat_with_epsilon (ws_contrast_result_get_coverage (r, 100), 1.0, 1e-9);
  g_assert_cmpfloat (ws_contrast_result_get_itc (r), <=, ws_contrast_result_get_ttc (r));
  g_assert_cmpfloat (ws_contrast_result_get_itc (r), >, 0.5);
}

static void
test_paper_case_fast_only (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "paper-case.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(WsInstanceSet) fast = NULL;
  g_autoptr(WsContrastResult) r = NULL;
  WsContrastSettings s = { .component = "\\.sys\\)" };

  g_assert_no_error (error);
  ws_instance_set_add_trace (set, trace, "BrowserTabCreate");
  /* The same class on both sides: nothing contrasts. */
  fast = ws_instance_set_filter (set, -1, 100 * MS);
  s.fast = fast;
  s.slow = fast;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_contrast_result_get_n_patterns (r), ==, 0);
  g_assert_null (ws_contrast_result_get_top_pattern (r));
}

/*
 * The recorded PostgreSQL pair (tools/record-pg-contrast.sh): pgbench on a
 * small disk, alone, then with two fsync-heavy dd loops sharing the disk.
 * The backends queue on the branch-row lock in both; what makes the slow
 * run slow is the lock holders' WAL flush waiting for the disk, and that is
 * what the top pattern must name — not the lock wait.
 */
static void
test_pg_pair (void)
{
  const char *data = g_getenv ("WS_TEST_DATA");
  g_autofree char *fast_path = g_build_filename (data, "pg-contrast-fast.perf.txt.gz", NULL);
  g_autofree char *slow_path = g_build_filename (data, "pg-contrast-slow.perf.txt.gz", NULL);
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) fast_trace = ws_trace_loader_load_full (fast_path, stacks, rules, NULL, NULL, NULL, &error);
  g_autoptr(WsTrace) slow_trace = NULL;
  g_autoptr(WsInstanceSet) fast = ws_instance_set_new ();
  g_autoptr(WsInstanceSet) slow = ws_instance_set_new ();
  g_autoptr(WsContrastResult) r = NULL;
  WsContrastSettings s = { .component = "postgres" };
  const WsContrastPattern *top;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  slow_trace = ws_trace_loader_load_full (slow_path, stacks, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_add_trace (fast, fast_trace, "transaction"), >, 50);
  g_assert_cmpuint (ws_instance_set_add_trace (slow, slow_trace, "transaction"), >, 10);
  g_assert_cmpint (ws_instance_set_percentile (slow, 0.5), >, 2 * ws_instance_set_percentile (fast, 0.5));

  s.fast = fast;
  s.slow = slow;
  r = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  top = ws_contrast_result_get_top_pattern (r);
  g_assert_nonnull (top);
  text = ws_contrast_result_format_pattern (r, top);
  g_test_message ("top pattern %s, C/N %.2f ms", text, top->c / 1e6 / top->n);
  /* The disk, through a WAL flush of the lock holders. */
  g_assert_true (ws_contrast_pattern_has (r, top, 2, "DiskService"));
  g_assert_true (ws_contrast_pattern_has (r, top, 2, "XLogFlush")
                 || ws_contrast_pattern_has (r, top, 2, "XLogBackgroundFlush"));
  /* The waiters' lock wait is in the wait set, not what ran. */
  g_assert_true (ws_contrast_pattern_has (r, top, 0, "WaitLatch"));
  g_assert_false (ws_contrast_pattern_has (r, top, 2, "WaitLatch"));
  g_assert_true (ws_contrast_pattern_has (r, top, 1, "LockReleaseAll"));

  /* No single disk service or CPU sample lasts T_slow, but the chains
   * whose last link they are (a backend's lock wait behind a holder's
   * flush) do: judged on the whole path, the disk patterns are of high
   * impact, so ITC is not 0. */
  g_assert_cmpint (top->c_max, <, ws_contrast_result_get_t_slow (r));
  g_assert_true (top->high_impact);
  g_assert_cmpfloat (ws_contrast_result_get_itc (r), >, 0.25);
  g_assert_cmpfloat (ws_contrast_result_get_itc (r), <=, ws_contrast_result_get_ttc (r));
}

/* Index of the pattern of @r with @p's tuple, or G_MAXUINT. */
static guint
find_tuple (WsContrastResult *r, WsContrastResult *in, const WsContrastPattern *p)
{
  g_autofree char *want = ws_contrast_result_format_pattern (in, p);

  for (guint i = 0; i < ws_contrast_result_get_n_patterns (r); i++)
    {
      g_autofree char *got = ws_contrast_result_format_pattern (r, ws_contrast_result_get_pattern (r, i));
      if (g_str_equal (got, want))
        return i;
    }
  return G_MAXUINT;
}

/* The two orders rank the same patterns, each by its own key, and the
 * coverage of the top n % is the prefix sum in that order (an oracle
 * recomputed here).  On the paper's case and on the small trace. */
static void
check_orders (WsContrastSettings *s)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsContrastResult) total = NULL, average = NULL;
  guint n;
  WsTime all = 0;

  s->rank = WS_CONTRAST_RANK_TOTAL;
  total = ws_contrast_run (s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  s->rank = WS_CONTRAST_RANK_AVERAGE;
  average = ws_contrast_run (s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n = ws_contrast_result_get_n_patterns (total);
  g_assert_cmpuint (n, ==, ws_contrast_result_get_n_patterns (average));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpfloat (ws_contrast_result_get_itc (total), ==, ws_contrast_result_get_itc (average));
  for (guint i = 0; i < n; i++)
    {
      const WsContrastPattern *t = ws_contrast_result_get_pattern (total, i);
      const WsContrastPattern *a = ws_contrast_result_get_pattern (average, i);
      guint j = find_tuple (average, total, t);

      g_assert_cmpuint (j, !=, G_MAXUINT);
      g_assert_cmpint (ws_contrast_result_get_pattern (average, j)->c, ==, t->c);
      g_assert_cmpint (t->high_impact, ==, t->c_path_max > ws_contrast_result_get_t_slow (total));
      if (i > 0)
        {
          const WsContrastPattern *tp = ws_contrast_result_get_pattern (total, i - 1);
          const WsContrastPattern *ap = ws_contrast_result_get_pattern (average, i - 1);

          g_assert_cmpint (tp->c, >=, t->c);
          g_assert_cmpfloat ((double) ap->c / ap->n, >=, (double) a->c / a->n);
        }
      all += t->c;
    }
  for (guint pct = 10; pct <= 100; pct += 10)
    {
      WsTime acc = 0;

      for (guint i = 0; i < (pct * n + 99) / 100; i++)
        acc += ws_contrast_result_get_pattern (total, i)->c;
      g_assert_cmpfloat_with_epsilon (ws_contrast_result_get_coverage (total, pct), (double) acc / all, 1e-9);
    }
}

static void
test_rank_orders (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "paper-case.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(WsInstanceSet) small = load_small ();
  WsContrastSettings s = { .component = "\\.sys\\)", .t_fast = 300 * MS, .t_slow = 500 * MS };
  WsContrastSettings s2 = { .component = "app", .t_fast = 70 * MS, .t_slow = 100 * MS };
  WsContrastRank rank;

  g_assert_no_error (error);
  ws_instance_set_add_trace (set, trace, "BrowserTabCreate");
  s.instances = set;
  check_orders (&s);
  s2.instances = small;
  check_orders (&s2);

  g_assert_true (ws_contrast_rank_from_string ("average", &rank));
  g_assert_cmpint (rank, ==, WS_CONTRAST_RANK_AVERAGE);
  g_assert_cmpstr (ws_contrast_rank_to_string (rank), ==, "average");
  g_assert_false (ws_contrast_rank_from_string ("C/N", &rank));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/contrast/impact-small", test_impact_small);
  g_test_add_func ("/contrast/awg-small", test_awg_small);
  g_test_add_func ("/contrast/widen", test_widen);
  g_test_add_func ("/contrast/paper-case", test_paper_case);
  g_test_add_func ("/contrast/paper-case-same-class", test_paper_case_fast_only);
  g_test_add_func ("/contrast/pg-pair", test_pg_pair);
  g_test_add_func ("/contrast/rank-orders", test_rank_orders);
  return g_test_run ();
}
