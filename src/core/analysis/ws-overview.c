/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Overview's first answer (ws-overview.h): instances, the slowest with
 * their top causes, the attribution over the slowest 10 % (or the threads
 * that waited longest for others); and, apart, the top cluster and the top
 * contrast pattern.  Everything here is computed by the analyses' own
 * entry points (ws_mining_run(), ws_contrast_run()), never by a copy of
 * them: this file only picks the targets and summarises the results.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "ws-contrast.h"
#include "ws-error.h"
#include "ws-overview.h"
#include "ws-thread-picker.h"
#include "ws-why-targets.h"
#include "ws-stack-db.h"


struct _WsOverview
{
  GObject            parent_instance;

  GPtrArray         *traces;       /* WsTrace, owned */
  GArray            *durations;    /* WsTime, ascending */
  GArray            *slowest;      /* WsOverviewInstance */
  GArray            *targets;      /* WsAttributionTarget */
  WsAttribution     *attribution;
  char              *explained;
  char              *pick_reason;  /* nullable */
  GPtrArray         *picks;        /* WsThreadPick, nullable */
  gboolean           has_waits;    /* some trace has a WAIT event */
};

G_DEFINE_FINAL_TYPE (WsOverview, ws_overview, G_TYPE_OBJECT)

static void
ws_overview_finalize (GObject *object)
{
  WsOverview *self = WS_OVERVIEW (object);

  for (guint i = 0; i < self->slowest->len; i++)
    g_free (g_array_index (self->slowest, WsOverviewInstance, i).top_cause);
  g_array_unref (self->slowest);
  g_array_unref (self->durations);
  g_clear_pointer (&self->targets, g_array_unref);
  g_clear_object (&self->attribution);
  g_free (self->explained);
  g_free (self->pick_reason);
  g_clear_pointer (&self->picks, g_ptr_array_unref);
  g_ptr_array_unref (self->traces);

  G_OBJECT_CLASS (ws_overview_parent_class)->finalize (object);
}

static void
ws_overview_class_init (WsOverviewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_overview_finalize;
}

static void
ws_overview_init (WsOverview *self)
{
  self->traces = g_ptr_array_new_with_free_func (g_object_unref);
  self->durations = g_array_new (FALSE, FALSE, sizeof (WsTime));
  self->slowest = g_array_new (FALSE, TRUE, sizeof (WsOverviewInstance));
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x < y ? -1 : x > y;
}

static gboolean
add_slowest (WsOverview                  *self,
             const WsAttributionSettings *settings,
             GError                     **error)
{
  g_autoptr(GArray) slowest = ws_attribution_targets_slowest (self->traces, NULL, WS_OVERVIEW_N_SLOWEST);

  for (guint i = 0; i < slowest->len; i++)
    {
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
      g_autoptr(WsAttribution) attr = NULL;
      WsOverviewInstance inst = { g_array_index (slowest, WsAttributionTarget, i), NULL, 0.0 };

      g_array_append_val (one, inst.target);
      if ((attr = ws_attribution_compute (one, settings, error)) == NULL)
        return FALSE;
      if (ws_attribution_get_n_causes (attr) > 0)
        {
          inst.top_cause = g_strdup (ws_attribution_get_cause (attr, 0)->label);
          inst.top_share = ws_attribution_get_cause (attr, 0)->share;
        }
      g_array_append_val (self->slowest, inst);
    }
  return TRUE;
}

/* The stack table's frames of a pattern as "function (module)" lines. */
static char **
pattern_lines (WsStackTable    *table,
               const WsPattern *p)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **out;

  for (guint i = 0; i < p->n_frames; i++)
    {
      g_autofree char *line = ws_stack_table_format_frame (table, p->frames[i]);
      g_strv_builder_add (b, line);
    }
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

void
ws_overview_cluster_free (WsOverviewCluster *cluster)
{
  if (cluster == NULL)
    return;
  g_free (cluster->label);
  g_strfreev (cluster->frames);
  g_free (cluster);
}

/**
 * ws_overview_cluster_from_run:
 * @run: a clustered mining run
 *
 * The first of @run's ranked clusters (what the Mining page lists first),
 * named after its costliest pattern; without clusters, only the waits the
 * scope left out.
 */
