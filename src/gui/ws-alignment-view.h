/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-alignment-renderer.h"

G_BEGIN_DECLS

/*
 * WsAlignmentView: the aligned patterns of one cluster (#WsAlignmentGrid,
 * drawn by #WsAlignmentRenderer), scrollable in both directions
 * (#GtkScrollable).  Clicking a column selects that pattern
 * (::pattern-activated); clicking or pressing Space on a row marks or
 * unmarks its frames for a signature (::marks-changed); clicking the line
 * of a folded common segment shows it in full.  Keyboard: arrows move the
 * cursor (Left/Right also select the pattern), Space marks, Enter folds or
 * unfolds the common segment under the cursor, Home/End jump to the first
 * / last position.
 */
#define WS_TYPE_ALIGNMENT_VIEW (ws_alignment_view_get_type ())
G_DECLARE_FINAL_TYPE (WsAlignmentView, ws_alignment_view, WS, ALIGNMENT_VIEW, GtkWidget)

GtkWidget           *ws_alignment_view_new                  (void);
void                 ws_alignment_view_set_grid             (WsAlignmentView *self,
                                                             WsAlignmentGrid *grid);
WsAlignmentGrid     *ws_alignment_view_get_grid             (WsAlignmentView *self);
void                 ws_alignment_view_set_selected_pattern (WsAlignmentView *self,
                                                             guint            pattern);
guint                ws_alignment_view_get_selected_pattern (WsAlignmentView *self);
gboolean             ws_alignment_view_get_row_marked       (WsAlignmentView *self,
                                                             guint            row);
void                 ws_alignment_view_set_row_marked       (WsAlignmentView *self,
                                                             guint            row,
                                                             gboolean         marked);
guint                ws_alignment_view_get_n_marked         (WsAlignmentView *self);
void                 ws_alignment_view_clear_marks          (WsAlignmentView *self);
WsAlignmentRenderer *ws_alignment_view_get_renderer         (WsAlignmentView *self);

G_END_DECLS
