/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One mining run, the one entry point both waitscope-cli (mine, cluster)
 * and the GUI's Mining page call: record the traces in the history store,
 * extract the area of interest (StackMine §IV), mine the costly maximal
 * patterns (§V), weight the functions and cluster the patterns (§VI), and
 * compute the signatures' bottleneck coverage (§VII).
 *
 * Where the two front-ends used to disagree, the run decides once:
 * - without a usable history store, functions are weighted by every
 *   waiting and sampled stack of the traces mined (the closest stand-in
 *   for "every trace ever imported"), not only by the mined stacks;
 * - a history store that cannot be opened, read or written never stops
 *   the run: it falls back to those weights and says so in ->warnings;
 * - scenario instances are one stream each or one stream per trace as the
 *   caller asks (@per_instance); the GUI asks for one each, the CLI's
 *   default is one per trace (--per-instance for one each);
 * - the stack database has a table of its own, so a run never writes to
 *   a trace that a window may be drawing meanwhile.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ws-aoi-cause.h"
#include "ws-error.h"
#include "ws-mining-run.h"
#include "ws-stack-counts.h"

/* The share of the progress bar each stage ends at. */
#define EXTRACT_END  0.2
#define MINE_END     0.7
#define WEIGHTS_END  0.72

typedef struct {
  WsProgressFunc  func;
  gpointer        data;
  double          base;
  double          scale;
} Progress;

static void
report (Progress   *progress,
        double      fraction,
        const char *message)
{
  if (progress->func != NULL)
    progress->func (fraction, message, progress->data);
}

/* A stage's own 0…1 mapped into its share of the whole run. */
static void
stage_cb (double      fraction,
          const char *message,
          gpointer    data)
{
  Progress *progress = data;

  if (fraction >= 0)
    fraction = progress->base + progress->scale * CLAMP (fraction, 0, 1);
  report (progress, fraction, message);
}

/* ------------------------------------------------------------------ */
/* Settings                                                             */

/**
 * ws_mining_settings_init:
 *
 * The defaults: waiting stacks, the waits that delayed another thread
 * (%WS_MINING_RUN_SCOPE_DELAYING) and every running sample, λ by the guideline with a
 * share of 0.01 and the streams' mean delay, no clustering (threshold 0.6,
 * average linkage, ranked by total cost when asked), the default history
 * store read and recorded in.
 */
void
ws_mining_settings_init (WsMiningSettings *settings)
{
  g_return_if_fail (settings != NULL);

  memset (settings, 0, sizeof *settings);
  settings->stacks = WS_AOI_WAITING;
  /* The one default of the CLI and the Mining page (issue 8): with every
   * wait, idle loops of kernel workers ranked first on every trace. */
  settings->scope = WS_MINING_RUN_SCOPE_DELAYING;
  settings->lambda_share = 0.01;
  settings->threshold = 0.6;
  settings->linkage = WS_LINKAGE_AVERAGE;
  settings->rank = WS_CLUSTER_RANK_TOTAL;
  settings->read_history = TRUE;
  settings->record_history = TRUE;
}

static gboolean
add_filters (WsAoi                   *aoi,
             const WsMiningSettings  *settings,
             GError                 **error)
{
  for (guint i = 0; settings->must != NULL && settings->must[i] != NULL; i++)
    if (!ws_aoi_add_must (aoi, settings->must[i], error))
      {
        /* Translators: prefix of a regular-expression error, names the filter */
        g_prefix_error (error, _("Must contain a frame matching: "));
        return FALSE;
      }
  for (guint i = 0; settings->must_not != NULL && settings->must_not[i] != NULL; i++)
    if (!ws_aoi_add_must_not (aoi, settings->must_not[i], error))
      {
        g_prefix_error (error, _("Must not contain a frame matching: "));
        return FALSE;
      }
  return TRUE;
}

static GRegex *
compile_thread_names (const char  *pattern,
                      GError     **error)
{
  g_autoptr(GError) local = NULL;
  GRegex *regex;

  if (pattern == NULL || *pattern == '\0')
    return NULL;
  regex = g_regex_new (pattern, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &local);
  if (regex == NULL)
    g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("Invalid thread expression “%s”: %s"),
                 pattern, local->message);
  return regex;
}

