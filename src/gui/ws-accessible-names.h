/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * Names for the buttons a screen reader would otherwise read badly.
 * GTK 4.8 names an icon-only button after its image ("GtkImage"), a menu
 * button after its class, and a button with a mnemonic after its raw label
 * and its child ("_Open Open").  This gives each button under a root the
 * words a sighted user reads: its label without the mnemonic underscore,
 * else its tooltip (an icon button's tooltip is its name), and keeps the
 * name in step when the tooltip changes.  A name the code set explicitly
 * (gtk_accessible_update_property) is left alone.
 */

void ws_accessible_names_apply (GtkWidget *root);

G_END_DECLS
