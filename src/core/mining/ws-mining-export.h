/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-coverage.h"
#include "ws-mining-run.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it.
 * `mine` and `cluster` share it: their documents share a header. */
#define WS_MINING_SCHEMA_VERSION 1

/**
 * WsMiningExportOptions:
 * @stacks: what was mined: "waiting", "running" or "causes"
 * @scope: the scope as the user gave it ("delaying" by default)
 * @scope_note: (nullable): what the scope left out, or why it matched
 *   nothing (translated)
 * @top: how many patterns (`mine`) or clusters (`cluster`) to list; 0 = all
 * @linkage: `cluster`: the linkage's name
 * @rank: `cluster`: the ranking metric's name
 *
 * What the run does not know of itself and the JSON says.
 */
typedef struct {
  const char *stacks;
  const char *scope;
  const char *scope_note;
  guint       top;
  const char *linkage;
  const char *rank;
} WsMiningExportOptions;

/* StackMine Fig. 4 is read at these shares of the coverage the signatures
 * reach; the text and the JSON alike. */
#define WS_FIG4_N_FRACTIONS 4
extern const double ws_fig4_fractions[WS_FIG4_N_FRACTIONS];
/* The trace streams to inspect, ranked by @ranking, to reach @fraction of
 * the signatures' coverage. */
double    ws_fig4_streams_to_reach          (WsCoverage                  *coverage,
                                             WsRanking                    ranking,
                                             double                       fraction);

/* `mine --json`: the run's header, then its costliest patterns. */
JsonNode *ws_mining_export_patterns_json    (WsMiningResult              *run,
                                             const WsMiningExportOptions *options);
/* `cluster --json`: the run's header, its clusters by rank, and with
 * signatures their coverage. */
JsonNode *ws_mining_export_clusters_json    (WsMiningResult              *run,
                                             const WsMiningExportOptions *options);

G_END_DECLS
