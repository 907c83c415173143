/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A finding redrawn for the report: each view kind has a builder that runs
 * the view's core analysis on the pinned inputs and records the figure its
 * own exporter draws (ws_export_record()), then lists the facts and stacks
 * a reviewer needs to check it.  Kinds are looked up by name, so a page
 * added later registers its builder beside its view.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-cause-chain.h"
#include "ws-chain.h"
#include "ws-critical-path-run.h"
#include "ws-critical-path-renderer.h"
#include "ws-error.h"
#include "ws-graph-renderer.h"
#include "ws-graph-scene.h"
#include "ws-pin-kind.h"
#include "ws-ready-tree-run.h"
#include "ws-report-figure-private.h"
#include "ws-time-format.h"
#include "ws-timeline-layout.h"
#include "ws-timeline-lod.h"
#include "ws-timeline-viewport.h"
#include "ws-wait-graph-run.h"
#include "ws-wait-readier.h"

#define TIMELINE_WIDTH      1600.0
#define CRITICAL_PATH_WIDTH 1400.0

/* ------------------------------------------------------------------ */
/* Facts and stacks                                                     */

static void
fact_free (gpointer data)
{
  WsReportFact *f = data;

  g_free (f->label);
  g_free (f->value);
  g_free (f);
}

/**
 * ws_report_facts_new:
 *
 * Returns: (transfer full) (element-type WsReportFact): an empty list of
 *   facts, owning those added to it
 */
GPtrArray *
ws_report_facts_new (void)
{
  return g_ptr_array_new_with_free_func (fact_free);
}

/* Appends a copy of @label and @value to @facts. */
void
ws_report_facts_add (GPtrArray  *facts,
                     const char *label,
                     const char *value)
{
  WsReportFact *f = g_new0 (WsReportFact, 1);

  f->label = g_strdup (label);
  f->value = g_strdup (value);
  g_ptr_array_add (facts, f);
}

static void
stack_free (gpointer data)
{
  WsReportStack *s = data;

  g_free (s->title);
  g_ptr_array_unref (s->frames);
  g_free (s);
}

void
ws_report_figure_free (WsReportFigure *figure)
{
  if (figure == NULL)
    return;
  ws_export_recording_clear (&figure->recording);
  g_ptr_array_unref (figure->facts);
  g_ptr_array_unref (figure->stacks);
  g_free (figure);
}

void
ws_report_figure_add_fact (WsReportFigure *figure,
                           const char     *label,
                           const char     *value)
{
  ws_report_facts_add (figure->facts, label, value);
}

/* Stacks are stored caller first already; the report prints them so. */
void
ws_report_figure_add_stack (WsReportFigure *figure,
                            const char     *title,
                            WsStackTable   *table,
                            WsStackId       stack)
{
  WsReportStack *s;
  const WsFrameId *frames;
  guint n = 0;

  if (stack == WS_STACK_EMPTY)
    return;
  frames = ws_stack_table_get_stack (table, stack, &n);
  s = g_new0 (WsReportStack, 1);
  s->title = g_strdup (title);
  s->frames = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (s->frames, ws_stack_table_format_frame (table, frames[i]));
  g_ptr_array_add (figure->stacks, s);
}

/* A stack already formatted ("function (module)" lines, caller first). */
void
ws_report_figure_add_frames (WsReportFigure     *figure,
                             const char         *title,
                             const char * const *frames)
{
  WsReportStack *s = g_new0 (WsReportStack, 1);

  s->title = g_strdup (title);
  s->frames = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; frames[i] != NULL; i++)
    g_ptr_array_add (s->frames, g_strdup (frames[i]));
  g_ptr_array_add (figure->stacks, s);
}

char *
ws_report_format_thread (WsTrace *trace,
                         guint    thread)
{
  const WsThread *t;

  if (thread == WS_NONE || thread >= ws_trace_get_n_threads (trace))
    return g_strdup (_("all threads"));
  t = ws_trace_get_thread (trace, thread);
  return g_strdup_printf ("%s (%d)", t->name ? t->name : "?", t->tid);
}

