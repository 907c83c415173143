/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-pin-kind-names.h"

G_BEGIN_DECLS

typedef struct _WsPin WsPin;

/**
 * WsPinKindCheck:
 * @pin: a pin of the kind, just read from a session file
 * @error: what is wrong, in words that name the setting
 *
 * Whether a pin of the kind could be shown again: its settings (which
 * only the kind knows) are of the right types and values.
 *
 * Returns: %FALSE with @error set when not
 */
typedef gboolean (*WsPinKindCheck) (WsPin   *pin,
                                    GError **error);

/**
 * WsPinKindInfo:
 * @name: the stable name stored in session files ("ready-tree")
 * @label: a translatable label for people ("Ready tree"), untranslated here
 * @needs_thread: whether a pin of this kind must name a thread
 * @multi_trace: whether it may span several traces (mining views)
 * @check: (nullable): refuses a pin whose settings the kind cannot show;
 *   the one reader of pins (ws_pin_new_from_json()) calls it for every
 *   pin of the kind
 *
 * One kind of view that can be pinned.  The built-in kinds are the views
 * that exist; a new page registers its own kind with
 * ws_pin_kind_register() so its pins survive in session files even
 * before the report knows how to draw them.
 */
typedef struct {
  const char     *name;
  const char     *label;
  gboolean        needs_thread;
  gboolean        multi_trace;
  WsPinKindCheck  check;
} WsPinKindInfo;

void                     ws_pin_kind_register (const WsPinKindInfo *info);
const WsPinKindInfo *ws_pin_kind_lookup   (const char              *name);
/* Returns: (transfer container): the registered names, built-ins first. */
GPtrArray               *ws_pin_kind_list     (void);
gboolean                 ws_pin_kind_check    (WsPin                   *pin,
                                               GError                 **error);

G_END_DECLS
