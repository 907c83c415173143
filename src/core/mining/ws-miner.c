/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Costly maximal call-stack pattern mining: StackMine §V, an adaptation of
 * BIDE (Wang & Han, ICDE 2004) in which
 *
 *   - the support of a pattern P is Cost(P), the summed cost of the events
 *     whose stack contains P as a (non-contiguous) subsequence, and
 *   - the closure check "some one-item extension P' has Cost(P') ==
 *     Cost(P)" becomes the maximality check "some one-item extension P' has
 *     Cost(P') >= λ".
 *
 * Output: every P with Cost(P) >= λ that has no super-pattern of cost >= λ.
 *
 * Why checking one-item extensions is enough: Cost is anti-monotone (a
 * super-pattern is contained in fewer stacks), so if some P'' ⊐ P has
 * Cost(P'') >= λ, the pattern P' obtained by inserting into P any single
 * item of P'' \ P satisfies P ⊏ P' ⊑ P'' and Cost(P') >= Cost(P'') >= λ.
 * A one-item insertion either appends (forward extension: counted in the
 * projected database of P) or inserts before P_i, 1 <= i <= n (backward
 * extension: the item must occur in the i-th *maximum period* of P in the
 * stack, BIDE Def. 5; the check is exact, see has_backward_extension()).
 *
 * The search is PrefixSpan's depth-first growth of prefixes over
 * pseudo-projected databases (stack index + position after the *first*,
 * leftmost instance of the prefix).  Only items of cost >= λ are grown, as
 * in BIDE with support.  Frames whose own cost is < λ are deleted from the
 * stacks up front: no pattern containing them can reach λ, and the periods
 * checked below then never hold them either.  Stacks that become identical
 * are merged again, summing their costs.
 *
 * BackScan pruning (BIDE §3.3), and why it stays valid for the cost-based
 * maximal definition: let P = P_1…P_n be a prefix and suppose some item e
 * occurs in the i-th *semi-maximum period* of P in EVERY stack S that
 * contains P (the piece of S between the end of the first instance of
 * P_1…P_{i-1} and the last-in-first appearance of P_i, i.e. the position
 * of P_i when P_i…P_n is matched backwards from the end of P's first
 * instance).  Every pattern Q = P◇γ grown from P is contained in S exactly
 * when γ occurs after P's first instance in S; inserting e before P_i then
 * still fits (P_1…P_{i-1} from the first instance, e in the period, P_i…P_n
 * at their last-in-first positions, which end where the first instance
 * ends, then γ).  So every stack containing Q also contains Q + e, and
 * Cost(Q + e) = Cost(Q) >= λ whenever Q is costly: no pattern with prefix P
 * is maximal, and the whole subtree can be skipped.
 *
 * A weaker condition is NOT safe in the maximal setting even though it
 * looks tempting: "e occurs in the i-th semi-maximum period of stacks whose
 * cost adds up to >= λ" proves that P itself is not maximal, but a
 * descendant Q may be contained only in the other stacks.  Example: S1 =
 * a e b (cost λ), S2 = a b c (cost λ); a-e-b has cost λ so ab is not
 * maximal, yet abc (cost λ) is maximal and is only reached through ab.
 * Hence BackScan prunes only when e is in the period of *all* stacks
 * containing P, exactly as BIDE does for closed patterns, and the weaker
 * fact is used only to reject P itself (in the final backward check).
 *
 * BIDE's forward-extension shortcut ("an item with the same support in the
 * projected database: P is not closed") likewise only rejects P, never its
 * subtree; it is what the "no costly forward extension" test below does.
 *
 * Two shortcuts, both consequences of the above:
 *
 *   - While counting the items of the projected database, the item just
 *     before each item's first occurrence is noted; if it is the same item
 *     e in every sequence, e lies in the last semi-maximum period of the
 *     child P◇x everywhere, so the child is BackScan-pruned without
 *     building its projection (the caller of x, in call stacks).
 *   - Forced extension: if every sequence continues with the same item y
 *     right after P's first instance, only patterns with prefix P◇y can be
 *     maximal (proof at force_extension()), so the search descends into P◇y
 *     alone, with the same sequences, without counting.
 *
 * Each prefix is a distinct node of the prefix tree, so each pattern is
 * checked once and no candidate set has to be kept.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-miner.h"

struct _WsPatternSet
{
  grefcount     ref_count;
  WsStackDb    *db;
  gint64        lambda;
  GArray       *patterns;   /* WsPattern */
  WsMinerStats  stats;
};

G_DEFINE_BOXED_TYPE (WsPatternSet, ws_pattern_set, ws_pattern_set_ref, ws_pattern_set_unref)

static void
pattern_clear (gpointer data)
{
  WsPattern *p = data;

  g_free (p->frames);
  g_free (p->support);
}

/**
 * ws_pattern_set_new:
 * @db: the database patterns are counted in
 * @lambda: the cost threshold they were mined with (informative)
 *
 * An empty set, to be filled by the miner or, for hand-picked patterns,
 * by ws_pattern_set_add_pattern().
 *
 * Returns: (transfer full): a new pattern set
 */
WsPatternSet *
ws_pattern_set_new (WsStackDb *db,
                    gint64     lambda)
{
  WsPatternSet *self;

  g_return_val_if_fail (WS_IS_STACK_DB (db), NULL);

  self = g_new0 (WsPatternSet, 1);
  g_ref_count_init (&self->ref_count);
  self->db = g_object_ref (db);
  self->lambda = lambda;
  self->patterns = g_array_new (FALSE, TRUE, sizeof (WsPattern));
  g_array_set_clear_func (self->patterns, pattern_clear);
  return self;
}

