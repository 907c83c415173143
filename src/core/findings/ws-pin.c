/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A pinned view.  What it stores is deliberately the same inputs the
 * analyses take (a symptom ⟨thread, t0, t1⟩, a root wait, a chain metric),
 * so the report and the GUI redraw it through the one core entry point of
 * each analysis instead of keeping pixels that would go stale.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-pin-private.h"

struct _WsPin
{
  GObject     parent_instance;

  char       *id;
  char       *kind;
  char       *title;
  char       *note;
  GDateTime  *created;
  GArray     *traces;       /* guint: indices into the session's traces */
  gint32      tid;
  gboolean    has_window;
  WsTime      t0;
  WsTime      t1;
  gint64      event;
  gint64      scenario_instance;
  JsonObject *settings;
};

G_DEFINE_FINAL_TYPE (WsPin, ws_pin, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_NOTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
ws_pin_finalize (GObject *object)
{
  WsPin *self = WS_PIN (object);

  g_free (self->id);
  g_free (self->kind);
  g_free (self->title);
  g_free (self->note);
  g_clear_pointer (&self->created, g_date_time_unref);
  g_clear_pointer (&self->traces, g_array_unref);
  g_clear_pointer (&self->settings, json_object_unref);

  G_OBJECT_CLASS (ws_pin_parent_class)->finalize (object);
}

static void
ws_pin_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  WsPin *self = WS_PIN (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_NOTE:
      g_value_set_string (value, self->note);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_pin_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  WsPin *self = WS_PIN (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      ws_pin_set_title (self, g_value_get_string (value));
      break;
    case PROP_NOTE:
      ws_pin_set_note (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_pin_class_init (WsPinClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_pin_finalize;
  object_class->get_property = ws_pin_get_property;
  object_class->set_property = ws_pin_set_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_NOTE] =
    g_param_spec_string ("note", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_pin_init (WsPin *self)
{
  self->id = g_uuid_string_random ();
  self->title = g_strdup ("");
  self->note = g_strdup ("");
  self->created = g_date_time_new_now_utc ();
  self->traces = g_array_new (FALSE, FALSE, sizeof (guint));
  self->tid = WS_PIN_NO_TID;
  self->event = WS_PIN_NONE;
  self->scenario_instance = WS_PIN_NONE;
  self->settings = json_object_new ();
}

/**
 * ws_pin_new:
 * @kind: a view kind name (see ws-pin-kind.h)
 *
 * Returns: (transfer full): an empty pin of that kind, with a fresh id
 */
WsPin *
ws_pin_new (const char *kind)
{
  WsPin *self;

  g_return_val_if_fail (kind != NULL, NULL);

  self = g_object_new (WS_TYPE_PIN, NULL);
  self->kind = g_strdup (kind);
  return self;
}

/* A deep copy with the same id: the undo history keeps these. */
WsPin *
ws_pin_copy (WsPin *self)
{
  g_autoptr(JsonNode) node = NULL;
  WsPin *copy;

  g_return_val_if_fail (WS_IS_PIN (self), NULL);

  node = ws_pin_to_json (self);
  copy = _ws_pin_read_members (node, G_MAXUINT, NULL);
  g_assert (copy != NULL);
  return copy;
}

const char *
ws_pin_get_id (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->id;
}

const char *
ws_pin_get_kind (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->kind;
}

const char *
ws_pin_get_title (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->title;
}

void
ws_pin_set_title (WsPin  *self,
                      const char *title)
{
  g_return_if_fail (WS_IS_PIN (self));

  if (title == NULL)
    title = "";
  if (g_str_equal (title, self->title))
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
ws_pin_get_note (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->note;
}

void
ws_pin_set_note (WsPin  *self,
                     const char *note)
{
  g_return_if_fail (WS_IS_PIN (self));

  if (note == NULL)
    note = "";
  if (g_str_equal (note, self->note))
    return;
  g_free (self->note);
  self->note = g_strdup (note);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
}

GDateTime *
ws_pin_get_created (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->created;
}

guint
ws_pin_get_n_traces (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), 0);
  return self->traces->len;
}

guint
ws_pin_get_trace (WsPin *self,
                      guint      i)
{
  g_return_val_if_fail (WS_IS_PIN (self), 0);
  g_return_val_if_fail (i < self->traces->len, 0);
  return g_array_index (self->traces, guint, i);
}

void
ws_pin_add_trace (WsPin *self,
                      guint      trace)
{
  g_return_if_fail (WS_IS_PIN (self));
  g_array_append_val (self->traces, trace);
}

gint32
ws_pin_get_tid (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), WS_PIN_NO_TID);
  return self->tid;
}

void
ws_pin_set_tid (WsPin *self,
                    gint32     tid)
{
  g_return_if_fail (WS_IS_PIN (self));
  self->tid = tid;
}

/* Returns: %FALSE if the pin has no window (the whole trace). */
gboolean
ws_pin_get_window (WsPin *self,
                       WsTime    *t0,
                       WsTime    *t1)
{
  g_return_val_if_fail (WS_IS_PIN (self), FALSE);

  if (t0)
    *t0 = self->t0;
  if (t1)
    *t1 = self->t1;
  return self->has_window;
}

void
ws_pin_set_window (WsPin *self,
                       WsTime     t0,
                       WsTime     t1)
{
  g_return_if_fail (WS_IS_PIN (self));
  g_return_if_fail (t1 >= t0);

  self->has_window = TRUE;
  self->t0 = t0;
  self->t1 = t1;
}

gint64
ws_pin_get_event (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), WS_PIN_NONE);
  return self->event;
}

