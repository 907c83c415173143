/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The call-stack similarity model of StackMine §VI.
 *
 * Alignment (§VI.A): the optimal edit script between two patterns with
 * match 0, insertion/deletion 1 and substitution Sub(f1, f2) =
 * 1 - 2·#common words / (#words f1 + #words f2), by dynamic programming.
 *
 * Similarity (§VI.B): Sim(A) = ΣW(M) / (ΣW(M) + ΣW(ID) + ΣW(S)) over the
 * alignment's segments (maximal runs of one operation), with W the sum of
 * function weights (for S, weighted by Sub) and the function weight
 * (§VI.C)
 *
 *   ω(X_j) = Uni(X_j) · (FBi(X_{j-1}, X_j) + BBi(X_j, X_{j+1})) / 2
 *
 * where X_{j-1}, X_{j+1} are the neighbours of X_j *inside its segment*
 * (φ at a segment's ends, FBi(φ, f) = BBi(f, φ) = 1), and
 *
 *   Uni(f)       = 1 - #callstacks including f / #callstacks
 *   FBi(f1, f2)  = 1 - #(f1 calls f2) / #(f1 with a callee)
 *   BBi(f1, f2)  = 1 - #(f2 called by f1) / #(f2 with a caller)
 *
 * counted over every callstack ever imported (the history store).
 *
 * Two readings of the paper to note:
 *
 *   - The paper prints FBi's denominator as "#occurrence of f2 with a
 *     callee".  Read literally it is unbounded (a leaf f2 has no callee:
 *     0 in the denominator while f1→f2 occurs) and not the mirror of BBi,
 *     whose denominator is the *conditioning* function's count.  FBi is
 *     "how unlikely f2 is, given its caller f1", so the denominator is f1's
 *     occurrences with a callee; that is what is computed here.
 *   - "A segment of k consecutive insertion/deletion operations": a run
 *     that mixes functions of the left pattern (deletions) and of the right
 *     one (insertions) would make a left function the "caller" of a right
 *     one in ω.  Deletion runs and insertion runs are therefore separate
 *     segments, so that X_{j-1} → X_j is always a caller → callee pair of
 *     one pattern.
 *
 * Words (for Sub): Sub compares *function names*.  The paper's Windows
 * names are "module!function", but counting the module as words made two
 * unrelated functions of one module (postgres!ProcSleep and
 * postgres!heap_update) half-similar, so the module is only a tie-breaker:
 * Sub(f1, f2) = Sub of the function names, plus WS_SIMILARITY_MODULE_COST
 * (capped at 1) when the modules differ — the same function name in two
 * DSOs is close but not identical.  A frame with no symbol ("[unknown]")
 * has nothing but its module to go by, so its words are "unknown" and the
 * module's.  The module is the DSO's base name up to its first dot:
 * "libc.so.6" → "libc", "[kernel.kallsyms]" → "kernel".  A name is split at
 * every character that is not a letter or digit (so "::", "!", "_", "." and
 * "@" all separate words) and at CamelCase boundaries (a capital after a
 * lower-case letter or digit, and the last capital of an acronym before a
 * lower-case letter: "HTTPServer" → "HTTP", "Server"); words compare
 * case-insensitively, as multisets.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-similarity.h"

#define EPS 1e-12

struct _WsSimilarity
{
  GObject parent_instance;

  WsStackTable *table;

  GMutex        lock;          /* guards the word cache */
  GHashTable   *word_ids;      /* word -> id + 1 */
  GPtrArray    *frame_words;   /* frame id -> guint32[1 + n]: n, sorted word ids */

  guint64       n_callstacks;
  GArray       *functions;     /* WsFunctionCounts by frame id */
  GHashTable   *bigrams;       /* guint64 (caller << 32 | callee) -> guint64 count */
};

G_DEFINE_FINAL_TYPE (WsSimilarity, ws_similarity, G_TYPE_OBJECT)

static void
ws_similarity_finalize (GObject *object)
{
  WsSimilarity *self = WS_SIMILARITY (object);

  g_clear_object (&self->table);
  g_mutex_clear (&self->lock);
  g_hash_table_unref (self->word_ids);
  g_ptr_array_unref (self->frame_words);
  g_array_unref (self->functions);
  g_hash_table_unref (self->bigrams);

  G_OBJECT_CLASS (ws_similarity_parent_class)->finalize (object);
}

