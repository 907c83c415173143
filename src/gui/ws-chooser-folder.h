/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GFile *ws_chooser_start_folder     (GtkWidget      *from);
void   ws_chooser_set_start_folder (GtkFileChooser *chooser,
                                    GtkWidget      *from);

G_END_DECLS
