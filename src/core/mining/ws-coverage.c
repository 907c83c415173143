/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Performance signatures and bottleneck coverage (StackMine §VII.A.2-3).
 *
 * A signature is "one or more functions in which a potential performance
 * bug resides" (§I), chosen by the analyst from a pattern cluster.  An
 * event is explained by a signature when its stack contains the
 * signature's functions in the given (caller first) order, the same
 * containment as for patterns.
 *
 *   coverage(signatures) = cost of the events explained by at least one
 *                          of them / total response delay of the streams
 *
 * with the streams' delays from ws_stack_db_set_stream_delay() (their
 * total cost when not set).  Each event counts once.
 *
 * Fig. 4 compares how many trace streams an analyst must inspect to reach
 * a coverage.  The model, made explicit here: inspecting a stream reveals
 * every signature that explains some event of it, and the coverage after
 * k streams is that of the signatures revealed so far.  StackMine's
 * ranking sorts the signatures by coverage, inspects a stream holding the
 * first one (the stream where it costs most), then a stream holding the
 * first signature not yet revealed, and so on; Random, Greedy-Total and
 * Greedy-Max order the streams by chance, total delay and longest delay.
 */
#include "config.h"

#include <string.h>

#include "ws-coverage.h"
#include "ws-miner.h"

typedef struct {
  char      *name;
  WsFrameId *frames;
  guint      n_frames;
  GArray    *entries;     /* guint32: matched database entries */
  gint64     cost;
  guint      n_streams;
} Signature;

struct _WsCoverage
{
  GObject    parent_instance;

  WsStackDb *db;
  GPtrArray *signatures;   /* Signature */
  GArray    *stream_cost;  /* gint64 [signature × stream], row per signature */
  GArray    *stream_present; /* guint8, same shape: explains an event there */
  gint64     total_delay;
};

G_DEFINE_FINAL_TYPE (WsCoverage, ws_coverage, G_TYPE_OBJECT)

static void
signature_free (gpointer data)
{
  Signature *s = data;

  g_free (s->name);
  g_free (s->frames);
  g_array_unref (s->entries);
  g_free (s);
}

static void
ws_coverage_finalize (GObject *object)
{
  WsCoverage *self = WS_COVERAGE (object);

  g_clear_object (&self->db);
  g_ptr_array_unref (self->signatures);
  g_array_unref (self->stream_cost);
  g_array_unref (self->stream_present);

  G_OBJECT_CLASS (ws_coverage_parent_class)->finalize (object);
}

static void
ws_coverage_class_init (WsCoverageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_coverage_finalize;
}

static void
ws_coverage_init (WsCoverage *self)
{
  self->signatures = g_ptr_array_new_with_free_func (signature_free);
  self->stream_cost = g_array_new (FALSE, TRUE, sizeof (gint64));
  self->stream_present = g_array_new (FALSE, TRUE, sizeof (guint8));
}

/**
 * ws_coverage_new:
 * @db: the area of interest the coverage is measured over (with its
 *   streams' delays set, if known)
 *
 * Returns: (transfer full): a coverage with no signature yet
 */
WsCoverage *
ws_coverage_new (WsStackDb *db)
{
  WsCoverage *self;

  g_return_val_if_fail (WS_IS_STACK_DB (db), NULL);

  self = g_object_new (WS_TYPE_COVERAGE, NULL);
  self->db = g_object_ref (db);
  for (guint s = 0; s < ws_stack_db_get_n_streams (db); s++)
    self->total_delay += ws_stack_db_get_stream_delay_total (db, s);
  return self;
}

/**
 * ws_coverage_add_signature:
 * @name: what the analyst calls it
 * @frames: (array length=n_frames): its functions, caller first
 *
 * Returns: the signature's index
 */
