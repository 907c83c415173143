/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The digest file: gzip-compressed JSON, one document (docs/digest.md).
 * Written in the canonical order (ws_digest_sort()), so that equal digests
 * are equal files byte for byte.  Read with every index and number
 * checked: a bad file is refused with its name and the place in it, never
 * half-loaded.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-stack-counts.h"

#define FORMAT_NAME "waitscope-digest"

/* No digest holds more: a gzip bomb is refused, not inflated. */
#define MAX_INFLATED ((gsize) 1 << 30)

/* ------------------------------------------------------------------ */
/* Writing                                                              */

/* The document is written as text, not built as a tree: a merged digest
 * of thousands of traces holds millions of numbers, and a JsonNode each
 * would cost ten times the text. */

static void
put_string (GString    *out,
            const char *value)
{
  g_autoptr(JsonNode) node = json_node_init_string (json_node_alloc (), value);
  g_autofree char *text = json_to_string (node, FALSE);

  g_string_append (out, text);
}

static void
put_int (GString *out,
         gint64   value)
{
  char buf[24];

  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, value);
  g_string_append (out, buf);
}

/* ,"name": */
static void
put_member (GString    *out,
            const char *name)
{
  g_string_append_printf (out, ",\"%s\":", name);
}

static void
put_int_member (GString    *out,
                const char *name,
                gint64      value)
{
  put_member (out, name);
  put_int (out, value);
}

static void
put_string_member (GString    *out,
                   const char *name,
                   const char *value)
{
  put_member (out, name);
  put_string (out, value);
}

static void
put_strings (GString   *out,
             GPtrArray *strings)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < strings->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      put_string (out, g_ptr_array_index (strings, i));
    }
  g_string_append_c (out, ']');
}

/* "program" and "instances": what contrast needs (ws-digest-instances.c). */
static void
put_instances (GString             *out,
               const WsDigestTrace *t)
{
  put_member (out, "program");
  if (t->program != NULL)
    put_string (out, t->program);
  else
    g_string_append (out, "null");
  put_member (out, "span_programs");
  put_strings (out, t->span_programs);
  put_member (out, "programs");
  put_strings (out, t->programs);
  put_member (out, "instances");
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->instances->len; i++)
    {
      const WsDigestInstance *inst = g_ptr_array_index (t->instances, i);
      const WsAwgInput *g = inst->graph;

      g_string_append (out, i > 0 ? ",{\"scenario\":" : "{\"scenario\":");
      if (inst->scenario != NULL)
        put_string (out, inst->scenario);
      else
        g_string_append (out, "null");
      put_string_member (out, "program", inst->program);
      put_int_member (out, "duration", inst->duration);
      put_member (out, "nodes");
      g_string_append_c (out, '[');
      for (guint k = 0; k < g->n_nodes; k++)
        {
          const WsAwgInputNode *v = &g->nodes[k];

          g_string_append_printf (out, "%s%u,%u,%u,%u,", k > 0 ? "," : "", v->kind, v->flags, v->stack, v->unwait_stack);
          put_int (out, v->duration);
        }
      g_string_append_c (out, ']');
      put_member (out, "degrees");
      g_string_append_c (out, '[');
      for (guint k = 0; k < g->n_nodes; k++)
        g_string_append_printf (out, "%s%u", k > 0 ? "," : "", g->first_edge[k + 1] - g->first_edge[k]);
      g_string_append_c (out, ']');
      put_member (out, "targets");
      g_string_append_c (out, '[');
      for (guint e = 0; e < g->n_edges; e++)
        g_string_append_printf (out, "%s%u", e > 0 ? "," : "", g->edge_to[e]);
      g_string_append (out, "]}");
    }
  g_string_append_c (out, ']');
}