static gboolean
check_numbers (const WsMiningSettings  *settings,
               GError                 **error)
{
  if (settings->lambda < 0 || settings->lambda_delay < 0)
    g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("λ must be positive"));
  else if (settings->lambda == 0 && (settings->lambda_share <= 0 || settings->lambda_share > 1))
    g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("The share of the streams must be in (0, 1]"));
  else if (settings->threshold < 0 || settings->threshold > 1)
    g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("The clustering threshold must be in [0, 1]"));
  else if (settings->by_cause && settings->scope != WS_MINING_RUN_SCOPE_DELAYING)
    g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                         _("Mining by cause explains the waits that delayed another thread: use the default scope"));
  else
    return TRUE;
  return FALSE;
}

/**
 * ws_mining_settings_check:
 *
 * Checks what can be checked before any trace is read: the regular
 * expressions and the numbers.  ws_mining_run() checks them too.
 *
 * Returns: %TRUE if @settings can run, else %FALSE with a
 *   %WS_ERROR_INVALID error naming the setting
 */
gboolean
ws_mining_settings_check (const WsMiningSettings  *settings,
                          GError                 **error)
{
  g_autoptr(WsAoi) aoi = NULL;
  g_autoptr(GRegex) threads = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (settings != NULL, FALSE);

  aoi = ws_aoi_new (settings->stacks);
  if (!add_filters (aoi, settings, error) || !check_numbers (settings, error))
    return FALSE;
  threads = compile_thread_names (settings->thread_names, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

static void
warn (WsMiningResult *result,
      const char     *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
warn (WsMiningResult *result,
      const char     *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (result->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

WsMiningResult *
ws_mining_result_ref (WsMiningResult *result)
{
  g_return_val_if_fail (result != NULL, NULL);
  g_ref_count_inc (&result->ref_count);
  return result;
}

void
ws_mining_result_unref (WsMiningResult *result)
{
  g_return_if_fail (result != NULL);

  if (!g_ref_count_dec (&result->ref_count))
    return;
  g_clear_pointer (&result->traces, g_ptr_array_unref);
  g_clear_object (&result->db);
  g_clear_pointer (&result->patterns, ws_pattern_set_unref);
  g_clear_object (&result->similarity);
  g_clear_pointer (&result->clusters, ws_cluster_set_unref);
  g_clear_object (&result->history);
  g_clear_pointer (&result->warnings, g_ptr_array_unref);
  g_clear_object (&result->coverage);
  g_clear_pointer (&result->stream_traces, g_array_unref);
  g_clear_pointer (&result->digest, ws_digest_unref);
  g_free (result);
}

/* The JSON and text name of @weights. */
const char *
ws_mining_weights_to_string (WsMiningWeights weights)
{
  switch (weights)
    {
    case WS_MINING_WEIGHTS_HISTORY:       return "history";
    case WS_MINING_WEIGHTS_LOADED_TRACES: return "loaded traces";
    case WS_MINING_WEIGHTS_NONE:
    default:                              return "none";
    }
}

/* ------------------------------------------------------------------ */
/* The history store                                                    */

/* Trace @index of @digest, recorded as ws_history_store_record_trace()
 * records the trace: its stack counts under its content hash. */
static gboolean
record_digest_trace (WsHistoryStore  *store,
                     WsDigest        *digest,
                     guint            index,
                     gboolean        *newly,
                     GError         **error)
{
  const WsDigestTrace *t = ws_digest_get_trace (digest, index);
  g_autoptr(GArray) stacks = g_array_new (FALSE, FALSE, sizeof (WsStackId));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint64));

  if (ws_history_store_has_trace (store, t->content_hash))
    {
      *newly = FALSE;
      return TRUE;
    }
  for (guint i = 0; i < t->counts->len; i++)
    {
      const WsStackCount *c = &g_array_index (t->counts, WsStackCount, i);

      g_array_append_val (stacks, c->stack);
      g_array_append_val (weights, c->count);
    }
  return ws_history_store_record_stacks (store, t->content_hash, t->path, ws_digest_get_stack_table (digest),
                                         (const WsStackId *) (gpointer) stacks->data,
                                         (const guint64 *) (gpointer) weights->data, stacks->len, newly, error);
}

/* Opens the store (creating it only if the traces are to be recorded)
 * and records the traces in it, once per content. */
static void
use_history (WsMiningResult         *result,
             const WsMiningSettings *settings)
{
  g_autofree char *path = settings->history_path ? g_strdup (settings->history_path)
                                                 : ws_history_store_default_path ();
  g_autoptr(GError) error = NULL;

  if (!settings->read_history && !settings->record_history)
    return;
  if (!settings->record_history && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return;
  /* Only read: a store that is not to be recorded in is never written. */
  result->history = settings->record_history ? ws_history_store_open (path, &error)
                                             : ws_history_store_open_read_only (path, &error);
  if (result->history == NULL)
    {
      warn (result, _("%s; the traces are not recorded"), error->message);
      return;
    }
  for (guint i = 0; settings->record_history && i < result->n_traces; i++)
    {
      gboolean newly = FALSE;

      if (result->digest != NULL ? !record_digest_trace (result->history, result->digest, i, &newly, &error)
                                 : !ws_history_store_record_trace (result->history,
                                                                   g_ptr_array_index (result->traces, i), &newly, &error))
        {
          warn (result, "%s", error->message);
          g_clear_error (&error);
        }
      result->n_recorded += newly;
    }
}

/* ------------------------------------------------------------------ */
/* The area of interest                                                 */

typedef struct {
  const WsMiningSettings *settings;
  WsAoi                  *aoi;
  GRegex                 *threads;
  WsStackDb              *db;
  WsFrameClassifier      *classifier;
  GCancellable           *cancellable;
  Progress               *progress;
  WsMiningResult         *result;
} Extract;

/* The events of the threads chosen by id or by name; %NULL for all. */
static WsEventSet *
thread_scope (Extract *x,
              WsTrace *trace)
{
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint32));

  if (x->settings->n_tids > 0)
    g_array_append_vals (tids, x->settings->tids, x->settings->n_tids);
  if (x->threads == NULL && tids->len == 0)
    return NULL;
  for (guint t = 0; x->threads != NULL && t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *th = ws_trace_get_thread (trace, t);
      if (th->name != NULL && g_regex_match (x->threads, th->name, 0, NULL))
        g_array_append_val (tids, th->tid);
    }
  return ws_aoi_scope_threads (trace, (const gint32 *) (gpointer) tids->data, tids->len);
}

/* @scope ∩ @threads (a %NULL @scope: all events); takes @scope. */
static WsEventSet *
restrict_scope (WsEventSet       *scope,
                const WsEventSet *threads)
{
  WsEventSet *out;
  guint n;

  if (threads == NULL)
    return scope;
  n = ws_event_set_get_n_events (threads);
  out = ws_event_set_new (n);
  for (guint i = 0; i < n; i++)
    if (ws_event_set_contains (threads, i) && (scope == NULL || ws_event_set_contains (scope, i)))
      ws_event_set_add (out, i);
  if (scope != NULL)
    ws_event_set_free (scope);
  return out;
}

static gboolean
extract_graph (Extract          *x,
               WsTrace          *trace,
               const WsSymptom  *symptom,
               const WsEventSet *only,
               guint             stream,
               GError          **error)
{
  g_autoptr(WsEventSet) scope = ws_aoi_scope_symptom_graph (trace, symptom, x->settings->critical_path,
                                                            x->classifier, x->cancellable, error);

  if (scope == NULL)
    return FALSE;
  scope = restrict_scope (g_steal_pointer (&scope), only);
  ws_aoi_extract (x->aoi, trace, scope, x->db, stream);
  return TRUE;
}

/* One instance's events: its thread in its window, or its graph. */
static WsEventSet *
instance_scope (Extract                  *x,
                WsTrace                  *trace,
                const WsScenarioInstance *inst,
                const WsEventSet         *only,
                GError                  **error)
{
  WsSymptom symptom = { inst->thread, inst->t0, inst->t1 };
  WsEventSet *scope;

  if (x->settings->scope == WS_MINING_RUN_SCOPE_INSTANCES)
    scope = ws_aoi_scope_window (trace, inst->thread, inst->t0, inst->t1);
  else
    scope = ws_aoi_scope_symptom_graph (trace, &symptom, x->settings->critical_path, x->classifier,
                                        x->cancellable, error);
  return scope ? restrict_scope (scope, only) : NULL;
}

/* Each instance its own stream, its delay its duration (StackMine's
 * response delay); or one stream per trace over the instances' union. */
static gboolean
extract_instances (Extract          *x,
                   WsTrace          *trace,
                   const WsEventSet *only,
                   double            base,
                   double            share,
                   GError          **error)
{
  const char *scenario = x->settings->scenario;
  guint32 id = scenario ? ws_trace_lookup_string (trace, scenario) : WS_NONE;
  guint n = ws_trace_get_n_scenario_instances (trace), count = 0, merged = G_MAXUINT;
  g_autoptr(WsEventSet) all = NULL;
  gint64 total = 0, max = 0;

  if (!x->settings->per_instance)
    {
      merged = ws_stack_db_add_stream (x->db, ws_trace_get_name (trace));
      all = ws_event_set_new (ws_trace_get_n_events (trace));
    }
  for (guint i = 0; i < n && !(scenario != NULL && id == WS_NONE); i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      g_autoptr(WsEventSet) part = NULL;

      if (scenario != NULL && inst->scenario != id)
        continue;
      if (g_cancellable_set_error_if_cancelled (x->cancellable, error) ||
          (part = instance_scope (x, trace, inst, only, error)) == NULL)
        return FALSE;
      count++;
      if (x->settings->per_instance)
        {
          g_autofree char *name = g_strdup_printf ("%s %s #%u", ws_trace_get_name (trace),
                                                   ws_trace_get_string (trace, inst->scenario), count);
          guint s = ws_stack_db_add_stream (x->db, name);

          ws_stack_db_set_stream_delay (x->db, s, inst->t1 - inst->t0, inst->t1 - inst->t0);
          ws_aoi_extract (x->aoi, trace, part, x->db, s);
        }
      else
        {
          ws_event_set_union (all, part);
          total += inst->t1 - inst->t0;
          max = MAX (max, inst->t1 - inst->t0);
        }
      if ((i & 15) == 0)
        report (x->progress, base + share * i / n, NULL);
    }
  if (!x->settings->per_instance)
    {
      ws_aoi_extract (x->aoi, trace, all, x->db, merged);
      ws_stack_db_set_stream_delay (x->db, merged, total, max);
    }
  return TRUE;
}

static gboolean
extract_trace (Extract  *x,
               GPtrArray *traces,
               guint     index,
               GError  **error)
{
  WsTrace *trace = g_ptr_array_index (traces, index);
  g_autoptr(WsEventSet) only = thread_scope (x, trace);
  double base = EXTRACT_END * index / traces->len, share = EXTRACT_END / traces->len;

  switch (x->settings->scope)
    {
    case WS_MINING_RUN_SCOPE_INSTANCES:
    case WS_MINING_RUN_SCOPE_INSTANCE_GRAPHS:
      return extract_instances (x, trace, only, base, share, error);

    case WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH:
      /* Only the trace the symptom is in makes a stream. */
      if (index != x->settings->symptom_trace)
        return TRUE;
      return extract_graph (x, trace, &x->settings->symptom, only,
                            ws_stack_db_add_stream (x->db, ws_trace_get_name (trace)), error);

    case WS_MINING_RUN_SCOPE_DELAYING:
      {
        g_autoptr(WsEventSet) scope = restrict_scope (ws_aoi_scope_delaying (trace, x->classifier), only);

        guint stream = ws_stack_db_add_stream (x->db, ws_trace_get_name (trace));

        ws_aoi_count_left_out (trace, scope, only, &x->result->n_left_out, &x->result->left_out_time);
        if (x->settings->by_cause)
          ws_aoi_extract_causes (x->aoi, trace, scope, x->classifier, x->db, stream);
        else
          ws_aoi_extract (x->aoi, trace, scope, x->db, stream);
      }
      return TRUE;

    case WS_MINING_RUN_SCOPE_ALL:
    default:
      {
        g_autoptr(WsEventSet) scope = restrict_scope (NULL, only);
        ws_aoi_extract (x->aoi, trace, scope, x->db, ws_stack_db_add_stream (x->db, ws_trace_get_name (trace)));
      }
      return TRUE;
    }
}

/**
 * ws_mining_settings_digest_area:
 *
 * Returns: the area of a digest that @settings mine
 */
WsDigestArea
ws_mining_settings_digest_area (const WsMiningSettings *settings)
{
  if (settings->by_cause)
    return WS_DIGEST_AREA_CAUSES;
  if (settings->stacks == WS_AOI_RUNNING)
    return WS_DIGEST_AREA_RUNNING;
  return settings->scope == WS_MINING_RUN_SCOPE_ALL ? WS_DIGEST_AREA_WAITING_ALL : WS_DIGEST_AREA_WAITING;
}

/**
 * ws_mining_settings_fit_digest:
 *
 * Whether a digest holds what @settings mine: the delaying scope (the
 * default) or all, with content filters; not a scenario, thread or
 * symptom scope, which need the traces' events.
 *
 * Returns: %TRUE, or %FALSE with a %WS_ERROR_INVALID error saying why
 */
gboolean
ws_mining_settings_fit_digest (const WsMiningSettings  *settings,
                               GError                 **error)
{
  g_return_val_if_fail (settings != NULL, FALSE);

  if ((settings->scope != WS_MINING_RUN_SCOPE_DELAYING && settings->scope != WS_MINING_RUN_SCOPE_ALL) ||
      settings->n_tids > 0 || (settings->thread_names != NULL && *settings->thread_names != '\0'))
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("A digest holds the delaying and the all scopes only: this scope needs the traces"));
      return FALSE;
    }
  return TRUE;
}