guint
ws_coverage_add_signature (WsCoverage      *self,
                           const char      *name,
                           const WsFrameId *frames,
                           guint            n_frames)
{
  Signature *sig;
  guint n_streams, index;

  g_return_val_if_fail (WS_IS_COVERAGE (self), 0);
  g_return_val_if_fail (frames != NULL && n_frames > 0, 0);

  n_streams = ws_stack_db_get_n_streams (self->db);
  index = self->signatures->len;
  sig = g_new0 (Signature, 1);
  sig->name = g_strdup (name ? name : "");
  sig->frames = g_memdup2 (frames, sizeof (WsFrameId) * n_frames);
  sig->n_frames = n_frames;
  sig->entries = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (self->signatures, sig);
  g_array_set_size (self->stream_cost, (gsize) (index + 1) * n_streams);
  g_array_set_size (self->stream_present, (gsize) (index + 1) * n_streams);

  for (guint e = 0; e < ws_stack_db_get_n_entries (self->db); e++)
    {
      guint n, n_shares;
      const WsFrameId *stack = ws_stack_db_get_frames (self->db, e, &n);
      const WsStackDbShare *shares;

      if (!ws_frames_is_subsequence (frames, n_frames, stack, n))
        continue;
      g_array_append_val (sig->entries, e);
      sig->cost += ws_stack_db_get_entry (self->db, e)->cost;
      shares = ws_stack_db_get_shares (self->db, e, &n_shares);
      for (guint k = 0; k < n_shares; k++)
        {
          gsize cell = (gsize) index * n_streams + shares[k].stream;
          guint8 *here = &g_array_index (self->stream_present, guint8, cell);

          if (!*here)
            {
              *here = 1;
              sig->n_streams++;
            }
          g_array_index (self->stream_cost, gint64, cell) += shares[k].cost;
        }
    }
  return index;
}

guint
ws_coverage_get_n_signatures (WsCoverage *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), 0);
  return self->signatures->len;
}

const char *
ws_coverage_get_signature_name (WsCoverage *self,
                                guint       signature)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), NULL);
  g_return_val_if_fail (signature < self->signatures->len, NULL);
  return ((Signature *) g_ptr_array_index (self->signatures, signature))->name;
}

/**
 * ws_coverage_get_total_delay:
 *
 * Returns: the denominator of the coverage: the summed delay of all streams
 */
gint64
ws_coverage_get_total_delay (WsCoverage *self)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), 0);
  return self->total_delay;
}

/**
 * ws_coverage_get_signature_cost:
 *
 * Returns: the summed cost of the events the signature explains
 */
gint64
ws_coverage_get_signature_cost (WsCoverage *self,
                                guint       signature)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), 0);
  g_return_val_if_fail (signature < self->signatures->len, 0);
  return ((Signature *) g_ptr_array_index (self->signatures, signature))->cost;
}

guint
ws_coverage_get_signature_n_streams (WsCoverage *self,
                                     guint       signature)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), 0);
  g_return_val_if_fail (signature < self->signatures->len, 0);
  return ((Signature *) g_ptr_array_index (self->signatures, signature))->n_streams;
}

double
ws_coverage_get_signature_coverage (WsCoverage *self,
                                    guint       signature)
{
  g_return_val_if_fail (WS_IS_COVERAGE (self), 0.0);
  return ws_coverage_get_coverage (self, &signature, 1);
}

/**
 * ws_coverage_get_coverage:
 * @signatures: (array length=n_signatures): signature indices
 *
 * Returns: the bottleneck coverage of those signatures together (each
 *   event counted once); 0 when the streams have no delay
 */
double
ws_coverage_get_coverage (WsCoverage  *self,
                          const guint *signatures,
                          guint        n_signatures)
{
  g_autofree guint8 *covered = NULL;
  gint64 acc = 0;

  g_return_val_if_fail (WS_IS_COVERAGE (self), 0.0);

  if (self->total_delay <= 0)
    return 0.0;

  covered = g_new0 (guint8, MAX (ws_stack_db_get_n_entries (self->db), 1));
  for (guint i = 0; i < n_signatures; i++)
    {
      Signature *sig;

      g_return_val_if_fail (signatures[i] < self->signatures->len, 0.0);
      sig = g_ptr_array_index (self->signatures, signatures[i]);
      for (guint k = 0; k < sig->entries->len; k++)
        {
          guint32 e = g_array_index (sig->entries, guint32, k);

          if (!covered[e])
            {
              covered[e] = 1;
              acc += ws_stack_db_get_entry (self->db, e)->cost;
            }
        }
    }
  return (double) acc / (double) self->total_delay;
}

double
ws_coverage_get_total_coverage (WsCoverage *self)
{
  g_autofree guint *all = NULL;

  g_return_val_if_fail (WS_IS_COVERAGE (self), 0.0);

  all = g_new (guint, MAX (self->signatures->len, 1));
  for (guint i = 0; i < self->signatures->len; i++)
    all[i] = i;
  return ws_coverage_get_coverage (self, all, self->signatures->len);
}

/* ------------------------------------------------------------------ */
/* Fig. 4                                                               */

static inline gboolean
present (WsCoverage *self,
         guint       signature,
         guint       stream)
{
  guint n_streams = ws_stack_db_get_n_streams (self->db);
  return g_array_index (self->stream_present, guint8, (gsize) signature * n_streams + stream) != 0;
}

