/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A Mining page run: the page's choices as the core's mining settings,
 * run in a thread by the core's one mining entry point.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-error.h"
#include "ws-mining-request.h"
#include "ws-pin-mining.h"

struct _WsMiningRequest {
  WsProgressRelay *progress;   /* a reference, or NULL: progress goes there */
  GPtrArray    *documents;
  GPtrArray    *traces;
  WsDigest     *digest;        /* a fleet opened as a digest, or NULL: then the traces */
  GArray       *classes;       /* WsRunClass per trace mined, or NULL */
  gboolean      running;       /* running stacks, else waiting stacks */
  char         *include;
  char         *exclude;
  char         *threads;
  gboolean      critical_path;
  gboolean      by_cause;
  guint         scope;
  gint64        lambda;
  double        threshold;
  WsClusterRank rank;
  WsLinkage     linkage;
  char         *history_path;
  gboolean      record_history;       /* the "record-history" setting */
  guint         generation;
  WsDocument   *selection_document;   /* SCOPE_SELECTION_GRAPH: where, or NULL */
  WsSymptom     selection;
};

void
ws_mining_request_free (WsMiningRequest *job)
{
  g_clear_object (&job->progress);
  g_ptr_array_unref (job->documents);
  g_ptr_array_unref (job->traces);
  g_clear_pointer (&job->digest, ws_digest_unref);
  g_clear_pointer (&job->classes, g_array_unref);
  g_free (job->include);
  g_free (job->exclude);
  g_free (job->threads);
  g_free (job->history_path);
  g_free (job);
}

static WsMiningShown *
shown_new (GPtrArray      *documents,
            WsMiningResult *run)
{
  WsMiningShown *r = g_new0 (WsMiningShown, 1);

  g_ref_count_init (&r->ref_count);
  r->run = ws_mining_result_ref (run);
  r->documents = g_ptr_array_ref (documents);
  r->traces = run->traces;
  r->db = run->db;
  r->patterns = run->patterns;
  r->clusters = run->clusters;
  r->similarity = run->similarity;
  r->lambda = run->lambda;
  r->history_used = run->weights == WS_MINING_WEIGHTS_HISTORY;
  r->elapsed_us = run->elapsed_us;
  return r;
}

WsMiningShown *
ws_mining_shown_ref (WsMiningShown *r)
{
  g_ref_count_inc (&r->ref_count);
  return r;
}

void
ws_mining_shown_unref (WsMiningShown *r)
{
  if (!g_ref_count_dec (&r->ref_count))
    return;
  g_ptr_array_unref (r->documents);
  ws_mining_result_unref (r->run);
  g_clear_object (&r->pin);
  g_clear_pointer (&r->classes, g_array_unref);
  g_free (r);
}



/**
 * ws_mining_request_new:
 * @documents: (element-type WsDocument): the loaded traces chosen
 * @session: (nullable): where the history store and the timeline's
 *   selection come from
 * @progress: (nullable): where the run reports
 */
WsMiningRequest *
ws_mining_request_new (WsMiningForm    *form,
                       GPtrArray       *documents,
                       WsSession       *session,
                       WsClusterRank    rank,
                       WsProgressRelay *progress)
{
  WsMiningRequest *job = g_new0 (WsMiningRequest, 1);
  WsDocument *current = session ? ws_session_get_current_document (session) : NULL;
  guint thread;
  WsTime t0, t1;

  job->progress = progress ? g_object_ref (progress) : NULL;
  job->documents = g_ptr_array_ref (documents);
  job->traces = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < documents->len; i++)
    g_ptr_array_add (job->traces, g_object_ref (ws_document_get_trace (g_ptr_array_index (documents, i))));
  job->running = ws_mining_form_get_running (form);
  job->include = g_strdup (ws_mining_form_get_must (form));
  job->exclude = g_strdup (ws_mining_form_get_must_not (form));
  job->threads = g_strdup (ws_mining_form_get_threads (form));
  job->critical_path = ws_mining_form_get_critical_path (form);
  job->by_cause = ws_mining_form_get_by_cause (form);
  job->scope = ws_mining_form_get_scope (form);
  job->lambda = ws_mining_form_get_lambda (form);
  job->threshold = ws_mining_form_get_threshold (form);
  job->rank = rank;
  job->linkage = ws_mining_form_get_linkage (form);
  job->history_path = session ? g_strdup (ws_session_get_history_path (session)) : NULL;
  job->record_history = session == NULL || ws_session_get_record_history (session);
  if (current != NULL && ws_document_get_state (current) == WS_DOCUMENT_READY &&
      ws_timeline_viewport_get_selection (ws_document_get_viewport (current), &thread, &t0, &t1))
    {
      job->selection_document = current;
      job->selection = (WsSymptom) { thread, t0, t1 };
    }
  return job;
}

/* The scopes offered, in the combo row's order. */
typedef WsMiningScope Scope;
#define SCOPE_WHOLE           WS_MINING_SCOPE_WHOLE_TRACES
#define SCOPE_INSTANCES       WS_MINING_SCOPE_INSTANCES
#define SCOPE_INSTANCE_GRAPHS WS_MINING_SCOPE_INSTANCE_GRAPHS
#define SCOPE_SELECTION_GRAPH WS_MINING_SCOPE_SELECTION_GRAPH

/* The page's choices as the core's mining settings (the strings stay
 * the job's).  Each scenario instance is a stream of its own. */
