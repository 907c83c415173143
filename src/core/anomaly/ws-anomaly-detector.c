/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Anomaly detection that learns from the analyst (the ready-tree patent's
 * "Anomaly Detection" and "Interactive User Interface"): one entry point,
 * ws_anomaly_detect(), shared by the CLI and the GUI.
 *
 * For every signature among the waits of the traces analysed:
 *
 * 1. Data: the signature's reservoir in the history store plus the waits
 *    of the traces analysed whose waits are not in the history yet,
 *    sorted.  Flags do not change it: they move only the cut (3).
 * 2. Model: a Gaussian mixture on the log-durations (ws-gmm.c), fitted on
 *    the signature's data when it has at least min_samples, else on its
 *    pool's (same kernel blocking function), else on everything ("*").
 * 3. Threshold (the learning rule; docs/anomaly-detection.md says why and
 *    how it was measured).  The tail rule's cut, P(D ≥ d) = threshold;
 *    by default only the signature's own flags move it:
 *    the cut that misjudges the least weight of its flags plus the
 *    model's own verdicts on its waits (together flag_model_weight
 *    flags), where the model may also follow a mark of its slow
 *    components for a small prior cost (ws_anomaly_learn_kind_cut()).
 *    A normal flag never lowers the cut, an anomalous one never raises
 *    it: learning is monotone by construction.
 *    Scores are tail probabilities under each signature's own model, so
 *    a flag is also a verdict on "a wait this improbable" that compares
 *    across kinds: with flag_max_shift > 0 (off by default: measured, it
 *    made detection worse), a global bar and each pool's bar move toward
 *    the bar that misjudges the fewest flags, by at most flag_max_shift
 *    and n / (n + flag_prior) of the way, and a signature starts from
 *    where its pool's bar falls on its model.  Every unflagged wait at
 *    least as long as the cut is anomalous.
 * 4. Score of a wait: P(D ≥ d) under its model; the signature's learned
 *    threshold is P(D ≥ cut).  A flagged wait shows its flag.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "ws-anomaly-detector.h"
#include "ws-anomaly-flag.h"
#include "ws-delay-caused.h"
#include "ws-anomaly-learning.h"
#include "ws-error.h"
#include "ws-gmm-many.h"
#include "ws-sorted-samples.h"


struct _WsAnomalyResult
{
  GObject            parent_instance;

  WsAnomalySettings  settings;
  GPtrArray         *traces;      /* WsTrace */
  GPtrArray         *digests;     /* char * */
  GArray            *models;      /* WsAnomalyModel */
  GPtrArray         *scores;      /* GArray of WsWaitScore per trace, by event */
  GPtrArray         *signatures;  /* WsWaitSignatures per trace */
};

G_DEFINE_FINAL_TYPE (WsAnomalyResult, ws_anomaly_result, G_TYPE_OBJECT)

void
ws_anomaly_model_clear (WsAnomalyModel *model)
{
  g_clear_pointer (&model->key, g_free);
  g_clear_pointer (&model->pool, g_free);
  g_clear_pointer (&model->samples, g_array_unref);
  g_clear_pointer (&model->flags, g_array_unref);
}

static void
model_clear (gpointer data)
{
  ws_anomaly_model_clear (data);
}

static void
ws_anomaly_result_finalize (GObject *object)
{
  WsAnomalyResult *self = WS_ANOMALY_RESULT (object);

  g_ptr_array_unref (self->traces);
  g_ptr_array_unref (self->digests);
  g_array_unref (self->models);
  g_ptr_array_unref (self->scores);
  g_ptr_array_unref (self->signatures);

  G_OBJECT_CLASS (ws_anomaly_result_parent_class)->finalize (object);
}

static void
ws_anomaly_result_class_init (WsAnomalyResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_anomaly_result_finalize;
}

static void
ws_anomaly_result_init (WsAnomalyResult *self)
{
  self->traces = g_ptr_array_new_with_free_func (g_object_unref);
  self->digests = g_ptr_array_new_with_free_func (g_free);
  self->models = g_array_new (FALSE, TRUE, sizeof (WsAnomalyModel));
  g_array_set_clear_func (self->models, model_clear);
  self->scores = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->signatures = g_ptr_array_new_with_free_func (g_object_unref);
}

static inline double
log_duration (gint64 d)
{
  return log ((double) MAX (d, 1));
}

static char *
pool_key (const char *pool)
{
  return g_strconcat ("pool:", pool, NULL);
}

/* ------------------------------------------------------------------ */
/* Recording                                                            */

/* The values recorded under @key, an empty array on first use. */
static GArray *
values_of_key (GHashTable *by_key,
               const char *key,
               guint       element_size)
{
  GArray *a = g_hash_table_lookup (by_key, key);

  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, element_size);
      g_hash_table_insert (by_key, g_strdup (key), a);
    }
  return a;
}

static void
append_sample (GHashTable *by_key,
               const char *key,
               gint64      duration)
{
  g_array_append_val (values_of_key (by_key, key, sizeof (gint64)), duration);
}

WsWaitSampleSet *
ws_wait_sample_set_new (guint depth)
{
  WsWaitSampleSet *set = g_new0 (WsWaitSampleSet, 1);

  set->depth = depth;
  set->keys = g_ptr_array_new_with_free_func (g_free);
  set->pools = g_ptr_array_new_with_free_func (g_free);
  set->samples = g_array_new (FALSE, FALSE, sizeof (WsWaitSample));
  return set;
}

void
ws_wait_sample_set_free (WsWaitSampleSet *set)
{
  if (set == NULL)
    return;
  g_ptr_array_unref (set->keys);
  g_ptr_array_unref (set->pools);
  g_array_unref (set->samples);
  g_free (set);
}

/**
 * ws_wait_sample_set_of_trace:
 *
 * Returns: (transfer full): every scored wait of @trace (its signature at
 *   @depth, its duration), in event order
 */
WsWaitSampleSet *
ws_wait_sample_set_of_trace (WsTrace *trace,
                             guint    depth)
{
  g_autoptr(WsWaitSignatures) sigs = ws_wait_signatures_new (trace, depth);
  WsWaitSampleSet *set = ws_wait_sample_set_new (depth);

  for (guint s = 0; s < ws_wait_signatures_get_n (sigs); s++)
    {
      g_ptr_array_add (set->keys, g_strdup (ws_wait_signatures_get_key (sigs, s)));
      g_ptr_array_add (set->pools, g_strdup (ws_wait_signatures_get_pool (sigs, s)));
    }
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      WsWaitSample w;

      if ((w.signature = ws_wait_signatures_of_event (sigs, i)) == WS_NONE)
        continue;
      w.duration = ws_event_duration (ws_trace_get_event (trace, i));
      g_array_append_val (set->samples, w);
    }
  return set;
}

