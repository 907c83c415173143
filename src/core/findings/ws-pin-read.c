/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one place a pin is read: its members (ws-pin.c), then its kind's
 * check from the registry (ws-pin-kind.c), for every kind.  A file of its
 * own because the registry's checks (the flame pin's) include the pin:
 * the pin cannot include the registry back.
 */
#include "config.h"

#include "ws-pin-kind.h"
#include "ws-pin-private.h"
#include "ws-pin-read.h"

/**
 * ws_pin_new_from_json:
 * @n_traces: how many traces the session lists (indices are checked)
 *
 * A pin as a session file holds it, refused when a member is wrong or
 * its kind's check (#WsPinKindInfo) says it could not be shown again.
 *
 * Returns: (transfer full) (nullable): the pin, or %NULL with @error
 *   saying which member or setting is wrong (the caller adds file and
 *   position)
 */
WsPin *
ws_pin_new_from_json (JsonNode  *node,
                      guint      n_traces,
                      GError   **error)
{
  g_autoptr(WsPin) pin = _ws_pin_read_members (node, n_traces, error);

  if (pin == NULL || !ws_pin_kind_check (pin, error))
    return NULL;
  return g_steal_pointer (&pin);
}
