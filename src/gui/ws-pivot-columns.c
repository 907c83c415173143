/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Pivot page's table: its four columns (the row with its expander,
 * time, share as a bar and a number, count), each sortable on a property
 * of WsPivotItem, and + / − on the selected row.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-pivot-columns.h"
#include "ws-pivot-item.h"
#include "ws-time-format.h"

static WsPivotItem *
item_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (label), 24);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  g_autoptr(WsPivotItem) item = item_of (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (expander);
  const char *text = ws_pivot_item_get_row (item)->label;

  gtk_tree_expander_set_list_row (expander, gtk_list_item_get_item (list_item));
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
setup_number_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_time_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  g_autoptr(WsPivotItem) item = item_of (list_item);
  g_autofree char *text = ws_format_duration (ws_pivot_item_get_row (item)->time);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
bind_count_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  g_autoptr(WsPivotItem) item = item_of (list_item);
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, ws_pivot_item_get_row (item)->count);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
setup_share_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);
  GtkWidget *label = gtk_label_new (NULL);

  /* The bar repeats the number beside it: one name for both. */
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
  gtk_widget_set_size_request (bar, 80, -1);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_width_chars (GTK_LABEL (label), 7);
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (list_item, box);
}

static void
bind_share_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *bar = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_last_child (box);
  g_autoptr(WsPivotItem) item = item_of (list_item);
  double share = ws_pivot_item_get_share (item);
  g_autofree char *text = g_strdup_printf ("%.1f %%", 100.0 * share);

  gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), share);
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static GtkColumnViewColumn *
add_column (GtkColumnView *view,
            const char  *title,
            const char  *property,
            GCallback    setup,
            GCallback    bind,
            gboolean     numeric)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  GtkExpression *expression = gtk_property_expression_new (WS_TYPE_PIVOT_ITEM, NULL, property);
  GtkSorter *sorter = numeric ? GTK_SORTER (gtk_numeric_sorter_new (expression))
                              : GTK_SORTER (gtk_string_sorter_new (expression));

  g_signal_connect (factory, "setup", setup, NULL);
  g_signal_connect (factory, "bind", bind, NULL);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
  g_object_unref (sorter);
  g_object_unref (column);
  return column;
}

/* + and − open and close the selected row: GTK 4.8's column view keeps
 * the focus on the row, where the expander's own keys do not reach. */
static gboolean
expand_key_cb (GtkWidget *view,
               GVariant  *args,
               gpointer   data)
{
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
  GtkTreeListRow *row = selection ? gtk_single_selection_get_selected_item (selection) : NULL;

  if (row == NULL || !gtk_tree_list_row_is_expandable (row))
    return FALSE;
  gtk_tree_list_row_set_expanded (row, g_variant_get_boolean (args));
  return TRUE;
}

static void
add_expand_keys (GtkWidget *view)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();
  const struct { guint keyval; gboolean expand; } bindings[] = {
    { GDK_KEY_plus, TRUE }, { GDK_KEY_KP_Add, TRUE }, { GDK_KEY_minus, FALSE }, { GDK_KEY_KP_Subtract, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new_with_arguments (gtk_keyval_trigger_new (bindings[i].keyval, 0),
                                       gtk_callback_action_new (expand_key_cb, NULL, NULL),
                                       "b", bindings[i].expand));
  gtk_widget_add_controller (view, keys);
}

/**
 * ws_pivot_columns_add:
 * @view: an empty column view whose model is a GtkTreeListModel of
 *   #WsPivotItem
 * @row_column: (out): the first column, whose title names the grouping
 *
 * Adds the columns, sorted by time, longest first, and the + / − keys.
 */
void
ws_pivot_columns_add (GtkColumnView        *view,
                      GtkColumnViewColumn **row_column)
{
  GtkColumnViewColumn *time_column;

  *row_column = add_column (view, _("Row"), "label", G_CALLBACK (setup_row_cb), G_CALLBACK (bind_row_cb), FALSE);
  gtk_column_view_column_set_expand (*row_column, TRUE);
  time_column = add_column (view, _("Time"), "time", G_CALLBACK (setup_number_cb), G_CALLBACK (bind_time_cb), TRUE);
  add_column (view, _("Share"), "share", G_CALLBACK (setup_share_cb), G_CALLBACK (bind_share_cb), TRUE);
  add_column (view, _("Count"), "count", G_CALLBACK (setup_number_cb), G_CALLBACK (bind_count_cb), TRUE);
  gtk_column_view_sort_by_column (view, time_column, GTK_SORT_DESCENDING);
  add_expand_keys (GTK_WIDGET (view));
}