static void
ws_similarity_class_init (WsSimilarityClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_similarity_finalize;
}

static void
ws_similarity_init (WsSimilarity *self)
{
  g_mutex_init (&self->lock);
  self->word_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->frame_words = g_ptr_array_new_with_free_func (g_free);
  self->functions = g_array_new (FALSE, TRUE, sizeof (WsFunctionCounts));
  self->bigrams = g_hash_table_new_full (ws_uint64_hash, g_int64_equal, g_free, g_free);
}

/* ------------------------------------------------------------------ */
/* Words and Sub()                                                      */

static inline gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c);
}

/**
 * ws_similarity_split_words:
 * @name: a function name, possibly "module!function" or "ns::f"
 *
 * Returns: (transfer full): the name's words, lower-case, in order
 */
char **
ws_similarity_split_words (const char *name)
{
  GPtrArray *words = g_ptr_array_new ();
  gsize len;

  g_return_val_if_fail (name != NULL, NULL);

  len = strlen (name);
  for (gsize i = 0; i < len;)
    {
      gsize start;

      while (i < len && !is_word_char (name[i]))
        i++;
      if (i >= len)
        break;

      start = i++;
      while (i < len && is_word_char (name[i]))
        {
          char prev = name[i - 1], c = name[i];
          gboolean boundary = FALSE;

          if (g_ascii_isupper (c))
            {
              /* "lockTable", "x64Foo": a capital after lower case or digit. */
              if (g_ascii_islower (prev) || g_ascii_isdigit (prev))
                boundary = TRUE;
              /* "HTTPServer": the capital that starts "Server". */
              else if (g_ascii_isupper (prev) && i + 1 < len && g_ascii_islower (name[i + 1]))
                boundary = TRUE;
            }
          if (boundary)
            {
              g_ptr_array_add (words, g_ascii_strdown (name + start, i - start));
              start = i;
            }
          i++;
        }
      g_ptr_array_add (words, g_ascii_strdown (name + start, i - start));
    }

  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);
}

