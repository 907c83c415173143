/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-attribution.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_ATTRIBUTION_SCHEMA_VERSION 1

/**
 * ws_attribution_export_json:
 * @attribution: what held the delays up (ws_attribution_compute())
 * @explained: the sentence saying which delays were explained
 * @picks: (nullable) (element-type WsThreadPick): which program each trace
 *   without scenarios was explained from (ws_why_default_targets())
 * @top: the causes to list, largest first; 0 = all
 *
 * The result of `why --json`, as docs/json-schemas.md lists it: times in
 * ns, stacks caller first.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *ws_attribution_export_json (WsAttribution *attribution,
                                      const char    *explained,
                                      GPtrArray     *picks,
                                      guint          top);

G_END_DECLS
