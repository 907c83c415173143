/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsAlignmentGrid: the multiple alignment of a cluster's call-stack
 * patterns, computed here in core so that the alignment view, the figure
 * export and the CLI's text all show the same grid.
 *
 * The grid is a star alignment: every pattern aligned pairwise to one
 * centre pattern (the similarity module's optimal alignment), the
 * insertions relative to the centre merged slot by slot.  It is a picture
 * of the pairwise alignments, not a new optimum.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-alignment-grid.h"

struct _WsAlignmentGrid
{
  grefcount        ref_count;
  guint            n_patterns;
  GArray          *cells;      /* WsAlignmentCell, n_rows × n_patterns */
  GArray          *kinds;      /* guint8 WsAlignmentRowKind per row */
  GStringChunk    *strings;
  char           **titles;
  char           **subtitles;
};

G_DEFINE_BOXED_TYPE (WsAlignmentGrid, ws_alignment_grid, ws_alignment_grid_ref, ws_alignment_grid_unref)

/**
 * ws_alignment_grid_new:
 * @n_patterns: the number of columns, at least 1
 *
 * Returns: (transfer full): an empty grid
 */
WsAlignmentGrid *
ws_alignment_grid_new (guint n_patterns)
{
  WsAlignmentGrid *self;

  g_return_val_if_fail (n_patterns > 0, NULL);

  self = g_new0 (WsAlignmentGrid, 1);
  g_ref_count_init (&self->ref_count);
  self->n_patterns = n_patterns;
  self->cells = g_array_new (FALSE, FALSE, sizeof (WsAlignmentCell));
  self->kinds = g_array_new (FALSE, FALSE, sizeof (guint8));
  self->strings = g_string_chunk_new (4096);
  self->titles = g_new0 (char *, n_patterns);
  self->subtitles = g_new0 (char *, n_patterns);
  return self;
}

WsAlignmentGrid *
ws_alignment_grid_ref (WsAlignmentGrid *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_alignment_grid_unref (WsAlignmentGrid *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;
  g_array_unref (self->cells);
  g_array_unref (self->kinds);
  g_string_chunk_free (self->strings);
  g_free (self->titles);
  g_free (self->subtitles);
  g_free (self);
}

/**
 * ws_alignment_grid_set_title:
 * @title: (nullable): the column's heading, e.g. "#3 · 1.2 s"
 * @subtitle: (nullable): a dim second line
 */
void
ws_alignment_grid_set_title (WsAlignmentGrid *self,
                             guint            pattern,
                             const char      *title,
                             const char      *subtitle)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (pattern < self->n_patterns);

  self->titles[pattern] = title ? g_string_chunk_insert_const (self->strings, title) : NULL;
  self->subtitles[pattern] = subtitle ? g_string_chunk_insert_const (self->strings, subtitle) : NULL;
}

static gboolean
same_frame (const WsAlignmentCell *a,
            const WsAlignmentCell *b)
{
  if (a->frame != WS_ALIGNMENT_GAP && b->frame != WS_ALIGNMENT_GAP)
    return a->frame == b->frame;
  return g_strcmp0 (a->function, b->function) == 0 && g_strcmp0 (a->module, b->module) == 0;
}

gboolean
ws_alignment_cell_is_gap (const WsAlignmentCell *c)
{
  return c->frame == WS_ALIGNMENT_GAP && c->function == NULL;
}

/**
 * ws_alignment_grid_append_row:
 * @cells: (array): one cell per pattern
 *
 * Appends a position; its kind (common, substitution, insertion/deletion)
 * follows from the cells.
 *
 * Returns: the new row's index
 */
guint
ws_alignment_grid_append_row (WsAlignmentGrid       *self,
                              const WsAlignmentCell *cells)
{
  WsAlignmentRowKind kind = WS_ALIGNMENT_ROW_COMMON;
  guint8 k;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (cells != NULL, 0);

  for (guint p = 0; p < self->n_patterns; p++)
    {
      WsAlignmentCell c = cells[p];

      if (c.function != NULL)
        c.function = g_string_chunk_insert_const (self->strings, c.function);
      if (c.module != NULL)
        c.module = g_string_chunk_insert_const (self->strings, c.module);
      g_array_append_val (self->cells, c);

      if (ws_alignment_cell_is_gap (&cells[p]))
        kind = WS_ALIGNMENT_ROW_INDEL;
      else if (kind == WS_ALIGNMENT_ROW_COMMON && !same_frame (&cells[0], &cells[p]))
        kind = WS_ALIGNMENT_ROW_SUBSTITUTION;
    }
  k = kind;
  g_array_append_val (self->kinds, k);
  return self->kinds->len - 1;
}

guint
ws_alignment_grid_get_n_patterns (WsAlignmentGrid *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_patterns;
}

guint
ws_alignment_grid_get_n_rows (WsAlignmentGrid *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kinds->len;
}

WsAlignmentRowKind
ws_alignment_grid_get_row_kind (WsAlignmentGrid *self,
                                guint            row)
{
  g_return_val_if_fail (self != NULL, WS_ALIGNMENT_ROW_INDEL);
  g_return_val_if_fail (row < self->kinds->len, WS_ALIGNMENT_ROW_INDEL);
  return g_array_index (self->kinds, guint8, row);
}

/**
 * ws_alignment_grid_get_cell:
 * Returns: (transfer none): the cell; a gap has @frame %WS_ALIGNMENT_GAP
 *   and no function
 */
const WsAlignmentCell *
ws_alignment_grid_get_cell (WsAlignmentGrid *self,
                            guint            row,
                            guint            pattern)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (row < self->kinds->len, NULL);
  g_return_val_if_fail (pattern < self->n_patterns, NULL);
  return &g_array_index (self->cells, WsAlignmentCell, (gsize) row * self->n_patterns + pattern);
}