WsPatternSet *
ws_pattern_set_ref (WsPatternSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_pattern_set_unref (WsPatternSet *self)
{
  g_return_if_fail (self != NULL);

  if (g_ref_count_dec (&self->ref_count))
    {
      g_array_unref (self->patterns);
      g_object_unref (self->db);
      g_free (self);
    }
}

/**
 * ws_pattern_set_get_stack_db:
 *
 * Returns: (transfer none): the database the patterns were mined from
 */
WsStackDb *
ws_pattern_set_get_stack_db (WsPatternSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->db;
}

gint64
ws_pattern_set_get_lambda (WsPatternSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->lambda;
}

guint
ws_pattern_set_get_n_patterns (WsPatternSet *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->patterns->len;
}

/**
 * ws_pattern_set_get_pattern:
 *
 * Returns: (transfer none): pattern @index; after mining, patterns are
 *   sorted by decreasing cost
 */
const WsPattern *
ws_pattern_set_get_pattern (WsPatternSet *self,
                            guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->patterns->len, NULL);
  return &g_array_index (self->patterns, WsPattern, index);
}

/**
 * ws_pattern_set_get_stats:
 *
 * Returns: (transfer none): what the miner did (zero for a hand-made set)
 */
const WsMinerStats *
ws_pattern_set_get_stats (WsPatternSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->stats;
}

/**
 * ws_frames_is_subsequence:
 *
 * Returns: whether @pattern occurs in @stack in order, not necessarily
 *   contiguously (CP ⊑ e.S of StackMine Def. 4)
 */
gboolean
ws_frames_is_subsequence (const WsFrameId *pattern,
                          guint            n_pattern,
                          const WsFrameId *stack,
                          guint            n_stack)
{
  guint i = 0;

  for (guint k = 0; k < n_stack && i < n_pattern; k++)
    if (stack[k] == pattern[i])
      i++;
  return i == n_pattern;
}

/* Events and streams of a support set, from the database's shares. */
static void
fill_support_totals (WsPatternSet *self,
                     WsPattern    *p)
{
  guint n_streams = ws_stack_db_get_n_streams (self->db);
  g_autofree guint8 *seen = g_new0 (guint8, n_streams / 8 + 1);

  p->n_events = 0;
  p->n_streams = 0;
  for (guint i = 0; i < p->n_support; i++)
    {
      const WsStackDbShare *shares;
      guint n_shares;

      shares = ws_stack_db_get_shares (self->db, p->support[i], &n_shares);
      for (guint k = 0; k < n_shares; k++)
        {
          guint s = shares[k].stream;

          p->n_events += shares[k].n_events;
          if (!(seen[s / 8] & (1u << (s % 8))))
            {
              seen[s / 8] |= 1u << (s % 8);
              p->n_streams++;
            }
        }
    }
}

/**
 * ws_pattern_set_add_pattern:
 * @frames: (array length=n_frames): a pattern, caller first
 *
 * Adds a pattern chosen by hand, counting its cost, events, streams and
 * support by scanning the whole database.
 *
 * Returns: the pattern's index
 */
guint
ws_pattern_set_add_pattern (WsPatternSet    *self,
                            const WsFrameId *frames,
                            guint            n_frames)
{
  WsPattern p = { 0 };
  g_autoptr(GArray) support = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_entries;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (frames != NULL || n_frames == 0, 0);

  n_entries = ws_stack_db_get_n_entries (self->db);
  for (guint i = 0; i < n_entries; i++)
    {
      guint n;
      const WsFrameId *stack = ws_stack_db_get_frames (self->db, i, &n);

      if (ws_frames_is_subsequence (frames, n_frames, stack, n))
        {
          g_array_append_val (support, i);
          p.cost += ws_stack_db_get_entry (self->db, i)->cost;
        }
    }

  p.frames = g_memdup2 (frames, sizeof (WsFrameId) * MAX (n_frames, 1));
  p.n_frames = n_frames;
  p.n_support = support->len;
  p.support = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&support), FALSE);
  fill_support_totals (self, &p);
  g_array_append_val (self->patterns, p);
  return self->patterns->len - 1;
}

static int
compare_patterns (gconstpointer a,
                  gconstpointer b)
{
  const WsPattern *x = a, *y = b;

  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  for (guint i = 0; i < x->n_frames && i < y->n_frames; i++)
    if (x->frames[i] != y->frames[i])
      return x->frames[i] < y->frames[i] ? -1 : 1;
  return (int) x->n_frames - (int) y->n_frames;
}

/**
 * ws_pattern_set_sort:
 *
 * Sorts by decreasing cost (the order of StackMine's output), ties by
 * frame ids so that results are reproducible.
 */
void
ws_pattern_set_sort (WsPatternSet *self)
{
  g_return_if_fail (self != NULL);
  g_array_sort (self->patterns, compare_patterns);
}

static int
compare_discriminative (gconstpointer a,
                        gconstpointer b)
{
  const WsPattern *x = a, *y = b;

  if (x->discriminative != y->discriminative)
    return x->discriminative > y->discriminative ? -1 : 1;
  return compare_patterns (a, b);
}

/**
 * ws_pattern_set_sort_discriminative:
 *
 * Sorts by decreasing discriminative score (the patterns that cost the
 * slow class most more than the fast one first), ties as
 * ws_pattern_set_sort().
 */
void
ws_pattern_set_sort_discriminative (WsPatternSet *self)
{
  g_return_if_fail (self != NULL);
  g_array_sort (self->patterns, compare_discriminative);
}

void
ws_pattern_set_set_discriminative (WsPatternSet *self,
                                   guint         index,
                                   gint64        discriminative)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->patterns->len);
  g_array_index (self->patterns, WsPattern, index).discriminative = discriminative;
}

/**
 * ws_pattern_set_copy_top:
 * @n: how many patterns to keep
 *
 * For clustering only the costliest patterns of a long list.
 *
 * Returns: (transfer full): a new set with the first @n patterns (all if
 *   fewer), over the same database
 */
