/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char *ws_json_text_from_node (JsonNode *node);

G_END_DECLS
