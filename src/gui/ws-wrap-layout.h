/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * WsWrapLayout:
 *
 * Children in rows, each at its natural width, wrapping onto a new row
 * when the next does not fit; a row's last child with halign END goes to
 * the row's right end.  For toolbars that must show every button at
 * 1280×720.
 */
#define WS_TYPE_WRAP_LAYOUT (ws_wrap_layout_get_type ())
G_DECLARE_FINAL_TYPE (WsWrapLayout, ws_wrap_layout, WS, WRAP_LAYOUT, GtkLayoutManager)

GtkLayoutManager *ws_wrap_layout_new (int spacing,
                                      int row_spacing);

G_END_DECLS
