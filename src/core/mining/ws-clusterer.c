/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Callstack pattern clustering (StackMine §VI): agglomerative hierarchical
 * clustering of the mined patterns under Sim(A), stopped at a similarity
 * threshold, and the four cluster metrics of §II.B.
 *
 * All pairwise similarities are needed (average linkage uses every one),
 * so their computation is the cost: n²/2 optimal alignments.  Three things
 * keep it fast without changing any result:
 *
 *   - Patterns are visited in lexicographic order.  Column j of the
 *     alignment matrix of (a, b) depends only on a and b's first j frames,
 *     so consecutive b's sharing a prefix share those columns (mined
 *     patterns come out of a prefix tree and share long prefixes).
 *   - Sub(f1, f2) is 1 unless the names share a word; for each distinct
 *     frame the few frames it shares words with are tabulated once, and a
 *     row of a's frames is scattered into a dense table for the duration
 *     of a's pairs.
 *   - ω of each pattern position is tabulated for the four cases "has a
 *     neighbour before / after in its segment".
 *
 * The traceback and the summation follow ws_similarity_align() and
 * ws_similarity_sim_of_alignment() step for step (same tie rule, same
 * order of additions), so the values are the same doubles; the tests
 * compare them.
 *
 * The agglomeration is the nearest-neighbour-chain algorithm, O(n²) time
 * for the three reducible linkages offered (average, complete, single).
 * For reducible linkages a merge at similarity s never yields a cluster
 * more similar than s to anything, so the clusters at threshold τ are
 * exactly the components of the merges with similarity >= τ, whatever the
 * order the chain found them in.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-clusterer.h"
#include "ws-error.h"

#define EPS 1e-12

struct _WsClusterSet
{
  grefcount     ref_count;
  WsPatternSet *patterns;
  double        threshold;
  GArray       *clusters;   /* WsCluster */
  guint        *cluster_of; /* pattern -> position in clusters */
};

G_DEFINE_BOXED_TYPE (WsClusterSet, ws_cluster_set, ws_cluster_set_ref, ws_cluster_set_unref)

static void
cluster_clear (gpointer data)
{
  WsCluster *c = data;

  g_free (c->patterns);
  g_free (c->support);
}

WsClusterSet *
ws_cluster_set_ref (WsClusterSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_cluster_set_unref (WsClusterSet *self)
{
  g_return_if_fail (self != NULL);

  if (g_ref_count_dec (&self->ref_count))
    {
      g_array_unref (self->clusters);
      ws_pattern_set_unref (self->patterns);
      g_free (self->cluster_of);
      g_free (self);
    }
}

/**
 * ws_cluster_set_get_pattern_set:
 *
 * Returns: (transfer none): the clustered patterns
 */
WsPatternSet *
ws_cluster_set_get_pattern_set (WsClusterSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->patterns;
}

double
ws_cluster_set_get_threshold (WsClusterSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->threshold;
}

guint
ws_cluster_set_get_n_clusters (WsClusterSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->clusters->len;
}

/**
 * ws_cluster_set_get_cluster:
 *
 * Returns: (transfer none): cluster @index in the current ranking
 */
const WsCluster *
ws_cluster_set_get_cluster (WsClusterSet *self,
                            guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->clusters->len, NULL);
  return &g_array_index (self->clusters, WsCluster, index);
}

/**
 * ws_cluster_set_find_pattern:
 *
 * Returns: the position, in the current ranking, of the cluster holding
 *   pattern @pattern
 */
guint
ws_cluster_set_find_pattern (WsClusterSet *self,
                             guint         pattern)
{
  g_return_val_if_fail (self != NULL, G_MAXUINT);
  g_return_val_if_fail (pattern < ws_pattern_set_get_n_patterns (self->patterns), G_MAXUINT);
  return self->cluster_of[pattern];
}

