/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waitscope-cli flamegraph TRACE -o FILE.svg|pdf|png: the flame graph of a
 * selection (every thread or --tid, the whole trace or --window), drawn by
 * the renderer the GUI's page uses; --json prints the tree instead (or as
 * well, with -o).
 */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "cli-scope.h"
#include "ws-flame-export.h"
#include "ws-json-text.h"
#include "ws-flame-renderer.h"
#include "ws-flame-run.h"
#include "ws-trace-loader.h"

static int
write_figure (WsTrace            *trace,
              const WsFlameGraph *graph,
              const double       *diff,
              const char         *base_name,
              const char         *search,
              gboolean            icicle,
              int                 width,
              const char         *output,
              gboolean            quiet)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = NULL;
  g_autofree guint8 *matched = NULL;
  g_autofree char *title = ws_flame_graph_title (graph, ws_trace_get_name (trace));
  g_autofree char *status = NULL;
  WsExportFormat format;
  WsFlameView view;

  ws_flame_view_init (&view);
  view.icicle = icicle;
  ws_flame_view_set_diff (&view, graph->tree, diff);
  if (diff != NULL)
    {
      /* TRANSLATORS: a differential flame graph's title: the graph's, then what it is compared with */
      char *t = g_strdup_printf (_("%s, against %s (red: more, blue: less)"), title, base_name);
      g_free (title);
      title = t;
    }
  if (search != NULL)
    {
      guint64 hit, all = ws_flame_tree_get_total (graph->tree);

      if ((regex = g_regex_new (search, G_REGEX_OPTIMIZE, 0, &error)) == NULL)
        return cli_usage_error ("flamegraph", _("invalid --search “%s”: %s"), search, error->message);
      matched = g_new0 (guint8, ws_flame_tree_get_n_nodes (graph->tree));
      hit = ws_flame_tree_search (graph->tree, regex, matched);
      view.matched = matched;
      /* TRANSLATORS: the share of the graph's weight under frames matching the search */
      status = g_strdup_printf (_("Matched “%s”: %.2f %%"), search, all > 0 ? 100.0 * hit / all : 0.0);
      if (!quiet)
        printf ("%s\n", status);
    }
  if (output == NULL)
    return CLI_EXIT_OK;
  if (!ws_export_format_from_path (output, &format))
    return cli_usage_error ("flamegraph", _("“%s”: the output must end in .svg, .pdf or .png"), output);
  if (!ws_flame_export (output, format, graph, &view, title, status, width, &error))
    {
      fprintf (stderr, "waitscope-cli: %s\n", error->message);
      return CLI_EXIT_INPUT;
    }
  return CLI_EXIT_OK;
}

