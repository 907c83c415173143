/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-history-store.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it.
 * `history add`, `history stats` and `history top-functions` share it.
 * (WS_HISTORY_SCHEMA_VERSION is the store's SQL schema's.) */
#define WS_HISTORY_JSON_SCHEMA_VERSION 1

/**
 * WsHistoryAddOutcome:
 * @path: the trace as the user named it
 * @digest: (nullable): its content hash, once read
 * @newly: whether the store learnt something of it
 * @error: (nullable): why it could not be read or recorded
 * @not_recorded: it was read, but the store failed (a full disk)
 *
 * What adding one trace to the history store did.
 */
typedef struct {
  char       *path;
  char       *digest;
  gboolean    newly;
  char       *error;
  gboolean    not_recorded;
} WsHistoryAddOutcome;

/* `history add --json`: the store, how many traces were new, known or
 * failed, and each trace's outcome in the order given. */
JsonNode *ws_history_export_add_json           (const char                *history,
                                                const WsHistoryAddOutcome *outcomes,
                                                guint                      n_outcomes);
/* `history stats --json`: what the store at @history holds (@exists
 * FALSE: none yet, and @stats all zero). */
JsonNode *ws_history_export_stats_json         (const char                *history,
                                                gboolean                   exists,
                                                const WsHistoryStats      *stats);
/* `history top-functions --json`: @top (WsHistoryFunction, most
 * callstacks first) and each one's share of the @total callstacks. */
JsonNode *ws_history_export_top_functions_json (const char                *history,
                                                GArray                    *top,
                                                guint64                    total);

G_END_DECLS
