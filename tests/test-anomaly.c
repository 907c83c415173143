/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Anomaly detection: the mixture fit recovers a known mixture and picks
 * its K by BIC; the tail, its quantile and the tabulated tail agree with
 * GSL; waits go into the history once per trace, bounded per signature;
 * detection never writes; and the learning rule: a flag changes the wait
 * flagged and the unflagged waits of its kind, after a reopen too.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ws-anomaly-detector.h"
#include "ws-anomaly-learning.h"
#include "ws-cause-chain.h"
#include "ws-gmm-cache.h"
#include "ws-gmm-many.h"
#include "ws-sorted-samples.h"
#include "ws-ready-tree-run.h"
#include "ws-symptom.h"
#include "ws-trace-loader.h"

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

static char *
tmp_store (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-anomaly-XXXXXX", &error);

  g_assert_no_error (error);
  return g_build_filename (dir, "history.sqlite", NULL);
}

static void
test_gmm_recovers_mixture (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  g_autofree double *x = g_new (double, 6000);
  WsGmmSettings s;
  WsGmm gmm;

  gsl_rng_set (rng, 7);
  for (guint i = 0; i < 6000; i++)
    x[i] = i % 10 < 7 ? 10 + gsl_ran_gaussian (rng, 0.5) : 14 + gsl_ran_gaussian (rng, 0.3);
  gsl_rng_free (rng);
  ws_gmm_settings_init (&s);
  g_assert_true (ws_gmm_fit (x, 6000, &s, &gmm, NULL, NULL));
  g_assert_cmpuint (gmm.n_components, ==, 2);
  g_assert_cmpfloat_with_epsilon (gmm.components[0].mean, 10, 0.05);
  g_assert_cmpfloat_with_epsilon (gmm.components[1].mean, 14, 0.05);
  g_assert_cmpfloat_with_epsilon (gmm.components[0].weight, 0.7, 0.02);
  g_assert_cmpfloat_with_epsilon (sqrt (gmm.components[1].variance), 0.3, 0.03);
  g_assert_true (gmm.converged);
}

/* Law: ws_gmm_fit() counts a repeated value as one weighted point, and
 * that is the same EM as on every sample (only the order of summation
 * differs).  Random mixtures of microsecond-resolved durations (so values
 * repeat, as in real traces), in random order, against the raw fit of the
 * sorted samples with every sample weighing 1. */
static void
test_gmm_repeats_weighted (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  WsGmmSettings s;

  ws_gmm_settings_init (&s);
  gsl_rng_set (rng, 11);
  for (guint trial = 0; trial < 40; trial++)
    {
      gsize n = 50 + gsl_rng_uniform_int (rng, 3000);
      guint modes = 1 + gsl_rng_uniform_int (rng, 3);
      g_autofree double *x = g_new (double, n);
      g_autofree double *sorted = g_new (double, n);
      gsize distinct = 1;
      WsGmm collapsed, raw;

      for (gsize i = 0; i < n; i++)
        {
          /* A duration in µs around 20 µs … 20 ms, as log-nanoseconds. */
          double us = exp (3 + 2.3 * gsl_rng_uniform_int (rng, modes) + gsl_ran_gaussian (rng, 0.4));
          x[i] = log (1000.0 * MAX (1.0, round (us)));
        }
      memcpy (sorted, x, n * sizeof *x);
      gsl_sort (sorted, 1, n);
      for (gsize i = 1; i < n; i++)
        distinct += sorted[i] != sorted[i - 1];
      g_assert_true (ws_gmm_fit (x, n, &s, &collapsed, NULL, NULL));
      g_assert_true (ws_gmm_fit_weighted (sorted, NULL, n, &s, &raw, NULL, NULL));
      g_assert_cmpuint (collapsed.n_components, ==, raw.n_components);
      g_assert_cmpfloat_with_epsilon (collapsed.n_samples, n, 1e-9);
      g_assert_cmpfloat_with_epsilon (collapsed.bic, raw.bic, 1e-6 * fabs (raw.bic));
      for (guint j = 0; j < raw.n_components; j++)
        {
          g_assert_cmpfloat_with_epsilon (collapsed.components[j].weight, raw.components[j].weight, 1e-9);
          g_assert_cmpfloat_with_epsilon (collapsed.components[j].mean, raw.components[j].mean, 1e-9);
          g_assert_cmpfloat_with_epsilon (collapsed.components[j].variance, raw.components[j].variance, 1e-9);
        }
      if (trial == 0)
        g_test_message ("%" G_GSIZE_FORMAT " samples, %" G_GSIZE_FORMAT " distinct", n, distinct);
    }
  gsl_rng_free (rng);
}

static void
test_gmm_tail (void)
{
  WsGmm gmm = { 2, { { 0.6, 10, 0.25 }, { 0.4, 13, 1.0 } } };
  g_autofree double *x = g_new (double, 100000);
  g_autofree double *fast = g_new (double, 100000);
  double worst = 0;

  for (double p = 0.5; p > 1e-9; p /= 7)
    g_assert_cmpfloat_with_epsilon (ws_gmm_upper_tail (&gmm, ws_gmm_tail_quantile (&gmm, p)) / p, 1, 1e-6);
  g_assert_cmpfloat (ws_gmm_upper_tail (&gmm, 11), >, ws_gmm_upper_tail (&gmm, 12));
  for (guint i = 0; i < 100000; i++)
    x[i] = 5 + 15.0 * i / 100000;
  ws_gmm_upper_tail_many (&gmm, x, 100000, fast);
  for (guint i = 0; i < 100000; i++)
    {
      double exact = ws_gmm_upper_tail (&gmm, x[i]);
      if (exact > 1e-300)
        worst = MAX (worst, fabs (fast[i] - exact) / exact);
    }
  g_test_message ("tabulated tail: worst relative error %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-6);
}

static WsTrace *
load (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static void
test_signature (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsWaitSignatures) sigs = ws_wait_signatures_new (trace, 2);
  gboolean found = FALSE;

  /* A backend waiting for a client: libc's epoll_wait and its caller
   * above the kernel's do_epoll_wait; the scheduler frames are skipped. */
  for (guint s = 0; s < ws_wait_signatures_get_n (sigs); s++)
    if (g_strcmp0 (ws_wait_signatures_get_key (sigs, s), "secure_read;epoll_wait|do_epoll_wait") == 0)
      {
        found = TRUE;
        g_assert_cmpstr (ws_wait_signatures_get_pool (sigs, s), ==, "do_epoll_wait");
      }
  g_assert_true (found);
  for (guint s = 0; s < ws_wait_signatures_get_n (sigs); s++)
    g_assert_false (g_str_has_suffix (ws_wait_signatures_get_key (sigs, s), "|schedule"));
}

/* Issue 21, item 5: at depth 2 PostgreSQL's WaitLatch;epoll_wait lumped
 * a backend waiting for a row lock (ProcSleep), one in pg_sleep and the
 * idle auxiliary processes (WalWriterMain, BackgroundWriterMain) into one
 * kind.  The frame above WaitLatch in each waiting stack names what the
 * wait is for; waits with different such callers must get different
 * signatures, and waits with the same caller one signature. */
static void
test_signature_tells_waits_apart (void)
{
  const char *names[] = { "pg-tpcb.perf.txt.gz", "causes/pg-advisory.perf.txt.gz", "causes/pg-rowlock.perf.txt.gz",
                          "pg-contrast-fast.perf.txt.gz", "pg-contrast-slow.perf.txt.gz" };
  g_autoptr(GHashTable) all_callers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (names); t++)
    {
      g_autoptr(WsTrace) trace = load (names[t]);
      g_autoptr(WsWaitSignatures) sigs = ws_wait_signatures_new (trace, 2);
      WsStackTable *table = ws_trace_get_stack_table (trace);
      g_autoptr(GHashTable) key_of_caller = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_autoptr(GHashTable) caller_of_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

      for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
        {
          const WsEvent *e = ws_trace_get_event (trace, i);
          guint s = ws_wait_signatures_of_event (sigs, i), n;
          const WsFrameId *frames;
          const char *key, *caller = NULL, *seen;

          if (s == WS_NONE)
            continue;
          key = ws_wait_signatures_get_key (sigs, s);
          g_assert_cmpstr (key, !=, "WaitLatch;epoll_wait|do_epoll_wait");
          frames = ws_stack_table_get_stack (table, e->stack, &n);
          for (guint f = 1; f < n; f++)
            if (g_str_equal (ws_stack_table_get_frame (table, frames[f])->function, "WaitLatch"))
              caller = ws_stack_table_get_frame (table, frames[f - 1])->function;
          if (caller == NULL)
            continue;
          g_hash_table_add (all_callers, g_strdup (caller));
          if ((seen = g_hash_table_lookup (key_of_caller, caller)) != NULL)
            g_assert_cmpstr (seen, ==, key);
          else
            g_hash_table_insert (key_of_caller, g_strdup (caller), g_strdup (key));
          if ((seen = g_hash_table_lookup (caller_of_key, key)) != NULL)
            g_assert_cmpstr (seen, ==, caller);
          else
            g_hash_table_insert (caller_of_key, g_strdup (key), g_strdup (caller));
        }
      if (t == 0)
        g_assert_cmpstr (g_hash_table_lookup (key_of_caller, "ProcSleep"), ==,
                         "ProcSleep;" WS_WAIT_SIGNATURE_ELISION ";WaitLatch;epoll_wait|do_epoll_wait");
    }
  /* The row-lock wait, the sleep and the two idle processes were all seen. */
  g_assert_true (g_hash_table_contains (all_callers, "ProcSleep"));
  g_assert_true (g_hash_table_contains (all_callers, "pg_sleep"));
  g_assert_true (g_hash_table_contains (all_callers, "WalWriterMain"));
  g_assert_true (g_hash_table_contains (all_callers, "BackgroundWriterMain"));
}

/* A history written with version 1's signatures (bare reservoir keys,
 * the bare depth) is kept apart: detection reads none of it, and the
 * trace is recorded again under the current signatures. */
