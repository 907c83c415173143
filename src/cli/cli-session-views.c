/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `waitscope-cli session pin` for the views that rerun an analysis over
 * several traces: a Mining cluster (alignment) or the bottleneck coverage
 * of signatures, with the Mining page's choices (scope, stack kind,
 * threads, critical path, filters, λ, threshold); a contrast pattern or an
 * aggregated wait graph, with the Contrast page's (scenario, component,
 * T_fast / T_slow).  The analysis runs here once, so a pin that names no
 * cluster or pattern mining or contrast can find fails now, not in the
 * report.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cli-common.h"
#include "cli-session.h"
#include "ws-pin-contrast.h"
#include "ws-pin-mining.h"
#include "ws-pin-flame.h"

void
cli_pin_options_clear (CliPinOptions *o)
{
  g_free (o->view);
  g_strfreev (o->traces);
  g_free (o->from);
  g_free (o->to);
  g_free (o->chain_metric);
  g_free (o->title);
  g_free (o->note);
  g_free (o->scope);
  g_free (o->threads);
  g_free (o->must);
  g_free (o->must_not);
  g_free (o->lambda);
  g_strfreev (o->signatures);
  g_free (o->rank);
  g_strfreev (o->run_classes);
  g_clear_pointer (&o->classes, g_array_unref);
  g_free (o->scenario);
  g_free (o->component);
  g_free (o->t_fast);
  g_free (o->t_slow);
  g_free (o->awg_class);
  g_free (o->flame_mode);
  g_free (o->zoom);
  g_free (o->search);
}

/* The options of the Mining and Contrast views, in a group of their own
 * so `session pin --help-views` lists them apart. */
GOptionGroup *
cli_pin_view_options (CliPinOptions *o)
{
  const GOptionEntry entries[] = {
    { "scope", 0, 0, G_OPTION_ARG_STRING, &o->scope,
      N_("Alignment, coverage: delaying (the default), all, instances, instance-graphs or window-graph (--tid, --from, --to); flame-graph: trace, window (--from, --to) or thread (--tid too)"), N_("SCOPE") },
    { "running", 0, 0, G_OPTION_ARG_NONE, &o->running, N_("Alignment, coverage: mine sampled running stacks"), NULL },
    { "threads", 0, 0, G_OPTION_ARG_STRING, &o->threads, N_("Alignment, coverage: only threads whose name matches"), N_("REGEX") },
    { "critical-path", 0, 0, G_OPTION_ARG_NONE, &o->critical_path, N_("Alignment, coverage: graph scopes keep the critical path only"), NULL },
    { "must", 0, 0, G_OPTION_ARG_STRING, &o->must, N_("Alignment, coverage: keep stacks with a frame matching REGEX"), N_("REGEX") },
    { "must-not", 0, 0, G_OPTION_ARG_STRING, &o->must_not, N_("Alignment, coverage: drop stacks with a frame matching REGEX"), N_("REGEX") },
    { "lambda", 0, 0, G_OPTION_ARG_STRING, &o->lambda, N_("Alignment, coverage: the cost threshold λ (default: the guideline)"), N_("TIME") },
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &o->threshold, N_("Alignment: the similarity at which clusters merge (0…1)"), "X" },
    { "signature", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->signatures,
      N_("Coverage: a signature, function names caller first (F1,F2,…); repeatable"), N_("F1,F2") },
    { "rank", 0, 0, G_OPTION_ARG_STRING, &o->rank,
      N_("Alignment: rank clusters by total cost, or by what slow traces have more of (needs a slow and a fast trace: --run-class or the session’s classes)"),
      N_("total|discriminative") },
    { "run-class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->run_classes,
      N_("Alignment, coverage: the class of each --trace in order (slow, fast or none), saved in the session’s trace classes"),
      N_("CLASS") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING, &o->scenario, N_("Contrast, awg: the scenario (default: the traces' only one)"), N_("NAME") },
    { "component", 0, 0, G_OPTION_ARG_STRING, &o->component, N_("Contrast, awg: the component expression"), N_("REGEX") },
    { "widen", 0, 0, G_OPTION_ARG_NONE, &o->widen, N_("Contrast, awg: signatures are “function ← caller”"), NULL },
    { "t-fast", 0, 0, G_OPTION_ARG_STRING, &o->t_fast, N_("Contrast, awg: fast instances last at most this (default: the median)"), N_("TIME") },
    { "t-slow", 0, 0, G_OPTION_ARG_STRING, &o->t_slow, N_("Contrast, awg: slow instances last at least this (default: the 90th percentile)"), N_("TIME") },
    { "pattern", 0, 0, G_OPTION_ARG_INT, &o->pattern, N_("Contrast: the pattern, from 0 (the page’s #N+1)"), "N" },
    { "class", 0, 0, G_OPTION_ARG_STRING, &o->awg_class, N_("Awg: slow (the default) or fast"), N_("CLASS") },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &o->flame_mode, N_("Flame-graph: on-cpu (the default), off-cpu or off-wake"), N_("MODE") },
    { "zoom", 0, 0, G_OPTION_ARG_STRING, &o->zoom, N_("Flame-graph: the zoomed frame, its path from the root's child (F1;F2;…)"), N_("PATH") },
    { "search", 0, 0, G_OPTION_ARG_STRING, &o->search, N_("Flame-graph: frames to highlight"), N_("REGEX") },
    { "icicle", 0, 0, G_OPTION_ARG_NONE, &o->icicle, N_("Flame-graph: the root at the top"), NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("views", _("Options of the Mining, Contrast and Flame Graph views:"),
                                            _("Show the options of the Mining, Contrast and Flame Graph views"), NULL, NULL);

  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_group_add_entries (group, entries);
  return group;
}