const char *
ws_alignment_grid_get_title (WsAlignmentGrid *self,
                             guint            pattern)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (pattern < self->n_patterns, NULL);
  return self->titles[pattern];
}

const char *
ws_alignment_grid_get_subtitle (WsAlignmentGrid *self,
                                guint            pattern)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (pattern < self->n_patterns, NULL);
  return self->subtitles[pattern];
}

guint
ws_alignment_grid_count_rows (WsAlignmentGrid    *self,
                              WsAlignmentRowKind  kind)
{
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  for (guint r = 0; r < self->kinds->len; r++)
    n += g_array_index (self->kinds, guint8, r) == kind;
  return n;
}

/**
 * ws_alignment_grid_get_segment:
 * @index: (out) (optional): the segment's number among segments of its
 *   kind, from 1 (M1, M2…; S1…; ID1…)
 *
 * Consecutive rows of one kind form a segment (StackMine §VI.A).
 *
 * Returns: the first row of the segment holding @row
 */
guint
ws_alignment_grid_get_segment (WsAlignmentGrid *self,
                               guint            row,
                               guint           *index)
{
  guint counts[3] = { 0, 0, 0 };
  guint start = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (row < self->kinds->len, 0);

  for (guint r = 0; r <= row; r++)
    {
      guint8 k = g_array_index (self->kinds, guint8, r);
      if (r == 0 || k != g_array_index (self->kinds, guint8, r - 1))
        {
          counts[k]++;
          start = r;
        }
    }
  if (index != NULL)
    *index = counts[g_array_index (self->kinds, guint8, row)];
  return start;
}

/**
 * ws_alignment_grid_describe:
 *
 * Returns: (transfer full): a sentence for screen readers: how many
 *   patterns, how long the common part is, and its frames
 */
char *
ws_alignment_grid_describe (WsAlignmentGrid *self)
{
  GString *s = g_string_new (NULL);
  guint n_common;

  g_return_val_if_fail (self != NULL, NULL);

  n_common = ws_alignment_grid_count_rows (self, WS_ALIGNMENT_ROW_COMMON);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u pattern aligned in %u positions",
                                          "%u patterns aligned in %u positions", self->n_patterns),
                          self->n_patterns, self->kinds->len);
  g_string_append (s, "; ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u common frame", "%u common frames", n_common),
                          n_common);
  if (n_common > 0)
    {
      gboolean first = TRUE;

      g_string_append (s, ": ");
      for (guint r = 0; r < self->kinds->len; r++)
        if (g_array_index (self->kinds, guint8, r) == WS_ALIGNMENT_ROW_COMMON)
          {
            const WsAlignmentCell *c = ws_alignment_grid_get_cell (self, r, 0);
            if (!first)
              g_string_append (s, " → ");
            g_string_append (s, c->function ? c->function : "?");
            first = FALSE;
          }
    }
  g_string_append_c (s, '.');
  return g_string_free (s, FALSE);
}

static WsAlignmentCell
cell_for (WsStackTable *table,
          WsFrameId     frame)
{
  const WsFrame *f = ws_stack_table_get_frame (table, frame);
  WsAlignmentCell cell = { frame, f ? f->function : "?", f ? f->module : NULL };
  return cell;
}

/**
 * ws_alignment_grid_new_star:
 * @table: the table the frames belong to
 * @patterns: (array length=n_patterns): each pattern's frames, caller first
 * @lengths: (array length=n_patterns): their lengths
 * @center: the pattern every other one was aligned to
 * @center_of: (array length=n_patterns): for pattern k, an array of
 *   @lengths[k] entries: the position in the centre pattern its frame j is
 *   aligned with (match or substitution), or -1 if it is an insertion; the
 *   entry of @center itself is ignored.  Aligned positions must increase.
 *
 * Merges pairwise alignments against one centre into one grid (a star
 * alignment): centre positions become rows; a pattern's insertions between
 * two centre positions go into extra rows right after the earlier one,
 * as many as the pattern with the most insertions there needs.
 *
 * Returns: (transfer full): the grid, without titles
 */
