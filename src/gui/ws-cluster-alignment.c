/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The alignment of the selected cluster, kept apart from the Mining page:
 * the page says which row is selected; this builds the grid when the
 * cluster (or the run) changes and captions it.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-cluster-alignment.h"
#include "ws-cluster-grid.h"
#include "ws-cluster-table.h"
#include "ws-coverage.h"
#include "ws-export.h"

struct _WsClusterAlignment
{
  GObject          parent_instance;

  /* Borrowed widgets (the page's template owns them) */
  WsAlignmentView *view;
  GtkLabel        *caption;

  WsClusterSet    *clusters;         /* of the grid shown */
  WsAlignmentGrid *grid;
  guint           *grid_patterns;    /* pattern index of each grid column */
  guint            shown_cluster;    /* cluster index in the alignment, or G_MAXUINT */
};

G_DEFINE_FINAL_TYPE (WsClusterAlignment, ws_cluster_alignment, G_TYPE_OBJECT)

static void
clear (WsClusterAlignment *self)
{
  self->shown_cluster = G_MAXUINT;
  self->clusters = NULL;
  g_clear_pointer (&self->grid, ws_alignment_grid_unref);
  g_clear_pointer (&self->grid_patterns, g_free);
  ws_alignment_view_set_grid (self->view, NULL);
  gtk_label_set_text (self->caption, "");
}

static char *
cluster_caption (WsClusterAlignment *self,
                 guint               cluster)
{
  const WsCluster *cl = ws_cluster_set_get_cluster (self->clusters, cluster);
  guint n_common = ws_alignment_grid_count_rows (self->grid, WS_ALIGNMENT_ROW_COMMON);

  if (cl->n_patterns == 1)
    return g_strdup_printf (_("Cluster %u: a single pattern. Double-click a row or press Space to pick its frame for a signature."),
                            cluster + 1);
  /* Translators: the alignment's caption for a cluster */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Cluster %u: %u pattern aligned to its costliest; %u frames in common (green), the variant parts in yellow. Double-click a row or press Space to pick its frame for a signature.",
                                       "Cluster %u: %u patterns aligned to their costliest; %u frames in common (green), the variant parts in yellow. Double-click a row or press Space to pick its frame for a signature.",
                                       cl->n_patterns),
                          cluster + 1, cl->n_patterns, n_common);
}

/**
 * ws_cluster_alignment_show:
 * @clusters: (nullable): the run's clusters
 * @item: (nullable): the selected row of the pattern list
 *
 * Shows the alignment of @item's cluster, ringing @item if it is a
 * pattern; nothing without an item.
 */
void
ws_cluster_alignment_show (WsClusterAlignment *self,
                           WsClusterSet       *clusters,
                           WsSimilarity       *similarity,
                           WsMiningItem       *item)
{
  g_autofree char *text = NULL;
  guint cluster, column = WS_NONE;

  g_return_if_fail (WS_IS_CLUSTER_ALIGNMENT (self));

  if (item == NULL || clusters == NULL)
    {
      clear (self);
      return;
    }
  cluster = ws_mining_item_get_cluster (item);
  if (cluster != self->shown_cluster || clusters != self->clusters)
    {
      self->clusters = clusters;
      g_clear_pointer (&self->grid, ws_alignment_grid_unref);
      g_clear_pointer (&self->grid_patterns, g_free);
      self->grid = ws_cluster_grid_new (clusters, similarity, cluster, &self->grid_patterns);
      self->shown_cluster = cluster;
      ws_alignment_view_set_grid (self->view, self->grid);
    }
  if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN)
    {
      for (guint k = 0; k < ws_alignment_grid_get_n_patterns (self->grid); k++)
        if (self->grid_patterns[k] == ws_mining_item_get_index (item))
          column = k;
      /* Translators: the alignment's caption for a pattern (cluster.pattern) */
      text = g_strdup_printf (_("Pattern %u.%u, ringed among the patterns of its cluster. Double-click a row or press Space to pick its frame for a signature."),
                              cluster + 1, ws_mining_item_get_rank (item));
    }
  else
    text = cluster_caption (self, cluster);
  ws_alignment_view_set_selected_pattern (self->view, column);
  gtk_label_set_text (self->caption, text);
}

