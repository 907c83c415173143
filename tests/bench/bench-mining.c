/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Benchmark of costly-pattern mining and clustering at the scale of the
 * StackMine studies (a benchmark, not a timed test: it prints figures).
 *
 *   41,000 stacks of average depth 36   (third-party study, §VII.B.1)
 *   700,000 stacks                      (Windows study AOI, 689k, §VII.A.1)
 *   clustering 2,239 patterns           (Windows study pattern count)
 *
 * The stacks are built from real frames.  Every waiting and running stack
 * of the five shared perf traces (tests/data) is loaded into one stack
 * table.  Real waiting stacks are shallow (mean depth ~12 here) and few
 * (~100 distinct), so each synthetic stack is a real *waiting* stack S,
 * drawn in proportion to its real event count, deepened by an environment
 * layer inserted after S's thread root:
 *
 *   - each trace stream is a machine with its own environment, one of
 *     2^N_SLOTS (N_SLOTS = 8), a hash of the stream id;
 *   - each root frame has N_SLOTS slots, each with two alternative blocks
 *     of 3-4 real frames (contiguous runs of real *running* stacks, user
 *     side for user-rooted stacks, kernel side for kernel threads); the
 *     environment's bits pick one block per slot (get_blocks());
 *   - layer frames are frames that occur in no waiting stack and in no
 *     other block, so no two frames ever appear in both orders: like real
 *     call paths, and unlike random splicing, which makes the closed-pattern
 *     lattice (and any BIDE-style search) explode.
 *
 * This is the paper's situation: the same waits seen on many machines
 * whose stacks differ by blocks of callers (its wow64 example).  Costs are
 * log-normal wait times (median 200 µs, σ = 1.5); streams are drawn
 * uniformly, 54 for 41k stacks (the third-party study), 921 for 700k (the
 * Windows study).  λ follows the paper's guideline (§V) with share =
 * --share (default 1 %) of the streams and delay per stream = the mean
 * cost per stream: λ = share × (total / streams) × streams.
 *
 * --splice instead makes half the stacks random splices (head of one real
 * stack + tail of another, cut anywhere, depth 18-54): a stress input with
 * frames in inconsistent orders, reported separately.
 *
 * Timed: merging the stacks into a WsStackDb (identical stacks summed) and
 * ws_miner_mine(); not the trace loading or the stack synthesis.
 * Run: meson test -C BUILD --benchmark --verbose bench-mining
 *   or BUILD/tests/bench-mining [--stacks N] [--share S] [--seed N]
 *                               [--patterns N] [--only mine|cluster]
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ws-clusterer.h"
#include "ws-miner.h"
#include "ws-perf-importer.h"
#include "ws-stack-db.h"
#include "ws-trace.h"

typedef struct {
  GArray       *stacks;   /* WsStackId, distinct real stacks */
  GArray       *cumw;     /* double, cumulative event counts */
} Pool;

typedef struct {
  WsStackTable *table;
  Pool          wait;     /* waiting stacks */
  Pool          any;      /* waiting and running stacks */
  Pool          run;      /* running stacks */
  GHashTable   *wait_frames;
  GHashTable   *used_frames;  /* frames given to some layer block */
  double        mean_depth;
  guint64       n_events;
} RealStacks;

static int
compare_stack_id (gconstpointer a,
                  gconstpointer b)
{
  WsStackId x = *(const WsStackId *) a, y = *(const WsStackId *) b;
  return x < y ? -1 : x > y;
}

static void
pool_init (Pool       *pool,
           WsStackTable *table,
           GHashTable *counts)
{
  GHashTableIter iter;
  gpointer key, value;
  double w = 0;

  pool->stacks = g_array_new (FALSE, FALSE, sizeof (WsStackId));
  pool->cumw = g_array_new (FALSE, FALSE, sizeof (double));

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      WsStackId id = GPOINTER_TO_UINT (key);
      g_array_append_val (pool->stacks, id);
    }
  /* Hash order is not reproducible across GLib versions: sort by id. */
  g_array_sort (pool->stacks, compare_stack_id);
  for (guint i = 0; i < pool->stacks->len; i++)
    {
      WsStackId id = g_array_index (pool->stacks, WsStackId, i);

      w += GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (id)));
      g_array_append_val (pool->cumw, w);
    }
}

