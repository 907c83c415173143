/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Streaming JSON (ws-json-stream.h) in json-glib's pretty layout, indent
 * 2, which is:
 *
 *     {                         an object: '{', then per member a newline,
 *       "name" : value,         the indent of the level inside, the name,
 *       "empty" : {    },       " : " and the value, ',' between; then a
 *       "list" : [              newline, its own indent and '}'.  Empty:
 *         1                     '{', its level's indent, '}' ("{}" at the
 *       ],                      top).  Arrays alike, but an empty one is
 *       "none" : []             "[]" at any level.
 *     }
 *
 * An element is written by json-glib itself, inside as many one-element
 * arrays as it is deep, which are then cut away: so its inner indents and
 * empty objects come out as in the whole tree.  The text is made UTF-8
 * piece by piece as ws_json_text_from_node() does on the whole: pieces end
 * at ASCII syntax, so the substitution is the same.
 */
#include "config.h"

#include <string.h>

#include "ws-json-stream.h"

typedef struct {
  gboolean is_object;
  guint    n;   /* members or elements written */
} Level;

struct _WsJsonStream
{
  FILE   *out;
  GArray *levels;   /* Level, outermost first */
  gboolean named;   /* a member name was written, its value is next */
};

WsJsonStream *
ws_json_stream_new (FILE *out)
{
  WsJsonStream *self = g_new0 (WsJsonStream, 1);

  self->out = out;
  self->levels = g_array_new (FALSE, FALSE, sizeof (Level));
  return self;
}

static void
put_valid (WsJsonStream *self,
           const char   *text,
           gsize         len)
{
  if (g_utf8_validate_len (text, len, NULL))
    fwrite (text, 1, len, self->out);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, len);

      fputs (valid, self->out);
    }
}

static void
put_indent (WsJsonStream *self,
            guint         level)
{
  for (guint i = 0; i < level; i++)
    fputs ("  ", self->out);
}

static Level *
top (WsJsonStream *self)
{
  return self->levels->len > 0 ? &g_array_index (self->levels, Level, self->levels->len - 1) : NULL;
}

/* Before a value: in an array, the separator, newline and indent; in an
 * object, the member name did that. */
static void
begin_value (WsJsonStream *self)
{
  Level *l = top (self);

  if (l == NULL)
    return;
  if (l->is_object)
    {
      g_return_if_fail (self->named);
      self->named = FALSE;
    }
  else
    {
      if (l->n > 0)
        fputc (',', self->out);
      fputc ('\n', self->out);
      put_indent (self, self->levels->len);
    }
  l->n++;
}

static char *
generate (JsonNode *node,
          gsize    *len)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  return json_generator_to_data (gen, len);
}

void
ws_json_stream_add_node (WsJsonStream *self,
                         JsonNode     *node)
{
  guint depth = self->levels->len;
  JsonNode *wrapped = json_node_copy (node);
  g_autofree char *text = NULL;
  const char *start, *end;
  gsize len;

  begin_value (self);
  for (guint d = 0; d < depth; d++)
    {
      JsonArray *array = json_array_new ();

      json_array_add_element (array, wrapped);
      wrapped = json_node_init_array (json_node_alloc (), array);
      json_array_unref (array);
    }
  text = generate (wrapped, &len);
  json_node_unref (wrapped);

  /* Cut the wrappers: @depth lines "[" before, and as many "]" after;
   * the value's own first line starts after its indent. */
  start = text;
  end = text + len;
  for (guint d = 0; d < depth; d++)
    {
      start = strchr (start, '\n') + 1;
      while (end > start && *--end != '\n')
        ;
    }
  start += 2 * depth;
  put_valid (self, start, end - start);
}

void
ws_json_stream_add_builder (WsJsonStream *self,
                            JsonBuilder  *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  ws_json_stream_add_node (self, root);
  json_builder_reset (builder);
}

void
ws_json_stream_set_member_name (WsJsonStream *self,
                                const char   *name)
{
  Level *l = top (self);
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), name);
  g_autofree char *quoted = NULL;
  gsize len;

  g_return_if_fail (l != NULL && l->is_object && !self->named);

  if (l->n > 0)
    fputc (',', self->out);
  fputc ('\n', self->out);
  put_indent (self, self->levels->len);
  /* json-glib escapes names as it does strings. */
  quoted = generate (node, &len);
  put_valid (self, quoted, len);
  fputs (" : ", self->out);
  self->named = TRUE;
}

static void
begin_container (WsJsonStream *self,
                 gboolean      is_object)
{
  Level l = { is_object, 0 };

  begin_value (self);
  fputc (is_object ? '{' : '[', self->out);
  g_array_append_val (self->levels, l);
}

static void
end_container (WsJsonStream *self,
               gboolean      is_object)
{
  Level *l = top (self);
  guint n, level;

  g_return_if_fail (l != NULL && l->is_object == is_object);
  n = l->n;
  g_array_set_size (self->levels, self->levels->len - 1);
  level = self->levels->len;
  if (n == 0)
    {
      if (is_object)
        put_indent (self, level);
    }
  else
    {
      fputc ('\n', self->out);
      put_indent (self, level);
    }
  fputc (is_object ? '}' : ']', self->out);
}

void
ws_json_stream_begin_object (WsJsonStream *self)
{
  begin_container (self, TRUE);
}

void
ws_json_stream_end_object (WsJsonStream *self)
{
  end_container (self, TRUE);
}

void
ws_json_stream_begin_array (WsJsonStream *self)
{
  begin_container (self, FALSE);
}

void
ws_json_stream_end_array (WsJsonStream *self)
{
  end_container (self, FALSE);
}

void
ws_json_stream_add_string (WsJsonStream *self,
                           const char   *value)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), value);

  ws_json_stream_add_node (self, node);
}

void
ws_json_stream_add_int (WsJsonStream *self,
                        gint64        value)
{
  g_autoptr(JsonNode) node = json_node_init_int (json_node_alloc (), value);

  ws_json_stream_add_node (self, node);
}

void
ws_json_stream_add_double (WsJsonStream *self,
                           double        value)
{
  g_autoptr(JsonNode) node = json_node_init_double (json_node_alloc (), value);

  ws_json_stream_add_node (self, node);
}

void
ws_json_stream_add_boolean (WsJsonStream *self,
                            gboolean      value)
{
  g_autoptr(JsonNode) node = json_node_init_boolean (json_node_alloc (), value);

  ws_json_stream_add_node (self, node);
}

void
ws_json_stream_add_null (WsJsonStream *self)
{
  g_autoptr(JsonNode) node = json_node_init_null (json_node_alloc ());

  ws_json_stream_add_node (self, node);
}

/**
 * ws_json_stream_finish:
 *
 * Ends the text with a newline, as ws_json_text_from_node() does, and
 * frees @self.
 *
 * Returns: whether every byte was written
 */
gboolean
ws_json_stream_finish (WsJsonStream *self)
{
  gboolean ok;

  g_warn_if_fail (self->levels->len == 0);
  fputc ('\n', self->out);
  ok = fflush (self->out) == 0 && !ferror (self->out);
  g_array_unref (self->levels);
  g_free (self);
  return ok;
}
