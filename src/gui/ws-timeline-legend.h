/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-timeline-renderer.h"

G_BEGIN_DECLS

/* WsTimelineLegend: what the timeline's colours and dashes mean, drawn by
 * the timeline's own renderer so that it always matches the chart. */
#define WS_TYPE_TIMELINE_LEGEND (ws_timeline_legend_get_type ())
G_DECLARE_FINAL_TYPE (WsTimelineLegend, ws_timeline_legend, WS, TIMELINE_LEGEND, GtkWidget)

GtkWidget *ws_timeline_legend_new          (void);
void       ws_timeline_legend_set_renderer (WsTimelineLegend   *self,
                                            WsTimelineRenderer *renderer);
void       ws_timeline_legend_set_anomaly_threshold  (WsTimelineLegend *self,
                                                      double            threshold);
gboolean   ws_timeline_legend_get_anomaly_key_bounds (WsTimelineLegend *self,
                                                      graphene_rect_t  *bounds);

G_END_DECLS