static int
compare_str (gconstpointer a,
             gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/**
 * ws_similarity_sub_names:
 *
 * Returns: Sub(f1, f2) = 1 - 2·#common words / (#words in f1 + #words in
 *   f2), words counted as multisets; 0 for identical word lists, 1 when
 *   no word is shared (or neither name has a word)
 */
double
ws_similarity_sub_names (const char *name1,
                         const char *name2)
{
  g_auto(GStrv) a = NULL;
  g_auto(GStrv) b = NULL;
  guint na, nb, i = 0, j = 0, common = 0;

  g_return_val_if_fail (name1 != NULL && name2 != NULL, 1.0);

  a = ws_similarity_split_words (name1);
  b = ws_similarity_split_words (name2);
  na = g_strv_length (a);
  nb = g_strv_length (b);
  if (na + nb == 0)
    return 1.0;

  qsort (a, na, sizeof (char *), compare_str);
  qsort (b, nb, sizeof (char *), compare_str);
  while (i < na && j < nb)
    {
      int c = strcmp (a[i], b[j]);

      if (c == 0)
        common++, i++, j++;
      else if (c < 0)
        i++;
      else
        j++;
    }
  return 1.0 - 2.0 * common / (double) (na + nb);
}

/* The base name of a frame's module, cut at its first dot (see above). */
static char *
module_base (const WsFrame *frame)
{
  const char *module = frame->module ? frame->module : "";
  const char *slash;
  gsize len;

  if ((slash = strrchr (module, '/')) != NULL)
    module = slash + 1;
  while (*module == '[' || *module == '(')
    module++;
  for (len = 0; module[len] != '\0' && module[len] != '.' &&
                module[len] != ']' && module[len] != ')'; len++)
    ;
  return g_strndup (module, len);
}

/**
 * ws_similarity_frame_name:
 *
 * Returns: (transfer full): "module!function", the name Sub() compares:
 *   the module is the DSO's base name, brackets and parentheses dropped,
 *   cut at its first dot
 */
char *
ws_similarity_frame_name (const WsFrame *frame)
{
  g_autofree char *module = NULL;

  g_return_val_if_fail (frame != NULL, NULL);

  module = module_base (frame);
  return g_strdup_printf ("%s!%s", module, frame->function ? frame->function : "");
}

/* What Sub() splits into words: the function name, or for a frame with no
 * symbol "unknown" and its module (all there is to tell two apart). */
static char *
sub_name (const WsFrame *frame)
{
  const char *function = frame->function ? frame->function : "";

  if (*function == '\0' || g_str_equal (function, "[unknown]"))
    {
      g_autofree char *module = module_base (frame);
      return g_strdup_printf ("unknown %s", module);
    }
  return g_strdup (function);
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* Interns @word (under the lock), returning its id. */
static guint32
word_id (WsSimilarity *self,
         const char   *word)
{
  gpointer id = g_hash_table_lookup (self->word_ids, word);

  if (id == NULL)
    {
      id = GUINT_TO_POINTER (g_hash_table_size (self->word_ids) + 1);
      g_hash_table_insert (self->word_ids, g_strdup (word), id);
    }
  return GPOINTER_TO_UINT (id) - 1;
}

/* Sorted word ids of a frame's name, [0] = their number n, [n + 1] = the
 * id of its module (interned as "!module", which no word can be).
 * Cached. */
static const guint32 *
frame_words (WsSimilarity *self,
             WsFrameId     f)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  g_autofree char *name = NULL;
  g_autofree char *module = NULL;
  g_autofree char *module_key = NULL;
  g_auto(GStrv) words = NULL;
  guint32 *ids;
  guint n;

  if (f < self->frame_words->len && g_ptr_array_index (self->frame_words, f) != NULL)
    return g_ptr_array_index (self->frame_words, f);

  name = sub_name (ws_stack_table_get_frame (self->table, f));
  words = ws_similarity_split_words (name);
  n = g_strv_length (words);
  ids = g_new (guint32, n + 2);
  ids[0] = n;
  for (guint i = 0; i < n; i++)
    ids[i + 1] = word_id (self, words[i]);
  qsort (ids + 1, n, sizeof (guint32), compare_guint32);
  module = module_base (ws_stack_table_get_frame (self->table, f));
  module_key = g_strconcat ("!", module, NULL);
  ids[n + 1] = word_id (self, module_key);

  if (f >= self->frame_words->len)
    g_ptr_array_set_size (self->frame_words, f + 1);
  g_ptr_array_index (self->frame_words, f) = ids;
  return ids;
}

/**
 * ws_similarity_get_words:
 * @n_words: (out): how many
 *
 * For fast Sub() tables: two frames can only have Sub < 1 if they share a
 * word id.
 *
 * Returns: (transfer none) (array length=n_words): the ids of the words of
 *   the frame's function name (see above), sorted
 */
const guint32 *
ws_similarity_get_words (WsSimilarity *self,
                         WsFrameId     f,
                         guint        *n_words)
{
  const guint32 *ids;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), NULL);
  g_return_val_if_fail (n_words != NULL, NULL);

  ids = frame_words (self, f);
  *n_words = ids[0];
  return ids + 1;
}

/**
 * ws_similarity_sub:
 *
 * Returns: Sub(f1, f2) on the frames' function names, plus
 *   %WS_SIMILARITY_MODULE_COST when their modules differ (at most 1); 0
 *   when @f1 == @f2
 */
double
ws_similarity_sub (WsSimilarity *self,
                   WsFrameId     f1,
                   WsFrameId     f2)
{
  const guint32 *a, *b;
  guint i = 1, j = 1, common = 0;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 1.0);

  if (f1 == f2)
    return 0.0;

  a = frame_words (self, f1);
  b = frame_words (self, f2);
  if (a[0] + b[0] == 0)
    return 1.0;
  while (i <= a[0] && j <= b[0])
    {
      if (a[i] == b[j])
        common++, i++, j++;
      else if (a[i] < b[j])
        i++;
      else
        j++;
    }
  return MIN (1.0, 1.0 - 2.0 * common / (double) (a[0] + b[0]) +
                   (a[a[0] + 1] == b[b[0] + 1] ? 0.0 : WS_SIMILARITY_MODULE_COST));
}

/* ------------------------------------------------------------------ */
/* Weights                                                               */

