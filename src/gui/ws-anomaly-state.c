/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * WsAnomalyState (see the header).  A flag is written synchronously on the
 * main thread: one INSERT in autocommit mode takes well under a
 * millisecond and must be on disk before the view says it is; the models
 * are then fitted again in the worker, and the newest scoring wins.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-anomaly-state.h"
#include "ws-timing.h"
#include "ws-error.h"
#include "ws-worker.h"

struct _WsAnomalyState
{
  GObject            parent_instance;

  char              *history_path;
  WsAnomalySettings  settings;
  GListModel        *documents;
  gulong             items_changed_id;
  WsWorker          *worker;
  WsAnomalyResult   *result;
  GPtrArray         *result_documents;   /* WsDocument per result trace */
  GArray            *undo;               /* WsWaitFlag: the verdicts to restore */
};

G_DEFINE_FINAL_TYPE (WsAnomalyState, ws_anomaly_state, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct {
  char              *history_path;
  WsAnomalySettings  settings;
  GPtrArray         *traces;     /* WsTrace */
  GPtrArray         *digests;    /* char * */
  GPtrArray         *documents;  /* WsDocument */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->history_path);
  g_ptr_array_unref (job->traces);
  g_ptr_array_unref (job->digests);
  g_ptr_array_unref (job->documents);
  g_free (job);
}

static void
wait_flag_clear (gpointer data)
{
  ws_wait_flag_clear (data);
}

static void
ws_anomaly_state_dispose (GObject *object)
{
  WsAnomalyState *self = WS_ANOMALY_STATE (object);

  if (self->worker != NULL)
    ws_worker_drop (self->worker);
  g_clear_signal_handler (&self->items_changed_id, self->documents);
  g_clear_object (&self->documents);
  g_clear_object (&self->worker);
  g_clear_object (&self->result);
  g_clear_pointer (&self->result_documents, g_ptr_array_unref);

  G_OBJECT_CLASS (ws_anomaly_state_parent_class)->dispose (object);
}

static void
ws_anomaly_state_finalize (GObject *object)
{
  WsAnomalyState *self = WS_ANOMALY_STATE (object);

  g_free (self->history_path);
  g_array_unref (self->undo);

  G_OBJECT_CLASS (ws_anomaly_state_parent_class)->finalize (object);
}

static void
ws_anomaly_state_class_init (WsAnomalyStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_anomaly_state_dispose;
  object_class->finalize = ws_anomaly_state_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_anomaly_state_init (WsAnomalyState *self)
{
  ws_anomaly_settings_init (&self->settings);
  self->worker = ws_worker_new ();
  /* After the Overview's answer: the colouring comes second, the history
   * recording (nice 10) last. */
  ws_worker_set_nice (self->worker, 5);
  self->undo = g_array_new (FALSE, TRUE, sizeof (WsWaitFlag));
  g_array_set_clear_func (self->undo, wait_flag_clear);
}

WsAnomalyState *
ws_anomaly_state_new (void)
{
  return g_object_new (WS_TYPE_ANOMALY_STATE, NULL);
}

void
ws_anomaly_state_set_history_path (WsAnomalyState *self,
                                   const char     *path)
{
  g_return_if_fail (WS_IS_ANOMALY_STATE (self));

  g_free (self->history_path);
  self->history_path = path ? g_strdup (path) : ws_history_store_default_path ();
}

void
ws_anomaly_state_set_settings (WsAnomalyState          *self,
                               const WsAnomalySettings *settings)
{
  g_return_if_fail (WS_IS_ANOMALY_STATE (self));
  self->settings = *settings;
  ws_anomaly_state_refresh (self);
}

static void
document_state_cb (WsAnomalyState *self)
{
  ws_anomaly_state_refresh (self);
}

/* A document is added while it loads: score it once it is ready. */
static void
items_changed_cb (WsAnomalyState *self)
{
  for (guint i = 0; i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);

      if (g_object_get_data (G_OBJECT (doc), "ws-anomaly-state") == self)
        continue;
      g_object_set_data (G_OBJECT (doc), "ws-anomaly-state", self);
      g_signal_connect_object (doc, "notify::state", G_CALLBACK (document_state_cb), self, G_CONNECT_SWAPPED);
    }
  ws_anomaly_state_refresh (self);
}

/**
 * ws_anomaly_state_set_documents:
 * @documents: the session's documents; each loaded one is scored
 */
