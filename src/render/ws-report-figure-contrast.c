/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Report figures of the Contrast page (docs/contrast.md): a contrast
 * pattern, drawn as AWG_slow with the pattern's paths lit, and an
 * aggregated wait graph of one class.  Each reruns ws_contrast_run() on
 * the pinned scenario's instances with the pinned T_fast / T_slow and
 * component, and finds the pinned pattern again by its Signature Set
 * Tuple (ws_pin_find_contrast_pattern()).
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-awg-renderer.h"
#include "ws-contrast-words.h"
#include "ws-error.h"
#include "ws-pin-contrast.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"

/* A page holds about this many AWG boxes legibly (the page shows 400,
 * scrolled and zoomed); the facts say how many are left out. */
#define REPORT_AWG_NODES 16

static WsContrastResult *
rerun (const WsReportContext  *ctx,
       char                  **scenario,
       GError                **error)
{
  WsPinContrast contrast;
  WsContrastResult *result;

  if (!ws_pin_get_contrast (ctx->finding, ctx->traces, &contrast, error))
    return NULL;
  result = ws_contrast_run (&contrast.settings, NULL, NULL, NULL, error);
  *scenario = g_steal_pointer (&contrast.scenario);
  ws_pin_contrast_clear (&contrast);
  return result;
}

static gboolean
export_awg (gpointer  user_data,
            GError  **error)
{
  return ws_awg_renderer_export (user_data, "figure.svg", error);
}

/* Presentation in the dark style: the dark page of the other figures. */
static void
set_palette (const WsReportContext *ctx,
             WsAwgRenderer         *renderer)
{
  WsAwgPalette palette;

  if (ctx->dark)
    ws_awg_palette_init_dark (&palette);
  else
    ws_awg_palette_init_light (&palette);
  ws_awg_renderer_set_palette (renderer, &palette);
}

static void
add_run_facts (WsReportFigure   *figure,
               WsContrastResult *result,
               const char       *scenario,
               WsPin            *pin)
{
  g_autofree char *tf = ws_format_duration (ws_contrast_result_get_t_fast (result));
  g_autofree char *ts = ws_format_duration (ws_contrast_result_get_t_slow (result));
  g_autofree char *classes = g_strdup_printf (_("%u fast (at most %s), %u slow (at least %s)"),
                                              ws_instance_set_get_n (ws_contrast_result_get_fast (result)), tf,
                                              ws_instance_set_get_n (ws_contrast_result_get_slow (result)), ts);

  ws_report_figure_add_fact (figure, _("Scenario"), scenario);
  ws_report_figure_add_fact (figure, _("Component"), ws_pin_get_setting_string (pin, "component", ""));
  ws_report_figure_add_fact (figure, _("Instances"), classes);
}

static void
add_shown_fact (WsReportFigure *figure,
                WsAwgRenderer  *renderer,
                WsAwg          *awg)
{
  guint n = ws_awg_get_n_nodes (awg), hidden = ws_awg_renderer_get_n_hidden (renderer);
  g_autofree char *value = hidden == 0
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "all %u node", "all %u nodes", n), n)
    : g_strdup_printf (_("%u of %u nodes: the costliest, with their paths from the roots"), n - hidden, n);

  ws_report_figure_add_fact (figure, _("Drawn"), value);
  ws_report_figure_add_fact (figure, _("How to read it"),
                             _("Each box merges waits with the same signatures (w: waiting, u: the unwait that ended it) "
                               "or is a running or hardware leaf, with their summed time and how many times they occurred; redder is costlier. "
                               "Lit in red: the paths of the contrast pattern."));
}

/* The slowest instance the pattern occurs in: where to look first. */
static void
add_slowest_instance (WsReportFigure   *figure,
                      WsContrastResult *result,
                      guint             rank)
{
  g_autoptr(GArray) instances = ws_contrast_result_dup_pattern_instances (result, rank);
  WsInstanceSet *slow = ws_contrast_result_get_slow (result);
  const WsInstanceRef *longest = NULL;
  g_autofree char *count = g_strdup_printf (_("%u of %u"), instances->len, ws_instance_set_get_n (slow));

  ws_report_figure_add_fact (figure, _("Slow instances it occurs in"), count);
  for (guint i = 0; i < instances->len; i++)
    {
      const WsInstanceRef *ref = ws_instance_set_get (slow, g_array_index (instances, guint32, i));

      if (longest == NULL || ref->duration > longest->duration)
        longest = ref;
    }
  if (longest != NULL)
    {
      g_autofree char *who = ws_report_format_thread (longest->trace, longest->span.thread);
      g_autofree char *d = ws_format_duration (longest->duration);
      g_autofree char *at = ws_report_format_time (longest->span.t0);
      g_autofree char *value = g_strdup_printf (_("%s, %s: %s from %s"), ws_trace_get_name (longest->trace), who, d, at);

      ws_report_figure_add_fact (figure, _("Slowest of them"), value);
    }
}

