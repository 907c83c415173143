/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Writing the digest file: gzip-compressed JSON, one document
 * (docs/digest.md), in the canonical order (ws_digest_sort()), so that
 * equal digests are equal files byte for byte.  It is read as a stream by
 * ws-digest-read.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-digest.h"
#include "ws-error.h"
#include "ws-stack-counts.h"

#define FORMAT_NAME "waitscope-digest"

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

/* Digits by hand: printf was the writer's largest cost on a merge of
 * thousands of digests (millions of numbers). */
static void
put_int (GString *out,
         gint64   value)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = value < 0 ? -(guint64) value : (guint64) value;

  do
    *--p = '0' + u % 10;
  while ((u /= 10) != 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* @value, after a comma unless @first. */
static void
put_next (GString *out,
          gboolean first,
          gint64   value)
{
  if (!first)
    g_string_append_c (out, ',');
  put_int (out, value);
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
  /* Only when not the built-in rules: a digest made without --scenario is
   * the document it always was. */
  if (t->scenario_rules->len > 0)
    {
      put_member (out, "scenario_rules");
      put_strings (out, t->scenario_rules);
    }
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

          put_next (out, k == 0, v->kind);
          put_next (out, FALSE, v->flags);
          put_next (out, FALSE, v->stack);
          put_next (out, FALSE, v->unwait_stack);
          put_next (out, FALSE, v->duration);
        }
      g_string_append_c (out, ']');
      put_member (out, "degrees");
      g_string_append_c (out, '[');
      for (guint k = 0; k < g->n_nodes; k++)
        put_next (out, k == 0, g->first_edge[k + 1] - g->first_edge[k]);
      g_string_append_c (out, ']');
      put_member (out, "targets");
      g_string_append_c (out, '[');
      for (guint e = 0; e < g->n_edges; e++)
        put_next (out, e == 0, g->edge_to[e]);
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

          put_next (out, i == 0, e->stack);
          put_next (out, FALSE, e->n_events);
          put_next (out, FALSE, e->cost);
          put_next (out, FALSE, e->max_cost);
        }
      g_string_append_c (out, ']');
    }
  put_member (out, "counts");
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->counts->len; i++)
    {
      const WsStackCount *c = &g_array_index (t->counts, WsStackCount, i);

      put_next (out, i == 0, c->stack);
      put_next (out, FALSE, c->count);
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

      put_next (out, i == 0, w->signature);
      put_next (out, FALSE, w->duration);
    }
  g_string_append (out, "]}");
  /* A spans-only trace would read back as one with every instance. */
  if (t->has_instances && !t->spans_only)
    put_instances (out, t);
  g_string_append_c (out, '}');
}

/* The text goes out in pieces of about this size: a merged digest of
 * thousands of traces is never held whole, as text or compressed. */
#define FLUSH_AT (1 << 20)

static gboolean
flush (GString       *text,
       GOutputStream *out,
       gsize          at_least,
       GError       **error)
{
  gboolean ok = TRUE;

  if (text->len >= at_least && text->len > 0)
    {
      ok = g_output_stream_write_all (out, text->str, text->len, NULL, NULL, error);
      g_string_truncate (text, 0);
    }
  return ok;
}

/* The document, in the canonical order, onto @out (gzip'd there). */
static gboolean
write_document (WsDigest      *self,
                GOutputStream *out,
                GError       **error)
{
  g_autoptr(GString) text = g_string_sized_new (FLUSH_AT + (1 << 16));
  WsStackTable *table;

  ws_digest_sort (self);
  /* Sorting made a new table. */
  table = ws_digest_get_stack_table (self);
  g_string_append (text, "{\"format\":\"" FORMAT_NAME "\"");
  put_int_member (text, "version", WS_DIGEST_FORMAT_VERSION);
  put_member (text, "frames");
  g_string_append_c (text, '[');
  for (guint f = 0; f < ws_stack_table_get_n_frames (table); f++)
    {
      const WsFrame *frame = ws_stack_table_get_frame (table, f);

      g_string_append (text, f > 0 ? ",[" : "[");
      put_string (text, frame->function);
      g_string_append_c (text, ',');
      put_string (text, frame->module);
      g_string_append_c (text, ']');
      if (!flush (text, out, FLUSH_AT, error))
        return FALSE;
    }
  g_string_append_c (text, ']');
  /* Stack s (s >= 1) is stacks[s - 1]; 0 is the empty stack, never used. */
  put_member (text, "stacks");
  g_string_append_c (text, '[');
  for (guint s = 1; s < ws_stack_table_get_n_stacks (table); s++)
    {
      guint n;
      const WsFrameId *frames = ws_stack_table_get_stack (table, s, &n);

      g_string_append (text, s > 1 ? ",[" : "[");
      for (guint k = 0; k < n; k++)
        put_next (text, k == 0, frames[k]);
      g_string_append_c (text, ']');
      if (!flush (text, out, FLUSH_AT, error))
        return FALSE;
    }
  g_string_append_c (text, ']');
  put_member (text, "traces");
  g_string_append_c (text, '[');
  for (guint i = 0; i < ws_digest_get_n_traces (self); i++)
    {
      if (i > 0)
        g_string_append_c (text, ',');
      put_trace (text, ws_digest_get_trace (self, i));
      if (!flush (text, out, FLUSH_AT, error))
        return FALSE;
    }
  g_string_append (text, "]}\n");
  return flush (text, out, 0, error) && g_output_stream_close (out, NULL, error);
}

/* @out through gzip at @level, as the file is written. */
static GOutputStream *
gzipped (GOutputStream *out,
         int            level)
{
  g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, level);

  return g_converter_output_stream_new (out, G_CONVERTER (zlib));
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
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = gzipped (memory, WS_DIGEST_GZIP_LEVEL);

  g_return_val_if_fail (self != NULL, NULL);

  /* Writing to memory cannot fail. */
  write_document (self, out, NULL);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/**
 * ws_digest_write:
 *
 * ws_digest_write_level() at %WS_DIGEST_GZIP_LEVEL.
 */
gboolean
ws_digest_write (WsDigest    *self,
                 const char  *path,
                 GError     **error)
{
  return ws_digest_write_level (self, path, WS_DIGEST_GZIP_LEVEL, error);
}

/**
 * ws_digest_write_level:
 * @level: the gzip level, 1 (fastest) to 9 (smallest)
 *
 * Writes @self (in its canonical order) to @path as a stream, atomically:
 * into a temporary file beside it, renamed over @path once whole.  Any
 * level reads alike; only the size and the time to write differ.
 */
gboolean
ws_digest_write_level (WsDigest    *self,
                       const char  *path,
                       int          level,
                       GError     **error)
{
  g_autofree char *tmp = NULL;
  g_autoptr(GOutputStream) file = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) local = NULL;
  int fd;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  g_return_val_if_fail (level >= 1 && level <= 9, FALSE);

  tmp = g_strdup_printf ("%s.XXXXXX", path);
  if ((fd = g_mkstemp_full (tmp, O_WRONLY, 0644)) < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return FALSE;
    }
  file = g_unix_output_stream_new (fd, TRUE);
  out = gzipped (file, level);
  if (!write_document (self, out, &local) || g_rename (tmp, path) != 0)
    {
      int e = errno;
      g_unlink (tmp);
      if (local != NULL)
        g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
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
