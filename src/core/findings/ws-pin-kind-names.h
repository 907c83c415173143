/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The built-in pin kinds' names, as session files store them.  A header of
 * names only, so that a pin (ws-pin.h) can name its kinds without
 * including the registry (ws-pin-kind.h), which includes the kinds' checks
 * and through them the pin.
 */

#define WS_PIN_KIND_TIMELINE      "timeline"
#define WS_PIN_KIND_WAIT_GRAPH    "wait-graph"
#define WS_PIN_KIND_READY_TREE    "ready-tree"
#define WS_PIN_KIND_CRITICAL_PATH "critical-path"
#define WS_PIN_KIND_ALIGNMENT     "alignment"
#define WS_PIN_KIND_COVERAGE      "coverage"
#define WS_PIN_KIND_ANOMALY_MODEL "anomaly-model"
#define WS_PIN_KIND_ATTRIBUTION   "attribution"
#define WS_PIN_KIND_CONTRAST      "contrast"
#define WS_PIN_KIND_AWG           "awg"
#define WS_PIN_KIND_FLAME         "flame-graph"