static void
put_trace (GString             *out,
           const WsDigestTrace *t)
{
  g_string_append (out, "{\"path\":");
  put_string (out, t->path);
  put_string_member (out, "name", t->name);
  put_string_member (out, "content_hash", t->content_hash);
  put_int_member (out, "events", t->n_events);
  put_int_member (out, "waits", t->n_waits);
  put_int_member (out, "samples", t->n_samples);
  put_int_member (out, "start", t->start);
  put_int_member (out, "end", t->end);
  put_member (out, "threads");
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->threads->len; i++)
    {
      const WsDigestThread *th = &g_array_index (t->threads, WsDigestThread, i);

      g_string_append_printf (out, "%s[%d,%d,", i > 0 ? "," : "", th->tid, th->pid);
      put_string (out, th->name);
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
  put_member (out, "left_out");
  g_string_append_c (out, '[');
  put_int (out, t->n_left_out);
  g_string_append_c (out, ',');
  put_int (out, t->left_out_time);
  g_string_append_c (out, ']');
  for (guint a = 0; a < WS_DIGEST_N_AREAS; a++)
    {
      put_member (out, ws_digest_area_to_string (a));
      g_string_append_c (out, '[');
      for (guint i = 0; i < t->areas[a]->len; i++)
        {
          const WsDigestEntry *e = &g_array_index (t->areas[a], WsDigestEntry, i);

          g_string_append_printf (out, "%s%u,%u,", i > 0 ? "," : "", e->stack, e->n_events);
          put_int (out, e->cost);
          g_string_append_c (out, ',');
          put_int (out, e->max_cost);
        }
      g_string_append_c (out, ']');
    }
  put_member (out, "counts");
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->counts->len; i++)
    {
      const WsStackCount *c = &g_array_index (t->counts, WsStackCount, i);

      g_string_append_printf (out, "%s%u,", i > 0 ? "," : "", c->stack);
      put_int (out, c->count);
    }
  g_string_append_c (out, ']');
  put_member (out, "wait_samples");
  g_string_append (out, "{\"depth\":");
  put_int (out, t->waits->depth);
  put_member (out, "keys");
  put_strings (out, t->waits->keys);
  put_member (out, "pools");
  put_strings (out, t->waits->pools);
  put_member (out, "samples");
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->waits->samples->len; i++)
    {
      const WsWaitSample *w = &g_array_index (t->waits->samples, WsWaitSample, i);

      g_string_append_printf (out, "%s%u,", i > 0 ? "," : "", w->signature);
      put_int (out, w->duration);
    }
  g_string_append (out, "]}");
  if (t->has_instances)
    put_instances (out, t);
  g_string_append_c (out, '}');
}

static char *
to_json (WsDigest *self,
         gsize    *length)
{
  WsStackTable *table = ws_digest_get_stack_table (self);
  GString *out = g_string_sized_new (1 << 16);

  g_string_append (out, "{\"format\":\"" FORMAT_NAME "\"");
  put_int_member (out, "version", WS_DIGEST_FORMAT_VERSION);
  put_member (out, "frames");
  g_string_append_c (out, '[');
  for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
    {
      const WsFrame *frame = ws_stack_table_get_frame (table, f);

      g_string_append (out, f > 0 ? ",[" : "[");
      put_string (out, frame->function);
      g_string_append_c (out, ',');
      put_string (out, frame->module);
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
  /* Stack s (s >= 1) is stacks[s - 1]; 0 is the empty stack, never used. */
  put_member (out, "stacks");
  g_string_append_c (out, '[');
  for (guint s = 1; s < ws_stack_table_get_n_stacks (table); s++)
    {
      guint n;
      const WsFrameId *frames = ws_stack_table_get_stack (table, s, &n);

      g_string_append (out, s > 1 ? ",[" : "[");
      for (guint k = 0; k < n; k++)
        g_string_append_printf (out, "%s%u", k > 0 ? "," : "", frames[k]);
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
  put_member (out, "traces");
  g_string_append_c (out, '[');
  for (guint i = 0; i < ws_digest_get_n_traces (self); i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      put_trace (out, ws_digest_get_trace (self, i));
    }
  g_string_append (out, "]}\n");
  *length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * ws_digest_to_bytes:
 *
 * Puts @self in its canonical order (ws_digest_sort()) and returns the
 * file's bytes: equal digests give equal bytes.
 *
 * Returns: (transfer full): the gzip-compressed document
 */
GBytes *
ws_digest_to_bytes (WsDigest *self)
{
  g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = g_converter_output_stream_new (memory, G_CONVERTER (zlib));
  g_autofree char *json = NULL;
  gsize length;

  g_return_val_if_fail (self != NULL, NULL);

  ws_digest_sort (self);
  json = to_json (self, &length);
  /* Writing to memory cannot fail. */
  g_output_stream_write_all (out, json, length, NULL, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/**
 * ws_digest_write:
 *
 * Writes @self (in its canonical order) to @path, atomically.
 */
gboolean
ws_digest_write (WsDigest    *self,
                 const char  *path,
                 GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);

  bytes = ws_digest_to_bytes (self);
  return g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), error);
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

typedef struct {
  const char *file;
  GError    **error;
  gboolean    failed;
} Reader;

static gboolean
fail (Reader     *r,
      const char *place,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Reader     *r,
      const char *place,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (r->failed)
    return FALSE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: a bad digest file: file, place in it (a JSON path), what is wrong */
  g_set_error (r->error, WS_ERROR, WS_ERROR_PARSE, _("%s: %s: %s"), r->file, place, message);
  r->failed = TRUE;
  return FALSE;
}

static JsonNode *
member (Reader     *r,
        JsonObject *object,
        const char *place,
        const char *name,
        JsonNodeType type)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;
  g_autofree char *where = g_strdup_printf ("%s.%s", place, name);

  if (node == NULL)
    return fail (r, where, "%s", _("missing")), NULL;
  if (JSON_NODE_TYPE (node) != type)
    return fail (r, where, "%s", _("wrong type")), NULL;
  return node;
}

/* An integer of [min, max] at @place; 0 after a failure. */
static gint64
int_value (Reader     *r,
           JsonNode   *node,
           const char *place,
           gint64      min,
           gint64      max)
{
  gint64 v;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (r, place, "%s", _("not an integer")), 0;
  v = json_node_get_int (node);
  if (v < min || v > max)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);
      return fail (r, place, _("%s is out of range"), text), 0;
    }
  return v;
}

