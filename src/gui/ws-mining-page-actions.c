/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining page's actions on the selected cluster or pattern: "Show
 * Events" (found in a worker), "Mark as Signature" (its coverage from the
 * signature panel), exporting the alignment and the coverage chart, and
 * which of them are enabled.  The page's run and selection are in
 * ws-mining-page.c.
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ws-cluster-table.h"
#include "ws-coverage.h"
#include "ws-error.h"
#include "ws-export-dialog.h"
#include "ws-miner.h"
#include "ws-mining-page-private.h"
#include "ws-pattern-events.h"
#include "ws-similarity.h"
#include "ws-stack-db.h"

/* ------------------------------------------------------------------ */
/* Events that contain a pattern                                        */

static void
events_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  job)
{
  WsMiningPage *self = WS_MINING_PAGE (owner);
  g_autoptr(WsPatternEvents) events = result;
  g_autofree char *text = NULL;
  WsDocument *document;
  guint n;

  if (events == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          !g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED) && self->results_stack != NULL)
        _ws_mining_page_toast (self, error->message);
      return;
    }
  if (events->search == NULL || self->result == NULL || events->stream >= self->result->documents->len)
    {
      _ws_mining_page_toast (self, _("No event of the open traces contains this pattern"));
      return;
    }
  document = g_ptr_array_index (self->result->documents, events->stream);
  n = ws_stack_search_get_n_matches (events->search);
  if (events->n_traces > 1)
    /* Translators: events of the shown trace, then events and traces overall */
    {
      g_autofree char *here = g_strdup_printf (ngettext ("%u event in %s", "%u events in %s", n),
                                               n, ws_document_get_title (document));

      /* Translators: %s is "12 events in trace.perf.txt" */
      text = g_strdup_printf (ngettext ("%s (%llu in %u trace)", "%s (%llu in %u traces)", events->n_traces),
                              here, (unsigned long long) events->n_matches, events->n_traces);
    }
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event in %s", "%u events in %s", n),
                            n, ws_document_get_title (document));
  _ws_mining_page_set_status (self, text);
  _ws_mining_page_emit_show_events (self, document, events->search);
}

static void
add_pattern (WsPatternEventsQuery *query,
             Result               *r,
             guint                 pattern)
{
  const WsPattern *p = ws_pattern_set_get_pattern (r->patterns, pattern);
  ws_pattern_events_query_add (query, p->frames, p->n_frames);
}

/**
 * ws_mining_page_show_events:
 *
 * Finds, in a worker, the events whose stack contains the selected
 * pattern (a cluster: any of its patterns) and emits ::show-events for the
 * current trace if it has any, else for the first mined trace that has.
 */
void
ws_mining_page_show_events (WsMiningPage *self)
{
  WsMiningItem *item;
  WsPatternEventsQuery *query;
  g_autofree char *label = NULL;
  guint prefer = G_MAXUINT;

  g_return_if_fail (WS_IS_MINING_PAGE (self));

  item = _ws_mining_page_get_selected_item (self);
  if (item == NULL || self->result == NULL)
    return;

  if (ws_page_get_session (WS_PAGE (self)) != NULL)
    {
      WsDocument *current = ws_session_get_current_document (ws_page_get_session (WS_PAGE (self)));
      for (guint s = 0; s < self->result->documents->len; s++)
        if (g_ptr_array_index (self->result->documents, s) == current)
          prefer = s;
    }
  if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN)
    /* Translators: what the timeline's search shows, e.g. "pattern 3.2" */
    label = g_strdup_printf (_("pattern %u.%u"), ws_mining_item_get_cluster (item) + 1, ws_mining_item_get_rank (item));
  else
    label = g_strdup_printf (_("cluster %u"), ws_mining_item_get_index (item) + 1);
  query = ws_pattern_events_query_new (self->result->traces, self->result->db, label, prefer);
  if (ws_mining_item_get_kind (item) == WS_MINING_ITEM_PATTERN)
    add_pattern (query, self->result, ws_mining_item_get_index (item));
  else
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (self->result->clusters, ws_mining_item_get_index (item));
      for (guint k = 0; k < cl->n_patterns; k++)
        add_pattern (query, self->result, cl->patterns[k]);
    }
  ws_worker_run (self->events_worker, self, query, (GDestroyNotify) ws_pattern_events_query_free,
                 ws_pattern_events_run_in_thread, events_done);
}

static void
show_events_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  ws_mining_page_show_events (WS_MINING_PAGE (widget));
}

/* ------------------------------------------------------------------ */
/* Signatures and coverage                                              */

/* Frames of the signature: the rows marked in the alignment (in a variant
 * row, the selected pattern's frame, else the first there is), or the
 * cluster's common part. */
/**
 * ws_mining_page_mark_signature:
 *
 * Keeps the frames marked in the alignment (or, with none marked, the
 * selected cluster's common part) as a performance signature, and
 * updates the coverage chart and table.
 *
 * Returns: %TRUE if a signature was added
 */