/* Each trace of the digest a stream: the area the settings ask for, each
 * stack through the content filters, in the order the trace met them —
 * so the database is the one extract_trace() builds from the trace. */
static void
extract_digest (Extract *x)
{
  WsDigest *digest = x->result->digest;
  WsStackTable *source = ws_digest_get_stack_table (digest);
  WsDigestArea area = ws_mining_settings_digest_area (x->settings);

  for (guint i = 0; i < ws_digest_get_n_traces (digest); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (digest, i);
      guint stream = ws_stack_db_add_stream (x->db, t->name);

      if (x->settings->scope == WS_MINING_RUN_SCOPE_DELAYING)
        {
          x->result->n_left_out += t->n_left_out;
          x->result->left_out_time += t->left_out_time;
        }
      for (guint k = 0; k < t->areas[area]->len; k++)
        {
          const WsDigestEntry *e = &g_array_index (t->areas[area], WsDigestEntry, k);

          if (ws_aoi_stack_matches (x->aoi, source, e->stack))
            ws_stack_db_add_merged (x->db, stream, ws_stack_db_import_stack (x->db, source, e->stack),
                                    e->cost, e->n_events, e->max_cost);
        }
      g_array_append_val (x->result->stream_traces, i);
    }
}

/* The area of interest of every trace, into one stack database. */
static gboolean
extract (WsMiningResult          *result,
         const WsMiningSettings  *settings,
         GCancellable            *cancellable,
         Progress                *progress,
         GError                 **error)
{
  g_autoptr(WsStackTable) table = ws_stack_table_new ();
  g_autoptr(WsAoi) aoi = ws_aoi_new (settings->stacks);
  g_autoptr(GRegex) threads = NULL;
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();
  Extract x = { settings, aoi, NULL, NULL, classifier, cancellable, progress, result };

  if (!add_filters (aoi, settings, error))
    return FALSE;
  if (settings->thread_names != NULL && *settings->thread_names != '\0' &&
      (threads = compile_thread_names (settings->thread_names, error)) == NULL)
    return FALSE;
  if (settings->scope == WS_MINING_RUN_SCOPE_SYMPTOM_GRAPH && settings->symptom_trace >= result->traces->len)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID, _("The symptom is in none of the traces"));
      return FALSE;
    }
  x.threads = threads;
  result->db = x.db = ws_stack_db_new (table);
  if (result->digest != NULL)
    {
      if (!ws_mining_settings_fit_digest (settings, error))
        return FALSE;
      extract_digest (&x);
      report (progress, EXTRACT_END, NULL);
      return !g_cancellable_set_error_if_cancelled (cancellable, error);
    }
  for (guint i = 0; i < result->traces->len; i++)
    {
      if (!extract_trace (&x, result->traces, i, error))
        return FALSE;
      while (result->stream_traces->len < ws_stack_db_get_n_streams (x.db))
        g_array_append_val (result->stream_traces, i);
      report (progress, EXTRACT_END * (i + 1) / result->traces->len, NULL);
    }
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* The class of stream @s's trace. */
static WsRunClass
stream_class (WsMiningResult         *result,
              const WsMiningSettings *settings,
              guint                   s)
{
  return settings->classes[g_array_index (result->stream_traces, guint, s)];
}

