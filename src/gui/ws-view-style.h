/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/*
 * WsViewStyle: what a drawn view reads from the theme when its CSS
 * changes: whether the theme is dark, the desktop's accent colour and
 * the interface font's family.
 */
typedef struct
{
  gboolean    dark;         /* a light foreground means a dark theme */
  gboolean    has_accent;
  WsColor     accent;       /* if has_accent */
  const char *font_family;  /* the widget's Pango context's; NULL if none */
} WsViewStyle;

void ws_view_style_read (GtkWidget   *widget,
                         WsViewStyle *style);

G_END_DECLS
