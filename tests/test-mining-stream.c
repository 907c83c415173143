/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Mining traces as they load (ws_digest_load_traces(), then
 * ws_mining_run_digest()) against mining them held (ws_trace_loader_load_many(),
 * then ws_mining_run()), in process.  The held run is the oracle: the
 * `mine --json` and `cluster --json` documents are the same bytes, over
 * random subsets and orders of real traces and with one loading thread or
 * several.  ws_trace_loader_fold_many() folds in the order given and fails
 * with the error of the first path that fails, as ws_trace_loader_load_many()
 * does; cancelled, it says so.  (tests/test-mining-stream-cli.py holds the CLI
 * to the same law, text and history store included.)  Going on past the
 * traces it cannot read (ws_digest_load_traces_each(), the window's fleet),
 * the digest mines as the held good traces alone do, each bad one is named
 * with the error loading it alone gives, in the order given, and the
 * progress counts every trace once, up to "n of n".
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-error.h"
#include "ws-mining-export.h"
#include "ws-trace-loader.h"

static const char * const names[] = {
  "pg-tpcb.perf.txt.gz", "py-locks.perf.txt.gz", "build.perf.txt.gz", "io-fsync.perf.txt.gz",
  "causes/pool-straggler.perf.txt.gz", "causes/epoll-idle.perf.txt.gz", "causes/oversub.perf.txt.gz",
  "causes/flock-hold.perf.txt.gz", "causes/rwlock-writer.perf.txt.gz", "causes/sleep-cs.perf.txt.gz",
  "fleet/run-01.perf.txt.gz", "fleet/run-02.perf.txt.gz", "anomaly/relay.perf.txt.gz",
};

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

/* Settings variant @v: 0 waiting (the default), 1 running, 2 every wait,
 * 3 by cause, 4 clustered, 5 clustered by cause, 6 a content filter. */
static void
settings_variant (WsMiningSettings *s,
                  guint             v)
{
  static const char *const must[] = { "futex|sleep|poll", NULL };

  ws_mining_settings_init (s);
  s->read_history = s->record_history = FALSE;
  s->stacks = v == 1 ? WS_AOI_RUNNING : WS_AOI_WAITING;
  s->scope = v == 2 ? WS_MINING_RUN_SCOPE_ALL : WS_MINING_RUN_SCOPE_DELAYING;
  s->by_cause = v == 3 || v == 5;
  s->cluster = v == 4 || v == 5;
  s->must = v == 6 ? must : NULL;
}
#define N_VARIANTS 7

static char *
run_json (WsMiningResult         *run,
          const WsMiningSettings *s)
{
  WsMiningExportOptions export = { s->by_cause ? "causes" : s->stacks == WS_AOI_RUNNING ? "running" : "waiting",
                                   NULL, NULL, 0, NULL, NULL };
  g_autoptr(JsonNode) node = s->cluster ? ws_mining_export_clusters_json (run, &export)
                                        : ws_mining_export_patterns_json (run, &export);

  return json_to_string (node, TRUE);
}

static char *
mine_held (char **paths, const WsMiningSettings *s)
{
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) traces = ws_trace_loader_load_many (paths, stacks, NULL, NULL, &error);
  g_autoptr(WsMiningResult) run = NULL;

  g_assert_no_error (error);
  run = ws_mining_run (traces, s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return run_json (run, s);
}

static char *
mine_streamed (char **paths, const WsMiningSettings *s)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsDigest) digest = ws_digest_load_traces (paths, NULL,
                                                      WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_INSTANCES,
                                                      1u << ws_mining_settings_digest_area (s), NULL, &error);
  g_autoptr(WsMiningResult) run = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_digest_get_n_traces (digest), ==, g_strv_length (paths));
  for (guint i = 0; paths[i] != NULL; i++)
    g_assert_cmpstr (ws_digest_get_trace (digest, i)->path, ==, paths[i]);
  run = ws_mining_run_digest (digest, s, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return run_json (run, s);
}

/* A random subset of the traces in a random order. */
static GStrv
random_paths (GRand *rand)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  guint order[G_N_ELEMENTS (names)];
  guint n = g_rand_int_range (rand, 1, 7);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    order[i] = i;
  for (guint i = G_N_ELEMENTS (names) - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rand, 0, i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = data_path (names[order[i]]);
      g_strv_builder_add (b, path);
    }
  return g_strv_builder_end (b);
}