/* ------------------------------------------------------------------ */
/* Mining                                                               */

static gboolean
parse_scope (const char       *text,
             WsMiningRunScope *scope)
{
  static const struct { const char *name; WsMiningRunScope scope; } scopes[] = {
    { "delaying", WS_MINING_RUN_SCOPE_DELAYING },
    { "all", WS_MINING_RUN_SCOPE_ALL },
    { "instances", WS_MINING_RUN_SCOPE_INSTANCES },
    { "instance-graphs", WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS },
    { "window-graph", WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH },
  };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (scopes); i++)
    if (g_str_equal (text, scopes[i].name))
      {
        *scope = scopes[i].scope;
        return TRUE;
      }
  return text == NULL;
}

/* The Mining page's form as options; -1, or the exit status. */
static int
mining_settings (WsPin            *pin,
                 GPtrArray        *traces,
                 CliPinOptions    *o,
                 WsMiningSettings *s)
{
  g_autoptr(GError) error = NULL;
  WsTime t0, t1;

  ws_mining_settings_init (s);
  s->cluster = TRUE;
  s->record_history = FALSE;
  /* As the Mining page mines instance scopes: a stream per instance. */
  s->per_instance = TRUE;
  if (!parse_scope (o->scope, &s->scope))
    return cli_usage_error ("session pin", _("unknown scope “%s”: use delaying, all, instances, instance-graphs or window-graph"), o->scope);
  s->stacks = o->running ? WS_AOI_RUNNING : WS_AOI_WAITING;
  s->thread_names = o->threads;
  s->critical_path = o->critical_path;
  if (o->lambda != NULL && !cli_parse_time (o->lambda, &s->lambda, &error))
    return cli_usage_error ("session pin", "--lambda: %s", error->message);
  if (o->threshold != 0)
    {
      if (o->threshold < 0 || o->threshold > 1)
        return cli_usage_error ("session pin", "%s", _("--threshold must be between 0 and 1"));
      s->threshold = o->threshold;
    }
  if (g_strcmp0 (o->rank, "discriminative") == 0)
    s->rank = WS_CLUSTER_RANK_DISCRIMINATIVE;
  else if (o->rank != NULL && !g_str_equal (o->rank, "total"))
    return cli_usage_error ("session pin", _("unknown order “%s”: use total or discriminative"), o->rank);
  /* The session's classes of the pinned traces: the run scores what slow
   * traces have more of, and the pin keeps them (ws_pin_set_mining()). */
  s->classes = o->classes != NULL ? (const WsRunClass *) (gconstpointer) o->classes->data : NULL;
  if (s->rank == WS_CLUSTER_RANK_DISCRIMINATIVE)
    {
      gboolean slow = FALSE, fast = FALSE;

      for (guint i = 0; o->classes != NULL && i < o->classes->len; i++)
        {
          slow |= g_array_index (o->classes, WsRunClass, i) == WS_RUN_CLASS_SLOW;
          fast |= g_array_index (o->classes, WsRunClass, i) == WS_RUN_CLASS_FAST;
        }
      if (!slow || !fast)
        return cli_usage_error ("session pin", "%s", _("--rank discriminative needs a slow and a fast trace among "
                                                       "the pinned ones (--run-class, or the session’s classes)"));
    }
  if (s->scope == WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH)
    {
      guint thread = ws_trace_find_thread (g_ptr_array_index (traces, 0), ws_pin_get_tid (pin));

      if (thread == WS_NONE || !ws_pin_get_window (pin, &t0, &t1))
        return cli_usage_error ("session pin", "%s", _("--scope window-graph needs --tid, --from and --to"));
      s->symptom_trace = 0;
      s->symptom = (WsSymptom) { thread, t0, t1 };
    }
  if (!ws_mining_settings_check (s, &error))
    return cli_usage_error ("session pin", "%s", error->message);
  return -1;
}