static void
pool_clear (Pool *pool)
{
  g_array_unref (pool->stacks);
  g_array_unref (pool->cumw);
}

static void
count_stack (GHashTable *counts, WsStackId id)
{
  gpointer key = GUINT_TO_POINTER (id);
  g_hash_table_insert (counts, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
}

static void
load_real_stacks (RealStacks *real)
{
  static const char * const names[] = { "pg-tpcb", "py-locks", "py-locks-dwarf", "io-fsync", "build" };
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autoptr(GHashTable) wait = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) run = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) any = g_hash_table_new (NULL, NULL);
  double depth_sum = 0;

  if (dir == NULL)
    dir = "tests/data";

  real->table = ws_stack_table_new ();
  real->wait_frames = g_hash_table_new (NULL, NULL);
  real->used_frames = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s.perf.txt.gz", names[i]);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = ws_perf_importer_load (path, real->table, NULL, NULL, NULL, &error);

      if (trace == NULL)
        g_error ("%s", error->message);

      for (guint e = 0; e < ws_trace_get_n_events (trace); e++)
        {
          const WsEvent *ev = ws_trace_get_event (trace, e);
          guint n;

          if (ev->stack == WS_STACK_EMPTY)
            continue;
          if (ev->kind == WS_EVENT_WAIT)
            {
              const WsFrameId *f = ws_stack_table_get_stack (real->table, ev->stack, &n);

              count_stack (wait, ev->stack);
              for (guint k = 0; k < n; k++)
                g_hash_table_add (real->wait_frames, GUINT_TO_POINTER (f[k]));
            }
          else if (ev->kind == WS_EVENT_RUNNING && !(ev->flags & WS_EVENT_FLAG_SPAN))
            count_stack (run, ev->stack);
          else
            continue;
          count_stack (any, ev->stack);
          ws_stack_table_get_stack (real->table, ev->stack, &n);
          depth_sum += n;
          real->n_events++;
        }
    }

  pool_init (&real->wait, real->table, wait);
  pool_init (&real->run, real->table, run);
  pool_init (&real->any, real->table, any);
  real->mean_depth = depth_sum / real->n_events;
}

static WsStackId
draw_real (Pool  *pool,
           GRand *rand)
{
  double total = g_array_index (pool->cumw, double, pool->cumw->len - 1);
  double x = g_rand_double (rand) * total;
  guint lo = 0, hi = pool->cumw->len - 1;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (pool->cumw, double, mid) <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return g_array_index (pool->stacks, WsStackId, lo);
}

/* Box-Muller: one standard normal draw. */
static double
normal (GRand *rand)
{
  double u = g_rand_double_range (rand, 1e-12, 1.0);
  double v = g_rand_double (rand);
  return sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v);
}

static gboolean
is_kernel_frame (RealStacks *real,
                 WsFrameId   frame)
{
  return strcmp (ws_stack_table_get_frame (real->table, frame)->module, "[kernel.kallsyms]") == 0;
}

/* Where the kernel part of a real stack starts (its length if none). */
static guint
kernel_start (RealStacks      *real,
              const WsFrameId *f,
              guint            n)
{
  guint k = 0;

  while (k < n && !is_kernel_frame (real, f[k]))
    k++;
  return k;
}

/* Each trace stream comes from its own machine: environment = a hash of
 * the stream id, one of 2^N_SLOTS. */
#ifndef N_SLOTS
#define N_SLOTS 8
#endif
/* Block lengths: layers of 24-32 frames whatever N_SLOTS. */
#define BLOCK_MIN (24 / N_SLOTS)
#define BLOCK_MAX (32 / N_SLOTS)

static guint
env_of_stream (guint stream)
{
  guint32 h = stream * 2654435761u;
  return (h >> 16) & ((1u << N_SLOTS) - 1);
}

/*
 * A contiguous run of real frames from one side (user or kernel) of a real
 * *running* stack, keeping only frames that occur in no waiting stack and
 * in no other block: layer frames then never meet the waiting stacks' own
 * frames, nor each other, in a different order.
 */