/* λ as given, or by the paper's guideline; ranked by the discriminative
 * score, over the slow traces' streams only (what must be costly is what
 * the slow runs spend, not what every run spends). */
static void
choose_lambda (WsMiningResult         *result,
               const WsMiningSettings *settings)
{
  guint n_streams = ws_stack_db_get_n_streams (result->db), n_guide = 0;
  gint64 guide_delay = 0;
  gboolean slow_only = result->discriminative && settings->rank == WS_CLUSTER_RANK_DISCRIMINATIVE;

  for (guint s = 0; s < n_streams; s++)
    {
      gint64 d = ws_stack_db_get_stream_delay_total (result->db, s);

      result->total_delay += d;
      if (!slow_only || stream_class (result, settings, s) == WS_RUN_CLASS_SLOW)
        {
          guide_delay += d;
          n_guide++;
        }
    }
  if (settings->lambda > 0)
    result->lambda = settings->lambda;
  else
    {
      gint64 delay = settings->lambda_delay > 0 ? settings->lambda_delay
                     : n_guide > 0 ? guide_delay / n_guide : 0;
      result->lambda = ws_miner_lambda_from_guideline (settings->lambda_share, delay, n_guide);
    }
  /* An empty area of interest has no guideline: anything costs enough. */
  if (result->lambda <= 0)
    result->lambda = 1;
}

