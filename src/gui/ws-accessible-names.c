/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Accessible names of buttons from what they show: see
 * ws-accessible-names.h for why GTK 4.8 needs the help.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-accessible-names.h"

#define DONE_KEY "ws-accessible-name"

/* @text without the mnemonic underscores ("_Export" → "Export"; "__"
 * stays one underscore). */
static char *
strip_mnemonic (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '_' && p[1] != '\0')
        p++;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* GTK 4.8 builds a name from the LABEL property followed by the names of
 * the LABELLED_BY relation.  A labelled button has both: LABEL is its raw
 * label ("_Open") and it is labelled by its GtkLabel child ("Open"). */
static gboolean
label_is_automatic (GtkWidget  *button,
                    const char *label)
{
  g_autofree char *other = NULL;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return FALSE;
  /* NULL when the property holds exactly @label. */
  other = gtk_test_accessible_check_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  return other == NULL;
}

/* The words for an icon-only button: its tooltip, else what its icon
 * means for the few icons GTK's own widgets add without a tooltip. */
static const char *
icon_button_name (GtkWidget *button)
{
  const char *tooltip = gtk_widget_get_tooltip_text (button);
  const char *icon = GTK_IS_BUTTON (button) ? gtk_button_get_icon_name (GTK_BUTTON (button)) : NULL;

  if (tooltip != NULL && *tooltip != '\0')
    return tooltip;
  if (g_strcmp0 (icon, "window-close-symbolic") == 0 || g_strcmp0 (icon, "edit-clear-symbolic") == 0)
    return _("Close");
  return NULL;
}

static void
update_name (GtkWidget *button)
{
  const char *label = NULL;
  const char *name;

  if (GTK_IS_MENU_BUTTON (button))
    label = gtk_menu_button_get_label (GTK_MENU_BUTTON (button));
  else if (GTK_IS_BUTTON (button))
    label = gtk_button_get_label (GTK_BUTTON (button));

  if (label != NULL && *label != '\0' && GTK_IS_MENU_BUTTON (button))
    {
      /* A menu button gets no name from its label at all. */
      g_autofree char *words = strip_mnemonic (label);

      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, words, -1);
      return;
    }
  if (label != NULL && *label != '\0')
    {
      /* The child label names it; the raw copy only doubled it. */
      if (label_is_automatic (button, label))
        gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
      return;
    }
  if ((name = icon_button_name (button)) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* The inner toggle of a menu button or a drop-down is labelled by its
 * owner already. */
static gboolean
is_inner_button (GtkWidget *button)
{
  GtkWidget *parent = gtk_widget_get_parent (button);

  return GTK_IS_MENU_BUTTON (parent) || GTK_IS_DROP_DOWN (parent);
}

static gboolean
has_label (GtkWidget *button)
{
  const char *label = GTK_IS_MENU_BUTTON (button) ? gtk_menu_button_get_label (GTK_MENU_BUTTON (button))
                                                  : gtk_button_get_label (GTK_BUTTON (button));

  return label != NULL && *label != '\0';
}

static void
name_button (GtkWidget *button)
{
  if (g_object_get_data (G_OBJECT (button), DONE_KEY) != NULL || is_inner_button (button))
    return;
  g_object_set_data (G_OBJECT (button), DONE_KEY, GINT_TO_POINTER (TRUE));
  /* An icon button the code named itself keeps its name. */
  if (!has_label (button) && gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return;
  update_name (button);
  g_signal_connect (button, "notify::tooltip-text", G_CALLBACK (update_name), NULL);
  g_signal_connect_after (button, "notify::label", G_CALLBACK (update_name), NULL);
}

void
ws_accessible_names_apply (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root) || GTK_IS_MENU_BUTTON (root))
    name_button (root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    ws_accessible_names_apply (c);
}