void
ws_pin_set_event (WsPin *self,
                      gint64     event)
{
  g_return_if_fail (WS_IS_PIN (self));
  self->event = event < 0 ? WS_PIN_NONE : event;
}

gint64
ws_pin_get_scenario_instance (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), WS_PIN_NONE);
  return self->scenario_instance;
}

void
ws_pin_set_scenario_instance (WsPin *self,
                                  gint64     instance)
{
  g_return_if_fail (WS_IS_PIN (self));
  self->scenario_instance = instance < 0 ? WS_PIN_NONE : instance;
}

JsonObject *
ws_pin_get_settings (WsPin *self)
{
  g_return_val_if_fail (WS_IS_PIN (self), NULL);
  return self->settings;
}

const char *
ws_pin_get_setting_string (WsPin  *self,
                               const char *name,
                               const char *fallback)
{
  JsonNode *node;

  g_return_val_if_fail (WS_IS_PIN (self), fallback);

  node = json_object_get_member (self->settings, name);
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return fallback;
  return json_node_get_string (node);
}

gint64
ws_pin_get_setting_int (WsPin  *self,
                            const char *name,
                            gint64      fallback)
{
  JsonNode *node;

  g_return_val_if_fail (WS_IS_PIN (self), fallback);

  node = json_object_get_member (self->settings, name);
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    return fallback;
  return json_node_get_int (node);
}

gboolean
ws_pin_get_setting_bool (WsPin  *self,
                             const char *name,
                             gboolean    fallback)
{
  JsonNode *node;

  g_return_val_if_fail (WS_IS_PIN (self), fallback);

  node = json_object_get_member (self->settings, name);
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

void
ws_pin_set_setting_string (WsPin  *self,
                               const char *name,
                               const char *value)
{
  g_return_if_fail (WS_IS_PIN (self));
  g_return_if_fail (name != NULL && value != NULL);
  json_object_set_string_member (self->settings, name, value);
}

void
ws_pin_set_setting_int (WsPin  *self,
                            const char *name,
                            gint64      value)
{
  g_return_if_fail (WS_IS_PIN (self));
  g_return_if_fail (name != NULL);
  json_object_set_int_member (self->settings, name, value);
}

void
ws_pin_set_setting_bool (WsPin  *self,
                             const char *name,
                             gboolean    value)
{
  g_return_if_fail (WS_IS_PIN (self));
  g_return_if_fail (name != NULL);
  json_object_set_boolean_member (self->settings, name, value);
}

/* ------------------------------------------------------------------ */
/* JSON (one element of the session file's "findings")                */

JsonNode *
ws_pin_to_json (WsPin *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *created = NULL;

  g_return_val_if_fail (WS_IS_PIN (self), NULL);

  created = g_date_time_format_iso8601 (self->created);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, self->id);
  json_builder_set_member_name (b, "view");
  json_builder_add_string_value (b, self->kind);
  json_builder_set_member_name (b, "title");
  json_builder_add_string_value (b, self->title);
  json_builder_set_member_name (b, "note");
  json_builder_add_string_value (b, self->note);
  json_builder_set_member_name (b, "created");
  json_builder_add_string_value (b, created);
  json_builder_set_member_name (b, "traces");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->traces->len; i++)
    json_builder_add_int_value (b, g_array_index (self->traces, guint, i));
  json_builder_end_array (b);
  if (self->tid != WS_PIN_NO_TID)
    {
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, self->tid);
    }
  if (self->has_window)
    {
      json_builder_set_member_name (b, "window");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "from_ns");
      json_builder_add_int_value (b, self->t0);
      json_builder_set_member_name (b, "to_ns");
      json_builder_add_int_value (b, self->t1);
      json_builder_end_object (b);
    }
  if (self->event != WS_PIN_NONE)
    {
      json_builder_set_member_name (b, "event");
      json_builder_add_int_value (b, self->event);
    }
  if (self->scenario_instance != WS_PIN_NONE)
    {
      json_builder_set_member_name (b, "scenario_instance");
      json_builder_add_int_value (b, self->scenario_instance);
    }
  json_builder_set_member_name (b, "settings");
  json_builder_add_value (b, json_node_init_object (json_node_alloc (), self->settings));
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
fail (GError    **error,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError    **error,
      const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (WS_ERROR, WS_ERROR_INVALID, format, args);
  va_end (args);
  return FALSE;
}