/* The smallest frame id of @function in @table, or WS_NONE. */
static WsFrameId
find_function (WsStackTable *table,
               const char   *function)
{
  for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
    if (g_strcmp0 (ws_stack_table_get_frame (table, f)->function, function) == 0)
      return f;
  return WS_NONE;
}

static int
add_signatures (WsPin          *pin,
                WsMiningResult *run,
                CliPinOptions  *o)
{
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);

  for (guint i = 0; o->signatures[i] != NULL; i++)
    {
      g_auto(GStrv) names = g_strsplit (o->signatures[i], ",", -1);
      g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
      g_autofree char *name = g_strdup_printf (_("S%u · %s"), i + 1, o->signatures[i]);

      for (guint k = 0; names[k] != NULL; k++)
        {
          WsFrameId f = find_function (table, g_strstrip (names[k]));

          if (f == WS_NONE)
            {
              fprintf (stderr, _("waitscope-cli: --signature %s: no function “%s” in the stacks mined\n"),
                       o->signatures[i], names[k]);
              return CLI_EXIT_INPUT;
            }
          g_array_append_val (frames, f);
        }
      ws_pin_add_signature (pin, name, table, (const WsFrameId *) (gpointer) frames->data, frames->len);
    }
  return -1;
}

/**
 * cli_pin_mining:
 *
 * An alignment pin (the cluster --cluster names) or a coverage pin (the
 * signatures --signature names) of the mining run the options describe.
 */
int
cli_pin_mining (WsPin         *pin,
                GPtrArray     *traces,
                CliPinOptions *o)
{
  const char *must[2] = { o->must, NULL }, *must_not[2] = { o->must_not, NULL };
  gboolean coverage = g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_COVERAGE);
  g_autoptr(WsMiningResult) run = NULL;
  g_autoptr(GError) error = NULL;
  WsMiningSettings s;
  int status;

  if (coverage && (o->signatures == NULL || o->signatures[0] == NULL))
    return cli_usage_error ("session pin", "%s", _("a coverage pin needs at least one --signature"));
  if ((status = mining_settings (pin, traces, o, &s)) >= 0)
    return status;
  s.must = o->must ? must : NULL;
  s.must_not = o->must_not ? must_not : NULL;
  s.cluster = !coverage;
  run = ws_mining_run (traces, &s, NULL, NULL, NULL, &error);
  if (run == NULL)
    return cli_fail (error);
  ws_pin_set_mining (pin, &s, run);
  if (coverage)
    return add_signatures (pin, run, o);
  if (run->clusters == NULL || (guint) MAX (o->cluster, 0) >= ws_cluster_set_get_n_clusters (run->clusters))
    {
      fprintf (stderr, _("waitscope-cli: %s: no cluster %d (mining found %u)\n"),
               ws_trace_get_path (g_ptr_array_index (traces, 0)), MAX (o->cluster, 0),
               run->clusters ? ws_cluster_set_get_n_clusters (run->clusters) : 0);
      return CLI_EXIT_INPUT;
    }
  ws_pin_set_cluster (pin, run, MAX (o->cluster, 0));
  return -1;
}

/* ------------------------------------------------------------------ */
/* Contrast                                                             */

/* --scenario, or the only scenario the traces have. */
static char *
pick_scenario (GPtrArray     *traces,
               CliPinOptions *o,
               int           *status)
{
  g_auto(GStrv) names = ws_instance_set_list_scenarios (traces);

  if (o->scenario != NULL)
    return g_strdup (o->scenario);
  if (names[0] != NULL && names[1] == NULL)
    return g_strdup (names[0]);
  *status = cli_usage_error ("session pin", names[0] == NULL ? _("the traces have no scenario instances")
                                                             : _("the traces have several scenarios: give --scenario"));
  return NULL;
}

static int
contrast_settings (CliPinOptions      *o,
                   WsContrastSettings *s)
{
  g_autoptr(GError) error = NULL;

  if (o->component == NULL || *o->component == '\0')
    return cli_usage_error ("session pin", "%s", _("a contrast or awg pin needs --component"));
  s->component = o->component;
  s->widen = o->widen;
  if ((o->t_fast != NULL && !cli_parse_time (o->t_fast, &s->t_fast, &error)) ||
      (o->t_slow != NULL && !cli_parse_time (o->t_slow, &s->t_slow, &error)))
    return cli_usage_error ("session pin", "%s", error->message);
  if (s->t_fast > 0 && s->t_slow > 0 && s->t_slow < s->t_fast)
    return cli_usage_error ("session pin", "%s", _("--t-slow is shorter than --t-fast"));
  if (o->awg_class != NULL && !g_str_equal (o->awg_class, "slow") && !g_str_equal (o->awg_class, "fast"))
    return cli_usage_error ("session pin", _("--class must be slow or fast, not “%s”"), o->awg_class);
  return -1;
}

