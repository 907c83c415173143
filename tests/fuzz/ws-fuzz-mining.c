/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Fuzz checks for the miner, the similarity model and the clusterer.  The
 * input is not a file format but a recipe for a stack database, so that
 * few bytes reach the inputs that once broke them (stacks tens of
 * thousands of frames deep):
 *
 *   byte 0        λ = 1 + byte 0 (costs below are 1…256)
 *   then stacks, each ended by 0xff:
 *     0x00…0xef   a frame "fN (mN)" with N = byte % 48 (frames repeat)
 *     0xf0 K      a run of 256 × (K + 1) frames "deepI" (up to 65,536)
 *     0xf1…0xfe   the stack's cost becomes byte - 0xf0 (default 1)
 *
 * Checked: every pattern costs >= λ and is a subsequence of each stack
 * of its support; the similarities are in [0, 1], symmetric, 1 on the
 * diagonal; every pattern is in exactly one cluster.
 */
#include "config.h"

#include "ws-clusterer.h"
#include "ws-error.h"
#include "ws-miner.h"
#include "ws-similarity.h"

#include "ws-fuzz-harness.h"

#define MAX_FRAMES (1u << 20)   /* in all stacks together */

static guint
build_db (WsStackDb    *db,
          const guint8 *data,
          gsize         size)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  guint stream = ws_stack_db_add_stream (db, "fuzz");
  guint total = 0, n_stacks = 0;
  gint64 cost = 1;

  for (gsize i = 1; i <= size; i++)
    {
      guint8 b = i < size ? data[i] : 0xff;

      if (b == 0xff)
        {
          if (frames->len > 0)
            {
              WsStackId s = ws_stack_table_intern_stack (table, (WsFrameId *) (gpointer) frames->data,
                                                         frames->len);

              ws_stack_db_add (db, stream, s, cost, 1);
              n_stacks++;
            }
          g_array_set_size (frames, 0);
          cost = 1;
        }
      else if (b == 0xf0 && i + 1 < size)
        {
          guint run = 256u * ((guint) data[++i] + 1);

          for (guint k = 0; k < run && total < MAX_FRAMES; k++, total++)
            {
              char name[32];
              WsFrameId f;

              g_snprintf (name, sizeof name, "deep%u", k);
              f = ws_stack_table_intern_frame (table, name, "/usr/bin/deep");
              g_array_append_val (frames, f);
            }
        }
      else if (b > 0xf0)
        cost = b - 0xf0;
      else if (total < MAX_FRAMES)
        {
          char name[16], module[16];
          WsFrameId f;

          g_snprintf (name, sizeof name, "f%u", b % 48);
          g_snprintf (module, sizeof module, "m%u", b % 3);
          f = ws_stack_table_intern_frame (table, name, module);
          g_array_append_val (frames, f);
          total++;
        }
    }
  return n_stacks;
}

static void
check_patterns (WsPatternSet *set,
                WsStackDb    *db,
                gint64        lambda)
{
  for (guint p = 0; p < ws_pattern_set_get_n_patterns (set); p++)
    {
      const WsPattern *pat = ws_pattern_set_get_pattern (set, p);

      if (pat->cost < lambda || pat->n_support == 0)
        g_error ("ws-fuzz: pattern %u costs %" G_GINT64_FORMAT " < λ or has no support", p, pat->cost);
      for (guint s = 0; s < pat->n_support; s++)
        {
          guint n;
          const WsFrameId *stack = ws_stack_db_get_frames (db, pat->support[s], &n);

          if (!ws_frames_is_subsequence (pat->frames, pat->n_frames, stack, n))
            g_error ("ws-fuzz: pattern %u is not in stack %u of its support", p, pat->support[s]);
        }
    }
}

static void
check_clusters (WsPatternSet *set,
                WsSimilarity *similarity)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsClusterSet) clusters = NULL;
  g_autofree double *m = NULL;
  guint n = ws_pattern_set_get_n_patterns (set), seen = 0;

  m = ws_clusterer_similarities (set, similarity, NULL, NULL, NULL, &error);
  if (m == NULL)
    g_error ("ws-fuzz: similarities failed: %s", error->message);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      if (!(m[i * n + j] >= 0.0 && m[i * n + j] <= 1.0) || m[i * n + j] != m[j * n + i] ||
          (i == j && m[i * n + j] != 1.0))
        g_error ("ws-fuzz: similarity (%u, %u) = %g", i, j, m[i * n + j]);

  clusters = ws_clusterer_cluster (set, similarity, 0.6, WS_LINKAGE_AVERAGE, NULL, NULL, NULL, &error);
  if (clusters == NULL)
    g_error ("ws-fuzz: clustering failed: %s", error->message);
  for (guint c = 0; c < ws_cluster_set_get_n_clusters (clusters); c++)
    seen += ws_cluster_set_get_cluster (clusters, c)->n_patterns;
  if (seen != n)
    g_error ("ws-fuzz: %u patterns in the clusters, %u mined", seen, n);
}

/**
 * ws_fuzz_mining:
 *
 * Returns: whether the input made a database with at least one stack
 */
gboolean
ws_fuzz_mining (const guint8 *data,
                gsize         size)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsStackDb) db = ws_stack_db_new (table);
  g_autoptr(WsPatternSet) all = NULL;
  g_autoptr(WsPatternSet) top = NULL;
  g_autoptr(WsSimilarity) similarity = NULL;
  g_autoptr(GError) error = NULL;
  gint64 lambda;

  if (size == 0)
    return FALSE;
  lambda = 1 + data[0];
  if (build_db (db, data, size) == 0)
    return FALSE;

  all = ws_miner_mine (db, lambda, NULL, NULL, NULL, &error);
  /* Stacks repeating long runs of frames are refused, with a message. */
  if (all == NULL && g_error_matches (error, WS_ERROR, WS_ERROR_TOO_LONG) && g_utf8_validate (error->message, -1, NULL))
    return FALSE;
  if (all == NULL)
    g_error ("ws-fuzz: mining failed: %s", error->message);
  check_patterns (all, db, lambda);

  /* Clustering is quadratic in the patterns: the costliest 64, as the
   * GUI and the CLI cluster the costliest ones. */
  top = ws_pattern_set_copy_top (all, 64);
  similarity = ws_similarity_new (table);
  check_clusters (top, similarity);
  return TRUE;
}