static void
test_history_old_signatures_kept_apart (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(GArray) old = g_array_new (FALSE, FALSE, sizeof (gint64));
  const char *keys[] = { "WaitLatch;epoll_wait|do_epoll_wait", "pool:do_epoll_wait", WS_WAIT_POOL_GLOBAL };
  GArray *samples[] = { old, old, old };
  g_autoptr(WsAnomalyResult) result = NULL;
  WsAnomalySettings settings;
  const char *digest = "digest-old";
  gboolean newly = FALSE;

  g_assert_no_error (error);
  for (gint64 d = 1; d <= 500; d++)
    g_array_append_val (old, (gint64) { d * 1000 });
  g_assert_true (ws_history_store_record_wait_samples (store, digest, 2, keys, samples, 3, 4096, &newly, NULL, &error));
  g_assert_no_error (error);
  ws_anomaly_settings_init (&settings);
  result = ws_anomaly_detect (&trace, &digest, 1, store, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint m = 0; m < ws_anomaly_result_get_n_models (result); m++)
    g_assert_cmpuint (ws_anomaly_result_get_model (result, m)->n_history, ==, 0);
  g_assert_true (ws_anomaly_record_trace (store, trace, digest, &settings, &newly, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (newly);
}

static void
test_history_once_and_bounded (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(WsWaitSignatures) sigs = NULL;
  g_autoptr(GArray) kept = NULL;
  WsAnomalySettings settings;
  gboolean newly = FALSE;
  guint64 seen = 0, n_waits = 0;

  ws_anomaly_settings_init (&settings);
  settings.reservoir_size = 64;
  g_assert_true (ws_anomaly_record_trace (store, trace, "digest-a", &settings, &newly, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (newly);
  g_assert_true (ws_anomaly_record_trace (store, trace, "digest-a", &settings, &newly, NULL, &error));
  g_assert_false (newly);

  kept = ws_history_store_get_reservoir (store, "v2:" WS_WAIT_POOL_GLOBAL, &seen, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    n_waits += ws_wait_is_scored (ws_trace_get_event (trace, i));
  g_assert_cmpuint (seen, ==, n_waits);
  g_assert_cmpuint (kept->len, ==, 64);

  /* A second trace content: offered again, still 64 kept. */
  g_assert_true (ws_anomaly_record_trace (store, trace, "digest-b", &settings, &newly, NULL, &error));
  g_assert_true (newly);
  g_clear_pointer (&kept, g_array_unref);
  kept = ws_history_store_get_reservoir (store, "v2:" WS_WAIT_POOL_GLOBAL, &seen, &error);
  g_assert_cmpuint (seen, ==, 2 * n_waits);
  g_assert_cmpuint (kept->len, ==, 64);
}

static WsAnomalyResult *
detect_with (WsHistoryStore          *store,
             WsTrace                 *trace,
             const WsAnomalySettings *settings)
{
  g_autoptr(GError) error = NULL;
  const char *digest = "trace-1";
  WsAnomalyResult *result;

  result = ws_anomaly_detect (&trace, &digest, 1, store, settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return result;
}

/* The rule detect() uses: the tail rule (P ≤ 5 % per wait), which the
 * learning tests on traces below were built on — their premises (a
 * kind's cut inside its slow component, a dozen anomalous waits to pick
 * from) are the tail rule's.  The learning rule is the same under both:
 * the default rule only moves each kind's flag-free starting cut
 * (/anomaly/fdr-rare, /anomaly/learning-monotone with FDR bars, and
 * test-cli-anomaly-monotone at the defaults). */
static WsAnomalyRule detect_rule = WS_ANOMALY_RULE_TAIL;
/* …and the flags' weights: the default, or equal weights where a test's
 * premise is that one normal flag outweighs a wait of the model's. */
static WsFlagWeights detect_weights = WS_FLAG_WEIGHTS_POSTERIOR;
static double detect_model_weight = WS_ANOMALY_DEFAULT_FLAG_MODEL_WEIGHT;

static WsAnomalyResult *
detect (WsHistoryStore *store,
        WsTrace        *trace)
{
  WsAnomalySettings settings;

  ws_anomaly_settings_init (&settings);
  settings.rule = detect_rule;
  settings.flag_weights = detect_weights;
  settings.flag_model_weight = detect_model_weight;
  return detect_with (store, trace, &settings);
}

/* The shortest model-anomalous or the longest normal unflagged wait of
 * @model. */
static const WsWaitScore *
pick (WsAnomalyResult *result,
      gboolean         anomalous,
      guint            model)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, 0);
  const WsWaitScore *s, *best = NULL;
  guint n;

  s = ws_anomaly_result_get_scores (result, 0, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].model == model && s[i].model_anomalous == anomalous && s[i].flag == WS_ANOMALY_FLAG_NONE
        && (best == NULL || (anomalous ? ws_event_duration (ws_trace_get_event (trace, s[i].event))
                                         < ws_event_duration (ws_trace_get_event (trace, best->event))
                                       : ws_event_duration (ws_trace_get_event (trace, s[i].event))
                                         > ws_event_duration (ws_trace_get_event (trace, best->event)))))
      best = &s[i];
  g_assert_nonnull (best);
  return best;
}

/* The signature-level model with the most model-anomalous waits. */
static guint
busiest_model (WsAnomalyResult *result)
{
  g_autofree guint *count = g_new0 (guint, ws_anomaly_result_get_n_models (result));
  const WsWaitScore *s;
  guint n, best = WS_NONE;

  s = ws_anomaly_result_get_scores (result, 0, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].model_anomalous && ws_anomaly_result_get_model (result, s[i].model)->level == WS_MODEL_LEVEL_SIGNATURE)
      count[s[i].model]++;
  for (guint m = 0; m < ws_anomaly_result_get_n_models (result); m++)
    if (count[m] > 0 && (best == WS_NONE || count[m] > count[best]))
      best = m;
  g_assert_cmpuint (best, !=, WS_NONE);
  return best;
}

static void
flag (WsHistoryStore  *store,
      WsAnomalyResult *result,
      guint            event,
      WsAnomalyFlag    verdict)
{
  g_autoptr(GError) error = NULL;
  WsWaitFlag f;

  g_assert_true (ws_anomaly_result_make_flag (result, 0, event, verdict, &f));
  g_assert_true (ws_history_store_flag_wait (store, &f, &error));
  g_assert_no_error (error);
  ws_wait_flag_clear (&f);
}

static gint
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* The anomalous wait of @model at @rank among its anomalous waits by
 * duration (0: the shortest), so that shorter anomalous waits remain. */
static const WsWaitScore *
pick_anomalous_at (WsAnomalyResult *result,
                   guint            model,
                   double           rank)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, 0);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  const WsWaitScore *s;
  gint64 chosen;
  guint n;

  s = ws_anomaly_result_get_scores (result, 0, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].model == model && s[i].model_anomalous)
      {
        WsTime d = ws_event_duration (ws_trace_get_event (trace, s[i].event));
        g_array_append_val (durations, d);
      }
  g_assert_cmpuint (durations->len, >=, 8);
  g_array_sort (durations, compare_gint64);
  chosen = g_array_index (durations, gint64, (guint) (rank * (durations->len - 1)));
  for (guint i = 0; i < n; i++)
    if (s[i].model == model && s[i].model_anomalous && ws_event_duration (ws_trace_get_event (trace, s[i].event)) == chosen)
      return &s[i];
  g_assert_not_reached ();
}

/* Unflagged waits of @model anomalous in @a and not in @b. */
static guint
count_cleared (WsAnomalyResult *a,
               WsAnomalyResult *b,
               guint            model)
{
  const WsWaitScore *sa, *sb;
  guint n, cleared = 0;

  sa = ws_anomaly_result_get_scores (a, 0, &n);
  sb = ws_anomaly_result_get_scores (b, 0, &n);
  for (guint i = 0; i < n; i++)
    cleared += sa[i].model == model && sb[i].flag == WS_ANOMALY_FLAG_NONE
               && sa[i].model_anomalous && !sb[i].model_anomalous;
  return cleared;
}

/* A flag's reach before it lands (ws_anomaly_result_flag_reach()), then
 * the flag saved and every wait scored again: the other unflagged waits
 * of the kind that changed verdict must be exactly the ones announced,
 * in number and direction.  Returns the detection after the flag. */
static WsAnomalyResult *
flag_checking_reach (WsHistoryStore  *store,
                     WsAnomalyResult *before,
                     guint            event,
                     WsAnomalyFlag    verdict)
{
  WsTrace *trace = ws_anomaly_result_get_trace (before, 0);
  const WsWaitScore *s = ws_anomaly_result_lookup (before, 0, event), *b, *a;
  WsAnomalyResult *after;
  WsFlagReach reach;
  guint n, to_anomalous = 0, to_normal = 0;

  g_assert_true (ws_anomaly_result_flag_reach (before, 0, event, verdict, &reach));
  flag (store, before, event, verdict);
  after = detect (store, trace);
  b = ws_anomaly_result_get_scores (before, 0, &n);
  a = ws_anomaly_result_get_scores (after, 0, &n);
  for (guint i = 0; i < n; i++)
    if (b[i].model == s->model && b[i].event != event && b[i].flag == WS_ANOMALY_FLAG_NONE)
      {
        to_anomalous += a[i].anomalous && !b[i].anomalous;
        to_normal += !a[i].anomalous && b[i].anomalous;
      }
  g_test_message ("reach of a %s flag: %u -> anomalous, %u -> normal announced; %u, %u after",
                  verdict == WS_ANOMALY_FLAG_ANOMALOUS ? "anomalous" : "normal",
                  reach.n_to_anomalous, reach.n_to_normal, to_anomalous, to_normal);
  g_assert_cmpuint (reach.n_to_anomalous, ==, to_anomalous);
  g_assert_cmpuint (reach.n_to_normal, ==, to_normal);
  g_assert_cmpfloat (reach.cut, ==, ws_anomaly_result_get_model (after, s->model)->cut);
  return after;
}

/* The own-signature step (docs/anomaly-detection.md, "Flags and the
 * learning rule"): a flag near the cut moves it past the flagged wait and
 * carries over to the unflagged waits of its kind on the same side; a
 * flag deep in the tail stands for its own wait, and clears at most the
 * share of the kind that one flag outweighs (1 / flag_model_weight of
 * the model's verdicts); a wait flagged anomalous brings the cut down to
 * it. */
