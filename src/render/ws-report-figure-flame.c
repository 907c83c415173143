/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report's figure of a flame pin: the Flame Graph page's graph folded
 * again from the pinned trace (ws_flame_run() with the pin's mode, scope,
 * thread and window), zoomed to the pinned frame, with the search lit and
 * the differential's colours when the pin names a base trace, drawn by the
 * page's own renderer (ws_flame_export()).  The figure's title band says
 * in words what it shows; the facts repeat it line by line.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-flame-renderer.h"
#include "ws-pin-flame.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"

/* The page's export width: frames keep the width they had on screen. */
#define FLAME_FIGURE_WIDTH 1000.0

typedef struct {
  const WsFlameGraph *graph;
  const WsFlameView  *view;
  const char         *title;
  const char         *subtitle;
} FlameJob;

static gboolean
export_flame (gpointer  user_data,
              GError  **error)
{
  FlameJob *job = user_data;

  /* PDF goes through ws_export_draw(), which the recording captures. */
  return ws_flame_export ("figure.pdf", WS_EXPORT_PDF, job->graph, job->view, job->title, job->subtitle,
                          FLAME_FIGURE_WIDTH, error);
}

static char *
describe_scope (const WsReportContext *ctx,
                const WsPinFlame      *flame)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  g_autofree char *from = NULL, *len = NULL, *who = NULL;
  WsTime t0 = 0, t1 = 0;

  if (flame->scope == WS_FLAME_SCOPE_TRACE)
    return g_strdup (_("every thread over the whole trace"));
  ws_pin_get_window (ctx->finding, &t0, &t1);
  from = ws_report_format_time (t0);
  len = ws_format_duration (t1 - t0);
  if (flame->scope == WS_FLAME_SCOPE_WINDOW)
    /* TRANSLATORS: a flame graph's scope: the window's length, then its start */
    return g_strdup_printf (_("every thread over %s from %s"), len, from);
  who = ws_report_format_thread (trace, ctx->symptom.thread);
  /* TRANSLATORS: a flame graph's scope: a thread, the window's length, then its start */
  return g_strdup_printf (_("%s over %s from %s"), who, len, from);
}

static char *
join_path (char * const *zoom)
{
  return zoom != NULL ? g_strjoinv (" → ", (char **) zoom) : g_strdup (_("the whole graph"));
}

static gboolean
build_flame (const WsReportContext *ctx,
             WsReportFigure        *figure,
             GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  WsPinFlame flame;
  WsFlameSettings settings;
  WsFlameView view;
  g_autoptr(WsFlameGraph) graph = NULL;
  g_autofree double *diff = NULL;
  g_autofree guint8 *matched = NULL;
  g_autofree char *scope = NULL, *total = NULL, *zoomed = NULL, *caption = NULL, *subtitle = NULL;
  g_autofree char *mode_total = NULL;
  g_autoptr(GString) second = g_string_new (NULL);
  guint thread = WS_NONE;
  FlameJob job;

  if (!ws_pin_get_flame (ctx->finding, &flame, error))
    return FALSE;
  if (!ws_pin_flame_settings (ctx->finding, &flame, trace, &settings, &thread, error) ||
      (graph = ws_flame_run (trace, &settings, NULL, NULL, NULL, error)) == NULL)
    {
      ws_pin_flame_clear (&flame);
      return FALSE;
    }
  ws_flame_view_init (&view);
  view.icicle = flame.icicle;
  view.dark = ctx->dark;
  view.zoom = ws_flame_tree_find_zoom (graph->tree, flame.zoom);
  if (ctx->traces->len > 1)
    {
      WsFlameSettings base_settings;
      g_autoptr(WsFlameGraph) base = NULL;

      /* The page's base: the whole compared trace, in the same mode. */
      ws_flame_settings_init (&base_settings);
      base_settings.mode = flame.mode;
      base = ws_flame_run (g_ptr_array_index (ctx->traces, 1), &base_settings, NULL, NULL, NULL, error);
      if (base == NULL)
        {
          ws_pin_flame_clear (&flame);
          return FALSE;
        }
      diff = ws_flame_tree_diff (graph->tree, base->tree, FALSE);
      ws_flame_view_set_diff (&view, graph->tree, diff);
    }
  scope = describe_scope (ctx, &flame);
  total = ws_flame_format_weight (graph, ws_flame_tree_get_total (graph->tree));
  zoomed = join_path (flame.zoom);
  /* TRANSLATORS: a flame graph figure's caption: mode, scope, total */
  caption = g_strdup_printf (_("%s flame graph of %s: %s, total %s"), _(ws_flame_mode_get_info (flame.mode)->label),
                             (const char *) g_ptr_array_index (ctx->trace_names, 0), scope, total);
  if (view.zoom == G_MAXUINT)
    {
      view.zoom = WS_FLAME_ROOT;
      /* TRANSLATORS: the pinned zoomed frame is no longer in the graph */
      g_string_append_printf (second, _("Zoomed frame %s not found: the whole graph is shown"), zoomed);
    }
  else if (view.zoom != WS_FLAME_ROOT)
    {
      g_autofree char *w = ws_flame_format_weight (graph, ws_flame_tree_get_node (graph->tree, view.zoom)->total);
      /* TRANSLATORS: the flame graph is zoomed to this frame (its path), which holds this much */
      g_string_append_printf (second, _("Zoomed to %s (%s)"), zoomed, w);
    }
  if (flame.search != NULL)
    {
      g_autoptr(GRegex) regex = g_regex_new (flame.search, 0, 0, NULL);
      guint64 all = ws_flame_tree_get_total (graph->tree), hit;

      matched = g_new0 (guint8, ws_flame_tree_get_n_nodes (graph->tree));
      hit = ws_flame_tree_search (graph->tree, regex, matched);
      view.matched = matched;
      if (second->len > 0)
        g_string_append (second, " · ");
      /* TRANSLATORS: the search of a flame graph figure and the share of time it matches */
      g_string_append_printf (second, _("Search “%s” matches %.2f %%"), flame.search, all ? 100.0 * hit / all : 0.0);
    }
  if (diff != NULL)
    {
      if (second->len > 0)
        g_string_append (second, " · ");
      g_string_append_printf (second, _("against %s (red: more, blue: less)"),
                              (const char *) g_ptr_array_index (ctx->trace_names, 1));
    }
  job = (FlameJob) { graph, &view, caption, second->len > 0 ? second->str : NULL };
  if (!ws_export_record (export_flame, &job, &figure->recording, error))
    {
      ws_pin_flame_clear (&flame);
      return FALSE;
    }
  mode_total = g_strdup_printf ("%s (%s)", _(ws_flame_mode_get_info (flame.mode)->label), total);
  ws_report_figure_add_fact (figure, _("Mode"), mode_total);
  ws_report_figure_add_fact (figure, _("Scope"), scope);
  ws_report_figure_add_fact (figure, _("Zoomed to"), zoomed);
  if (flame.search != NULL)
    ws_report_figure_add_fact (figure, _("Search"), flame.search);
  if (diff != NULL)
    ws_report_figure_add_fact (figure, _("Compared with"), g_ptr_array_index (ctx->trace_names, 1));
  ws_report_figure_add_fact (figure, _("Orientation"), flame.icicle ? _("icicle (root at the top)")
                                                                      : _("flame (root at the bottom)"));
  ws_pin_flame_clear (&flame);
  return TRUE;
}

void
ws_report_figure_register_flame (GHashTable *builders)
{
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_FLAME, build_flame);
}
