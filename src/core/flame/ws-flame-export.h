/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* A flame graph as JSON: `waitscope-cli flamegraph --json`. */

#include <json-glib/json-glib.h>

#include "ws-flame-run.h"

G_BEGIN_DECLS

JsonNode *ws_flame_graph_to_json (const WsFlameGraph    *graph,
                                  const WsFlameSettings *settings,
                                  const double          *diff);

G_END_DECLS
