/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * AOI extraction, mining, clustering and coverage on a hand-built trace and
 * on the shared real traces (tests/data).
 *
 * On pg-tpcb, every transaction (sdt_postgresql start → commit) is a trace
 * stream; its backend's waiting stacks are mined with λ from the paper's
 * guideline (1 % of the streams × their mean delay).  Checked against
 * independent computations over the trace's own events: each pattern's
 * cost, events and streams; maximality (no single frame can be inserted
 * anywhere while staying >= λ); the row-lock wait (ProcSleep ←
 * LockAcquireExtended ← XactLockTableWait / LockTuple ← heap_update) on
 * top, and its two variants, which differ only in LockAcquireExtended's
 * caller, in one cluster.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-aoi.h"
#include "ws-cli-test-util.h"
#include "ws-clusterer.h"
#include "ws-coverage.h"
#include "ws-history-store.h"
#include "ws-miner.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-trace-private.h"


/* ------------------------------------------------------------------ */
/* A hand-built trace                                                   */

static WsStackId
stack (WsStackTable *table, const char *text)
{
  g_auto(GStrv) names = g_strsplit (text, " ", -1);
  WsFrameId f[32];
  guint n = 0;

  for (guint i = 0; names[i] != NULL; i++)
    f[n++] = ws_stack_table_intern_frame (table, names[i], i == 0 ? "/usr/bin/app" : "[kernel.kallsyms]");
  return ws_stack_table_intern_stack (table, f, n);
}

static guint
add_event (WsTrace *t, guint thread, WsTime time, WsTime duration, WsEventKind kind,
           WsStackId s, guint8 flags, guint32 target)
{
  WsEvent e;

  ws_event_init (&e, kind, time, thread);
  if (duration != 0)
    ws_event_set_duration (&e, duration);
  e.stack = s;
  e.flags = flags;
  if (ws_event_is_named (&e))
    ws_event_set_name (&e, target);
  else if (ws_event_is_wake (&e))
    ws_event_set_target (&e, target);
  return ws_trace_add_event (t, &e);
}

/*
 * Thread 10: marker "begin" at 100, wait A (lock) 110-150, sample 160,
 *            wait B (io) 170-190, marker "end" at 200, wait A 210-260.
 * Thread 20: wait A 105-125, a running span 130-140, sample 150.
 */
static WsTrace *
hand_trace (void)
{
  WsTrace *t = ws_trace_new (NULL, NULL);
  WsStackTable *table = ws_trace_get_stack_table (t);
  guint a = ws_trace_ensure_thread (t, 10, 10), b = ws_trace_ensure_thread (t, 20, 10);
  WsStackId lock = stack (table, "main do_lock futex_wait schedule");
  WsStackId io = stack (table, "main do_io io_schedule schedule");
  WsStackId work = stack (table, "main compute");
  guint32 begin = ws_trace_intern_string (t, "begin"), end = ws_trace_intern_string (t, "end");

  add_event (t, a, 100, 0, WS_EVENT_MARKER, WS_STACK_EMPTY, 0, begin);
  add_event (t, a, 110, 40, WS_EVENT_WAIT, lock, 0, WS_NONE);
  add_event (t, a, 160, 4, WS_EVENT_RUNNING, work, 0, WS_NONE);
  add_event (t, a, 170, 20, WS_EVENT_WAIT, io, WS_EVENT_FLAG_UNINTERRUPTIBLE, WS_NONE);
  add_event (t, a, 200, 0, WS_EVENT_MARKER, WS_STACK_EMPTY, 0, end);
  add_event (t, a, 210, 50, WS_EVENT_WAIT, lock, 0, WS_NONE);
  add_event (t, b, 105, 20, WS_EVENT_WAIT, lock, 0, WS_NONE);
  add_event (t, b, 130, 10, WS_EVENT_RUNNING, work, WS_EVENT_FLAG_SPAN, WS_NONE);
  add_event (t, b, 150, 4, WS_EVENT_RUNNING, work, 0, WS_NONE);
  ws_trace_finish (t);
  g_assert_cmpuint (ws_trace_add_scenario_instances (t, "op", "begin", "end"), ==, 1);
  return t;
}