/* Seconds on the trace's clock, as perf prints them. */
char *
ws_report_format_time (WsTime ns)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT " s",
                          ns / 1000000000, ABS (ns % 1000000000));
}

static void
add_wait_facts (WsReportFigure *figure,
                WsTrace        *trace,
                guint           wait,
                const char     *what)
{
  const WsEvent *e = ws_trace_get_event (trace, wait);
  g_autofree char *who = ws_report_format_thread (trace, e->thread);
  g_autofree char *cost = ws_format_duration (ws_event_duration (e));
  g_autofree char *at = ws_report_format_time (e->time);
  g_autofree char *value = g_strdup_printf (_("%s waited %s from %s (event %u, state %c)"),
                                            who, cost, at, wait, e->state ? e->state : '?');
  g_autofree char *title_wait = g_strdup_printf (_("%s: waiting stack"), what);
  g_autofree char *title_unwait = g_strdup_printf (_("%s: stack of the thread that woke it"), what);
  guint readier = WS_NONE;
  WsReadierKind kind = ws_trace_wait_readier (trace, wait, &readier);

  ws_report_figure_add_fact (figure, what, value);
  if (kind == WS_READIER_THREAD)
    {
      g_autofree char *r = ws_report_format_thread (trace, readier);
      ws_report_figure_add_fact (figure, _("Woken by"), r);
    }
  else
    {
      /* the sentence every view writes: "timer expired" here too */
      g_autofree char *ended = ws_wait_readier_dup_sentence (NULL, trace, wait);
      ws_report_figure_add_fact (figure, _("Ended by"), ended);
    }
  ws_report_figure_add_stack (figure, title_wait, ws_trace_get_stack_table (trace), e->stack);
  if (ws_event_peer (e) != WS_NONE)
    ws_report_figure_add_stack (figure, title_unwait, ws_trace_get_stack_table (trace),
                                ws_trace_get_event (trace, ws_event_peer (e))->stack);
}

/* One wait: who, how long, who woke it, both stacks. */
void
ws_report_figure_add_wait (WsReportFigure *figure,
                           WsTrace        *trace,
                           guint           wait,
                           const char     *what)
{
  add_wait_facts (figure, trace, wait, what);
}

/* The thread's waits that start in the window: count, total, longest. */
static void
add_window_waits (WsReportFigure        *figure,
                  const WsReportContext *ctx)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  const WsThread *t;
  guint n = 0, longest;
  WsTime total = 0;
  g_autofree char *total_text = NULL;
  g_autofree char *value = NULL;

  if (ctx->symptom.thread == WS_NONE)
    return;
  t = ws_trace_get_thread (trace, ctx->symptom.thread);
  for (guint i = ws_trace_thread_lower_bound (trace, ctx->symptom.thread, ctx->symptom.t0); i < t->n_events; i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, t->events[i]);
      if (e->time >= ctx->symptom.t1)
        break;
      if (e->kind == WS_EVENT_WAIT)
        {
          n++;
          total += ws_event_duration (e);
        }
    }
  total_text = ws_format_duration (total);
  value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u wait, %s in all", "%u waits, %s in all", n),
                           n, total_text);
  ws_report_figure_add_fact (figure, _("Waits starting in the window"), value);
  longest = ws_symptom_longest_wait (trace, &ctx->symptom, NULL);
  if (longest != WS_NONE)
    add_wait_facts (figure, trace, longest, _("Longest wait"));
}

/* ------------------------------------------------------------------ */
/* Builders                                                             */

typedef struct {
  const WsReportContext *ctx;
  WsTimelineRenderer    *renderer;
  WsTimelineLod         *lod;
  WsTimelineLayout      *layout;
  WsTimelineViewport    *viewport;
  WsGraphRenderer       *graph_renderer;
  WsGraphScene          *scene;
  WsCriticalPathRenderer *path_renderer;
} ExportJob;

static gboolean
export_timeline (gpointer  user_data,
                 GError  **error)
{
  ExportJob *job = user_data;
  return ws_export_timeline ("figure.svg", WS_EXPORT_SVG, job->renderer, job->lod, job->layout,
                             job->viewport, TIMELINE_WIDTH, error);
}