static int
compare_clusters (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const WsCluster *x = a, *y = b;

  switch (GPOINTER_TO_UINT (user_data))
    {
    case WS_CLUSTER_RANK_STREAMS:
      if (x->n_streams != y->n_streams)
        return x->n_streams > y->n_streams ? -1 : 1;
      break;
    case WS_CLUSTER_RANK_EVENTS:
      if (x->n_events != y->n_events)
        return x->n_events > y->n_events ? -1 : 1;
      break;
    case WS_CLUSTER_RANK_AVERAGE:
      if (x->average_cost != y->average_cost)
        return x->average_cost > y->average_cost ? -1 : 1;
      break;
    case WS_CLUSTER_RANK_DISCRIMINATIVE:
      if (x->discriminative != y->discriminative)
        return x->discriminative > y->discriminative ? -1 : 1;
      break;
    case WS_CLUSTER_RANK_TOTAL:
    default:
      break;
    }
  if (x->total_cost != y->total_cost)
    return x->total_cost > y->total_cost ? -1 : 1;
  /* Reproducible ties: the cluster holding the costlier pattern first. */
  return x->patterns[0] < y->patterns[0] ? -1 : x->patterns[0] > y->patterns[0];
}

/**
 * ws_cluster_set_rank:
 *
 * Orders the clusters by @rank, decreasing; ties by total cost, then by
 * their costliest pattern.
 */
void
ws_cluster_set_rank (WsClusterSet  *self,
                     WsClusterRank  rank)
{
  g_return_if_fail (self != NULL);

  g_array_sort_with_data (self->clusters, compare_clusters, GUINT_TO_POINTER (rank));

  for (guint c = 0; c < self->clusters->len; c++)
    {
      const WsCluster *cl = &g_array_index (self->clusters, WsCluster, c);
      for (guint k = 0; k < cl->n_patterns; k++)
        self->cluster_of[cl->patterns[k]] = c;
    }
}

void
ws_cluster_set_set_discriminative (WsClusterSet *self,
                                   guint         index,
                                   gint64        discriminative)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->clusters->len);
  g_array_index (self->clusters, WsCluster, index).discriminative = discriminative;
}

static const char * const rank_names[] = { "total", "streams", "events", "average", "discriminative" };

const char *
ws_cluster_rank_to_string (WsClusterRank rank)
{
  g_return_val_if_fail (rank <= WS_CLUSTER_RANK_DISCRIMINATIVE, NULL);
  return rank_names[rank];
}

