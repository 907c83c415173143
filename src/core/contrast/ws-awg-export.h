/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-awg.h"

G_BEGIN_DECLS

/* Adds the forest as a JSON object: {"graphs", "total_cost_ns",
 * "pruned_cost_ns", "nodes": [{"id", "parent", "kind", "w", "u", "r",
 * "c_ns", "n", "c_max_ns", "instances"}…], "roots": […]} to @builder. */
void  ws_awg_export_json (WsAwg       *awg,
                          JsonBuilder *builder);
/* Graphviz DOT; @highlight (nullable): node → TRUE for nodes to draw bold. */
char *ws_awg_export_dot  (WsAwg       *awg,
                          const char  *name,
                          const gboolean *highlight);

G_END_DECLS