static gboolean
build_timeline (const WsReportContext *ctx,
                WsReportFigure        *figure,
                GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  g_autoptr(WsTimelineLod) lod = ws_timeline_lod_new (trace, NULL, error);
  g_autoptr(WsTimelineLayout) layout = NULL;
  g_autoptr(WsTimelineViewport) viewport = NULL;
  g_autoptr(WsTimelineRenderer) renderer = NULL;
  ExportJob job = { ctx };

  if (lod == NULL)
    return FALSE;
  layout = ws_timeline_layout_new (trace);
  viewport = ws_timeline_viewport_new ();
  renderer = ws_timeline_renderer_new ();
  ws_timeline_viewport_set_bounds (viewport, ws_trace_get_start_time (trace), ws_trace_get_end_time (trace));
  ws_timeline_viewport_set_visible (viewport, ctx->symptom.t0,
                                    MAX (ctx->symptom.t1, ctx->symptom.t0 + WS_TIMELINE_MIN_SPAN));
  if (ctx->symptom.thread != WS_NONE)
    ws_timeline_viewport_set_selection (viewport, ctx->symptom.thread, ctx->symptom.t0, ctx->symptom.t1);
  if (ctx->dark)
    {
      WsTimelinePalette palette;
      ws_timeline_palette_init_dark (&palette);
      ws_timeline_renderer_set_palette (renderer, &palette);
    }
  job.renderer = renderer;
  job.lod = lod;
  job.layout = layout;
  job.viewport = viewport;
  if (!ws_export_record (export_timeline, &job, &figure->recording, error))
    return FALSE;
  add_window_waits (figure, ctx);
  return TRUE;
}

static gboolean
export_graph (gpointer  user_data,
              GError  **error)
{
  ExportJob *job = user_data;
  return ws_graph_renderer_export (job->graph_renderer, job->scene, NULL, "figure.svg", WS_EXPORT_SVG, error);
}

static gboolean
record_scene (const WsReportContext *ctx,
              WsGraphScene          *scene,
              WsReportFigure        *figure,
              GError               **error)
{
  g_autoptr(WsGraphRenderer) renderer = ws_graph_renderer_new ();
  g_autofree char *summary = ws_graph_scene_dup_summary (scene);
  ExportJob job = { ctx };

  if (ctx->dark)
    {
      WsGraphPalette palette;
      ws_graph_palette_init_dark (&palette);
      ws_graph_renderer_set_palette (renderer, &palette);
    }
  job.graph_renderer = renderer;
  job.scene = scene;
  if (!ws_export_record (export_graph, &job, &figure->recording, error))
    return FALSE;
  ws_report_figure_add_fact (figure, _("Summary"), summary);
  return TRUE;
}

