/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-anomaly-detector.h"

G_BEGIN_DECLS

/* Raised when a member changes meaning or goes; new members keep it.
 * `flag list` and `flag add|remove --dry-run` share it. */
#define WS_FLAG_JSON_SCHEMA_VERSION 1

/**
 * WsFlagDryRun:
 * @tid: the waiting thread
 * @time: the wait's start (ns)
 * @verdict: the flag asked for (%WS_ANOMALY_FLAG_NONE: removed)
 * @reach: what it would change in its kind
 * @threshold: the kind's threshold before the flag
 *
 * What one flag of a dry run would do.
 */
typedef struct {
  gint32        tid;
  WsTime        time;
  WsAnomalyFlag verdict;
  WsFlagReach   reach;
  double        threshold;
} WsFlagDryRun;

/* `flag list --json`: @flags (WsWaitFlag) as the store listed them. */
JsonNode *ws_anomaly_flag_export_list_json    (GArray             *flags);
/* `flag add|remove --dry-run --json`: each wait's @runs, in the order given. */
JsonNode *ws_anomaly_flag_export_dry_run_json (const WsFlagDryRun *runs,
                                               guint               n_runs);

G_END_DECLS
