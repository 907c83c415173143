/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "ws-alignment-grid.h"
#include "ws-export.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsAlignmentPalette:
 *
 * The colours of the alignment view.  Common rows and variant cells are
 * told apart by fill (and by the segment names in the gutter, for those
 * who do not see the colours).
 */
typedef struct {
  WsColor background;
  WsColor header_background;
  WsColor foreground;
  WsColor dim_foreground;
  WsColor grid;
  WsColor common;
  WsColor common_edge;
  WsColor variant;
  WsColor variant_edge;
  WsColor gap;
  WsColor selection;
  WsColor marked;
  WsColor hover;
} WsAlignmentPalette;

void ws_alignment_palette_init_light (WsAlignmentPalette *palette);
void ws_alignment_palette_init_dark  (WsAlignmentPalette *palette);

/**
 * WsAlignmentState:
 * @selected_pattern: the pattern (column) to ring, or %WS_NONE
 * @hover_row: the row under the pointer, or %WS_NONE
 * @hover_pattern: the column under the pointer, or %WS_NONE
 * @focus_row: the keyboard cursor's row, or %WS_NONE
 * @focus_pattern: the keyboard cursor's column, or %WS_NONE
 * @marked: (nullable): one byte per row, non-zero for rows whose frames
 *   the analyst picked for a signature
 * @fold_common: fold common segments of 6 rows or more to their first and
 *   last two rows
 * @unfolded: (nullable): one byte per row, non-zero at the first row of
 *   a common segment to show in full anyway
 *
 * What is selected, marked and folded: the interactive state the widget
 * keeps.
 */
typedef struct {
  guint         selected_pattern;
  guint         hover_row;
  guint         hover_pattern;
  guint         focus_row;
  guint         focus_pattern;
  const guint8 *marked;
  gboolean      fold_common;
  const guint8 *unfolded;
} WsAlignmentState;

void ws_alignment_state_init (WsAlignmentState *state);

typedef struct {
  double x;
  double y;
  double width;
  double height;
} WsAlignmentRect;

#define WS_ALIGNMENT_GUTTER_WIDTH  48.0
#define WS_ALIGNMENT_HEADER_HEIGHT 48.0
#define WS_ALIGNMENT_ROW_HEIGHT    24.0
#define WS_ALIGNMENT_COLUMN_GAP     8.0
#define WS_ALIGNMENT_MIN_COLUMN   150.0
#define WS_ALIGNMENT_MAX_COLUMN   320.0

/*
 * WsAlignmentRenderer: draws a #WsAlignmentGrid into any cairo_t (the
 * widget, exports, tests).  Each pattern is a column headed by its title;
 * a common row is one band across all columns, filled with the common
 * colour; a variant row has one cell per pattern, filled with the variant
 * colour, and nothing where the pattern has no frame (a thin line keeps
 * the call path visibly going through).  The gutter names the segments
 * as the paper does: M1, S1, ID1…  Long common segments fold to their
 * first and last two frames around a "⋯ N more" line.
 */
#define WS_TYPE_ALIGNMENT_RENDERER (ws_alignment_renderer_get_type ())
G_DECLARE_FINAL_TYPE (WsAlignmentRenderer, ws_alignment_renderer, WS, ALIGNMENT_RENDERER, GObject)

WsAlignmentRenderer      *ws_alignment_renderer_new           (void);
void                      ws_alignment_renderer_set_palette   (WsAlignmentRenderer      *self,
                                                               const WsAlignmentPalette *palette);
const WsAlignmentPalette *ws_alignment_renderer_get_palette   (WsAlignmentRenderer      *self);
void                      ws_alignment_renderer_set_font      (WsAlignmentRenderer      *self,
                                                               const char               *family);
double                    ws_alignment_renderer_get_column_width (WsAlignmentRenderer   *self,
                                                               WsAlignmentGrid          *grid);
GArray                   *ws_alignment_renderer_get_display   (WsAlignmentRenderer      *self,
                                                               WsAlignmentGrid          *grid,
                                                               const WsAlignmentState   *state);
void                      ws_alignment_renderer_measure       (WsAlignmentRenderer      *self,
                                                               WsAlignmentGrid          *grid,
                                                               const WsAlignmentState   *state,
                                                               double                   *width,
                                                               double                   *height);
gboolean                  ws_alignment_renderer_get_cell_rect (WsAlignmentRenderer      *self,
                                                               WsAlignmentGrid          *grid,
                                                               const WsAlignmentState   *state,
                                                               guint                     row,
                                                               guint                     pattern,
                                                               WsAlignmentRect          *rect);
gboolean                  ws_alignment_renderer_hit_test      (WsAlignmentRenderer      *self,
                                                               WsAlignmentGrid          *grid,
                                                               const WsAlignmentState   *state,
                                                               double                    x,
                                                               double                    y,
                                                               guint                    *row,
                                                               guint                    *pattern,
                                                               guint                    *fold);
void                      ws_alignment_renderer_draw          (WsAlignmentRenderer      *self,
                                                               cairo_t                  *cr,
                                                               WsAlignmentGrid          *grid,
                                                               const WsAlignmentState   *state,
                                                               double                    clip_y0,
                                                               double                    clip_y1);
gboolean                  ws_alignment_renderer_export        (WsAlignmentRenderer      *self,
                                                               WsAlignmentGrid          *grid,
                                                               const char               *path,
                                                               WsExportFormat            format,
                                                               GError                  **error);

G_END_DECLS