/* Every scored wait's duration under its signature, its pool and "*". */
static GHashTable *
collect_samples (const WsWaitSampleSet *set)
{
  GHashTable *by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) pools = g_ptr_array_new_with_free_func (g_free);

  for (guint s = 0; s < set->pools->len; s++)
    g_ptr_array_add (pools, pool_key (g_ptr_array_index (set->pools, s)));
  for (guint i = 0; i < set->samples->len; i++)
    {
      const WsWaitSample *w = &g_array_index (set->samples, WsWaitSample, i);

      append_sample (by_key, g_ptr_array_index (set->keys, w->signature), w->duration);
      append_sample (by_key, g_ptr_array_index (pools, w->signature), w->duration);
      append_sample (by_key, WS_WAIT_POOL_GLOBAL, w->duration);
    }
  return by_key;
}

/**
 * ws_anomaly_record_samples:
 * @set: a trace's wait samples (ws_wait_sample_set_of_trace(), or a
 *   trace digest's), taken at @settings' signature depth
 * @digest: the trace's content hash (ws_history_store_trace_digest_full())
 * @newly_recorded: (out) (optional): %FALSE if its waits were recorded
 *   before at this signature depth
 *
 * Adds the durations of the trace's waits to the history's reservoirs,
 * once per trace content and signature depth.
 */
gboolean
ws_anomaly_record_samples (WsHistoryStore          *store,
                           const WsWaitSampleSet   *set,
                           const char              *digest,
                           const WsAnomalySettings *settings,
                           gboolean                *newly_recorded,
                           GCancellable            *cancellable,
                           GError                 **error)
{
  g_autoptr(GHashTable) by_key = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) samples = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (store), FALSE);
  g_return_val_if_fail (set != NULL && digest != NULL && settings != NULL, FALSE);
  g_return_val_if_fail (set->depth == settings->signature_depth, FALSE);

  if (newly_recorded)
    *newly_recorded = FALSE;
  if (ws_history_store_has_waits (store, digest, ws_wait_history_depth (settings->signature_depth)))
    return TRUE;

  by_key = collect_samples (set);
  g_hash_table_iter_init (&iter, by_key);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_ptr_array_add (keys, ws_wait_history_key (key));
      g_ptr_array_add (samples, value);
    }
  return ws_history_store_record_wait_samples (store, digest, ws_wait_history_depth (settings->signature_depth),
                                               (const char * const *) keys->pdata,
                                               (GArray * const *) samples->pdata, keys->len,
                                               settings->reservoir_size, newly_recorded,
                                               cancellable, error);
}

/**
 * ws_anomaly_record_trace:
 * @digest: the trace's digest (ws_history_store_trace_digest_full())
 * @newly_recorded: (out) (optional): %FALSE if its waits were recorded
 *   before at this signature depth
 *
 * ws_anomaly_record_samples() of @trace's waits.
 */
gboolean
ws_anomaly_record_trace (WsHistoryStore          *store,
                         WsTrace                 *trace,
                         const char              *digest,
                         const WsAnomalySettings *settings,
                         gboolean                *newly_recorded,
                         GCancellable            *cancellable,
                         GError                 **error)
{
  g_autoptr(WsWaitSampleSet) set = NULL;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (store), FALSE);
  g_return_val_if_fail (WS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (digest != NULL && settings != NULL, FALSE);

  if (newly_recorded)
    *newly_recorded = FALSE;
  /* Known: not even the signatures are computed. */
  if (ws_history_store_has_waits (store, digest, ws_wait_history_depth (settings->signature_depth)))
    return TRUE;
  set = ws_wait_sample_set_of_trace (trace, settings->signature_depth);
  return ws_anomaly_record_samples (store, set, digest, settings, newly_recorded, cancellable, error);
}

/* ------------------------------------------------------------------ */
/* Detection                                                            */

typedef struct {
  GArray *samples;     /* double, log-ns */
  GArray *history;     /* double, log-ns, sorted: the reservoir's part */
  GArray *current;     /* double, log-ns, sorted: the traces' part */
  guint   n_history;
  guint   n_current;
  WsGmm   gmm;
  gboolean fitted;
  double  fdr_bar;     /* the FDR rule's bar, computed once (0: not yet) */
  double  fdr_cut;     /* … and its cut, log-ns */
} Fit;

typedef struct {
  WsHistoryStore          *store;
  const WsAnomalySettings *settings;
  GCancellable            *cancellable;
  GHashTable              *current;          /* key → GArray gint64 */
  GHashTable              *flag_of_wait;     /* "digest/time/tid" → flag */
  GHashTable              *normal_flags;     /* signature → GArray double */
  GHashTable              *anomalous_flags;  /* signature → GArray double */
  GHashTable              *own_flags;        /* signature → GArray WsLearnFlag, oldest first */
  GHashTable              *fallbacks;        /* pool key or "*" → Fit */
  GHashTable              *gathered;         /* key → Fit: its data, read once */
  GHashTable              *fitted;           /* GBytes of sorted samples → WsGmm */
} Detection;

static void
fit_clear (Fit *fit)
{
  g_clear_pointer (&fit->samples, g_array_unref);
  g_clear_pointer (&fit->history, g_array_unref);
  g_clear_pointer (&fit->current, g_array_unref);
}

static void
fit_free (gpointer data)
{
  fit_clear (data);
  g_free (data);
}

static char *
wait_key (const char *digest,
          gint64      time,
          gint32      tid)
{
  return g_strdup_printf ("%s/%" G_GINT64_FORMAT "/%d", digest, time, tid);
}

static void
append_log (GHashTable *by_key,
            const char *key,
            double      value)
{
  g_array_append_val (values_of_key (by_key, key, sizeof (double)), value);
}

/* The flags come from the store oldest first. */
static void
append_own_flag (GHashTable *by_key,
                 const char *key,
                 double      x,
                 gboolean    anomalous)
{
  GArray *a = g_hash_table_lookup (by_key, key);
  WsLearnFlag f = { x, anomalous, 1 };

  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, sizeof (WsLearnFlag));
      g_hash_table_insert (by_key, g_strdup (key), a);
    }
  g_array_append_val (a, f);
}