static void
test_aoi_hand (void)
{
  g_autoptr(WsTrace) t = hand_trace ();
  g_autoptr(WsAoi) waiting = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsAoi) running = ws_aoi_new (WS_AOI_RUNNING);
  g_autoptr(WsAoi) locks = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsAoi) no_locks = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsEventSet) window = NULL;
  g_autoptr(WsEventSet) thread20 = NULL;
  g_autoptr(GError) error = NULL;
  gint32 tid20 = 20;

  /* Whole trace: 4 waits (cost 40 + 20 + 50 + 20), 2 samples (the span is
   * not a sample). */
  {
    g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
    guint s = ws_stack_db_add_stream (db, "all");

    g_assert_cmpuint (ws_aoi_extract (waiting, t, NULL, db, s), ==, 4);
    g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 130);
    g_assert_cmpuint (ws_stack_db_get_n_entries (db), ==, 2);
    g_assert_cmpuint (ws_aoi_extract (running, t, NULL, db, s), ==, 2);
    g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 138);
  }

  /* The instance window [100, 200] of thread 10 (Fig. 2 line 3): the lock
   * wait 110-150, the io wait 170-190; not the wait at 210. */
  window = ws_aoi_scope_scenario (t, "op");
  g_assert_cmpuint (ws_event_set_count (window), ==, 5);   /* markers, 2 waits, sample */
  {
    g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
    guint s = ws_stack_db_add_stream (db, "op");

    g_assert_cmpuint (ws_aoi_extract (waiting, t, window, db, s), ==, 2);
    g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 60);
  }

  /* One stream per instance, with the instance's duration as delay. */
  {
    g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);

    g_assert_cmpuint (ws_aoi_extract_instances (waiting, t, "op", db), ==, 1);
    g_assert_cmpint (ws_stack_db_get_stream_delay_total (db, 0), ==, 100);
    g_assert_cmpstr (ws_stack_db_get_stream_name (db, 0), ==, "trace op #1");
    g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 60);
  }

  /* Threads: tid 20 only. */
  thread20 = ws_aoi_scope_threads (t, &tid20, 1);
  g_assert_cmpuint (ws_event_set_count (thread20), ==, 3);
  {
    g_autoptr(WsStackDb) db = ws_stack_db_new (NULL);
    guint s = ws_stack_db_add_stream (db, "t20");

    g_assert_cmpuint (ws_aoi_extract (running, t, thread20, db, s), ==, 1);
    g_assert_cmpint (ws_stack_db_get_total_cost (db), ==, 4);
  }

  /* Content: frames are matched as "function (module)". */
  g_assert_true (ws_aoi_add_must (locks, "^futex_wait \\(\\[kernel", &error));
  g_assert_true (ws_aoi_add_must_not (no_locks, "futex", &error));
  g_assert_false (ws_aoi_add_must (locks, "(unclosed", &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);
  {
    g_autoptr(WsStackDb) a = ws_stack_db_new (NULL);
    g_autoptr(WsStackDb) b = ws_stack_db_new (NULL);

    ws_stack_db_add_stream (a, "a");
    ws_stack_db_add_stream (b, "b");
    g_assert_cmpuint (ws_aoi_extract (locks, t, NULL, a, 0), ==, 3);
    g_assert_cmpint (ws_stack_db_get_total_cost (a), ==, 110);
    g_assert_cmpuint (ws_aoi_extract (no_locks, t, NULL, b, 0), ==, 1);
    g_assert_cmpint (ws_stack_db_get_total_cost (b), ==, 20);
  }
}

/* ------------------------------------------------------------------ */
/* pg-tpcb                                                              */

static WsTrace *
load (const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), file, NULL);
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static gboolean
pattern_has (WsStackTable *table, const WsPattern *p, const char *function)
{
  for (guint i = 0; i < p->n_frames; i++)
    if (g_str_equal (ws_stack_table_get_frame (table, p->frames[i])->function, function))
      return TRUE;
  return FALSE;
}

/* Cost of a pattern by scanning every transaction's waits in the trace
 * itself (not the database). */
