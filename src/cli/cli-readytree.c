/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli readytree: the ready tree of the longest (lock-related)
 * wait of a thread in a window, with its anomalous chain, as JSON or DOT.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "ws-anomaly-detector.h"
#include "cli-symptom.h"
#include "ws-chain.h"
#include "ws-graph-export.h"
#include "ws-ready-tree-run.h"

int cli_readytree (int argc, char **argv);

/* Scores the trace's waits (history store read, never written) and marks
 * the tree's anomalous nodes; returns -1 on success, an exit status else. */
static int
mark_anomalous (WsTrace     *trace,
                WsReadyTree *tree)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = ws_history_store_trace_digest (trace, &error);
  g_autofree char *path = ws_history_store_default_path ();
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(WsAnomalyResult) result = NULL;
  WsAnomalySettings settings;

  if (digest == NULL)
    return cli_fail (error);
  if (g_file_test (path, G_FILE_TEST_EXISTS) && (store = ws_history_store_open (path, &error)) == NULL)
    return cli_fail (error);
  ws_anomaly_settings_init (&settings);
  result = ws_anomaly_detect (&trace, (const char * const *) &digest, 1, store, &settings, NULL, NULL, NULL, &error);
  if (result == NULL)
    return cli_fail (error);
  ws_anomaly_result_mark_ready_tree (result, 0, tree);
  return -1;
}

int
cli_readytree (int    argc,
               char **argv)
{
  static const char * const formats[] = { "json", "dot", NULL };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = NULL;
  g_autoptr(WsReadyTree) tree = NULL;
  g_autofree char *metric_name = NULL;
  CliSymptomOptions options;
  WsReadyTreeSettings settings;
  WsChainMetric metric = WS_CHAIN_METRIC_DEFAULT;
  WsSymptom symptom;
  gboolean lock_only = FALSE;
  int max_depth = WS_READY_TREE_DEFAULT_MAX_DEPTH;
  int max_nodes = WS_READY_TREE_DEFAULT_MAX_NODES;
  int root_event = -1;
  int status;
  const GOptionEntry entries[] = {
    { "lock-only", 0, 0, G_OPTION_ARG_NONE, &lock_only,
      N_("Start from the longest lock-related wait and stop at waits that are not lock-related"), NULL },
    { "max-depth", 0, 0, G_OPTION_ARG_INT, &max_depth,
      N_("Do not expand nodes deeper than N (default 32)"), "N" },
    { "max-nodes", 0, 0, G_OPTION_ARG_INT, &max_nodes,
      N_("Stop growing the tree at N nodes (default 100000)"), "N" },
    { "chain-metric", 0, 0, G_OPTION_ARG_STRING, &metric_name,
      N_("How the anomalous chain is chosen: average (default), median, total, count or max"), N_("METRIC") },
    { "event", 0, 0, G_OPTION_ARG_INT, &root_event,
      N_("Start from this wait event (an index from waitgraph's output) instead of the longest wait"), N_("INDEX") },
    { NULL }
  };

  context = cli_symptom_context_new (&options, _("[TRACE] — the ready tree of a thread's longest wait in a window"),
    _("The root is the thread's longest wait starting in the window.  The children of a wait "
      "are the waits of the thread that readied it which overlap it before the wake-up; "
      "expansion stops at timer / interrupt / heartbeat wake-ups (false runs), unknown "
      "readiers, the depth limit, the start of the trace and, with --lock-only, waits that "
      "are not lock-related.  Formats: json (default), dot."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!cli_parse_options (context, "readytree", &argc, &argv, &status))
    goto out;
  if (metric_name != NULL && !ws_chain_metric_from_string (metric_name, &metric))
    {
      g_autofree char *names = ws_chain_metric_dup_names (", ");
      status = cli_usage_error ("readytree", _("unknown chain metric “%s” (expected one of %s)"), metric_name, names);
      goto out;
    }
  if (max_depth < 0 || max_depth > G_MAXUINT16 || max_nodes < 1)
    {
      status = cli_usage_error ("readytree", _("--max-depth must be 0…65535 and --max-nodes at least 1"));
      goto out;
    }
  status = cli_symptom_resolve ("readytree", &options, argc, argv, root_event < 0, formats,
                                &trace, &symptom, &classifier);
  if (status >= 0)
    goto out;

  ws_ready_tree_settings_init (&settings, &symptom);
  settings.root_event = root_event >= 0 ? (guint) root_event : WS_NONE;
  settings.options.lock_only = lock_only;
  settings.options.max_depth = max_depth;
  settings.options.max_nodes = max_nodes;
  settings.options.classifier = classifier;
  tree = ws_ready_tree_run (trace, &settings, NULL, NULL, NULL, &error);
  if (tree == NULL)
    {
      status = cli_fail (error);
      goto out;
    }

  /* "Most anomalous waits" needs the anomaly models (read-only). */
  if (metric == WS_CHAIN_METRIC_ANOMALOUS && (status = mark_anomalous (trace, tree)) >= 0)
    goto out;
  status = -1;

  if (g_str_equal (options.format, "dot"))
    {
      g_autofree char *dot = ws_graph_export_ready_tree_dot (tree, metric);
      status = cli_symptom_write (&options, dot);
    }
  else
    {
      g_autoptr(JsonNode) json = ws_graph_export_ready_tree_json (tree, metric);
      status = cli_symptom_write_json (&options, json);
    }

out:
  cli_symptom_options_clear (&options);
  return status;
}