static gboolean
load_flags (Detection  *det,
            GError    **error)
{
  g_autoptr(GArray) flags = NULL;

  if (det->store == NULL)
    return TRUE;
  if ((flags = ws_history_store_list_wait_flags (det->store, NULL, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < flags->len; i++)
    {
      const WsWaitFlag *f = &g_array_index (flags, WsWaitFlag, i);

      gboolean wait_only = g_str_has_prefix (f->signature, WS_ANOMALY_WAIT_ONLY_PREFIX);

      /* The flag in the low bits, its scope above them. */
      g_hash_table_insert (det->flag_of_wait, wait_key (f->trace_digest, f->event_time, f->tid),
                           GINT_TO_POINTER (f->flag | (wait_only ? 0x100 : 0)));
      if (wait_only)
        continue;   /* judges its wait only: nothing to learn from */
      append_log (f->flag == WS_ANOMALY_FLAG_NORMAL ? det->normal_flags : det->anomalous_flags,
                  f->signature, log_duration (f->duration));
      append_own_flag (det->own_flags, f->signature, log_duration (f->duration), f->flag == WS_ANOMALY_FLAG_ANOMALOUS);
    }
  return TRUE;
}

static WsAnomalyFlag
flag_of (Detection  *det,
         const char *digest,
         WsTrace    *trace,
         guint       event,
         gboolean   *wait_only)
{
  const WsEvent *e = ws_trace_get_event (trace, event);
  g_autofree char *key = NULL;
  int v;

  *wait_only = FALSE;
  /* No flags (a fresh history, or none): no key to print for each wait. */
  if (g_hash_table_size (det->flag_of_wait) == 0)
    return WS_ANOMALY_FLAG_NONE;
  key = wait_key (digest, e->time, ws_trace_get_thread (trace, e->thread)->tid);
  v = GPOINTER_TO_INT (g_hash_table_lookup (det->flag_of_wait, key));
  *wait_only = (v & 0x100) != 0;
  return v & 0xff;
}

/* The waits of a trace not yet in the history count as current data. */
static void
add_current (Detection        *det,
             WsWaitSignatures *sigs,
             const char       *digest)
{
  WsTrace *trace = ws_wait_signatures_get_trace (sigs);
  guint n_sigs = ws_wait_signatures_get_n (sigs);
  g_autofree GArray **own = g_new (GArray *, MAX (n_sigs, 1));
  g_autofree GArray **pooled = g_new (GArray *, MAX (n_sigs, 1));
  GArray *global = NULL;

  /* Each signature's arrays looked up once, not three times a wait. */
  for (guint s = 0; s < n_sigs; s++)
    {
      g_autofree char *pool = pool_key (ws_wait_signatures_get_pool (sigs, s));

      own[s] = values_of_key (det->current, ws_wait_signatures_get_key (sigs, s), sizeof (gint64));
      pooled[s] = values_of_key (det->current, pool, sizeof (gint64));
    }
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      guint s = ws_wait_signatures_of_event (sigs, i);
      gint64 d;

      if (s == WS_NONE)
        continue;
      if (global == NULL)
        global = values_of_key (det->current, WS_WAIT_POOL_GLOBAL, sizeof (gint64));
      d = ws_event_duration (ws_trace_get_event (trace, i));
      g_array_append_val (own[s], d);
      g_array_append_val (pooled[s], d);
      g_array_append_val (global, d);
    }
}

/* A kind's data: its reservoir and its waits in the traces analysed not
 * yet recorded.  Flags never change it (docs/anomaly-detection.md: the
 * flags move the cut, monotonically, and only the cut), and it is sorted,
 * so that the fit (whose k-means++ seeding draws samples by index) sees
 * the same data whatever order the store or the traces gave it in. */
static gboolean
gather (Detection  *det,
        const char *key,
        Fit        *fit,
        GError    **error)
{
  GArray *current = g_hash_table_lookup (det->current, key);
  Fit *seen = det->gathered ? g_hash_table_lookup (det->gathered, key) : NULL;

  if (seen != NULL)
    {
      fit->samples = g_array_ref (seen->samples);
      fit->history = g_array_ref (seen->history);
      fit->current = g_array_ref (seen->current);
      fit->n_history = seen->n_history;
      fit->n_current = seen->n_current;
      return TRUE;
    }
  fit->samples = g_array_new (FALSE, FALSE, sizeof (double));
  fit->history = g_array_new (FALSE, FALSE, sizeof (double));
  fit->current = g_array_new (FALSE, FALSE, sizeof (double));
  if (det->store != NULL)
    {
      g_autofree char *history_key = ws_wait_history_key (key);
      g_autoptr(GArray) history = ws_history_store_get_reservoir (det->store, history_key, NULL, error);

      if (history == NULL)
        return FALSE;
      for (guint i = 0; i < history->len; i++)
        {
          double v = log_duration (g_array_index (history, gint64, i));
          g_array_append_val (fit->history, v);
        }
      fit->n_history = history->len;
    }
  for (guint i = 0; current != NULL && i < current->len; i++)
    {
      double v = log_duration (g_array_index (current, gint64, i));
      g_array_append_val (fit->current, v);
    }
  g_array_set_size (fit->samples, fit->history->len + fit->current->len);
  fit->n_current = current ? current->len : 0;
  /* Each part sorted, and the whole their merge: the same array as
   * sorting the whole (ws-sorted-samples.c).  An empty GArray has no
   * data: the sort must not see its NULL. */
  if (fit->history->len > 1)
    ws_sort_log_durations ((double *) (gpointer) fit->history->data, fit->history->len);
  if (fit->current->len > 1)
    ws_sort_log_durations ((double *) (gpointer) fit->current->data, fit->current->len);
  if (fit->samples->len > 0)
    ws_merge_sorted_doubles ((const double *) (gpointer) fit->history->data, fit->history->len,
                             (const double *) (gpointer) fit->current->data, fit->current->len,
                             (double *) (gpointer) fit->samples->data);
  if (det->gathered != NULL)
    {
      seen = g_new0 (Fit, 1);
      seen->samples = g_array_ref (fit->samples);
      seen->history = g_array_ref (fit->history);
      seen->current = g_array_ref (fit->current);
      seen->n_history = fit->n_history;
      seen->n_current = fit->n_current;
      g_hash_table_insert (det->gathered, g_strdup (key), seen);
    }
  return TRUE;
}

static GBytes *
samples_bytes (const GArray *x)
{
  return g_bytes_new_static (x->data, x->len * sizeof (double));
}

/* g_bytes_hash() of a kind's samples, a double at a time: GLib's goes a
 * byte at a time, and the global data (every wait) is hashed at every
 * model's lookup. */
static guint
samples_hash (gconstpointer key)
{
  gsize size;
  const guint8 *data = g_bytes_get_data ((GBytes *) key, &size);
  guint64 h = size;

  for (gsize i = 0; i + sizeof (guint64) <= size; i += sizeof (guint64))
    {
      guint64 w;

      memcpy (&w, data + i, sizeof w);
      h = (h ^ w) * G_GUINT64_CONSTANT (0x100000001b3);
      h ^= h >> 29;
    }
  return (guint) (h ^ (h >> 32));
}

/* ws_gmm_fit() of a kind's sorted data, looked up first among the fits
 * prefit() made: the same data always gives the same fit. */
static gboolean
fit_data (Detection  *det,
          GArray     *x,
          WsGmm      *gmm,
          GError    **error)
{
  g_autoptr(GBytes) bytes = samples_bytes (x);
  const WsGmm *known = det->fitted ? g_hash_table_lookup (det->fitted, bytes) : NULL;

  if (known != NULL)
    {
      *gmm = *known;
      return TRUE;
    }
  return ws_gmm_fit ((const double *) (gpointer) x->data, x->len, &det->settings->gmm, gmm, det->cancellable, error);
}

static gboolean
fit_samples (Detection  *det,
             Fit        *fit,
             GError    **error)
{
  if (fit->samples->len == 0)
    return TRUE;
  if (!fit_data (det, fit->samples, &fit->gmm, error))
    return FALSE;
  fit->fitted = TRUE;
  return TRUE;
}

/* The pool's or the global fit, computed once. */
static Fit *
fallback (Detection   *det,
          const char  *key,
          GError     **error)
{
  Fit *fit = g_hash_table_lookup (det->fallbacks, key);

  if (fit != NULL)
    return fit;
  fit = g_new0 (Fit, 1);
  g_hash_table_insert (det->fallbacks, g_strdup (key), fit);
  if (!gather (det, key, fit, error) || !fit_samples (det, fit, error))
    return NULL;
  return fit;
}

/* The FDR rule's bar and cut for the data of @fit (its mixture fitted):
 * the Benjamini–Hochberg bar over the waits to be judged under the model
 * of what is usual.  When the history holds enough waits of the kind and
 * the traces analysed add waits not yet in it, what is usual is the
 * history alone (a mixture fitted on the reservoir: the traces' own
 * faults must not become part of their null), and the waits judged are
 * the traces'; otherwise the kind's whole data, judged against its own
 * mixture.  Either way it depends on the kind's data only, never on a
 * flag.  Computed once per Fit. */
static gboolean
fdr_cut (Detection  *det,
         Fit        *fit,
         GError    **error)
{
  double q = det->settings->threshold;

  if (fit->fdr_bar > 0)
    return TRUE;
  if (fit->history->len >= det->settings->min_samples && fit->current->len > 0)
    {
      WsGmm null;

      if (!fit_data (det, fit->history, &null, error))
        return FALSE;
      fit->fdr_bar = ws_anomaly_fdr_bar (&null, (const double *) (gpointer) fit->current->data, fit->current->len, q);
      fit->fdr_cut = ws_gmm_tail_quantile (&null, fit->fdr_bar);
      /* The bar as the kind's mixture reads it at that cut. */
      fit->fdr_bar = MAX (ws_gmm_upper_tail (&fit->gmm, fit->fdr_cut), 1e-300);
    }
  else
    {
      fit->fdr_bar = ws_anomaly_fdr_bar (&fit->gmm, (const double *) (gpointer) fit->samples->data, fit->samples->len, q);
      fit->fdr_cut = ws_gmm_tail_quantile (&fit->gmm, fit->fdr_bar);
    }
  return TRUE;
}

/* A signature's cut from its own flags (docs/anomaly-detection.md, "Flags
 * and the learning rule"): ws_anomaly_learn_kind_cut() over the marks its
 * mixture offers below @base (the cut its pool's bar gives it, or the
 * setting's).  Every flag weighs 1, whenever it was given: the cut is a
 * function of the set of flags, monotone in each. */
static double
learn_cut (Detection      *det,
           WsAnomalyModel *model,
           double          base)
{
  GArray *own = g_hash_table_lookup (det->own_flags, model->key);
  WsLearnHypothesis hyps[WS_GMM_MAX_COMPONENTS];
  guint n_hyps, which;
  double cut;

  model->marked_components = 0;
  model->prior_cut = base;
  g_clear_pointer (&model->flags, g_array_unref);
  if (own == NULL || own->len == 0)
    return base;
  model->flags = g_array_sized_new (FALSE, FALSE, sizeof (WsLearnFlag), own->len);
  g_array_append_vals (model->flags, own->data, own->len);
  for (guint i = 0; i < model->flags->len; i++)
    {
      WsLearnFlag *f = &g_array_index (model->flags, WsLearnFlag, i);

      f->weight = det->settings->flag_weights == WS_FLAG_WEIGHTS_POSTERIOR
                  ? ws_anomaly_flag_weight (&model->gmm, f->x, f->anomalous) : 1;
    }
  own = model->flags;
  n_hyps = ws_anomaly_mark_hypotheses (&model->gmm, base, hyps);
  cut = ws_anomaly_learn_kind_cut (base, hyps, n_hyps, (const WsLearnFlag *) (gconstpointer) own->data, own->len,
                                   (const double *) (gconstpointer) model->samples->data, model->samples->len,
                                   ws_anomaly_settings_model_weight (det->settings, model->samples->len), &which);
  if (which < n_hyps)
    model->marked_components = hyps[which].components;
  return cut;
}

static gboolean
build_model (Detection       *det,
             const char      *key,
             const char      *pool,
             WsAnomalyModel  *model,
             GError         **error)
{
  GArray *normal = g_hash_table_lookup (det->normal_flags, key);
  GArray *anomalous = g_hash_table_lookup (det->anomalous_flags, key);
  g_autofree char *pkey = pool_key (pool);
  Fit own = { 0 };
  Fit *used = &own;

  model->key = g_strdup (key);
  model->pool = g_strdup (pool);
  model->n_flagged_normal = normal ? normal->len : 0;
  model->n_flagged_anomalous = anomalous ? anomalous->len : 0;
  if (!gather (det, key, &own, error))
    {
      fit_clear (&own);
      return FALSE;
    }
  model->level = WS_MODEL_LEVEL_SIGNATURE;
  if (own.samples->len < det->settings->min_samples)
    {
      model->level = WS_MODEL_LEVEL_POOL;
      if ((used = fallback (det, pkey, error)) != NULL && used->samples->len < det->settings->min_samples)
        {
          model->level = WS_MODEL_LEVEL_GLOBAL;
          used = fallback (det, WS_WAIT_POOL_GLOBAL, error);
        }
      if (used == NULL)
        {
          fit_clear (&own);
          return FALSE;
        }
    }
  else if (!fit_samples (det, &own, error))
    {
      fit_clear (&own);
      return FALSE;
    }

  model->gmm = used->gmm;
  model->samples = g_array_ref (used->samples);
  model->n_history = used->n_history;
  model->n_current = used->n_current;
  if (!used->fitted)
    {
      fit_clear (&own);
      model->base_cut = model->cut = G_MAXDOUBLE;
      model->threshold = 0;
      return TRUE;
    }
  /* The kind's bar before flags: the FDR rule (fdr_cut()), or the
   * patent's per-wait tail rule. */
  if (det->settings->rule == WS_ANOMALY_RULE_TAIL)
    {
      model->pool_threshold = det->settings->threshold;
      model->base_cut = ws_gmm_tail_quantile (&model->gmm, model->pool_threshold);
    }
  else if (!fdr_cut (det, used, error))
    {
      fit_clear (&own);
      return FALSE;
    }
  else
    {
      model->pool_threshold = used->fdr_bar;
      model->base_cut = used->fdr_cut;
    }
  fit_clear (&own);
  model->cut = learn_cut (det, model, model->base_cut);
  model->threshold = ws_gmm_upper_tail (&model->gmm, model->cut);
  return TRUE;
}

/* The pool and global levels of the learning rule (see the top of this
 * file): every flag as the surprise −ln P(D ≥ d) its own signature's
 * model gives it, so that flags of different kinds compare. */
static void
collect_surprises (WsAnomalyResult *self,
                   Detection       *det,
                   GArray          *all,
                   GHashTable      *by_pool)
{
  for (guint m = 0; m < self->models->len; m++)
    {
      const WsAnomalyModel *model = &g_array_index (self->models, WsAnomalyModel, m);
      GArray *lists[2] = { g_hash_table_lookup (det->normal_flags, model->key),
                           g_hash_table_lookup (det->anomalous_flags, model->key) };
      GArray *pool;

      if (model->gmm.n_components == 0)
        continue;
      if ((pool = g_hash_table_lookup (by_pool, model->pool)) == NULL)
        {
          pool = g_array_new (FALSE, FALSE, sizeof (WsLearnFlag));
          g_hash_table_insert (by_pool, model->pool, pool);
        }
      for (guint a = 0; a < 2; a++)
        for (guint i = 0; lists[a] != NULL && i < lists[a]->len; i++)
          {
            /* Kept inside what the root finder can bracket. */
            double p = CLAMP (ws_gmm_upper_tail (&model->gmm, g_array_index (lists[a], double, i)), 1e-12, 1 - 1e-12);
            WsLearnFlag f = { -log (p), a == 1, 1 };

            g_array_append_val (all, f);
            g_array_append_val (pool, f);
          }
    }
}

/* The learning rule over every signature scored: the global bar from
 * every flag, each pool's bar from its own flags shrunk toward the
 * global one, then each signature's cut from its own flags, nearest
 * where its pool's bar falls on its model. */
static void
learn_thresholds (WsAnomalyResult *self,
                  Detection       *det)
{
  const WsAnomalySettings *st = det->settings;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (WsLearnFlag));
  g_autoptr(GHashTable) by_pool = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  double base = -log (st->threshold), global;

  collect_surprises (self, det, all, by_pool);
  if (all->len == 0)
    return;   /* build_model()'s cuts stand */
  global = ws_anomaly_learn_shrink (base, (WsLearnFlag *) (gpointer) all->data, all->len,
                                    st->flag_prior, st->flag_max_shift);
  for (guint m = 0; m < self->models->len; m++)
    {
      WsAnomalyModel *model = &g_array_index (self->models, WsAnomalyModel, m);
      GArray *pool = g_hash_table_lookup (by_pool, model->pool);
      double bar, prior;

      if (model->gmm.n_components == 0)
        continue;
      bar = ws_anomaly_learn_shrink (global, (WsLearnFlag *) (gpointer) pool->data, pool->len,
                                     st->flag_prior, st->flag_max_shift);
      bar = CLAMP (bar, 1e-12, -log (1e-12));
      /* The kind's own bar (its FDR bar, or the setting's), shifted by
       * as many nats as its pool's bar moved. */
      if (bar != base)
        model->pool_threshold = CLAMP (model->pool_threshold * exp (base - bar), 1e-300, 1 - 1e-12);
      prior = bar == base ? model->base_cut : ws_gmm_tail_quantile (&model->gmm, model->pool_threshold);
      model->cut = learn_cut (det, model, prior);
      model->threshold = ws_gmm_upper_tail (&model->gmm, model->cut);
    }
}

