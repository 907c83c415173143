/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-trace.h"

G_BEGIN_DECLS

/*
 * WsDurationHistogram: the distribution of scenario-instance durations
 * with T_fast and T_slow as two vertical lines the user drags; instances
 * left of T_fast are drawn blue (fast class), right of T_slow red (slow),
 * between them grey.  "thresholds-changed" is emitted while dragging.
 */
#define WS_TYPE_DURATION_HISTOGRAM (ws_duration_histogram_get_type ())
G_DECLARE_FINAL_TYPE (WsDurationHistogram, ws_duration_histogram, WS, DURATION_HISTOGRAM, GtkWidget)

GtkWidget *ws_duration_histogram_new            (void);
/* @durations: (array length=n): any order; copied */
void       ws_duration_histogram_set_durations  (WsDurationHistogram *self,
                                                 const WsTime        *durations,
                                                 guint                n);
void       ws_duration_histogram_set_thresholds (WsDurationHistogram *self,
                                                 WsTime               t_fast,
                                                 WsTime               t_slow);
void       ws_duration_histogram_get_thresholds (WsDurationHistogram *self,
                                                 WsTime              *t_fast,
                                                 WsTime              *t_slow);
/* Instances with duration <= T_fast, and >= T_slow. */
void       ws_duration_histogram_count_classes  (WsDurationHistogram *self,
                                                 guint               *n_fast,
                                                 guint               *n_slow);
/* Time ↔ x mapping of the current allocation (for tests and dragging). */
double     ws_duration_histogram_time_to_x      (WsDurationHistogram *self,
                                                 WsTime               t);

G_END_DECLS
