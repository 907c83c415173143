/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Accessible names of buttons from what they show: see
 * ws-accessible-names.h for why GTK 4.8 needs the help.
 */
#include "config.h"

#include "ws-accessible-names.h"

#define OWN_NAME_KEY "ws-accessible-name"

/* @text without the mnemonic underscores ("Critical _Path" → "Critical
 * Path"; "__" stays one underscore). */
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

/* What the button shows in words, or NULL. */
static char *
shown_name (GtkWidget *button)
{
  const char *label = NULL;
  const char *tooltip;
  GtkWidget *parent = gtk_widget_get_parent (button);

  if (GTK_IS_MENU_BUTTON (button))
    label = gtk_menu_button_get_label (GTK_MENU_BUTTON (button));
  else if (GTK_IS_BUTTON (button))
    label = gtk_button_get_label (GTK_BUTTON (button));
  if (label != NULL && *label != '\0')
    return strip_mnemonic (label);
  tooltip = gtk_widget_get_tooltip_text (button);
  /* A menu button's inner toggle button carries no tooltip of its own. */
  if ((tooltip == NULL || *tooltip == '\0') && GTK_IS_MENU_BUTTON (parent))
    return shown_name (parent);
  return tooltip != NULL && *tooltip != '\0' ? g_strdup (tooltip) : NULL;
}

static void
update_name (GtkWidget *button)
{
  g_autofree char *name = shown_name (button);

  if (name == NULL)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static gboolean
has_own_name (GtkWidget *button)
{
  /* gtk_test_accessible_has_property is the only 4.8 getter of it. */
  return gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL) &&
         g_object_get_data (G_OBJECT (button), OWN_NAME_KEY) == NULL;
}

static void
name_button (GtkWidget *button)
{
  if (has_own_name (button) || g_object_get_data (G_OBJECT (button), OWN_NAME_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (button), OWN_NAME_KEY, GINT_TO_POINTER (TRUE));
  update_name (button);
  g_signal_connect (button, "notify::tooltip-text", G_CALLBACK (update_name), NULL);
  if (GTK_IS_MENU_BUTTON (button) || GTK_IS_BUTTON (button))
    g_signal_connect (button, "notify::label", G_CALLBACK (update_name), NULL);
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