/* The last scores computed, by model and duration (a slot holds model + 1,
 * so that a zeroed one matches none): a trace's waits of
 * one kind repeat durations (perf prints microseconds), and the same
 * model and duration give the same bits. */
#define SCORE_MEMO_BITS 12
#define SCORE_MEMO      (1u << SCORE_MEMO_BITS)

typedef struct {
  guint  model;
  gint64 duration;
  double score;
} ScoreMemo;

static double
score_of (WsAnomalyResult *self,
          ScoreMemo       *memo,
          guint            model,
          gint64           duration,
          double           x)
{
  const WsAnomalyModel *m = &g_array_index (self->models, WsAnomalyModel, model);
  ScoreMemo *slot = &memo[((guint64) duration * 0x9E3779B97F4A7C15ull + model) >> (64 - SCORE_MEMO_BITS)];

  if (m->gmm.n_components == 0)
    return 1.0;
  if (slot->model != model + 1 || slot->duration != duration)
    *slot = (ScoreMemo) { model + 1, duration, ws_gmm_upper_tail (&m->gmm, x) };
  return slot->score;
}

static void
score_trace (WsAnomalyResult  *self,
             Detection        *det,
             guint             t,
             const guint      *model_of_signature)
{
  WsWaitSignatures *sigs = g_ptr_array_index (self->signatures, t);
  WsTrace *trace = g_ptr_array_index (self->traces, t);
  const char *digest = g_ptr_array_index (self->digests, t);
  GArray *scores = g_array_new (FALSE, TRUE, sizeof (WsWaitScore));
  g_autofree gint64 *delay = ws_delay_caused (trace);
  g_autofree ScoreMemo *memo = g_new0 (ScoreMemo, SCORE_MEMO);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      guint s = ws_wait_signatures_of_event (sigs, i);
      const WsAnomalyModel *m;
      WsWaitScore sc = { 0 };
      double x;

      if (s == WS_NONE)
        continue;
      sc.event = i;
      sc.model = model_of_signature[s];
      m = &g_array_index (self->models, WsAnomalyModel, sc.model);
      x = log_duration (ws_event_duration (ws_trace_get_event (trace, i)));
      sc.score = score_of (self, memo, sc.model, ws_event_duration (ws_trace_get_event (trace, i)), x);
      sc.model_anomalous = m->gmm.n_components > 0 && x >= m->cut;
      sc.flag = flag_of (det, digest, trace, i, &sc.flag_wait_only);
      sc.anomalous = sc.flag == WS_ANOMALY_FLAG_NONE ? sc.model_anomalous
                                                     : sc.flag == WS_ANOMALY_FLAG_ANOMALOUS;
      sc.delay_caused = delay[i];
      sc.shown = sc.anomalous && (sc.delay_caused > 0 || sc.flag != WS_ANOMALY_FLAG_NONE);
      g_array_append_val (scores, sc);
    }
  g_ptr_array_add (self->scores, scores);
}

