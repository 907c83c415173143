/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * WsMarkerLabel:
 * @line_x: the x of the vertical line the label names
 * @width: the label's width in pixels
 * @x: (out): where the label's left edge goes
 * @row: (out): 0 on the top row, 1 on the row under it
 *
 * One label beside a vertical marker line of a plot (the model view's
 * "threshold" and "this wait").
 */
typedef struct {
  double line_x;
  double width;
  double x;
  guint  row;
} WsMarkerLabel;

void ws_marker_labels_place (WsMarkerLabel *a,
                             WsMarkerLabel *b,
                             double         left,
                             double         right,
                             double         gap);

G_END_DECLS
