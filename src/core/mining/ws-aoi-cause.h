/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-aoi.h"
#include "ws-frame-classifier.h"
#include "ws-stack-db.h"

G_BEGIN_DECLS

#define WS_AOI_CAUSE_DEPTH 8

guint ws_aoi_extract_causes (WsAoi             *filter,
                             WsTrace           *trace,
                             const WsEventSet  *scope,
                             WsFrameClassifier *classifier,
                             WsStackDb         *db,
                             guint              stream);

G_END_DECLS