/* ------------------------------------------------------------------ */
/* Weights and clusters                                                 */

/* Every waiting and sampled stack of the traces mined, each trace's
 * stacks brought into the database's table. */
static void
count_loaded (WsSimilarity *similarity,
              WsStackDb    *db,
              GPtrArray    *traces)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);

  for (guint i = 0; i < traces->len; i++)
    {
      WsTrace *trace = g_ptr_array_index (traces, i);
      g_autoptr(GArray) counts = ws_stack_counts_of_trace (trace);

      for (guint k = 0; k < counts->len; k++)
        {
          const WsStackCount *c = &g_array_index (counts, WsStackCount, k);
          WsStackId stack = ws_stack_db_import_stack (db, ws_trace_get_stack_table (trace), c->stack);
          guint n;
          const WsFrameId *frames = ws_stack_table_get_stack (table, stack, &n);

          ws_similarity_count_stack (similarity, frames, n, c->count);
        }
    }
}

/* count_loaded() of a digest's traces. */
static void
count_digest (WsSimilarity *similarity,
              WsStackDb    *db,
              WsDigest     *digest)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);

  for (guint i = 0; i < ws_digest_get_n_traces (digest); i++)
    {
      const WsDigestTrace *t = ws_digest_get_trace (digest, i);

      for (guint k = 0; k < t->counts->len; k++)
        {
          const WsStackCount *c = &g_array_index (t->counts, WsStackCount, k);
          WsStackId stack = ws_stack_db_import_stack (db, ws_digest_get_stack_table (digest), c->stack);
          guint n;
          const WsFrameId *frames = ws_stack_table_get_stack (table, stack, &n);

          ws_similarity_count_stack (similarity, frames, n, c->count);
        }
    }
}

