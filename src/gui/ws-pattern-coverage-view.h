/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-contrast.h"

G_BEGIN_DECLS

/*
 * WsPatternCoverageView: the paper's RQ2 curve — the share of all contrast
 * patterns' cost covered by the top n % of them in rank order, n = 1..100 —
 * with the 10, 20 and 30 % points marked as in its Table 3.
 */
#define WS_TYPE_PATTERN_COVERAGE_VIEW (ws_pattern_coverage_view_get_type ())
G_DECLARE_FINAL_TYPE (WsPatternCoverageView, ws_pattern_coverage_view, WS, PATTERN_COVERAGE_VIEW, GtkWidget)

GtkWidget *ws_pattern_coverage_view_new        (void);
/* (nullable): clears */
void       ws_pattern_coverage_view_set_result (WsPatternCoverageView *self,
                                                WsContrastResult      *result);

G_END_DECLS
