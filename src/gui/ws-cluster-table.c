/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Mining page's pattern list: the rows (clusters and their patterns,
 * as WsMiningItem), their labels, and the column view's columns.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-cluster-table.h"
#include "ws-mining-item.h"
#include "ws-mining-words.h"
#include "ws-time-format.h"

/* Frames named in a table row's label. */
#define LABEL_FRAMES 3

/* ------------------------------------------------------------------ */
/* Labels                                                               */

static gboolean
is_kernel_module (const char *module)
{
  return module == NULL || module[0] == '[' || g_str_has_suffix (module, ".ko");
}

typedef struct {
  guint  position;
  double score;
} Telling;

static int
compare_telling (gconstpointer a,
                 gconstpointer b)
{
  const Telling *x = a, *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return x->position > y->position ? -1 : x->position < y->position;
}

/* The pattern's named frames (and, with none named, the others) scored
 * by how telling they are, most telling first.  Returns how many. */
static guint
score_frames (WsStackTable    *table,
              WsSimilarity    *similarity,
              const WsPattern *p,
              Telling         *t)
{
  guint n = 0;

  for (guint i = 0; i < p->n_frames; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, p->frames[i]);

      if (f == NULL)
        continue;
      t[n].position = i;
      /* Unsymbolised frames only when there is nothing else to show. */
      if (f->function == NULL || g_str_equal (f->function, "[unknown]"))
        t[n].score = -1;
      else
        t[n].score = similarity ? ws_similarity_uni (similarity, p->frames[i])
                                : !is_kernel_module (f->module);
      n++;
    }
  qsort (t, n, sizeof (Telling), compare_telling);
  return n;
}

static int
compare_position (gconstpointer a,
                  gconstpointer b)
{
  const Telling *x = a, *y = b;
  return (x->position > y->position) - (x->position < y->position);
}

static void
append_frame (GString       *s,
              const WsFrame *f)
{
  const char *module = f->module ? strrchr (f->module, '/') : NULL;

  if (f->function != NULL && !g_str_equal (f->function, "[unknown]"))
    g_string_append (s, f->function);
  else if (f->module == NULL || f->module[0] == '[')
    g_string_append (s, "?");
  else
    /* Translators: an unsymbolised frame, with its module */
    g_string_append_printf (s, _("? in %s"), module ? module + 1 : f->module);
}

/* A pattern in a table row: its few most telling frames, in call order.
 * "Telling" is StackMine's unigram weight Uni(f) (how unlikely f is a
 * common-purpose function: the scheduler's functions are in most waiting
 * stacks, XactLockTableWait in few); nearer the leaf breaks ties.  Without
 * statistics, frames outside the kernel count as telling.  The whole
 * pattern goes in the tooltip. */
char *
ws_pattern_dup_label (WsStackTable    *table,
                      WsSimilarity    *similarity,
                      const WsPattern *p)
{
  g_autofree Telling *t = g_new (Telling, MAX (p->n_frames, 1));
  guint n = score_frames (table, similarity, p, t), shown = 0;
  GString *s = g_string_new (NULL);

  if (n == 0)
    {
      g_string_append (s, "?");
      return g_string_free (s, FALSE);
    }
  /* Named frames sort first; unsymbolised ones only if there is no other. */
  while (shown < n && shown < LABEL_FRAMES && (t[shown].score >= 0 || t[0].score < 0))
    shown++;
  /* Back to call order. */
  qsort (t, shown, sizeof (Telling), compare_position);
  for (guint i = 0; i < shown; i++)
    {
      if (i > 0)
        g_string_append (s, t[i].position > t[i - 1].position + 1 ? " … " : " › ");
      append_frame (s, ws_stack_table_get_frame (table, p->frames[t[i].position]));
    }
  return g_string_free (s, FALSE);
}

static char *
pattern_tooltip (WsStackTable    *table,
                 const WsPattern *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->n_frames; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (table, p->frames[i]);
      if (i > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, "%*s%s", (int) MIN (i, 12), "", f && f->function ? f->function : "?");
    }
  return g_string_free (s, FALSE);
}

/* A cost (ns, perhaps an average) as a duration. */
char *
ws_pattern_dup_cost (double ns)
{
  return ws_format_duration ((WsTime) (ns + 0.5));
}

static WsMiningItem *
pattern_item (WsPatternSet *patterns,
              WsSimilarity *similarity,
              guint         pattern,
              guint         rank)
{
  const WsPattern *p = ws_pattern_set_get_pattern (patterns, pattern);
  WsStackTable *table = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (patterns));
  g_autofree char *label = ws_pattern_dup_label (table, similarity, p);
  g_autofree char *tooltip = pattern_tooltip (table, p);

  WsMiningItem *item = ws_mining_item_new (WS_MINING_ITEM_PATTERN, pattern, rank, label, tooltip,
                                           p->cost, p->n_streams, p->n_events);

  ws_mining_item_set_discriminative (item, p->discriminative);
  return item;
}