static gint64
int_member (Reader     *r,
            JsonObject *object,
            const char *place,
            const char *name,
            gint64      min,
            gint64      max)
{
  g_autofree char *where = g_strdup_printf ("%s.%s", place, name);
  JsonNode *node = member (r, object, place, name, JSON_NODE_VALUE);

  return node ? int_value (r, node, where, min, max) : 0;
}

static char *
string_value (Reader     *r,
              JsonNode   *node,
              const char *place)
{
  const char *s;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (r, place, "%s", _("not a string")), NULL;
  s = json_node_get_string (node);
  if (!g_utf8_validate (s, -1, NULL))
    return fail (r, place, "%s", _("not UTF-8")), NULL;
  return g_strdup (s);
}

static char *
string_member (Reader     *r,
               JsonObject *object,
               const char *place,
               const char *name)
{
  g_autofree char *where = g_strdup_printf ("%s.%s", place, name);
  JsonNode *node = member (r, object, place, name, JSON_NODE_VALUE);

  return node ? string_value (r, node, where) : NULL;
}

static gboolean
read_frames (Reader       *r,
             JsonArray    *frames,
             WsStackTable *table)
{
  for (guint i = 0; i < json_array_get_length (frames) && !r->failed; i++)
    {
      g_autofree char *place = g_strdup_printf ("frames[%u]", i);
      JsonNode *node = json_array_get_element (frames, i);
      JsonArray *pair = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      g_autofree char *function = NULL, *module = NULL;

      if (pair == NULL || json_array_get_length (pair) != 2)
        return fail (r, place, "%s", _("not a [function, module] pair"));
      function = string_value (r, json_array_get_element (pair, 0), place);
      module = string_value (r, json_array_get_element (pair, 1), place);
      if (r->failed)
        return FALSE;
      if (ws_stack_table_intern_frame (table, function, module) != i)
        return fail (r, place, "%s", _("the same frame twice"));
    }
  return !r->failed;
}

