/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *ws_mining_dup_summary (guint  n_patterns,
                             guint  n_clusters,
                             gint64 lambda,
                             gint64 total_cost);
char *ws_mining_dup_terms   (gint64 lambda);
char *ws_mining_dup_unclassed_note (guint       n_traces);
char *ws_mining_dup_discriminative (gint64      score,
                                    const char *magnitude);

G_END_DECLS