/* Function weights from every trace ever recorded (StackMine §VI.C), or
 * from the traces mined when there is no usable store. */
static void
weigh (WsMiningResult *result)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;

  result->similarity = ws_similarity_new (ws_stack_db_get_stack_table (result->db));
  for (guint p = 0; result->history != NULL && p < ws_pattern_set_get_n_patterns (result->patterns); p++)
    {
      const WsPattern *pattern = ws_pattern_set_get_pattern (result->patterns, p);
      for (guint k = 0; k < pattern->n_frames; k++)
        if (g_hash_table_add (seen, GUINT_TO_POINTER (pattern->frames[k] + 1)))
          g_array_append_val (frames, pattern->frames[k]);
    }
  if (result->history != NULL &&
      ws_history_store_fill_similarity (result->history, result->similarity,
                                        (const WsFrameId *) (gpointer) frames->data, frames->len, &error))
    {
      result->weights = WS_MINING_WEIGHTS_HISTORY;
      return;
    }
  if (error != NULL)
    {
      warn (result, _("%s; functions are weighted by the traces mined"), error->message);
      /* Counts filled half-way would mix the two sources. */
      g_clear_object (&result->similarity);
      result->similarity = ws_similarity_new (ws_stack_db_get_stack_table (result->db));
    }
  if (result->digest != NULL)
    count_digest (result->similarity, result->db, result->digest);
  else
    count_loaded (result->similarity, result->db, result->traces);
  result->weights = WS_MINING_WEIGHTS_LOADED_TRACES;
}

/* ------------------------------------------------------------------ */
/* Coverage                                                             */

/* Each function name of the area of interest, to its smallest frame id. */
static GHashTable *
frames_by_name (WsStackDb *db)
{
  WsStackTable *table = ws_stack_db_get_stack_table (db);
  GHashTable *by_name = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint e = 0; e < ws_stack_db_get_n_entries (db); e++)
    {
      guint n;
      const WsFrameId *f = ws_stack_db_get_frames (db, e, &n);

      for (guint k = 0; k < n; k++)
        {
          const char *fn = ws_stack_table_get_frame (table, f[k])->function;
          gpointer old = g_hash_table_lookup (by_name, fn);

          if (old == NULL || GPOINTER_TO_UINT (old) - 1 > f[k])
            g_hash_table_insert (by_name, (gpointer) fn, GUINT_TO_POINTER (f[k] + 1));
        }
    }
  return by_name;
}

/* Each signature "F1,F2,…": each name the first frame of that function
 * in the area of interest. */
