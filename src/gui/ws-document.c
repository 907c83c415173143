/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-anomaly-detector.h"
#include "ws-timing.h"
#include "ws-worker.h"
#include "ws-document.h"
#include "ws-error.h"
#include "ws-history-store.h"
#include "ws-progress-relay.h"
#include "ws-time-format.h"
#include "ws-trace-loader.h"

struct _WsDocument
{
  GObject             parent_instance;

  GFile              *file;
  char               *title;
  char               *subtitle;
  WsDocumentState     state;
  GError             *error;
  GCancellable       *cancellable;

  WsTrace            *trace;
  WsTimelineLod      *lod;
  WsTimelineLayout   *layout;
  WsTimelineViewport *viewport;

  /* The history store: whether to record the trace (set before loading),
   * and why it could not be */
  gboolean            record_history;
  char               *history_path;     /* the store; NULL for the default one */
  guint               signature_depth;  /* of the wait history recorded */
  gboolean            recording;        /* in the background, once shown */
  GError             *history_error;
  char               *digest;    /* the trace's identity for the history and flags */

  /* Progress as the worker reports it, and as the main thread shows it. */
  WsProgressRelay    *progress_relay;
  double              progress;
  char               *message;
};

G_DEFINE_FINAL_TYPE (WsDocument, ws_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_MESSAGE,
  PROP_LOADING,
  PROP_RECORDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void progress_published (double      fraction,
                                const char *message,
                                gpointer    user_data);

typedef struct {
  WsTrace       *trace;
  WsTimelineLod *lod;
  char          *digest;
} LoadResult;

static void
load_result_free (LoadResult *r)
{
  g_clear_object (&r->trace);
  g_clear_object (&r->lod);
  g_free (r->digest);
  g_free (r);
}

static void
ws_document_dispose (GObject *object)
{
  WsDocument *self = WS_DOCUMENT (object);

  g_cancellable_cancel (self->cancellable);
  ws_progress_relay_cancel_pending (self->progress_relay);

  G_OBJECT_CLASS (ws_document_parent_class)->dispose (object);
}

static void
ws_document_finalize (GObject *object)
{
  WsDocument *self = WS_DOCUMENT (object);

  g_clear_object (&self->file);
  g_free (self->title);
  g_free (self->subtitle);
  g_clear_error (&self->error);
  g_clear_error (&self->history_error);
  g_clear_pointer (&self->digest, g_free);
  g_clear_pointer (&self->history_path, g_free);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->trace);
  g_clear_object (&self->lod);
  g_clear_object (&self->layout);
  g_clear_object (&self->viewport);
  g_clear_object (&self->progress_relay);
  g_free (self->message);

  G_OBJECT_CLASS (ws_document_parent_class)->finalize (object);
}

static void
ws_document_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  WsDocument *self = WS_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_RECORDING:
      g_value_set_boolean (value, self->recording);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->state == WS_DOCUMENT_LOADING);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_document_class_init (WsDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_document_dispose;
  object_class->finalize = ws_document_finalize;
  object_class->get_property = ws_document_get_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, WS_DOCUMENT_LOADING, WS_DOCUMENT_FAILED, WS_DOCUMENT_LOADING,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RECORDING] =
    g_param_spec_boolean ("recording", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_document_init (WsDocument *self)
{
  self->progress_relay = ws_progress_relay_new_for_owner (self, progress_published);
  self->cancellable = g_cancellable_new ();
  self->state = WS_DOCUMENT_LOADING;
  self->signature_depth = WS_WAIT_SIGNATURE_DEFAULT_DEPTH;
  self->message = g_strdup (_("Waiting…"));
}

WsDocument *
ws_document_new (GFile *file)
{
  WsDocument *self;
  g_autofree char *basename = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (WS_TYPE_DOCUMENT, NULL);
  self->file = g_object_ref (file);
  basename = g_file_get_basename (file);
  /* A file name need not be UTF-8; GTK labels must be. */
  self->title = basename ? g_filename_display_name (basename) : g_strdup ("?");
  /* Translators: sidebar subtitle of a trace that is being read */
  self->subtitle = g_strdup (_("Loading…"));
  return self;
}

GFile *
ws_document_get_file (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->file;
}

const char *
ws_document_get_title (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->title;
}

const char *
ws_document_get_subtitle (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->subtitle;
}

WsDocumentState
ws_document_get_state (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), WS_DOCUMENT_FAILED);
  return self->state;
}