int
cli_flamegraph (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFlameGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL, *window = NULL, *search = NULL, *event = NULL;
  g_autofree char *base_path = NULL, *base_window = NULL, *base_name = NULL;
  g_autofree double *diff = NULL;
  g_auto(GStrv) tids = NULL, base_tids = NULL;
  gboolean off_cpu = FALSE, waker = FALSE, json = FALSE, icicle = FALSE, normalise = FALSE;
  CliScope base_scope = { 0 };
  int width = 1200, status;
  CliScope scope = { 0 };
  WsFlameSettings settings;
  const GOptionEntry entries[] = {
    { "off-cpu", 0, 0, G_OPTION_ARG_NONE, &off_cpu,
      N_("Off-CPU time: each wait under its waiting stack (default: on-CPU samples)"), NULL },
    { "waker", 0, 0, G_OPTION_ARG_NONE, &waker,
      N_("Off-wake: each waiting stack with its readier's stack above it (implies --off-cpu)"), NULL },
    { "window", 0, 0, G_OPTION_ARG_STRING, &window,
      N_("Only START:END (times as perf prints them, or with a unit: 12ms)"), N_("START:END") },
    { "tid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tids, N_("Only this thread (repeat, or N,M,…)"), N_("TID") },
    { "event", 0, 0, G_OPTION_ARG_STRING, &event, N_("On-CPU: fold this sample event (default: the first)"), N_("NAME") },
    { "search", 0, 0, G_OPTION_ARG_STRING, &search,
      N_("Highlight frames matching this regular expression and print the share of time they hold"), N_("RE") },
    { "icicle", 0, 0, G_OPTION_ARG_NONE, &icicle, N_("Draw the root at the top"), NULL },
    { "base", 0, 0, G_OPTION_ARG_FILENAME, &base_path,
      N_("Differential: compare with this trace (the fast one); red frames grew, blue ones shrank"), N_("TRACE") },
    { "base-window", 0, 0, G_OPTION_ARG_STRING, &base_window,
      N_("Differential: compare with this window (of --base, or of the same trace and threads)"), N_("START:END") },
    { "base-tid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &base_tids, N_("Differential: only this thread of --base"), N_("TID") },
    { "normalise", 0, 0, G_OPTION_ARG_NONE, &normalise,
      N_("Differential: scale the base to the same total first (compare shares, not amounts)"), NULL },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Figure width (default 1200)"), N_("POINTS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the tree as JSON"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the figure here: .svg, .pdf or .png"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("TRACE — a flame graph of on-CPU, off-CPU or off-wake time"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Widths are the tally of the folded stacks “collapse --ns” writes for the same selection: "
      "on-CPU from the CPU samples (their periods), or the switch-in → switch-out spans when the "
      "trace has no samples; off-CPU from the waits, clipped to the window."));
  if (!cli_parse_options (context, "flamegraph", &argc, &argv, &status))
    return status;
  if (argc != 2)
    return cli_usage_error ("flamegraph", "%s", argc < 2 ? _("no trace given") : _("give one trace"));
  if (output == NULL && !json)
    return cli_usage_error ("flamegraph", _("no output given (-o FILE.svg|pdf|png, or --json)"));
  if (width < 100 || width > 20000)
    return cli_usage_error ("flamegraph", _("--width must be between 100 and 20000"));
  if (output != NULL)
    {
      WsExportFormat format;
      if (!ws_export_format_from_path (output, &format))
        return cli_usage_error ("flamegraph", _("“%s”: the output must end in .svg, .pdf or .png"), output);
    }
  if ((status = cli_scope_parse_window ("flamegraph", window, &scope)) >= 0 ||
      (status = cli_scope_parse_window ("flamegraph", base_window, &base_scope)) >= 0)
    return status;
  if (base_tids != NULL && base_path == NULL)
    return cli_usage_error ("flamegraph", _("--base-tid needs --base"));

  if ((trace = ws_trace_loader_load (argv[1], NULL, NULL, NULL, NULL, &error)) == NULL)
    return cli_fail (error);
  if ((status = cli_scope_resolve_tids (argv[1], trace, tids, &scope)) >= 0)
    {
      cli_scope_clear (&scope);
      return status;
    }

  ws_flame_settings_init (&settings);
  settings.mode = waker ? WS_FLAME_OFF_WAKE : off_cpu ? WS_FLAME_OFF_CPU : WS_FLAME_ON_CPU;
  settings.event = event;
  settings.has_window = scope.has_window;
  settings.window_start = scope.start;
  settings.window_end = scope.end;
  settings.threads = scope.threads ? (const guint *) scope.threads->data : NULL;
  settings.n_threads = scope.threads ? scope.threads->len : 0;
  graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, &error);
  if (graph == NULL)
    {
      cli_scope_clear (&scope);
      return cli_fail (error);
    }
  if (base_path != NULL || base_window != NULL)
    {
      g_autoptr(WsTrace) other = NULL;
      g_autoptr(WsFlameGraph) base = NULL;
      WsTrace *base_trace = trace;
      WsFlameSettings base_settings = settings;

      if (base_path != NULL)
        {
          if ((other = ws_trace_loader_load (base_path, NULL, NULL, NULL, NULL, &error)) == NULL)
            {
              cli_scope_clear (&scope);
              return cli_fail (error);
            }
          base_trace = other;
          if ((status = cli_scope_resolve_tids (base_path, other, base_tids, &base_scope)) >= 0)
            {
              cli_scope_clear (&scope);
              cli_scope_clear (&base_scope);
              return status;
            }
          base_settings.threads = base_scope.threads ? (const guint *) base_scope.threads->data : NULL;
          base_settings.n_threads = base_scope.threads ? base_scope.threads->len : 0;
        }
      base_settings.has_window = base_scope.has_window;
      base_settings.window_start = base_scope.start;
      base_settings.window_end = base_scope.end;
      if ((base = ws_flame_run (base_trace, &base_settings, NULL, NULL, NULL, &error)) == NULL)
        {
          cli_scope_clear (&scope);
          cli_scope_clear (&base_scope);
          return cli_fail (error);
        }
      diff = ws_flame_tree_diff (graph->tree, base->tree, normalise);
      base_name = base_path != NULL ? g_strdup (ws_trace_get_name (other)) : g_strdup (base_window);
      cli_scope_clear (&base_scope);
    }
  status = write_figure (trace, graph, diff, base_name, search, icicle, width, output, json);
  if (status == CLI_EXIT_OK && json)
    {
      g_autoptr(JsonNode) node = ws_flame_graph_to_json (graph, &settings, diff);
      g_autofree char *text = ws_json_text_from_node (node);
      printf ("%s\n", text);
    }
  cli_scope_clear (&scope);
  return status;
}