static gboolean
cover (WsMiningResult     *result,
       const char *const  *signatures,
       GError            **error)
{
  g_autoptr(GHashTable) by_name = frames_by_name (result->db);

  result->coverage = ws_coverage_new (result->db);
  for (guint i = 0; signatures[i] != NULL; i++)
    {
      g_auto(GStrv) names = g_strsplit (signatures[i], ",", -1);
      g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));

      for (guint k = 0; names[k] != NULL; k++)
        {
          gpointer id = g_hash_table_lookup (by_name, g_strstrip (names[k]));
          WsFrameId f;

          if (id == NULL)
            {
              g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("no function “%s” in the area of interest"),
                           names[k]);
              return FALSE;
            }
          f = GPOINTER_TO_UINT (id) - 1;
          g_array_append_val (frames, f);
        }
      ws_coverage_add_signature (result->coverage, signatures[i], (const WsFrameId *) (gpointer) frames->data,
                                 frames->len);
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The discriminative score                                             */

/* Whether both classes have a trace among those mined. */
static gboolean
has_both_classes (guint                   n_traces,
                  const WsMiningSettings *settings)
{
  gboolean fast = FALSE, slow = FALSE;

  for (guint t = 0; settings->classes != NULL && t < n_traces; t++)
    {
      fast |= settings->classes[t] == WS_RUN_CLASS_FAST;
      slow |= settings->classes[t] == WS_RUN_CLASS_SLOW;
    }
  return fast && slow;
}

/* The discriminative score of a support set (sorted entry ids): its mean
 * cost per slow trace minus its mean cost per fast trace.  A pattern every
 * run pays alike scores about 0; one only slow runs pay scores what it
 * costs them. */
static gint64
discriminative_score (WsMiningResult         *result,
                      const WsMiningSettings *settings,
                      const guint32          *support,
                      guint                   n_support)
{
  gint64 cost[3] = { 0, 0, 0 };
  guint n[3] = { 0, 0, 0 };

  for (guint t = 0; t < result->n_traces; t++)
    n[settings->classes[t]]++;
  for (guint i = 0; i < n_support; i++)
    {
      guint n_shares;
      const WsStackDbShare *shares = ws_stack_db_get_shares (result->db, support[i], &n_shares);

      for (guint k = 0; k < n_shares; k++)
        cost[stream_class (result, settings, shares[k].stream)] += shares[k].cost;
    }
  return cost[WS_RUN_CLASS_SLOW] / MAX (1u, n[WS_RUN_CLASS_SLOW]) -
         cost[WS_RUN_CLASS_FAST] / MAX (1u, n[WS_RUN_CLASS_FAST]);
}

static void
score_patterns (WsMiningResult         *result,
                const WsMiningSettings *settings)
{
  for (guint p = 0; p < ws_pattern_set_get_n_patterns (result->patterns); p++)
    {
      const WsPattern *pattern = ws_pattern_set_get_pattern (result->patterns, p);
      ws_pattern_set_set_discriminative (result->patterns, p,
                                         discriminative_score (result, settings, pattern->support, pattern->n_support));
    }
  if (settings->rank == WS_CLUSTER_RANK_DISCRIMINATIVE)
    ws_pattern_set_sort_discriminative (result->patterns);
}

static void
score_clusters (WsMiningResult         *result,
                const WsMiningSettings *settings)
{
  for (guint c = 0; c < ws_cluster_set_get_n_clusters (result->clusters); c++)
    {
      const WsCluster *cluster = ws_cluster_set_get_cluster (result->clusters, c);
      ws_cluster_set_set_discriminative (result->clusters, c,
                                         discriminative_score (result, settings, cluster->support, cluster->n_support));
    }
}

/* ------------------------------------------------------------------ */
/* The run                                                              */

static gboolean
mine_and_cluster (WsMiningResult          *result,
                  const WsMiningSettings  *settings,
                  GCancellable            *cancellable,
                  Progress                *progress,
                  GError                 **error)
{
  Progress stage = { progress->func, progress->data, EXTRACT_END, MINE_END - EXTRACT_END };

  report (progress, EXTRACT_END, _("Mining costly patterns…"));
  result->patterns = ws_miner_mine (result->db, result->lambda, cancellable, stage_cb, &stage, error);
  if (result->patterns == NULL)
    return FALSE;
  if (result->discriminative)
    score_patterns (result, settings);
  if (settings->cluster)
    {
      report (progress, MINE_END, _("Reading function statistics…"));
      weigh (result);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      stage.base = WEIGHTS_END;
      stage.scale = 1 - WEIGHTS_END;
      report (progress, WEIGHTS_END, _("Clustering patterns…"));
      result->clusters = ws_clusterer_cluster (result->patterns, result->similarity, settings->threshold,
                                               settings->linkage, cancellable, stage_cb, &stage, error);
      if (result->clusters == NULL)
        return FALSE;
      if (result->discriminative)
        score_clusters (result, settings);
      ws_cluster_set_rank (result->clusters, settings->rank);
    }
  return settings->signatures == NULL || cover (result, settings->signatures, error);
}