static void
test_learning_rule (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  /* Equal weights: with the default ones a normal flag where the kind's
   * slow components explain the wait weighs less than one wait of the
   * model's (/anomaly/learning-component-on-trace).  And the model's
   * verdicts weighing 1000 flags in all, not one flag a wait (the default,
   * /anomaly/learning-one-flag-a-wait): so one flag outweighs a stretch
   * of the model's verdicts, which is what this test is about. */
  g_autoptr(WsAnomalyResult) before = (detect_weights = WS_FLAG_WEIGHTS_COUNT, detect_model_weight = 1000,
                                       detect (store, trace));
  g_autoptr(WsAnomalyResult) after = NULL;
  g_autoptr(WsAnomalyResult) deep = NULL;
  g_autoptr(WsAnomalyResult) reopened = NULL;
  const WsAnomalySettings *st = ws_anomaly_result_get_settings (before);
  guint m = busiest_model (before);
  const WsAnomalyModel *model = ws_anomaly_result_get_model (before, m);
  const WsWaitScore *flagged = pick_anomalous_at (before, m, 0.01);
  guint normal_event = flagged->event, deep_event;
  gint64 normal_d = ws_event_duration (ws_trace_get_event (trace, normal_event));
  guint n, n_generalised = 0, n_deep;
  const WsWaitScore *s;

  g_test_message ("signature %s, %u samples, P = %.3g flagged normal", model->key, model->samples->len, flagged->score);

  /* Near the cut: no longer anomalous, and neither is any unflagged wait
   * of its kind up to its length, some of which were anomalous before. */
  after = flag_checking_reach (store, before, normal_event, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_result_lookup (after, 0, normal_event)->anomalous);
  g_assert_false (ws_anomaly_result_lookup (after, 0, normal_event)->model_anomalous);
  s = ws_anomaly_result_get_scores (after, 0, &n);
  for (guint i = 0; i < n; i++)
    if (s[i].model == m && ws_event_duration (ws_trace_get_event (trace, s[i].event)) <= normal_d)
      {
        g_assert_false (s[i].model_anomalous);
        g_assert_false (s[i].anomalous);
        n_generalised += s[i].event != normal_event && ws_anomaly_result_lookup (before, 0, s[i].event)->model_anomalous;
      }
  g_test_message ("flag normal near the cut: %u unflagged waits of the kind no longer anomalous", n_generalised);
  g_assert_cmpuint (n_generalised, >=, 1);

  /* Deep in the tail: the flagged wait is normal (its flag), but one
   * flag does not outvote the model on the bulk of the tail. */
  deep_event = pick_anomalous_at (after, m, 0.5)->event;
  deep = flag_checking_reach (store, after, deep_event, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_result_lookup (deep, 0, deep_event)->anomalous);
  n_deep = count_cleared (after, deep, m);
  g_test_message ("flag normal deep in the tail: %u unflagged waits cleared (of %u samples, weight %g)",
                  n_deep, ws_anomaly_result_get_model (deep, m)->samples->len, st->flag_model_weight);
  g_assert_cmpfloat (n_deep, <=, 2.0 * ws_anomaly_result_get_model (deep, m)->samples->len / st->flag_model_weight + 1);

  /* The longest normal wait flagged anomalous: anomalous, and so is
   * every unflagged wait of its kind at least as long. */
  {
    g_autoptr(WsAnomalyResult) third = NULL;
    guint anomalous_event = pick (deep, FALSE, m)->event;
    gint64 anomalous_d = ws_event_duration (ws_trace_get_event (trace, anomalous_event));

    g_assert_cmpuint (anomalous_event, !=, normal_event);
    third = flag_checking_reach (store, deep, anomalous_event, WS_ANOMALY_FLAG_ANOMALOUS);
    g_assert_true (ws_anomaly_result_lookup (third, 0, anomalous_event)->anomalous);
    /* Flags move the cut, never the data the model is fitted on. */
    g_assert_cmpuint (ws_anomaly_result_get_model (third, m)->n_current, ==,
                      ws_anomaly_result_get_model (deep, m)->n_current);
    s = ws_anomaly_result_get_scores (third, 0, &n);
    for (guint i = 0; i < n; i++)
      if (s[i].model == m && ws_event_duration (ws_trace_get_event (trace, s[i].event)) >= anomalous_d)
        g_assert_true (s[i].model_anomalous || s[i].flag == WS_ANOMALY_FLAG_NORMAL);
  }

  /* Reopened: the flags are still there and still count. */
  g_clear_object (&store);
  store = ws_history_store_open (path, &error);
  reopened = detect (store, trace);
  g_assert_cmpint (ws_anomaly_result_lookup (reopened, 0, normal_event)->flag, ==, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_result_lookup (reopened, 0, normal_event)->anomalous);
  detect_weights = WS_FLAG_WEIGHTS_POSTERIOR;
  detect_model_weight = WS_ANOMALY_DEFAULT_FLAG_MODEL_WEIGHT;
}

/* The shortest unflagged wait of @model its cut calls anomalous that
 * is longer than @after (0: any). */
static const WsWaitScore *
lowest_discovery (WsAnomalyResult *result,
                  guint            model,
                  gint64           after)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, 0);
  const WsWaitScore *s, *best = NULL;
  gint64 best_d = G_MAXINT64;
  guint n;

  s = ws_anomaly_result_get_scores (result, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      gint64 d = ws_event_duration (ws_trace_get_event (trace, s[i].event));

      if (s[i].model == model && s[i].model_anomalous && s[i].flag == WS_ANOMALY_FLAG_NONE && d > after && d < best_d)
        {
          best = &s[i];
          best_d = d;
        }
    }
  return best;
}

/* The default weight of the model's verdicts: one flag a wait.  A flag
 * stands in for the model's verdict on its own wait, so a normal flag on
 * a kind's shortest discovery moves the cut past it and changes no other
 * wait; one flag inside the discoveries changes nothing but its own
 * wait; and the cut moves past a stretch of waits only where the flags
 * outweigh the waits left unflagged there.  The oracle is a count of the
 * waits by duration. */
static void
test_learning_one_flag_a_wait (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsAnomalyResult) before = (detect_weights = WS_FLAG_WEIGHTS_COUNT, detect (store, trace));
  g_autoptr(WsAnomalyResult) inside = NULL;
  guint m = busiest_model (before);
  const WsWaitScore *first, *next, *mid = pick_anomalous_at (before, m, 0.5);
  gint64 first_d;

  g_assert_cmpfloat (ws_anomaly_result_get_settings (before)->flag_model_weight, ==, WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS);
  /* Inside the discoveries: its own verdict only. */
  inside = flag_checking_reach (store, before, mid->event, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_result_lookup (inside, 0, mid->event)->anomalous);
  g_assert_cmpuint (count_cleared (before, inside, m), ==, 0);
  g_assert_cmpfloat (ws_anomaly_result_get_model (inside, m)->cut, ==, ws_anomaly_result_get_model (before, m)->cut);

  /* The shortest discoveries flagged normal: the waits of that length
   * (perf's microsecond clock makes ties common) are one step of the
   * cut.  While one of them is unflagged the flags and the model's
   * verdicts weigh the same there and the cut stays (the tie goes to
   * the model); with all flagged the cut moves past them, and no other
   * wait changes. */
  first = lowest_discovery (inside, m, 0);
  first_d = ws_event_duration (ws_trace_get_event (trace, first->event));
  {
    g_autoptr(GArray) same = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(WsAnomalyResult) last = g_object_ref (inside);
    const WsWaitScore *s;
    guint n;

    s = ws_anomaly_result_get_scores (inside, 0, &n);
    for (guint i = 0; i < n; i++)
      if (s[i].model == m && s[i].flag == WS_ANOMALY_FLAG_NONE
          && ws_event_duration (ws_trace_get_event (trace, s[i].event)) == first_d)
        g_array_append_val (same, s[i].event);
    g_test_message ("shortest discovery: %u waits of %" G_GINT64_FORMAT " ns", same->len, first_d);
    for (guint k = 0; k < same->len; k++)
      {
        WsAnomalyResult *after = flag_checking_reach (store, last, g_array_index (same, guint, k), WS_ANOMALY_FLAG_NORMAL);
        guint flagged = k + 1, unflagged = same->len - flagged;
        gboolean was_moved = ws_anomaly_result_get_model (last, m)->cut > ws_anomaly_result_get_model (inside, m)->cut;

        /* Each flag stands in for its own wait's verdict and weighs one
         * more: the cut crosses the stretch once flagged > unflagged,
         * clearing the unflagged ones with it, and not before. */
        if (flagged > unflagged && !was_moved)
          g_assert_cmpuint (count_cleared (last, after, m), ==, unflagged);
        else
          g_assert_cmpuint (count_cleared (last, after, m), ==, 0);
        g_assert_true ((ws_anomaly_result_get_model (after, m)->cut > ws_anomaly_result_get_model (inside, m)->cut)
                       == (flagged > unflagged));
        g_object_unref (last);
        last = after;
      }
    g_assert_cmpfloat (ws_anomaly_result_get_model (last, m)->cut, >, ws_anomaly_result_get_model (inside, m)->cut);
    for (guint k = 0; k < same->len; k++)
      g_assert_false (ws_anomaly_result_lookup (last, 0, g_array_index (same, guint, k))->model_anomalous);
    next = lowest_discovery (last, m, 0);
    g_assert_nonnull (next);
    g_assert_cmpint (ws_event_duration (ws_trace_get_event (trace, next->event)), >, first_d);
  }
  detect_weights = WS_FLAG_WEIGHTS_POSTERIOR;
}

/* Scores are tail probabilities under each kind's own model, so they
 * compare across kinds, and a flag shades the bar of other kinds — by a
 * bounded amount.  The most improbable wait of one signature flagged
 * normal (the case that, with an unbounded shared bar, took pg-tpcb's
 * other signatures from 1,061 anomalous waits to 38): every signature
 * of another pool (kernel blocking function), with no flag of its own,
 * moves its threshold by at most flag_max_shift / (1 + flag_prior) nats,
 * one of the same pool by at most twice that, never up; and the other
 * signatures' anomalous waits shrink only as much as that allows. */
