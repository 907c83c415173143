/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Contrast mining (§4.2).  A Signature Set Tuple is kept as one flat key
 * [n_w, n_u, n_r, w…, u…, r…] with each set sorted, so that equal tuples
 * hash alike.  AWG nodes are numbered parents first, so the segments
 * ending at a node are its k nearest ancestors, walked upwards.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-contrast.h"
#include "ws-error.h"

#define SET_CAP 192   /* 3 sets of up to 64 nodes' signatures each */

struct _WsContrastResult
{
  GObject        parent_instance;

  WsSignatures  *signatures;
  WsInstanceSet *fast;
  WsInstanceSet *slow;
  WsAwg         *awg_fast;
  WsAwg         *awg_slow;
  WsTime         t_fast;
  WsTime         t_slow;
  gboolean       proposed;
  gboolean       by_class;
  guint          k;
  WsContrastRank rank;
  guint          n_meta_fast;
  guint          n_meta_slow;
  guint          n_meta_contrast;
  GPtrArray     *patterns;     /* WsContrastPattern*, ranked */
  double         itc;
  double         ttc;
  double         coverage[101];
};

G_DEFINE_FINAL_TYPE (WsContrastResult, ws_contrast_result, G_TYPE_OBJECT)

static void
pattern_free (gpointer data)
{
  WsContrastPattern *p = data;

  g_free (p->w);   /* u and r live in the same block */
  g_array_unref (p->slow_leaves);
  g_array_unref (p->fast_leaves);
  g_free (p);
}

static void
ws_contrast_result_finalize (GObject *object)
{
  WsContrastResult *self = WS_CONTRAST_RESULT (object);

  g_clear_object (&self->signatures);
  g_clear_object (&self->fast);
  g_clear_object (&self->slow);
  g_clear_object (&self->awg_fast);
  g_clear_object (&self->awg_slow);
  g_ptr_array_unref (self->patterns);

  G_OBJECT_CLASS (ws_contrast_result_parent_class)->finalize (object);
}

static void
ws_contrast_result_class_init (WsContrastResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_contrast_result_finalize;
}

static void
ws_contrast_result_init (WsContrastResult *self)
{
  self->patterns = g_ptr_array_new_with_free_func (pattern_free);
}

/* ---- Signature Set Tuples ---- */

typedef struct {
  guint32 n[3];
  WsSigId v[3][SET_CAP / 3];
} Sst;

static void
sst_add (Sst *s, guint set, WsSigId sig)
{
  guint i, n = s->n[set];
  WsSigId *v = s->v[set];

  if (sig == WS_SIG_NONE || n >= SET_CAP / 3)
    return;
  for (i = 0; i < n && v[i] < sig; i++)
    ;
  if (i < n && v[i] == sig)
    return;
  memmove (v + i + 1, v + i, (n - i) * sizeof (WsSigId));
  v[i] = sig;
  s->n[set]++;
}

static void
sst_add_node (Sst *s, const WsAwgNode *node)
{
  sst_add (s, 0, node->w);
  sst_add (s, 1, node->u);
  sst_add (s, 2, node->r);
}

/* The flat key, in @buf (>= 3 + SET_CAP words); returns its length. */
static guint
sst_key (const Sst *s, guint32 *buf)
{
  guint len = 3;

  for (guint set = 0; set < 3; set++)
    {
      buf[set] = s->n[set];
      memcpy (buf + len, s->v[set], s->n[set] * sizeof (WsSigId));
      len += s->n[set];
    }
  return len;
}

static guint
key_hash (gconstpointer data)
{
  const guint32 *k = data;
  guint len = 3 + k[0] + k[1] + k[2];
  guint32 h = 2166136261u;

  for (guint i = 0; i < len; i++)
    h = (h ^ k[i]) * 16777619u;
  return h;
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const guint32 *x = a, *y = b;
  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2]
      && memcmp (x + 3, y + 3, (x[0] + x[1] + x[2]) * sizeof (guint32)) == 0;
}

typedef struct {
  guint32 *key;
  WsTime   c;
  guint64  n;
  gboolean contrast;
} Meta;

static void
meta_free (gpointer data)
{
  Meta *m = data;
  g_free (m->key);
  g_free (m);
}