static void
detection_clear (Detection *det)
{
  g_clear_pointer (&det->current, g_hash_table_unref);
  g_clear_pointer (&det->flag_of_wait, g_hash_table_unref);
  g_clear_pointer (&det->normal_flags, g_hash_table_unref);
  g_clear_pointer (&det->anomalous_flags, g_hash_table_unref);
  g_clear_pointer (&det->own_flags, g_hash_table_unref);
  g_clear_pointer (&det->fallbacks, g_hash_table_unref);
  g_clear_pointer (&det->fitted, g_hash_table_unref);
  g_clear_pointer (&det->gathered, g_hash_table_unref);
}

/* Signature index of every trace → model index, one model per key. */
static guint **
assign_models (WsAnomalyResult *self,
               GPtrArray       *keys,
               GPtrArray       *pools)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  guint **map = g_new0 (guint *, self->traces->len);

  for (guint t = 0; t < self->traces->len; t++)
    {
      WsWaitSignatures *sigs = g_ptr_array_index (self->signatures, t);

      map[t] = g_new (guint, MAX (ws_wait_signatures_get_n (sigs), 1));
      for (guint s = 0; s < ws_wait_signatures_get_n (sigs); s++)
        {
          const char *key = ws_wait_signatures_get_key (sigs, s);
          gpointer found = g_hash_table_lookup (index, key);

          if (found == NULL)
            {
              g_ptr_array_add (keys, (gpointer) key);
              g_ptr_array_add (pools, (gpointer) ws_wait_signatures_get_pool (sigs, s));
              found = GUINT_TO_POINTER (keys->len);
              g_hash_table_insert (index, (gpointer) key, found);
            }
          map[t][s] = GPOINTER_TO_UINT (found) - 1;
        }
    }
  return map;
}