/**
 * ws_cluster_table_new_items:
 * @signed_patterns: (element-type guint): the costliest pattern (+ 1) of
 *   each cluster given a signature: those rows read in bold
 *
 * Returns: (transfer container) (element-type WsMiningItem): a row per
 *   cluster, in rank order, its patterns as children
 */
GPtrArray *
ws_cluster_table_new_items (WsClusterSet *clusters,
                            WsSimilarity *similarity,
                            GHashTable   *signed_patterns)
{
  WsPatternSet *patterns = ws_cluster_set_get_pattern_set (clusters);
  WsStackTable *table = ws_stack_db_get_stack_table (ws_pattern_set_get_stack_db (patterns));
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint c = 0; c < ws_cluster_set_get_n_clusters (clusters); c++)
    {
      const WsCluster *cl = ws_cluster_set_get_cluster (clusters, c);
      const WsPattern *top = ws_pattern_set_get_pattern (patterns, cl->patterns[0]);
      g_autofree char *label = ws_pattern_dup_label (table, similarity, top);
      g_autofree char *tooltip = pattern_tooltip (table, top);
      WsMiningItem *item;

      item = ws_mining_item_new (WS_MINING_ITEM_CLUSTER, c, c + 1, label, tooltip,
                                 cl->total_cost, cl->n_streams, cl->n_events);
      ws_mining_item_set_discriminative (item, cl->discriminative);
      ws_mining_item_set_signature (item, g_hash_table_contains (signed_patterns,
                                                                 GUINT_TO_POINTER (cl->patterns[0] + 1)));
      for (guint k = 0; cl->n_patterns > 1 && k < cl->n_patterns; k++)
        {
          g_autoptr(WsMiningItem) child = pattern_item (patterns, similarity, cl->patterns[k], k + 1);
          ws_mining_item_add_child (item, child);
        }
      g_ptr_array_add (items, item);
    }
  return items;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  GListModel *children = ws_mining_item_get_children (item);
  return children && g_list_model_get_n_items (children) > 0 ? g_object_ref (children) : NULL;
}

/* The item of a table row (borrowed: the row keeps it alive). */
WsMiningItem *
ws_cluster_table_row_item (GtkTreeListRow *row)
{
  WsMiningItem *item = gtk_tree_list_row_get_item (row);

  g_object_unref (item);
  return item;
}

typedef enum {
  COL_RANK,
  COL_LABEL,
  COL_TOTAL,
  COL_STREAMS,
  COL_EVENTS,
  COL_AVERAGE,
  COL_DISCRIMINATIVE,
} Column;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column == COL_LABEL)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *count = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 18);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (count, "dim-label");
      gtk_widget_add_css_class (count, "caption");
      gtk_widget_add_css_class (count, "numeric");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), count);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_item_set_child (list_item, label);
    }
}

/* Clusters with a signature read in bold. */
static void
signature_changed_cb (WsMiningItem *item,
                      GParamSpec   *pspec,
                      GtkLabel     *label)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  if (ws_mining_item_get_signature (item))
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  WsMiningItem *item = ws_cluster_table_row_item (row);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkWidget *box = column == COL_LABEL ? gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)) : NULL;
  GtkWidget *label = box ? gtk_widget_get_first_child (box) : child;
  gboolean cluster = ws_mining_item_get_kind (item) == WS_MINING_ITEM_CLUSTER;
  g_autofree char *text = NULL;

  switch (column)
    {
    case COL_RANK:
      /* Patterns: their place within the cluster, dimmed. */
      text = cluster ? g_strdup_printf ("%u", ws_mining_item_get_rank (item))
                     : g_strdup_printf ("%u.%u", ws_mining_item_get_cluster (item) + 1, ws_mining_item_get_rank (item));
      break;
    case COL_LABEL:
      {
        GListModel *children = ws_mining_item_get_children (item);
        guint n = children ? g_list_model_get_n_items (children) : 0;
        GtkWidget *count = gtk_widget_get_last_child (box);
        g_autofree char *n_text = n > 1 ? g_strdup_printf ("×%u", n) : NULL;

        gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
        text = g_strdup (ws_mining_item_get_label (item));
        gtk_widget_set_tooltip_text (label, ws_mining_item_get_tooltip (item));
        gtk_label_set_text (GTK_LABEL (count), n_text ? n_text : "");
        if (n > 1)
          {
            g_autofree char *tip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pattern in this cluster",
                                                                 "%u patterns in this cluster", n), n);
            gtk_widget_set_tooltip_text (count, tip);
          }
      }
      break;
    case COL_TOTAL:
      text = ws_pattern_dup_cost (ws_mining_item_get_total_cost (item));
      break;
    case COL_STREAMS:
      text = g_strdup_printf ("%u", ws_mining_item_get_n_streams (item));
      break;
    case COL_EVENTS:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, ws_mining_item_get_n_events (item));
      break;
    case COL_AVERAGE:
      text = ws_pattern_dup_cost (ws_mining_item_get_average_cost (item));
      break;
    case COL_DISCRIMINATIVE:
      {
        gint64 score = ws_mining_item_get_discriminative (item);
        g_autofree char *magnitude = ws_format_duration (ABS (score));
        g_autofree char *sentence = ws_mining_dup_discriminative (score, magnitude);

        /* The sign says which class has more of it; the tooltip, in words. */
        text = g_strdup_printf ("%s%s", score < 0 ? "−" : "+", magnitude);
        gtk_widget_set_tooltip_text (label, sentence);
      }
      break;
    }
  gtk_label_set_text (GTK_LABEL (label), text);
  if (cluster)
    gtk_widget_remove_css_class (label, "dim-label");
  else if (column != COL_LABEL)
    gtk_widget_add_css_class (label, "dim-label");
  if (column == COL_LABEL)
    {
      /* Kept on the label so that unbind finds it even once the row has
       * let go of it. */
      signature_changed_cb (item, NULL, GTK_LABEL (label));
      g_signal_connect_object (item, "notify::signature", G_CALLBACK (signature_changed_cb), label, 0);
      g_object_set_data_full (G_OBJECT (label), "ws-item", g_object_ref (item), g_object_unref);
    }
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  if (GPOINTER_TO_UINT (user_data) == COL_LABEL)
    {
      GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
      GtkWidget *label = gtk_widget_get_first_child (gtk_tree_expander_get_child (expander));
      WsMiningItem *item = g_object_get_data (G_OBJECT (label), "ws-item");

      if (item != NULL)
        g_signal_handlers_disconnect_by_func (item, signature_changed_cb, label);
      g_object_set_data (G_OBJECT (label), "ws-item", NULL);
      gtk_tree_expander_set_list_row (expander, NULL);
    }
}