static gint64
scan_cost (WsTrace *trace, const WsFrameId *pattern, guint n, guint64 *events, guint *streams)
{
  WsStackTable *table = ws_trace_get_stack_table (trace);
  guint32 scenario = ws_trace_lookup_string (trace, "transaction");
  gint64 cost = 0;

  *events = 0;
  *streams = 0;
  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      const WsThread *th = ws_trace_get_thread (trace, inst->thread);
      gboolean hit = FALSE;

      if (inst->scenario != scenario)
        continue;
      for (guint k = 0; k < th->n_events; k++)
        {
          const WsEvent *e = ws_trace_get_event (trace, th->events[k]);
          const WsFrameId *f;
          guint nf;

          if (e->kind != WS_EVENT_WAIT || e->time < inst->t0 || e->time + ws_event_duration (e) > inst->t1)
            continue;
          f = ws_stack_table_get_stack (table, e->stack, &nf);
          if (ws_frames_is_subsequence (pattern, n, f, nf))
            {
              cost += ws_event_duration (e);
              (*events)++;
              hit = TRUE;
            }
        }
      if (hit)
        (*streams)++;
    }
  return cost;
}

static void
test_pg_tpcb (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb");
  WsStackTable *table = ws_trace_get_stack_table (trace);
  g_autoptr(WsStackDb) db = ws_stack_db_new (table);
  g_autoptr(WsAoi) aoi = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autoptr(WsSimilarity) sim = NULL;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsCoverage) cov = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL, *history = NULL, *cmd = NULL;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  guint n_streams, n_items = 0, top_cluster;
  gint64 delay = 0, lambda;
  const WsCluster *c;
  gboolean has_xact = FALSE, has_tuple = FALSE;

  n_streams = ws_aoi_extract_instances (aoi, trace, "transaction", db);
  g_assert_cmpuint (n_streams, >, 1000);
  for (guint s = 0; s < n_streams; s++)
    delay += ws_stack_db_get_stream_delay_total (db, s);
  lambda = ws_miner_lambda_from_guideline (0.01, delay / n_streams, n_streams);

  set = ws_miner_mine (db, lambda, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), >=, 2);

  /* Independent costs, and maximality by definition: no frame of the AOI
   * can be inserted at any position while staying >= λ. */
  for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
    {
      guint n;
      const WsFrameId *f = ws_stack_db_get_frames (db, e, &n);

      for (guint k = 0; k < n; k++)
        {
          gboolean seen = FALSE;

          for (guint x = 0; x < frames->len && !seen; x++)
            seen = g_array_index (frames, WsFrameId, x) == f[k];
          if (!seen)
            g_array_append_val (frames, f[k]);
        }
    }

  for (guint i = 0; i < ws_pattern_set_get_n_patterns (set); i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, i);
      g_autofree WsFrameId *ext = g_new (WsFrameId, p->n_frames + 1);
      guint64 events;
      guint streams;

      g_assert_cmpint (scan_cost (trace, p->frames, p->n_frames, &events, &streams), ==, p->cost);
      g_assert_cmpuint (events, ==, p->n_events);
      g_assert_cmpuint (streams, ==, p->n_streams);
      g_assert_cmpint (p->cost, >=, lambda);
      if (i > 0)
        g_assert_cmpint (ws_pattern_set_get_pattern (set, i - 1)->cost, >=, p->cost);

      for (guint pos = 0; pos <= p->n_frames; pos++)
        for (guint x = 0; x < frames->len; x++)
          {
            gint64 cost = 0;

            memcpy (ext, p->frames, pos * sizeof (WsFrameId));
            ext[pos] = g_array_index (frames, WsFrameId, x);
            memcpy (ext + pos + 1, p->frames + pos, (p->n_frames - pos) * sizeof (WsFrameId));
            for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
              {
                guint n;
                const WsFrameId *f = ws_stack_db_get_frames (db, e, &n);

                if (ws_frames_is_subsequence (ext, p->n_frames + 1, f, n))
                  cost += ws_stack_db_get_entry (db, e)->cost;
              }
            g_assert_cmpint (cost, <, lambda);
            n_items++;
          }
    }
  g_assert_cmpuint (n_items, >, 1000);

  /* The costliest pattern is the row-lock wait. */
  g_assert_true (pattern_has (table, ws_pattern_set_get_pattern (set, 0), "ProcSleep"));
  g_assert_true (pattern_has (table, ws_pattern_set_get_pattern (set, 0), "XactLockTableWait"));

  /* Weights from a history that has seen this trace. */
  dir = g_dir_make_tmp ("ws-mining-XXXXXX", &error);
  g_assert_no_error (error);
  history = g_build_filename (dir, "history.sqlite", NULL);
  store = ws_history_store_open (history, &error);
  g_assert_no_error (error);
  g_assert_true (ws_history_store_record_trace (store, trace, NULL, &error));
  sim = ws_similarity_new (table);
  g_assert_true (ws_history_store_fill_similarity (store, sim, (const WsFrameId *) (gpointer) frames->data,
                                                   frames->len, &error));
  g_assert_no_error (error);

  clusters = ws_clusterer_cluster (set, sim, 0.6, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_cluster_set_get_n_clusters (clusters), <, ws_pattern_set_get_n_patterns (set));

  /* The top cluster holds both row-lock variants: XactLockTableWait and
   * LockTuple, the two callers of LockAcquireExtended under heap_update. */
  top_cluster = ws_cluster_set_find_pattern (clusters, 0);
  g_assert_cmpuint (top_cluster, ==, 0);
  c = ws_cluster_set_get_cluster (clusters, 0);
  for (guint k = 0; k < c->n_patterns; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, c->patterns[k]);

      g_assert_true (pattern_has (table, p, "ProcSleep"));
      has_xact |= pattern_has (table, p, "XactLockTableWait");
      has_tuple |= pattern_has (table, p, "LockTuple");
    }
  g_assert_true (has_xact);
  g_assert_true (has_tuple);

  /* Its metrics, independently: every transaction wait through ProcSleep. */
  {
    const WsPattern *top = ws_pattern_set_get_pattern (set, 0);
    WsFrameId proc_sleep = G_MAXUINT32;
    guint64 events;
    guint streams;
    gint64 cost;
    double random;

    for (guint i = 0; i < top->n_frames; i++)
      if (g_str_equal (ws_stack_table_get_frame (table, top->frames[i])->function, "ProcSleep"))
        proc_sleep = top->frames[i];
    g_assert_cmpuint (proc_sleep, !=, G_MAXUINT32);
    /* Cost_total of the cluster: the transaction waits whose stack holds
     * one of its patterns, each once. */
    {
      guint32 scenario = ws_trace_lookup_string (trace, "transaction");
      gint64 total = 0;
      guint64 n_events = 0;

      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
          const WsThread *th = ws_trace_get_thread (trace, inst->thread);

          if (inst->scenario != scenario)
            continue;
          for (guint k = 0; k < th->n_events; k++)
            {
              const WsEvent *e = ws_trace_get_event (trace, th->events[k]);
              const WsFrameId *f;
              guint nf;
              gboolean hit = FALSE;

              if (e->kind != WS_EVENT_WAIT || e->time < inst->t0 || e->time + ws_event_duration (e) > inst->t1)
                continue;
              f = ws_stack_table_get_stack (table, e->stack, &nf);
              for (guint x = 0; x < c->n_patterns && !hit; x++)
                {
                  const WsPattern *p = ws_pattern_set_get_pattern (set, c->patterns[x]);
                  hit = ws_frames_is_subsequence (p->frames, p->n_frames, f, nf);
                }
              if (hit)
                {
                  total += ws_event_duration (e);
                  n_events++;
                }
            }
        }
      g_assert_cmpint (c->total_cost, ==, total);
      g_assert_cmpuint (c->n_events, ==, n_events);
      g_assert_cmpfloat_with_epsilon (c->average_cost, (double) total / n_events, 1e-6);
    }

    cost = scan_cost (trace, &proc_sleep, 1, &events, &streams);
    g_assert_cmpint (c->total_cost, <=, cost);

    /* Signature ProcSleep: its coverage is its cost over the transactions'
     * total duration; one inspected stream holding it reveals it all
     * (StackMine: 1 stream; Random: the first of `streams` marked among
     * n_streams comes at (n + 1) / (m + 1) on average). */
    cov = ws_coverage_new (db);
    ws_coverage_add_signature (cov, "ProcSleep", &proc_sleep, 1);
    g_assert_cmpfloat_with_epsilon (ws_coverage_get_total_coverage (cov), (double) cost / delay, 1e-12);
    g_assert_cmpuint (ws_coverage_get_signature_n_streams (cov, 0), ==, streams);
    g_assert_cmpfloat (ws_coverage_streams_to_reach (cov, WS_RANKING_STACKMINE,
                                                     ws_coverage_get_total_coverage (cov), 0, 1), ==, 1);
    random = ws_coverage_streams_to_reach (cov, WS_RANKING_RANDOM, ws_coverage_get_total_coverage (cov), 2000, 1);
    g_assert_cmpfloat_with_epsilon (random, (n_streams + 1.0) / (streams + 1.0),
                                    0.1 * (n_streams + 1.0) / (streams + 1.0));
  }

  g_clear_object (&store);
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

