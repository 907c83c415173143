/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-coverage-plot.h"

G_BEGIN_DECLS

/*
 * WsCoverageView: the bottleneck-coverage chart (#WsCoveragePlot) at the
 * widget's size, in the theme's colours, described in words for screen
 * readers.  Change the plot through ws_coverage_view_get_plot(), then call
 * ws_coverage_view_changed().
 */
#define WS_TYPE_COVERAGE_VIEW (ws_coverage_view_get_type ())
G_DECLARE_FINAL_TYPE (WsCoverageView, ws_coverage_view, WS, COVERAGE_VIEW, GtkWidget)

GtkWidget      *ws_coverage_view_new      (void);
WsCoveragePlot *ws_coverage_view_get_plot (WsCoverageView *self);
void            ws_coverage_view_changed  (WsCoverageView *self);

G_END_DECLS