gboolean
ws_cluster_rank_from_string (const char    *str,
                             WsClusterRank *rank)
{
  for (guint i = 0; i < G_N_ELEMENTS (rank_names); i++)
    if (g_strcmp0 (str, rank_names[i]) == 0)
      {
        *rank = i;
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Pairwise similarities                                                */

/* Sub() pairs tabulated once and kept while they number at most this
 * many (16 bytes each).  Thousands of frames sharing one word (a hostile
 * trace) would make the table quadratic; past the budget each row is
 * recomputed when a pattern needs it instead: slower, never gigabytes. */
#define SPARSE_BUDGET (4u << 20)

typedef struct {
  guint32 other;   /* local frame index */
  double  sub;
} SubEntry;

enum { OP_MATCH, OP_SUB, OP_DEL, OP_INS };

/*
 * The state of ws_clusterer_similarities().  Patterns are compared on
 * their aligned views (ws_similarity_view(), at most
 * WS_SIMILARITY_MAX_DEPTH frames), so every table below is bounded by
 * that depth times the number of distinct frames, whatever the input.
 */
typedef struct {
  WsPatternSet  *set;
  WsSimilarity  *similarity;
  guint          n;
  guint          max_len;        /* the longest view */

  /* Local frames: the distinct frames of the views. */
  GArray        *frames;         /* local -> WsFrameId */
  guint32       *local_of;       /* frame id -> local + 1 */
  guint          n_local;

  /* Per pattern: its view. */
  WsFrameId    **view;
  guint         *len;
  guint32      **local;          /* the view's local frames */
  double       **omega;          /* ω per position × 4 neighbour cases */

  /* Sub() < 1 only between frames sharing a word. */
  GHashTable    *by_word;        /* word id + 1 -> GArray of local */
  GPtrArray     *sparse;         /* local -> GArray of SubEntry; NULL past the budget */
  GArray        *scratch;        /* SubEntry, a row computed on demand */
  guint32       *stamp;

  /* Row a's Sub(a_i, y) for every local y, 1 where no word is shared. */
  double        *rowsub;
  /* Alignment matrix by columns: d[j * (la + 1) + i]; the traceback's
   * steps, stored from the end of the arrays. */
  double        *d;
  guint8        *ops;
  guint32       *li, *ri;
} Pairs;

static void
pairs_clear (Pairs *p)
{
  for (guint k = 0; p->view != NULL && k < p->n; k++)
    {
      g_free (p->view[k]);
      g_free (p->local[k]);
      g_free (p->omega[k]);
    }
  g_clear_pointer (&p->view, g_free);
  g_clear_pointer (&p->local, g_free);
  g_clear_pointer (&p->omega, g_free);
  g_clear_pointer (&p->len, g_free);
  g_clear_pointer (&p->frames, g_array_unref);
  g_clear_pointer (&p->local_of, g_free);
  g_clear_pointer (&p->by_word, g_hash_table_unref);
  g_clear_pointer (&p->sparse, g_ptr_array_unref);
  g_clear_pointer (&p->scratch, g_array_unref);
  g_clear_pointer (&p->stamp, g_free);
  g_clear_pointer (&p->rowsub, g_free);
  g_clear_pointer (&p->d, g_free);
  g_clear_pointer (&p->ops, g_free);
  g_clear_pointer (&p->li, g_free);
  g_clear_pointer (&p->ri, g_free);
}

/* Views, local frame indices and the ω of every view position for the
 * four cases "has a neighbour before / after in its segment". */
static void
pairs_init_views (Pairs *p)
{
  WsStackTable *table = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (p->set));

  p->frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  p->local_of = g_new0 (guint32, MAX (ws_stack_table_get_n_frames (table), 1));
  p->view = g_new0 (WsFrameId *, p->n);
  p->len = g_new0 (guint, p->n);
  p->local = g_new0 (guint32 *, p->n);
  p->omega = g_new0 (double *, p->n);

  for (guint k = 0; k < p->n; k++)
    {
      const WsPattern *pat = ws_pattern_set_get_pattern (p->set, k);
      guint len;
      WsFrameId *v;

      v = p->view[k] = g_new (WsFrameId, MAX (MIN (pat->n_frames, WS_SIMILARITY_MAX_DEPTH), 1));
      len = p->len[k] = ws_similarity_view (pat->frames, pat->n_frames, v);
      p->max_len = MAX (p->max_len, len);
      p->local[k] = g_new (guint32, MAX (len, 1));
      p->omega[k] = g_new (double, MAX (len, 1) * 4);
      for (guint j = 0; j < len; j++)
        {
          WsFrameId f = v[j];
          WsFrameId prev = j > 0 ? v[j - 1] : WS_FRAME_NONE;
          WsFrameId next = j + 1 < len ? v[j + 1] : WS_FRAME_NONE;
          double *om = p->omega[k] + j * 4;

          if (p->local_of[f] == 0)
            {
              g_array_append_val (p->frames, f);
              p->local_of[f] = ++p->n_local;
            }
          p->local[k][j] = p->local_of[f] - 1;
          om[0] = ws_similarity_weight (p->similarity, WS_FRAME_NONE, f, WS_FRAME_NONE);
          om[1] = ws_similarity_weight (p->similarity, prev, f, WS_FRAME_NONE);
          om[2] = ws_similarity_weight (p->similarity, WS_FRAME_NONE, f, next);
          om[3] = ws_similarity_weight (p->similarity, prev, f, next);
        }
    }
}

/* The local frames sharing a word with local frame @u (not @u itself),
 * with their Sub(), into @row. */
static void
compute_sub_row (Pairs  *p,
                 guint   u,
                 GArray *row)
{
  WsFrameId fu = g_array_index (p->frames, WsFrameId, u);
  guint nw;
  const guint32 *w = ws_similarity_get_words (p->similarity, fu, &nw);

  g_array_set_size (row, 0);
  for (guint k = 0; k < nw; k++)
    {
      GArray *list = g_hash_table_lookup (p->by_word, GUINT_TO_POINTER (w[k] + 1));

      for (guint x = 0; x < list->len; x++)
        {
          guint32 v = g_array_index (list, guint32, x);
          SubEntry e;

          if (v == u || p->stamp[v] == u + 1)
            continue;
          p->stamp[v] = u + 1;
          e.other = v;
          e.sub = ws_similarity_sub (p->similarity, fu, g_array_index (p->frames, WsFrameId, v));
          g_array_append_val (row, e);
        }
    }
  /* The next call for the same u must see every v again. */
  for (guint x = 0; x < row->len; x++)
    p->stamp[g_array_index (row, SubEntry, x).other] = 0;
}

/* Frames by word; then every frame's Sub() row, if they fit the budget. */
static void
pairs_init_words (Pairs *p)
{
  guint64 pairs = 0;

  p->by_word = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  p->stamp = g_new0 (guint32, MAX (p->n_local, 1));
  p->scratch = g_array_new (FALSE, FALSE, sizeof (SubEntry));

  for (guint u = 0; u < p->n_local; u++)
    {
      guint nw;
      const guint32 *w = ws_similarity_get_words (p->similarity, g_array_index (p->frames, WsFrameId, u), &nw);

      for (guint k = 0; k < nw; k++)
        {
          GArray *list = g_hash_table_lookup (p->by_word, GUINT_TO_POINTER (w[k] + 1));

          if (list == NULL)
            {
              list = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_hash_table_insert (p->by_word, GUINT_TO_POINTER (w[k] + 1), list);
            }
          if (list->len == 0 || g_array_index (list, guint32, list->len - 1) != u)
            g_array_append_val (list, u);
        }
    }

  /* An upper bound on the table's size: every pair of frames per word. */
  {
    GHashTableIter it;
    gpointer value;

    g_hash_table_iter_init (&it, p->by_word);
    while (g_hash_table_iter_next (&it, NULL, &value))
      pairs += (guint64) ((GArray *) value)->len * ((GArray *) value)->len;
  }
  if (pairs > SPARSE_BUDGET)
    return;

  p->sparse = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint u = 0; u < p->n_local; u++)
    {
      GArray *row = g_array_new (FALSE, FALSE, sizeof (SubEntry));

      compute_sub_row (p, u, row);
      g_ptr_array_add (p->sparse, row);
    }
}