static WsMiningResult *
run (GPtrArray               *traces,
     WsDigest                *digest,
     const WsMiningSettings  *settings,
     GCancellable            *cancellable,
     WsProgressFunc           progress,
     gpointer                 progress_data,
     GError                 **error)
{
  g_autoptr(WsMiningResult) result = NULL;
  Progress report_to = { progress, progress_data, 0, 1 };
  gint64 start = g_get_monotonic_time ();

  if (!check_numbers (settings, error))
    return NULL;
  result = g_new0 (WsMiningResult, 1);
  g_ref_count_init (&result->ref_count);
  result->traces = traces != NULL ? g_ptr_array_ref (traces) : g_ptr_array_new ();
  result->digest = digest != NULL ? ws_digest_ref (digest) : NULL;
  result->n_traces = digest != NULL ? ws_digest_get_n_traces (digest) : traces->len;
  result->warnings = g_ptr_array_new_with_free_func (g_free);
  result->stream_traces = g_array_new (FALSE, FALSE, sizeof (guint));
  result->discriminative = has_both_classes (result->n_traces, settings);
  if (settings->rank == WS_CLUSTER_RANK_DISCRIMINATIVE && !result->discriminative)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("Ranking by the discriminative score needs slow and fast traces"));
      return NULL;
    }

  use_history (result, settings);
  report (&report_to, 0, _("Extracting the areas of interest…"));
  if (!extract (result, settings, cancellable, &report_to, error))
    return NULL;
  choose_lambda (result, settings);
  if (!mine_and_cluster (result, settings, cancellable, &report_to, error))
    return NULL;
  result->elapsed_us = g_get_monotonic_time () - start;
  return g_steal_pointer (&result);
}

/**
 * ws_mining_run:
 * @traces: (element-type WsTrace): the traces to mine together
 * @settings: what to do
 * @cancellable: (nullable): polled between and inside the stages
 * @progress: (nullable): reports from the calling thread, 0…1 over the run
 *
 * Records the traces in the history store (as @settings say), extracts the
 * area of interest, mines it, and if asked clusters the patterns and
 * computes the signatures' coverage.  Problems with the history store are
 * warnings in the result, never errors.
 *
 * Returns: (transfer full): the result, or %NULL with @error set (a bad
 *   setting or signature: %WS_ERROR_INVALID; cancelled: %G_IO_ERROR_CANCELLED)
 */
WsMiningResult *
ws_mining_run (GPtrArray               *traces,
               const WsMiningSettings  *settings,
               GCancellable            *cancellable,
               WsProgressFunc           progress,
               gpointer                 progress_data,
               GError                 **error)
{
  g_return_val_if_fail (traces != NULL, NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  return run (traces, NULL, settings, cancellable, progress, progress_data, error);
}

/**
 * ws_mining_run_digest:
 * @digest: the traces' digests, merged (ws_digest_merge())
 *
 * ws_mining_run() over the digests of traces instead of the traces: the
 * same result, pattern for pattern and byte for byte in the CLI's JSON,
 * for the settings a digest holds (ws_mining_settings_fit_digest()).
 */
WsMiningResult *
ws_mining_run_digest (WsDigest                *digest,
                      const WsMiningSettings  *settings,
                      GCancellable            *cancellable,
                      WsProgressFunc           progress,
                      gpointer                 progress_data,
                      GError                 **error)
{
  g_return_val_if_fail (digest != NULL, NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  return run (NULL, digest, settings, cancellable, progress, progress_data, error);
}

/**
 * ws_mining_result_get_trace_path:
 *
 * Returns: the path of trace @index mined (as given when it was read)
 */
const char *
ws_mining_result_get_trace_path (WsMiningResult *result,
                                 guint           index)
{
  g_return_val_if_fail (result != NULL && index < result->n_traces, NULL);

  if (result->digest != NULL)
    return ws_digest_get_trace (result->digest, index)->path;
  return ws_trace_get_path (g_ptr_array_index (result->traces, index));
}
