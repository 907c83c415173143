/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The anomaly detector's settings and the names of its rules and model
 * levels (docs/anomaly-detection.md): what ws_anomaly_detect() is given,
 * apart from how it detects.
 */
#include "config.h"

#include <string.h>

#include "ws-anomaly-detector.h"
#include "ws-wait-signature.h"

void
ws_anomaly_settings_init (WsAnomalySettings *settings)
{
  g_return_if_fail (settings != NULL);

  settings->signature_depth = WS_WAIT_SIGNATURE_DEFAULT_DEPTH;
  settings->rule = WS_ANOMALY_RULE_FDR;
  settings->threshold = 0.05;
  settings->reservoir_size = 4096;
  settings->min_samples = 30;
  settings->flag_prior = WS_ANOMALY_DEFAULT_FLAG_PRIOR;
  settings->flag_max_shift = WS_ANOMALY_DEFAULT_FLAG_MAX_SHIFT;
  settings->flag_model_weight = WS_ANOMALY_DEFAULT_FLAG_MODEL_WEIGHT;
  settings->flag_weights = WS_FLAG_WEIGHTS_POSTERIOR;
  ws_gmm_settings_init (&settings->gmm);
  settings->threads = 0;
}

/**
 * ws_anomaly_settings_model_weight:
 * @n_samples: the kind's waits (its model's data)
 *
 * What the model's verdicts on a kind of @n_samples waits weigh in all,
 * in flags: the setting, or with %WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS one
 * flag a wait (docs/anomaly-detection.md, "Flags and the learning rule").
 */
double
ws_anomaly_settings_model_weight (const WsAnomalySettings *settings,
                                  guint                    n_samples)
{
  return settings->flag_model_weight == WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS ? n_samples : settings->flag_model_weight;
}

const char *
ws_model_level_to_string (WsModelLevel level)
{
  switch (level)
    {
    case WS_MODEL_LEVEL_SIGNATURE: return "signature";
    case WS_MODEL_LEVEL_POOL:      return "pool";
    case WS_MODEL_LEVEL_GLOBAL:    return "global";
    default:                       return "?";
    }
}

const char *
ws_anomaly_rule_to_string (WsAnomalyRule rule)
{
  return rule == WS_ANOMALY_RULE_TAIL ? "tail" : "fdr";
}

gboolean
ws_anomaly_rule_from_string (const char    *name,
                             WsAnomalyRule *rule)
{
  if (g_strcmp0 (name, "fdr") == 0)
    *rule = WS_ANOMALY_RULE_FDR;
  else if (g_strcmp0 (name, "tail") == 0)
    *rule = WS_ANOMALY_RULE_TAIL;
  else
    return FALSE;
  return TRUE;
}