/**
 * ws_similarity_new:
 * @table: the table the compared frames are interned in
 *
 * A model with no history: every Uni, FBi and BBi is 1 until counts are
 * set (from the history store, see ws_history_store_fill_similarity(), or
 * with ws_similarity_count_stack()).
 *
 * Returns: (transfer full): a new similarity model
 */
WsSimilarity *
ws_similarity_new (WsStackTable *table)
{
  WsSimilarity *self;

  g_return_val_if_fail (WS_IS_STACK_TABLE (table), NULL);

  self = g_object_new (WS_TYPE_SIMILARITY, NULL);
  self->table = g_object_ref (table);
  return self;
}

/**
 * ws_similarity_get_stack_table:
 *
 * Returns: (transfer none): the frames' table
 */
WsStackTable *
ws_similarity_get_stack_table (WsSimilarity *self)
{
  g_return_val_if_fail (WS_IS_SIMILARITY (self), NULL);
  return self->table;
}

void
ws_similarity_set_n_callstacks (WsSimilarity *self,
                                guint64       n_callstacks)
{
  g_return_if_fail (WS_IS_SIMILARITY (self));
  self->n_callstacks = n_callstacks;
}

guint64
ws_similarity_get_n_callstacks (WsSimilarity *self)
{
  g_return_val_if_fail (WS_IS_SIMILARITY (self), 0);
  return self->n_callstacks;
}

static WsFunctionCounts *
function_counts (WsSimilarity *self,
                 WsFrameId     f,
                 gboolean      create)
{
  if (f >= self->functions->len)
    {
      if (!create)
        return NULL;
      g_array_set_size (self->functions, MAX (f + 1, self->functions->len * 2));
    }
  return &g_array_index (self->functions, WsFunctionCounts, f);
}

void
ws_similarity_set_function (WsSimilarity           *self,
                            WsFrameId               frame,
                            const WsFunctionCounts *counts)
{
  g_return_if_fail (WS_IS_SIMILARITY (self));
  g_return_if_fail (counts != NULL);

  *function_counts (self, frame, TRUE) = *counts;
}

void
ws_similarity_set_bigram (WsSimilarity *self,
                          WsFrameId     caller,
                          WsFrameId     callee,
                          guint64       count)
{
  guint64 key = ws_hash_pack_pair (caller, callee);

  g_return_if_fail (WS_IS_SIMILARITY (self));

  g_hash_table_insert (self->bigrams, g_memdup2 (&key, sizeof key), g_memdup2 (&count, sizeof count));
}

static guint64
get_bigram (WsSimilarity *self,
            WsFrameId     caller,
            WsFrameId     callee)
{
  guint64 key = ws_hash_pack_pair (caller, callee);
  guint64 *count = g_hash_table_lookup (self->bigrams, &key);

  return count ? *count : 0;
}

/**
 * ws_similarity_count_stack:
 * @frames: (array length=n_frames): a callstack, caller first
 * @weight: how many callstacks it stands for
 *
 * Adds a callstack to the model's own counts (the history store keeps the
 * same counts on disk; this is for models built in memory).
 */
void
ws_similarity_count_stack (WsSimilarity    *self,
                           const WsFrameId *frames,
                           guint            n_frames,
                           guint64          weight)
{
  g_return_if_fail (WS_IS_SIMILARITY (self));
  g_return_if_fail (frames != NULL || n_frames == 0);

  self->n_callstacks += weight;
  for (guint j = 0; j < n_frames; j++)
    {
      WsFunctionCounts *c = function_counts (self, frames[j], TRUE);
      gboolean seen = FALSE;

      for (guint k = 0; k < j && !seen; k++)
        seen = frames[k] == frames[j];
      if (!seen)
        c->n_stacks += weight;
      if (j + 1 < n_frames)
        {
          c->n_with_callee += weight;
          ws_similarity_set_bigram (self, frames[j], frames[j + 1],
                                    get_bigram (self, frames[j], frames[j + 1]) + weight);
        }
      if (j > 0)
        c->n_with_caller += weight;
    }
}

/**
 * ws_similarity_uni:
 *
 * Returns: Uni(f) = 1 - #callstacks including f / #callstacks; 1 with no
 *   history
 */