static gboolean
build_wait_graph (const WsReportContext *ctx,
                  WsReportFigure        *figure,
                  GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  WsWaitGraphSettings settings;

  ws_wait_graph_settings_init (&settings, &ctx->symptom);
  graph = ws_wait_graph_run (trace, &settings, NULL, NULL, NULL, error);
  if (graph == NULL)
    return FALSE;
  scene = ws_graph_scene_new_for_wait_graph (graph, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  if (!record_scene (ctx, scene, figure, error))
    return FALSE;
  add_window_waits (figure, ctx);
  return TRUE;
}

static void
add_chain_facts (WsReportFigure *figure,
                 WsReadyTree    *tree,
                 WsChainMetric   metric)
{
  WsTrace *trace = ws_ready_tree_get_trace (tree);
  guint chain = ws_ready_tree_anomalous_chain (tree, metric);
  g_autofree guint32 *nodes = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = 0;

  if (chain == WS_NONE)
    return;
  nodes = ws_ready_tree_get_chain (tree, chain, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsReadyNode *node = ws_ready_tree_get_node (tree, nodes[i]);
      g_autofree char *who = ws_report_format_thread (trace, node->thread);
      g_autofree char *cost = ws_format_duration (node->duration);
      g_string_append_printf (text, "%s%s %s", i ? " → " : "", who, cost);
    }
  ws_report_figure_add_fact (figure, _("Anomalous chain (root first)"), text->str);
  if (n > 1)
    {
      const WsReadyNode *leaf = ws_ready_tree_get_node (tree, nodes[n - 1]);
      ws_report_figure_add_stack (figure, _("End of the chain: waiting stack"),
                                  ws_trace_get_stack_table (trace), leaf->stack);
    }
}

static gboolean
build_ready_tree (const WsReportContext *ctx,
                  WsReportFigure        *figure,
                  GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(WsGraphScene) scene = NULL;
  WsReadyTreeSettings settings;
  WsChainMetric metric = WS_CHAIN_METRIC_AVERAGE;
  gint64 event = ws_pin_get_event (ctx->finding);
  const char *metric_name = ws_pin_get_setting_string (ctx->finding, "chain_metric", "average");

  if (!ws_chain_metric_from_string (metric_name, &metric))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("unknown chain metric “%s”"), metric_name);
      return FALSE;
    }
  ws_ready_tree_settings_init (&settings, &ctx->symptom);
  settings.options.lock_only = ws_pin_get_setting_bool (ctx->finding, "lock_only", FALSE);
  settings.options.max_depth = CLAMP (ws_pin_get_setting_int (ctx->finding, "max_depth", settings.options.max_depth),
                                      0, G_MAXUINT16);
  if (event >= 0)
    settings.root_event = event;
  tree = ws_ready_tree_run (trace, &settings, NULL, NULL, NULL, error);
  if (tree == NULL)
    return FALSE;
  scene = ws_graph_scene_new_for_ready_tree (tree, metric, WS_GRAPH_LAYOUT_LEFT_TO_RIGHT);
  if (!record_scene (ctx, scene, figure, error))
    return FALSE;
  ws_report_figure_add_fact (figure, _("Chain metric"), ws_chain_metric_to_string (metric));
  add_wait_facts (figure, trace, ws_ready_tree_get_node (tree, 0)->event, _("Root wait"));
  add_chain_facts (figure, tree, metric);
  return TRUE;
}

static gboolean
export_critical_path (gpointer  user_data,
                      GError  **error)
{
  ExportJob *job = user_data;
  return ws_critical_path_renderer_export (job->path_renderer, "figure.svg", WS_EXPORT_SVG,
                                           CRITICAL_PATH_WIDTH, error);
}

static gboolean
build_critical_path (const WsReportContext *ctx,
                     WsReportFigure        *figure,
                     GError               **error)
{
  WsTrace *trace = g_ptr_array_index (ctx->traces, 0);
  g_autoptr(WsCriticalPath) path = NULL;
  g_autoptr(WsCriticalPathRenderer) renderer = NULL;
  WsCriticalPathSettings settings;
  g_autofree char *states = NULL;
  g_autofree char *threads = NULL;
  ExportJob job = { ctx };

  ws_critical_path_settings_init (&settings, &ctx->symptom);
  path = ws_critical_path_run (trace, &settings, NULL, NULL, NULL, error);
  if (path == NULL)
    return FALSE;
  renderer = ws_critical_path_renderer_new ();
  if (ctx->dark)
    {
      WsTimelinePalette palette;
      ws_timeline_palette_init_dark (&palette);
      ws_critical_path_renderer_set_palette (renderer, &palette);
    }
  ws_critical_path_renderer_set_path (renderer, path);
  job.path_renderer = renderer;
  if (!ws_export_record (export_critical_path, &job, &figure->recording, error))
    return FALSE;
  states = ws_critical_path_dup_state_summary (path);
  threads = ws_critical_path_dup_thread_summary (path, 6);
  ws_report_figure_add_fact (figure, _("Time on the path by state"), states);
  ws_report_figure_add_fact (figure, _("Threads on the path"), threads);
  add_window_waits (figure, ctx);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Registry and entry point                                             */

static GMutex builders_lock;
static GHashTable *builders;   /* kind name → WsReportFigureBuilder */

static void
ensure_builders (void)
{
  if (builders != NULL)
    return;
  builders = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_TIMELINE, build_timeline);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_WAIT_GRAPH, build_wait_graph);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_READY_TREE, build_ready_tree);
  g_hash_table_insert (builders, (gpointer) WS_PIN_KIND_CRITICAL_PATH, build_critical_path);
  ws_report_figure_register_views (builders);
  ws_report_figure_register_mining (builders);
  ws_report_figure_register_contrast (builders);
  ws_report_figure_register_flame (builders);
}

