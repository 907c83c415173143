/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The state a window's pages share.  It is a plain object, not a widget:
 * the window owns it and gives it to each page, which is how a page finds
 * the open traces, the one in view, the settings and the history store
 * without reaching up to its window (which made the only import circle,
 * application ↔ window ↔ mining page).
 */
#include "config.h"

#include "ws-history-store.h"
#include "ws-anomaly-state.h"
#include "ws-session.h"

struct _WsSession
{
  GObject      parent_instance;

  GListStore  *documents;
  WsDocument  *current;
  GSettings   *settings;
  char        *history_path;
  WsAnomalyState *anomaly_state;  /* created on first use */
  WsSessionFile *session_file;   /* the findings and what Save writes */
  WsRunClasses *run_classes;     /* which traces are slow runs, which fast */
  gboolean      restoring_classes;  /* from the session file: not written back */
};

G_DEFINE_FINAL_TYPE (WsSession, ws_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CURRENT_DOCUMENT,
  PROP_HISTORY_PATH,
  PROP_SESSION_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  WsSession *self = WS_SESSION (object);

  switch (prop_id)
    {
    case PROP_CURRENT_DOCUMENT:
      g_value_set_object (value, self->current);
      break;
    case PROP_HISTORY_PATH:
      g_value_set_string (value, self->history_path);
      break;
    case PROP_SESSION_FILE:
      g_value_set_object (value, self->session_file);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  WsSession *self = WS_SESSION (object);

  switch (prop_id)
    {
    case PROP_CURRENT_DOCUMENT:
      ws_session_set_current_document (self, g_value_get_object (value));
      break;
    case PROP_HISTORY_PATH:
      ws_session_set_history_path (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_session_dispose (GObject *object)
{
  WsSession *self = WS_SESSION (object);

  g_clear_object (&self->anomaly_state);
  g_clear_object (&self->current);
  g_clear_object (&self->documents);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->history_path, g_free);
  g_clear_object (&self->session_file);
  g_clear_object (&self->run_classes);

  G_OBJECT_CLASS (ws_session_parent_class)->dispose (object);
}

static void
ws_session_class_init (WsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = ws_session_get_property;
  object_class->set_property = ws_session_set_property;
  object_class->dispose = ws_session_dispose;

  properties[PROP_CURRENT_DOCUMENT] =
    g_param_spec_object ("current-document", NULL, NULL, WS_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HISTORY_PATH] =
    g_param_spec_string ("history-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Read-only through GObject: ws_session_set_session_file() replaces it. */
  properties[PROP_SESSION_FILE] =
    g_param_spec_object ("session-file", NULL, NULL, WS_TYPE_SESSION_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_session_init (WsSession *self)
{
  self->documents = g_list_store_new (WS_TYPE_DOCUMENT);
  self->session_file = ws_session_file_new ();
  self->run_classes = ws_run_classes_new ();
  g_signal_connect_object (self->run_classes, "changed", G_CALLBACK (ws_session_store_run_classes), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_session_file_get_findings (self->session_file), "changed",
                           G_CALLBACK (ws_session_store_run_classes), self, G_CONNECT_SWAPPED);
}

/**
 * ws_session_new:
 * @settings: (nullable): the application's settings, %NULL when the schema
 *   is missing (every page then uses the schema's defaults)
 *
 * Returns: (transfer full): an empty session
 */
WsSession *
ws_session_new (GSettings *settings)
{
  WsSession *self = g_object_new (WS_TYPE_SESSION, NULL);

  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), self);
  if (settings != NULL)
    self->settings = g_object_ref (settings);
  return self;
}

/**
 * ws_session_get_documents:
 * Returns: (transfer none): the open traces, a list of #WsDocument in the
 *   order they were opened
 */
GListModel *
ws_session_get_documents (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return G_LIST_MODEL (self->documents);
}

void
ws_session_add_document (WsSession  *self,
                         WsDocument *document)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (WS_IS_DOCUMENT (document));
  g_list_store_append (self->documents, document);
}

/* Removes @document; the current document stays until it is replaced. */
void
ws_session_remove_document (WsSession  *self,
                            WsDocument *document)
{
  guint position;

  g_return_if_fail (WS_IS_SESSION (self));
  if (g_list_store_find (self->documents, document, &position))
    g_list_store_remove (self->documents, position);
}

/**
 * ws_session_get_current_document:
 * Returns: (transfer none) (nullable): the trace the window shows
 */
WsDocument *
ws_session_get_current_document (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->current;
}

void
ws_session_set_current_document (WsSession  *self,
                                 WsDocument *document)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (document == NULL || WS_IS_DOCUMENT (document));

  if (g_set_object (&self->current, document))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_DOCUMENT]);
}