static gboolean
read_stacks (Reader       *r,
             JsonArray    *stacks,
             WsStackTable *table)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (WsFrameId));
  guint n_frames = ws_stack_table_get_n_frames (table);

  for (guint i = 0; i < json_array_get_length (stacks) && !r->failed; i++)
    {
      g_autofree char *place = g_strdup_printf ("stacks[%u]", i);
      JsonNode *node = json_array_get_element (stacks, i);
      JsonArray *list = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

      if (list == NULL || json_array_get_length (list) == 0)
        return fail (r, place, "%s", _("not a non-empty list of frames"));
      g_array_set_size (frames, 0);
      for (guint k = 0; k < json_array_get_length (list) && !r->failed; k++)
        {
          g_autofree char *where = g_strdup_printf ("%s[%u]", place, k);
          WsFrameId f = int_value (r, json_array_get_element (list, k), where, 0, (gint64) n_frames - 1);

          g_array_append_val (frames, f);
        }
      if (!r->failed &&
          ws_stack_table_intern_stack (table, (const WsFrameId *) (gpointer) frames->data, frames->len) != i + 1)
        return fail (r, place, "%s", _("the same stack twice"));
    }
  return !r->failed;
}

/* A flat list of @width-tuples whose first element is a stack id. */
static JsonArray *
tuples (Reader     *r,
        JsonObject *object,
        const char *place,
        const char *name,
        guint       width)
{
  JsonNode *node = member (r, object, place, name, JSON_NODE_ARRAY);
  JsonArray *list = node ? json_node_get_array (node) : NULL;

  if (list != NULL && json_array_get_length (list) % width != 0)
    {
      g_autofree char *where = g_strdup_printf ("%s.%s", place, name);
      fail (r, where, _("not a list of %u-tuples"), width);
      return NULL;
    }
  return list;
}

static void
read_threads (Reader        *r,
              JsonObject    *object,
              const char    *place,
              WsDigestTrace *t)
{
  JsonNode *node = member (r, object, place, "threads", JSON_NODE_ARRAY);
  JsonArray *list = node ? json_node_get_array (node) : NULL;

  for (guint i = 0; list != NULL && i < json_array_get_length (list) && !r->failed; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s.threads[%u]", place, i);
      JsonNode *e = json_array_get_element (list, i);
      JsonArray *triple = JSON_NODE_HOLDS_ARRAY (e) ? json_node_get_array (e) : NULL;
      WsDigestThread th = { 0 };

      if (triple == NULL || json_array_get_length (triple) != 3)
        {
          fail (r, where, "%s", _("not a [tid, pid, name] triple"));
          return;
        }
      th.tid = int_value (r, json_array_get_element (triple, 0), where, G_MININT32, G_MAXINT32);
      th.pid = int_value (r, json_array_get_element (triple, 1), where, G_MININT32, G_MAXINT32);
      th.name = string_value (r, json_array_get_element (triple, 2), where);
      if (th.name != NULL)
        g_array_append_val (t->threads, th);
    }
}

static void
read_areas (Reader        *r,
            JsonObject    *object,
            const char    *place,
            guint          n_stacks,
            WsDigestTrace *t)
{
  for (guint a = 0; a < WS_DIGEST_N_AREAS && !r->failed; a++)
    {
      const char *name = ws_digest_area_to_string (a);
      JsonArray *list = tuples (r, object, place, name, 4);

      for (guint i = 0; list != NULL && i < json_array_get_length (list) && !r->failed; i += 4)
        {
          g_autofree char *where = g_strdup_printf ("%s.%s[%u]", place, name, i);
          WsDigestEntry e;

          e.stack = int_value (r, json_array_get_element (list, i), where, 1, n_stacks);
          e.n_events = int_value (r, json_array_get_element (list, i + 1), where, 1, G_MAXUINT32);
          e.cost = int_value (r, json_array_get_element (list, i + 2), where, 0, G_MAXINT64);
          e.max_cost = int_value (r, json_array_get_element (list, i + 3), where, 0, e.cost);
          g_array_append_val (t->areas[a], e);
        }
    }
}

static void
read_strings (Reader     *r,
              JsonObject *object,
              const char *place,
              const char *name,
              GPtrArray  *out)
{
  JsonNode *node = member (r, object, place, name, JSON_NODE_ARRAY);
  JsonArray *list = node ? json_node_get_array (node) : NULL;

  for (guint i = 0; list != NULL && i < json_array_get_length (list) && !r->failed; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s.%s[%u]", place, name, i);
      char *s = string_value (r, json_array_get_element (list, i), where);

      if (s != NULL)
        g_ptr_array_add (out, s);
    }
}

