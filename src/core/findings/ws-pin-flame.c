/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a pin of the Flame Graph page records, so the page and the report
 * fold the same stacks again: the mode, the scope (the pin's own thread
 * and window say which), the zoomed frame by its path of names (node
 * indices change when the selection does, names do not), the search, the
 * orientation, and a second trace when the graph was differential.  A
 * session file is untrusted: ws_pin_flame_check() refuses a flame pin
 * whose settings could not reproduce a view, naming the setting.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ws-error.h"
#include "ws-pin-flame.h"

static const char * const scope_names[] = { "trace", "window", "thread" };

const char *
ws_flame_scope_to_string (WsFlameScope scope)
{
  g_return_val_if_fail (scope < G_N_ELEMENTS (scope_names), "trace");
  return scope_names[scope];
}

gboolean
ws_flame_scope_from_string (const char   *name,
                            WsFlameScope *scope)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (scope_names); i++)
    if (g_str_equal (name, scope_names[i]))
      {
        *scope = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_flame_mode_from_string (const char  *name,
                           WsFlameMode *mode)
{
  for (guint m = 0; name != NULL && m < WS_N_FLAME_MODES; m++)
    if (g_str_equal (name, ws_flame_mode_get_info (m)->name))
      {
        *mode = m;
        return TRUE;
      }
  return FALSE;
}

void
ws_pin_set_flame (WsPin            *pin,
                  const WsPinFlame *flame)
{
  JsonObject *settings = ws_pin_get_settings (pin);
  JsonArray *zoom = json_array_new ();

  g_return_if_fail (WS_IS_PIN (pin));

  ws_pin_set_setting_string (pin, "mode", ws_flame_mode_get_info (flame->mode)->name);
  ws_pin_set_setting_string (pin, "scope", ws_flame_scope_to_string (flame->scope));
  for (guint i = 0; flame->zoom != NULL && flame->zoom[i] != NULL; i++)
    json_array_add_string_element (zoom, flame->zoom[i]);
  json_object_set_array_member (settings, "zoom", zoom);
  ws_pin_set_setting_string (pin, "search", flame->search ? flame->search : "");
  ws_pin_set_setting_bool (pin, "icicle", flame->icicle);
}

static gboolean
invalid (GError    **error,
         const char *message)
{
  g_set_error (error, WS_ERROR, WS_ERROR_INVALID, "%s", message);
  return FALSE;
}

/* Each member of the right JSON type, known names, a search that compiles,
 * and the thread and window the scope needs. */
static gboolean
read_flame (WsPin       *pin,
            WsPinFlame  *out,
            GError     **error)
{
  JsonObject *settings = ws_pin_get_settings (pin);
  JsonNode *node;
  WsTime t0, t1;

  memset (out, 0, sizeof *out);
  node = json_object_get_member (settings, "mode");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING ||
      !ws_flame_mode_from_string (json_node_get_string (node), &out->mode))
    return invalid (error, _("a flame graph pin’s “mode” must be “on-cpu”, “off-cpu” or “off-wake”"));
  node = json_object_get_member (settings, "scope");
  if (node == NULL)
    out->scope = WS_FLAME_SCOPE_TRACE;
  else if (json_node_get_value_type (node) != G_TYPE_STRING ||
           !ws_flame_scope_from_string (json_node_get_string (node), &out->scope))
    return invalid (error, _("a flame graph pin’s “scope” must be “trace”, “window” or “thread”"));
  if (out->scope != WS_FLAME_SCOPE_TRACE && !ws_pin_get_window (pin, &t0, &t1))
    return invalid (error, _("a flame graph pin of a window or thread scope needs a “window”"));
  if (out->scope == WS_FLAME_SCOPE_THREAD && ws_pin_get_tid (pin) == WS_PIN_NO_TID)
    return invalid (error, _("a flame graph pin of the thread scope needs a “tid”"));
  node = json_object_get_member (settings, "zoom");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      GStrvBuilder *b = g_strv_builder_new ();

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *e = json_array_get_element (array, i);
          if (json_node_get_value_type (e) != G_TYPE_STRING)
            array = NULL;
          else
            g_strv_builder_add (b, json_node_get_string (e));
        }
      out->zoom = g_strv_builder_end (b);
      g_strv_builder_unref (b);
      if (array == NULL)
        {
          ws_pin_flame_clear (out);
          return invalid (error, _("a flame graph pin’s “zoom” must be an array of frame names"));
        }
      if (out->zoom[0] == NULL)
        g_clear_pointer (&out->zoom, g_strfreev);
    }
  node = json_object_get_member (settings, "search");
  if (node != NULL && json_node_get_value_type (node) != G_TYPE_STRING)
    {
      ws_pin_flame_clear (out);
      return invalid (error, _("a flame graph pin’s “search” must be a string"));
    }
  if (node != NULL && *json_node_get_string (node) != '\0')
    {
      g_autoptr(GRegex) regex = g_regex_new (json_node_get_string (node), 0, 0, NULL);
      if (regex == NULL)
        {
          ws_pin_flame_clear (out);
          return invalid (error, _("a flame graph pin’s “search” is not a regular expression"));
        }
      out->search = g_strdup (json_node_get_string (node));
    }
  node = json_object_get_member (settings, "icicle");
  if (node != NULL && json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      ws_pin_flame_clear (out);
      return invalid (error, _("a flame graph pin’s “icicle” must be true or false"));
    }
  out->icicle = node != NULL && json_node_get_boolean (node);
  if (ws_pin_get_n_traces (pin) < 1 || ws_pin_get_n_traces (pin) > 2)
    {
      ws_pin_flame_clear (out);
      return invalid (error, _("a flame graph pin names one trace, or two for a differential graph"));
    }
  return TRUE;
}