double
ws_similarity_uni (WsSimilarity *self,
                   WsFrameId     f)
{
  WsFunctionCounts *c;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 1.0);

  if (f == WS_FRAME_NONE || self->n_callstacks == 0 ||
      (c = function_counts (self, f, FALSE)) == NULL)
    return 1.0;
  return 1.0 - (double) MIN (c->n_stacks, self->n_callstacks) / (double) self->n_callstacks;
}

/**
 * ws_similarity_fbi:
 * @f1: the caller, or %WS_FRAME_NONE (φ)
 *
 * Returns: FBi(f1, f2) = 1 - #(f1 calls f2) / #(f1 with a callee);
 *   FBi(φ, f) = 1, and 1 when f1 was never seen with a callee
 */
double
ws_similarity_fbi (WsSimilarity *self,
                   WsFrameId     f1,
                   WsFrameId     f2)
{
  WsFunctionCounts *c;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 1.0);

  if (f1 == WS_FRAME_NONE || f2 == WS_FRAME_NONE ||
      (c = function_counts (self, f1, FALSE)) == NULL || c->n_with_callee == 0)
    return 1.0;
  return 1.0 - (double) MIN (get_bigram (self, f1, f2), c->n_with_callee) / (double) c->n_with_callee;
}

/**
 * ws_similarity_bbi:
 * @f2: the callee, or %WS_FRAME_NONE (φ)
 *
 * Returns: BBi(f1, f2) = 1 - #(f2 called by f1) / #(f2 with a caller);
 *   BBi(f, φ) = 1, and 1 when f2 was never seen with a caller
 */
double
ws_similarity_bbi (WsSimilarity *self,
                   WsFrameId     f1,
                   WsFrameId     f2)
{
  WsFunctionCounts *c;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 1.0);

  if (f1 == WS_FRAME_NONE || f2 == WS_FRAME_NONE ||
      (c = function_counts (self, f2, FALSE)) == NULL || c->n_with_caller == 0)
    return 1.0;
  return 1.0 - (double) MIN (get_bigram (self, f1, f2), c->n_with_caller) / (double) c->n_with_caller;
}

/**
 * ws_similarity_weight:
 * @prev: the function before @f in its segment, or %WS_FRAME_NONE
 * @next: the function after @f in its segment, or %WS_FRAME_NONE
 *
 * Returns: ω(f) = Uni(f) · (FBi(prev, f) + BBi(f, next)) / 2
 */
double
ws_similarity_weight (WsSimilarity *self,
                      WsFrameId     prev,
                      WsFrameId     f,
                      WsFrameId     next)
{
  g_return_val_if_fail (WS_IS_SIMILARITY (self), 0.0);

  return ws_similarity_uni (self, f) *
         (ws_similarity_fbi (self, prev, f) + ws_similarity_bbi (self, f, next)) / 2.0;
}

/* ------------------------------------------------------------------ */
/* Alignment and Sim(A)                                                 */

/**
 * ws_similarity_view:
 * @frames: (array length=n_frames): a pattern, caller first
 * @view: (out caller-allocates): room for MIN (@n_frames,
 *   %WS_SIMILARITY_MAX_DEPTH) frames
 *
 * The frames an alignment compares: all of them up to
 * %WS_SIMILARITY_MAX_DEPTH, else the outermost and the innermost half of
 * that many, which keeps the thread's entry and the wait itself (a
 * deeper pattern is a recursion, and the cut middle is its repetition).
 *
 * Returns: the view's length
 */
guint
ws_similarity_view (const WsFrameId *frames,
                    guint            n_frames,
                    WsFrameId       *view)
{
  guint half = WS_SIMILARITY_MAX_DEPTH / 2;

  g_return_val_if_fail (frames != NULL || n_frames == 0, 0);
  g_return_val_if_fail (view != NULL || n_frames == 0, 0);

  if (n_frames <= WS_SIMILARITY_MAX_DEPTH)
    {
      if (n_frames > 0)
        memcpy (view, frames, sizeof (WsFrameId) * n_frames);
      return n_frames;
    }
  memcpy (view, frames, sizeof (WsFrameId) * half);
  memcpy (view + half, frames + n_frames - half, sizeof (WsFrameId) * half);
  return 2 * half;
}

/**
 * ws_similarity_view_index:
 * @n_frames: the pattern's length
 * @k: a position in its view
 *
 * Returns: the pattern position that view position @k shows
 */