static void
append_run (RealStacks *real,
            GRand      *rand,
            gboolean    kernel,
            GArray     *out,
            guint       max)
{
  for (guint tries = 0; tries < 200 && out->len < max; tries++)
    {
      guint nb, kb, from, to;
      const WsFrameId *b = ws_stack_table_get_stack (real->table, draw_real (&real->run, rand), &nb);

      kb = kernel_start (real, b, nb);
      from = kernel ? kb : 1;
      to = kernel ? nb : kb;
      if (to <= from)
        continue;
      from = g_rand_int_range (rand, from, to);
      for (guint i = from; i < to && out->len < max; i++)
        {
          gpointer x = GUINT_TO_POINTER (b[i]);

          if (g_hash_table_contains (real->wait_frames, x) ||
              g_hash_table_contains (real->used_frames, x))
            continue;
          g_hash_table_add (real->used_frames, x);
          g_array_append_val (out, b[i]);
        }
      if (out->len > 0)
        return;
    }
}

/*
 * The "environment layer" of stacks rooted at @root: frames that a
 * framework, a runtime version or an emulation layer (the paper's wow64
 * example) puts between a thread's root and the code that waits.  A root's
 * layer has N_SLOTS slots; slot j holds one of two alternative blocks of
 * 6-10 real frames (contiguous runs of real running stacks, user-mode runs
 * for user-rooted stacks, kernel runs for kernel threads; see
 * append_run()), chosen by bit j of the environment.  So environments
 * differ by whole blocks of callers, as in the paper's wow64 example.
 */
static GPtrArray *
get_blocks (RealStacks *real,
            GHashTable *layers,
            WsFrameId   root,
            gboolean    kernel)
{
  GPtrArray *blocks = g_hash_table_lookup (layers, GUINT_TO_POINTER (root + 1));
  g_autoptr(GRand) rand = NULL;

  if (blocks != NULL)
    return blocks;

  rand = g_rand_new_with_seed ((guint32) (root * 2654435761u) ^ 0x5eed);
  blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint j = 0; j < 2 * N_SLOTS; j++)
    {
      GArray *block = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
      guint target = g_rand_int_range (rand, BLOCK_MIN, BLOCK_MAX + 1);

      for (guint tries = 0; tries < 10 && block->len < target; tries++)
        append_run (real, rand, kernel, block, target);
      g_ptr_array_add (blocks, block);
    }
  g_hash_table_insert (layers, GUINT_TO_POINTER (root + 1), blocks);
  return blocks;
}

/*
 * A real waiting stack S in environment @env: S's first frame (the thread
 * root), then the root's layer for @env, then the rest of S.  The call-path
 * structure of the real traces is kept: a real stack always deepens the
 * same way in the same environment.
 */
static WsStackId
make_variant (RealStacks *real,
              GHashTable *layers,
              WsStackId   real_stack,
              guint       env)
{
  WsFrameId buf[1024];
  guint n, out = 0;
  const WsFrameId *f = ws_stack_table_get_stack (real->table, real_stack, &n);
  GPtrArray *blocks = get_blocks (real, layers, f[0], kernel_start (real, f, n) == 0);

  buf[out++] = f[0];
  for (guint j = 0; j < N_SLOTS; j++)
    {
      GArray *block = g_ptr_array_index (blocks, 2 * j + ((env >> j) & 1));

      for (guint i = 0; i < block->len && out + n < G_N_ELEMENTS (buf); i++)
        buf[out++] = g_array_index (block, WsFrameId, i);
    }
  memcpy (buf + out, f + 1, (n - 1) * sizeof (WsFrameId));
  out += n - 1;
  return ws_stack_table_intern_stack (real->table, buf, out);
}