double
ws_document_get_progress (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), 0);
  return self->progress;
}

const char *
ws_document_get_message (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->message;
}

/**
 * ws_document_get_error:
 * Returns: (nullable): why loading failed
 */
const GError *
ws_document_get_error (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->error;
}

/**
 * ws_document_get_trace:
 * Returns: (transfer none) (nullable): the trace, once loaded
 */
WsTrace *
ws_document_get_trace (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->trace;
}

WsTimelineLod *
ws_document_get_lod (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->lod;
}

WsTimelineLayout *
ws_document_get_layout (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->layout;
}

WsTimelineViewport *
ws_document_get_viewport (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->viewport;
}

/**
 * ws_document_set_record_history:
 * @record: whether to add the trace to the history store once it is read
 *
 * Must be called before ws_document_load_async().  The store is the one
 * ws_document_set_history_path() chose, else
 * ws_history_store_default_path() ($WAITSCOPE_HISTORY if set).
 */
void
ws_document_set_record_history (WsDocument *self,
                                gboolean    record)
{
  g_return_if_fail (WS_IS_DOCUMENT (self));
  g_return_if_fail (self->state == WS_DOCUMENT_LOADING);
  self->record_history = !!record;
}

gboolean
ws_document_get_record_history (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), FALSE);
  return self->record_history;
}

/**
 * ws_document_set_history_path:
 * @path: (nullable): the history store to record the trace in (the
 *   window's session's), %NULL for the default one; set before loading
 */
void
ws_document_set_history_path (WsDocument *self,
                              const char *path)
{
  g_return_if_fail (WS_IS_DOCUMENT (self));
  g_return_if_fail (self->state == WS_DOCUMENT_LOADING);
  g_free (self->history_path);
  self->history_path = g_strdup (path);
}

/**
 * ws_document_set_signature_depth:
 * @depth: the wait-signature depth the wait history is recorded at (the
 *   "anomaly-signature-depth" setting); set before loading
 */
void
ws_document_set_signature_depth (WsDocument *self,
                                 guint       depth)
{
  g_return_if_fail (WS_IS_DOCUMENT (self));
  self->signature_depth = CLAMP (depth, 1, WS_WAIT_SIGNATURE_MAX_DEPTH);
}

/**
 * ws_document_get_recording:
 *
 * Returns: whether the trace, shown, is still being recorded in the
 *   history store (in the background; ::notify::recording when done,
 *   and ws_document_get_history_error() then says if it failed)
 */
gboolean
ws_document_get_recording (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), FALSE);
  return self->recording;
}

/**
 * ws_document_get_digest:
 *
 * Returns: (nullable): the loaded trace's digest (see
 *   ws_history_store_trace_digest()), the key of its flags
 */
const char *
ws_document_get_digest (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->digest;
}

/**
 * ws_document_get_history_error:
 *
 * Returns: (nullable): why a loaded trace could not be recorded in the
 *   history store; the trace itself loaded fine
 */
const GError *
ws_document_get_history_error (WsDocument *self)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), NULL);
  return self->history_error;
}

void
ws_document_cancel (WsDocument *self)
{
  g_return_if_fail (WS_IS_DOCUMENT (self));
  g_cancellable_cancel (self->cancellable);
}

/* On the main thread, the latest of the worker's reports (the worker
 * reports through the relay, which coalesces them into one idle). */
