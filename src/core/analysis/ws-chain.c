/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Chain metrics and the anomalous chain of a ready tree (the patent's
 * chain-based anomaly detection): by default the root-to-leaf chain whose
 * waits are longest on average, since then every thread on it waited long.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "ws-chain.h"

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? -1 : x > y;
}

void
ws_chain_metrics_compute (const WsTime   *waits,
                          guint           n,
                          WsChainMetrics *metrics)
{
  g_autofree WsTime *sorted = NULL;

  g_return_if_fail (n == 0 || waits != NULL);
  g_return_if_fail (metrics != NULL);

  memset (metrics, 0, sizeof *metrics);
  if (n == 0)
    return;

  sorted = g_memdup2 (waits, n * sizeof (WsTime));
  qsort (sorted, n, sizeof (WsTime), compare_time);

  metrics->count = n;
  for (guint i = 0; i < n; i++)
    metrics->total += sorted[i];
  metrics->max = sorted[n - 1];
  metrics->average = (double) metrics->total / n;
  metrics->median = n % 2 ? (double) sorted[n / 2]
                          : ((double) sorted[n / 2 - 1] + (double) sorted[n / 2]) / 2.0;
}

/*
 * The one table of chain metrics: the enum's order, the names the CLI and
 * the JSON export use, the labels of the GUI's dropdown and what each one
 * means.  Everything that lists the metrics walks this table, so a new
 * metric is one row here plus its enum value.
 */
typedef struct {
  const char *name;
  const char *label;
  const char *description;
  double    (*get) (const WsChainMetrics *metrics);
} MetricInfo;

static double get_average (const WsChainMetrics *m) { return m->average; }
static double get_median  (const WsChainMetrics *m) { return m->median; }
static double get_total   (const WsChainMetrics *m) { return (double) m->total; }
static double get_count   (const WsChainMetrics *m) { return (double) m->count; }
static double get_max     (const WsChainMetrics *m) { return (double) m->max; }
/* The count, then the average as a tie-break below one unit. */
static double get_anomalous (const WsChainMetrics *m) { return m->n_anomalous + m->average / (1.0 + m->average); }

static const MetricInfo metric_info[WS_N_CHAIN_METRICS] = {
  [WS_CHAIN_METRIC_AVERAGE] = { "average", N_("Average wait"),
                                N_("Mean wait of the chain: every thread on it waited long"), get_average },
  [WS_CHAIN_METRIC_MEDIAN]  = { "median", N_("Median wait"),
                                N_("Median wait of the chain: one outlier does not decide"), get_median },
  [WS_CHAIN_METRIC_TOTAL]   = { "total", N_("Total wait"),
                                N_("Sum of the chain's waits: long chains win"), get_total },
  [WS_CHAIN_METRIC_COUNT]   = { "count", N_("Wait count"),
                                N_("Number of waits on the chain: the deepest chain wins"), get_count },
  [WS_CHAIN_METRIC_MAX]     = { "max", N_("Longest wait"),
                                N_("Longest single wait of the chain (often the root's)"), get_max },
  [WS_CHAIN_METRIC_ANOMALOUS] = { "anomalous", N_("Most anomalous waits"),
                                  N_("Number of waits the anomaly models or your flags call anomalous"),
                                  get_anomalous },
};

double
ws_chain_metrics_get (const WsChainMetrics *metrics,
                      WsChainMetric         metric)
{
  g_return_val_if_fail (metrics != NULL, 0.0);
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, 0.0);

  return metric_info[metric].get (metrics);
}

const char *
ws_chain_metric_to_string (WsChainMetric metric)
{
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);
  return metric_info[metric].name;
}

const char *
ws_chain_metric_get_label (WsChainMetric metric)
{
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);
  return _(metric_info[metric].label);
}

const char *
ws_chain_metric_get_description (WsChainMetric metric)
{
  g_return_val_if_fail (metric < WS_N_CHAIN_METRICS, NULL);
  return _(metric_info[metric].description);
}

/**
 * ws_chain_metric_dup_names:
 *
 * Returns: (transfer full): the metric names in enum order, joined by
 *   @separator (for usage messages), e.g. "average, median, total"
 */
char *
ws_chain_metric_dup_names (const char *separator)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < WS_N_CHAIN_METRICS; i++)
    {
      if (i > 0)
        g_string_append (out, separator);
      g_string_append (out, metric_info[i].name);
    }
  return g_string_free (out, FALSE);
}

gboolean
ws_chain_metric_from_string (const char    *str,
                             WsChainMetric *metric)
{
  g_return_val_if_fail (metric != NULL, FALSE);

  for (guint i = 0; i < WS_N_CHAIN_METRICS; i++)
    if (g_strcmp0 (str, metric_info[i].name) == 0)
      {
        *metric = i;
        return TRUE;
      }
  return FALSE;
}
