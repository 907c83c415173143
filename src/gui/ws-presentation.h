/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-report.h"

G_BEGIN_DECLS

/**
 * WsPresentation:
 *
 * The findings full screen, one per screen, large type: arrows, Page
 * Up/Down and Space step, Home/End jump, Escape leaves.  Figures are the
 * report's (vector), drawn in the dark palette when the style is dark.
 */
#define WS_TYPE_PRESENTATION (ws_presentation_get_type ())
G_DECLARE_FINAL_TYPE (WsPresentation, ws_presentation, WS, PRESENTATION, GtkWindow)

GtkWindow *ws_presentation_new          (WsReport       *report,
                                         GtkWindow      *parent,
                                         guint           first);
guint      ws_presentation_get_position (WsPresentation *self);
double     ws_presentation_get_text_px  (WsPresentation *self);
void       ws_presentation_step         (WsPresentation *self,
                                         int             delta);

G_END_DECLS