void
ws_anomaly_state_set_documents (WsAnomalyState *self,
                                GListModel     *documents)
{
  g_return_if_fail (WS_IS_ANOMALY_STATE (self));

  g_clear_signal_handler (&self->items_changed_id, self->documents);
  g_set_object (&self->documents, documents);
  if (documents != NULL)
    {
      self->items_changed_id = g_signal_connect_swapped (documents, "items-changed",
                                                         G_CALLBACK (items_changed_cb), self);
      items_changed_cb (self);
    }
}

static void
detect_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) error = NULL;
  WsAnomalyResult *result;

  /* The store may not exist yet (history off, nothing flagged): fine. */
  if (g_file_test (job->history_path, G_FILE_TEST_EXISTS))
    store = ws_history_store_open (job->history_path, NULL);
  result = ws_anomaly_detect ((WsTrace * const *) job->traces->pdata, (const char * const *) job->digests->pdata,
                              job->traces->len, store, &job->settings, NULL, NULL, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
detect_done (gpointer  owner,
             gpointer  result,
             GError   *error,
             gpointer  data)
{
  WsAnomalyState *self = owner;
  Job *job = data;

  ws_timing_mark ("anomalies-scored");
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("anomaly detection: %s", error->message);
      return;
    }
  g_clear_object (&self->result);
  self->result = result;
  g_clear_pointer (&self->result_documents, g_ptr_array_unref);
  self->result_documents = g_ptr_array_ref (job->documents);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * ws_anomaly_state_refresh:
 *
 * Scores the loaded documents again (in the worker; the newest run wins).
 */
void
ws_anomaly_state_refresh (WsAnomalyState *self)
{
  Job *job;

  g_return_if_fail (WS_IS_ANOMALY_STATE (self));

  if (self->history_path == NULL)
    self->history_path = ws_history_store_default_path ();
  job = g_new0 (Job, 1);
  job->history_path = g_strdup (self->history_path);
  job->settings = self->settings;
  job->traces = g_ptr_array_new_with_free_func (g_object_unref);
  job->digests = g_ptr_array_new_with_free_func (g_free);
  job->documents = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; self->documents != NULL && i < g_list_model_get_n_items (self->documents); i++)
    {
      g_autoptr(WsDocument) doc = g_list_model_get_item (self->documents, i);
      WsTrace *trace = ws_document_get_trace (doc);
      const char *digest = ws_document_get_digest (doc);

      if (trace == NULL || digest == NULL)
        continue;
      g_ptr_array_add (job->traces, g_object_ref (trace));
      g_ptr_array_add (job->digests, g_strdup (digest));
      g_ptr_array_add (job->documents, g_object_ref (doc));
    }
  if (job->traces->len == 0)
    {
      job_free (job);
      return;
    }
  ws_worker_run (self->worker, self, job, job_free, detect_thread, detect_done);
}

WsAnomalyResult *
ws_anomaly_state_get_result (WsAnomalyState *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), NULL);
  return self->result;
}

gboolean
ws_anomaly_state_get_busy (WsAnomalyState *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), FALSE);
  return ws_worker_get_busy (self->worker);
}

/* Returns: the document's trace index in the result, or %WS_NONE */
guint
ws_anomaly_state_find_trace (WsAnomalyState *self,
                             WsDocument     *document)
{
  guint index;

  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), WS_NONE);
  if (self->result_documents == NULL || !g_ptr_array_find (self->result_documents, document, &index))
    return WS_NONE;
  return index;
}

const WsWaitScore *
ws_anomaly_state_lookup (WsAnomalyState *self,
                         WsDocument     *document,
                         guint           event)
{
  guint t = ws_anomaly_state_find_trace (self, document);

  return t == WS_NONE ? NULL : ws_anomaly_result_lookup (self->result, t, event);
}

static gboolean
write_flag (WsAnomalyState    *self,
            const WsWaitFlag  *flag,
            GError           **error)
{
  g_autoptr(WsHistoryStore) store = ws_history_store_open (self->history_path, error);

  return store != NULL && ws_history_store_flag_wait (store, flag, error);
}

/**
 * ws_anomaly_state_flag:
 * @verdict: the new flag (%WS_ANOMALY_FLAG_NONE removes it)
 *
 * Saves the verdict on a wait at once (durable when this returns), keeps
 * the previous one for undo, and scores again.
 *
 * Returns: %FALSE with @error set if the wait is not scored or the store
 *   failed
 */