guint
ws_similarity_view_index (guint n_frames,
                          guint k)
{
  guint half = WS_SIMILARITY_MAX_DEPTH / 2;

  if (n_frames <= WS_SIMILARITY_MAX_DEPTH || k < half)
    return k;
  return k + (n_frames - 2 * half);
}

static GArray *align_views (WsSimilarity *self, const WsFrameId *left, guint n_left,
                            const WsFrameId *right, guint n_right, double *cost);

/**
 * ws_similarity_align:
 * @cost: (out) (optional): the alignment's total cost
 *
 * The optimal alignment of §VI.A.  Among equally cheap alignments the
 * traceback (from the ends) prefers a diagonal step (match or
 * substitution), then a deletion, then an insertion, so results are
 * reproducible.  Patterns deeper than %WS_SIMILARITY_MAX_DEPTH are
 * aligned on their views (ws_similarity_view()); the frames cut from
 * their middle appear in no step.
 *
 * Returns: (transfer full) (element-type WsAlignStep): the steps, first
 *   frames first, with pattern positions
 */
GArray *
ws_similarity_align (WsSimilarity    *self,
                     const WsFrameId *left,
                     guint            n_left,
                     const WsFrameId *right,
                     guint            n_right,
                     double          *cost)
{
  g_autofree WsFrameId *lv = g_new (WsFrameId, MAX (MIN (n_left, WS_SIMILARITY_MAX_DEPTH), 1));
  g_autofree WsFrameId *rv = g_new (WsFrameId, MAX (MIN (n_right, WS_SIMILARITY_MAX_DEPTH), 1));
  guint nl, nr;
  GArray *steps;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), NULL);
  g_return_val_if_fail (left != NULL || n_left == 0, NULL);
  g_return_val_if_fail (right != NULL || n_right == 0, NULL);

  nl = ws_similarity_view (left, n_left, lv);
  nr = ws_similarity_view (right, n_right, rv);
  steps = align_views (self, lv, nl, rv, nr, cost);

  /* Back to pattern positions: the frames cut from a deep pattern's
   * middle take no part in the alignment. */
  for (guint k = 0; k < steps->len; k++)
    {
      WsAlignStep *st = &g_array_index (steps, WsAlignStep, k);

      if (st->left != G_MAXUINT32)
        st->left = ws_similarity_view_index (n_left, st->left);
      if (st->right != G_MAXUINT32)
        st->right = ws_similarity_view_index (n_right, st->right);
    }
  return steps;
}

/* The optimal alignment of two views, at most WS_SIMILARITY_MAX_DEPTH
 * frames each, so the matrix stays small. */
static GArray *
align_views (WsSimilarity    *self,
             const WsFrameId *left,
             guint            n_left,
             const WsFrameId *right,
             guint            n_right,
             double          *cost)
{
  guint w = n_right + 1;
  g_autofree double *d = g_new (double, (gsize) (n_left + 1) * w);
  GArray *steps;
  guint i = n_left, j = n_right;

  for (guint jj = 0; jj <= n_right; jj++)
    d[jj] = jj;
  for (guint ii = 1; ii <= n_left; ii++)
    {
      d[ii * w] = ii;
      for (guint jj = 1; jj <= n_right; jj++)
        {
          double diag = d[(ii - 1) * w + jj - 1] + ws_similarity_sub (self, left[ii - 1], right[jj - 1]);
          double up = d[(ii - 1) * w + jj] + 1.0;
          double lf = d[ii * w + jj - 1] + 1.0;

          d[ii * w + jj] = MIN (diag, MIN (up, lf));
        }
    }
  if (cost)
    *cost = d[n_left * w + n_right];

  steps = g_array_new (FALSE, FALSE, sizeof (WsAlignStep));
  while (i > 0 || j > 0)
    {
      WsAlignStep st;
      double here = d[i * w + j];

      if (i > 0 && j > 0 &&
          fabs (here - (d[(i - 1) * w + j - 1] + ws_similarity_sub (self, left[i - 1], right[j - 1]))) < 1e-9)
        {
          st.left = --i;
          st.right = --j;
          st.op = left[i] == right[j] ? WS_ALIGN_MATCH : WS_ALIGN_SUBSTITUTE;
        }
      else if (i > 0 && fabs (here - (d[(i - 1) * w + j] + 1.0)) < 1e-9)
        {
          st.left = --i;
          st.right = G_MAXUINT32;
          st.op = WS_ALIGN_DELETE;
        }
      else
        {
          g_assert (j > 0);
          st.left = G_MAXUINT32;
          st.right = --j;
          st.op = WS_ALIGN_INSERT;
        }
      g_array_append_val (steps, st);
    }

  /* Built from the ends: reverse. */
  for (guint a = 0, b = steps->len; a + 1 < b; a++, b--)
    {
      WsAlignStep t = g_array_index (steps, WsAlignStep, a);
      g_array_index (steps, WsAlignStep, a) = g_array_index (steps, WsAlignStep, b - 1);
      g_array_index (steps, WsAlignStep, b - 1) = t;
    }
  return steps;
}