static void
test_learning_across_signatures (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  WsAnomalySettings shared;
  g_autoptr(WsAnomalyResult) before = NULL;
  g_autoptr(WsAnomalyResult) after = NULL;
  const WsAnomalySettings *st;
  double bound;
  guint m, n, worst = WS_NONE, n_moved = 0, n_before = 0, n_after = 0;
  const WsWaitScore *b, *a;
  g_autofree guint *count_before = NULL;
  g_autofree guint *count_after = NULL;
  const char *pool;

  /* Sharing across kinds is off by default (docs/anomaly-detection.md);
   * switched on, it keeps to its bounds. */
  ws_anomaly_settings_init (&shared);
  shared.flag_max_shift = G_LN10;
  before = detect_with (store, trace, &shared);
  st = ws_anomaly_result_get_settings (before);
  bound = st->flag_max_shift / (1 + st->flag_prior);
  m = busiest_model (before);
  b = ws_anomaly_result_get_scores (before, 0, &n);
  count_before = g_new0 (guint, ws_anomaly_result_get_n_models (before));
  count_after = g_new0 (guint, ws_anomaly_result_get_n_models (before));

  for (guint i = 0; i < n; i++)
    if (b[i].model == m && (worst == WS_NONE || b[i].score < b[worst].score))
      worst = i;
  pool = ws_anomaly_result_get_model (before, m)->pool;
  flag (store, before, b[worst].event, WS_ANOMALY_FLAG_NORMAL);
  after = detect_with (store, trace, &shared);
  a = ws_anomaly_result_get_scores (after, 0, &n);
  for (guint k = 0; k < ws_anomaly_result_get_n_models (after); k++)
    {
      const WsAnomalyModel *mb = ws_anomaly_result_get_model (before, k);
      const WsAnomalyModel *ma = ws_anomaly_result_get_model (after, k);
      double shift;

      g_assert_cmpstr (ma->key, ==, mb->key);
      if (k == m || ma->gmm.n_components == 0)
        continue;
      shift = log (mb->threshold) - log (ma->threshold);
      g_assert_cmpfloat (shift, >=, -1e-9);
      g_assert_cmpfloat (shift, <=, (g_str_equal (ma->pool, pool) ? 2 : 1) * bound + 1e-6);
      n_moved += shift > 1e-9;
    }
  for (guint i = 0; i < n; i++)
    if (b[i].model != m)
      {
        count_before[b[i].model] += b[i].model_anomalous;
        count_after[a[i].model] += a[i].model_anomalous;
        g_assert_true (a[i].model_anomalous <= b[i].model_anomalous);
      }
  for (guint k = 0; k < ws_anomaly_result_get_n_models (after); k++)
    {
      n_before += count_before[k];
      n_after += count_after[k];
      /* Each other signature with enough anomalous waits to count keeps
       * about the share its threshold's bounded move allows (its model
       * calls a share P of its waits anomalous at threshold P), with
       * room for a model that fits its data only roughly. */
      if (count_before[k] >= 20)
        {
          const WsAnomalyModel *mk = ws_anomaly_result_get_model (after, k);
          double allowed = exp (-(g_str_equal (mk->pool, pool) ? 2 : 1) * bound) / 1.5;

          g_test_message ("  %s (%s pool): %u -> %u anomalous", mk->key,
                          g_str_equal (mk->pool, pool) ? "same" : "another", count_before[k], count_after[k]);
          g_assert_cmpfloat (count_after[k], >=, allowed * count_before[k]);
        }
    }
  g_test_message ("P = %.3g flagged normal: %u other signatures' thresholds lowered (at most %.3g nats), "
                  "their anomalous waits %u -> %u", b[worst].score, n_moved, bound, n_before, n_after);
  g_assert_cmpuint (n_moved, >=, 1);
  g_assert_cmpuint (n_after, <, n_before);

  /* At the defaults the flag moves no other signature's threshold. */
  {
    g_autoptr(WsAnomalyResult) plain = detect (store, trace);
    WsAnomalySettings none;
    g_autoptr(WsAnomalyResult) unflagged = NULL;
    g_autofree char *empty_path = tmp_store ();
    g_autoptr(WsHistoryStore) empty = ws_history_store_open (empty_path, &error);

    ws_anomaly_settings_init (&none);
    none.rule = detect_rule;
    unflagged = detect_with (empty, trace, &none);
    for (guint k = 0; k < ws_anomaly_result_get_n_models (plain); k++)
      if (k != m && ws_anomaly_result_get_model (plain, k)->gmm.n_components > 0)
        g_assert_cmpfloat (ws_anomaly_result_get_model (plain, k)->threshold, ==,
                           ws_anomaly_result_get_model (unflagged, k)->threshold);
  }
}

/* The rule's two steps as plain arithmetic. */
/* The component step (docs/anomaly-detection.md, "Flags and the learning
 * rule"): flags mark the slow components that explain them, and the
 * boundary is where the marked part of the mixture becomes the more
 * probable one. */
static WsGmm
mixture_of (guint        n,
            const double parts[][3])
{
  WsGmm gmm = { .n_components = n };

  for (guint k = 0; k < n; k++)
    gmm.components[k] = (WsGmmComponent) { parts[k][0], parts[k][1], parts[k][2] * parts[k][2] };
  return gmm;
}

/* Samples at the quantiles of a mixture, sorted: a kind's data without
 * the noise of a draw. */
static double *
quantile_samples (const WsGmm *gmm,
                  guint        n)
{
  double *x = g_new (double, n);

  for (guint i = 0; i < n; i++)
    {
      double p = 1 - (i + 0.5) / n, lo = 0, hi = 40;

      for (guint j = 0; j < 60; j++)
        {
          double mid = (lo + hi) / 2;

          *(ws_gmm_upper_tail (gmm, mid) > p ? &lo : &hi) = mid;
        }
      x[i] = (lo + hi) / 2;
    }
  return x;
}

/* The index of the first of @x (sorted) at least @v. */
static guint
count_at_least (const double *x,
                guint         n,
                double        v)
{
  guint i = 0;

  while (i < n && x[i] < v)
    i++;
  return i;
}

static void
test_learning_components (void)
{
  const double two[][3] = { { 0.8, 13.0, 0.3 }, { 0.2, 15.0, 0.3 } };
  const double three[][3] = { { 0.6, 13.0, 0.3 }, { 0.25, 15.0, 0.3 }, { 0.15, 16.5, 0.3 } };
  WsGmm gmm = mixture_of (2, two), wide = mixture_of (3, three);
  double boundary = 14.0 + 0.09 * log (4.0) / 2, cut;
  WsLearnHypothesis hyps[WS_GMM_MAX_COMPONENTS];
  g_autofree double *x = quantile_samples (&gmm, 1000);
  WsLearnFlag f[3];
  guint which;

  /* The slow component proposes its Bayes boundary, known in closed form
   * for two components of equal variance: (μ₀ + μ₁)/2 + σ² ln(w₀/w₁)/(μ₁
   * − μ₀); a tail cut already below it is never raised to it. */
  g_assert_cmpuint (ws_anomaly_mark_hypotheses (&gmm, 14.6, hyps), ==, 1);
  g_assert_cmpuint (hyps[0].components, ==, 1u << 1);
  g_assert_cmpfloat_with_epsilon (hyps[0].cut, boundary, 1e-6);
  g_assert_cmpuint (ws_anomaly_mark_hypotheses (&gmm, 13.9, hyps), ==, 0);

  /* A mark calls at most a quarter of the kind anomalous: the slow
   * component with the one above it would call 40 %, so only the slowest
   * is offered. */
  g_assert_cmpuint (ws_anomaly_mark_hypotheses (&wide, 17.0, hyps), ==, 1);
  g_assert_cmpuint (hyps[0].components, ==, 1u << 2);
  g_assert_cmpfloat (hyps[0].cut, >, 15.3);
  g_assert_cmpfloat (hyps[0].cut, <, 16.2);

  /* One anomalous flag between the boundary and the tail cut marks the
   * component: the cut comes down to the first wait at or above the
   * boundary (the waits between move together). */
  g_assert_cmpuint (ws_anomaly_mark_hypotheses (&gmm, 14.6, hyps), ==, 1);
  f[0] = (WsLearnFlag) { 14.3, TRUE, 1 };
  cut = ws_anomaly_learn_kind_cut (14.6, hyps, 1, f, 1, x, 1000, 1000, &which);
  g_assert_cmpuint (which, ==, 0);
  g_assert_cmpfloat (cut, ==, x[count_at_least (x, 1000, boundary)]);
  /* Far below the boundary it marks nothing (and the model outvotes it). */
  f[0] = (WsLearnFlag) { 13.5, TRUE, 1 };
  g_assert_cmpfloat (ws_anomaly_learn_kind_cut (14.6, hyps, 1, f, 1, x, 1000, 1000, &which), ==, 14.6);
  g_assert_cmpuint (which, ==, G_MAXUINT);

  /* A false alarm just above the boundary keeps the mark and lifts the
   * cut just past it; two in the component's core outweigh the one
   * anomalous flag and the tail cut comes back. */
  f[0] = (WsLearnFlag) { 14.3, TRUE, 1 };
  f[1] = (WsLearnFlag) { boundary + 0.005, FALSE, 1 };
  cut = ws_anomaly_learn_kind_cut (14.6, hyps, 1, f, 2, x, 1000, 1000, &which);
  g_assert_cmpuint (which, ==, 0);
  g_assert_cmpfloat (cut, >, boundary + 0.005);
  g_assert_cmpfloat (cut, <=, 14.3);
  f[1] = (WsLearnFlag) { 14.4, FALSE, 1 };
  f[2] = (WsLearnFlag) { 14.5, FALSE, 1 };
  g_assert_cmpfloat (ws_anomaly_learn_kind_cut (14.6, hyps, 1, f, 3, x, 1000, 1000, &which), ==, 14.6);
}

/* The law of learning (docs/anomaly-detection.md): over random kinds
 * (mixtures, their data, the model's weight) and random sequences of
 * flags, adding a normal flag never lowers the cut and adding an
 * anomalous one never raises it; the cut depends on the set of flags,
 * not their order; removing the last flag restores the cut before it. */
static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* @n draws from @gmm (Box–Muller), sorted. */
static double *
draw_samples (const WsGmm *gmm,
              guint        n,
              GRand       *rand)
{
  double *x = g_new (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      double u = g_rand_double (rand), acc = 0;
      guint k = 0;

      for (; k + 1 < gmm->n_components; k++)
        if ((acc += gmm->components[k].weight) > u)
          break;
      x[i] = gmm->components[k].mean + sqrt (gmm->components[k].variance)
             * sqrt (-2 * log (1 - g_rand_double (rand))) * cos (2 * G_PI * g_rand_double (rand));
    }
  qsort (x, n, sizeof (double), compare_double);
  return x;
}

/* The default rule's law: over a kind whose waits
 * follow its model, the Benjamini–Hochberg bar at rate q finds any
 * anomaly at all in at most a share q of kinds (their p-values are
 * uniform: BH controls the family-wise error then), whatever the kind's
 * size; the tail rule P ≤ q calls a share q of each kind anomalous.  And
 * waits planted far out in a kind's tail are found.  Random mixtures,
 * data drawn from them. */
