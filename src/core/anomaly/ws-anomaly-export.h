/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "ws-anomaly-detector.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it. */
#define WS_ANOMALY_SCHEMA_VERSION 1

/* "anomalous", "normal" or "none": a flag as every output names it. */
const char *ws_anomaly_flag_to_string      (WsAnomalyFlag         flag);

/**
 * ws_anomaly_export_json:
 * @out: where the text goes
 * @result: the detector's result (ws_anomaly_detect())
 * @history: (nullable): the history store's path, or %NULL without one
 * @all: every wait, not only the anomalous and flagged ones
 *
 * The result of `anomalies --json`, as docs/json-schemas.md lists it:
 * the settings, per trace its waits' scores, and every signature's model.
 * Streamed (ws-json-stream.h): with @all, one wait at a time.
 *
 * Returns: whether every byte was written
 */
gboolean    ws_anomaly_export_json         (FILE                 *out,
                                            WsAnomalyResult      *result,
                                            const char           *history,
                                            gboolean              all);
/* One signature's mixture model as a JSON object (`anomalies` lists them). */
void        ws_anomaly_export_model_json   (JsonBuilder          *builder,
                                            const WsAnomalyModel *model);
/* `model show --json`: the same members after the `schema_version`
 * `anomalies` has (the model is the same document). */
JsonNode   *ws_anomaly_export_model_show_json (const WsAnomalyModel *model);

G_END_DECLS