static inline WsFrameId
side_frame (const WsFrameId   *frames,
            const WsAlignStep *st,
            gboolean           left)
{
  return frames[left ? st->left : st->right];
}

/* ω of the function on one side of step k of segment [a, b). */
static double
segment_weight (WsSimilarity      *self,
                const WsFrameId   *frames,
                const WsAlignStep *steps,
                guint              a,
                guint              b,
                guint              k,
                gboolean           left)
{
  WsFrameId prev = k > a ? side_frame (frames, &steps[k - 1], left) : WS_FRAME_NONE;
  WsFrameId next = k + 1 < b ? side_frame (frames, &steps[k + 1], left) : WS_FRAME_NONE;

  return ws_similarity_weight (self, prev, side_frame (frames, &steps[k], left), next);
}

/**
 * ws_similarity_sim_of_alignment:
 * @steps: (array length=n_steps): an alignment of @left and @right
 *
 * Returns: Sim(A) of §VI.B, in [0, 1].  When every weight is 0 (functions
 *   in every callstack of the history) it falls back to the unweighted
 *   ratio #matches / #steps the paper starts from; two empty patterns have
 *   similarity 1.
 */
double
ws_similarity_sim_of_alignment (WsSimilarity      *self,
                                const WsFrameId   *left,
                                const WsFrameId   *right,
                                const WsAlignStep *steps,
                                guint              n_steps)
{
  double wm = 0, wid = 0, ws = 0;
  guint n_match = 0;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 0.0);

  if (n_steps == 0)
    return 1.0;

  for (guint a = 0; a < n_steps;)
    {
      guint b = a + 1;
      guint8 op = steps[a].op;

      while (b < n_steps && steps[b].op == op)
        b++;

      for (guint k = a; k < b; k++)
        switch (op)
          {
          case WS_ALIGN_MATCH:
            n_match++;
            wm += segment_weight (self, left, steps, a, b, k, TRUE);
            break;
          case WS_ALIGN_DELETE:
            wid += segment_weight (self, left, steps, a, b, k, TRUE);
            break;
          case WS_ALIGN_INSERT:
            wid += segment_weight (self, right, steps, a, b, k, FALSE);
            break;
          case WS_ALIGN_SUBSTITUTE:
          default:
            ws += ws_similarity_sub (self, left[steps[k].left], right[steps[k].right]) *
                  (segment_weight (self, left, steps, a, b, k, TRUE) +
                   segment_weight (self, right, steps, a, b, k, FALSE)) / 2.0;
            break;
          }
      a = b;
    }

  if (wm + wid + ws < EPS)
    return (double) n_match / n_steps;
  return wm / (wm + wid + ws);
}

/**
 * ws_similarity_sim:
 *
 * Returns: Sim(A) of the optimal alignment A of the two patterns
 */
double
ws_similarity_sim (WsSimilarity    *self,
                   const WsFrameId *left,
                   guint            n_left,
                   const WsFrameId *right,
                   guint            n_right)
{
  g_autoptr(GArray) steps = NULL;

  g_return_val_if_fail (WS_IS_SIMILARITY (self), 0.0);

  steps = ws_similarity_align (self, left, n_left, right, n_right, NULL);
  return ws_similarity_sim_of_alignment (self, left, right,
                                         (const WsAlignStep *) (gpointer) steps->data, steps->len);
}