gboolean
ws_mining_page_mark_signature (WsMiningPage *self)
{
  WsMiningItem *item;
  g_autoptr(GArray) frames = NULL;
  WsStackTable *table;
  WsPattern fake = { 0 };
  g_autofree char *label = NULL;
  g_autofree char *text = NULL;
  guint index;

  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);

  item = _ws_mining_page_get_selected_item (self);
  if (item == NULL || self->result == NULL)
    return FALSE;

  frames = ws_cluster_alignment_dup_marked (self->alignment);
  if (frames->len == 0)
    {
      _ws_mining_page_toast (self, _("The cluster's patterns have no frame in common: mark the frames to keep in the alignment"));
      return FALSE;
    }

  table = ws_stack_db_get_stack_table (self->result->db);
  fake.frames = (WsFrameId *) frames->data;
  fake.n_frames = frames->len;
  label = ws_pattern_dup_label (table, self->result->similarity, &fake);

  index = ws_signature_panel_add (self->signature_panel, label, (const WsFrameId *) (gpointer) frames->data,
                                  frames->len);

  /* The cluster row shows that it has a signature. */
  {
    const WsCluster *cl = ws_cluster_set_get_cluster (self->result->clusters, ws_mining_item_get_cluster (item));
    g_hash_table_add (self->signed_patterns, GUINT_TO_POINTER (cl->patterns[0] + 1));
  }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->roots)); i++)
    {
      g_autoptr(WsMiningItem) root = g_list_model_get_item (G_LIST_MODEL (self->roots), i);
      if (ws_mining_item_get_index (root) == ws_mining_item_get_cluster (item))
        ws_mining_item_set_signature (root, TRUE);
    }
  ws_alignment_view_clear_marks (self->alignment_view);

  if (index != G_MAXUINT)
    {
      WsCoverage *coverage = ws_signature_panel_get_coverage (self->signature_panel);
      g_autofree char *pct = g_strdup_printf (_("%.1f %%"), 100 * ws_coverage_get_signature_coverage (coverage, index));
      g_autofree char *all = g_strdup_printf (_("%.1f %%"), 100 * ws_coverage_get_total_coverage (coverage));
      /* Translators: after marking a signature: its coverage, all signatures' coverage */
      text = g_strdup_printf (_("Signature S%u covers %s of the delay; all signatures %s"),
                              ws_signature_panel_get_n_signatures (self->signature_panel), pct, all);
      _ws_mining_page_toast (self, text);
    }
  return TRUE;
}


static void
mark_signature_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  ws_mining_page_mark_signature (WS_MINING_PAGE (widget));
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */

void
_ws_mining_page_update_actions (WsMiningPage *self)
{
  g_autoptr(GPtrArray) chosen = NULL;
  gboolean has_item;

  if (self->results_stack == NULL)
    return;
  chosen = ws_mining_form_dup_chosen (self->form);
  has_item = !self->busy && self->result != NULL && _ws_mining_page_get_selected_item (self) != NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.run", chosen->len > 0 || self->digest != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.cancel", self->busy);
  /* A digest holds no events to show. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.show-events", has_item && self->digest == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.mark-signature", has_item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.export-alignment",
                                 ws_cluster_alignment_get_grid (self->alignment) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mining.export-coverage",
                                 ws_coverage_plot_get_n_series (ws_coverage_view_get_plot (
                                   ws_signature_panel_get_view (self->signature_panel))) > 0);
}

/* ------------------------------------------------------------------ */
/* Exporting the figures                                                */

/**
 * ws_mining_page_export_alignment:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the alignment shown (the selected cluster's patterns, every row
 * unfolded) as a figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_mining_page_export_alignment (WsMiningPage  *self,
                                 const char    *path,
                                 GError       **error)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  return ws_cluster_alignment_export (self->alignment, path, error);
}

/**
 * ws_mining_page_export_coverage:
 * @path: ends in .png, .svg or .pdf
 *
 * Writes the bottleneck-coverage chart (StackMine Fig. 4) of the marked
 * signatures as a 960 × 540 figure.
 *
 * Returns: %TRUE if written
 */
gboolean
ws_mining_page_export_coverage (WsMiningPage  *self,
                                const char    *path,
                                GError       **error)
{
  g_return_val_if_fail (WS_IS_MINING_PAGE (self), FALSE);
  return ws_signature_panel_export (self->signature_panel, path, error);
}

static gboolean
export_alignment_to (GtkWidget   *widget,
                     const char  *path,
                     GError     **error)
{
  return ws_mining_page_export_alignment (WS_MINING_PAGE (widget), path, error);
}

static gboolean
export_coverage_to (GtkWidget   *widget,
                    const char  *path,
                    GError     **error)
{
  return ws_mining_page_export_coverage (WS_MINING_PAGE (widget), path, error);
}

static void
export_toast (GtkWidget  *widget,
              const char *message)
{
  _ws_mining_page_toast (WS_MINING_PAGE (widget), message);
}

static void
export_alignment_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  WsMiningPage *self = WS_MINING_PAGE (widget);
  g_autofree char *name = NULL;

  if (ws_cluster_alignment_get_grid (self->alignment) == NULL)
    return;
  name = g_strdup_printf ("cluster-%u-alignment.%s", ws_cluster_alignment_get_cluster (self->alignment) + 1,
                          g_variant_get_string (param, NULL));
  ws_export_dialog_show (widget, _("Export the Alignment"), name, export_alignment_to, export_toast);
}

static void
export_coverage_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  g_autofree char *name = g_strdup_printf ("coverage.%s", g_variant_get_string (param, NULL));

  ws_export_dialog_show (widget, _("Export the Coverage Chart"), name, export_coverage_to, export_toast);
}

void
_ws_mining_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "mining.show-events", NULL, show_events_action);
  gtk_widget_class_install_action (widget_class, "mining.mark-signature", NULL, mark_signature_action);
  gtk_widget_class_install_action (widget_class, "mining.export-alignment", "s", export_alignment_action);
  gtk_widget_class_install_action (widget_class, "mining.export-coverage", "s", export_coverage_action);
}