static void
add_column (GtkColumnView *view,
            Column        column,
            const char   *title,
            const char   *property,
            GType         type,
            gboolean      expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (property != NULL)
    {
      GtkExpression *expr = gtk_property_expression_new (WS_TYPE_MINING_ITEM, NULL, property);
      GtkSorter *sorter;

      if (type == G_TYPE_STRING)
        sorter = GTK_SORTER (gtk_string_sorter_new (expr));
      else
        {
          sorter = GTK_SORTER (gtk_numeric_sorter_new (expr));
          /* Costs and counts read best largest first. */
          if (column != COL_RANK)
            gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter), GTK_SORT_DESCENDING);
        }
      gtk_column_view_column_set_sorter (col, sorter);
      g_object_unref (sorter);
    }
  gtk_column_view_append_column (view, col);
  if (column == COL_DISCRIMINATIVE)
    {
      /* Shown only for a run with slow and fast traces. */
      gtk_column_view_column_set_visible (col, FALSE);
      g_object_set_data_full (G_OBJECT (view), "ws-discriminative-column", g_object_ref (col), g_object_unref);
    }
  g_object_unref (col);
}

/**
 * ws_cluster_table_setup:
 * @roots: (element-type WsMiningItem): the clusters' rows
 *
 * Adds the columns to @view and shows @roots in it, sorted by the column
 * the user chooses.
 *
 * Returns: (transfer full): the selection (autoselecting)
 */
GtkSingleSelection *
ws_cluster_table_setup (GtkColumnView *view,
                        GListModel    *roots)
{
  GtkTreeListModel *tree;
  GtkTreeListRowSorter *sorter;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;

  add_column (view, COL_RANK, C_("cluster table", "#"), "rank", G_TYPE_UINT, FALSE);
  add_column (view, COL_LABEL, _("Pattern"), "label", G_TYPE_STRING, TRUE);
  /* Beside the pattern, where a narrow pane still shows it.  Translators:
   * a column: the mean cost per slow trace minus the mean cost per fast
   * trace */
  add_column (view, COL_DISCRIMINATIVE, _("Slow − fast"), "discriminative", G_TYPE_INT64, FALSE);
  add_column (view, COL_TOTAL, _("Total"), "total-cost", G_TYPE_INT64, FALSE);
  add_column (view, COL_STREAMS, _("Traces"), "n-streams", G_TYPE_UINT, FALSE);
  add_column (view, COL_EVENTS, _("Events"), "n-events", G_TYPE_UINT64, FALSE);
  add_column (view, COL_AVERAGE, _("Average"), "average-cost", G_TYPE_DOUBLE, FALSE);

  tree = gtk_tree_list_model_new (g_object_ref (roots), FALSE, FALSE, create_children, NULL, NULL);
  sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (view)));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (sorter));
  selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  return selection;
}

/**
 * ws_cluster_table_show_discriminative:
 *
 * Shows the "Slow − fast" column (each row's discriminative score) for a
 * run over slow and fast traces, and hides it for any other.
 */
void
ws_cluster_table_show_discriminative (GtkColumnView *view,
                                      gboolean       show)
{
  GtkColumnViewColumn *col = g_object_get_data (G_OBJECT (view), "ws-discriminative-column");

  if (col != NULL)
    gtk_column_view_column_set_visible (col, show);
}