WsPatternSet *
ws_pattern_set_copy_top (WsPatternSet *self,
                         guint         n)
{
  WsPatternSet *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = ws_pattern_set_new (self->db, self->lambda);
  copy->stats = self->stats;
  n = MIN (n, self->patterns->len);
  for (guint i = 0; i < n; i++)
    {
      WsPattern p = g_array_index (self->patterns, WsPattern, i);

      p.frames = g_memdup2 (p.frames, sizeof (WsFrameId) * MAX (p.n_frames, 1));
      p.support = g_memdup2 (p.support, sizeof (guint32) * MAX (p.n_support, 1));
      g_array_append_val (copy->patterns, p);
    }
  return copy;
}

/**
 * ws_pattern_format:
 * @separator: put between frames, e.g. " → "
 *
 * Returns: (transfer full): the pattern's functions, caller first
 */
char *
ws_pattern_format (const WsPattern *pattern,
                   WsStackTable    *table,
                   const char      *separator)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (pattern != NULL, NULL);

  for (guint i = 0; i < pattern->n_frames; i++)
    {
      if (i > 0)
        g_string_append (s, separator);
      g_string_append (s, ws_stack_table_get_frame (table, pattern->frames[i])->function);
    }
  return g_string_free (s, FALSE);
}

/**
 * ws_miner_lambda_from_guideline:
 * @share_of_traces: the smallest share of trace streams a bug must hit to
 *   matter (0.1 = 10 %)
 * @delay_per_trace: its average impact per affected stream (ns)
 * @n_traces: how many trace streams are analysed
 *
 * StackMine §V: "assume that an analyst intends to conduct performance
 * analysis on one performance bug triggered in over 10% of the collected
 * 1000 trace streams with an impact of 0.3 second response delay on
 * average.  Then the analyst can set λ=30 seconds, since 30 seconds = 10% *
 * 0.3 second/trace stream * 1000 trace streams."
 *
 * Returns: λ in ns, rounded to the nearest ns
 */
gint64
ws_miner_lambda_from_guideline (double share_of_traces,
                                gint64 delay_per_trace,
                                guint  n_traces)
{
  g_return_val_if_fail (share_of_traces >= 0.0, 0);
  g_return_val_if_fail (delay_per_trace >= 0, 0);

  return (gint64) (share_of_traces * (double) delay_per_trace * (double) n_traces + 0.5);
}

/* ------------------------------------------------------------------ */
/* The miner proper                                                     */

typedef struct {
  guint32 seq;
  guint32 pos;     /* index just after the first instance of the prefix */
  guint32 parent;  /* index of the entry it was projected from, one level up */
} Proj;

typedef struct {
  guint32 item;
  guint32 count;
  gint64  cost;
} Ext;

/* No single item right before x in every sequence (see count_extensions()). */
#define PRED_MIXED G_MAXUINT32

/*
 * The period checks (BackScan and the backward-extension check) scan the
 * prefix's n periods in each supporting sequence, and BackScan keeps the
 * first sequence's distinct items of every period as its candidates.  In
 * call stacks the periods are short or empty.  A stack that repeats a
 * long run of distinct frames (the same chain of thousands of frames
 * twice or three times) makes every period span the repetitions: n × L
 * candidates (gigabytes for a trace of a few megabytes) and as many
 * steps.  Past MAX_CANDIDATES candidates, or MAX_PERIOD_STEPS period items
 * scanned in one run, the miner stops and says why (WS_ERROR_TOO_LONG)
 * instead of exhausting memory or running for hours; 64 MiB of candidates
 * at most.  Whatever it does return is exact.  A recursion repeating one
 * frame (f f f …) has one candidate per period and stays far below both.
 */
#define MAX_CANDIDATES   (16u * 1024 * 1024)
#define MAX_PERIOD_STEPS (G_GUINT64_CONSTANT (1) << 31)

typedef struct {
  WsPatternSet   *set;
  gint64          lambda;

  /* The sequences: stacks over dense item ids, frames cheaper than λ removed. */
  guint32        *items;
  guint32        *seq_start;       /* n_seqs + 1 */
  gint64         *seq_cost;
  guint32        *seq_entry_start; /* n_seqs + 1 */
  guint32        *seq_entries;     /* the database entries merged into each */
  guint           n_seqs;
  guint           n_items;
  WsFrameId      *item_frame;
  guint           max_len;

  /* Per-item scratch; every use leaves it as it found it. */
  guint32        *stamp;
  guint32         now;
  gint64         *icost;
  guint32        *icount;
  guint32        *ipred;
  guint32        *slot;
  GArray         *touched;

  /* The prefix being grown, and the projection of each of its prefixes
   * (levels[d] belongs to prefix[0..d)): following the parent links
   * gives the first instance of the prefix without rescanning. */
  guint32        *prefix;
  guint           prefix_len;
  const Proj    **levels;

  /* Scratch of the period checks. */
  GArray         *first;           /* guint32 */
  GArray         *last;            /* guint32 */
  GArray         *cand;            /* guint32 */
  guint32        *cand_start;
  guint32        *cand_len;

  WsMinerStats   *stats;
  GCancellable   *cancellable;
  gboolean        cancelled;
  /* The period items scanned so far; set when a limit above was reached:
   * the prefix length and the sequence's, for the message (the search
   * stops). */
  guint64         period_steps;
  guint           refused_prefix;
  guint           refused_len;
  WsProgressFunc  progress;
  gpointer        progress_data;
  gint64          last_progress;
  guint           progress_depth;  /* the first branching level */
} Miner;

static inline guint32
next_stamp (Miner *m)
{
  if (G_UNLIKELY (++m->now == 0))
    {
      memset (m->stamp, 0, sizeof (guint32) * m->n_items);
      m->now = 1;
    }
  return m->now;
}

static inline const guint32 *
seq_items (const Miner *m,
           guint32      s,
           guint       *len)
{
  *len = m->seq_start[s + 1] - m->seq_start[s];
  return m->items + m->seq_start[s];
}