WsAlignmentGrid *
ws_alignment_grid_new_star (WsStackTable           *table,
                            const WsFrameId *const *patterns,
                            const guint            *lengths,
                            guint                   n_patterns,
                            guint                   center,
                            const gint32 *const    *center_of)
{
  WsAlignmentGrid *grid;
  guint n;
  g_autofree guint *slot_width = NULL;
  g_autofree guint *ins_count = NULL;    /* n_patterns × (n + 1) */
  g_autofree gint32 *aligned = NULL;     /* n_patterns × n: frame index in k, or -1 */
  g_autofree WsAlignmentCell *row = NULL;

  g_return_val_if_fail (WS_IS_STACK_TABLE (table), NULL);
  g_return_val_if_fail (n_patterns > 0 && center < n_patterns, NULL);

  n = lengths[center];
  slot_width = g_new0 (guint, n + 1);
  ins_count = g_new0 (guint, (gsize) n_patterns * (n + 1));
  aligned = g_new (gint32, (gsize) n_patterns * MAX (n, 1));
  memset (aligned, 0xff, sizeof (gint32) * n_patterns * MAX (n, 1));
  row = g_new (WsAlignmentCell, n_patterns);

  for (guint k = 0; k < n_patterns; k++)
    {
      gint32 prev = -1;

      if (k == center)
        {
          for (guint c = 0; c < n; c++)
            aligned[(gsize) k * n + c] = c;
          continue;
        }
      for (guint j = 0; j < lengths[k]; j++)
        {
          gint32 c = center_of[k][j];

          if (c >= 0 && c < (gint32) n && c > prev)
            {
              aligned[(gsize) k * n + c] = j;
              prev = c;
            }
          else
            {
              guint *count = &ins_count[(gsize) k * (n + 1) + (prev + 1)];
              (*count)++;
              slot_width[prev + 1] = MAX (slot_width[prev + 1], *count);
            }
        }
    }

  grid = ws_alignment_grid_new (n_patterns);
  {
    g_autofree guint *next = g_new0 (guint, n_patterns);   /* next frame of k to place */

    for (guint s = 0; s <= n; s++)
      {
        /* Insertions of slot s: each pattern's own, top-aligned. */
        for (guint r = 0; r < slot_width[s]; r++)
          {
            for (guint k = 0; k < n_patterns; k++)
              {
                WsAlignmentCell gap = { WS_ALIGNMENT_GAP, NULL, NULL };
                if (r < ins_count[(gsize) k * (n + 1) + s])
                  row[k] = cell_for (table, patterns[k][next[k]++]);
                else
                  row[k] = gap;
              }
            ws_alignment_grid_append_row (grid, row);
          }
        if (s == n)
          break;
        for (guint k = 0; k < n_patterns; k++)
          {
            gint32 j = aligned[(gsize) k * n + s];
            WsAlignmentCell gap = { WS_ALIGNMENT_GAP, NULL, NULL };

            if (j >= 0)
              {
                g_assert ((guint) j == next[k]);
                row[k] = cell_for (table, patterns[k][j]);
                next[k] = j + 1;
              }
            else
              row[k] = gap;
          }
        ws_alignment_grid_append_row (grid, row);
      }
  }
  return grid;
}

/**
 * ws_alignment_grid_new_aligned:
 * @similarity: the similarity model (its table holds the frames)
 * @patterns: (array length=n_patterns): the cluster's patterns, caller
 *   first, the one to align to (e.g. the costliest) first
 * @lengths: (array length=n_patterns): their lengths
 *
 * Aligns every pattern to the first with the model's optimal alignment
 * (StackMine §VI.A: matches and substitutions face each other, the rest
 * are insertions and deletions) and merges the alignments into one grid
 * (ws_alignment_grid_new_star()).
 *
 * Returns: (transfer full): the grid, without titles
 */
WsAlignmentGrid *
ws_alignment_grid_new_aligned (WsSimilarity           *similarity,
                               const WsFrameId *const *patterns,
                               const guint            *lengths,
                               guint                   n_patterns)
{
  g_autofree gint32 **center_of = NULL;
  WsAlignmentGrid *grid;

  g_return_val_if_fail (WS_IS_SIMILARITY (similarity), NULL);
  g_return_val_if_fail (n_patterns > 0, NULL);

  center_of = g_new0 (gint32 *, n_patterns);
  for (guint k = 1; k < n_patterns; k++)
    {
      g_autoptr(GArray) steps = ws_similarity_align (similarity, patterns[0], lengths[0],
                                                     patterns[k], lengths[k], NULL);

      center_of[k] = g_new (gint32, MAX (lengths[k], 1));
      for (guint j = 0; j < lengths[k]; j++)
        center_of[k][j] = -1;
      for (guint i = 0; i < steps->len; i++)
        {
          const WsAlignStep *st = &g_array_index (steps, WsAlignStep, i);

          if (st->right != G_MAXUINT32 && st->right < lengths[k] &&
              (st->op == WS_ALIGN_MATCH || st->op == WS_ALIGN_SUBSTITUTE))
            center_of[k][st->right] = (gint32) st->left;
        }
    }
  grid = ws_alignment_grid_new_star (ws_similarity_get_stack_table (similarity), patterns, lengths,
                                     n_patterns, 0, (const gint32 *const *) center_of);
  for (guint k = 1; k < n_patterns; k++)
    g_free (center_of[k]);
  return grid;
}
