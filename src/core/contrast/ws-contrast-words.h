/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-contrast.h"
#include "ws-impact.h"

G_BEGIN_DECLS

char *ws_contrast_result_dup_summary (WsContrastResult        *result,
                                      gboolean                 by_trace);
char *ws_contrast_result_dup_terms   (WsContrastResult        *result);
char *ws_contrast_pattern_dup_cost   (const WsContrastPattern *pattern);
char *ws_contrast_pattern_dup_terms  (const WsContrastPattern *pattern);
char *ws_impact_dup_words            (const WsImpact          *impact);
char *ws_impact_dup_terms            (const WsImpact          *impact);

G_END_DECLS
