/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The importer registry and the folded-stacks importer: every format is
 * found by its sniffer alone, a file no importer claims is refused with a
 * message listing them all, and folded stacks load as sampled running
 * events whose cost is the line's count.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "ws-error.h"
#include "ws-folded-importer.h"
#include "ws-importer.h"
#include "ws-importer-open.h"
#include "ws-trace-loader.h"

static char *
write_temp (const char *name,
            const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-importers-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_registry (void)
{
  guint n = 0;
  const WsImporter * const *all = ws_importers_get (&n);
  g_autofree char *described = ws_importers_describe ();

  g_assert_cmpuint (n, >=, 3);
  for (guint i = 0; i < n; i++)
    {
      g_assert_nonnull (all[i]->sniff);
      g_assert_nonnull (all[i]->load_file);
      g_assert_nonnull (all[i]->load_stream);
      g_assert_nonnull (all[i]->patterns[0]);
      g_assert_true (ws_importers_lookup (all[i]->id) == all[i]);
      g_assert_nonnull (strstr (described, all[i]->name));
      for (guint k = 0; k < i; k++)
        g_assert_cmpstr (all[i]->id, !=, all[k]->id);
    }
  g_assert_null (ws_importers_lookup ("no-such-format"));
}

static void
test_sniff (void)
{
  const char *perf = "dd 29776 [000] 666709.771979:   10101010 cpu-clock: \n\t  414b3b fsnotify (/vmlinux)\n\n";
  const char *json = "{\"format\": \"waitscope-trace\"}";
  const char *folded = "java;start_thread;run 12\njava;read 3\n";

  g_assert_true (ws_importers_sniff ((const guint8 *) perf, strlen (perf)) == &ws_perf_importer);
  g_assert_true (ws_importers_sniff ((const guint8 *) json, strlen (json)) == &ws_json_importer);
  g_assert_true (ws_importers_sniff ((const guint8 *) folded, strlen (folded)) == &ws_folded_importer);
  /* trace-cmd: the binary magic, any version after it; not a near miss. */
  g_assert_true (ws_importers_sniff ((const guint8 *) "\027\010Dtracing6\0", 12) == &ws_tracecmd_importer);
  g_assert_true (ws_importers_sniff ((const guint8 *) "\027\010Dtracing7\0", 12) == &ws_tracecmd_importer);
  g_assert_null (ws_importers_sniff ((const guint8 *) "\027\010Dtracin", 9));
  g_assert_null (ws_importers_sniff ((const guint8 *) "\027\010Etracing6\0", 12));
  /* Prose with a number at the end is not folded stacks. */
  g_assert_null (ws_importers_sniff ((const guint8 *) "hello world 12\n", 15));
  g_assert_null (ws_importers_sniff ((const guint8 *) "a;b 12\n\tfoo\n", 12));
}

static void
test_unknown (void)
{
  g_autofree char *path = write_temp ("notes.txt", "just some notes\nnothing else\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, ":1: "));
  g_assert_nonnull (strstr (error->message, "folded stacks"));
  g_assert_nonnull (strstr (error->message, "perf"));
}

static void
test_folded_load (void)
{
  g_autofree char *path = write_temp ("x.folded",
                                      "java-100/101;start_thread;run;read 12\n"
                                      "java-100/101;start_thread;run 3\n"
                                      "sh;main;wait4 5\n"
                                      "\n"
                                      "sh 2\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsStackTable *stacks;
  guint java, n;
  WsTime total = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_events (trace), ==, 4);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_RUNNING), ==, 4);
  g_assert_cmpuint (ws_trace_get_n_threads (trace), ==, 2);
  java = ws_trace_find_thread (trace, 101);
  g_assert_cmpuint (java, !=, WS_NONE);
  g_assert_cmpint (ws_trace_get_thread (trace, java)->pid, ==, 100);
  g_assert_cmpstr (ws_trace_get_thread (trace, java)->name, ==, "java");

  stacks = ws_trace_get_stack_table (trace);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      const WsFrameId *frames = ws_stack_table_get_stack (stacks, e->stack, &n);

      total += ws_event_duration (e);
      if (ws_event_duration (e) == 12)
        {
          /* Caller first, the process name taken off. */
          g_assert_cmpuint (n, ==, 3);
          g_assert_cmpstr (ws_stack_table_get_frame (stacks, frames[0])->function, ==, "start_thread");
          g_assert_cmpstr (ws_stack_table_get_frame (stacks, frames[2])->function, ==, "read");
        }
    }
  g_assert_cmpint (total, ==, 22);
}

static void
test_folded_bad_line (void)
{
  g_autofree char *path = write_temp ("bad.folded", "a;b 1\na;c 2\na;d\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *where = g_strdup_printf ("%s:3: ", path);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, where));
}

/* Every file importer opens through ws_importer_open_file(): a missing
 * file is the same I/O error naming it at line 1 whatever the format, and
 * a cancelled open says cancelled. */
static void
test_open_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-importers-XXXXXX", NULL);
  g_autofree char *gz = g_build_filename (dir, "a.gz", NULL);
  g_autofree char *plain = g_build_filename (dir, "a.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autofree char *prefix = g_strconcat (missing, ":1: ", NULL);
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  static const guint8 gzip_head[] = { 0x1f, 0x8b, 8, 0 };
  guint n_importers = 0;
  const WsImporter * const *importers = ws_importers_get (&n_importers);
  gboolean compressed = TRUE;

  g_assert_true (g_file_set_contents (gz, (const char *) gzip_head, sizeof gzip_head, NULL));
  g_assert_true (g_file_set_contents (plain, "{\n", -1, NULL));
  {
    g_autoptr(GFileInputStream) in = ws_importer_open_file (gz, &compressed, NULL, NULL);
    guint8 head[4];
    gsize n = 0;

    g_assert_nonnull (in);
    g_assert_true (compressed);
    /* back at the start: the importer reads the magic again */
    g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), head, 4, &n, NULL, NULL));
    g_assert_cmpmem (head, n, gzip_head, sizeof gzip_head);
  }
  {
    g_autoptr(GFileInputStream) in = ws_importer_open_file (plain, &compressed, NULL, NULL);
    g_assert_nonnull (in);
    g_assert_false (compressed);
  }
  for (guint i = 0; i < n_importers; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;

      if (g_strcmp0 (importers[i]->id, "json") != 0 && g_strcmp0 (importers[i]->id, "perfetto") != 0
          && g_strcmp0 (importers[i]->id, "trace-cmd") != 0 && g_strcmp0 (importers[i]->id, "folded") != 0)
        continue;
      trace = importers[i]->load_file (missing, NULL, NULL, NULL, NULL, &error);
      g_assert_null (trace);
      g_assert_error (error, WS_ERROR, WS_ERROR_IO);
      g_test_message ("%s: %s", importers[i]->id, error->message);
      g_assert_true (g_str_has_prefix (error->message, prefix));
    }
  {
    g_autoptr(GError) error = NULL;
    g_cancellable_cancel (cancelled);
    g_assert_null (ws_importer_open_file (plain, &compressed, cancelled, &error));
    g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
  }
  g_unlink (gz);
  g_unlink (plain);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/importers/registry", test_registry);
  g_test_add_func ("/importers/sniff", test_sniff);
  g_test_add_func ("/importers/unknown", test_unknown);
  g_test_add_func ("/importers/folded/load", test_folded_load);
  g_test_add_func ("/importers/folded/bad-line", test_folded_bad_line);
  g_test_add_func ("/importers/open-file", test_open_file);
  return g_test_run ();
}
