/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-impact.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_IMPACT_SCHEMA_VERSION 1

/* `impact --json`, as docs/json-schemas.md lists it: per component of
 * @rows (ws_impact_run()'s, in order) its times in ns and its ratios. */
JsonNode *ws_impact_export_json (const char *scenario,
                                 GArray     *rows);

G_END_DECLS