WsOverviewCluster *
ws_overview_cluster_from_run (WsMiningResult *run)
{
  WsOverviewCluster *out = g_new0 (WsOverviewCluster, 1);
  WsStackTable *table = ws_stack_db_get_stack_table (run->db);
  const WsPattern *best = NULL;
  const WsCluster *c;

  out->n_left_out = run->n_left_out;
  out->left_out_time = run->left_out_time;
  if (run->clusters == NULL || ws_cluster_set_get_n_clusters (run->clusters) == 0)
    {
      out->frames = g_new0 (char *, 1);
      return out;
    }
  c = ws_cluster_set_get_cluster (run->clusters, 0);
  for (guint i = 0; i < c->n_patterns; i++)
    {
      const WsPattern *p = ws_pattern_set_get_pattern (run->patterns, c->patterns[i]);
      if (best == NULL || p->cost > best->cost)
        best = p;
    }
  out->total_cost = c->total_cost;
  out->n_events = c->n_events;
  out->n_patterns = c->n_patterns;
  out->frames = pattern_lines (table, best);
  out->label = ws_attribution_frames_signature (table, best->frames, best->n_frames);
  return out;
}

/**
 * ws_overview_top_cluster:
 * @traces: (element-type WsTrace)
 * @settings: (nullable): the mining settings; %NULL for the Overview's:
 *   the defaults of ws_mining_settings_init() by cause, with clustering,
 *   the history store only read
 *
 * Mines and clusters @traces through ws_mining_run(), the entry point of
 * `waitscope-cli cluster` and of the Mining page, and summarises the
 * first cluster.
 *
 * Returns: (transfer full): the summary, or %NULL with @error set
 */
WsOverviewCluster *
ws_overview_top_cluster (GPtrArray               *traces,
                         const WsMiningSettings  *settings,
                         GCancellable            *cancellable,
                         GError                 **error)
{
  g_autoptr(WsMiningResult) run = NULL;
  WsMiningSettings defaults;

  g_return_val_if_fail (traces != NULL, NULL);

  if (settings == NULL)
    {
      ws_mining_settings_init (&defaults);
      defaults.cluster = TRUE;
      defaults.by_cause = TRUE;
      defaults.record_history = FALSE;
      settings = &defaults;
    }
  run = ws_mining_run (traces, settings, cancellable, NULL, NULL, error);
  return run != NULL ? ws_overview_cluster_from_run (run) : NULL;
}

WsOverview *
ws_overview_compute (GPtrArray                   *traces,
                     const WsAttributionSettings *settings,
                     GError                     **error)
{
  return ws_overview_compute_for (traces, settings, NULL, error);
}

WsOverview *
ws_overview_compute_for (GPtrArray                   *traces,
                         const WsAttributionSettings *settings,
                         const WsPickChoice          *choice,
                         GError                     **error)
{
  g_autoptr(WsOverview) self = NULL;
  WsAttributionSettings defaults;
  GPtrArray *picks = NULL;
  WsWhyTargetsKind kind;

  g_return_val_if_fail (traces != NULL, NULL);

  if (settings == NULL)
    {
      ws_attribution_settings_init (&defaults);
      settings = &defaults;
    }
  self = g_object_new (WS_TYPE_OVERVIEW, NULL);
  for (guint t = 0; t < traces->len; t++)
    {
      WsTrace *trace = g_ptr_array_index (traces, t);

      g_ptr_array_add (self->traces, g_object_ref (trace));
      self->has_waits = self->has_waits || ws_trace_count_kind (trace, WS_EVENT_WAIT) > 0;
      for (guint i = 0; i < ws_trace_get_n_scenario_instances (trace); i++)
        {
          const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
          WsTime d = inst->t1 - inst->t0;
          g_array_append_val (self->durations, d);
        }
    }
  g_array_sort (self->durations, compare_time);

  if (!add_slowest (self, settings, error))
    return NULL;
  self->targets = ws_why_default_targets (self->traces, NULL, settings->classifier, choice, &picks, &kind);
  if (kind == WS_WHY_TARGETS_SLOWEST_SHARE)
    {
      self->explained = g_strdup_printf (_("the slowest 10 %% of the scenario instances (%u of %u)"),
                                         self->targets->len, self->durations->len);
    }
  else
    {
      g_autoptr(GString) reason = g_string_new (NULL);

      self->picks = picks;
      for (guint i = 0; i < picks->len; i++)
        {
          const WsThreadPick *pick = g_ptr_array_index (picks, i);
          g_autofree char *one = ws_thread_pick_describe (pick);

          /* several traces: each sentence says which trace it is about */
          if (self->traces->len > 1)
            g_string_append_printf (reason, "%s%s: %s", i > 0 ? " " : "", ws_trace_get_name (pick->trace), one);
          else
            g_string_append_printf (reason, "%s%s", i > 0 ? " " : "", one);
        }
      if (reason->len > 0)
        self->pick_reason = g_string_free (g_steal_pointer (&reason), FALSE);
      self->explained = ws_thread_picks_explained (picks, self->targets->len);
    }
  if ((self->attribution = ws_attribution_compute (self->targets, settings, error)) == NULL)
    return NULL;
  return g_steal_pointer (&self);
}