/* The data build_model() will fit for @f, if @f is the data it uses: the
 * kind's samples and, when the FDR rule takes the history alone as what
 * is usual (fdr_cut()), the history. */
static void
want_fits (Detection  *det,
           GHashTable *wanted,
           const Fit  *f,
           gboolean    used)
{
  if (f->samples->len > 0)
    g_hash_table_add (wanted, samples_bytes (f->samples));
  if (used && det->settings->rule != WS_ANOMALY_RULE_TAIL
      && f->history->len >= det->settings->min_samples && f->current->len > 0)
    g_hash_table_add (wanted, samples_bytes (f->history));
}

static int
compare_jobs_by_size (const void *a,
                      const void *b)
{
  gsize x = ((const WsGmmJob *) a)->n, y = ((const WsGmmJob *) b)->n;
  return x > y ? -1 : x < y;
}

/* Every fit build_model() will ask for, made first on every core
 * (ws_gmm_fit_many()): a kind's own data when it has enough, else its
 * pool's (always fitted once reached, as fallback() does), else the
 * global data.  build_model() then finds them in det->fitted; one it does
 * not find it fits itself, so this only moves work, never changes it. */
static gboolean
prefit (Detection  *det,
        GPtrArray  *keys,
        GPtrArray  *pools,
        GError    **error)
{
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (samples_hash, g_bytes_equal,
                                                        (GDestroyNotify) g_bytes_unref, NULL);
  g_autofree WsGmmJob *jobs = NULL;
  GHashTableIter iter;
  gpointer bytes;
  guint n = 0;

  for (guint m = 0; m < keys->len; m++)
    {
      g_autofree char *pkey = pool_key (g_ptr_array_index (pools, m));
      const char *levels[] = { g_ptr_array_index (keys, m), pkey, WS_WAIT_POOL_GLOBAL };

      for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
        {
          Fit f = { 0 };
          gboolean enough;

          if (!gather (det, levels[l], &f, error))
            {
              fit_clear (&f);
              return FALSE;
            }
          enough = f.samples->len >= det->settings->min_samples || l == G_N_ELEMENTS (levels) - 1;
          if (enough || l > 0)
            want_fits (det, wanted, &f, enough);
          fit_clear (&f);
          if (enough)
            break;
        }
    }
  jobs = g_new0 (WsGmmJob, MAX (g_hash_table_size (wanted), 1));
  g_hash_table_iter_init (&iter, wanted);
  while (g_hash_table_iter_next (&iter, &bytes, NULL))
    {
      gsize size;

      jobs[n].x = g_bytes_get_data (bytes, &size);
      jobs[n++].n = size / sizeof (double);
    }
  /* Largest first, so that no thread is left with a big fit at the end. */
  qsort (jobs, n, sizeof *jobs, compare_jobs_by_size);
  if (!ws_gmm_fit_many (jobs, n, &det->settings->gmm, det->settings->threads, det->cancellable, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (det->fitted, g_bytes_new_static (jobs[i].x, jobs[i].n * sizeof (double)),
                         g_memdup2 (&jobs[i].gmm, sizeof (WsGmm)));
  return TRUE;
}

static gboolean
detect_all (WsAnomalyResult  *self,
            Detection        *det,
            WsProgressFunc    progress,
            gpointer          progress_data,
            GError          **error)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) pools = g_ptr_array_new ();
  guint **map;
  gboolean ok = TRUE;

  for (guint t = 0; t < self->traces->len; t++)
    {
      const char *digest = g_ptr_array_index (self->digests, t);

      if (det->store == NULL || !ws_history_store_has_waits (det->store, digest,
                                                                   ws_wait_history_depth (det->settings->signature_depth)))
        add_current (det, g_ptr_array_index (self->signatures, t), digest);
    }

  map = assign_models (self, keys, pools);
  g_array_set_size (self->models, keys->len);
  if (progress != NULL)
    progress (0, _("Fitting the wait models…"), progress_data);
  ok = prefit (det, keys, pools, error);
  for (guint m = 0; m < keys->len && ok; m++)
    {
      if (progress != NULL && (m % 16 == 0))
        progress ((double) m / keys->len, _("Fitting the wait models…"), progress_data);
      ok = build_model (det, g_ptr_array_index (keys, m), g_ptr_array_index (pools, m),
                        &g_array_index (self->models, WsAnomalyModel, m), error);
    }
  if (ok)
    learn_thresholds (self, det);
  for (guint t = 0; t < self->traces->len && ok; t++)
    score_trace (self, det, t, map[t]);
  for (guint t = 0; t < self->traces->len; t++)
    g_free (map[t]);
  g_free (map);
  return ok;
}

/**
 * ws_anomaly_detect:
 * @traces: (array length=n_traces): the traces whose waits to score
 * @digests: (array length=n_traces): their digests (the identity flags
 *   are saved under)
 * @store: (nullable): the history store: its wait history and flags; with
 *   %NULL only the traces themselves are the data and nothing is flagged
 * @progress: (nullable): progress callback
 *
 * Fits a model per wait signature and scores every finished wait of
 * @traces (see the top of this file).  Reads the store, never writes it.
 *
 * Returns: (transfer full): the scores and models, or %NULL with @error
 *   set (cancelled included)
 */