static Meta *
meta_lookup (GHashTable *table, const guint32 *key, guint len, gboolean create)
{
  Meta *m = g_hash_table_lookup (table, key);

  if (m == NULL && create)
    {
      m = g_new0 (Meta, 1);
      m->key = g_memdup2 (key, len * sizeof (guint32));
      g_hash_table_insert (table, m->key, m);
    }
  return m;
}

/* Enumerating meta-patterns: every segment of length 1..k, keyed by its
 * tuple, with the metric of its end node.  @ends (nullable) receives, per
 * node, the k metas of the segments ending there. */
static GHashTable *
enumerate_metas (WsAwg *awg, guint k, Meta **ends)
{
  GHashTable *table = g_hash_table_new_full (key_hash, key_equal, NULL, meta_free);
  const WsAwgNode *nodes = ws_awg_get_nodes (awg);
  guint32 buf[3 + SET_CAP];

  for (guint v = 0; v < ws_awg_get_n_nodes (awg); v++)
    {
      Sst s = { { 0, 0, 0 } };
      guint32 x = v;

      for (guint j = 0; j < k; j++)
        {
          Meta *m = NULL;

          if (x != WS_NONE)
            {
              sst_add_node (&s, &nodes[x]);
              m = meta_lookup (table, buf, sst_key (&s, buf), TRUE);
              m->c += nodes[v].c;
              m->n += nodes[v].n;
              x = nodes[x].parent;
            }
          if (ends != NULL)
            ends[(gsize) v * k + j] = m;
        }
    }
  return table;
}

/* Discovering meta-pattern contrasts: the two criteria. */
static guint
select_contrasts (GHashTable *slow, GHashTable *fast, double ratio)
{
  GHashTableIter it;
  Meta *ms;
  guint n = 0;

  g_hash_table_iter_init (&it, slow);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &ms))
    {
      Meta *mf = g_hash_table_lookup (fast, ms->key);

      if (mf == NULL || mf->n == 0 || mf->c == 0)
        ms->contrast = TRUE;
      else
        ms->contrast = ((double) ms->c / ms->n) / ((double) mf->c / mf->n) > ratio;
      n += ms->contrast;
    }
  return n;
}

static void
full_path_sst (const WsAwgNode *nodes, guint32 leaf, Sst *s)
{
  memset (s->n, 0, sizeof s->n);
  for (guint32 x = leaf; x != WS_NONE; x = nodes[x].parent)
    sst_add_node (s, &nodes[x]);
}

static WsContrastPattern *
pattern_new (const guint32 *key)
{
  WsContrastPattern *p = g_new0 (WsContrastPattern, 1);
  guint total = key[0] + key[1] + key[2];

  p->w = g_new (WsSigId, MAX (total, 1));
  memcpy (p->w, key + 3, total * sizeof (WsSigId));
  p->n_w = key[0];
  p->n_u = key[1];
  p->n_r = key[2];
  p->u = p->w + p->n_w;
  p->r = p->u + p->n_u;
  p->slow_leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->fast_leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  return p;
}

static int
compare_average (const WsContrastPattern *x, const WsContrastPattern *y)
{
  double ax = x->n ? (double) x->c / x->n : 0, ay = y->n ? (double) y->c / y->n : 0;

  return ax > ay ? -1 : ax < ay;
}

static int
compare_total (const WsContrastPattern *x, const WsContrastPattern *y)
{
  return x->c > y->c ? -1 : x->c < y->c;
}

/* Equal keys keep the order patterns were found in (g_ptr_array_sort is
 * stable), which follows AWG_slow's node order: deterministic. */
static int
compare_by_total (gconstpointer a,
                  gconstpointer b)
{
  const WsContrastPattern *x = *(WsContrastPattern * const *) a, *y = *(WsContrastPattern * const *) b;
  int c = compare_total (x, y);

  return c != 0 ? c : compare_average (x, y);
}

static int
compare_by_average (gconstpointer a,
                    gconstpointer b)
{
  const WsContrastPattern *x = *(WsContrastPattern * const *) a, *y = *(WsContrastPattern * const *) b;
  int c = compare_average (x, y);

  return c != 0 ? c : compare_total (x, y);
}

/* Discovering contrast patterns: slow full paths through a node that ends
 * a contrast segment, by tuple, then the fast paths with the same tuples. */