static void
add_pattern_facts (WsReportFigure          *figure,
                   WsContrastResult        *result,
                   guint                    rank)
{
  const WsContrastPattern *p = ws_contrast_result_get_pattern (result, rank);
  g_autofree char *which = g_strdup_printf (ws_contrast_result_get_rank (result) == WS_CONTRAST_RANK_AVERAGE
                                            ? _("%u of %u, ranked by cost per time") : _("%u of %u, ranked by total cost"),
                                            rank + 1, ws_contrast_result_get_n_patterns (result));
  g_autofree char *tuple = ws_contrast_result_format_pattern (result, p);
  g_autofree char *c_path = ws_format_duration (p->c_path_max);
  /* The page's words (ws-contrast-words.c), then the paper's terms, which
   * the page keeps in a tooltip and a printed report can only spell out. */
  g_autofree char *words = ws_contrast_pattern_dup_cost (p);
  g_autofree char *cost = g_strdup_printf (_("%s · its costliest whole path once %s"), words, c_path);
  g_autofree char *terms = ws_contrast_pattern_dup_terms (p);

  ws_report_figure_add_fact (figure, _("Pattern"), which);
  /* Translators: the call chains of a contrast pattern, the paper's "Signature Set Tuple" */
  ws_report_figure_add_fact (figure, _("Call chains (waiting, waking it, running)"), tuple);
  ws_report_figure_add_fact (figure, _("Cost"), cost);
  ws_report_figure_add_fact (figure, _("Paper's terms"), terms);
  add_slowest_instance (figure, result, rank);
}

static gboolean
build_contrast (const WsReportContext *ctx,
                WsReportFigure        *figure,
                GError               **error)
{
  g_autofree char *scenario = NULL;
  g_autoptr(WsContrastResult) result = rerun (ctx, &scenario, error);
  g_autoptr(WsAwgRenderer) renderer = NULL;
  const WsContrastPattern *p;
  WsAwg *awg;
  guint rank;

  if (result == NULL)
    return FALSE;
  rank = ws_pin_find_contrast_pattern (ctx->finding, result);
  if (rank == G_MAXUINT)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", _("the contrast run has no such pattern any more"));
      return FALSE;
    }
  p = ws_contrast_result_get_pattern (result, rank);
  awg = ws_contrast_result_get_awg_slow (result);
  renderer = ws_awg_renderer_new_focused (awg, REPORT_AWG_NODES, (const guint32 *) (gpointer) p->slow_leaves->data,
                                          p->slow_leaves->len);
  ws_awg_renderer_set_highlight (renderer, (const guint32 *) (gpointer) p->slow_leaves->data, p->slow_leaves->len);
  set_palette (ctx, renderer);
  if (!ws_export_record (export_awg, renderer, &figure->recording, error))
    return FALSE;
  add_pattern_facts (figure, result, rank);
  add_run_facts (figure, result, scenario, ctx->finding);
  add_shown_fact (figure, renderer, awg);
  return TRUE;
}

static gboolean
build_awg (const WsReportContext *ctx,
           WsReportFigure        *figure,
           GError               **error)
{
  gboolean slow = ws_pin_get_awg_slow (ctx->finding);
  g_autofree char *scenario = NULL;
  g_autoptr(WsContrastResult) result = rerun (ctx, &scenario, error);
  g_autoptr(WsAwgRenderer) renderer = NULL;
  g_autofree char *total = NULL, *pruned = NULL, *graphs = NULL;
  WsAwg *awg;

  if (result == NULL)
    return FALSE;
  awg = slow ? ws_contrast_result_get_awg_slow (result) : ws_contrast_result_get_awg_fast (result);
  renderer = ws_awg_renderer_new (awg, REPORT_AWG_NODES);
  set_palette (ctx, renderer);
  if (!ws_export_record (export_awg, renderer, &figure->recording, error))
    return FALSE;
  total = ws_format_duration (ws_awg_get_total_cost (awg));
  pruned = ws_format_duration (ws_awg_get_pruned_cost (awg));
  graphs = g_strdup_printf (_("%u wait graphs merged; %s of the component's cost, %s of it pruned as not optimizable"),
                            ws_awg_get_n_graphs (awg), total, pruned);
  ws_report_figure_add_fact (figure, _("Class"), slow ? _("slow (AWG_slow)") : _("fast (AWG_fast)"));
  ws_report_figure_add_fact (figure, _("Aggregated"), graphs);
  add_run_facts (figure, result, scenario, ctx->finding);
  add_shown_fact (figure, renderer, awg);
  return TRUE;
}

void
ws_report_figure_register_contrast (GHashTable *builders)
{
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_CONTRAST, build_contrast);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_AWG, build_awg);
}