static void
read_waits (Reader        *r,
            JsonObject    *object,
            const char    *trace_place,
            WsDigestTrace *t)
{
  g_autofree char *place = g_strdup_printf ("%s.wait_samples", trace_place);
  JsonNode *node = r->failed ? NULL : member (r, object, trace_place, "wait_samples", JSON_NODE_OBJECT);
  JsonObject *o = node ? json_node_get_object (node) : NULL;
  JsonArray *list;

  if (o == NULL)
    return;
  t->waits->depth = int_member (r, o, place, "depth", 0, G_MAXUINT32);
  read_strings (r, o, place, "keys", t->waits->keys);
  read_strings (r, o, place, "pools", t->waits->pools);
  if (!r->failed && t->waits->keys->len != t->waits->pools->len)
    fail (r, place, "%s", _("as many pools as keys are needed"));
  if ((list = tuples (r, o, place, "samples", 2)) != NULL)
    for (guint i = 0; i < json_array_get_length (list) && !r->failed; i += 2)
      {
        g_autofree char *where = g_strdup_printf ("%s.samples[%u]", place, i);
        WsWaitSample w;

        w.signature = int_value (r, json_array_get_element (list, i), where, 0, (gint64) t->waits->keys->len - 1);
        w.duration = int_value (r, json_array_get_element (list, i + 1), where, G_MININT64, G_MAXINT64);
        g_array_append_val (t->waits->samples, w);
      }
}

/* A list of integers of [min, max] at @place.@name, into @out (guint32). */
static void
read_u32s (Reader     *r,
           JsonObject *object,
           const char *place,
           const char *name,
           guint       width,
           GArray     *out)
{
  JsonArray *list = tuples (r, object, place, name, width);

  for (guint i = 0; list != NULL && i < json_array_get_length (list) && !r->failed; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s.%s[%u]", place, name, i);
      guint32 v = int_value (r, json_array_get_element (list, i), where, 0, G_MAXUINT32);

      g_array_append_val (out, v);
    }
}

static WsDigestInstance *
read_instance (Reader     *r,
               JsonNode   *node,
               const char *place,
               guint       n_stacks)
{
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) degrees = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *scenario = NULL, *program = NULL;
  g_autoptr(WsAwgInput) graph = NULL;
  JsonNode *s;
  WsTime duration;
  JsonArray *list;
  guint64 n_edges = 0;

  if (o == NULL)
    return fail (r, place, "%s", _("not an object")), NULL;
  s = json_object_get_member (o, "scenario");
  if (s == NULL || !JSON_NODE_HOLDS_NULL (s))
    scenario = string_member (r, o, place, "scenario");
  program = string_member (r, o, place, "program");
  duration = int_member (r, o, place, "duration", 0, G_MAXINT64);
  /* Durations of nodes are read as 64-bit numbers, the rest as 32-bit. */
  if ((list = tuples (r, o, place, "nodes", 5)) == NULL || r->failed)
    return NULL;
  read_u32s (r, o, place, "degrees", 1, degrees);
  read_u32s (r, o, place, "targets", 1, targets);
  if (r->failed)
    return NULL;
  if (degrees->len != json_array_get_length (list) / 5)
    return fail (r, place, "%s", _("as many degrees as nodes are needed")), NULL;
  for (guint k = 0; k < degrees->len; k++)
    n_edges += g_array_index (degrees, guint32, k);
  if (n_edges != targets->len)
    return fail (r, place, "%s", _("the degrees do not add up to the targets")), NULL;
  graph = ws_awg_input_new (degrees->len, targets->len);
  for (guint k = 0; k < degrees->len && !r->failed; k++)
    {
      g_autofree char *where = g_strdup_printf ("%s.nodes[%u]", place, 5 * k);
      WsAwgInputNode *v = &graph->nodes[k];

      v->kind = int_value (r, json_array_get_element (list, 5 * k), where, 0, WS_WAIT_NODE_UNKNOWN_READIER);
      v->flags = int_value (r, json_array_get_element (list, 5 * k + 1), where, 0, 15);
      v->stack = int_value (r, json_array_get_element (list, 5 * k + 2), where, 0, n_stacks);
      v->unwait_stack = int_value (r, json_array_get_element (list, 5 * k + 3), where, 0, n_stacks);
      v->duration = int_value (r, json_array_get_element (list, 5 * k + 4), where, 0, G_MAXINT64);
      graph->first_edge[k + 1] = graph->first_edge[k] + g_array_index (degrees, guint32, k);
    }
  /* An empty GArray has no data: memcpy must not see its NULL. */
  if (targets->len > 0)
    memcpy (graph->edge_to, targets->data, sizeof (guint32) * targets->len);
  if (!r->failed && !ws_awg_input_is_valid (graph, n_stacks + 1))
    return fail (r, place, "%s", _("an edge points outside the graph")), NULL;
  if (r->failed)
    return NULL;
  return ws_digest_instance_new (scenario, program, duration, g_steal_pointer (&graph));
}