static void
collect_patterns (WsContrastResult *self, Meta **ends)
{
  const WsAwgNode *nodes = ws_awg_get_nodes (self->awg_slow);
  guint n = ws_awg_get_n_nodes (self->awg_slow);
  g_autofree gboolean *on_path = g_new0 (gboolean, MAX (n, 1));
  g_autoptr(GHashTable) by_key = g_hash_table_new (key_hash, key_equal);
  guint32 buf[3 + SET_CAP];
  Sst s;

  for (guint v = 0; v < n; v++)
    {
      gboolean mark = nodes[v].parent != WS_NONE && on_path[nodes[v].parent];

      for (guint j = 0; j < self->k && !mark; j++)
        mark = ends[(gsize) v * self->k + j] != NULL && ends[(gsize) v * self->k + j]->contrast;
      on_path[v] = mark;
      if (!mark || nodes[v].first_child != WS_NONE)
        continue;

      full_path_sst (nodes, v, &s);
      guint len = sst_key (&s, buf);
      WsContrastPattern *p = g_hash_table_lookup (by_key, buf);
      if (p == NULL)
        {
          p = pattern_new (buf);
          g_ptr_array_add (self->patterns, p);
          g_hash_table_insert (by_key, g_memdup2 (buf, len * sizeof (guint32)), p);
        }
      p->c += nodes[v].c;
      p->n += nodes[v].n;
      p->c_max = MAX (p->c_max, nodes[v].c_max);
      p->c_path_max = MAX (p->c_path_max, nodes[v].c_path_max);
      g_array_append_val (p->slow_leaves, v);
    }

  nodes = ws_awg_get_nodes (self->awg_fast);
  for (guint v = 0; v < ws_awg_get_n_nodes (self->awg_fast); v++)
    if (nodes[v].first_child == WS_NONE)
      {
        WsContrastPattern *p;

        full_path_sst (nodes, v, &s);
        sst_key (&s, buf);
        if ((p = g_hash_table_lookup (by_key, buf)) != NULL)
          g_array_append_val (p->fast_leaves, v);
      }

  {
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init (&it, by_key);
    while (g_hash_table_iter_next (&it, &key, NULL))
      g_free (key);
  }
}

static void
rank_and_cover (WsContrastResult *self)
{
  WsTime total = ws_awg_get_total_cost (self->awg_slow), all = 0, high = 0, acc = 0;
  guint n = self->patterns->len, taken = 0;

  g_ptr_array_sort (self->patterns, self->rank == WS_CONTRAST_RANK_AVERAGE ? compare_by_average : compare_by_total);
  for (guint i = 0; i < n; i++)
    {
      WsContrastPattern *p = g_ptr_array_index (self->patterns, i);

      /* The whole path, not its end node: the end node of a propagation
       * chain is typically one CPU sample of the holder (~2 ms) or one disk
       * service, which never exceeds T_slow, while the delays the chain
       * imposed on the threads along it, together, may. */
      p->high_impact = p->c_path_max > self->t_slow;
      all += p->c;
      if (p->high_impact)
        high += p->c;
    }
  self->itc = total > 0 ? (double) high / total : 0;
  self->ttc = total > 0 ? (double) all / total : 0;

  self->coverage[0] = 0;
  for (guint pct = 1; pct <= 100; pct++)
    {
      guint top = (guint) ((pct * (guint64) n + 99) / 100);

      for (; taken < top; taken++)
        acc += ((WsContrastPattern *) g_ptr_array_index (self->patterns, taken))->c;
      self->coverage[pct] = all > 0 ? (double) acc / all : 0;
    }
}

