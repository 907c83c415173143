/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <math.h>

#include "ws-anomaly-detector.h"
#include "ws-export.h"

G_BEGIN_DECLS

void     ws_anomaly_plot_draw   (cairo_t              *cr,
                                 double                width,
                                 double                height,
                                 const WsAnomalyModel *model,
                                 double                marked_log_duration,
                                 gboolean              dark);
gboolean ws_anomaly_plot_export (const char           *path,
                                 const WsAnomalyModel *model,
                                 double                marked_log_duration,
                                 double                width,
                                 double                height,
                                 GError              **error);

void     ws_anomaly_overlay_draw   (cairo_t                  *cr,
                                    const WsTimelineGeometry *geometry,
                                    WsTimelineLayout         *layout,
                                    WsTimelineViewport       *viewport,
                                    double                    scroll_y,
                                    double                    width,
                                    double                    height,
                                    WsAnomalyResult          *result,
                                    guint                     trace);
WsColor  ws_anomaly_score_color    (double                    score,
                                    double                    threshold,
                                    gboolean                  anomalous);
double   ws_anomaly_overlay_legend (cairo_t                  *cr,
                                    double                    x,
                                    double                    y,
                                    double                    threshold,
                                    gboolean                  dark);

G_END_DECLS