/* Positions first[from…n-1] of the first (leftmost) instance of the
 * prefix in the sequence of projection entry @p of the current node. */
static inline void
first_instance_from (const Miner *m,
                     const Proj  *p,
                     guint32     *first,
                     guint        from)
{
  for (guint d = m->prefix_len; d >= 1 && d - 1 >= from; d--)
    {
      first[d - 1] = p->pos - 1;
      p = &m->levels[d - 1][p->parent];
    }
}

static inline void
first_instance (const Miner *m,
                const Proj  *p,
                guint32     *first)
{
  first_instance_from (m, p, first, 0);
}

/* Counts @steps period items scanned, and past a limit (see
 * MAX_CANDIDATES) stops the search: returns TRUE then. */
static gboolean
over_limit (Miner   *m,
            guint64  steps,
            guint64  candidates,
            guint    len)
{
  m->period_steps += steps;
  if (m->period_steps <= MAX_PERIOD_STEPS && candidates <= MAX_CANDIDATES)
    return FALSE;
  m->refused_prefix = m->prefix_len;
  m->refused_len = len;
  m->cancelled = TRUE;
  return TRUE;
}

/*
 * BackScan: TRUE when some item occurs in the i-th semi-maximum period of
 * the prefix in every supporting sequence, for some i (see the top of the
 * file for why this is safe for maximal patterns).  Candidates are the
 * items of the first sequence's periods, filtered by each further
 * sequence; in the usual case they die within a few sequences.
 */
static gboolean
backscan_prune (Miner      *m,
                const Proj *proj,
                guint       n_proj)
{
  guint n = m->prefix_len;
  guint lo_i = 0;
  guint32 *first, *lf;

  g_array_set_size (m->first, n);
  g_array_set_size (m->last, n);
  first = (guint32 *) (gpointer) m->first->data;
  lf = (guint32 *) (gpointer) m->last->data;

  for (guint p = 0; p < n_proj; p++)
    {
      guint len;
      const guint32 *seq = seq_items (m, proj[p].seq, &len);
      guint next_lo = n;

      /* Only the periods lo_i… still have candidates: the first instance
       * is needed from P_{lo_i-1} on, the last-in-first appearances from
       * P_{lo_i} on. */
      first_instance_from (m, &proj[p], first, lo_i == 0 ? 0 : lo_i - 1);

      /* Last-in-first appearances: match P_n…P_1 backwards from the end
       * of the first instance, taking each as late as possible. */
      lf[n - 1] = first[n - 1];
      for (gint i = (gint) n - 2; i >= (gint) lo_i; i--)
        {
          gint k = (gint) lf[i + 1] - 1;

          while (seq[k] != m->prefix[i])
            k--;
          lf[i] = k;
        }

      for (guint i = lo_i; i < n; i++)
        {
          guint lo = i == 0 ? 0 : first[i - 1] + 1;
          guint hi = lf[i];
          guint32 st;

          if (p == 0)
            {
              guint32 *cand;

              /* The candidates grow with the periods actually seen, not
               * n × max_len up front: for a prefix thousands of frames
               * deep that product alone would be gigabytes. */
              st = next_stamp (m);
              m->cand_start[i] = i == 0 ? 0 : m->cand_start[i - 1] + m->cand_len[i - 1];
              m->cand_len[i] = 0;
              if (over_limit (m, hi > lo ? hi - lo : 0, m->cand_start[i], len))
                return FALSE;
              if (hi > lo && m->cand->len < m->cand_start[i] + (hi - lo))
                g_array_set_size (m->cand, m->cand_start[i] + (hi - lo));
              cand = (guint32 *) (gpointer) m->cand->data;
              for (guint k = lo; k < hi; k++)
                if (m->stamp[seq[k]] != st)
                  {
                    m->stamp[seq[k]] = st;
                    cand[m->cand_start[i] + m->cand_len[i]++] = seq[k];
                  }
            }
          else if (m->cand_len[i] > 0)
            {
              guint32 *cand = (guint32 *) (gpointer) m->cand->data + m->cand_start[i];
              guint kept = 0;

              if (over_limit (m, hi > lo ? hi - lo : 0, 0, len))
                return FALSE;
              st = next_stamp (m);
              for (guint k = lo; k < hi; k++)
                m->stamp[seq[k]] = st;
              for (guint c = 0; c < m->cand_len[i]; c++)
                if (m->stamp[cand[c]] == st)
                  cand[kept++] = cand[c];
              m->cand_len[i] = kept;
            }

          if (m->cand_len[i] > 0 && next_lo == n)
            next_lo = i;
        }

      if (next_lo == n)
        return FALSE;
      lo_i = next_lo;
    }

  return TRUE;
}

/*
 * The exact backward-extension check: is there an item e and a position i
 * such that P_1…P_{i-1} e P_i…P_n has cost >= λ?  A stack S contains that
 * pattern iff e occurs in the i-th maximum period of P in S: between the
 * end of the leftmost instance of P_1…P_{i-1} and the last-in-last
 * appearance of P_i (P_i…P_n matched backwards from the end of S, each as
 * late as possible).  Greedy leftmost matching of the head and greedy
 * rightmost matching of the tail leave the widest room between them, so
 * the test is exact, not a heuristic.
 */