/* Classifying contrast classes, proposing thresholds when none are given. */
static gboolean
classify (WsContrastResult *self, const WsContrastSettings *settings, GError **error)
{
  if (settings->fast != NULL && settings->slow != NULL)
    {
      self->by_class = TRUE;
      self->fast = g_object_ref (settings->fast);
      self->slow = g_object_ref (settings->slow);
      self->t_fast = settings->t_fast > 0 ? settings->t_fast : ws_instance_set_percentile (self->fast, 0.5);
      self->t_slow = settings->t_slow > 0 ? settings->t_slow : ws_instance_set_percentile (self->slow, 0.5);
      return TRUE;
    }
  if (settings->instances == NULL || ws_instance_set_get_n (settings->instances) == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("No scenario instances to classify"));
      return FALSE;
    }
  self->proposed = settings->t_fast <= 0 || settings->t_slow <= 0;
  self->t_fast = settings->t_fast > 0 ? settings->t_fast
               : ws_instance_set_percentile (settings->instances, WS_CONTRAST_FAST_PERCENTILE);
  self->t_slow = settings->t_slow > 0 ? settings->t_slow
               : ws_instance_set_percentile (settings->instances, WS_CONTRAST_SLOW_PERCENTILE);
  if (self->t_slow < self->t_fast)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("T_slow must not be below T_fast"));
      return FALSE;
    }
  self->fast = ws_instance_set_filter (settings->instances, -1, self->t_fast);
  /* Equal thresholds would put the same instances in both classes. */
  self->slow = ws_instance_set_filter (settings->instances, MAX (self->t_slow, self->t_fast + 1), -1);
  return TRUE;
}

/**
 * ws_contrast_run:
 *
 * See the header.
 */
WsContrastResult *
ws_contrast_run (const WsContrastSettings *settings,
                 GCancellable             *cancellable,
                 WsProgressFunc            progress,
                 gpointer                  progress_data,
                 GError                  **error)
{
  g_autoptr(WsContrastResult) self = NULL;
  g_autoptr(GHashTable) fast_metas = NULL;
  g_autoptr(GHashTable) slow_metas = NULL;
  g_autofree Meta **ends = NULL;

  g_return_val_if_fail (settings != NULL, NULL);

  self = g_object_new (WS_TYPE_CONTRAST_RESULT, NULL);
  self->k = settings->k > 0 ? settings->k : WS_CONTRAST_DEFAULT_K;
  self->rank = settings->rank;
  self->signatures = ws_signatures_new (settings->component, settings->widen, error);
  if (self->signatures == NULL || !classify (self, settings, error))
    return NULL;

  self->awg_fast = ws_awg_build (self->fast, self->signatures, settings->classifier, cancellable,
                                 progress, progress_data, 0.0, 0.45, error);
  if (self->awg_fast == NULL)
    return NULL;
  self->awg_slow = ws_awg_build (self->slow, self->signatures, settings->classifier, cancellable,
                                 progress, progress_data, 0.45, 0.9, error);
  if (self->awg_slow == NULL)
    return NULL;
  if (progress != NULL)
    progress (0.9, _("Mining contrast patterns"), progress_data);

  ends = g_new0 (Meta *, MAX ((gsize) ws_awg_get_n_nodes (self->awg_slow) * self->k, 1));
  fast_metas = enumerate_metas (self->awg_fast, self->k, NULL);
  slow_metas = enumerate_metas (self->awg_slow, self->k, ends);
  self->n_meta_fast = g_hash_table_size (fast_metas);
  self->n_meta_slow = g_hash_table_size (slow_metas);
  self->n_meta_contrast = select_contrasts (slow_metas, fast_metas,
                                            (double) self->t_slow / MAX (self->t_fast, 1));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  collect_patterns (self, ends);
  rank_and_cover (self);
  if (progress != NULL)
    progress (1.0, NULL, progress_data);
  return g_steal_pointer (&self);
}

WsAwg *
ws_contrast_result_get_awg_fast (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->awg_fast;
}

WsAwg *
ws_contrast_result_get_awg_slow (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->awg_slow;
}

WsSignatures *
ws_contrast_result_get_signatures (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->signatures;
}

WsInstanceSet *
ws_contrast_result_get_fast (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->fast;
}

WsInstanceSet *
ws_contrast_result_get_slow (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->slow;
}

WsTime
ws_contrast_result_get_t_fast (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->t_fast;
}

WsTime
ws_contrast_result_get_t_slow (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->t_slow;
}

gboolean
ws_contrast_result_get_thresholds_proposed (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), FALSE);
  return self->proposed;
}

gboolean
ws_contrast_result_get_by_class (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), FALSE);
  return self->by_class;
}

guint
ws_contrast_result_get_k (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->k;
}

