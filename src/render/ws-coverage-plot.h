/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-export.h"
#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * WsCoverageSeriesStyle:
 * @WS_COVERAGE_SERIES_EMPHASIS: a thick solid line (our ranking)
 * @WS_COVERAGE_SERIES_SOLID: a normal solid line
 * @WS_COVERAGE_SERIES_DASHED: a dashed line (a baseline)
 */
typedef enum {
  WS_COVERAGE_SERIES_EMPHASIS,
  WS_COVERAGE_SERIES_SOLID,
  WS_COVERAGE_SERIES_DASHED,
} WsCoverageSeriesStyle;

/**
 * WsCoveragePalette:
 * @series: the colours given to series 0, 1, 2, 3 (and again from 0)
 */
typedef struct {
  WsColor background;
  WsColor plot_background;
  WsColor foreground;
  WsColor dim_foreground;
  WsColor grid;
  WsColor axis;
  WsColor target;
  WsColor series[4];
} WsCoveragePalette;

void ws_coverage_palette_init_light (WsCoveragePalette *palette);
void ws_coverage_palette_init_dark  (WsCoveragePalette *palette);

typedef struct {
  double x;
  double y;
  double width;
  double height;
} WsCoverageRect;

/*
 * WsCoveragePlot: the bottleneck-coverage chart of StackMine §VII.A
 * (Fig. 4): for each way of choosing which trace streams to inspect (our
 * cluster ranking, Random, Greedy-Total, Greedy-Max), the coverage reached
 * after inspecting 1, 2, … streams, as a staircase.  The x axis counts
 * streams inspected, the y axis is the coverage in percent; a dotted line
 * marks the coverage of all signatures together (the most any order can
 * reach).  Holds a copy of its data; draws into any cairo_t.
 */
#define WS_TYPE_COVERAGE_PLOT (ws_coverage_plot_get_type ())
G_DECLARE_FINAL_TYPE (WsCoveragePlot, ws_coverage_plot, WS, COVERAGE_PLOT, GObject)

WsCoveragePlot          *ws_coverage_plot_new           (void);
void                     ws_coverage_plot_set_palette   (WsCoveragePlot          *self,
                                                         const WsCoveragePalette *palette);
const WsCoveragePalette *ws_coverage_plot_get_palette   (WsCoveragePlot          *self);
void                     ws_coverage_plot_set_font      (WsCoveragePlot          *self,
                                                         const char              *family);
void                     ws_coverage_plot_clear         (WsCoveragePlot          *self);
guint                    ws_coverage_plot_add_series    (WsCoveragePlot          *self,
                                                         const char              *label,
                                                         const double            *coverage,
                                                         guint                    n_points,
                                                         WsCoverageSeriesStyle    style);
guint                    ws_coverage_plot_get_n_series  (WsCoveragePlot          *self);
const WsColor           *ws_coverage_plot_get_series_color (WsCoveragePlot       *self,
                                                         guint                    series);
void                     ws_coverage_plot_set_target    (WsCoveragePlot          *self,
                                                         double                   coverage);
double                   ws_coverage_plot_get_target    (WsCoveragePlot          *self);
void                     ws_coverage_plot_set_n_traces  (WsCoveragePlot          *self,
                                                         guint                    n_traces);
guint                    ws_coverage_plot_get_n_traces  (WsCoveragePlot          *self);
void                     ws_coverage_plot_set_x_title   (WsCoveragePlot          *self,
                                                         const char              *title);
void                     ws_coverage_plot_set_size      (WsCoveragePlot          *self,
                                                         double                   width,
                                                         double                   height);
void                     ws_coverage_plot_get_area      (WsCoveragePlot          *self,
                                                         WsCoverageRect          *area);
void                     ws_coverage_plot_to_device     (WsCoveragePlot          *self,
                                                         double                   traces,
                                                         double                   coverage,
                                                         double                  *px,
                                                         double                  *py);
void                     ws_coverage_plot_draw          (WsCoveragePlot          *self,
                                                         cairo_t                 *cr);
char                    *ws_coverage_plot_describe      (WsCoveragePlot          *self);
gboolean                 ws_coverage_plot_export        (WsCoveragePlot          *self,
                                                         const char              *path,
                                                         WsExportFormat           format,
                                                         double                   width,
                                                         double                   height,
                                                         GError                 **error);

G_END_DECLS
