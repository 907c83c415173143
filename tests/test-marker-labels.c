/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The model view's two marker labels ("threshold", "this wait"): over
 * random lines and widths they never overlap and stay inside the plot,
 * each beside its own line; and the case the review met (a wait about as
 * long as the threshold) puts them apart.
 */
#include "config.h"

#include <glib.h>
#include <math.h>

#include "ws-marker-labels.h"

static gboolean
disjoint (const WsMarkerLabel *a,
          const WsMarkerLabel *b)
{
  return a->row != b->row || a->x + a->width <= b->x || b->x + b->width <= a->x;
}

static void
test_close_lines (void)
{
  /* "threshold" 46 px wide at 568, "this wait" 58 px at 630 (the review's
   * 1.26 ms wait and 546 µs threshold at 810 px), and the same two lines
   * 10 px apart: the old placement (each 3–7 px right of its line) put
   * them over each other. */
  const double lines[][2] = { { 568, 630 }, { 600, 610 }, { 610, 600 }, { 700, 700 }, { 780, 784 } };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      WsMarkerLabel a = { .line_x = lines[i][0], .width = 46 }, b = { .line_x = lines[i][1], .width = 58 };
      WsMarkerLabel old_a = { .x = a.line_x + 3, .width = 46 }, old_b = { .x = b.line_x + 7, .width = 58 };

      ws_marker_labels_place (&a, &b, 60, 790, 6);
      g_assert_true (disjoint (&a, &b));
      g_assert_cmpfloat (b.x + b.width, <=, 790);
      if (i >= 1 && i <= 3)
        g_assert_false (disjoint (&old_a, &old_b));   /* what the old code drew */
    }
}

static void
test_random_law (void)
{
  GRand *rand = g_rand_new_with_seed (24);

  for (guint i = 0; i < 100000; i++)
    {
      double left = g_rand_double_range (rand, 0, 200), right = left + g_rand_double_range (rand, 300, 1800);
      WsMarkerLabel a = {
        .line_x = g_rand_double_range (rand, left, right),
        .width = g_rand_double_range (rand, 20, 120),
      };
      WsMarkerLabel b = {
        .line_x = g_rand_boolean (rand) ? a.line_x + g_rand_double_range (rand, -80, 80)
                                        : g_rand_double_range (rand, left, right),
        .width = g_rand_double_range (rand, 20, 120),
      };
      WsMarkerLabel *both[] = { &a, &b };

      b.line_x = CLAMP (b.line_x, left, right);
      ws_marker_labels_place (&a, &b, left, right, 6);
      g_assert_true (disjoint (&a, &b));
      for (guint k = 0; k < 2; k++)
        {
          WsMarkerLabel *l = both[k];
          double reach = MIN (fabs (l->x - l->line_x), fabs (l->x + l->width - l->line_x));

          g_assert_cmpfloat (l->x, >=, left - 1e-9);
          g_assert_cmpfloat (l->x + l->width, <=, right + 1e-9);
          g_assert_cmpuint (l->row, <=, 1);
          /* beside its own line: touching it, or its near edge within the
           * gap of it (or pushed in by the plot's edge) */
          g_assert_true (reach <= 6 + 1e-9 || (l->x <= l->line_x && l->line_x <= l->x + l->width) ||
                         l->x == left || l->x + l->width == right);
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/marker-labels/close-lines", test_close_lines);
  g_test_add_func ("/marker-labels/random-law", test_random_law);
  return g_test_run ();
}