void
ws_contrast_result_get_meta_counts (WsContrastResult *self,
                                    guint            *n_fast,
                                    guint            *n_slow,
                                    guint            *n_contrast)
{
  g_return_if_fail (WS_IS_CONTRAST_RESULT (self));
  if (n_fast)
    *n_fast = self->n_meta_fast;
  if (n_slow)
    *n_slow = self->n_meta_slow;
  if (n_contrast)
    *n_contrast = self->n_meta_contrast;
}

WsContrastRank
ws_contrast_result_get_rank (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), WS_CONTRAST_RANK_TOTAL);
  return self->rank;
}

const char *
ws_contrast_rank_to_string (WsContrastRank rank)
{
  return rank == WS_CONTRAST_RANK_AVERAGE ? "average" : "total";
}

gboolean
ws_contrast_rank_from_string (const char     *name,
                              WsContrastRank *rank)
{
  if (g_strcmp0 (name, "total") == 0)
    *rank = WS_CONTRAST_RANK_TOTAL;
  else if (g_strcmp0 (name, "average") == 0)
    *rank = WS_CONTRAST_RANK_AVERAGE;
  else
    return FALSE;
  return TRUE;
}

guint
ws_contrast_result_get_n_patterns (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->patterns->len;
}

const WsContrastPattern *
ws_contrast_result_get_pattern (WsContrastResult *self,
                                guint             rank)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  g_return_val_if_fail (rank < self->patterns->len, NULL);
  return g_ptr_array_index (self->patterns, rank);
}

const WsContrastPattern *
ws_contrast_result_get_top_pattern (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  return self->patterns->len > 0 ? g_ptr_array_index (self->patterns, 0) : NULL;
}

WsTime
ws_contrast_result_get_total_cost (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return ws_awg_get_total_cost (self->awg_slow);
}

double
ws_contrast_result_get_itc (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->itc;
}

double
ws_contrast_result_get_ttc (WsContrastResult *self)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->ttc;
}

double
ws_contrast_result_get_coverage (WsContrastResult *self,
                                 guint             percent)
{
  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), 0);
  return self->coverage[MIN (percent, 100)];
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

GArray *
ws_contrast_result_dup_pattern_instances (WsContrastResult *self,
                                          guint             rank)
{
  const WsContrastPattern *p;
  GArray *out;

  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  g_return_val_if_fail (rank < self->patterns->len, NULL);

  p = g_ptr_array_index (self->patterns, rank);
  out = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < p->slow_leaves->len; i++)
    {
      guint n = 0;
      const guint32 *ids = ws_awg_get_node_instances (self->awg_slow, g_array_index (p->slow_leaves, guint32, i), &n);
      g_array_append_vals (out, ids, n);
    }
  g_array_sort (out, compare_u32);
  if (out->len > 1)
    {
      guint j = 1;

      for (guint i = 1; i < out->len; i++)
        if (g_array_index (out, guint32, i) != g_array_index (out, guint32, j - 1))
          g_array_index (out, guint32, j++) = g_array_index (out, guint32, i);
      g_array_set_size (out, j);
    }
  return out;
}

static void
append_set (GString *s, WsSignatures *sigs, const WsSigId *v, guint n)
{
  g_string_append_c (s, '{');
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", ws_signatures_get_name (sigs, v[i]));
  g_string_append_c (s, '}');
}

char *
ws_contrast_result_format_pattern (WsContrastResult        *self,
                                   const WsContrastPattern *pattern)
{
  GString *s = g_string_new ("⟨");

  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), NULL);
  append_set (s, self->signatures, pattern->w, pattern->n_w);
  g_string_append (s, ", ");
  append_set (s, self->signatures, pattern->u, pattern->n_u);
  g_string_append (s, ", ");
  append_set (s, self->signatures, pattern->r, pattern->n_r);
  g_string_append (s, "⟩");
  return g_string_free (s, FALSE);
}

gboolean
ws_contrast_pattern_has (WsContrastResult        *self,
                         const WsContrastPattern *pattern,
                         guint                    set,
                         const char              *name)
{
  const WsSigId *v = set == 0 ? pattern->w : set == 1 ? pattern->u : pattern->r;
  guint n = set == 0 ? pattern->n_w : set == 1 ? pattern->n_u : pattern->n_r;

  g_return_val_if_fail (WS_IS_CONTRAST_RESULT (self), FALSE);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (ws_signatures_get_name (self->signatures, v[i]), name) == 0)
      return TRUE;
  return FALSE;
}