static inline gint64
cost_in (WsCoverage *self,
         guint       signature,
         guint       stream)
{
  guint n_streams = ws_stack_db_get_n_streams (self->db);
  return g_array_index (self->stream_cost, gint64, (gsize) signature * n_streams + stream);
}

typedef struct {
  guint  index;
  double key;
} Ranked;

static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->key != y->key)
    return x->key > y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The stream where signature @s costs most among those not inspected yet,
 * or G_MAXUINT if it explains no event there. */
static guint
costliest_stream (WsCoverage     *self,
                  guint           s,
                  const gboolean *inspected,
                  guint           n_streams)
{
  guint best = G_MAXUINT;
  gint64 best_cost = -1;

  for (guint t = 0; t < n_streams; t++)
    if (!inspected[t] && present (self, s, t) && cost_in (self, s, t) > best_cost)
      {
        best = t;
        best_cost = cost_in (self, s, t);
      }
  return best;
}

/* StackMine's ranking: signatures by coverage; for the first one not yet
 * revealed, inspect the stream where it costs most; the streams that
 * reveal nothing new come last. */
static void
order_stackmine (WsCoverage *self,
                 GArray     *order,
                 guint       n_streams)
{
  guint n_sigs = self->signatures->len;
  g_autofree Ranked *sigs = g_new (Ranked, MAX (n_sigs, 1));
  g_autofree gboolean *revealed = g_new0 (gboolean, MAX (n_sigs, 1));
  g_autofree gboolean *inspected = g_new0 (gboolean, MAX (n_streams, 1));

  for (guint i = 0; i < n_sigs; i++)
    {
      sigs[i].index = i;
      sigs[i].key = ws_coverage_get_signature_coverage (self, i);
    }
  qsort (sigs, n_sigs, sizeof (Ranked), compare_ranked);

  for (guint r = 0; r < n_sigs; r++)
    {
      guint s = sigs[r].index, best;

      if (revealed[s])
        continue;
      best = costliest_stream (self, s, inspected, n_streams);
      if (best == G_MAXUINT)
        continue;   /* explains no event at all */
      g_array_append_val (order, best);
      inspected[best] = TRUE;
      for (guint x = 0; x < n_sigs; x++)
        if (present (self, x, best))
          revealed[x] = TRUE;
    }
  for (guint t = 0; t < n_streams; t++)
    if (!inspected[t])
      g_array_append_val (order, t);
}

static void
order_greedy (WsCoverage *self,
              WsRanking   ranking,
              GArray     *order,
              guint       n_streams)
{
  g_autofree Ranked *streams = g_new (Ranked, MAX (n_streams, 1));

  for (guint t = 0; t < n_streams; t++)
    {
      streams[t].index = t;
      streams[t].key = ranking == WS_RANKING_GREEDY_TOTAL
                       ? (double) ws_stack_db_get_stream_delay_total (self->db, t)
                       : (double) ws_stack_db_get_stream_delay_max (self->db, t);
    }
  qsort (streams, n_streams, sizeof (Ranked), compare_ranked);
  for (guint t = 0; t < n_streams; t++)
    g_array_append_val (order, streams[t].index);
}

/* A Fisher–Yates shuffle, reproducible from @seed. */
static void
order_random (GArray  *order,
              guint    n_streams,
              guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (guint t = 0; t < n_streams; t++)
    g_array_append_val (order, t);
  for (guint t = n_streams; t > 1; t--)
    {
      guint j = g_rand_int_range (rand, 0, t);
      guint tmp = g_array_index (order, guint, t - 1);

      g_array_index (order, guint, t - 1) = g_array_index (order, guint, j);
      g_array_index (order, guint, j) = tmp;
    }
}

/**
 * ws_coverage_stream_order:
 * @seed: for %WS_RANKING_RANDOM
 *
 * Returns: (transfer full) (element-type guint): every stream, in the
 *   order the technique inspects them (ties by stream id)
 */
GArray *
ws_coverage_stream_order (WsCoverage *self,
                          WsRanking   ranking,
                          guint32     seed)
{
  guint n_streams;
  GArray *order;

  g_return_val_if_fail (WS_IS_COVERAGE (self), NULL);

  n_streams = ws_stack_db_get_n_streams (self->db);
  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_streams);
  switch (ranking)
    {
    case WS_RANKING_STACKMINE:
      order_stackmine (self, order, n_streams);
      break;
    case WS_RANKING_GREEDY_TOTAL:
    case WS_RANKING_GREEDY_MAX:
      order_greedy (self, ranking, order, n_streams);
      break;
    case WS_RANKING_RANDOM:
    default:
      order_random (order, n_streams, seed);
      break;
    }
  return order;
}