/* The stress case: head of one real stack + tail of another, cut anywhere. */
static WsStackId
make_splice (RealStacks *real,
             GRand      *rand)
{
  WsFrameId buf[512];
  guint na, nb, d, h, t;
  const WsFrameId *a = ws_stack_table_get_stack (real->table, draw_real (&real->any, rand), &na);
  const WsFrameId *b = ws_stack_table_get_stack (real->table, draw_real (&real->any, rand), &nb);

  d = g_rand_int_range (rand, 18, 55);
  h = g_rand_int_range (rand, 1, MIN (na, d - 1) + 1);
  t = MIN (nb, d - h);
  memcpy (buf, a, h * sizeof (WsFrameId));
  memcpy (buf + h, b + nb - t, t * sizeof (WsFrameId));
  return ws_stack_table_intern_stack (real->table, buf, h + t);
}

typedef struct {
  double build_s;
  double mean_depth;
  guint  n_entries;
} BuildInfo;

static gboolean opt_splice = FALSE;


static WsStackDb *
build_db (RealStacks *real,
          guint       n_stacks,
          guint       n_streams,
          guint32     seed,
          BuildInfo  *info)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GHashTable) layers = g_hash_table_new_full (NULL, NULL, NULL,
                                                        (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (WsStackId));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) streams = g_array_new (FALSE, FALSE, sizeof (guint));
  WsStackDb *db = ws_stack_db_new (real->table);
  double depth_sum = 0;

  g_hash_table_remove_all (real->used_frames);
  gint64 t0;

  /* Make the stacks first (interning included), then time only the
   * merge into the database: that is the mining pipeline's own work. */
  for (guint i = 0; i < n_stacks; i++)
    {
      WsStackId id;
      gint64 cost;
      guint stream, n;

      stream = g_rand_int_range (rand, 0, n_streams);
      if (opt_splice)
        id = g_rand_boolean (rand) ? draw_real (&real->any, rand) : make_splice (real, rand);
      else
        id = make_variant (real, layers, draw_real (&real->wait, rand), env_of_stream (stream));

      cost = (gint64) (200000.0 * exp (1.5 * normal (rand)));
      g_array_append_val (stacks, id);
      g_array_append_val (costs, cost);
      g_array_append_val (streams, stream);
      ws_stack_table_get_stack (real->table, id, &n);
      depth_sum += n;
    }

  for (guint s = 0; s < n_streams; s++)
    {
      g_autofree char *name = g_strdup_printf ("stream-%u", s);
      ws_stack_db_add_stream (db, name);
    }

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n_stacks; i++)
    ws_stack_db_add (db,
                     g_array_index (streams, guint, i),
                     g_array_index (stacks, WsStackId, i),
                     g_array_index (costs, gint64, i), 1);
  ws_stack_db_get_entry (db, 0);  /* indexes the shares */
  info->build_s = (g_get_monotonic_time () - t0) / 1e6;
  info->mean_depth = depth_sum / n_stacks;
  info->n_entries = ws_stack_db_get_n_entries (db);
  return db;
}

/* Clusters the 2,239 costliest patterns (the Windows study's count), with
 * Uni/FBi/BBi counted over every stack of the database. */