static void
progress_published (double      fraction,
                    const char *message,
                    gpointer    user_data)
{
  WsDocument *self = user_data;

  if (self->state != WS_DOCUMENT_LOADING)
    return;
  if (fraction >= 0 && fraction != self->progress)
    {
      self->progress = CLAMP (fraction, 0, 1);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  if (message != NULL && g_strcmp0 (message, self->message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
}

/* What the background recording needs. */
typedef struct {
  WsTrace *trace;
  char    *digest;
  char    *history_path;
  guint    depth;
} RecordJob;

static void
record_job_free (RecordJob *job)
{
  g_object_unref (job->trace);
  g_free (job->digest);
  g_free (job->history_path);
  g_free (job);
}

/* Every trace ever opened counts in the history (once per content), so
 * that StackMine's function weights see more than the traces open now;
 * its waits feed the anomaly models' history.  It runs once the trace is
 * shown (recording pg-tpcb's 26K waits takes ~0.7 s, mostly the commit):
 * nothing on screen needs it first — the anomaly models count the waits
 * of a trace not yet recorded as its own data.  The history is an extra:
 * its failure never fails the load. */
static void
record_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  RecordJob *job = task_data;
  g_autoptr(WsHistoryStore) store = NULL;
  g_autoptr(GError) local = NULL;
  WsAnomalySettings settings;

  ws_anomaly_settings_init (&settings);
  settings.signature_depth = job->depth;
  store = ws_history_store_open (job->history_path, &local);
  if (store == NULL || !ws_history_store_record_trace_digest (store, job->trace, job->digest, NULL, &local)
      || !ws_anomaly_record_trace (store, job->trace, job->digest, &settings, NULL, cancellable, &local))
    {
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("%s: not recorded in the history: %s", ws_trace_get_name (job->trace), local->message);
      g_task_return_error (task, g_steal_pointer (&local));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
record_done (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  WsDocument *self = WS_DOCUMENT (source);
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (res), &error))
    {
      g_clear_error (&self->history_error);
      self->history_error = error;
    }
  self->recording = FALSE;
  ws_timing_mark ("history-recorded");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
}

static void
start_recording (WsDocument *self)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, record_done, NULL);
  RecordJob *job = g_new0 (RecordJob, 1);

  job->trace = g_object_ref (self->trace);
  job->digest = g_strdup (self->digest);
  job->history_path = g_strdup (self->history_path);
  job->depth = self->signature_depth;
  g_task_set_task_data (task, job, (GDestroyNotify) record_job_free);
  self->recording = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
  /* Last of all: nothing on screen waits for it (see the top of record_thread()). */
  ws_task_run_in_thread_at_nice (task, record_thread, 10);
}

/* A trace file is known by the SHA-256 of its bytes, which needs no
 * parsing: a second thread hashes the file while the first parses it (the
 * two read the same pages), so on two cores identifying a trace costs no
 * wall time before its timeline shows. */
typedef struct {
  char         *path;
  GCancellable *cancellable;   /* its own: a failed parse stops it too */
  char         *digest;
  GError       *error;
} HashJob;

static gpointer
hash_thread (gpointer data)
{
  HashJob *job = data;

  job->digest = ws_history_store_file_digest_full (job->path, job->cancellable, &job->error);
  return NULL;
}

/* Joins the hashing thread; its digest, or %NULL with @error. */
static char *
hash_join (GThread       *thread,
           HashJob       *job,
           GCancellable  *outer,
           gulong         handler,
           GError       **error)
{
  char *digest;

  g_thread_join (thread);
  g_cancellable_disconnect (outer, handler);
  digest = job->digest;
  if (digest == NULL)
    g_propagate_error (error, job->error);
  g_object_unref (job->cancellable);
  g_free (job->path);
  g_free (job);
  return digest;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  WsDocument *self = source_object;
  g_autofree char *path = g_file_get_path (self->file);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) hash_error = NULL;
  LoadResult *result;
  HashJob *hash = NULL;
  GThread *hasher = NULL;
  gulong handler = 0;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (self->file);
      g_task_return_new_error (task, WS_ERROR, WS_ERROR_IO,
                               _("%s: only local files can be opened"), uri);
      return;
    }

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      hash = g_new0 (HashJob, 1);
      hash->path = g_strdup (path);
      hash->cancellable = g_cancellable_new ();
      handler = g_cancellable_connect (cancellable, G_CALLBACK (g_cancellable_cancel),
                                       g_object_ref (hash->cancellable), g_object_unref);
      hasher = g_thread_new ("ws-hash", hash_thread, hash);
    }

  result = g_new0 (LoadResult, 1);
  result->trace = ws_trace_loader_load (path, NULL, ws_progress_relay_report, self->progress_relay,
                                        cancellable, &error);
  if (result->trace != NULL)
    {
      ws_timing_mark ("trace-parsed");
      ws_progress_relay_report (1.0, _("Preparing the timeline…"), self->progress_relay);
      result->lod = ws_timeline_lod_new (result->trace, cancellable, &error);
    }
  if (result->lod == NULL)
    {
      if (hasher != NULL)
        {
          g_cancellable_cancel (hash->cancellable);
          g_free (hash_join (hasher, hash, cancellable, handler, NULL));
        }
      load_result_free (result);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  ws_timing_mark ("timeline-detail-built");
  ws_progress_relay_report (1.0, _("Identifying the trace…"), self->progress_relay);
  if (hasher != NULL)
    result->digest = hash_join (hasher, hash, cancellable, handler, &hash_error);
  else
    /* Not a file (nothing else loads, but the content hash is the rule then). */
    result->digest = ws_history_store_trace_digest_full (result->trace, cancellable, &hash_error);
  ws_timing_mark ("trace-identified");
  if (result->digest == NULL)
    {
      load_result_free (result);
      g_task_return_error (task, g_steal_pointer (&hash_error));
      return;
    }
  g_task_return_pointer (task, result, (GDestroyNotify) load_result_free);
}

