/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-contrast.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_CONTRAST_SCHEMA_VERSION 1

/**
 * ws_contrast_export_json:
 * @result: ws_contrast_run()'s
 * @scenario: what the instances are, as the user reads it
 * @component: the component of interest (its regular expression)
 * @top: how many patterns to list, best ranked first
 *
 * The result of `contrast --json`, as docs/json-schemas.md lists it: the
 * classes and their counts, ITC, TTC and the top-n % coverage, then the
 * ranked contrast patterns; times in ns.
 *
 * Returns: (transfer full): the JSON object
 */
JsonNode *ws_contrast_export_json (WsContrastResult *result,
                                   const char       *scenario,
                                   const char       *component,
                                   guint             top);

G_END_DECLS