/* A wait-graph and a critical-path scope of one transaction: both hold the
 * transaction's own waits; the graph adds its readiers' events. */
static void
test_pg_tpcb_graph_scopes (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsAoi) aoi = ws_aoi_new (WS_AOI_WAITING);
  guint found = 0;

  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace) && found < 5; i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      WsSymptom symptom = { inst->thread, inst->t0, inst->t1 };
      g_autoptr(WsEventSet) window = ws_aoi_scope_window (trace, inst->thread, inst->t0, inst->t1);
      g_autoptr(WsEventSet) graph = NULL;
      g_autoptr(WsEventSet) path = NULL;
      g_autoptr(WsEventSet) both = NULL;
      guint n_wait = 0;

      for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
        if (ws_event_set_contains (window, e) && ws_trace_get_event (trace, e)->kind == WS_EVENT_WAIT)
          n_wait++;
      if (n_wait < 2)
        continue;
      found++;

      graph = ws_aoi_scope_symptom_graph (trace, &symptom, FALSE, NULL, NULL, &error);
      g_assert_no_error (error);
      path = ws_aoi_scope_symptom_graph (trace, &symptom, TRUE, NULL, NULL, &error);
      g_assert_no_error (error);

      /* Every wait of the window is a vertex of the wait graph. */
      for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
        if (ws_event_set_contains (window, e) && ws_trace_get_event (trace, e)->kind == WS_EVENT_WAIT)
          g_assert_true (ws_event_set_contains (graph, e));
      g_assert_cmpuint (ws_event_set_count (graph), >, n_wait);
      g_assert_cmpuint (ws_event_set_count (path), >, 0);

      both = ws_event_set_copy (graph);
      ws_event_set_union (both, path);
      g_assert_cmpuint (ws_event_set_count (both), >=, ws_event_set_count (graph));
    }
  g_assert_cmpuint (found, ==, 5);
}