static void
set_state (WsDocument      *self,
           WsDocumentState  state)
{
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
load_done (GObject      *source,
           GAsyncResult *res,
           gpointer      user_data)
{
  WsDocument *self = WS_DOCUMENT (source);
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  LoadResult *result;

  result = g_task_propagate_pointer (G_TASK (res), &error);
  g_free (self->subtitle);

  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (error, WS_ERROR, WS_ERROR_CANCELLED))
        self->subtitle = g_strdup (_("Cancelled"));
      else
        self->subtitle = g_strdup (_("Could not be read"));
      self->error = g_error_copy (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
      set_state (self, WS_DOCUMENT_FAILED);
      g_task_return_error (task, error);
      return;
    }

  self->trace = g_steal_pointer (&result->trace);
  self->lod = g_steal_pointer (&result->lod);
  self->digest = g_steal_pointer (&result->digest);
  load_result_free (result);

  g_free (self->title);
  self->title = g_strdup (ws_trace_get_name (self->trace));
  {
    g_autofree char *span = ws_format_duration (ws_trace_get_end_time (self->trace) -
                                                ws_trace_get_start_time (self->trace));
    guint n_events = ws_trace_get_n_events (self->trace);
    guint n_threads = ws_trace_get_n_threads (self->trace);
    g_autofree char *events = g_strdup_printf (ngettext ("%u event", "%u events", n_events), n_events);
    g_autofree char *threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads), n_threads);

    /* Translators: sidebar subtitle: events, threads, time span */
    self->subtitle = g_strdup_printf (_("%s · %s · %s"), events, threads, span);
  }
  self->layout = ws_timeline_layout_new (self->trace);
  self->viewport = ws_timeline_viewport_new ();
  ws_timeline_viewport_set_bounds (self->viewport, ws_trace_get_start_time (self->trace),
                                   ws_trace_get_end_time (self->trace));
  self->progress = 1;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  set_state (self, WS_DOCUMENT_READY);
  ws_timing_mark ("trace-read");
  if (self->record_history)
    start_recording (self);
  g_task_return_boolean (task, TRUE);
}

/**
 * ws_document_load_async:
 * @cancellable: (nullable): in addition to ws_document_cancel()
 *
 * Reads the file in a worker thread.  The document's state, progress and
 * message properties follow along on the main thread.
 */
void
ws_document_load_async (WsDocument          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *outer;
  g_autoptr(GTask) inner = NULL;

  g_return_if_fail (WS_IS_DOCUMENT (self));
  g_return_if_fail (self->state == WS_DOCUMENT_LOADING);

  if (cancellable != NULL)
    g_cancellable_connect (cancellable, G_CALLBACK (g_cancellable_cancel),
                           g_object_ref (self->cancellable), g_object_unref);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ws_document_load_async);

  self->message = (g_free (self->message), g_strdup (_("Reading…")));
  inner = g_task_new (self, self->cancellable, load_done, outer);
  g_task_set_return_on_cancel (inner, FALSE);
  ws_timing_mark ("load-started");
  g_task_run_in_thread (inner, load_thread);
}

gboolean
ws_document_load_finish (WsDocument    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (WS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