static void
test_streamed_equals_held (void)
{
  guint32 seed = g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  g_test_message ("seed %u", seed);
  for (guint round = 0; round < 8; round++)
    {
      g_auto(GStrv) paths = random_paths (rand);
      WsMiningSettings s;

      settings_variant (&s, round % N_VARIANTS);
      /* One loading thread, two and three: the same result. */
      g_setenv ("WAITSCOPE_LOAD_THREADS", round % 3 == 0 ? "1" : round % 3 == 1 ? "2" : "3", TRUE);
      {
        g_autofree char *held = mine_held (paths, &s);
        g_autofree char *streamed = mine_streamed (paths, &s);

        g_assert_cmpuint (strlen (held), >, 100);
        g_assert_cmpstr (streamed, ==, held);
      }
    }
  g_unsetenv ("WAITSCOPE_LOAD_THREADS");
}

/* Each variant over all the traces at once. */
static void
test_every_variant (void)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = data_path (names[i]);
      g_strv_builder_add (b, path);
    }
  paths = g_strv_builder_end (b);
  for (guint v = 0; v < N_VARIANTS; v++)
    {
      WsMiningSettings s;
      g_autofree char *held = NULL, *streamed = NULL;

      settings_variant (&s, v);
      held = mine_held (paths, &s);
      streamed = mine_streamed (paths, &s);
      g_assert_cmpstr (streamed, ==, held);
    }
}

typedef struct {
  GString *order;
} Fold;

static gpointer
map_name (guint index, WsTrace *trace, gpointer data, GCancellable *cancellable, GError **error)
{
  return g_strdup (ws_trace_get_name (trace));
}

static gboolean
fold_name (guint index, gpointer part, gpointer data, GError **error)
{
  Fold *f = data;

  g_string_append_printf (f->order, "%u:%s ", index, (char *) part);
  g_free (part);
  return TRUE;
}

/* A bad trace, a missing one: the error is the first in the order given,
 * the one loading them held gives; nothing after it is folded. */
static void
test_first_error (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-fold-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.perf.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.perf.txt", NULL);
  g_autofree char *a = data_path (names[1]), *b = data_path (names[2]);
  char *paths[] = { a, bad, b, missing, NULL };
  char *later[] = { a, b, missing, bad, NULL };
  char **cases[] = { paths, later };

  g_assert_true (g_file_set_contents (bad, "not perf script output\n", -1, NULL));
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint threads = 1; threads <= 3; threads++)
      {
        g_autofree char *n = g_strdup_printf ("%u", threads);
        g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
        g_autoptr(GError) held = NULL, folded = NULL;
        g_autoptr(GPtrArray) traces = NULL;
        Fold f = { g_string_new (NULL) };

        g_setenv ("WAITSCOPE_LOAD_THREADS", n, TRUE);
        traces = ws_trace_loader_load_many (cases[c], stacks, NULL, NULL, &held);
        g_assert_null (traces);
        g_assert_false (ws_trace_loader_fold_many (cases[c], NULL, NULL, map_name, fold_name, g_free, &f, &folded));
        g_assert_nonnull (folded);
        g_assert_cmpstr (folded->message, ==, held->message);
        /* Only the good traces before the failing one were folded, in order. */
        g_assert_cmpstr (f.order->str, ==, c == 0 ? "0:py-locks " : "0:py-locks 1:build ");
        g_string_free (f.order, TRUE);
      }
  g_unsetenv ("WAITSCOPE_LOAD_THREADS");
  g_unlink (bad);
  g_rmdir (dir);
}

typedef struct {
  GString *reports;
  double   last;
  guint    n;
} Progress;

static void
progress_cb (double fraction, const char *message, gpointer data)
{
  Progress *p = data;

  g_assert_cmpfloat (fraction, >=, p->last);
  p->last = fraction;
  p->n++;
  g_string_assign (p->reports, message);
}