static void
test_fdr_rare (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (21004);
  const double q = 0.05;
  guint n_cases = 3000, any_fdr = 0, n_found = 0, n_planted = 0;
  double tail_share = 0;

  for (guint c = 0; c < n_cases; c++)
    {
      WsGmm gmm = { .n_components = g_rand_int_range (rand, 1, WS_GMM_MAX_COMPONENTS + 1) };
      double total = 0, bar, cut;
      guint n = g_rand_int_range (rand, 30, 3000), above = 0, above_tail = 0;
      g_autofree double *x = NULL;

      for (guint k = 0; k < gmm.n_components; k++)
        {
          double sd = g_rand_double_range (rand, 0.05, 1.0);

          gmm.components[k] = (WsGmmComponent) { g_rand_double_range (rand, 0.05, 1), g_rand_double_range (rand, 8, 18), sd * sd };
          total += gmm.components[k].weight;
        }
      for (guint k = 0; k < gmm.n_components; k++)
        gmm.components[k].weight /= total;
      x = draw_samples (&gmm, n, rand);
      bar = ws_anomaly_fdr_bar (&gmm, x, n, q);
      g_assert_cmpfloat (bar, >=, q / n);
      g_assert_cmpfloat (bar, <=, q);
      cut = ws_gmm_tail_quantile (&gmm, bar);
      for (guint i = 0; i < n; i++)
        {
          above += x[i] >= cut;
          above_tail += ws_gmm_upper_tail (&gmm, x[i]) <= q;
        }
      any_fdr += above > 0;
      tail_share += (double) above_tail / n;

      /* Ten waits 1,000 times as long as the kind's slowest mode's mean
       * (ln 1000 ≈ 6.9 above it, and beyond its spread): all found. */
      {
        g_autofree double *y = g_new (double, n + 10);
        double top = -G_MAXDOUBLE;

        for (guint k = 0; k < gmm.n_components; k++)
          top = MAX (top, gmm.components[k].mean + 6 * sqrt (gmm.components[k].variance));
        memcpy (y, x, n * sizeof (double));
        for (guint i = 0; i < 10; i++)
          y[n + i] = top + 6.9 + 0.01 * i;
        bar = ws_anomaly_fdr_bar (&gmm, y, n + 10, q);
        cut = ws_gmm_tail_quantile (&gmm, bar);
        for (guint i = 0; i < 10; i++)
          n_found += y[n + i] >= cut;
        n_planted += 10;
      }
    }
  g_test_message ("%u kinds drawn from their models: %u with any anomaly under FDR %.2f (%.2f %%); the tail rule "
                  "called %.2f %% of each kind anomalous; %u of %u planted waits found",
                  n_cases, any_fdr, q, 100.0 * any_fdr / n_cases, 100 * tail_share / n_cases, n_found, n_planted);
  /* At most q, with three standard errors of slack for the draw. */
  g_assert_cmpfloat ((double) any_fdr / n_cases, <=, q + 3 * sqrt (q * (1 - q) / n_cases));
  g_assert_cmpfloat (tail_share / n_cases, >, 0.8 * q);
  g_assert_cmpuint (n_found, ==, n_planted);
}

static void
test_learning_monotone (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261128);
  /* -1: the default, one flag a wait (W = the kind's size). */
  const double weights[] = { 0, 1, 10, 100, 1000, 3000, -1, -1 };
  guint n_cases = 6000, n_moved = 0, n_marked = 0;

  for (guint c = 0; c < n_cases; c++)
    {
      WsGmm gmm = { .n_components = g_rand_int_range (rand, 1, WS_GMM_MAX_COMPONENTS + 1) };
      WsLearnHypothesis hyps[WS_GMM_MAX_COMPONENTS];
      WsLearnFlag flags[16], shuffled[16];
      double total = 0, base, w = weights[g_rand_int_range (rand, 0, G_N_ELEMENTS (weights))];
      double cuts[17];
      guint n = g_rand_int_range (rand, 0, 400), n_flags = g_rand_int_range (rand, 1, 17), n_hyps;
      g_autofree double *x = NULL;

      for (guint k = 0; k < gmm.n_components; k++)
        {
          double sd = g_rand_double_range (rand, 0.05, 1.0);

          gmm.components[k] = (WsGmmComponent) { g_rand_double_range (rand, 0.05, 1), g_rand_double_range (rand, 8, 18), sd * sd };
          total += gmm.components[k].weight;
        }
      for (guint k = 0; k < gmm.n_components; k++)
        gmm.components[k].weight /= total;
      x = draw_samples (&gmm, n, rand);
      if (w < 0)
        w = n;
      /* Some data repeats exactly, as a trace's waits of one length do. */
      for (guint i = 1; i < n; i++)
        if (g_rand_int_range (rand, 0, 8) == 0)
          x[i] = x[i - 1];
      /* The tail rule's cut, or (the default rule) the FDR bar over the
       * kind's own data: either way it depends on no flag. */
      base = g_rand_boolean (rand) ? ws_gmm_tail_quantile (&gmm, g_rand_double_range (rand, 0.005, 0.2))
                                   : ws_gmm_tail_quantile (&gmm, ws_anomaly_fdr_bar (&gmm, x, n, g_rand_double_range (rand, 0.005, 0.2)));
      n_hyps = ws_anomaly_mark_hypotheses (&gmm, base, hyps);
      for (guint i = 0; i < n_flags; i++)
        {
          /* On a wait of the data, on another flag, or anywhere. */
          double at = n > 0 && g_rand_boolean (rand) ? x[g_rand_int_range (rand, 0, n)]
                      : i > 0 && g_rand_int_range (rand, 0, 4) == 0 ? flags[g_rand_int_range (rand, 0, i)].x
                      : g_rand_double_range (rand, 7, 20);

          gboolean anomalous = g_rand_boolean (rand);

          /* Every flag 1, or (the default) a normal flag weighing the
           * chance that the main component explains it: a weight of its
           * own wait and the flag-free model, so the law holds as well. */
          flags[i] = (WsLearnFlag) { at, anomalous, c % 2 ? ws_anomaly_flag_weight (&gmm, at, anomalous) : 1 };
        }
      for (guint i = 0; i <= n_flags; i++)
        {
          guint which;

          cuts[i] = ws_anomaly_learn_kind_cut (base, hyps, n_hyps, flags, i, x, n, w, &which);
          n_marked += which != G_MAXUINT;
          if (i == 0)
            {
              g_assert_cmpfloat (cuts[0], ==, base);
              continue;
            }
          if (flags[i - 1].anomalous)
            g_assert_cmpfloat (cuts[i], <=, cuts[i - 1]);
          else
            g_assert_cmpfloat (cuts[i], >=, cuts[i - 1]);
          n_moved += cuts[i] != cuts[i - 1];
        }
      /* The same flags in another order: the same cut, bit for bit. */
      memcpy (shuffled, flags, n_flags * sizeof (WsLearnFlag));
      for (guint i = n_flags; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i);
          WsLearnFlag t = shuffled[i - 1];

          shuffled[i - 1] = shuffled[j];
          shuffled[j] = t;
        }
      g_assert_cmpfloat (ws_anomaly_learn_kind_cut (base, hyps, n_hyps, shuffled, n_flags, x, n, w, NULL), ==,
                         cuts[n_flags]);
      g_assert_cmpfloat (ws_anomaly_learn_kind_cut (base, hyps, n_hyps, shuffled, n_flags - 1, x, n, w, NULL), ==,
                         ws_anomaly_learn_kind_cut (base, hyps, n_hyps, shuffled, n_flags - 1, x, n, w, NULL));
    }
  g_test_message ("%u kinds: the cut moved %u times, followed a mark %u times", n_cases, n_moved, n_marked);
  /* The test means something only if flags do move cuts and marks. */
  g_assert_cmpuint (n_moved, >, n_cases / 2);
  g_assert_cmpuint (n_marked, >, n_cases / 20);
}

/* The slow component of a kind whose model cut lies inside it: the
 * unflagged wait well below the cut (by 0.25, a fifth shorter, so that
 * the refit without it leaves it below) that component explains best. */
static const WsWaitScore *
pick_in_slow_component (WsAnomalyResult *result,
                        guint           *model_out,
                        guint           *component_out)
{
  WsTrace *trace = ws_anomaly_result_get_trace (result, 0);
  const WsWaitScore *s, *best = NULL;
  double best_r = 0;
  guint n;

  s = ws_anomaly_result_get_scores (result, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsAnomalyModel *m = ws_anomaly_result_get_model (result, s[i].model);
      double x = log ((double) ws_event_duration (ws_trace_get_event (trace, s[i].event))), r[WS_GMM_MAX_COMPONENTS];
      guint main = 0;

      if (m->level != WS_MODEL_LEVEL_SIGNATURE || s[i].model_anomalous || m->gmm.n_components < 2)
        continue;
      for (guint k = 1; k < m->gmm.n_components; k++)
        main = m->gmm.components[k].weight > m->gmm.components[main].weight ? k : main;
      ws_gmm_posteriors (&m->gmm, x, r);
      for (guint k = 0; k < m->gmm.n_components; k++)
        if (m->gmm.components[k].mean < m->cut && m->gmm.components[k].mean > m->gmm.components[main].mean
            && m->gmm.components[k].weight < 0.5 && r[k] > best_r
            && x > m->gmm.components[k].mean - 0.5 * sqrt (m->gmm.components[k].variance) && x < m->cut - 0.25)
          {
            best = &s[i];
            best_r = r[k];
            *model_out = s[i].model;
            *component_out = k;
          }
    }
  g_assert_nonnull (best);
  return best;
}

/* The component step on a real trace with injected faults (the lock
 * kind, whose faults form a component of their own and whose model cut
 * lies inside it): one wait of it below that cut flagged anomalous marks
 * the component and lowers the kind's cut to its boundary, which carries
 * to many unflagged waits; two of the waits that made anomalous flagged
 * normal unmark it again. */