static WsReportFigureBuilder
lookup_builder (const char *kind)
{
  WsReportFigureBuilder builder;

  g_mutex_lock (&builders_lock);
  ensure_builders ();
  builder = g_hash_table_lookup (builders, kind);
  g_mutex_unlock (&builders_lock);
  return builder;
}

/* @kind must be static (a registered WsPinKindInfo's name). */
void
ws_report_figure_register (const char            *kind,
                           WsReportFigureBuilder  builder)
{
  g_return_if_fail (kind != NULL && builder != NULL);

  g_mutex_lock (&builders_lock);
  ensure_builders ();
  g_hash_table_insert (builders, (gpointer) kind, builder);
  g_mutex_unlock (&builders_lock);
}

gboolean
ws_report_figure_can_draw (const char *kind)
{
  return lookup_builder (kind) != NULL;
}

/**
 * ws_report_context_init:
 * @traces: (element-type WsTrace): the finding's traces, loaded
 *
 * Resolves the pin's thread and window on its first trace.
 */
gboolean
ws_report_context_init (WsReportContext *ctx,
                        WsPin       *finding,
                        GPtrArray       *traces,
                        GPtrArray       *trace_names,
                        GError         **error)
{
  WsTrace *trace;
  gint32 tid = ws_pin_get_tid (finding);
  gint64 instance = ws_pin_get_scenario_instance (finding);

  memset (ctx, 0, sizeof *ctx);
  ctx->finding = finding;
  ctx->traces = traces;
  ctx->trace_names = trace_names;
  if (traces->len == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the finding names no trace"));
      return FALSE;
    }
  trace = g_ptr_array_index (traces, 0);
  ctx->symptom.thread = WS_NONE;
  if (instance >= 0 && !ws_symptom_from_scenario_instance (trace, instance, &ctx->symptom))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the trace has no scenario instance %lld"),
                   (long long) instance);
      return FALSE;
    }
  if (instance >= 0)
    return TRUE;
  if (!ws_pin_get_window (finding, &ctx->symptom.t0, &ctx->symptom.t1))
    {
      ctx->symptom.t0 = ws_trace_get_start_time (trace);
      ctx->symptom.t1 = ws_trace_get_end_time (trace);
    }
  if (tid != WS_PIN_NO_TID)
    {
      ctx->symptom.thread = ws_trace_find_thread (trace, tid);
      if (ctx->symptom.thread == WS_NONE)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the trace has no thread with tid %d"), tid);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * ws_report_figure_build:
 *
 * Returns: (transfer full) (nullable): the figure with its facts, or %NULL
 *   with @error (an unknown kind, or the analysis refused the inputs)
 */
WsReportFigure *
ws_report_figure_build (const WsReportContext  *ctx,
                        GError                **error)
{
  g_autoptr(WsReportFigure) figure = NULL;
  WsReportFigureBuilder builder;
  const char *kind = ws_pin_get_kind (ctx->finding);
  const WsPinKindInfo *info = ws_pin_kind_lookup (kind);

  builder = lookup_builder (kind);
  if (builder == NULL)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("views of kind “%s” cannot be drawn in a report yet"), kind);
      return NULL;
    }
  if (info != NULL && info->needs_thread && ctx->symptom.thread == WS_NONE)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("a %s needs a thread (tid)"), _(info->label));
      return NULL;
    }
  figure = g_new0 (WsReportFigure, 1);
  figure->facts = ws_report_facts_new ();
  figure->stacks = g_ptr_array_new_with_free_func (stack_free);
  if (!builder (ctx, figure, error))
    return NULL;
  return g_steal_pointer (&figure);
}