/* Coverage after inspecting the first k streams of @order, k = 0…n. */
static void
curve_of_order (WsCoverage  *self,
                const guint *order,
                guint        n_streams,
                double      *curve,
                guint8      *covered,
                gboolean    *revealed)
{
  guint n_sigs = self->signatures->len;
  gint64 acc = 0;

  memset (covered, 0, MAX (ws_stack_db_get_n_entries (self->db), 1));
  memset (revealed, 0, sizeof (gboolean) * MAX (n_sigs, 1));
  curve[0] = 0.0;

  for (guint k = 0; k < n_streams; k++)
    {
      for (guint s = 0; s < n_sigs; s++)
        {
          Signature *sig;

          if (revealed[s] || !present (self, s, order[k]))
            continue;
          revealed[s] = TRUE;
          sig = g_ptr_array_index (self->signatures, s);
          for (guint i = 0; i < sig->entries->len; i++)
            {
              guint32 e = g_array_index (sig->entries, guint32, i);

              if (!covered[e])
                {
                  covered[e] = 1;
                  acc += ws_stack_db_get_entry (self->db, e)->cost;
                }
            }
        }
      curve[k + 1] = self->total_delay > 0 ? (double) acc / (double) self->total_delay : 0.0;
    }
}

static gboolean
next_permutation (guint *a,
                  guint  n)
{
  gint i = (gint) n - 2, j;

  while (i >= 0 && a[i] >= a[i + 1])
    i--;
  if (i < 0)
    return FALSE;
  j = (gint) n - 1;
  while (a[j] <= a[i])
    j--;
  {
    guint t = a[i]; a[i] = a[j]; a[j] = t;
  }
  for (guint l = i + 1, r = n - 1; l < r; l++, r--)
    {
      guint t = a[l]; a[l] = a[r]; a[r] = t;
    }
  return TRUE;
}

/* Calls @fn with every order the technique considers: one, or for Random
 * n_runs seeded shuffles (all n! orders when n_runs is 0 and n <= 8). */
typedef void (*OrderFunc) (const double *curve, guint n_streams, gpointer data);

static guint
for_each_order (WsCoverage *self,
                WsRanking   ranking,
                guint       n_runs,
                guint32     seed,
                OrderFunc   fn,
                gpointer    data)
{
  guint n_streams = ws_stack_db_get_n_streams (self->db);
  g_autofree double *curve = g_new (double, n_streams + 1);
  g_autofree guint8 *covered = g_new (guint8, MAX (ws_stack_db_get_n_entries (self->db), 1));
  g_autofree gboolean *revealed = g_new (gboolean, MAX (self->signatures->len, 1));
  guint count = 0;

  if (ranking != WS_RANKING_RANDOM)
    {
      g_autoptr(GArray) order = ws_coverage_stream_order (self, ranking, seed);

      curve_of_order (self, (const guint *) (gpointer) order->data, n_streams, curve, covered, revealed);
      fn (curve, n_streams, data);
      return 1;
    }

  if (n_runs == 0 && n_streams <= 8)
    {
      guint perm[8];

      for (guint t = 0; t < n_streams; t++)
        perm[t] = t;
      do
        {
          curve_of_order (self, perm, n_streams, curve, covered, revealed);
          fn (curve, n_streams, data);
          count++;
        }
      while (next_permutation (perm, n_streams));
      return count;
    }

  if (n_runs == 0)
    n_runs = 1000;
  {
    g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

    for (guint r = 0; r < n_runs; r++)
      {
        g_autoptr(GArray) order = ws_coverage_stream_order (self, WS_RANKING_RANDOM, g_rand_int (rand));

        curve_of_order (self, (const guint *) (gpointer) order->data, n_streams, curve, covered, revealed);
        fn (curve, n_streams, data);
      }
  }
  return n_runs;
}

static void
sum_curve (const double *curve,
           guint         n_streams,
           gpointer      data)
{
  double *sum = data;

  for (guint k = 0; k <= n_streams; k++)
    sum[k] += curve[k];
}

/**
 * ws_coverage_curve:
 * @n_random_runs: for %WS_RANKING_RANDOM: how many shuffles to average;
 *   0 = every order exactly when there are at most 8 streams, else 1000
 * @seed: for %WS_RANKING_RANDOM
 *
 * Returns: (transfer full) (element-type double): the coverage reached
 *   after inspecting k streams, k = 0…n (a mean for Random)
 */