static GArray *
sub_row (Pairs *p,
         guint  u)
{
  if (p->sparse != NULL)
    return g_ptr_array_index (p->sparse, u);
  compute_sub_row (p, u, p->scratch);
  return p->scratch;
}

/* Scatters (or, with @reset, clears) row a's Sub() values into rowsub. */
static void
scatter_rows (Pairs    *p,
              guint     a,
              gboolean  reset)
{
  for (guint i = 0; i < p->len[a]; i++)
    {
      GArray *row = sub_row (p, p->local[a][i]);
      double *r = p->rowsub + (gsize) i * p->n_local;

      for (guint x = 0; x < row->len; x++)
        {
          const SubEntry *e = &g_array_index (row, SubEntry, x);

          r[e->other] = reset ? 1.0 : e->sub;
        }
    }
}

static int
compare_lex (gconstpointer a,
             gconstpointer b,
             gpointer      user_data)
{
  const Pairs *p = user_data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  for (guint i = 0; i < p->len[x] && i < p->len[y]; i++)
    if (p->view[x][i] != p->view[y][i])
      return p->view[x][i] < p->view[y][i] ? -1 : 1;
  if (p->len[x] != p->len[y])
    return p->len[x] < p->len[y] ? -1 : 1;
  return x < y ? -1 : 1;
}

/* Columns @from… of the alignment matrix of (a, b); the earlier ones are
 * those of the previous b, which shares them. */
static void
fill_columns (Pairs *p,
              guint  a,
              guint  b,
              guint  from)
{
  guint la = p->len[a], lb = p->len[b], rows = la + 1;
  gsize stride = p->n_local;
  const guint32 *la_local = p->local[a], *lb_local = p->local[b];
  double *d = p->d;

  for (guint j = from; j <= lb; j++)
    {
      double *col = d + (gsize) j * rows, *left = col - rows;
      guint32 y = lb_local[j - 1];
      const double *sub = p->rowsub + y;

      col[0] = j;
      for (guint i = 1; i <= la; i++)
        {
          double c = la_local[i - 1] == y ? 0.0 : sub[(gsize) (i - 1) * stride];
          double diag = left[i - 1] + c;
          double up = col[i - 1] + 1.0;
          double lf = left[i] + 1.0;

          col[i] = MIN (diag, MIN (up, lf));
        }
    }
}

/* Traceback, as ws_similarity_align(): diagonal, then deletion, then
 * insertion.  Returns the number of steps, stored at the end of the
 * arrays (la + lb slots). */
