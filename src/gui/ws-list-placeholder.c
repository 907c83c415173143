/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What an empty list says, looking the same in every list of the window
 * (the Overview's lists, the Inspector's findings): a dimmed line that
 * wraps, with room above and below.
 */
#include "config.h"

#include "ws-list-placeholder.h"

/**
 * ws_list_placeholder_set:
 * @list: a list box
 * @text: what it says while it has no rows
 *
 * Returns: (transfer none): the placeholder label, for changing its text
 *   later
 */
GtkLabel *
ws_list_placeholder_set (GtkListBox *list,
                         const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_list_box_set_placeholder (list, label);
  return GTK_LABEL (label);
}