static void
test_learning_component_on_trace (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("anomaly/faults.perf.txt.gz");
  g_autoptr(WsAnomalyResult) before = detect (store, trace);
  g_autoptr(WsAnomalyResult) marked = NULL;
  g_autoptr(WsAnomalyResult) unmarked = NULL;
  guint m = 0, k = 0, n, n_new = 0;
  const WsWaitScore *flagged = pick_in_slow_component (before, &m, &k);
  const WsAnomalyModel *model;
  const WsWaitScore *s;
  double base_cut = ws_anomaly_result_get_model (before, m)->cut;

  marked = flag_checking_reach (store, before, flagged->event, WS_ANOMALY_FLAG_ANOMALOUS);
  model = ws_anomaly_result_get_model (marked, m);
  g_assert_true (model->marked_components & (1u << k));
  g_assert_cmpfloat (model->cut, <, base_cut);
  g_assert_true (ws_anomaly_result_lookup (marked, 0, flagged->event)->anomalous);
  s = ws_anomaly_result_get_scores (marked, 0, &n);
  for (guint i = 0; i < n; i++)
    n_new += s[i].model == m && s[i].flag == WS_ANOMALY_FLAG_NONE && s[i].model_anomalous
             && !ws_anomaly_result_lookup (before, 0, s[i].event)->model_anomalous;
  g_test_message ("%s: one anomalous flag in component %u moves the cut %.2f -> %.2f, %u more unflagged waits "
                  "anomalous (of %u samples)", model->key, k, base_cut, model->cut, n_new, model->samples->len);
  g_assert_cmpuint (n_new, >=, 20);

  /* Waits it made anomalous flagged normal outvote the one once their
   * weights (each the chance that the main component explains the wait,
   * ws_anomaly_flag_weight()) pass the mark's margin, 1 − ½ flag; one
   * normal flag inside the component, weighing less than that, does not
   * (an analyst rejecting the mark's false alarms finds such waits there
   * because they are errors: under equal weights one undid the mark, and
   * the correcting analyst's curve fell back, docs/anomaly-detection.md). */
  {
    double sum = 0;
    guint done = 0;

    for (guint j = 0; j < n && sum <= 0.6; j++)
      if (s[j].model == m && s[j].flag == WS_ANOMALY_FLAG_NONE && s[j].model_anomalous
          && !ws_anomaly_result_lookup (before, 0, s[j].event)->model_anomalous)
        {
          double x = log ((double) ws_event_duration (ws_trace_get_event (trace, s[j].event)));
          double w = ws_anomaly_flag_weight (&model->gmm, x, FALSE);

          flag (store, marked, s[j].event, WS_ANOMALY_FLAG_NORMAL);
          if (done++ == 0 && w < 0.5)
            {
              g_autoptr(WsAnomalyResult) one = detect (store, trace);
              g_assert_true (ws_anomaly_result_get_model (one, m)->marked_components & (1u << k));
            }
          sum += w;
        }
    g_test_message ("%u normal flags of weight %.2f in all undo the mark", done, sum);
    g_assert_cmpfloat (sum, >, 0.6);
  }
  unmarked = detect (store, trace);
  g_assert_false (ws_anomaly_result_get_model (unmarked, m)->marked_components & (1u << k));
  /* Every flag removed (undo): every verdict as before the first, bit for bit. */
  {
    g_autoptr(WsAnomalyResult) undone = NULL;
    const WsWaitScore *u, *o;
    guint n_u;

    s = ws_anomaly_result_get_scores (unmarked, 0, &n);
    for (guint j = 0; j < n; j++)
      if (s[j].flag != WS_ANOMALY_FLAG_NONE)
        flag (store, unmarked, s[j].event, WS_ANOMALY_FLAG_NONE);
    undone = detect (store, trace);
    u = ws_anomaly_result_get_scores (undone, 0, &n_u);
    o = ws_anomaly_result_get_scores (before, 0, &n);
    g_assert_cmpuint (n_u, ==, n);
    for (guint j = 0; j < n; j++)
      {
        g_assert_cmpint (u[j].anomalous, ==, o[j].anomalous);
        g_assert_cmpfloat (u[j].score, ==, o[j].score);
      }
    g_assert_cmpfloat (ws_anomaly_result_get_model (undone, m)->cut, ==, base_cut);
  }
  g_assert_cmpfloat (ws_anomaly_result_get_model (unmarked, m)->cut, >=, base_cut - 0.05);
}

/* A mark never calls most of a kind anomalous.  With py-locks in the
 * history, the fault trace's condition-variable waits share a signature
 * with py-locks' timed waits, and the mixture has slow components that
 * sit on the bulk of the fault program's waits: one wait of each slow
 * component, flagged anomalous, must leave the kind's threshold at most
 * a quarter (ws_anomaly_learn_marks(); the first version marked 57 %). */
static void
test_learning_mark_bounded (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) other = load ("py-locks.perf.txt.gz");
  g_autoptr(WsTrace) trace = load ("anomaly/faults.perf.txt.gz");
  g_autoptr(WsAnomalyResult) before = NULL;
  g_autoptr(WsAnomalyResult) after = NULL;
  WsAnomalySettings settings;
  const WsWaitScore *s;
  guint n, n_flags = 0;

  ws_anomaly_settings_init (&settings);
  g_assert_true (ws_anomaly_record_trace (store, other, "py-locks", &settings, NULL, NULL, &error));
  g_assert_no_error (error);
  before = detect (store, trace);
  s = ws_anomaly_result_get_scores (before, 0, &n);
  for (guint m = 0; m < ws_anomaly_result_get_n_models (before); m++)
    {
      const WsAnomalyModel *model = ws_anomaly_result_get_model (before, m);

      for (guint k = 0; k < model->gmm.n_components; k++)
        {
          const WsGmmComponent *c = &model->gmm.components[k];
          guint best = WS_NONE;
          double best_gap = G_MAXDOUBLE;

          if (c->mean >= model->cut)
            continue;
          for (guint i = 0; i < n; i++)
            {
              double x = log ((double) ws_event_duration (ws_trace_get_event (trace, s[i].event)));

              if (s[i].model == m && !s[i].model_anomalous && fabs (x - c->mean) < best_gap)
                {
                  best_gap = fabs (x - c->mean);
                  best = s[i].event;
                }
            }
          if (best != WS_NONE && best_gap < 0.2 && ws_anomaly_result_lookup (before, 0, best)->flag == WS_ANOMALY_FLAG_NONE)
            {
              flag (store, before, best, WS_ANOMALY_FLAG_ANOMALOUS);
              n_flags++;
            }
        }
    }
  after = detect (store, trace);
  for (guint m = 0; m < ws_anomaly_result_get_n_models (after); m++)
    {
      const WsAnomalyModel *model = ws_anomaly_result_get_model (after, m);

      if (model->marked_components != 0)
        g_test_message ("%s: marks %x, threshold %.3f", model->key, model->marked_components, model->threshold);
      g_assert_cmpfloat (model->threshold, <=, 0.25 + 0.01);
    }
  g_assert_cmpuint (n_flags, >=, 4);
}

static void
test_learning_steps (void)
{
  WsLearnFlag f[4];
  double kappa = 4, delta = G_LN10;

  /* No flag, or flags that agree with the bar: the bar stays. */
  g_assert_cmpfloat (ws_anomaly_learn_shrink (3.0, f, 0, kappa, delta), ==, 3.0);
  f[0] = (WsLearnFlag) { 1.0, FALSE, 1 };
  f[1] = (WsLearnFlag) { 5.0, TRUE, 1 };
  g_assert_cmpfloat (ws_anomaly_learn_shrink (3.0, f, 2, kappa, delta), ==, 3.0);

  /* One normal flag, however improbable its wait: at most delta / (1 + kappa). */
  f[0] = (WsLearnFlag) { 25.0, FALSE, 1 };
  g_assert_cmpfloat_with_epsilon (ws_anomaly_learn_shrink (3.0, f, 1, kappa, delta), 3.0 + delta / 5, 1e-12);
  /* A small move goes n / (n + kappa) of the way: past the flag by the margin. */
  f[0] = (WsLearnFlag) { 3.5, FALSE, 1 };
  g_assert_cmpfloat_with_epsilon (ws_anomaly_learn_shrink (3.0, f, 1, kappa, delta), 3.0 + 0.6 / 5, 1e-12);

  /* The hard cut: past a normal flag, onto an anomalous one, majority wins. */
  f[0] = (WsLearnFlag) { 3.5, FALSE, 1 };
  g_assert_cmpfloat_with_epsilon (ws_anomaly_learn_cut (3.0, f, 1), 3.6, 1e-12);
  f[0] = (WsLearnFlag) { 2.0, TRUE, 1 };
  g_assert_cmpfloat (ws_anomaly_learn_cut (3.0, f, 1), ==, 2.0);
  f[0] = (WsLearnFlag) { 4.0, FALSE, 1 };
  f[1] = (WsLearnFlag) { 4.2, FALSE, 1 };
  f[2] = (WsLearnFlag) { 3.5, TRUE, 1 };
  g_assert_cmpfloat_with_epsilon (ws_anomaly_learn_cut (3.0, f, 3), 4.3, 1e-12);

  /* With the model's votes: 100 samples 0, 0.5, … 49.5, the cut at 47.75
   * (4 anomalous).  A normal flag at 49 would cross 3 samples (48, 48.5,
   * 49): worth 3 flags at weight 100, so the cut stays; 0.3 at weight 10,
   * so it moves past the flag, onto the next wait (49.5). */
  {
    double samples[100];

    for (guint i = 0; i < 100; i++)
      samples[i] = i * 0.5;
    f[0] = (WsLearnFlag) { 49.0, FALSE, 1 };
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 1, samples, 100, 100, NULL), ==, 47.75);
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 1, samples, 100, 10, NULL), ==, 49.5);
    /* An anomalous flag at 47: two samples (47, 47.5) crossed, worth 2
     * flags at weight 100, so the cut stays; at weight 10 it comes down
     * onto the flag. */
    f[0] = (WsLearnFlag) { 47.0, TRUE, 1 };
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 1, samples, 100, 100, NULL), ==, 47.75);
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 1, samples, 100, 10, NULL), ==, 47.0);
    /* No flag: the model's cut. */
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 0, samples, 100, 10, NULL), ==, 47.75);
    /* As many flags either way: the higher cut (fewer waits called
     * anomalous) among those that cost the same. */
    f[0] = (WsLearnFlag) { 47.0, TRUE, 1 };
    f[1] = (WsLearnFlag) { 47.2, FALSE, 1 };
    g_assert_cmpfloat (ws_anomaly_learn_kind_cut (47.75, NULL, 0, f, 2, samples, 100, 0, NULL), ==, 47.75);
  }
}

static void
assert_same_gmm (const WsGmm *a,
                 const WsGmm *b)
{
  g_assert_cmpuint (a->n_components, ==, b->n_components);
  g_assert_cmpuint (a->n_iterations, ==, b->n_iterations);
  g_assert_true (a->bic == b->bic && a->mean_log_likelihood == b->mean_log_likelihood
                 && a->n_samples == b->n_samples && a->converged == b->converged);
  for (guint j = 0; j < a->n_components; j++)
    g_assert_true (a->components[j].weight == b->components[j].weight
                   && a->components[j].mean == b->components[j].mean
                   && a->components[j].variance == b->components[j].variance);
}

/* Fits spread over threads give the bits one fit after another gives:
 * a fit is a pure function of its data (its own seeded generator). */
static void
test_gmm_fit_many_same_bits (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  WsGmmJob jobs[24];
  double *data[G_N_ELEMENTS (jobs)];
  g_autoptr(GError) error = NULL;
  WsGmmSettings s;

  ws_gmm_settings_init (&s);
  gsl_rng_set (rng, 23);
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      gsize n = 1 + gsl_rng_uniform_int (rng, t % 4 == 0 ? 12000 : 2000);
      guint modes = 1 + gsl_rng_uniform_int (rng, 4);

      data[t] = g_new (double, n);
      for (gsize i = 0; i < n; i++)
        data[t][i] = log (1000.0 * MAX (1.0, round (exp (3 + 2.1 * gsl_rng_uniform_int (rng, modes)
                                                         + gsl_ran_gaussian (rng, 0.5)))));
      jobs[t] = (WsGmmJob) { data[t], n };
    }
  g_assert_true (ws_gmm_fit_many (jobs, G_N_ELEMENTS (jobs), &s, 3, NULL, &error));
  g_assert_no_error (error);
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      WsGmm alone;

      g_assert_true (jobs[t].ok);
      g_assert_true (ws_gmm_fit (data[t], jobs[t].n, &s, &alone, NULL, NULL));
      assert_same_gmm (&jobs[t].gmm, &alone);
      g_free (data[t]);
    }
  gsl_rng_free (rng);
}