WsAnomalyResult *
ws_anomaly_detect (WsTrace * const         *traces,
                   const char * const      *digests,
                   guint                    n_traces,
                   WsHistoryStore          *store,
                   const WsAnomalySettings *settings,
                   WsProgressFunc           progress,
                   gpointer                 progress_data,
                   GCancellable            *cancellable,
                   GError                 **error)
{
  g_autoptr(WsAnomalyResult) self = NULL;
  Detection det = { 0 };
  gboolean ok;

  g_return_val_if_fail (n_traces == 0 || (traces != NULL && digests != NULL), NULL);
  g_return_val_if_fail (store == NULL || WS_IS_HISTORY_STORE (store), NULL);
  g_return_val_if_fail (settings != NULL, NULL);
  g_return_val_if_fail (settings->threshold > 0 && settings->threshold < 1, NULL);
  g_return_val_if_fail (settings->flag_prior > 0 && settings->flag_max_shift >= 0 && (settings->flag_model_weight >= 0
                                                        || settings->flag_model_weight == WS_ANOMALY_FLAG_MODEL_WEIGHT_WAITS), NULL);

  self = g_object_new (WS_TYPE_ANOMALY_RESULT, NULL);
  self->settings = *settings;
  for (guint t = 0; t < n_traces; t++)
    {
      g_ptr_array_add (self->traces, g_object_ref (traces[t]));
      g_ptr_array_add (self->digests, g_strdup (digests[t]));
      g_ptr_array_add (self->signatures, ws_wait_signatures_new (traces[t], settings->signature_depth));
    }

  det.store = store;
  det.settings = &self->settings;
  det.cancellable = cancellable;
  det.current = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.flag_of_wait = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  det.normal_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.anomalous_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.own_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.fallbacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fit_free);
  det.gathered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fit_free);
  det.fitted = g_hash_table_new_full (samples_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, g_free);

  ok = load_flags (&det, error) && detect_all (self, &det, progress, progress_data, error);
  detection_clear (&det);
  if (!ok)
    return NULL;
  if (progress != NULL)
    progress (1.0, NULL, progress_data);
  return g_steal_pointer (&self);
}

/**
 * ws_anomaly_fit_key:
 * @key: a signature, "pool:…" or "*"
 * @model: (out caller-allocates): the model fitted on exactly that key's
 *   history (no fallback), with the flags of a signature applied
 *
 * What `waitscope-cli model show` prints: the model the history alone
 * gives a signature.
 */
gboolean
ws_anomaly_fit_key (WsHistoryStore          *store,
                    const char              *key,
                    const WsAnomalySettings *settings,
                    WsAnomalyModel          *model,
                    GCancellable            *cancellable,
                    GError                 **error)
{
  Detection det = { 0 };
  const char *bar = strchr (key, '|');
  gboolean ok;

  g_return_val_if_fail (WS_IS_HISTORY_STORE (store), FALSE);
  g_return_val_if_fail (key != NULL && model != NULL, FALSE);

  memset (model, 0, sizeof *model);
  det.store = store;
  det.settings = settings;
  det.cancellable = cancellable;
  det.current = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.flag_of_wait = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  det.normal_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.anomalous_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.own_flags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  det.fallbacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, fit_free);
  ok = load_flags (&det, error)
       && build_model (&det, key, bar ? bar + 1 : key, model, error);
  detection_clear (&det);
  if (ok && model->gmm.n_components == 0)
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID,
                   _("%s: the history holds no waits of this signature"), key);
      ws_anomaly_model_clear (model);
      return FALSE;
    }
  return ok;
}

/* ------------------------------------------------------------------ */
/* Reading the result                                                   */

const WsAnomalySettings *
ws_anomaly_result_get_settings (WsAnomalyResult *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  return &self->settings;
}

guint
ws_anomaly_result_get_n_traces (WsAnomalyResult *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), 0);
  return self->traces->len;
}

WsTrace *
ws_anomaly_result_get_trace (WsAnomalyResult *self,
                             guint            trace)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  g_return_val_if_fail (trace < self->traces->len, NULL);
  return g_ptr_array_index (self->traces, trace);
}

const char *
ws_anomaly_result_get_digest (WsAnomalyResult *self,
                              guint            trace)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  g_return_val_if_fail (trace < self->digests->len, NULL);
  return g_ptr_array_index (self->digests, trace);
}

/* Returns: the index of @trace among the result's, or %WS_NONE */
guint
ws_anomaly_result_find_trace (WsAnomalyResult *self,
                              WsTrace         *trace)
{
  guint index;

  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), WS_NONE);
  return g_ptr_array_find (self->traces, trace, &index) ? index : WS_NONE;
}

guint
ws_anomaly_result_get_n_models (WsAnomalyResult *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), 0);
  return self->models->len;
}

const WsAnomalyModel *
ws_anomaly_result_get_model (WsAnomalyResult *self,
                             guint            model)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  g_return_val_if_fail (model < self->models->len, NULL);
  return &g_array_index (self->models, WsAnomalyModel, model);
}

/**
 * ws_anomaly_result_get_scores:
 * @n_scores: (out): how many
 *
 * Returns: (array length=n_scores): the scores of a trace's finished
 *   waits, by event index
 */
const WsWaitScore *
ws_anomaly_result_get_scores (WsAnomalyResult *self,
                              guint            trace,
                              guint           *n_scores)
{
  GArray *scores;

  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  g_return_val_if_fail (trace < self->scores->len, NULL);
  scores = g_ptr_array_index (self->scores, trace);
  *n_scores = scores->len;
  return (const WsWaitScore *) (gpointer) scores->data;
}

/* Returns: (nullable): the score of @event, %NULL if it is not a scored wait */
const WsWaitScore *
ws_anomaly_result_lookup (WsAnomalyResult *self,
                          guint            trace,
                          guint            event)
{
  const WsWaitScore *s;
  guint n, lo = 0, hi;

  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), NULL);
  if (trace >= self->scores->len)
    return NULL;
  s = ws_anomaly_result_get_scores (self, trace, &n);
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (s[mid].event < event)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && s[lo].event == event ? &s[lo] : NULL;
}

/* The waits of @trace that are anomalous, or (@shown_only) among the
 * anomalies shown by default. */
static guint
count_scores (WsAnomalyResult *self,
              guint            trace,
              gboolean         shown_only)
{
  guint n, count = 0;
  const WsWaitScore *s = ws_anomaly_result_get_scores (self, trace, &n);

  for (guint i = 0; i < n; i++)
    count += shown_only ? s[i].shown : s[i].anomalous;
  return count;
}

guint
ws_anomaly_result_count_anomalous (WsAnomalyResult *self,
                                   guint            trace)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), 0);
  return count_scores (self, trace, FALSE);
}

/* The anomalies shown by default: anomalous waits that delayed another
 * thread, and flagged ones. */
guint
ws_anomaly_result_count_shown (WsAnomalyResult *self,
                               guint            trace)
{
  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), 0);
  return count_scores (self, trace, TRUE);
}

