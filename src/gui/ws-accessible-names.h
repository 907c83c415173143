/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * Names for the buttons a screen reader would otherwise read badly.
 * GTK 4.8 names an icon-only button after its image ("GtkImage"), a menu
 * button after its class, and a button with a mnemonic after its raw label
 * and its child ("_Open Open").  This gives each button under a root the
 * words a sighted user reads: a labelled button is named by its label
 * child alone (GTK's raw copy of the label is dropped), an icon button by
 * its tooltip, kept in step when the tooltip or label changes.  An icon
 * button the code named itself, and the inner toggle of a menu button or
 * drop-down (named by its owner), are left alone.
 */

void ws_accessible_names_apply (GtkWidget *root);

G_END_DECLS