static gboolean
has_backward_extension (Miner      *m,
                        const Proj *proj,
                        guint       n_proj)
{
  guint n = m->prefix_len;
  g_autofree guint32 *first = g_new (guint32, (gsize) n_proj * n);
  g_autofree guint32 *ll = g_new (guint32, (gsize) n_proj * n);
  gboolean found = FALSE;

  for (guint p = 0; p < n_proj; p++)
    {
      guint len;
      const guint32 *seq = seq_items (m, proj[p].seq, &len);
      guint32 *f = first + (gsize) p * n;
      guint32 *l = ll + (gsize) p * n;
      gint k = (gint) len - 1;

      first_instance (m, &proj[p], f);
      for (gint i = (gint) n - 1; i >= 0; i--)
        {
          while (seq[k] != m->prefix[i])
            k--;
          l[i] = k--;
        }
    }

  for (guint i = 0; i < n && !found; i++)
    {
      for (guint p = 0; p < n_proj && !found; p++)
        {
          guint len;
          const guint32 *seq = seq_items (m, proj[p].seq, &len);
          guint lo = i == 0 ? 0 : first[(gsize) p * n + i - 1] + 1;
          guint hi = ll[(gsize) p * n + i];
          gint64 c = m->seq_cost[proj[p].seq];
          guint32 st;

          if (lo >= hi)
            continue;
          if (over_limit (m, hi - lo, 0, len))
            return TRUE;   /* emit nothing: the search stops */

          st = next_stamp (m);
          for (guint k = lo; k < hi; k++)
            {
              guint32 it = seq[k];

              if (m->stamp[it] == st)
                continue;
              m->stamp[it] = st;
              if (m->icount[it]++ == 0)
                g_array_append_val (m->touched, it);
              m->icost[it] += c;
              if (m->icost[it] >= m->lambda)
                found = TRUE;
            }
        }

      for (guint t = 0; t < m->touched->len; t++)
        {
          guint32 it = g_array_index (m->touched, guint32, t);
          m->icost[it] = 0;
          m->icount[it] = 0;
        }
      g_array_set_size (m->touched, 0);
    }

  return found;
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static int
compare_ext (gconstpointer a,
             gconstpointer b)
{
  return compare_guint32 (&((const Ext *) a)->item, &((const Ext *) b)->item);
}

static void
emit_pattern (Miner      *m,
              const Proj *proj,
              guint       n_proj,
              gint64      cost)
{
  WsPattern p = { 0 };
  guint n_support = 0, k = 0;

  p.n_frames = m->prefix_len;
  p.frames = g_new (WsFrameId, m->prefix_len);
  for (guint i = 0; i < m->prefix_len; i++)
    p.frames[i] = m->item_frame[m->prefix[i]];
  p.cost = cost;

  for (guint i = 0; i < n_proj; i++)
    n_support += m->seq_entry_start[proj[i].seq + 1] - m->seq_entry_start[proj[i].seq];
  p.support = g_new (guint32, MAX (n_support, 1));
  for (guint i = 0; i < n_proj; i++)
    for (guint e = m->seq_entry_start[proj[i].seq]; e < m->seq_entry_start[proj[i].seq + 1]; e++)
      p.support[k++] = m->seq_entries[e];
  qsort (p.support, n_support, sizeof (guint32), compare_guint32);
  p.n_support = n_support;
  fill_support_totals (m->set, &p);

  g_array_append_val (m->set->patterns, p);
  m->stats->n_maximal++;
}

/*
 * One node of the depth-first search over prefixes.  The search keeps its
 * nodes on an explicit stack rather than the C stack: a prefix grows one
 * frame per level, so a 50,000-frame call stack is a 50,000-level search
 * (forced extensions, below), far deeper than any thread's stack allows.
 * A node owns its children's projections until its last child is done,
 * which is what the levels[] links need.
 */
typedef struct {
  const Proj *proj;         /* owned by the parent node (or the caller) */
  guint       n_proj;
  Ext        *ext;          /* the children to visit, by item */
  guint       n_ext;
  Proj       *children;     /* their projections, one after the other */
  guint32    *child_start;  /* n_ext + 1 */
  guint       next;         /* the next child to visit */
  gboolean    forced;       /* the single child is a forced extension */
} Node;

static void
node_clear (Node *node)
{
  g_clear_pointer (&node->ext, g_free);
  g_clear_pointer (&node->children, g_free);
  g_clear_pointer (&node->child_start, g_free);
  node->n_ext = 0;
}

/*
 * Forced extension: if every supporting sequence continues with the same
 * item y right after the first instance of P, only patterns with prefix
 * P◇y can be maximal.  Proof: let Q = P◇γ with γ_1 != y be costly.  In
 * every S containing Q, γ occurs after P's first instance, and cannot
 * start on y's position, so P◇y◇γ ⊑ S too: Cost(P◇y◇γ) >= Cost(Q) >= λ.
 * P◇y keeps P's supporting set (and cost), so descend at once without
 * counting or building the other children.  Deep call chains shared by
 * all the stacks of a node are walked in O(stacks) per frame this way.
 *
 * Returns: whether @node got that single child
 */
static gboolean
force_extension (Miner  *m,
                 Node   *node,
                 gint64  cost)
{
  guint32 y = G_MAXUINT32;

  if (node->n_proj == 0)
    return FALSE;

  for (guint p = 0; p < node->n_proj; p++)
    {
      guint len;
      const guint32 *seq = seq_items (m, node->proj[p].seq, &len);

      if (node->proj[p].pos >= len)
        return FALSE;
      if (y == G_MAXUINT32)
        y = seq[node->proj[p].pos];
      else if (seq[node->proj[p].pos] != y)
        return FALSE;
    }

  node->children = g_new (Proj, node->n_proj);
  for (guint p = 0; p < node->n_proj; p++)
    {
      node->children[p].seq = node->proj[p].seq;
      node->children[p].pos = node->proj[p].pos + 1;
      node->children[p].parent = p;
    }
  node->ext = g_new (Ext, 1);
  node->ext[0].item = y;
  node->ext[0].count = node->n_proj;
  node->ext[0].cost = cost;
  node->n_ext = 1;
  node->child_start = g_new (guint32, 2);
  node->child_start[0] = 0;
  node->child_start[1] = node->n_proj;
  node->forced = TRUE;
  m->stats->n_forced++;
  return TRUE;
}

/*
 * Forward extensions: the cost of each item in the projected database,
 * every sequence counted once per item; the costly ones that survive go
 * to node->ext.
 *
 * On the way, note for each item x the item just before the first x
 * after P, if that is the same item e in every sequence: e then lies in
 * the last semi-maximum period of P◇x (between the end of P's first
 * instance and x) everywhere, which is BackScan's condition, so P◇x is
 * pruned before its projection is even built.  This catches the
 * commonest case, x's caller, at no extra scan.
 *
 * Returns: whether any costly forward extension exists (pruned or not)
 */
static gboolean
count_extensions (Miner *m,
                  Node  *node)
{
  gboolean has_forward = FALSE;

  for (guint p = 0; p < node->n_proj; p++)
    {
      guint len;
      const guint32 *seq = seq_items (m, node->proj[p].seq, &len);
      gint64 c = m->seq_cost[node->proj[p].seq];
      guint32 st = next_stamp (m);
      guint pos = node->proj[p].pos;

      for (guint k = pos; k < len; k++)
        {
          guint32 it = seq[k];
          guint32 pred;

          if (m->stamp[it] == st)
            continue;
          m->stamp[it] = st;
          pred = k > pos ? seq[k - 1] : PRED_MIXED;
          if (m->icount[it]++ == 0)
            {
              g_array_append_val (m->touched, it);
              m->ipred[it] = pred;
            }
          else if (m->ipred[it] != pred)
            m->ipred[it] = PRED_MIXED;
          m->icost[it] += c;
        }
    }

  node->ext = g_new (Ext, m->touched->len + 1);
  for (guint t = 0; t < m->touched->len; t++)
    {
      guint32 it = g_array_index (m->touched, guint32, t);

      if (m->icost[it] >= m->lambda)
        {
          has_forward = TRUE;
          if (m->ipred[it] < PRED_MIXED)
            {
              /* BackScan-pruned child, counted as a visited node. */
              m->stats->n_nodes++;
              m->stats->n_backscan_pruned++;
            }
          else
            {
              node->ext[node->n_ext].item = it;
              node->ext[node->n_ext].count = m->icount[it];
              node->ext[node->n_ext].cost = m->icost[it];
              node->n_ext++;
            }
        }
      m->icost[it] = 0;
      m->icount[it] = 0;
    }
  g_array_set_size (m->touched, 0);
  return has_forward;
}

/* Every surviving child's projection, in one pass over the projected
 * database. */
static void
project_children (Miner *m,
                  Node  *node)
{
  g_autofree guint32 *fill = NULL;
  guint total = 0;

  qsort (node->ext, node->n_ext, sizeof (Ext), compare_ext);
  node->child_start = g_new (guint32, node->n_ext + 1);
  for (guint i = 0; i < node->n_ext; i++)
    {
      node->child_start[i] = total;
      total += node->ext[i].count;
      m->slot[node->ext[i].item] = i + 1;
    }
  node->child_start[node->n_ext] = total;
  node->children = g_new (Proj, MAX (total, 1));
  fill = g_memdup2 (node->child_start, sizeof (guint32) * (node->n_ext + 1));

  for (guint p = 0; p < node->n_proj; p++)
    {
      guint len;
      const guint32 *seq = seq_items (m, node->proj[p].seq, &len);
      guint32 st = next_stamp (m);

      for (guint k = node->proj[p].pos; k < len; k++)
        {
          guint32 it = seq[k];
          guint32 sl = m->slot[it];
          Proj *child;

          if (sl == 0 || m->stamp[it] == st)
            continue;
          m->stamp[it] = st;
          child = &node->children[fill[sl - 1]++];
          child->seq = node->proj[p].seq;
          child->pos = k + 1;
          child->parent = p;
        }
    }

  for (guint i = 0; i < node->n_ext; i++)
    m->slot[node->ext[i].item] = 0;
}

/*
 * Visits the node of the current prefix: prunes it, emits it when it is
 * maximal, or leaves the children to visit in node->ext.  @forced: the
 * node is a forced child, whose semi-maximum periods are those of its
 * parent, which passed BackScan.
 */
static void
expand_node (Miner   *m,
             Node    *node,
             gint64   cost,
             gboolean forced)
{
  m->stats->n_nodes++;
  if ((m->stats->n_nodes & 1023) == 0 && m->cancellable != NULL &&
      g_cancellable_is_cancelled (m->cancellable))
    m->cancelled = TRUE;
  if (m->cancelled)
    return;

  m->levels[m->prefix_len] = node->proj;

  if (m->prefix_len > 0 && !forced && backscan_prune (m, node->proj, node->n_proj))
    {
      m->stats->n_backscan_pruned++;
      return;
    }
  if (m->cancelled)
    return;   /* the periods were too long to check (MAX_CANDIDATES) */

  if (force_extension (m, node, cost))
    return;

  if (!count_extensions (m, node))
    {
      /* No costly forward extension: maximal unless a backward one is. */
      node->n_ext = 0;
      if (m->prefix_len == 0)
        return;
      m->stats->n_candidates++;
      if (!has_backward_extension (m, node->proj, node->n_proj))
        emit_pattern (m, node->proj, node->n_proj, cost);
      return;
    }

  /* A costly forward extension exists: the prefix is not maximal. */
  project_children (m, node);
  if (m->progress_depth == G_MAXUINT)
    m->progress_depth = m->prefix_len;
}

/* After child node->next - 1 of @node is done, at the first branching
 * level, at most ten times a second. */
static void
report_progress (Miner      *m,
                 const Node *node)
{
  gint64 now;

  if (node->forced || m->progress == NULL || m->prefix_len != m->progress_depth)
    return;

  now = g_get_monotonic_time ();
  if (now - m->last_progress > 100 * G_TIME_SPAN_MILLISECOND || node->next == node->n_ext)
    {
      m->last_progress = now;
      m->progress ((double) node->next / node->n_ext, _("Mining costly call-stack patterns"),
                   m->progress_data);
    }
}

/* The depth-first search from the empty prefix.  A prefix is never longer
 * than the longest sequence, so max_len + 1 nodes are enough. */
static void
mine (Miner      *m,
      const Proj *root,
      guint       n_root,
      gint64      root_cost)
{
  g_autofree Node *nodes = g_new0 (Node, (gsize) m->max_len + 2);
  guint depth = 1;

  nodes[0].proj = root;
  nodes[0].n_proj = n_root;
  expand_node (m, &nodes[0], root_cost, FALSE);

  while (depth > 0)
    {
      Node *top = &nodes[depth - 1];

      if (top->next < top->n_ext && !m->cancelled)
        {
          guint i = top->next++;
          Node *child = &nodes[depth++];

          g_assert (depth <= m->max_len + 2);
          memset (child, 0, sizeof *child);
          child->proj = top->children + top->child_start[i];
          child->n_proj = top->ext[i].count;
          m->prefix[m->prefix_len++] = top->ext[i].item;
          expand_node (m, child, top->ext[i].cost, top->forced);
          continue;
        }

      node_clear (top);
      if (--depth > 0)
        {
          m->prefix_len--;
          report_progress (m, &nodes[depth - 1]);
        }
    }
}

/* Items: the frames whose own cost (each stack counted once) reaches λ.
 * Returns the deepest stack's depth. */
static guint
choose_items (Miner     *m,
              WsStackDb *db,
              guint32   *item_of_frame)
{
  guint n_entries = ws_stack_db_get_n_entries (db);
  guint n_frames = ws_stack_table_get_n_frames (ws_stack_db_get_stack_table (db));
  g_autofree gint64 *fcost = g_new0 (gint64, MAX (n_frames, 1));
  g_autofree guint32 *fstamp = g_new0 (guint32, MAX (n_frames, 1));
  guint max_depth = 0;

  for (guint e = 0; e < n_entries; e++)
    {
      guint n;
      const WsFrameId *frames = ws_stack_db_get_frames (db, e, &n);
      gint64 c = ws_stack_db_get_entry (db, e)->cost;

      max_depth = MAX (max_depth, n);
      for (guint k = 0; k < n; k++)
        if (fstamp[frames[k]] != e + 1)
          {
            fstamp[frames[k]] = e + 1;
            fcost[frames[k]] += c;
          }
    }

  m->item_frame = g_new (WsFrameId, MAX (n_frames, 1));
  for (guint f = 0; f < n_frames; f++)
    if (fstamp[f] != 0 && fcost[f] >= m->lambda)
      {
        m->item_frame[m->n_items] = f;
        item_of_frame[f] = ++m->n_items;
      }
  return max_depth;
}

/* The database entries behind each sequence, by counting sort. */
static void
index_entries (Miner         *m,
               const guint32 *seq_of_entry,
               guint          n_entries)
{
  guint n_seqs = m->n_seqs;
  g_autofree guint32 *fill = NULL;

  m->seq_entry_start = g_new0 (guint32, n_seqs + 2);
  for (guint e = 0; e < n_entries; e++)
    if (seq_of_entry[e] != 0)
      m->seq_entry_start[seq_of_entry[e] + 1]++;
  for (guint s = 1; s <= n_seqs + 1; s++)
    m->seq_entry_start[s] += m->seq_entry_start[s - 1];
  m->seq_entries = g_new (guint32, MAX (m->seq_entry_start[n_seqs + 1], 1));
  fill = g_memdup2 (m->seq_entry_start, sizeof (guint32) * (n_seqs + 1));
  for (guint e = 0; e < n_entries; e++)
    if (seq_of_entry[e] != 0)
      m->seq_entries[fill[seq_of_entry[e]]++] = e;
  /* Shift so that sequence s owns [start[s], start[s+1]). */
  memmove (m->seq_entry_start, m->seq_entry_start + 1, sizeof (guint32) * (n_seqs + 1));
}

/*
 * Builds the sequences: frames of cost < λ dropped, stacks that become
 * identical merged (interning the reduced sequences in a scratch table
 * does the merging), and the database entries behind each sequence kept
 * for the supports.
 */
static gboolean
prepare (Miner     *m,
         WsStackDb *db)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  guint n_entries = ws_stack_db_get_n_entries (db);
  guint n_frames = ws_stack_table_get_n_frames (table);
  g_autofree guint32 *item_of_frame = g_new0 (guint32, MAX (n_frames, 1));
  g_autofree guint32 *seq_of_entry = g_new (guint32, MAX (n_entries, 1));
  g_autofree WsFrameId *buf = NULL;
  g_autoptr(WsStackTable) scratch = ws_stack_table_new ();
  g_autoptr(GArray) seq_cost = g_array_new (FALSE, TRUE, sizeof (gint64));
  guint max_depth, n_seqs;
  gsize total_items = 0;

  max_depth = choose_items (m, db, item_of_frame);
  buf = g_new (WsFrameId, MAX (max_depth, 1));
  for (guint e = 0; e < n_entries; e++)
    {
      guint n, r = 0;
      const WsFrameId *frames = ws_stack_db_get_frames (db, e, &n);
      WsStackId id;

      for (guint k = 0; k < n; k++)
        if (item_of_frame[frames[k]] != 0)
          buf[r++] = item_of_frame[frames[k]] - 1;

      id = ws_stack_table_intern_stack (scratch, buf, r);
      seq_of_entry[e] = id;   /* 0: nothing left, dropped */
      if (id == WS_STACK_EMPTY)
        continue;
      if (id >= seq_cost->len)
        g_array_set_size (seq_cost, id + 1);
      g_array_index (seq_cost, gint64, id) += ws_stack_db_get_entry (db, e)->cost;
    }

  /* Scratch stack ids 1… are the sequences 0…. */
  n_seqs = ws_stack_table_get_n_stacks (scratch) - 1;
  m->n_seqs = n_seqs;
  m->seq_start = g_new (guint32, n_seqs + 1);
  m->seq_cost = g_new (gint64, MAX (n_seqs, 1));
  for (guint s = 0; s < n_seqs; s++)
    {
      guint n;

      ws_stack_table_get_stack (scratch, s + 1, &n);
      m->seq_start[s] = total_items;
      total_items += n;
      m->max_len = MAX (m->max_len, n);
      m->seq_cost[s] = g_array_index (seq_cost, gint64, s + 1);
    }
  m->seq_start[n_seqs] = total_items;
  if (total_items > G_MAXUINT32)
    return FALSE;

  m->items = g_new (guint32, MAX (total_items, 1));
  for (guint s = 0; s < n_seqs; s++)
    {
      guint n;
      const WsFrameId *ids = ws_stack_table_get_stack (scratch, s + 1, &n);

      memcpy (m->items + m->seq_start[s], ids, n * sizeof (guint32));
    }

  index_entries (m, seq_of_entry, n_entries);
  return TRUE;
}

