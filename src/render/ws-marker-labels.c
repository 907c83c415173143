/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Two labels beside two vertical lines that may be close together: the
 * model view drew "threshold" and "this wait" over each other when a wait
 * lasted about the threshold, and cut "this wait" at the right edge.
 */
#include "config.h"

#include "ws-marker-labels.h"

/* Beside its line, on the right unless that runs past @right. */
static void
beside (WsMarkerLabel *l,
        double         left,
        double         right,
        double         gap,
        gboolean       prefer_left)
{
  double on_right = l->line_x + gap, on_left = l->line_x - gap - l->width;

  if (prefer_left ? on_left >= left : on_right + l->width > right)
    l->x = MAX (on_left, left);
  else
    l->x = MIN (on_right, MAX (left, right - l->width));
}

static gboolean
overlap (const WsMarkerLabel *a,
         const WsMarkerLabel *b)
{
  return a->row == b->row && a->x < b->x + b->width && b->x < a->x + a->width;
}

/**
 * ws_marker_labels_place:
 * @a: the first label (the threshold's)
 * @b: the second (the marked wait's)
 * @left, @right: the plot's horizontal extent
 * @gap: pixels between a line and its label
 *
 * Places both labels beside their lines inside [@left, @right] so that
 * they never overlap: each on the right of its line unless that runs out
 * of the plot, the left one turned to the left when they would meet, and
 * @b moved down a row when they still would.
 */
void
ws_marker_labels_place (WsMarkerLabel *a,
                        WsMarkerLabel *b,
                        double         left,
                        double         right,
                        double         gap)
{
  a->row = b->row = 0;
  beside (a, left, right, gap, FALSE);
  beside (b, left, right, gap, FALSE);
  if (!overlap (a, b))
    return;
  /* Turn the label of the line further left to the left of its line. */
  if (a->line_x <= b->line_x)
    beside (a, left, right, gap, TRUE);
  else
    beside (b, left, right, gap, TRUE);
  if (overlap (a, b))
    b->row = 1;
}