/**
 * ws_session_get_settings:
 * Returns: (transfer none) (nullable): the application's settings
 */
GSettings *
ws_session_get_settings (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->settings;
}

/**
 * ws_session_set_settings:
 * @settings: (nullable): the application's settings
 *
 * Set once, by the window that owns the session, before it hands the
 * session to its pages (they bind their widgets to the settings then).
 */
void
ws_session_set_settings (WsSession *self,
                         GSettings *settings)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (settings == NULL || G_IS_SETTINGS (settings));
  g_set_object (&self->settings, settings);
}

/**
 * ws_session_get_history_path:
 *
 * The one history store every page and every trace of the window reads
 * and records in: the window sets it once, to the default store
 * ($WAITSCOPE_HISTORY, else the user's data directory).
 *
 * Returns: (nullable): the history store chosen for this session, or %NULL
 *   (a session no window made) for the default one
 */
const char *
ws_session_get_history_path (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->history_path;
}

void
ws_session_set_history_path (WsSession  *self,
                             const char *path)
{
  g_return_if_fail (WS_IS_SESSION (self));

  if (g_strcmp0 (self->history_path, path) == 0)
    return;
  g_free (self->history_path);
  self->history_path = g_strdup (path);
  /* The flags and models are the store's: read them from the new one. */
  if (self->anomaly_state != NULL)
    {
      g_autofree char *store = ws_session_dup_history_path (self);

      ws_anomaly_state_set_history_path (self->anomaly_state, store);
      ws_anomaly_state_refresh (self->anomaly_state);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY_PATH]);
}

/**
 * ws_session_dup_history_path:
 * Returns: (transfer full): the history store's file: the one set, else
 *   the default ($WAITSCOPE_HISTORY, else the user's data directory)
 */
char *
ws_session_dup_history_path (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->history_path ? g_strdup (self->history_path) : ws_history_store_default_path ();
}

/* Whether opened and mined traces are recorded in the history store:
 * the "record-history" setting, or its default (yes) without settings. */
gboolean
ws_session_get_record_history (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), TRUE);
  return self->settings == NULL || g_settings_get_boolean (self->settings, "record-history");
}

/**
 * ws_session_get_run_classes:
 *
 * Which of the window's traces (open, or of the fleet shown) are slow
 * runs and which fast: given once, by the user or a classes file, and
 * read by the Mining page (the discriminative ranking) and the Contrast
 * page (contrast by trace class) alike.
 *
 * Returns: (transfer none): the classes, never %NULL
 */
WsRunClasses *
ws_session_get_run_classes (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->run_classes;
}

/* The anomaly settings of the application's settings (or the defaults). */
static void
anomaly_settings (WsSession         *self,
                  WsAnomalySettings *settings)
{
  ws_anomaly_settings_init (settings);
  if (self->settings == NULL)
    return;
  settings->threshold = CLAMP (g_settings_get_double (self->settings, "anomaly-threshold"), 1e-6, 0.5);
  settings->rule = g_settings_get_boolean (self->settings, "anomaly-per-wait-cut") ? WS_ANOMALY_RULE_TAIL
                                                                                  : WS_ANOMALY_RULE_FDR;
  settings->signature_depth = CLAMP (g_settings_get_uint (self->settings, "anomaly-signature-depth"),
                                     1, WS_WAIT_SIGNATURE_MAX_DEPTH);
}

/* A changed threshold or depth applies at once: every wait is scored again. */
static void
anomaly_settings_changed_cb (WsSession *self)
{
  WsAnomalySettings settings;

  anomaly_settings (self, &settings);
  ws_anomaly_state_set_settings (self->anomaly_state, &settings);
}