static gboolean
member_int (JsonObject  *obj,
            const char  *name,
            gboolean     required,
            gint64      *value,
            GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL)
    return required ? fail (error, _("“%s” is missing"), name) : TRUE;
  if (json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (error, _("“%s” must be an integer"), name);
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
member_string (JsonObject  *obj,
               const char  *name,
               gboolean     required,
               const char **value,
               GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  if (node == NULL)
    return required ? fail (error, _("“%s” is missing"), name) : TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (error, _("“%s” must be a string"), name);
  *value = json_node_get_string (node);
  return TRUE;
}

static gboolean
read_traces (WsPin   *self,
             JsonObject  *obj,
             guint        n_traces,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, "traces");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, _("“traces” must be an array of trace indices"));
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);
      gint64 t;

      if (json_node_get_value_type (e) != G_TYPE_INT64)
        return fail (error, _("“traces” must be an array of trace indices"));
      t = json_node_get_int (e);
      if (t < 0 || (guint64) t >= n_traces)
        return fail (error, g_dngettext (GETTEXT_PACKAGE, "trace index %lld is out of range (the session lists %u trace)",
                                         "trace index %lld is out of range (the session lists %u traces)", n_traces),
                     (long long) t, n_traces);
      ws_pin_add_trace (self, (guint) t);
    }
  return TRUE;
}

static gboolean
read_window (WsPin   *self,
             JsonObject  *obj,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, "window");
  JsonObject *w;
  gint64 t0 = 0, t1 = 0;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, _("“window” must be an object with “from_ns” and “to_ns”"));
  w = json_node_get_object (node);
  if (!member_int (w, "from_ns", TRUE, &t0, error) || !member_int (w, "to_ns", TRUE, &t1, error))
    return FALSE;
  if (t1 < t0)
    return fail (error, _("the window ends before it starts"));
  ws_pin_set_window (self, t0, t1);
  return TRUE;
}

static gboolean
read_ids (WsPin   *self,
          JsonObject  *obj,
          GError     **error)
{
  gint64 tid = WS_PIN_NO_TID, event = WS_PIN_NONE, instance = WS_PIN_NONE;
  const char *id = NULL, *created = NULL;

  if (!member_string (obj, "id", FALSE, &id, error) ||
      !member_string (obj, "created", FALSE, &created, error) ||
      !member_int (obj, "tid", FALSE, &tid, error) ||
      !member_int (obj, "event", FALSE, &event, error) ||
      !member_int (obj, "scenario_instance", FALSE, &instance, error))
    return FALSE;
  if (tid != WS_PIN_NO_TID && (tid < G_MININT32 || tid > G_MAXINT32))
    return fail (error, _("“tid” is out of range"));
  if (id != NULL && *id != '\0')
    {
      g_free (self->id);
      self->id = g_strdup (id);
    }
  if (created != NULL)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (created, NULL);
      if (dt == NULL)
        return fail (error, _("“created” is not an ISO 8601 date"));
      g_date_time_unref (self->created);
      self->created = g_steal_pointer (&dt);
    }
  self->tid = (gint32) tid;
  ws_pin_set_event (self, event);
  ws_pin_set_scenario_instance (self, instance);
  return TRUE;
}

/**
 * _ws_pin_read_members:
 * @n_traces: how many traces the session lists (indices are checked)
 *
 * The pin's own members, not its kind's check (ws_pin_new_from_json()
 * adds it): a copy of a pin made here needs none.
 *
 * Returns: (transfer full) (nullable): the pin, or %NULL with @error
 *   saying which member is wrong (the caller adds file and position)
 */
WsPin *
_ws_pin_read_members (JsonNode  *node,
                      guint      n_traces,
                      GError   **error)
{
  g_autoptr(WsPin) self = NULL;
  JsonObject *obj;
  JsonNode *settings;
  const char *kind = NULL, *title = "", *note = "";

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, _("a finding must be an object"));
      return NULL;
    }
  obj = json_node_get_object (node);
  if (!member_string (obj, "view", TRUE, &kind, error) ||
      !member_string (obj, "title", FALSE, &title, error) ||
      !member_string (obj, "note", FALSE, &note, error))
    return NULL;
  if (*kind == '\0')
    {
      fail (error, _("“view” is empty"));
      return NULL;
    }

  self = ws_pin_new (kind);
  ws_pin_set_title (self, title);
  ws_pin_set_note (self, note);
  if (!read_ids (self, obj, error) || !read_traces (self, obj, n_traces, error) ||
      !read_window (self, obj, error))
    return NULL;

  settings = json_object_get_member (obj, "settings");
  if (settings != NULL && !JSON_NODE_HOLDS_OBJECT (settings))
    {
      fail (error, _("“settings” must be an object"));
      return NULL;
    }
  if (settings != NULL)
    {
      JsonObject *from = json_node_get_object (settings);
      g_autoptr(GList) names = json_object_get_members (from);

      /* Member by member: a shared object would let an undo snapshot
       * change with the live pin. */
      for (GList *l = names; l != NULL; l = l->next)
        json_object_set_member (self->settings, l->data,
                                json_node_copy (json_object_get_member (from, l->data)));
    }
  return g_steal_pointer (&self);
}