/* Optional: a digest written before contrast read digests has neither. */
static void
read_instances (Reader        *r,
                JsonObject    *object,
                const char    *place,
                guint          n_stacks,
                WsDigestTrace *t)
{
  JsonNode *program = json_object_get_member (object, "program");
  JsonNode *node;
  JsonArray *list;

  if (r->failed || !json_object_has_member (object, "instances"))
    return;
  t->has_instances = TRUE;
  if (program != NULL && !JSON_NODE_HOLDS_NULL (program))
    t->program = string_member (r, object, place, "program");
  read_strings (r, object, place, "span_programs", t->span_programs);
  read_strings (r, object, place, "programs", t->programs);
  if ((node = member (r, object, place, "instances", JSON_NODE_ARRAY)) == NULL)
    return;
  list = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (list) && !r->failed; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s.instances[%u]", place, i);
      WsDigestInstance *inst = read_instance (r, json_array_get_element (list, i), where, n_stacks);

      if (inst != NULL)
        g_ptr_array_add (t->instances, inst);
    }
}

static WsDigestTrace *
read_trace (Reader    *r,
            JsonNode  *node,
            guint      index,
            guint      n_stacks)
{
  g_autofree char *place = g_strdup_printf ("traces[%u]", index);
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  WsDigestTrace *t;
  JsonArray *list;

  if (o == NULL)
    return fail (r, place, "%s", _("not an object")), NULL;
  t = ws_digest_trace_new ();
  t->path = string_member (r, o, place, "path");
  t->name = string_member (r, o, place, "name");
  t->content_hash = string_member (r, o, place, "content_hash");
  t->n_events = int_member (r, o, place, "events", 0, G_MAXINT64);
  t->n_waits = int_member (r, o, place, "waits", 0, t->n_events);
  t->n_samples = int_member (r, o, place, "samples", 0, t->n_events);
  t->start = int_member (r, o, place, "start", G_MININT64, G_MAXINT64);
  t->end = int_member (r, o, place, "end", G_MININT64, G_MAXINT64);
  read_threads (r, o, place, t);
  if ((list = tuples (r, o, place, "left_out", 2)) != NULL && json_array_get_length (list) == 2)
    {
      g_autofree char *where = g_strdup_printf ("%s.left_out", place);

      t->n_left_out = int_value (r, json_array_get_element (list, 0), where, 0, t->n_waits);
      t->left_out_time = int_value (r, json_array_get_element (list, 1), where, G_MININT64, G_MAXINT64);
    }
  else if (list != NULL)
    fail (r, place, "%s", _("left_out is not a [waits, time] pair"));
  read_areas (r, o, place, n_stacks, t);
  if ((list = tuples (r, o, place, "counts", 2)) != NULL)
    for (guint i = 0; i < json_array_get_length (list) && !r->failed; i += 2)
      {
        g_autofree char *where = g_strdup_printf ("%s.counts[%u]", place, i);
        WsStackCount c;

        c.stack = int_value (r, json_array_get_element (list, i), where, 1, n_stacks);
        c.count = int_value (r, json_array_get_element (list, i + 1), where, 1, G_MAXINT64);
        g_array_append_val (t->counts, c);
      }
  read_waits (r, o, place, t);
  read_instances (r, o, place, n_stacks, t);
  if (r->failed)
    {
      ws_digest_trace_free (t);
      return NULL;
    }
  return t;
}