/**
 * ws_session_get_anomaly_state:
 *
 * The anomaly models and flags of the session's traces, shared by every
 * page (created on first use; it scores each trace once loaded).
 *
 * Returns: (transfer none): the state
 */
WsAnomalyState *
ws_session_get_anomaly_state (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  if (self->anomaly_state == NULL)
    {
      g_autofree char *path = ws_session_dup_history_path (self);
      WsAnomalySettings settings;

      anomaly_settings (self, &settings);
      self->anomaly_state = ws_anomaly_state_new ();
      ws_anomaly_state_set_history_path (self->anomaly_state, path);
      ws_anomaly_state_set_settings (self->anomaly_state, &settings);
      ws_anomaly_state_set_documents (self->anomaly_state, G_LIST_MODEL (self->documents));
      ws_anomaly_state_refresh (self->anomaly_state);
      if (self->settings != NULL)
        {
          g_signal_connect_object (self->settings, "changed::anomaly-threshold",
                                   G_CALLBACK (anomaly_settings_changed_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->settings, "changed::anomaly-signature-depth",
                                   G_CALLBACK (anomaly_settings_changed_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->settings, "changed::anomaly-per-wait-cut",
                                   G_CALLBACK (anomaly_settings_changed_cb), self, G_CONNECT_SWAPPED);
        }
    }
  return self->anomaly_state;
}

/**
 * ws_session_get_session_file:
 *
 * The findings (pins) of this window and the `.waitscope` file they are
 * saved to.  Replaced as a whole when a session file is opened
 * (`notify::session-file`); a page that shows findings follows it.
 *
 * Returns: (transfer none): the session file, never %NULL
 */
WsSessionFile *
ws_session_get_session_file (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->session_file;
}

void
ws_session_set_session_file (WsSession     *self,
                             WsSessionFile *session_file)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (WS_IS_SESSION_FILE (session_file));

  if (self->session_file == session_file)
    return;
  g_signal_handlers_disconnect_by_func (ws_session_file_get_findings (self->session_file),
                                        ws_session_store_run_classes, self);
  g_set_object (&self->session_file, session_file);
  /* A pin adds its traces to the session: they take their classes. */
  g_signal_connect_object (ws_session_file_get_findings (session_file), "changed",
                           G_CALLBACK (ws_session_store_run_classes), self, G_CONNECT_SWAPPED);
  ws_session_restore_run_classes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION_FILE]);
}

/**
 * ws_session_store_run_classes:
 *
 * Writes the window's class of each trace the session file holds into it
 * (`trace_classes`), so Save keeps them.  Called when the classes change
 * and when a pin adds traces; a trace the session file does not hold
 * (never pinned) is not saved, since the file names only checked traces.
 */
void
ws_session_store_run_classes (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));
  if (self->restoring_classes)
    return;
  for (guint i = 0; i < ws_session_file_get_n_traces (self->session_file); i++)
    {
      WsRunClass klass = WS_RUN_CLASS_NONE;
      gboolean given = ws_run_classes_lookup_given (self->run_classes,
                                                    ws_session_file_get_trace (self->session_file, i)->path, &klass);

      ws_session_file_set_trace_class (self->session_file, i, given, klass);
    }
}

/**
 * ws_session_restore_run_classes:
 *
 * Gives the session file's traces the classes it saved (at the paths
 * where they are now: called again once relocated traces are found).
 */
void
ws_session_restore_run_classes (WsSession *self)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GArray) classes = g_array_new (FALSE, FALSE, sizeof (WsRunClass));

  g_return_if_fail (WS_IS_SESSION (self));
  for (guint i = 0; i < ws_session_file_get_n_traces (self->session_file); i++)
    {
      WsRunClass klass;

      if (!ws_session_file_get_trace_class (self->session_file, i, &klass))
        continue;
      g_ptr_array_add (paths, ws_session_file_get_trace (self->session_file, i)->path);
      g_array_append_val (classes, klass);
    }
  self->restoring_classes = TRUE;
  ws_run_classes_set_many (self->run_classes, (const char * const *) paths->pdata,
                           (const WsRunClass *) (gconstpointer) classes->data, paths->len);
  self->restoring_classes = FALSE;
}
