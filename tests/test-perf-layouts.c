/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf script layout corpus (tests/data/layouts, layouts.ini): every
 * layout loads, with one running event per sample header, and the samples
 * fold to exactly the lines stackcollapse-perf.pl wrote for the same file.
 */
#include <string.h>

#include "ws-collapse.h"
#include "ws-error.h"
#include "ws-trace-loader.h"

static char *
layout_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), "layouts", name, NULL);
}

static guint
count_samples (WsTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      n += e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN);
    }
  return n;
}

static void
check_folded (WsTrace    *trace,
              const char *folded)
{
  g_autofree char *path = layout_path (folded);
  g_autofree char *expected = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = NULL;
  WsCollapseOptions options;

  g_assert_true (g_file_get_contents (path, &expected, NULL, NULL));
  ws_collapse_options_init (&options);
  lines = ws_collapse_lines (trace, &options, NULL);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (got, "%s\n", (char *) g_ptr_array_index (lines, i));
  g_assert_cmpstr (got->str, ==, expected);
}

static void
test_corpus (void)
{
  g_autofree char *ini = layout_path ("layouts.ini");
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_auto(GStrv) groups = NULL;
  g_autoptr(GError) error = NULL;
  guint n_folded = 0;

  g_assert_true (g_key_file_load_from_file (kf, ini, G_KEY_FILE_NONE, &error));
  groups = g_key_file_get_groups (kf, NULL);
  g_assert_cmpuint (g_strv_length (groups), >=, 15);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *name = g_strconcat (groups[i], ".txt", NULL);
      g_autofree char *path = layout_path (name);
      g_autofree char *folded = g_key_file_get_string (kf, groups[i], "folded", NULL);
      guint samples = g_key_file_get_integer (kf, groups[i], "samples", NULL);
      g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

      g_test_message ("%s: %u samples", groups[i], samples);
      g_assert_no_error (error);
      g_assert_cmpuint (samples, >, 0);
      g_assert_cmpuint (count_samples (trace), ==, samples);
      if (folded != NULL)
        {
          check_folded (trace, folded);
          n_folded++;
        }
    }
  g_assert_cmpuint (n_folded, >=, 10);
}

/* Names that are hard to split keep their spaces, digits and parentheses. */
static void
test_hard_names (void)
{
  g_autofree char *path = layout_path ("old-layouts.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  WsStackTable *stacks;
  gboolean vector = FALSE, rust = FALSE;
  guint t;

  g_assert_no_error (error);
  t = ws_trace_find_thread (trace, 3305);
  g_assert_cmpstr (ws_trace_get_thread (trace, t)->name, ==, "Web Content 2");
  g_assert_cmpint (ws_trace_get_thread (trace, t)->pid, ==, 3301);
  t = ws_trace_find_thread (trace, 7702);
  g_assert_cmpstr (ws_trace_get_thread (trace, t)->name, ==, "1234 worker");
  t = ws_trace_find_thread (trace, 2118);
  g_assert_cmpstr (ws_trace_get_thread (trace, t)->name, ==, "C2 CompilerThre");

  stacks = ws_trace_get_stack_table (trace);
  for (guint f = 0; f < ws_stack_table_get_n_frames (stacks); f++)
    {
      const WsFrame *frame = ws_stack_table_get_frame (stacks, f);
      if (g_strcmp0 (frame->function, "std::vector<int, std::allocator<int> >::push_back(int const&)") == 0)
        vector = g_strcmp0 (frame->module, "/usr/lib/firefox/libxul.so") == 0;
      /* perf's "+0x24" offset is not part of the function. */
      if (g_strcmp0 (frame->function, "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop") == 0)
        rust = TRUE;
    }
  g_assert_true (vector);
  g_assert_true (rust);
  /* Raw PMU and modifier event names are samples, named. */
  g_assert_cmpuint (ws_trace_lookup_string (trace, "cpu/mem-loads,ldlat=30/P"), !=, WS_NONE);
  g_assert_cmpuint (ws_trace_lookup_string (trace, "r003c"), !=, WS_NONE);
}

/* Text that is not perf output is still refused, naming the line. */
static void
test_not_perf (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-layouts-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mixed.txt", NULL);
  g_autofree char *where = g_strdup_printf ("%s:5: ", path);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_assert_true (g_file_set_contents (path,
                                      "app 10/10 [000] 1.000001: 1 cycles:\n"
                                      "\t401136 compute (/bin/app)\n"
                                      "\n"
                                      "app 10/10 [000] 1.000002: 1 cycles:\n"
                                      "this line is not perf output\n", -1, NULL));
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, where));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/layouts/corpus", test_corpus);
  g_test_add_func ("/layouts/hard-names", test_hard_names);
  g_test_add_func ("/layouts/not-perf", test_not_perf);
  return g_test_run ();
}
