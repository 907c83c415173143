/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pin.h"

G_BEGIN_DECLS

WsPin *ws_pin_new_from_json (JsonNode  *node,
                             guint      n_traces,
                             GError   **error);

G_END_DECLS