/* Random data sets for ws_gmm_fit_many(): every size from one sample
 * (one K to try) to past the binning threshold, one to four modes. */
static void
random_jobs (gsl_rng  *rng,
             WsGmmJob *jobs,
             double  **data,
             guint     n_jobs)
{
  for (guint t = 0; t < n_jobs; t++)
    {
      gsize n = t < 4 ? t + 1 : 1 + gsl_rng_uniform_int (rng, t % 5 == 0 ? 12000 : 1500);
      guint modes = 1 + gsl_rng_uniform_int (rng, 4);

      data[t] = g_new (double, n);
      for (gsize i = 0; i < n; i++)
        data[t][i] = log (1000.0 * MAX (1.0, round (exp (3 + 2.1 * gsl_rng_uniform_int (rng, modes)
                                                         + gsl_ran_gaussian (rng, 0.5)))));
      if (t % 2 == 0)
        gsl_sort (data[t], 1, n);
      jobs[t] = (WsGmmJob) { data[t], n };
    }
}

/* Law: the K of the fits may be taken in any order, on any number of
 * threads — each fit is the bits ws_gmm_fit() gives alone.  The order is
 * shuffled on purpose (ws_gmm_fit_many_ordered()), so a result that went
 * to the slot of the unit finished rather than the unit taken, or a
 * choice among K made as they finish, shows on one thread too. */
static void
test_gmm_fit_many_any_order (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  WsGmmJob jobs[14];
  double *data[G_N_ELEMENTS (jobs)];
  WsGmm alone[G_N_ELEMENTS (jobs)];
  WsGmmSettings s;

  /* Fitted here, not found among fits made before (as meson runs it). */
  g_setenv ("WAITSCOPE_FIT_CACHE", "", TRUE);
  ws_gmm_cache_reset ();
  ws_gmm_settings_init (&s);
  gsl_rng_set (rng, 41);
  random_jobs (rng, jobs, data, G_N_ELEMENTS (jobs));
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    g_assert_true (ws_gmm_fit (data[t], jobs[t].n, &s, &alone[t], NULL, NULL));
  for (guint64 seed = 0; seed < 6; seed++)
    for (guint threads = 1; threads <= 4; threads++)
      {
        g_autoptr(GError) error = NULL;

        for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
          memset (&jobs[t].gmm, 0, sizeof jobs[t].gmm);
        g_assert_true (ws_gmm_fit_many_ordered (jobs, G_N_ELEMENTS (jobs), &s, threads, seed, NULL, &error));
        g_assert_no_error (error);
        for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
          {
            g_assert_true (jobs[t].ok);
            assert_same_gmm (&jobs[t].gmm, &alone[t]);
          }
      }
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    g_free (data[t]);
  gsl_rng_free (rng);
}

/* ws_gmm_choose(): the first of the lowest BIC in K order, over random
 * candidates with many ties. */
static void
test_gmm_choose_law (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 2000; round++)
    {
      WsGmm candidates[WS_GMM_MAX_COMPONENTS], chosen;
      guint n = (guint) g_rand_int_range (rand, 1, WS_GMM_MAX_COMPONENTS + 1), best = 0;

      for (guint k = 0; k < n; k++)
        {
          memset (&candidates[k], 0, sizeof candidates[k]);
          candidates[k].n_components = k + 1;
          candidates[k].bic = g_rand_int_range (rand, 0, 3);
          if (candidates[k].bic < candidates[best].bic)
            best = k;
        }
      ws_gmm_choose (candidates, n, &chosen);
      g_assert_cmpuint (chosen.n_components, ==, best + 1);
    }
}

/* The fits' threads run at the nice value of the thread that asked for
 * them: the window scores at nice 5 (ws_task_run_in_thread_at_nice()) so
 * that it never delays what is on screen, and a fit on a thread at the
 * normal priority would.  A watcher reads every "ws-gmm-fit" thread's
 * nice value from /proc while the fits run, then cancels them. */
typedef struct {
  WsGmmJob     *jobs;
  guint         n_jobs;
  int           nice;
  GCancellable *cancellable;
  gint          started;
} NicedFits;

static gpointer
fit_at_nice (gpointer data)
{
  NicedFits *f = data;
  WsGmmSettings s;

  ws_gmm_settings_init (&s);
  s.tolerance = 0;   /* every K runs all its iterations: the fits outlast the watcher */
  g_assert_cmpint (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), f->nice), ==, 0);
  g_atomic_int_set (&f->started, 1);
  ws_gmm_fit_many (f->jobs, f->n_jobs, &s, 3, f->cancellable, NULL);
  return NULL;
}

/* The nice values of this process's threads named @name. */
static GArray *
nice_of_threads (const char *name)
{
  GArray *nices = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;

  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *comm_path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
      g_autofree char *stat_path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
      g_autofree char *comm = NULL;
      g_autofree char *stat = NULL;
      g_auto(GStrv) fields = NULL;
      const char *after;
      int nice;

      if (!g_file_get_contents (comm_path, &comm, NULL, NULL) || g_strcmp0 (g_strchomp (comm), name) != 0
          || !g_file_get_contents (stat_path, &stat, NULL, NULL) || (after = strrchr (stat, ')')) == NULL)
        continue;
      /* After "pid (comm)": state is field 3, nice field 19. */
      fields = g_strsplit (after + 2, " ", -1);
      g_assert_cmpuint (g_strv_length (fields), >, 16);
      nice = atoi (fields[16]);
      g_array_append_val (nices, nice);
    }
  return nices;
}

static void
test_gmm_fit_many_inherits_nice (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  WsGmmJob jobs[4];
  double *data[G_N_ELEMENTS (jobs)];
  NicedFits f = { jobs, G_N_ELEMENTS (jobs), 0, cancellable, 0 };
  GThread *thread;
  guint seen = 0;
  gint64 until;

  g_setenv ("WAITSCOPE_FIT_CACHE", "", TRUE);
  ws_gmm_cache_reset ();
  f.nice = MIN (getpriority (PRIO_PROCESS, 0) + 5, 19);
  gsl_rng_set (rng, 43);
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      gsize n = 6000;

      data[t] = g_new (double, n);
      for (gsize i = 0; i < n; i++)
        data[t][i] = 3 + 2.1 * gsl_rng_uniform_int (rng, 4) + gsl_ran_gaussian (rng, 0.5);
      jobs[t] = (WsGmmJob) { data[t], n };
    }
  thread = g_thread_new ("niced-caller", fit_at_nice, &f);
  /* Two fit threads besides the caller, each seen at least once. */
  until = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (seen < 2 && g_get_monotonic_time () < until)
    {
      g_autoptr(GArray) nices = g_atomic_int_get (&f.started) ? nice_of_threads ("ws-gmm-fit") : NULL;

      for (guint i = 0; nices != NULL && i < nices->len; i++)
        g_assert_cmpint (g_array_index (nices, int, i), ==, f.nice);
      seen = MAX (seen, nices != NULL ? nices->len : 0);
      g_usleep (1000);
    }
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  g_assert_cmpuint (seen, ==, 2);
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    g_free (data[t]);
  gsl_rng_free (rng);
}

/* Law: ws_sort_log_durations() gives, bit for bit, the array a
 * comparison sort (GSL's heap sort) gives, and merging two sorted halves
 * gives the sorted whole — over random log-durations with many repeats,
 * +0 (a 1 ns wait), huge ones, every size around the insertion-sort
 * cut-off, and a negative value (its comparison-sort fallback). */
static void
test_sorted_samples_law (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);

  gsl_rng_set (rng, 29);
  for (guint round = 0; round < 400; round++)
    {
      gsize n = round < 100 ? round : 1 + gsl_rng_uniform_int (rng, round % 7 == 0 ? 40000 : 3000);
      gsize cut = n > 0 ? gsl_rng_uniform_int (rng, n + 1) : 0;
      g_autofree double *x = g_new (double, MAX (n, 1));
      g_autofree double *expected = g_new (double, MAX (n, 1));
      g_autofree double *merged = g_new (double, MAX (n, 1));

      for (gsize i = 0; i < n; i++)
        {
          /* Durations as perf prints them (whole µs), some 1 ns (log 0),
           * some up to 2^62 ns. */
          double u = gsl_rng_uniform (rng);
          gint64 d = u < 0.05 ? 1 : u < 0.1 ? (gint64) (gsl_rng_uniform (rng) * 4.6e18)
                   : 1000 * (gint64) (1 + gsl_rng_uniform_int (rng, 1 + round * 10));

          x[i] = log ((double) d);
        }
      if (round % 50 == 49 && n > 0)
        x[gsl_rng_uniform_int (rng, n)] = -1.5;
      memcpy (expected, x, n * sizeof *x);
      gsl_sort (expected, 1, n);
      /* Each part sorted, then merged, as the detector gathers a kind. */
      ws_sort_log_durations (x, cut);
      ws_sort_log_durations (x + cut, n - cut);
      ws_merge_sorted_doubles (x, cut, x + cut, n - cut, merged);
      g_assert_cmpmem (merged, n * sizeof *x, expected, n * sizeof *x);
      ws_sort_log_durations (merged, n);
      g_assert_cmpmem (merged, n * sizeof *x, expected, n * sizeof *x);
    }
  gsl_rng_free (rng);
}

static void
cache_exec (const char          *path,
            const char          *sql,
            const WsGmmCacheKey *key)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_blob (stmt, 1, key->bytes, sizeof key->bytes, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* ws_gmm_fit_many() with every job checked against a fit made here. */
static void
fit_many_as_alone (WsGmmJob            *jobs,
                   guint                n_jobs,
                   const WsGmmSettings *s,
                   guint                except)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ws_gmm_fit_many (jobs, n_jobs, s, 2, NULL, &error));
  g_assert_no_error (error);
  for (guint t = 0; t < n_jobs; t++)
    {
      WsGmm alone;

      g_assert_true (ws_gmm_fit (jobs[t].x, jobs[t].n, s, &alone, NULL, NULL));
      if (t != except)
        assert_same_gmm (&jobs[t].gmm, &alone);
    }
}

/* The fit cache (ws-gmm-cache.c): fits found there are the bits a fit
 * gives; an entry is found under its own data and settings only (a row
 * changed by hand shows where it was read); a row of the wrong shape, or
 * a cache that is not a database, only means fitting again. */
