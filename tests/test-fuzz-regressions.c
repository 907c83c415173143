/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every input the fuzzers ever broke the parsers with (tests/fuzz/
 * regressions/TARGET/) and the seed corpus (tests/fuzz/corpus/TARGET/),
 * replayed under the normal build through the same checks as the fuzz
 * targets (tests/fuzz/ws-fuzz-harness.c): a trace whose references hold
 * and that survives a JSON round trip, or a WS_ERROR saying "FILE:LINE: ".
 * Traces are also loaded from a file through the loader, as the CLI and
 * the GUI do, so the sniffing and dispatching see them too.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "ws-error.h"
#include "ws-trace-loader.h"

#include "ws-fuzz-harness.h"

typedef gboolean (*FuzzFunc) (const guint8 *data, gsize size);

static const struct {
  const char *target;
  const char *seeds;     /* its directory in corpus/ */
  FuzzFunc    func;
  gboolean    is_trace;
} targets[] = {
  { "perf-text", "perf-text", ws_fuzz_perf_text, TRUE },
  { "folded", "folded", ws_fuzz_folded, TRUE },
  { "tracecmd", "tracecmd", ws_fuzz_tracecmd, TRUE },
  { "perfetto", "perfetto", ws_fuzz_perfetto, TRUE },
#ifdef HAVE_BABELTRACE2
  { "ctf", "ctf", ws_fuzz_ctf, TRUE },
#endif
  { "json-trace", "json-trace", ws_fuzz_json_trace, TRUE },
  { "scenario-rules", "scenario-rules", ws_fuzz_scenario_rules, FALSE },
  { "classifier", "classifier", ws_fuzz_classifier, FALSE },
  { "analyses", "json-trace", ws_fuzz_analyses, TRUE },
  { "mining", "mining", ws_fuzz_mining, FALSE },
  { "session-file", "session-file", ws_fuzz_session_file, FALSE },
  { "history-store", "history-store", ws_fuzz_history_store, FALSE },
  { "gmm", "gmm", ws_fuzz_gmm, FALSE },
  { "digest", "digest", ws_fuzz_digest, FALSE },
};

typedef struct {
  char     *path;
  FuzzFunc  func;
  gboolean  is_trace;
} Case;

static char *tmp_dir;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c);
}

/* Through the loader, from a file named after the input: the message must
 * start with that name. */
static void
load_as_file (const char   *source,
              const guint8 *data,
              gsize         size)
{
  g_autofree char *base = g_path_get_basename (source);
  g_autofree char *path = g_build_filename (tmp_dir, base, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, size, NULL));
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  if (trace != NULL)
    {
      g_assert_no_error (error);
      ws_fuzz_check_trace (trace);
    }
  else
    {
      g_test_message ("loader: %s", error->message);
      ws_fuzz_check_error (error, path);
    }
  g_unlink (path);
}

static void
test_replay (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *contents = NULL;
  gsize size = 0;
  g_autoptr(GError) error = NULL;
  gboolean loaded;

  g_file_get_contents (c->path, &contents, &size, &error);
  g_assert_no_error (error);

  loaded = c->func ((const guint8 *) contents, size);
  g_test_message ("%s: %s", c->path, loaded ? "loaded" : "refused");

  if (c->is_trace)
    load_as_file (c->path, (const guint8 *) contents, size);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static guint
add_cases (const char *kind,
           GPtrArray  *keep)
{
  const char *data_dir = g_getenv ("WS_TEST_DATA");
  guint n = 0;

  g_assert_nonnull (data_dir);

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      const char *sub = g_str_equal (kind, "corpus") ? targets[t].seeds : targets[t].target;
      g_autofree char *dir_path = g_build_filename (data_dir, "..", "fuzz", kind, sub, NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (dir == NULL)
        continue;
      while ((name = g_dir_read_name (dir)) != NULL)
        if (name[0] != '.' && strcmp (name, "README.md") != 0)
          g_ptr_array_add (names, g_strdup (name));
      /* Test paths in a stable order, whatever the directory's. */
      g_ptr_array_sort (names, compare_names);

      for (guint i = 0; i < names->len; i++)
        {
          Case *c = g_new0 (Case, 1);
          g_autofree char *test_path = NULL;

          c->path = g_build_filename (dir_path, names->pdata[i], NULL);
          c->func = targets[t].func;
          c->is_trace = targets[t].is_trace;
          g_ptr_array_add (keep, c);
          test_path = g_strdup_printf ("/fuzz/%s/%s/%s", kind, targets[t].target,
                                       (const char *) names->pdata[i]);
          g_test_add_data_func (test_path, c, test_replay);
          n++;
        }
    }
  return n;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (case_free);
  int status;

  g_test_init (&argc, &argv, NULL);
  /* The CTF regression where libbabeltrace2 loops: stopped after 3 s of
   * no events, not the 30 a user gets. */
  g_setenv ("WAITSCOPE_CTF_STALL_TIMEOUT", "3", FALSE);

  tmp_dir = g_dir_make_tmp ("ws-fuzz-regressions-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  /* The seeds are real slices of tests/data; the regressions are what once
   * crashed or broke an invariant.  Both must be there. */
  g_assert_cmpuint (add_cases ("corpus", cases), >, 0);
  g_assert_cmpuint (add_cases ("regressions", cases), >, 0);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
