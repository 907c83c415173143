/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The durations of each scenario's instances over a set of traces: what
 * `scenarios` prints as text and as JSON (ws-scenario-export.c).
 */
#include "config.h"

#include "ws-scenario-summary.h"

static void
summary_free (gpointer data)
{
  WsScenarioSummary *s = data;

  g_free (s->name);
  g_array_unref (s->durations);
  g_free (s);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime ta = *(const WsTime *) a, tb = *(const WsTime *) b;
  return ta < tb ? -1 : ta > tb;
}

static WsScenarioSummary *
summary_for (GPtrArray  *summaries,
             GHashTable *by_name,
             const char *name)
{
  WsScenarioSummary *s = g_hash_table_lookup (by_name, name);

  if (s == NULL)
    {
      s = g_new0 (WsScenarioSummary, 1);
      s->name = g_strdup (name);
      s->durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
      g_ptr_array_add (summaries, s);
      g_hash_table_insert (by_name, s->name, s);
    }
  return s;
}

GPtrArray *
ws_scenario_summarize (WsTrace * const *traces,
                       guint            n_traces)
{
  GPtrArray *summaries = g_ptr_array_new_with_free_func (summary_free);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n_traces; i++)
    for (guint k = 0; k < ws_trace_get_n_scenario_instances (traces[i]); k++)
      {
        const WsScenarioInstance *inst = ws_trace_get_scenario_instance (traces[i], k);
        const char *name = ws_trace_get_string (traces[i], inst->scenario);
        WsTime d = inst->t1 - inst->t0;

        g_array_append_val (summary_for (summaries, by_name, name)->durations, d);
      }

  for (guint i = 0; i < summaries->len; i++)
    {
      WsScenarioSummary *s = g_ptr_array_index (summaries, i);
      g_array_sort (s->durations, compare_time);
    }
  return summaries;
}

WsTime
ws_time_percentile (const WsTime *sorted,
                    gsize         n,
                    guint         percent)
{
  gsize rank;

  g_return_val_if_fail (n > 0, 0);
  rank = ((gsize) percent * n + 99) / 100;
  return sorted[CLAMP (rank, 1, n) - 1];
}
