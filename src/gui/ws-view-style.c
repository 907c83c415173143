/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-view-style.h"

void
ws_view_style_read (GtkWidget   *widget,
                    WsViewStyle *style)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  GdkRGBA fg, accent;
  G_GNUC_END_IGNORE_DEPRECATIONS
  const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (context, &fg);
  style->has_accent = gtk_style_context_lookup_color (context, "accent_color", &accent);
  G_GNUC_END_IGNORE_DEPRECATIONS
  style->dark = 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5;
  style->accent = style->has_accent ? (WsColor) { accent.red, accent.green, accent.blue, 1 } : (WsColor) { 0 };
  style->font_family = font != NULL ? pango_font_description_get_family (font) : NULL;
}