static void
test_gmm_cache (void)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  g_autofree char *dir = g_dir_make_tmp ("ws-fit-cache-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "fits.sqlite", NULL);
  WsGmmJob jobs[6];
  double *data[G_N_ELEMENTS (jobs)];
  WsGmmCacheKey key, other;
  WsGmmSettings s;
  double saved;

  ws_gmm_settings_init (&s);
  gsl_rng_set (rng, 31);
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    {
      gsize n = 50 + gsl_rng_uniform_int (rng, t == 0 ? 10000 : 1500);

      data[t] = g_new (double, n);
      for (gsize i = 0; i < n; i++)
        data[t][i] = log (1000.0 * MAX (1.0, round (exp (4 + 2.5 * gsl_rng_uniform_int (rng, 3)
                                                         + gsl_ran_gaussian (rng, 0.4)))));
      gsl_sort (data[t], 1, n);
      jobs[t] = (WsGmmJob) { data[t], n };
    }
  g_setenv ("WAITSCOPE_FIT_CACHE", path, TRUE);
  ws_gmm_cache_reset ();
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, G_MAXUINT);   /* fills */
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, G_MAXUINT);   /* finds */

  /* Found under its own key: job 2's row, changed, shows in job 2 only. */
  ws_gmm_cache_key (jobs[2].x, jobs[2].n, &s, &key);
  cache_exec (path, "UPDATE gmm_fits SET n_iterations = 9999 WHERE key = ?1", &key);
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, 2);
  g_assert_cmpuint (jobs[2].gmm.n_iterations, ==, 9999);
  /* A row of the wrong shape is a miss: job 2 is fitted again, and
   * remembered right. */
  cache_exec (path, "UPDATE gmm_fits SET params = x'00' WHERE key = ?1", &key);
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, G_MAXUINT);
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, G_MAXUINT);

  /* The key holds the settings and every bit of the data. */
  s.tolerance = 1e-6;
  ws_gmm_cache_key (jobs[2].x, jobs[2].n, &s, &other);
  g_assert_true (memcmp (&key, &other, sizeof key) != 0);
  ws_gmm_settings_init (&s);
  saved = data[2][0];
  data[2][0] = nextafter (saved, G_MAXDOUBLE);
  ws_gmm_cache_key (jobs[2].x, jobs[2].n, &s, &other);
  g_assert_true (memcmp (&key, &other, sizeof key) != 0);
  data[2][0] = saved;
  ws_gmm_cache_key (jobs[2].x, jobs[2].n - 1, &s, &other);
  g_assert_true (memcmp (&key, &other, sizeof key) != 0);
  ws_gmm_cache_key (jobs[2].x, jobs[2].n, &s, &other);
  g_assert_true (memcmp (&key, &other, sizeof key) == 0);

  /* Not a database: fitted, same bits. */
  ws_gmm_cache_reset ();
  g_assert_true (g_file_set_contents (path, "not a database", -1, NULL));
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *side = g_strconcat (path, i == 0 ? "-wal" : "-shm", NULL);
      g_remove (side);
    }
  fit_many_as_alone (jobs, G_N_ELEMENTS (jobs), &s, G_MAXUINT);

  g_setenv ("WAITSCOPE_FIT_CACHE", "", TRUE);   /* off again, as the tests run */
  ws_gmm_cache_reset ();
  for (guint t = 0; t < G_N_ELEMENTS (jobs); t++)
    g_free (data[t]);
  gsl_rng_free (rng);
}

static WsAnomalyResult *
detect_on_threads (WsHistoryStore *store,
                   WsTrace        *trace,
                   guint           threads)
{
  WsAnomalySettings settings;

  ws_anomaly_settings_init (&settings);
  settings.threads = threads;
  return detect_with (store, trace, &settings);
}

/* Scoring on one thread and on three gives the same models and scores,
 * bit for bit, with a history whose fits the FDR rule takes as its null
 * (the trace recorded under another name, so its waits are new). */
static void
test_detect_threads_same_bits (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsAnomalyResult) one = NULL, many = NULL;
  WsAnomalySettings settings;
  gboolean newly;
  guint n_one, n_many;
  const WsWaitScore *a, *b;

  ws_anomaly_settings_init (&settings);
  g_assert_true (ws_anomaly_record_trace (store, trace, "recorded-before", &settings, &newly, NULL, &error));
  one = detect_on_threads (store, trace, 1);
  many = detect_on_threads (store, trace, 3);
  g_assert_cmpuint (ws_anomaly_result_get_n_models (one), ==, ws_anomaly_result_get_n_models (many));
  g_assert_cmpuint (ws_anomaly_result_get_n_models (one), >, 10);
  for (guint m = 0; m < ws_anomaly_result_get_n_models (one); m++)
    {
      const WsAnomalyModel *x = ws_anomaly_result_get_model (one, m), *y = ws_anomaly_result_get_model (many, m);

      WsGmm direct;

      g_assert_cmpstr (x->key, ==, y->key);
      assert_same_gmm (&x->gmm, &y->gmm);
      /* … and the fit of the model's own data, made here. */
      if (x->samples != NULL && x->samples->len > 0)
        {
          g_assert_true (ws_gmm_fit ((const double *) (gpointer) x->samples->data, x->samples->len,
                                     &settings.gmm, &direct, NULL, NULL));
          assert_same_gmm (&x->gmm, &direct);
        }
      g_assert_true (x->cut == y->cut && x->base_cut == y->base_cut && x->threshold == y->threshold);
    }
  a = ws_anomaly_result_get_scores (one, 0, &n_one);
  b = ws_anomaly_result_get_scores (many, 0, &n_many);
  g_assert_cmpuint (n_one, ==, n_many);
  for (guint i = 0; i < n_one; i++)
    g_assert_true (a[i].event == b[i].event && a[i].score == b[i].score && a[i].anomalous == b[i].anomalous);
}

static void
test_detect_reads_only (void)
{
  g_autofree char *path = tmp_store ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsHistoryStore) store = ws_history_store_open (path, &error);
  g_autoptr(WsTrace) trace = load ("py-locks.perf.txt.gz");
  g_autoptr(WsAnomalyResult) result = NULL;
  WsHistoryStats a, b;

  g_assert_true (ws_history_store_get_stats (store, &a, &error));
  result = detect (store, trace);
  g_assert_true (ws_history_store_get_stats (store, &b, &error));
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
  g_assert_cmpuint (ws_anomaly_result_count_anomalous (result, 0), >, 0);
}

/* "Most anomalous waits": the chain with the most marked nodes wins,
 * whatever its average; marks from a real detection reach the tree. */
static void
test_chain_metric (void)
{
  g_autoptr(WsTrace) trace = load ("pg-tpcb.perf.txt.gz");
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsAnomalyResult) result = NULL;
  guint avg_chain, other = WS_NONE, n, marked;
  g_autofree guint32 *nodes = NULL;

  for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace) && tree == NULL; i++)
    {
      g_autoptr(WsReadyTree) t = NULL;
      WsReadyTreeSettings settings;
      WsSymptom symptom;

      if (!ws_symptom_from_scenario_instance (trace, i, &symptom))
        continue;
      ws_ready_tree_settings_init (&settings, &symptom);
      t = ws_ready_tree_run (trace, &settings, NULL, NULL, NULL, NULL);
      if (t != NULL && ws_ready_tree_get_n_chains (t) >= 3)
        tree = g_steal_pointer (&t);
    }
  g_assert_nonnull (tree);

  avg_chain = ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_AVERAGE);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_ANOMALOUS), ==, avg_chain);
  for (guint c = 0; c < ws_ready_tree_get_n_chains (tree) && other == WS_NONE; c++)
    if (c != avg_chain)
      other = c;
  nodes = ws_ready_tree_get_chain (tree, other, &n);
  ws_ready_tree_mark_anomalous (tree, nodes[n - 1], TRUE);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_ANOMALOUS), !=, avg_chain);
  ws_ready_tree_mark_anomalous (tree, nodes[n - 1], FALSE);
  g_assert_cmpuint (ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_ANOMALOUS), ==, avg_chain);

  result = detect (NULL, trace);
  marked = ws_anomaly_result_mark_ready_tree (result, 0, tree);
  for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
    {
      const WsWaitScore *s = ws_anomaly_result_lookup (result, 0, ws_ready_tree_get_node (tree, i)->event);
      g_assert_cmpint (ws_ready_tree_is_anomalous (tree, i), ==, s != NULL && s->anomalous);
    }
  g_test_message ("%u of %u nodes anomalous", marked, ws_ready_tree_get_n_nodes (tree));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/anomaly/gmm/recovers-mixture", test_gmm_recovers_mixture);
  g_test_add_func ("/anomaly/gmm/tail", test_gmm_tail);
  g_test_add_func ("/anomaly/gmm/repeats-weighted", test_gmm_repeats_weighted);
  g_test_add_func ("/anomaly/signature", test_signature);
  g_test_add_func ("/anomaly/signature-tells-waits-apart", test_signature_tells_waits_apart);
  g_test_add_func ("/anomaly/history-old-signatures-kept-apart", test_history_old_signatures_kept_apart);
  g_test_add_func ("/anomaly/history/once-and-bounded", test_history_once_and_bounded);
  g_test_add_func ("/anomaly/detect/reads-only", test_detect_reads_only);
  g_test_add_func ("/anomaly/gmm/fit-many-same-bits", test_gmm_fit_many_same_bits);
  g_test_add_func ("/anomaly/gmm/fit-many-any-order", test_gmm_fit_many_any_order);
  g_test_add_func ("/anomaly/gmm/choose-law", test_gmm_choose_law);
  g_test_add_func ("/anomaly/gmm/fit-many-inherits-nice", test_gmm_fit_many_inherits_nice);
  g_test_add_func ("/anomaly/sorted-samples-law", test_sorted_samples_law);
  g_test_add_func ("/anomaly/gmm/cache", test_gmm_cache);
  g_test_add_func ("/anomaly/detect/threads-same-bits", test_detect_threads_same_bits);
  g_test_add_func ("/anomaly/learning-steps", test_learning_steps);
  g_test_add_func ("/anomaly/learning-components", test_learning_components);
  g_test_add_func ("/anomaly/learning-monotone", test_learning_monotone);
  g_test_add_func ("/anomaly/fdr-rare", test_fdr_rare);
  g_test_add_func ("/anomaly/learning-component-on-trace", test_learning_component_on_trace);
  g_test_add_func ("/anomaly/learning-mark-bounded", test_learning_mark_bounded);
  g_test_add_func ("/anomaly/learning-rule", test_learning_rule);
  g_test_add_func ("/anomaly/learning-one-flag-a-wait", test_learning_one_flag_a_wait);
  g_test_add_func ("/anomaly/learning-across-signatures", test_learning_across_signatures);
  g_test_add_func ("/anomaly/chain-metric", test_chain_metric);
  return g_test_run ();
}