/* Returns: (transfer none) (nullable): the grid shown */
WsAlignmentGrid *
ws_cluster_alignment_get_grid (WsClusterAlignment *self)
{
  g_return_val_if_fail (WS_IS_CLUSTER_ALIGNMENT (self), NULL);
  return self->grid;
}

/* The cluster shown, or G_MAXUINT. */
guint
ws_cluster_alignment_get_cluster (WsClusterAlignment *self)
{
  g_return_val_if_fail (WS_IS_CLUSTER_ALIGNMENT (self), G_MAXUINT);
  return self->shown_cluster;
}

/* The pattern (index in the pattern set) in @column, or G_MAXUINT. */
guint
ws_cluster_alignment_get_pattern (WsClusterAlignment *self,
                                  guint               column)
{
  g_return_val_if_fail (WS_IS_CLUSTER_ALIGNMENT (self), G_MAXUINT);
  if (self->grid == NULL || column >= ws_alignment_grid_get_n_patterns (self->grid))
    return G_MAXUINT;
  return self->grid_patterns[column];
}

/* A marked row's frame: the selected pattern's, else the first there is. */
static const WsAlignmentCell *
marked_cell (WsClusterAlignment *self,
             guint               row,
             guint               selected)
{
  guint n_patterns = ws_alignment_grid_get_n_patterns (self->grid);

  if (selected < n_patterns && ws_alignment_grid_get_cell (self->grid, row, selected)->function != NULL)
    return ws_alignment_grid_get_cell (self->grid, row, selected);
  for (guint k = 0; k < n_patterns; k++)
    if (ws_alignment_grid_get_cell (self->grid, row, k)->function != NULL)
      return ws_alignment_grid_get_cell (self->grid, row, k);
  return NULL;
}

/**
 * ws_cluster_alignment_dup_marked:
 *
 * Returns: (transfer full) (element-type WsFrameId): the frames of a
 *   signature: the rows marked in the alignment, or with none marked the
 *   cluster's common part
 */
GArray *
ws_cluster_alignment_dup_marked (WsClusterAlignment *self)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  guint selected;

  g_return_val_if_fail (WS_IS_CLUSTER_ALIGNMENT (self), frames);

  if (self->grid == NULL)
    return frames;
  selected = ws_alignment_view_get_selected_pattern (self->view);
  if (ws_alignment_view_get_n_marked (self->view) > 0)
    for (guint r = 0; r < ws_alignment_grid_get_n_rows (self->grid); r++)
      {
        const WsAlignmentCell *cell = ws_alignment_view_get_row_marked (self->view, r)
                                      ? marked_cell (self, r, selected) : NULL;
        if (cell != NULL)
          g_array_append_val (frames, cell->frame);
      }
  else
    {
      guint n;
      g_autofree WsFrameId *common = ws_coverage_cluster_common_frames (self->clusters, self->shown_cluster, &n);
      g_array_append_vals (frames, common, n);
    }
  return frames;
}

/**
 * ws_cluster_alignment_export:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the alignment shown (every row unfolded) as a figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_cluster_alignment_export (WsClusterAlignment  *self,
                             const char          *path,
                             GError             **error)
{
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_CLUSTER_ALIGNMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->grid == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no alignment to export: select a cluster"));
      return FALSE;
    }
  if (!ws_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  return ws_alignment_renderer_export (ws_alignment_view_get_renderer (self->view), self->grid, path, format, error);
}

static void
ws_cluster_alignment_dispose (GObject *object)
{
  WsClusterAlignment *self = WS_CLUSTER_ALIGNMENT (object);

  g_clear_pointer (&self->grid, ws_alignment_grid_unref);
  g_clear_pointer (&self->grid_patterns, g_free);
  g_clear_object (&self->view);
  g_clear_object (&self->caption);
  self->clusters = NULL;

  G_OBJECT_CLASS (ws_cluster_alignment_parent_class)->dispose (object);
}

static void
ws_cluster_alignment_class_init (WsClusterAlignmentClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_cluster_alignment_dispose;
}

static void
ws_cluster_alignment_init (WsClusterAlignment *self)
{
  self->shown_cluster = G_MAXUINT;
}

WsClusterAlignment *
ws_cluster_alignment_new (WsAlignmentView *view,
                          GtkLabel        *caption)
{
  WsClusterAlignment *self = g_object_new (WS_TYPE_CLUSTER_ALIGNMENT, NULL);

  self->view = g_object_ref (view);
  self->caption = g_object_ref (caption);
  return self;
}
