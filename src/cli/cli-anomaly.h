/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-anomaly-detector.h"
#include "ws-anomaly-export.h"

G_BEGIN_DECLS

/* Options shared by `anomalies`, `model` and `flag`. */
typedef struct {
  char     *history;
  double    threshold;
  char     *rule;
  char     *flag_weights;
  int       depth;
  double    flag_prior;
  double    flag_max_shift;
  char     *flag_model_weight_text;   /* "waits" or a number; NULL: not given */
  gboolean  json;
} CliAnomalyOptions;

void            cli_anomaly_options_clear (CliAnomalyOptions *options);
void            cli_anomaly_add_entries (GOptionContext    *context,
                                         CliAnomalyOptions *options);
gboolean        cli_anomaly_settings    (CliAnomalyOptions *options,
                                         const char        *command,
                                         WsAnomalySettings *settings,
                                         int               *status);
WsHistoryStore *cli_anomaly_open_store  (CliAnomalyOptions *options,
                                         gboolean           create,
                                         GError           **error);

G_END_DECLS
