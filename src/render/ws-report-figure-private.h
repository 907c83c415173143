/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-report-figure.h"

G_BEGIN_DECLS

/* Between ws-report-figure.c and the builders of other views
 * (ws-report-figure-views.c). */
void ws_report_figure_add_wait         (WsReportFigure     *figure,
                                        WsTrace            *trace,
                                        guint               wait,
                                        const char         *what);
void ws_report_figure_add_frames       (WsReportFigure     *figure,
                                        const char         *title,
                                        const char * const *frames);
void ws_report_figure_register_views   (GHashTable         *builders);
void ws_report_figure_register_mining  (GHashTable         *builders);
void ws_report_figure_register_contrast (GHashTable        *builders);
void ws_report_figure_register_flame  (GHashTable         *builders);

G_END_DECLS