static void
miner_clear (Miner *m)
{
  g_free (m->items);
  g_free (m->seq_start);
  g_free (m->seq_cost);
  g_free (m->seq_entry_start);
  g_free (m->seq_entries);
  g_free (m->item_frame);
  g_free (m->stamp);
  g_free (m->icost);
  g_free (m->icount);
  g_free (m->slot);
  g_free (m->ipred);
  g_clear_pointer (&m->touched, g_array_unref);
  g_free (m->prefix);
  g_free (m->levels);
  g_clear_pointer (&m->first, g_array_unref);
  g_clear_pointer (&m->last, g_array_unref);
  g_clear_pointer (&m->cand, g_array_unref);
  g_free (m->cand_start);
  g_free (m->cand_len);
}

/**
 * ws_miner_mine:
 * @db: the area of interest: waiting stacks or running stacks (mine them
 *   separately, as StackMine §V does)
 * @lambda: the cost threshold λ (ns), > 0; see
 *   ws_miner_lambda_from_guideline()
 * @cancellable: (nullable): polled every thousand search nodes
 * @progress: (nullable): called from this thread
 *
 * Mines every call-stack pattern P with Cost(P) >= λ that has no
 * super-pattern of cost >= λ.  Safe to run in a worker thread; neither the
 * database nor its stack table may be written meanwhile (a table shared
 * with traces still being imported is written: give the database a table
 * of its own with ws_stack_db_new (NULL), stacks are then remapped).
 *
 * Returns: (transfer full): the maximal costly patterns by decreasing
 *   cost, or %NULL with %WS_ERROR_CANCELLED
 */