/* Random good traces with bad ones put among them at random places. */
static void
test_each_passes_by (void)
{
  guint32 seed = g_test_rand_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree char *dir = g_dir_make_tmp ("ws-fold-each-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.perf.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.perf.txt", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.perf.txt", NULL);
  const char *bads[] = { bad, missing, empty };

  g_test_message ("seed %u", seed);
  g_assert_true (g_file_set_contents (bad, "not perf script output\n", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", -1, NULL));
  for (guint round = 0; round < 6; round++)
    {
      g_auto(GStrv) good = random_paths (rand);
      g_autoptr(GPtrArray) all = g_ptr_array_new ();
      g_autoptr(GPtrArray) expected = g_ptr_array_new ();   /* the bad paths, in order */
      g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
      g_autoptr(WsDigest) digest = NULL;
      g_autoptr(WsMiningResult) run = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *held = NULL, *streamed = NULL, *last = NULL;
      guint n_bad = g_rand_int_range (rand, 1, 4);
      Progress p = { g_string_new (NULL), 0, 0 };
      WsMiningSettings s;

      for (guint i = 0; good[i] != NULL; i++)
        g_ptr_array_add (all, good[i]);
      for (guint b = 0; b < n_bad; b++)
        g_ptr_array_insert (all, g_rand_int_range (rand, 0, all->len + 1), (gpointer) bads[g_rand_int_range (rand, 0, 3)]);
      for (guint i = 0; i < all->len; i++)
        if (!g_str_has_prefix (g_ptr_array_index (all, i), g_getenv ("WS_TEST_DATA")))
          g_ptr_array_add (expected, g_ptr_array_index (all, i));
      g_ptr_array_add (all, NULL);

      settings_variant (&s, round % N_VARIANTS);
      g_setenv ("WAITSCOPE_LOAD_THREADS", round % 3 == 0 ? "1" : round % 3 == 1 ? "2" : "3", TRUE);
      digest = ws_digest_load_traces_each ((char **) all->pdata, NULL,
                                           WS_DIGEST_READ_SKIP_WAIT_SAMPLES | WS_DIGEST_READ_SKIP_INSTANCES,
                                           1u << ws_mining_settings_digest_area (&s), progress_cb, &p, failed,
                                           NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (digest);

      /* Each bad trace named, in order, as loading it alone names it. */
      g_assert_cmpuint (failed->len, ==, expected->len);
      for (guint i = 0; i < failed->len; i++)
        {
          g_autoptr(GError) alone = NULL;
          g_autoptr(WsTrace) trace = ws_trace_loader_load_full (g_ptr_array_index (expected, i), NULL, NULL, NULL,
                                                                NULL, NULL, &alone);

          g_assert_null (trace);
          g_assert_cmpstr (((GError *) g_ptr_array_index (failed, i))->message, ==, alone->message);
        }
      /* The rest mined as the good traces held. */
      g_assert_cmpuint (ws_digest_get_n_traces (digest), ==, g_strv_length (good));
      run = ws_mining_run_digest (digest, &s, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      streamed = run_json (run, &s);
      held = mine_held (good, &s);
      g_assert_cmpstr (streamed, ==, held);

      /* One report a trace, the last "n of n". */
      g_assert_cmpuint (p.n, ==, all->len - 1);
      g_assert_cmpfloat (p.last, ==, 1.0);
      last = g_strdup_printf ("Trace %u of %u: ", all->len - 1, all->len - 1);
      g_assert_true (g_str_has_prefix (p.reports->str, last));
      g_string_free (p.reports, TRUE);
    }
  g_unsetenv ("WAITSCOPE_LOAD_THREADS");
  g_unlink (bad);
  g_unlink (empty);
  g_rmdir (dir);
}

static void
test_each_cancelled (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  g_autofree char *a = data_path (names[0]), *b = data_path (names[1]);
  char *paths[] = { a, b, NULL };
  g_autoptr(WsDigest) digest = NULL;

  g_cancellable_cancel (cancellable);
  digest = ws_digest_load_traces_each (paths, NULL, WS_DIGEST_READ_ALL, WS_DIGEST_ALL_AREAS, NULL, NULL, failed,
                                       cancellable, &error);
  g_assert_null (digest);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
  /* A cancelled load is no trace that could not be read. */
  g_assert_cmpuint (failed->len, ==, 0);
}

static void
test_cancelled (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *a = data_path (names[0]), *b = data_path (names[1]);
  char *paths[] = { a, b, NULL };
  g_autoptr(WsDigest) digest = NULL;

  g_cancellable_cancel (cancellable);
  digest = ws_digest_load_traces (paths, NULL, WS_DIGEST_READ_ALL, WS_DIGEST_ALL_AREAS, cancellable, &error);
  g_assert_null (digest);
  /* The loader says which file it was reading when it stopped. */
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mining-stream/every-variant", test_every_variant);
  g_test_add_func ("/mining-stream/random-subsets-orders", test_streamed_equals_held);
  g_test_add_func ("/mining-stream/first-error", test_first_error);
  g_test_add_func ("/mining-stream/cancelled", test_cancelled);
  g_test_add_func ("/mining-stream/each-passes-by", test_each_passes_by);
  g_test_add_func ("/mining-stream/each-cancelled", test_each_cancelled);
  return g_test_run ();
}