static guint
traceback (Pairs *p,
           guint  a,
           guint  b)
{
  guint la = p->len[a], lb = p->len[b], rows = la + 1, cap = la + lb, ns = 0;
  const guint32 *la_local = p->local[a], *lb_local = p->local[b];
  const double *d = p->d, *rowsub = p->rowsub;
  gsize stride = p->n_local;
  guint8 *ops = p->ops;
  guint32 *li = p->li, *ri = p->ri;
  guint i = la, j = lb;

  while (i > 0 || j > 0)
    {
      double here = d[(gsize) j * rows + i];
      guint k = cap - 1 - ns++;

      if (i > 0 && j > 0)
        {
          gboolean same = la_local[i - 1] == lb_local[j - 1];
          double c = same ? 0.0 : rowsub[(gsize) (i - 1) * stride + lb_local[j - 1]];

          if (fabs (here - (d[(gsize) (j - 1) * rows + i - 1] + c)) < 1e-9)
            {
              ops[k] = same ? OP_MATCH : OP_SUB;
              li[k] = --i;
              ri[k] = --j;
              continue;
            }
        }
      if (i > 0 && fabs (here - (d[(gsize) j * rows + i - 1] + 1.0)) < 1e-9)
        {
          ops[k] = OP_DEL;
          li[k] = --i;
        }
      else
        {
          ops[k] = OP_INS;
          ri[k] = --j;
        }
    }
  return ns;
}

/* Sim(A) of the @ns steps just traced, as ws_similarity_sim_of_alignment()
 * (same order of additions, so the same double). */
static double
sim_of_steps (Pairs *p,
              guint  a,
              guint  b,
              guint  ns)
{
  guint cap = p->len[a] + p->len[b], n_match = 0;
  const guint8 *ops = p->ops;
  const guint32 *li = p->li, *ri = p->ri, *lb_local = p->local[b];
  gsize stride = p->n_local;
  double wm = 0, wid = 0, ws = 0;

  if (ns == 0)
    return 1.0;

  for (guint k = cap - ns; k < cap; k++)
    {
      guint v = (k > cap - ns && ops[k - 1] == ops[k] ? 1 : 0) |
                (k + 1 < cap && ops[k + 1] == ops[k] ? 2 : 0);
      const double *oa = p->omega[a] + v, *ob = p->omega[b] + v;

      switch (ops[k])
        {
        case OP_MATCH:
          n_match++;
          wm += oa[li[k] * 4];
          break;
        case OP_DEL:
          wid += oa[li[k] * 4];
          break;
        case OP_INS:
          wid += ob[ri[k] * 4];
          break;
        case OP_SUB:
        default:
          ws += p->rowsub[(gsize) li[k] * stride + lb_local[ri[k]]] *
                (oa[li[k] * 4] + ob[ri[k] * 4]) / 2.0;
          break;
        }
    }
  if (wm + wid + ws < EPS)
    return (double) n_match / ns;
  return wm / (wm + wid + ws);
}

/* Row a of the matrix against every later pattern in @ord. */
static void
similarities_of_row (Pairs        *p,
                     const guint  *ord,
                     guint         ai,
                     double       *matrix)
{
  guint a = ord[ai], prev_b = G_MAXUINT, valid = 0;   /* columns 0..valid are up to date */

  matrix[(gsize) a * p->n + a] = 1.0;
  scatter_rows (p, a, FALSE);
  for (guint i = 0; i <= p->len[a]; i++)
    p->d[i] = i;

  for (guint bi = ai + 1; bi < p->n; bi++)
    {
      guint b = ord[bi], lcp = 0;
      double sim;

      if (prev_b != G_MAXUINT)
        while (lcp < p->len[prev_b] && lcp < p->len[b] && p->view[prev_b][lcp] == p->view[b][lcp])
          lcp++;
      fill_columns (p, a, b, MIN (lcp, valid) + 1);
      valid = p->len[b];
      prev_b = b;

      sim = sim_of_steps (p, a, b, traceback (p, a, b));
      matrix[(gsize) a * p->n + b] = sim;
      matrix[(gsize) b * p->n + a] = sim;
    }

  scatter_rows (p, a, TRUE);
}

/**
 * ws_clusterer_similarities:
 * @cancellable: (nullable): polled after each row
 * @progress: (nullable): called from this thread
 *
 * Sim(A) of every pair of patterns (StackMine §VI.B), on their aligned
 * views (ws_similarity_view()).
 *
 * Returns: (transfer full): the n×n matrix, row-major, 1 on the diagonal,
 *   or %NULL with %WS_ERROR_CANCELLED
 */