gboolean
ws_anomaly_state_flag (WsAnomalyState  *self,
                       WsDocument      *document,
                       guint            event,
                       WsAnomalyFlag    verdict,
                       GError         **error)
{
  return ws_anomaly_state_flag_scoped (self, document, event, verdict, FALSE, error);
}

/**
 * ws_anomaly_state_flag_reach:
 * @reach: (out caller-allocates): what the flag would change
 *
 * How many other waits of its kind flagging the wait @verdict would
 * change, before it lands (ws_anomaly_result_flag_reach()).
 *
 * Returns: %FALSE if the wait is not scored
 */
gboolean
ws_anomaly_state_flag_reach (WsAnomalyState *self,
                             WsDocument     *document,
                             guint           event,
                             WsAnomalyFlag   verdict,
                             WsFlagReach    *reach)
{
  guint t;

  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), FALSE);
  memset (reach, 0, sizeof *reach);
  t = ws_anomaly_state_find_trace (self, document);
  return t != WS_NONE && self->result != NULL && ws_anomaly_result_flag_reach (self->result, t, event, verdict, reach);
}

/**
 * ws_anomaly_state_flag_scoped:
 * @wait_only: the flag judges this wait only and teaches its kind nothing
 *   (ws_anomaly_flag_to_wait_only())
 *
 * ws_anomaly_state_flag(), scoped.
 */
gboolean
ws_anomaly_state_flag_scoped (WsAnomalyState  *self,
                              WsDocument      *document,
                              guint            event,
                              WsAnomalyFlag    verdict,
                              gboolean         wait_only,
                              GError         **error)
{
  guint t = ws_anomaly_state_find_trace (self, document);
  const WsWaitScore *s;
  WsWaitFlag flag, previous;

  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), FALSE);

  if (t == WS_NONE || (s = ws_anomaly_result_lookup (self->result, t, event)) == NULL
      || !ws_anomaly_result_make_flag (self->result, t, event, verdict, &flag))
    {
      g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("Only a finished wait can be flagged"));
      return FALSE;
    }
  ws_anomaly_result_make_flag (self->result, t, event, s->flag, &previous);
  if (wait_only && verdict != WS_ANOMALY_FLAG_NONE)
    ws_anomaly_flag_to_wait_only (&flag);
  /* Undo restores the previous flag with its scope. */
  if (s->flag_wait_only && s->flag != WS_ANOMALY_FLAG_NONE)
    ws_anomaly_flag_to_wait_only (&previous);
  if (!write_flag (self, &flag, error))
    {
      ws_wait_flag_clear (&flag);
      ws_wait_flag_clear (&previous);
      return FALSE;
    }
  ws_wait_flag_clear (&flag);
  g_array_append_val (self->undo, previous);
  ws_anomaly_state_refresh (self);
  return TRUE;
}

gboolean
ws_anomaly_state_can_undo (WsAnomalyState *self)
{
  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), FALSE);
  return self->undo->len > 0;
}

/* Restores the verdict the last flag replaced. */
gboolean
ws_anomaly_state_undo (WsAnomalyState  *self,
                       GError         **error)
{
  WsWaitFlag *last;
  gboolean ok;

  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), FALSE);

  if (self->undo->len == 0)
    return TRUE;
  last = &g_array_index (self->undo, WsWaitFlag, self->undo->len - 1);
  ok = write_flag (self, last, error);
  g_array_remove_index (self->undo, self->undo->len - 1);
  ws_anomaly_state_refresh (self);
  return ok;
}

/**
 * ws_anomaly_state_list_flags:
 *
 * Returns: (transfer full) (element-type WsWaitFlag): every flag in the
 *   store, oldest first (empty when there is no store yet)
 */
GArray *
ws_anomaly_state_list_flags (WsAnomalyState  *self,
                             GError         **error)
{
  g_autoptr(WsHistoryStore) store = NULL;

  g_return_val_if_fail (WS_IS_ANOMALY_STATE (self), NULL);

  if (self->history_path == NULL || !g_file_test (self->history_path, G_FILE_TEST_EXISTS))
    return g_array_new (FALSE, TRUE, sizeof (WsWaitFlag));
  if ((store = ws_history_store_open (self->history_path, error)) == NULL)
    return NULL;
  return ws_history_store_list_wait_flags (store, NULL, error);
}
