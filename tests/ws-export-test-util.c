/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include <glib/gstdio.h>

#include "ws-cli-test-util.h"
#include "ws-export-test-util.h"
#include "ws-json-text.h"
#include "ws-trace-loader.h"

WsTrace *
ws_export_test_load (const char *name)
{
  g_autofree char *path = ws_cli_test_data_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static char *
read_gzip (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) raw = g_file_read (file, NULL, &error);
  g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  in = g_converter_input_stream_new (G_INPUT_STREAM (raw), G_CONVERTER (gunzip));
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write (out, "", 1, NULL, &error);   /* the final NUL */
  g_output_stream_close (out, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

WsTrace *
ws_export_test_load_rewritten (const char *name,
                               const char *from,
                               const char *to)
{
  g_autofree char *seed = ws_cli_test_data_path (name);
  g_autofree char *text = read_gzip (seed);
  g_autoptr(GString) s = g_string_new (text);
  g_autofree char *dir = g_dir_make_tmp ("ws-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bad-\xff-names.perf.txt", NULL);
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  g_assert_cmpuint (g_string_replace (s, from, to, 0), >, 10);
  g_string_replace (s, "schedule", "sche\xc3" "dule", 0);
  g_file_set_contents (path, s->str, s->len, &error);
  g_assert_no_error (error);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return trace;
}

WsTrace *
ws_export_test_load_bad (void)
{
  return ws_export_test_load_rewritten ("py-locks.perf.txt.gz", "pylk-", "py\xff\xfe-");
}

JsonNode *
ws_export_test_parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_copy (root);
}

JsonNode *
ws_export_test_round_trip (JsonNode *node)
{
  g_autofree char *text = ws_json_text_from_node (node);

  return ws_export_test_parse (text);
}

char *
ws_export_test_capture (void   (*write) (FILE *out, gpointer data),
                        gpointer data)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);

  write (out, data);
  fclose (out);
  return text;
}

#define BEGIN_MARKER "sdt_postgresql:transaction__start"

static gboolean
is_end (const char *name)
{
  return g_strcmp0 (name, "sdt_postgresql:transaction__commit") == 0
      || g_strcmp0 (name, "sdt_postgresql:transaction__abort") == 0;
}

GPtrArray *
ws_export_test_recount_transactions (WsTrace *trace,
                                     GArray  *durations)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  guint n_threads = ws_trace_get_n_threads (trace);
  g_autofree gint64 *open = g_new (gint64, n_threads);
  const WsEvent *events = ws_trace_get_events (trace);

  for (guint t = 0; t < n_threads; t++)
    open[t] = -1;
  /* Events are in time order; per thread the last start is the open one. */
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = &events[i];
      const char *name;

      if (e->kind != WS_EVENT_MARKER)
        continue;
      name = ws_trace_get_string (trace, ws_event_name (e));
      if (is_end (name) && open[e->thread] >= 0)
        {
          WsTime d = e->time - open[e->thread];

          g_ptr_array_add (found, g_strdup_printf ("%d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                                   ws_trace_get_thread (trace, e->thread)->tid,
                                                   open[e->thread], e->time));
          g_array_append_val (durations, d);
          open[e->thread] = -1;
        }
      if (g_strcmp0 (name, BEGIN_MARKER) == 0)
        open[e->thread] = e->time;
    }
  return found;
}
