/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-progress-relay.h"

struct _WsProgressRelay
{
  GObject              parent_instance;

  WsProgressRelayFunc  func;
  gpointer             user_data;
  GDestroyNotify       destroy;
  GMainContext        *context;      /* where the relay was made: the main thread's */

  /* The latest report not yet published, under the mutex */
  GMutex               mutex;
  double               pending_fraction;
  char                *pending_message;
  GSource             *idle;
};

G_DEFINE_FINAL_TYPE (WsProgressRelay, ws_progress_relay, G_TYPE_OBJECT)

static void
ws_progress_relay_dispose (GObject *object)
{
  WsProgressRelay *self = WS_PROGRESS_RELAY (object);

  /* The idle holds no reference, so that dropping the relay is enough to
   * make sure the callback never runs on a user_data that is going away. */
  ws_progress_relay_cancel_pending (self);

  G_OBJECT_CLASS (ws_progress_relay_parent_class)->dispose (object);
}

static void
ws_progress_relay_finalize (GObject *object)
{
  WsProgressRelay *self = WS_PROGRESS_RELAY (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->mutex);
  g_free (self->pending_message);

  G_OBJECT_CLASS (ws_progress_relay_parent_class)->finalize (object);
}

static void
ws_progress_relay_class_init (WsProgressRelayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_progress_relay_dispose;
  object_class->finalize = ws_progress_relay_finalize;
}

static void
ws_progress_relay_init (WsProgressRelay *self)
{
  g_mutex_init (&self->mutex);
}

/**
 * ws_progress_relay_new:
 * @func: called on the thread-default main context of the caller (the main
 *   thread) with the latest reports
 * @destroy: (nullable): frees @user_data when the relay is finalized
 */
WsProgressRelay *
ws_progress_relay_new (WsProgressRelayFunc func,
                       gpointer            user_data,
                       GDestroyNotify      destroy)
{
  WsProgressRelay *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (WS_TYPE_PROGRESS_RELAY, NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  self->context = g_main_context_ref_thread_default ();
  return self;
}

/* ws_progress_relay_new_for_owner()'s user data: the owner, weakly. */
typedef struct {
  GWeakRef            owner;
  WsProgressRelayFunc func;
} OwnerCall;

static void
owner_call (double      fraction,
            const char *message,
            gpointer    data)
{
  OwnerCall *call = data;
  g_autoptr(GObject) owner = g_weak_ref_get (&call->owner);

  if (owner != NULL)
    call->func (fraction, message, owner);
}

static void
owner_call_free (gpointer data)
{
  OwnerCall *call = data;

  g_weak_ref_clear (&call->owner);
  g_free (call);
}

/**
 * ws_progress_relay_new_for_owner:
 * @owner: a #GObject (a page), held weakly
 * @func: called as ws_progress_relay_new()'s, with @owner as its user
 *   data, while @owner lives
 *
 * The one way a page relays its jobs' progress: a job may outlive its
 * page (the worker thread holds the relay), and its late reports must
 * then land nowhere.
 */
WsProgressRelay *
ws_progress_relay_new_for_owner (gpointer            owner,
                                 WsProgressRelayFunc func)
{
  OwnerCall *call;

  g_return_val_if_fail (G_IS_OBJECT (owner) && func != NULL, NULL);

  call = g_new0 (OwnerCall, 1);
  g_weak_ref_init (&call->owner, owner);
  call->func = func;
  return ws_progress_relay_new (owner_call, call, owner_call_free);
}

static gboolean
idle_cb (gpointer data)
{
  WsProgressRelay *self = data;
  double fraction;
  g_autofree char *message = NULL;

  g_mutex_lock (&self->mutex);
  fraction = self->pending_fraction;
  message = g_steal_pointer (&self->pending_message);
  g_clear_pointer (&self->idle, g_source_unref);
  g_mutex_unlock (&self->mutex);

  self->func (fraction, message, self->user_data);
  return G_SOURCE_REMOVE;
}

/**
 * ws_progress_relay_report:
 * @relay: (type WsProgressRelay): the relay
 *
 * A #WsProgressFunc, callable from any thread: keeps the latest report and
 * makes sure one idle callback will publish it.
 */
void
ws_progress_relay_report (double      fraction,
                          const char *message,
                          gpointer    relay)
{
  WsProgressRelay *self = relay;

  g_return_if_fail (WS_IS_PROGRESS_RELAY (self));

  g_mutex_lock (&self->mutex);
  self->pending_fraction = fraction;
  if (message != NULL)
    {
      g_free (self->pending_message);
      self->pending_message = g_strdup (message);
    }
  if (self->idle == NULL)
    {
      self->idle = g_idle_source_new ();
      g_source_set_priority (self->idle, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (self->idle, idle_cb, self, NULL);
      g_source_set_static_name (self->idle, "[waitscope] progress relay");
      g_source_attach (self->idle, self->context);
    }
  g_mutex_unlock (&self->mutex);
}

/**
 * ws_progress_relay_cancel_pending:
 *
 * Removes the idle callback if one is pending (its report is then never
 * published).  Later reports schedule a new one.
 */
void
ws_progress_relay_cancel_pending (WsProgressRelay *self)
{
  GSource *idle;

  g_return_if_fail (WS_IS_PROGRESS_RELAY (self));

  g_mutex_lock (&self->mutex);
  idle = g_steal_pointer (&self->idle);
  g_clear_pointer (&self->pending_message, g_free);
  g_mutex_unlock (&self->mutex);

  if (idle != NULL)
    {
      g_source_destroy (idle);
      g_source_unref (idle);
    }
}
