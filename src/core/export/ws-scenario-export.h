/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-scenario-summary.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_SCENARIO_SCHEMA_VERSION 1

/**
 * ws_scenario_export_json:
 * @traces: the traces, their scenario instances found
 * @summaries: (element-type WsScenarioSummary): ws_scenario_summarize()
 *   of @traces
 *
 * The result of `scenarios --json`, as docs/json-schemas.md lists it:
 * every trace's instances in order, then per scenario the count and
 * nearest-rank percentiles of the durations; times in ns.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *ws_scenario_export_json (WsTrace * const *traces,
                                   guint            n_traces,
                                   GPtrArray       *summaries);

G_END_DECLS