/* py-locks-dwarf: the lock waits (__new_sem_wait_slow64 ←
 * PyThread_acquire_lock_timed) dominate the workers' waiting stacks. */
static void
test_py_locks (void)
{
  g_autoptr(WsTrace) trace = load ("py-locks-dwarf");
  g_autoptr(WsStackDb) db = ws_stack_db_new (ws_trace_get_stack_table (trace));
  g_autoptr(WsAoi) aoi = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsPatternSet) set = NULL;
  g_autoptr(GError) error = NULL;
  gboolean lock_on_top = FALSE;
  guint s = ws_stack_db_add_stream (db, "py-locks-dwarf");

  g_assert_true (ws_aoi_add_must (aoi, "^_PyEval_EvalFrameDefault ", &error));
  g_assert_cmpuint (ws_aoi_extract (aoi, trace, NULL, db, s), >, 500);
  set = ws_miner_mine (db, ws_stack_db_get_total_cost (db) / 10, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_pattern_set_get_n_patterns (set), >=, 1);
  for (guint i = 0; i < MIN (2, ws_pattern_set_get_n_patterns (set)); i++)
    lock_on_top |= pattern_has (ws_trace_get_stack_table (trace), ws_pattern_set_get_pattern (set, i),
                                "PyThread_acquire_lock_timed");
  g_assert_true (lock_on_top);
}