/**
 * ws_pin_get_flame:
 *
 * Returns: %FALSE with @error naming the setting that cannot be read
 */
gboolean
ws_pin_get_flame (WsPin       *pin,
                  WsPinFlame  *out,
                  GError     **error)
{
  g_return_val_if_fail (WS_IS_PIN (pin), FALSE);
  return read_flame (pin, out, error);
}

/* For the session reader: whether a flame pin could be reopened. */
gboolean
ws_pin_flame_check (WsPin   *pin,
                    GError **error)
{
  WsPinFlame flame;

  if (!read_flame (pin, &flame, error))
    return FALSE;
  ws_pin_flame_clear (&flame);
  return TRUE;
}

void
ws_pin_flame_clear (WsPinFlame *flame)
{
  g_clear_pointer (&flame->zoom, g_strfreev);
  g_clear_pointer (&flame->search, g_free);
}

/**
 * ws_pin_flame_settings:
 * @trace: the pin's first trace
 * @thread: storage for the one thread of the thread scope (@settings
 *   points at it)
 *
 * The settings ws_flame_run() folds @trace with, as the page did.
 */
gboolean
ws_pin_flame_settings (WsPin             *pin,
                       const WsPinFlame  *flame,
                       WsTrace           *trace,
                       WsFlameSettings   *settings,
                       guint             *thread,
                       GError           **error)
{
  ws_flame_settings_init (settings);
  settings->mode = flame->mode;
  if (flame->scope == WS_FLAME_SCOPE_TRACE)
    return TRUE;
  settings->has_window = ws_pin_get_window (pin, &settings->window_start, &settings->window_end);
  if (flame->scope == WS_FLAME_SCOPE_THREAD)
    {
      *thread = ws_trace_find_thread (trace, ws_pin_get_tid (pin));
      if (*thread == WS_NONE)
        {
          g_set_error (error, WS_ERROR, WS_ERROR_INVALID, _("the trace has no thread with tid %d"), ws_pin_get_tid (pin));
          return FALSE;
        }
      settings->threads = thread;
      settings->n_threads = 1;
    }
  return TRUE;
}

/* Returns: (transfer full): @node's frames from the root's child down
 * (empty for the root). */
char **
ws_flame_tree_dup_path (WsFlameTree *tree,
                        guint        node)
{
  const WsFlameNode *n = ws_flame_tree_get_node (tree, node);
  char **path = g_new0 (char *, n->depth + 1);

  for (guint d = n->depth; d > 0; d--)
    {
      path[d - 1] = g_strdup (n->name);
      n = ws_flame_tree_get_node (tree, n->parent);
    }
  return path;
}

/* The node at @zoom's path, the root for none; %G_MAXUINT if the graph
 * has no such frame (the traces changed). */
guint
ws_flame_tree_find_zoom (WsFlameTree *tree,
                         char * const *zoom)
{
  if (zoom == NULL)
    return WS_FLAME_ROOT;
  return ws_flame_tree_find_path (tree, (const char * const *) zoom, g_strv_length ((char **) zoom));
}
