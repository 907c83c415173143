/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ws_pivot_columns_add (GtkColumnView        *view,
                           GtkColumnViewColumn **row_column);

G_END_DECLS