double *
ws_clusterer_similarities (WsPatternSet    *set,
                           WsSimilarity    *similarity,
                           GCancellable    *cancellable,
                           WsProgressFunc   progress,
                           gpointer         progress_data,
                           GError         **error)
{
  Pairs p = { 0 };
  g_autofree double *matrix = NULL;
  g_autofree guint *ord = NULL;
  gint64 last_progress = 0;
  gsize cells;

  g_return_val_if_fail (set != NULL, NULL);
  g_return_val_if_fail (WS_IS_SIMILARITY (similarity), NULL);

  p.set = set;
  p.similarity = similarity;
  p.n = ws_pattern_set_get_n_patterns (set);
  matrix = g_new (double, MAX ((gsize) p.n * p.n, 1));
  if (p.n == 0)
    return g_steal_pointer (&matrix);

  pairs_init_views (&p);
  pairs_init_words (&p);

  /* Lexicographic order: consecutive patterns share prefixes. */
  ord = g_new (guint, p.n);
  for (guint k = 0; k < p.n; k++)
    ord[k] = k;
  g_qsort_with_data (ord, p.n, sizeof (guint), compare_lex, &p);

  cells = (gsize) MAX (p.max_len, 1) * p.n_local;
  p.rowsub = g_new (double, cells);
  for (gsize k = 0; k < cells; k++)
    p.rowsub[k] = 1.0;
  p.d = g_new (double, (gsize) (p.max_len + 1) * (p.max_len + 1));
  p.ops = g_new (guint8, 2 * p.max_len + 1);
  p.li = g_new (guint32, 2 * p.max_len + 1);
  p.ri = g_new (guint32, 2 * p.max_len + 1);

  for (guint ai = 0; ai < p.n; ai++)
    {
      if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
        {
          pairs_clear (&p);
          g_set_error_literal (error, WS_ERROR, WS_ERROR_CANCELLED, _("Clustering was cancelled"));
          return NULL;
        }

      similarities_of_row (&p, ord, ai, matrix);

      if (progress != NULL)
        {
          gint64 now = g_get_monotonic_time ();

          if (now - last_progress > 100 * G_TIME_SPAN_MILLISECOND || ai + 1 == p.n)
            {
              /* Row ai has n - ai - 1 pairs: pairs done so far. */
              double done = (double) (ai + 1) * (2.0 * p.n - ai - 2) / 2.0;

              last_progress = now;
              progress (done / MAX ((double) p.n * (p.n - 1) / 2.0, 1.0),
                        _("Comparing call-stack patterns"), progress_data);
            }
        }
    }

  pairs_clear (&p);
  return g_steal_pointer (&matrix);
}

/* ------------------------------------------------------------------ */
/* Agglomeration                                                        */

typedef struct {
  guint  a, b;
  double sim;
} Merge;

static guint
uf_find (guint *parent,
         guint  x)
{
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}

/* Merges clusters x < y of the matrix into x, with the Lance-Williams
 * update of the linkage. */
static void
merge_rows (double         *matrix,
            guint           n,
            const gboolean *active,
            const guint    *size,
            guint           x,
            guint           y,
            WsLinkage       linkage)
{
  for (guint c = 0; c < n; c++)
    {
      double sx, sy, s;

      if (!active[c] || c == x || c == y)
        continue;
      sx = matrix[(gsize) x * n + c];
      sy = matrix[(gsize) y * n + c];
      switch (linkage)
        {
        case WS_LINKAGE_COMPLETE:
          s = MIN (sx, sy);
          break;
        case WS_LINKAGE_SINGLE:
          s = MAX (sx, sy);
          break;
        case WS_LINKAGE_AVERAGE:
        default:
          s = (size[x] * sx + size[y] * sy) / (size[x] + size[y]);
          break;
        }
      matrix[(gsize) x * n + c] = s;
      matrix[(gsize) c * n + x] = s;
    }
}

