/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void ws_sort_log_durations   (double       *x,
                              gsize         n);
void ws_merge_sorted_doubles (const double *a,
                              gsize         n_a,
                              const double *b,
                              gsize         n_b,
                              double       *out);

G_END_DECLS