static void
run_clustering (WsPatternSet *mined,
                guint         n_patterns,
                double        threshold)
{
  WsStackDb *db = ws_pattern_set_get_stack_db (mined);
  g_autoptr(WsPatternSet) top = ws_pattern_set_copy_top (mined, n_patterns);
  g_autoptr(WsSimilarity) sim = ws_similarity_new (ws_stack_db_get_stack_table (db));
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autoptr(GError) error = NULL;
  double mean_len = 0;
  gint64 t0;
  double s;

  for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
    {
      guint n;
      const WsFrameId *f = ws_stack_db_get_frames (db, e, &n);
      ws_similarity_count_stack (sim, f, n, ws_stack_db_get_entry (db, e)->n_events);
    }
  for (guint i = 0; i < ws_pattern_set_get_n_patterns (top); i++)
    mean_len += ws_pattern_set_get_pattern (top, i)->n_frames;
  mean_len /= MAX (ws_pattern_set_get_n_patterns (top), 1);

  t0 = g_get_monotonic_time ();
  clusters = ws_clusterer_cluster (top, sim, threshold, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  s = (g_get_monotonic_time () - t0) / 1e6;
  if (clusters == NULL)
    g_error ("%s", error->message);

  printf ("cluster %u patterns (mean length %.1f), threshold %.2f, average linkage:\n"
          "  %.3f s; %u clusters\n",
          ws_pattern_set_get_n_patterns (top), mean_len, threshold, s,
          ws_cluster_set_get_n_clusters (clusters));
  fflush (stdout);
}

static WsPatternSet *
run_mining (RealStacks *real,
            guint       n_stacks,
            guint       n_streams,
            double      share,
            guint32     seed)
{
  g_autoptr(WsStackDb) db = NULL;
  g_autoptr(GError) error = NULL;
  WsPatternSet *set;
  BuildInfo info;
  gint64 lambda, t0;
  double mine_s;
  const WsMinerStats *st;

  db = build_db (real, n_stacks, n_streams, seed, &info);
  lambda = ws_miner_lambda_from_guideline (share, ws_stack_db_get_total_cost (db) / n_streams, n_streams);

  t0 = g_get_monotonic_time ();
  set = ws_miner_mine (db, lambda, NULL, NULL, NULL, &error);
  mine_s = (g_get_monotonic_time () - t0) / 1e6;
  if (set == NULL)
    g_error ("%s", error->message);
  st = ws_pattern_set_get_stats (set);

  printf ("mine %u stacks (mean depth %.1f, %u distinct, %u streams), lambda = %.3g%% of total cost:\n"
          "  merge %.3f s + mine %.3f s = %.3f s; %u patterns; %u sequences after pruning frames, %u items, "
          "%" G_GUINT64_FORMAT " nodes, %" G_GUINT64_FORMAT " BackScan-pruned, %" G_GUINT64_FORMAT " candidates\n",
          n_stacks, info.mean_depth, info.n_entries, n_streams, share * 100,
          info.build_s, mine_s, info.build_s + mine_s,
          ws_pattern_set_get_n_patterns (set), st->n_sequences, st->n_items,
          st->n_nodes, st->n_backscan_pruned, st->n_candidates);
  fflush (stdout);
  return set;
}

int
main (int argc, char *argv[])
{
  RealStacks real = { 0 };
  gint64 t0;
  double share = 0.01;
  double threshold = 0.7;
  guint32 seed = 42;
  guint stacks = 0;
  const char *only = NULL;
  GOptionEntry entries[] = {
    { "stacks", 0, 0, G_OPTION_ARG_INT, &stacks, "Mine only this many stacks", "N" },
    { "share", 0, 0, G_OPTION_ARG_DOUBLE, &share, "λ share of streams (default 0.01)", "S" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "RNG seed (default 42)", "N" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "mine or cluster", "WHAT" },
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &threshold, "Clustering similarity threshold (default 0.7)", "T" },
    { "splice", 0, 0, G_OPTION_ARG_NONE, &opt_splice, "Stress input: random head+tail splices", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);

  t0 = g_get_monotonic_time ();
  load_real_stacks (&real);
  printf ("real stacks: %u distinct waiting, %u distinct running, %" G_GUINT64_FORMAT " events, mean depth %.1f, %u frames (loaded in %.1f s)\n",
          real.wait.stacks->len, real.run.stacks->len, real.n_events, real.mean_depth,
          ws_stack_table_get_n_frames (real.table), (g_get_monotonic_time () - t0) / 1e6);

  if (stacks != 0)
    {
      ws_pattern_set_unref (run_mining (&real, stacks, stacks >= 100000 ? 921 : 54, share, seed));
    }
  else
    {
      g_autoptr(WsPatternSet) big = NULL;

      if (only == NULL || g_str_equal (only, "mine"))
        ws_pattern_set_unref (run_mining (&real, 41000, 54, share, seed));
      big = run_mining (&real, 700000, 921, share, seed);
      if (only == NULL || g_str_equal (only, "cluster"))
        {
          if (ws_pattern_set_get_n_patterns (big) < 2239)
            printf ("only %u patterns to cluster: lower --share\n", ws_pattern_set_get_n_patterns (big));
          run_clustering (big, 2239, threshold);
        }
    }

  g_object_unref (real.table);
  pool_clear (&real.wait);
  pool_clear (&real.run);
  pool_clear (&real.any);
  g_hash_table_unref (real.wait_frames);
  g_hash_table_unref (real.used_frames);
  return 0;
}