static void
job_settings (WsMiningRequest  *job,
              WsMiningSettings *settings,
              const char      **must,
              const char      **must_not)
{
  ws_mining_settings_init (settings);
  settings->stacks = job->running ? WS_AOI_RUNNING : WS_AOI_WAITING;
  must[0] = job->include && *job->include ? job->include : NULL;
  must_not[0] = job->exclude && *job->exclude ? job->exclude : NULL;
  settings->must = must;
  settings->must_not = must_not;
  settings->thread_names = job->threads;
  settings->scope = ws_mining_scope_to_run_scope (job->scope);
  settings->per_instance = TRUE;
  settings->critical_path = job->critical_path;
  settings->by_cause = job->by_cause && settings->scope == WS_MINING_RUN_SCOPE_DELAYING;
  for (guint i = 0; i < job->documents->len; i++)
    if (job->documents->pdata[i] == job->selection_document)
      settings->symptom_trace = i;
  settings->symptom = job->selection;
  settings->lambda = job->lambda;
  settings->cluster = TRUE;
  settings->threshold = job->threshold;
  settings->rank = job->rank;
  settings->linkage = job->linkage;
  settings->history_path = job->history_path;
  settings->record_history = job->record_history;
  settings->classes = job->classes != NULL ? (const WsRunClass *) (gconstpointer) job->classes->data : NULL;
}


/**
 * ws_mining_request_set_scope:
 *
 * Mines @scope instead of the form's (the Overview's cluster row and its
 * click both mine the default scope, whatever the form shows).
 */
void
ws_mining_request_set_scope (WsMiningRequest *job,
                             WsMiningScope    scope)
{
  job->scope = scope;
}

/**
 * ws_mining_request_set_digest:
 *
 * Mines @digest (a fleet opened as a digest) instead of the documents:
 * ws_mining_run_digest(), as `waitscope-cli mine` over the digest.
 */
void
ws_mining_request_set_digest (WsMiningRequest *job,
                              WsDigest        *digest)
{
  g_clear_pointer (&job->digest, ws_digest_unref);
  job->digest = digest ? ws_digest_ref (digest) : NULL;
}

/**
 * ws_mining_request_set_classes:
 * @classes: (nullable) (element-type WsRunClass): one class per trace
 *   mined (the documents', or the digest's, in order), from the session's
 *   #WsRunClasses: with a slow and a fast one, the run scores every
 *   pattern and cluster by what slow traces have more of, as `mine
 *   --classes` does
 * @rank: the clusters' order (%WS_CLUSTER_RANK_DISCRIMINATIVE only with
 *   both classes)
 */
void
ws_mining_request_set_classes (WsMiningRequest *job,
                               GArray          *classes,
                               WsClusterRank    rank)
{
  g_clear_pointer (&job->classes, g_array_unref);
  job->classes = classes != NULL ? g_array_ref (classes) : NULL;
  job->rank = rank;
}

/* Mines the delaying scope by cause, whatever the form's switch says. */
void
ws_mining_request_set_by_cause (WsMiningRequest *job,
                                gboolean         by_cause)
{
  job->by_cause = by_cause;
}

/* Whether the run records its traces in the history store (the
 * "record-history" setting when the request was made, by default). */
void
ws_mining_request_set_record_history (WsMiningRequest *job,
                                      gboolean         record)
{
  job->record_history = record;
}

/**
 * ws_mining_request_run:
 *
 * The core's mining run with the request's settings, in the calling
 * thread: what the Mining page shows, and what the Overview's cluster row
 * summarises (ws_overview_cluster_from_run()).
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsMiningResult *
ws_mining_request_run (WsMiningRequest  *job,
                       GCancellable     *cancellable,
                       GError          **error)
{
  WsMiningSettings settings;
  const char *must[2] = { NULL, NULL }, *must_not[2] = { NULL, NULL };
  WsMiningResult *run;

  if (job->scope == SCOPE_SELECTION_GRAPH && job->selection_document == NULL && job->digest == NULL)
    {
      g_set_error_literal (error, WS_ERROR, WS_ERROR_INVALID,
                           _("Select a window of a thread in the timeline first: its wait graph is the scope"));
      return NULL;
    }
  job_settings (job, &settings, must, must_not);
  if (job->digest != NULL)
    {
      /* A digest holds no events: the scopes that need them are refused
       * with the CLI's message. */
      settings.per_instance = FALSE;
      if (!ws_mining_settings_fit_digest (&settings, error))
        return NULL;
      run = ws_mining_run_digest (job->digest, &settings, cancellable,
                                  job->progress ? ws_progress_relay_report : NULL, job->progress, error);
    }
  else
    run = ws_mining_run (job->traces, &settings, cancellable, job->progress ? ws_progress_relay_report : NULL,
                         job->progress, error);
  for (guint i = 0; run != NULL && i < run->warnings->len; i++)
    g_message ("Mining: %s", (const char *) g_ptr_array_index (run->warnings, i));
  return run;
}

/* A GTaskThreadFunc: the core's mining run (ws_mining_run(), as
 * `waitscope-cli cluster`); returns a WsMiningShown. */
void
ws_mining_request_run_in_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  WsMiningRequest *job = task_data;
  g_autoptr(WsMiningResult) run = NULL;
  g_autoptr(WsMiningShown) result = NULL;
  g_autoptr(GError) error = NULL;
  WsMiningSettings settings;
  const char *must[2] = { NULL, NULL }, *must_not[2] = { NULL, NULL };

  run = ws_mining_request_run (job, cancellable, &error);
  if (run == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* The pin records the settings the run used (job_settings() again:
   * the strings stay the job's). */
  job_settings (job, &settings, must, must_not);
  result = shown_new (job->documents, run);
  result->classes = job->classes != NULL ? g_array_ref (job->classes) : NULL;
  result->rank = settings.rank;
  /* What a pin of one of its clusters records (ws-pin-mining.c) */
  result->pin = ws_pin_new (WS_PIN_KIND_ALIGNMENT);
  ws_pin_set_mining (result->pin, &settings, run);
  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) ws_mining_shown_unref);
}