/* ------------------------------------------------------------------ */
/* The command line                                                     */

static JsonObject *
run_cli (const char *history, const char * const *args, int *status)
{
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "WAITSCOPE_HISTORY", history, TRUE);
  g_auto(WsCliRun) run = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  ws_cli_run_argv (&run, (const char * const *) env, args);
  *status = run.status;
  if (*status != 0)
    return NULL;
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* `mine` and `cluster` print what the library computes, record the trace
 * in the history once, and reject bad options with status 2. */
static void
test_cli (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-mine-XXXXXX", &error);
  g_autofree char *history = g_build_filename (dir, "h.sqlite", NULL);
  g_autofree char *trace = g_build_filename (g_getenv ("WS_TEST_DATA"), "pg-tpcb.perf.txt.gz", NULL);
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
  const char *mine[] = { "mine", trace, "--scope", "scenario:transaction", "--per-instance", "--json", "--top", "0", NULL };
  const char *cluster[] = { "cluster", trace, "--scope", "scenario:transaction", "--per-instance", "--json",
                            "--rank", "events", NULL };
  const char *with_signature[] = { "cluster", trace, "--scope", "scenario:transaction", "--per-instance", "--json",
                                   "--signature", "ProcSleep", "--signature", "XLogFlush,fdatasync", NULL };
  const char *bad_signature[] = { "cluster", trace, "--signature", "no_such_function", NULL };
  const char *bad_scope[] = { "mine", trace, "--scope", "bogus", NULL };
  const char *bad_regex[] = { "mine", trace, "--must", "(", NULL };
  const char *bad_rank[] = { "cluster", trace, "--rank", "bogus", NULL };
  g_autoptr(JsonObject) m1 = NULL, m2 = NULL, c = NULL;
  g_autoptr(WsTrace) t = load ("pg-tpcb");
  g_autoptr(WsStackDb) db = ws_stack_db_new (ws_trace_get_stack_table (t));
  g_autoptr(WsAoi) aoi = ws_aoi_new (WS_AOI_WAITING);
  g_autoptr(WsPatternSet) set = NULL;
  JsonArray *patterns, *clusters;
  gint64 lambda, delay = 0;
  guint n;
  int status;

  g_assert_no_error (error);

  /* The library's own answer. */
  n = ws_aoi_extract_instances (aoi, t, "transaction", db);
  for (guint s = 0; s < n; s++)
    delay += ws_stack_db_get_stream_delay_total (db, s);
  lambda = ws_miner_lambda_from_guideline (0.01, delay / n, n);
  set = ws_miner_mine (db, lambda, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  m1 = run_cli (history, mine, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (m1, "lambda"), ==, lambda);
  g_assert_cmpint (json_object_get_int_member (m1, "streams"), ==, n);
  g_assert_cmpint (json_object_get_int_member (m1, "total_delay"), ==, delay);
  patterns = json_object_get_array_member (m1, "patterns");
  g_assert_cmpuint (json_array_get_length (patterns), ==, ws_pattern_set_get_n_patterns (set));
  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *p = json_array_get_object_element (patterns, i);
      const WsPattern *ref = ws_pattern_set_get_pattern (set, i);
      JsonArray *frames = json_object_get_array_member (p, "frames");
      g_autofree char *last = ws_stack_table_format_frame (ws_trace_get_stack_table (t), ref->frames[ref->n_frames - 1]);

      g_assert_cmpint (json_object_get_int_member (p, "cost"), ==, ref->cost);
      g_assert_cmpint (json_object_get_int_member (p, "events"), ==, ref->n_events);
      g_assert_cmpuint (json_array_get_length (frames), ==, ref->n_frames);
      g_assert_cmpstr (json_array_get_string_element (frames, ref->n_frames - 1), ==, last);
    }
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m1, "history"), "newly_recorded"), ==, 1);

  /* Second run: the trace is already in the history. */
  m2 = run_cli (history, mine, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m2, "history"), "newly_recorded"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (m2, "history"), "traces"), ==, 1);

  /* Clusters ranked by events: non-increasing; the row-lock cluster holds
   * both variants. */
  c = run_cli (history, cluster, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (c, "weights"), ==, "history");
  clusters = json_object_get_array_member (c, "clusters");
  g_assert_cmpuint (json_array_get_length (clusters), <, ws_pattern_set_get_n_patterns (set));
  for (guint i = 1; i < json_array_get_length (clusters); i++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (clusters, i - 1), "events"), >=,
                     json_object_get_int_member (json_array_get_object_element (clusters, i), "events"));
  {
    gboolean found = FALSE;

    for (guint i = 0; i < json_array_get_length (clusters); i++)
      {
        JsonObject *cl = json_array_get_object_element (clusters, i);
        JsonArray *ps = json_object_get_array_member (cl, "patterns");
        g_autoptr(GString) all = g_string_new (NULL);

        for (guint k = 0; k < json_array_get_length (ps); k++)
          {
            JsonArray *fr = json_object_get_array_member (json_array_get_object_element (ps, k), "frames");
            for (guint x = 0; x < json_array_get_length (fr); x++)
              g_string_append_printf (all, "%s;", json_array_get_string_element (fr, x));
          }
        if (strstr (all->str, "XactLockTableWait") && strstr (all->str, "LockTuple ("))
          found = TRUE;
      }
    g_assert_true (found);
  }

  /* Signatures: coverage as the library computes it. */
  {
    g_autoptr(JsonObject) cs = run_cli (history, with_signature, &status);
    g_autoptr(WsCoverage) cov = ws_coverage_new (db);
    WsStackTable *table = ws_trace_get_stack_table (t);
    WsFrameId proc_sleep = G_MAXUINT32, xlog = G_MAXUINT32, fdatasync = G_MAXUINT32;
    JsonObject *fig4;

    for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
      {
        guint nf;
        const WsFrameId *f = ws_stack_db_get_frames (db, e, &nf);

        for (guint k = 0; k < nf; k++)
          {
            const char *fn = ws_stack_table_get_frame (table, f[k])->function;

            if (g_str_equal (fn, "ProcSleep"))
              proc_sleep = MIN (proc_sleep, f[k]);
            else if (g_str_equal (fn, "XLogFlush"))
              xlog = MIN (xlog, f[k]);
            else if (g_str_equal (fn, "fdatasync"))
              fdatasync = MIN (fdatasync, f[k]);
          }
      }
    ws_coverage_add_signature (cov, "ProcSleep", &proc_sleep, 1);
    {
      WsFrameId pair[2] = { xlog, fdatasync };
      ws_coverage_add_signature (cov, "XLogFlush,fdatasync", pair, 2);
    }

    g_assert_cmpint (status, ==, 0);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (cs, "coverage"),
                                    ws_coverage_get_total_coverage (cov), 1e-9);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (cs, "signatures"), 1), "cost"),
                     ==, ws_coverage_get_signature_cost (cov, 1));
    fig4 = json_object_get_object_member (cs, "fig4");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (fig4, "greedy-max")), ==, 4);
    g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (fig4, "stackmine"), 3), ==,
                       ws_coverage_streams_to_reach (cov, WS_RANKING_STACKMINE, ws_coverage_get_total_coverage (cov), 0, 1));
  }
  g_assert_null (run_cli (history, bad_signature, &status));
  g_assert_cmpint (status, ==, 2);

  g_assert_null (run_cli (history, bad_scope, &status));
  g_assert_cmpint (status, ==, 2);
  g_assert_null (run_cli (history, bad_regex, &status));
  g_assert_cmpint (status, ==, 2);
  g_assert_null (run_cli (history, bad_rank, &status));
  g_assert_cmpint (status, ==, 2);

  g_assert_cmpint (system (cmd), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mining-traces/aoi-hand", test_aoi_hand);
  g_test_add_func ("/mining-traces/pg-tpcb", test_pg_tpcb);
  g_test_add_func ("/mining-traces/pg-tpcb-graph-scopes", test_pg_tpcb_graph_scopes);
  g_test_add_func ("/mining-traces/py-locks", test_py_locks);
  g_test_add_func ("/mining-traces/cli", test_cli);

  return g_test_run ();
}