/**
 * ws_wait_score_rank:
 *
 * Where an anomaly ranks among those shown: its surprise, −ln P(D ≥ d),
 * times the time it made other threads wait (in ms, plus one so that a
 * flagged wait that delayed nobody still ranks by its surprise).
 *
 * Returns: the rank key, larger first
 */
double
ws_wait_score_rank (const WsWaitScore *score)
{
  return -log (MAX (score->score, 1e-300)) * (1 + score->delay_caused / 1e6);
}

/**
 * ws_anomaly_result_make_flag:
 * @verdict: the flag to give the wait (%WS_ANOMALY_FLAG_NONE to remove)
 * @flag: (out caller-allocates): the record to hand to
 *   ws_history_store_flag_wait(); clear with ws_wait_flag_clear()
 *
 * Returns: %FALSE if @event is not a scored wait of @trace
 */
gboolean
ws_anomaly_result_make_flag (WsAnomalyResult *self,
                             guint            trace,
                             guint            event,
                             WsAnomalyFlag    verdict,
                             WsWaitFlag      *flag)
{
  const WsWaitScore *s = ws_anomaly_result_lookup (self, trace, event);
  WsTrace *t;

  memset (flag, 0, sizeof *flag);
  if (s == NULL)
    return FALSE;
  t = g_ptr_array_index (self->traces, trace);
  ws_anomaly_flag_init (flag, t, g_ptr_array_index (self->digests, trace), event,
                        g_array_index (self->models, WsAnomalyModel, s->model).key, verdict);
  return TRUE;
}

/**
 * ws_anomaly_result_flag_reach:
 * @verdict: the flag the wait would get (%WS_ANOMALY_FLAG_NONE: its flag
 *   removed)
 * @reach: (out caller-allocates): what the flag would change
 *
 * How far a flag would reach before it lands: the kind's cut with the
 * wait's flag replaced by @verdict (ws_anomaly_learn_kind_cut() on the
 * same data and hypotheses: flags never refit a model), and how many
 * other unflagged waits of the kind, in every trace of the result, would
 * change verdict.  Exactly what ws_anomaly_detect() gives after the flag
 * is saved, when other kinds' flags do not shade the kind's bar
 * (flag_max_shift 0, the default).
 *
 * Returns: %FALSE if @event is not a scored wait of @trace
 */
gboolean
ws_anomaly_result_flag_reach (WsAnomalyResult *self,
                              guint            trace,
                              guint            event,
                              WsAnomalyFlag    verdict,
                              WsFlagReach     *reach)
{
  const WsWaitScore *s = ws_anomaly_result_lookup (self, trace, event);
  const WsAnomalyModel *m;
  g_autoptr(GArray) flags = g_array_new (FALSE, FALSE, sizeof (WsLearnFlag));
  WsLearnHypothesis hyps[WS_GMM_MAX_COMPONENTS];
  double x;
  guint n_hyps;

  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), FALSE);
  g_return_val_if_fail (reach != NULL, FALSE);
  memset (reach, 0, sizeof *reach);
  if (s == NULL)
    return FALSE;
  m = &g_array_index (self->models, WsAnomalyModel, s->model);
  reach->signature = m->key;
  reach->cut = m->cut;
  reach->threshold = m->threshold;
  if (m->gmm.n_components == 0)
    return TRUE;
  x = log_duration (ws_event_duration (ws_trace_get_event (g_ptr_array_index (self->traces, trace), event)));
  if (m->flags != NULL)
    g_array_append_vals (flags, m->flags->data, m->flags->len);
  /* The wait's own flag, if it has one and the kind learns from it, is
   * replaced. */
  for (guint i = 0; s->flag != WS_ANOMALY_FLAG_NONE && !s->flag_wait_only && i < flags->len; i++)
    {
      WsLearnFlag *f = &g_array_index (flags, WsLearnFlag, i);

      if (f->x == x && !f->anomalous == (s->flag != WS_ANOMALY_FLAG_ANOMALOUS))
        {
          g_array_remove_index (flags, i);
          break;
        }
    }
  if (verdict != WS_ANOMALY_FLAG_NONE)
    {
      gboolean anomalous = verdict == WS_ANOMALY_FLAG_ANOMALOUS;
      double w = self->settings.flag_weights == WS_FLAG_WEIGHTS_POSTERIOR
                 ? ws_anomaly_flag_weight (&m->gmm, x, anomalous) : 1;

      g_array_append_val (flags, ((WsLearnFlag) { x, anomalous, w }));
    }
  n_hyps = ws_anomaly_mark_hypotheses (&m->gmm, m->prior_cut, hyps);
  reach->cut = ws_anomaly_learn_kind_cut (m->prior_cut, hyps, n_hyps, (const WsLearnFlag *) (gconstpointer) flags->data,
                                          flags->len, (const double *) (gconstpointer) m->samples->data,
                                          m->samples->len,
                                          ws_anomaly_settings_model_weight (&self->settings, m->samples->len), NULL);
  reach->threshold = ws_gmm_upper_tail (&m->gmm, reach->cut);
  for (guint t = 0; t < self->scores->len; t++)
    {
      GArray *scores = g_ptr_array_index (self->scores, t);
      WsTrace *tr = g_ptr_array_index (self->traces, t);

      for (guint i = 0; i < scores->len; i++)
        {
          const WsWaitScore *o = &g_array_index (scores, WsWaitScore, i);
          double y;

          if (o->model != s->model || o->flag != WS_ANOMALY_FLAG_NONE || (t == trace && o->event == event))
            continue;
          y = log_duration (ws_event_duration (ws_trace_get_event (tr, o->event)));
          if (y >= reach->cut && !o->model_anomalous)
            reach->n_to_anomalous++;
          else if (y < reach->cut && o->model_anomalous)
            reach->n_to_normal++;
        }
    }
  return TRUE;
}

/**
 * ws_anomaly_result_mark_ready_tree:
 * @trace: the index of the tree's trace among the result's
 *
 * Marks every node of @tree whose wait is anomalous (flag, else model),
 * for %WS_CHAIN_METRIC_ANOMALOUS and for display.
 *
 * Returns: how many nodes were marked
 */
guint
ws_anomaly_result_mark_ready_tree (WsAnomalyResult *self,
                                   guint            trace,
                                   WsReadyTree     *tree)
{
  guint marked = 0;

  g_return_val_if_fail (WS_IS_ANOMALY_RESULT (self), 0);
  g_return_val_if_fail (WS_IS_READY_TREE (tree), 0);

  for (guint i = 0; i < ws_ready_tree_get_n_nodes (tree); i++)
    {
      const WsWaitScore *s = ws_anomaly_result_lookup (self, trace, ws_ready_tree_get_node (tree, i)->event);
      gboolean anomalous = s != NULL && s->anomalous;

      ws_ready_tree_mark_anomalous (tree, i, anomalous);
      marked += anomalous;
    }
  return marked;
}