/* The nearest-neighbour chain: every merge, in the order found. */
static GArray *
nn_chain (double    *matrix,
          guint      n,
          WsLinkage  linkage)
{
  g_autofree gboolean *active = g_new (gboolean, MAX (n, 1));
  g_autofree guint *size = g_new (guint, MAX (n, 1));
  g_autofree guint *chain = g_new (guint, MAX (n, 1) + 1);
  GArray *merges = g_array_new (FALSE, FALSE, sizeof (Merge));
  guint chain_len = 0, remaining = n, first_active = 0;

  for (guint i = 0; i < n; i++)
    {
      active[i] = TRUE;
      size[i] = 1;
    }

  while (remaining > 1)
    {
      guint top, prev, best = G_MAXUINT;
      double best_sim = -G_MAXDOUBLE;

      if (chain_len == 0)
        {
          while (!active[first_active])
            first_active++;
          chain[chain_len++] = first_active;
        }
      top = chain[chain_len - 1];
      prev = chain_len >= 2 ? chain[chain_len - 2] : G_MAXUINT;

      /* Ties go to the previous chain element (so the chain always ends),
       * then to the lowest index. */
      if (prev != G_MAXUINT)
        {
          best = prev;
          best_sim = matrix[(gsize) top * n + prev];
        }
      for (guint c = 0; c < n; c++)
        if (active[c] && c != top && matrix[(gsize) top * n + c] > best_sim)
          {
            best = c;
            best_sim = matrix[(gsize) top * n + c];
          }

      if (best != prev)
        {
          chain[chain_len++] = best;
          continue;
        }

      /* top and prev are mutual nearest neighbours: merge into the lower
       * index. */
      {
        guint x = MIN (top, prev), y = MAX (top, prev);
        Merge mg = { x, y, best_sim };

        merge_rows (matrix, n, active, size, x, y, linkage);
        size[x] += size[y];
        active[y] = FALSE;
        remaining--;
        chain_len -= 2;
        g_array_append_val (merges, mg);
      }
    }
  return merges;
}

/**
 * ws_clusterer_agglomerate:
 * @matrix: (inout): n×n symmetric similarities; overwritten
 * @threshold: clusters are not merged below this similarity
 * @merge_similarity: (out caller-allocates) (optional): n slots; slot c
 *   receives cluster c's last merge similarity (1 for a singleton)
 *
 * Agglomerative hierarchical clustering, stopped at @threshold.
 *
 * Returns: (transfer full): the cluster of each item, numbered 0, 1… in
 *   order of each cluster's lowest item
 */
guint *
ws_clusterer_agglomerate (double    *matrix,
                          guint      n,
                          double     threshold,
                          WsLinkage  linkage,
                          double    *merge_similarity)
{
  g_autofree guint *parent = g_new (guint, MAX (n, 1));
  g_autofree guint *number = g_new (guint, MAX (n, 1));
  g_autoptr(GArray) merges = NULL;
  guint *assignment = g_new (guint, MAX (n, 1));
  guint n_clusters = 0;

  g_return_val_if_fail (matrix != NULL || n == 0, assignment);

  merges = nn_chain (matrix, n, linkage);
  for (guint i = 0; i < n; i++)
    {
      parent[i] = i;
      number[i] = G_MAXUINT;
    }

  /* The clusters at the threshold: components of the merges >= it. */
  for (guint m = 0; m < merges->len; m++)
    {
      const Merge *mg = &g_array_index (merges, Merge, m);

      if (mg->sim >= threshold)
        parent[uf_find (parent, mg->b)] = uf_find (parent, mg->a);
    }

  for (guint i = 0; i < n; i++)
    {
      guint r = uf_find (parent, i);

      if (number[r] == G_MAXUINT)
        number[r] = n_clusters++;
      assignment[i] = number[r];
    }

  if (merge_similarity != NULL)
    {
      /* A merge's similarity is its cluster's last one only if no later
       * merge >= threshold grows that cluster: the lowest merge
       * similarity inside a cluster is its last merge (merges within a
       * cluster are >= threshold and monotone). */
      for (guint i = 0; i < n; i++)
        merge_similarity[i] = 1.0;
      for (guint m = 0; m < merges->len; m++)
        {
          const Merge *mg = &g_array_index (merges, Merge, m);
          guint c = assignment[mg->a];

          if (mg->sim >= threshold && mg->sim < merge_similarity[c])
            merge_similarity[c] = mg->sim;
        }
    }

  return assignment;
}

/* ------------------------------------------------------------------ */
/* Clusters and their metrics                                           */