static GBytes *
inflate (Reader  *r,
         GBytes  *bytes)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr(GZlibDecompressor) zlib = NULL;
  g_autoptr(GInputStream) memory = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) local = NULL;
  guint8 buf[65536];
  gssize n;

  if (size < 2 || data[0] != 0x1f || data[1] != 0x8b)
    return g_bytes_ref (bytes);
  zlib = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  memory = g_memory_input_stream_new_from_bytes (bytes);
  in = g_converter_input_stream_new (memory, G_CONVERTER (zlib));
  while ((n = g_input_stream_read (in, buf, sizeof buf, NULL, &local)) > 0)
    {
      if (out->len + n > MAX_INFLATED)
        return fail (r, "gzip", "%s", _("inflates to more than 1 GiB")), NULL;
      g_byte_array_append (out, buf, n);
    }
  if (n < 0)
    return fail (r, "gzip", "%s", local->message), NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static WsDigest *
parse (Reader *r,
       GBytes *bytes)
{
  g_autoptr(GBytes) text = inflate (r, bytes);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(WsDigest) digest = ws_digest_new ();
  g_autoptr(GError) local = NULL;
  JsonObject *root;
  JsonNode *node;
  gint64 version;

  if (text == NULL)
    return NULL;
  /* An empty file (or gzip of nothing) has no data pointer to parse. */
  if (g_bytes_get_size (text) == 0)
    return fail (r, "/", "%s", _("not a Waitscope digest")), NULL;
  if (!json_parser_load_from_data (parser, g_bytes_get_data (text, NULL), g_bytes_get_size (text), &local))
    return fail (r, "JSON", "%s", local->message), NULL;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, "/", "%s", _("not a Waitscope digest")), NULL;
  root = json_node_get_object (node);
  node = json_object_get_member (root, "format");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      !g_str_equal (json_node_get_string (node), FORMAT_NAME))
    return fail (r, ".format", "%s", _("not a Waitscope digest")), NULL;
  version = int_member (r, root, "", "version", G_MININT64, G_MAXINT64);
  if (!r->failed && version != WS_DIGEST_FORMAT_VERSION)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, version);
      return fail (r, ".version", _("version %s is not supported (this build reads version %d)"),
                   text, WS_DIGEST_FORMAT_VERSION), NULL;
    }
  if (r->failed)
    return NULL;
  if ((node = member (r, root, "", "frames", JSON_NODE_ARRAY)) == NULL ||
      !read_frames (r, json_node_get_array (node), ws_digest_get_stack_table (digest)) ||
      (node = member (r, root, "", "stacks", JSON_NODE_ARRAY)) == NULL ||
      !read_stacks (r, json_node_get_array (node), ws_digest_get_stack_table (digest)) ||
      (node = member (r, root, "", "traces", JSON_NODE_ARRAY)) == NULL)
    return NULL;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      WsDigestTrace *t = read_trace (r, json_array_get_element (json_node_get_array (node), i), i,
                                     ws_stack_table_get_n_stacks (ws_digest_get_stack_table (digest)) - 1);
      if (t == NULL)
        return NULL;
      ws_digest_add_trace_take (digest, t);
    }
  return g_steal_pointer (&digest);
}

/**
 * ws_digest_read_bytes:
 * @name: the file's name, for errors
 *
 * Returns: (transfer full): the digest, or %NULL with a %WS_ERROR_PARSE
 *   error naming @name and the place in it
 */
WsDigest *
ws_digest_read_bytes (GBytes      *bytes,
                      const char  *name,
                      GError     **error)
{
  Reader r = { name, error, FALSE };

  g_return_val_if_fail (bytes != NULL, NULL);
  return parse (&r, bytes);
}

WsDigest *
ws_digest_read (const char  *path,
                GError     **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if ((file = g_mapped_file_new (path, FALSE, error)) == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (file);
  return ws_digest_read_bytes (bytes, path, error);
}

/**
 * ws_digest_file_sniff:
 *
 * Returns: whether @path names a digest file (by its name: `.wsdigest`)
 */
gboolean
ws_digest_file_sniff (const char *path)
{
  return path != NULL && g_str_has_suffix (path, ".wsdigest");
}
