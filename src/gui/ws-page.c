/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The base of the lower pane's pages.  It holds the session the window
 * binds once and answers for the page's pin kinds, so that adding a page
 * or a pin kind touches the page, not the window (as Sysprof's pages
 * take their session from the window's template).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ws-page.h"

typedef struct
{
  WsSession *session;
} WsPagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (WsPage, ws_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_TITLE,
  PROP_ICON_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_page_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  WsPage *self = WS_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, ws_page_get_session (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, ws_page_get_title (self));
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, ws_page_get_icon_name (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_page_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      ws_page_set_session (WS_PAGE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_page_dispose (GObject *object)
{
  WsPage *self = WS_PAGE (object);
  WsPagePrivate *priv = ws_page_get_instance_private (self);
  GtkWidget *child;

  /* A page's children are its template's: they go with it. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&priv->session);

  G_OBJECT_CLASS (ws_page_parent_class)->dispose (object);
}

static void
ws_page_class_init (WsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = ws_page_get_property;
  object_class->set_property = ws_page_set_property;
  object_class->dispose = ws_page_dispose;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
ws_page_init (WsPage *self)
{
}

/* @title: marked with N_(), translated when asked for. */
void
ws_page_class_set_title (WsPageClass *klass,
                         const char  *title)
{
  g_return_if_fail (WS_IS_PAGE_CLASS (klass));
  klass->title = title;
}

void
ws_page_class_set_icon_name (WsPageClass *klass,
                             const char  *icon_name)
{
  g_return_if_fail (WS_IS_PAGE_CLASS (klass));
  klass->icon_name = icon_name;
}

/**
 * ws_page_get_session:
 * Returns: (transfer none) (nullable): the session the window gave
 */
WsSession *
ws_page_get_session (WsPage *self)
{
  WsPagePrivate *priv;

  g_return_val_if_fail (WS_IS_PAGE (self), NULL);
  priv = ws_page_get_instance_private (self);
  return priv->session;
}

void
ws_page_set_session (WsPage    *self,
                     WsSession *session)
{
  g_autoptr(WsSession) old = NULL;
  WsPagePrivate *priv;

  g_return_if_fail (WS_IS_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));
  priv = ws_page_get_instance_private (self);
  if (priv->session == session)
    return;
  /* The page keeps no session of its own: the hook gets the old one to
   * disconnect from, alive until it returns, and reads the new one with
   * ws_page_get_session() as everywhere else. */
  old = g_steal_pointer (&priv->session);
  priv->session = session ? g_object_ref (session) : NULL;
  if (WS_PAGE_GET_CLASS (self)->session_changed != NULL)
    WS_PAGE_GET_CLASS (self)->session_changed (self, old, session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* The page's name for people (a tab's label), translated. */
const char *
ws_page_get_title (WsPage *self)
{
  const char *title;

  g_return_val_if_fail (WS_IS_PAGE (self), NULL);
  title = WS_PAGE_GET_CLASS (self)->title;
  return title != NULL ? _(title) : NULL;
}

const char *
ws_page_get_icon_name (WsPage *self)
{
  g_return_val_if_fail (WS_IS_PAGE (self), NULL);
  return WS_PAGE_GET_CLASS (self)->icon_name;
}

gboolean
ws_page_owns_pin_kind (WsPage     *self,
                       const char *kind)
{
  const char * const *kinds;

  g_return_val_if_fail (WS_IS_PAGE (self), FALSE);
  if (kind == NULL || WS_PAGE_GET_CLASS (self)->pin_kinds == NULL)
    return FALSE;
  kinds = WS_PAGE_GET_CLASS (self)->pin_kinds (self);
  return kinds != NULL && g_strv_contains (kinds, kind);
}

/**
 * ws_page_capture_pin:
 * @files: (element-type GFile): gets the traces the pin spans
 * @message: (out) (optional) (nullable): what the user must do first
 *
 * Returns: (transfer full) (nullable): a pin of what the page shows
 */
WsPin *
ws_page_capture_pin (WsPage      *self,
                     const char  *what,
                     GPtrArray   *files,
                     char       **message)
{
  g_autofree char *why_not = NULL;
  WsPin *pin = NULL;

  g_return_val_if_fail (WS_IS_PAGE (self), NULL);
  g_return_val_if_fail (files != NULL, NULL);
  if (WS_PAGE_GET_CLASS (self)->capture_pin != NULL)
    pin = WS_PAGE_GET_CLASS (self)->capture_pin (self, what, files, &why_not);
  if (message != NULL)
    *message = g_steal_pointer (&why_not);
  return pin;
}

/**
 * ws_page_apply_pin:
 * @traces: (array length=n_traces) (nullable): the pin's traces
 */
void
ws_page_apply_pin (WsPage  *self,
                   WsPin   *pin,
                   GFile  **traces,
                   guint    n_traces)
{
  g_return_if_fail (WS_IS_PAGE (self));
  g_return_if_fail (WS_IS_PIN (pin));
  if (WS_PAGE_GET_CLASS (self)->apply_pin != NULL)
    WS_PAGE_GET_CLASS (self)->apply_pin (self, pin, traces, n_traces);
}