GArray *
ws_coverage_curve (WsCoverage *self,
                   WsRanking   ranking,
                   guint       n_random_runs,
                   guint32     seed)
{
  guint n_streams, count;
  GArray *out;

  g_return_val_if_fail (WS_IS_COVERAGE (self), NULL);

  n_streams = ws_stack_db_get_n_streams (self->db);
  out = g_array_new (FALSE, TRUE, sizeof (double));
  g_array_set_size (out, n_streams + 1);
  count = for_each_order (self, ranking, n_random_runs, seed, sum_curve, out->data);
  for (guint k = 0; k <= n_streams; k++)
    g_array_index (out, double, k) /= count;
  return out;
}

typedef struct {
  double target;
  double sum;
  gboolean unreachable;
} Reach;

static void
sum_reach (const double *curve,
           guint         n_streams,
           gpointer      data)
{
  Reach *r = data;

  for (guint k = 0; k <= n_streams; k++)
    if (curve[k] >= r->target - 1e-12)
      {
        r->sum += k;
        return;
      }
  r->unreachable = TRUE;
}

/**
 * ws_coverage_streams_to_reach:
 * @target: the coverage to reach (0…1)
 *
 * Fig. 4's y value for x = @target.
 *
 * Returns: the number of streams to inspect (the mean over orders for
 *   Random), or -1 if even all streams do not reach @target
 */
double
ws_coverage_streams_to_reach (WsCoverage *self,
                              WsRanking   ranking,
                              double      target,
                              guint       n_random_runs,
                              guint32     seed)
{
  Reach r = { target, 0, FALSE };
  guint count;

  g_return_val_if_fail (WS_IS_COVERAGE (self), -1);

  count = for_each_order (self, ranking, n_random_runs, seed, sum_reach, &r);
  if (r.unreachable)
    return -1;
  return r.sum / count;
}

/**
 * ws_coverage_cluster_common_frames:
 * @n_frames: (out): how many
 *
 * A starting point for a signature: a subsequence common to all the
 * cluster's patterns (the longest common subsequence of the first two,
 * then of that and the third, and so on).
 *
 * Returns: (transfer full) (array length=n_frames): the frames, caller
 *   first
 */
WsFrameId *
ws_coverage_cluster_common_frames (WsClusterSet *clusters,
                                   guint         cluster,
                                   guint        *n_frames)
{
  const WsCluster *c;
  WsPatternSet *set;
  const WsPattern *p0;
  WsFrameId *common;
  guint n;

  g_return_val_if_fail (clusters != NULL, NULL);
  g_return_val_if_fail (n_frames != NULL, NULL);

  c = ws_cluster_set_get_cluster (clusters, cluster);
  set = ws_cluster_set_get_pattern_set (clusters);
  p0 = ws_pattern_set_get_pattern (set, c->patterns[0]);
  common = g_memdup2 (p0->frames, sizeof (WsFrameId) * MAX (p0->n_frames, 1));
  n = p0->n_frames;

  for (guint k = 1; k < c->n_patterns && n > 0; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, c->patterns[k]);
      guint w = p->n_frames + 1;
      g_autofree guint *l = g_new0 (guint, (gsize) (n + 1) * w);
      guint i = n, j = p->n_frames, out;

      for (guint a = 1; a <= n; a++)
        for (guint b = 1; b <= p->n_frames; b++)
          l[a * w + b] = common[a - 1] == p->frames[b - 1]
                         ? l[(a - 1) * w + b - 1] + 1
                         : MAX (l[(a - 1) * w + b], l[a * w + b - 1]);

      out = l[n * w + p->n_frames];
      {
        g_autofree WsFrameId *next = g_new (WsFrameId, MAX (out, 1));
        guint fill = out;

        while (i > 0 && j > 0)
          {
            if (common[i - 1] == p->frames[j - 1])
              {
                next[--fill] = common[i - 1];
                i--, j--;
              }
            else if (l[(i - 1) * w + j] >= l[i * w + j - 1])
              i--;
            else
              j--;
          }
        memcpy (common, next, sizeof (WsFrameId) * out);
        n = out;
      }
    }

  *n_frames = n;
  return common;
}

static const char * const ranking_names[] = { "stackmine", "random", "greedy-total", "greedy-max" };

const char *
ws_ranking_to_string (WsRanking ranking)
{
  g_return_val_if_fail (ranking < WS_N_RANKINGS, NULL);
  return ranking_names[ranking];
}