static int
compare_guint32_ptr (gconstpointer a,
                     gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static void
compute_metrics (WsPatternSet *set,
                 WsCluster    *c,
                 guint32      *entry_stamp,
                 guint8       *stream_seen,
                 guint32       stamp)
{
  WsStackDb *db = ws_pattern_set_get_stack_db (set);
  g_autoptr(GArray) support = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_streams = ws_stack_db_get_n_streams (db);

  memset (stream_seen, 0, n_streams);
  c->total_cost = 0;
  c->n_events = 0;
  c->n_streams = 0;

  /* Each event counted once, however many of the cluster's patterns its
   * stack contains (Cost_total sums over events, §II.B). */
  for (guint k = 0; k < c->n_patterns; k++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (set, c->patterns[k]);

      for (guint s = 0; s < p->n_support; s++)
        {
          guint32 e = p->support[s];
          const WsStackDbEntry *entry;
          const WsStackDbShare *shares;
          guint n_shares;

          if (entry_stamp[e] == stamp)
            continue;
          entry_stamp[e] = stamp;
          g_array_append_val (support, e);

          entry = ws_stack_db_get_entry (db, e);
          c->total_cost += entry->cost;
          c->n_events += entry->n_events;
          shares = ws_stack_db_get_shares (db, e, &n_shares);
          for (guint x = 0; x < n_shares; x++)
            if (!stream_seen[shares[x].stream])
              {
                stream_seen[shares[x].stream] = 1;
                c->n_streams++;
              }
        }
    }

  g_array_sort (support, compare_guint32_ptr);
  c->n_support = support->len;
  c->support = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&support), FALSE);
  c->average_cost = c->n_events > 0 ? (double) c->total_cost / (double) c->n_events : 0.0;
}

/**
 * ws_clusterer_cluster:
 * @threshold: the similarity (0…1) below which clusters are not merged
 * @cancellable: (nullable): polled while comparing patterns
 * @progress: (nullable): called from this thread
 *
 * Clusters the patterns (StackMine §VI) and computes each cluster's four
 * metrics over the pattern set's database.  Clusters come ranked by total
 * cost; see ws_cluster_set_rank().  Safe to run in a worker thread.
 *
 * Returns: (transfer full): the clusters, or %NULL with
 *   %WS_ERROR_CANCELLED
 */
WsClusterSet *
ws_clusterer_cluster (WsPatternSet    *patterns,
                      WsSimilarity    *similarity,
                      double           threshold,
                      WsLinkage        linkage,
                      GCancellable    *cancellable,
                      WsProgressFunc   progress,
                      gpointer         progress_data,
                      GError         **error)
{
  g_autofree double *matrix = NULL;
  g_autofree guint *assignment = NULL;
  g_autofree double *merge_sim = NULL;
  g_autofree guint32 *entry_stamp = NULL;
  g_autofree guint8 *stream_seen = NULL;
  g_autoptr(GPtrArray) members = NULL;
  WsClusterSet *self;
  WsStackDb *db;
  guint n, n_clusters = 0;

  g_return_val_if_fail (patterns != NULL, NULL);
  g_return_val_if_fail (WS_IS_SIMILARITY (similarity), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = ws_pattern_set_get_n_patterns (patterns);
  matrix = ws_clusterer_similarities (patterns, similarity, cancellable, progress, progress_data, error);
  if (matrix == NULL)
    return NULL;

  merge_sim = g_new (double, MAX (n, 1));
  assignment = ws_clusterer_agglomerate (matrix, n, threshold, linkage, merge_sim);
  for (guint i = 0; i < n; i++)
    n_clusters = MAX (n_clusters, assignment[i] + 1);

  members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint c = 0; c < n_clusters; c++)
    g_ptr_array_add (members, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint i = 0; i < n; i++)
    g_array_append_val (g_ptr_array_index (members, assignment[i]), i);

  self = g_new0 (WsClusterSet, 1);
  g_ref_count_init (&self->ref_count);
  self->patterns = ws_pattern_set_ref (patterns);
  self->threshold = threshold;
  self->clusters = g_array_new (FALSE, TRUE, sizeof (WsCluster));
  g_array_set_clear_func (self->clusters, cluster_clear);
  self->cluster_of = g_new0 (guint, MAX (n, 1));

  db = ws_pattern_set_get_stack_db (patterns);
  entry_stamp = g_new0 (guint32, MAX (ws_stack_db_get_n_entries (db), 1));
  stream_seen = g_new0 (guint8, MAX (ws_stack_db_get_n_streams (db), 1));

  for (guint c = 0; c < n_clusters; c++)
    {
      GArray *m = g_ptr_array_index (members, c);
      WsCluster cl = { 0 };

      /* Pattern indices ascending = pattern cost descending. */
      cl.n_patterns = m->len;
      cl.patterns = g_memdup2 (m->data, sizeof (guint) * m->len);
      cl.merge_similarity = merge_sim[c];
      compute_metrics (patterns, &cl, entry_stamp, stream_seen, c + 1);
      g_array_append_val (self->clusters, cl);
    }

  ws_cluster_set_rank (self, WS_CLUSTER_RANK_TOTAL);
  return self;
}
