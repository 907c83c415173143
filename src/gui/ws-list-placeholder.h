/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkLabel *ws_list_placeholder_set (GtkListBox *list,
                                   const char *text);

G_END_DECLS