WsPatternSet *
ws_miner_mine (WsStackDb       *db,
               gint64           lambda,
               GCancellable    *cancellable,
               WsProgressFunc   progress,
               gpointer         progress_data,
               GError         **error)
{
  g_autoptr(WsPatternSet) set = NULL;
  g_autofree Proj *root = NULL;
  gint64 root_cost = 0;
  Miner m = { 0 };

  g_return_val_if_fail (WS_IS_STACK_DB (db), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (lambda <= 0)
    {
      /* λ = 0 makes every subsequence of every stack "costly". */
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   /* %lld, not G_GINT64_FORMAT: xgettext cannot see through
                    * the GLib macro and the catalogue would lose the directive. */
                   _("The cost threshold λ must be positive (got %lld ns)"),
                   (long long) lambda);
      return NULL;
    }

  set = ws_pattern_set_new (db, lambda);
  m.set = set;
  m.lambda = lambda;
  m.stats = &set->stats;
  m.cancellable = cancellable;
  m.progress = progress;
  m.progress_data = progress_data;
  m.progress_depth = G_MAXUINT;

  if (!prepare (&m, db))
    {
      miner_clear (&m);
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("Too many frames to mine at once (more than 4 billion)"));
      return NULL;
    }

  set->stats.n_sequences = m.n_seqs;
  set->stats.n_items = m.n_items;

  m.stamp = g_new0 (guint32, MAX (m.n_items, 1));
  m.icost = g_new0 (gint64, MAX (m.n_items, 1));
  m.icount = g_new0 (guint32, MAX (m.n_items, 1));
  m.slot = g_new0 (guint32, MAX (m.n_items, 1));
  m.ipred = g_new0 (guint32, MAX (m.n_items, 1));
  m.touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  m.prefix = g_new (guint32, m.max_len + 1);
  m.levels = g_new0 (const Proj *, m.max_len + 2);
  m.first = g_array_new (FALSE, FALSE, sizeof (guint32));
  m.last = g_array_new (FALSE, FALSE, sizeof (guint32));
  m.cand = g_array_new (FALSE, FALSE, sizeof (guint32));
  m.cand_start = g_new0 (guint32, m.max_len + 1);
  m.cand_len = g_new0 (guint32, m.max_len + 1);

  root = g_new (Proj, MAX (m.n_seqs, 1));
  for (guint s = 0; s < m.n_seqs; s++)
    {
      root_cost += m.seq_cost[s];
      root[s].seq = s;
      root[s].pos = 0;
      root[s].parent = 0;
    }

  mine (&m, root, m.n_seqs, root_cost);
  miner_clear (&m);

  if (m.refused_len > 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_TOO_LONG,
                   _("A call stack of %u frames repeats a long run of frames: checking the %u-frame "
                     "patterns in it exactly needs more than %u million candidates or %u million steps. "
                     "Mine fewer stacks (a scope, or must / must-not filters) or raise λ"),
                   m.refused_len, m.refused_prefix, MAX_CANDIDATES / 1000000,
                   (guint) (MAX_PERIOD_STEPS / 1000000));
      return NULL;
    }
  if (m.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_CANCELLED, _("Mining was cancelled"));
      return NULL;
    }

  ws_pattern_set_sort (set);
  return g_steal_pointer (&set);
}