const WsTime *
ws_overview_get_durations (WsOverview *self,
                           guint      *n)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  *n = self->durations->len;
  return (const WsTime *) (gconstpointer) self->durations->data;
}

guint
ws_overview_get_n_slowest (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), 0);
  return self->slowest->len;
}

const WsOverviewInstance *
ws_overview_get_slowest (WsOverview *self,
                         guint       index)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  g_return_val_if_fail (index < self->slowest->len, NULL);
  return &g_array_index (self->slowest, WsOverviewInstance, index);
}

WsAttribution *
ws_overview_get_attribution (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  return self->attribution;
}

const char *
ws_overview_get_explained (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  return self->explained;
}

GArray *
ws_overview_get_targets (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  return self->targets;
}

const char *
ws_overview_get_pick_reason (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  return self->pick_reason;
}

const WsThreadPick *
ws_overview_get_pick (WsOverview *self,
                      guint       index)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), NULL);
  return self->picks != NULL && index < self->picks->len ? g_ptr_array_index (self->picks, index) : NULL;
}

/* ------------------------------------------------------------------ */
/* The top contrast pattern                                             */

void
ws_overview_contrast_free (WsOverviewContrast *contrast)
{
  if (contrast == NULL)
    return;
  g_free (contrast->scenario);
  g_free (contrast->component);
  g_free (contrast->pattern);
  g_free (contrast);
}

WsOverviewContrast *
ws_overview_top_contrast (GPtrArray         *traces,
                          WsFrameClassifier *classifier,
                          GCancellable      *cancellable,
                          GError           **error)
{
  g_autoptr(GArray) slowest = NULL;
  g_autoptr(WsInstanceSet) instances = ws_instance_set_new ();
  g_autoptr(WsContrastResult) result = NULL;
  g_autoptr(WsOverviewContrast) out = NULL;
  const WsAttributionTarget *top;
  const WsScenarioInstance *inst;
  const WsContrastPattern *pattern;
  WsContrastSettings settings = { 0 };

  g_return_val_if_fail (traces != NULL, NULL);

  slowest = ws_attribution_targets_slowest (traces, NULL, 1);
  if (slowest->len == 0)
    return NULL;
  top = &g_array_index (slowest, WsAttributionTarget, 0);
  inst = ws_trace_get_scenario_instance (top->trace, top->instance);

  out = g_new0 (WsOverviewContrast, 1);
  out->scenario = g_strdup (ws_trace_get_string (top->trace, inst->scenario));
  for (guint t = 0; t < traces->len; t++)
    ws_instance_set_add_trace (instances, g_ptr_array_index (traces, t), out->scenario);
  /* The slowest instance's program: the default of `contrast` too. */
  out->component = ws_instance_set_dup_default_component (instances);

  settings.component = out->component;
  settings.instances = instances;
  settings.classifier = classifier;
  if ((result = ws_contrast_run (&settings, cancellable, NULL, NULL, error)) == NULL)
    return NULL;
  out->n_patterns = ws_contrast_result_get_n_patterns (result);
  out->t_fast = ws_contrast_result_get_t_fast (result);
  out->t_slow = ws_contrast_result_get_t_slow (result);
  out->n_fast = ws_instance_set_get_n (ws_contrast_result_get_fast (result));
  out->n_slow = ws_instance_set_get_n (ws_contrast_result_get_slow (result));
  if ((pattern = ws_contrast_result_get_top_pattern (result)) != NULL)
    {
      out->pattern = ws_contrast_result_format_pattern (result, pattern);
      out->cost_per_occurrence = pattern->n > 0 ? pattern->c / (WsTime) pattern->n : pattern->c;
      out->occurrences = pattern->n;
      out->high_impact = pattern->high_impact;
    }
  return g_steal_pointer (&out);
}

/**
 * ws_overview_get_has_waits:
 *
 * Whether any trace explained holds a wait.  A trace of CPU samples only
 * (no sched_switch events) holds none: its "nothing held it up" means
 * nothing could be seen, not that nothing waited.
 */
gboolean
ws_overview_get_has_waits (WsOverview *self)
{
  g_return_val_if_fail (WS_IS_OVERVIEW (self), FALSE);
  return self->has_waits;
}
