/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pin.h"

G_BEGIN_DECLS

/* Shared by ws-pin.c (a copy goes through JSON) and ws-pin-read.c (the
 * one reader, which adds the kind's check). */
WsPin *_ws_pin_read_members (JsonNode  *node,
                             guint      n_traces,
                             GError   **error);

G_END_DECLS