/**
 * cli_pin_contrast:
 *
 * A contrast-pattern pin (the pattern --pattern names) or an aggregated
 * wait graph pin (--class) of the contrast run the options describe.
 */
int
cli_pin_contrast (WsPin         *pin,
                  GPtrArray     *traces,
                  CliPinOptions *o)
{
  g_autoptr(WsInstanceSet) instances = ws_instance_set_new ();
  g_autoptr(WsContrastResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  WsContrastSettings s = { 0 };
  int status = -1;

  if ((status = contrast_settings (o, &s)) >= 0 || (scenario = pick_scenario (traces, o, &status)) == NULL)
    return status;
  for (guint i = 0; i < traces->len; i++)
    ws_instance_set_add_trace (instances, g_ptr_array_index (traces, i), scenario);
  if (ws_instance_set_get_n (instances) == 0)
    {
      fprintf (stderr, _("waitscope-cli: the traces have no instance of the scenario “%s”\n"), scenario);
      return CLI_EXIT_INPUT;
    }
  s.instances = instances;
  result = ws_contrast_run (&s, NULL, NULL, NULL, &error);
  if (result == NULL)
    return cli_fail (error);
  ws_pin_set_contrast (pin, scenario, &s, result);
  if (g_str_equal (ws_pin_get_kind (pin), WS_PIN_KIND_AWG))
    {
      ws_pin_set_setting_string (pin, "class", o->awg_class ? o->awg_class : "slow");
      return -1;
    }
  if ((guint) MAX (o->pattern, 0) >= ws_contrast_result_get_n_patterns (result))
    {
      fprintf (stderr, _("waitscope-cli: no contrast pattern %d (the run found %u)\n"), MAX (o->pattern, 0),
               ws_contrast_result_get_n_patterns (result));
      return CLI_EXIT_INPUT;
    }
  ws_pin_set_contrast_pattern (pin, result, MAX (o->pattern, 0));
  return -1;
}

/* ------------------------------------------------------------------ */
/* Flame graph                                                          */

/* The Flame Graph page's choices as options: without --scope, a --tid
 * means the thread's scope, a window alone the window's.  The graph is
 * folded once so that a zoomed frame not in it fails now. */
int
cli_pin_flame (WsPin         *pin,
               GPtrArray     *traces,
               CliPinOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsFlameGraph) graph = NULL;
  WsPinFlame flame = { 0 }, check;
  WsFlameSettings settings;
  WsTime t0, t1;
  guint thread;

  if (!ws_flame_mode_from_string (o->flame_mode ? o->flame_mode : "on-cpu", &flame.mode))
    return cli_usage_error ("session pin", _("--mode must be on-cpu, off-cpu or off-wake"));
  if (o->scope != NULL && !ws_flame_scope_from_string (o->scope, &flame.scope))
    return cli_usage_error ("session pin", _("--scope of a flame graph must be trace, window or thread"));
  if (o->scope == NULL)
    flame.scope = ws_pin_get_tid (pin) != WS_PIN_NO_TID ? WS_FLAME_SCOPE_THREAD
                  : ws_pin_get_window (pin, &t0, &t1) ? WS_FLAME_SCOPE_WINDOW : WS_FLAME_SCOPE_TRACE;
  flame.zoom = o->zoom != NULL && *o->zoom != '\0' ? g_strsplit (o->zoom, ";", -1) : NULL;
  flame.search = o->search;
  flame.icicle = o->icicle;
  ws_pin_set_flame (pin, &flame);
  g_strfreev (flame.zoom);
  if (!ws_pin_get_flame (pin, &check, &error))
    return cli_usage_error ("session pin", "%s", error->message);
  if (!ws_pin_flame_settings (pin, &check, g_ptr_array_index (traces, 0), &settings, &thread, &error) ||
      (graph = ws_flame_run (g_ptr_array_index (traces, 0), &settings, NULL, NULL, NULL, &error)) == NULL)
    {
      ws_pin_flame_clear (&check);
      return cli_fail (error);
    }
  if (ws_flame_tree_find_zoom (graph->tree, check.zoom) == G_MAXUINT)
    {
      fprintf (stderr, _("waitscope-cli: the flame graph has no frame path “%s”\n"), o->zoom);
      ws_pin_flame_clear (&check);
      return CLI_EXIT_INPUT;
    }
  ws_pin_flame_clear (&check);
  return -1;
}
