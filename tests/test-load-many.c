/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loading many traces on every core (ws_trace_loader_load_many()) gives
 * what loading them one after another into one stack table gives: the
 * same frames and stacks with the same ids, the same events, and, when
 * one fails, the error of the first that fails in the order given.  The
 * oracle is the sequential load itself, over random subsets and orders of
 * real traces of every format.  A folder opened as a fleet stands for its
 * files named as traces, sorted, hidden ones and sub-folders left out; a
 * CTF folder stands for itself (the expected lists written by hand).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-trace-loader.h"

static const char * const traces[] = {
  "pg-tpcb.perf.txt.gz", "py-locks.perf.txt.gz", "build.perf.txt.gz", "hand-built.json",
  "causes/pool-straggler.perf.txt.gz", "causes/epoll-idle.perf.txt.gz", "causes/oversub.perf.txt.gz",
  "causes/flock-hold.perf.txt.gz", "causes/rwlock-writer.perf.txt.gz", "layouts/cpu-default.folded",
  "layouts/cpu-tid.txt", "fleet/run-01.perf.txt.gz", "fleet/run-02.perf.txt.gz",
};

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("WS_TEST_DATA"), name, NULL);
}

static GPtrArray *
load_in_order (char **paths, WsStackTable *stacks, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsTrace *t = ws_trace_loader_load_full (paths[i], stacks, NULL, NULL, NULL, NULL, error);

      if (t == NULL)
        return NULL;
      g_ptr_array_add (out, t);
    }
  return g_steal_pointer (&out);
}

static void
assert_same_tables (WsStackTable *a,
                    WsStackTable *b)
{
  g_assert_cmpuint (ws_stack_table_get_n_frames (a), ==, ws_stack_table_get_n_frames (b));
  g_assert_cmpuint (ws_stack_table_get_n_stacks (a), ==, ws_stack_table_get_n_stacks (b));
  for (guint f = 0; f < ws_stack_table_get_n_frames (a); f++)
    {
      g_assert_cmpstr (ws_stack_table_get_frame (a, f)->function, ==, ws_stack_table_get_frame (b, f)->function);
      g_assert_cmpstr (ws_stack_table_get_frame (a, f)->module, ==, ws_stack_table_get_frame (b, f)->module);
    }
  for (guint s = 1; s < ws_stack_table_get_n_stacks (a); s++)
    {
      guint na, nb;
      const WsFrameId *fa = ws_stack_table_get_stack (a, s, &na), *fb = ws_stack_table_get_stack (b, s, &nb);

      g_assert_cmpmem (fa, na * sizeof (WsFrameId), fb, nb * sizeof (WsFrameId));
    }
}

/* Field by field: an event's padding bytes are whatever the stack held. */
static void
assert_same_event (const WsEvent *a,
                   const WsEvent *b)
{
  g_assert_cmpint (a->time, ==, b->time);
  g_assert_cmpint (ws_event_duration (a), ==, ws_event_duration (b));
  g_assert_cmpuint (a->thread, ==, b->thread);
  g_assert_cmpuint (a->stack, ==, b->stack);
  g_assert_cmpuint (a->peer, ==, b->peer);
  /* The word a wake-up keeps its target and its wait's latency in. */
  g_assert_cmpmem (&a->u, sizeof a->u, &b->u, sizeof b->u);
  g_assert_cmpuint (a->cpu, ==, b->cpu);
  g_assert_cmpuint (a->kind, ==, b->kind);
  g_assert_cmpuint (a->flags, ==, b->flags);
  g_assert_cmpint (a->state, ==, b->state);
}

static void
test_same_as_in_order (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261128);

  g_setenv ("WAITSCOPE_LOAD_THREADS", "3", TRUE);
  for (guint round = 0; round < 6; round++)
    {
      g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(WsStackTable) seq_stacks = ws_stack_table_new ();
      g_autoptr(WsStackTable) par_stacks = ws_stack_table_new ();
      g_autoptr(GPtrArray) seq = NULL;
      g_autoptr(GPtrArray) par = NULL;
      g_autoptr(GError) error = NULL;
      guint n = g_rand_int_range (rand, 2, G_N_ELEMENTS (traces) + 1);

      /* n traces, a random order, repeats allowed (a trace named twice
       * is loaded twice). */
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (paths, data_path (traces[g_rand_int_range (rand, 0, G_N_ELEMENTS (traces))]));
      g_ptr_array_add (paths, NULL);
      seq = load_in_order ((char **) paths->pdata, seq_stacks, &error);
      g_assert_no_error (error);
      par = ws_trace_loader_load_many ((char **) paths->pdata, par_stacks, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (seq->len, ==, par->len);
      assert_same_tables (seq_stacks, par_stacks);
      for (guint i = 0; i < seq->len; i++)
        {
          WsTrace *a = g_ptr_array_index (seq, i), *b = g_ptr_array_index (par, i);

          g_assert_true (ws_trace_get_stack_table (b) == par_stacks);
          g_assert_cmpuint (ws_trace_get_n_events (a), ==, ws_trace_get_n_events (b));
          for (guint e = 0; e < ws_trace_get_n_events (a); e++)
            assert_same_event (ws_trace_get_event (a, e), ws_trace_get_event (b, e));
          g_assert_cmpuint (ws_trace_get_n_scenario_instances (a), ==, ws_trace_get_n_scenario_instances (b));
        }
    }
}

/* Two bad files after a good one: the error is the first bad one's,
 * word for word what loading in order says. */
static void
test_first_error (void)
{
  g_autofree char *good = data_path ("causes/oversub.perf.txt.gz");
  g_autofree char *dir = g_dir_make_tmp ("ws-load-many-XXXXXX", NULL);
  g_autofree char *bad1 = g_build_filename (dir, "bad1.txt", NULL);
  g_autofree char *bad2 = g_build_filename (dir, "bad2.json", NULL);
  char *paths[] = { good, bad1, bad2, good, NULL };
  g_autoptr(WsStackTable) a = ws_stack_table_new ();
  g_autoptr(WsStackTable) b = ws_stack_table_new ();
  g_autoptr(GError) seq_error = NULL;
  g_autoptr(GError) par_error = NULL;

  g_setenv ("WAITSCOPE_LOAD_THREADS", "4", TRUE);
  g_assert_true (g_file_set_contents (bad1, "not a trace at all\n", -1, NULL));
  g_assert_true (g_file_set_contents (bad2, "{\"format\": \"waitscope-trace\", \"version\": 1, \"threads\": [", -1, NULL));
  g_assert_null (load_in_order (paths, a, &seq_error));
  g_assert_null (ws_trace_loader_load_many (paths, b, NULL, NULL, &par_error));
  g_assert_nonnull (seq_error);
  g_assert_nonnull (par_error);
  g_assert_cmpstr (par_error->message, ==, seq_error->message);
  g_assert_nonnull (strstr (par_error->message, "bad1.txt"));
  g_unlink (bad1);
  g_unlink (bad2);
  g_rmdir (dir);
}

static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "x", -1, NULL));
}

static void
test_expand_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-folder-XXXXXX", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub.perf.txt", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *ctf = g_dir_make_tmp ("ws-lttng-XXXXXX", NULL);
  g_autofree char *ctf_metadata = g_build_filename (ctf, "metadata", NULL);
  g_autofree char *file = g_build_filename (dir, "b.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "gone", NULL);
  /* By hand: the names a trace format names, in byte order. */
  const char *expected[] = { "B.perf.txt.gz", "a.folded", "b.json", "c.dat", "run-10.pftrace", "run-9.txt", NULL };
  const char *others[] = { ".hidden.perf.txt", "notes.md", "record.sh", "classes.csv", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) got = NULL, alone = NULL, none = NULL, lttng = NULL, nothing = NULL;

  for (guint i = 0; expected[i] != NULL; i++)
    touch (dir, expected[i]);
  for (guint i = 0; others[i] != NULL; i++)
    touch (dir, others[i]);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);   /* a folder named like a trace: not one */
  g_assert_cmpint (g_mkdir (empty, 0755), ==, 0);
  g_assert_true (g_file_set_contents (ctf_metadata, "/* CTF 1.8 */", -1, NULL));

  got = ws_trace_loader_expand_folder (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (got), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    {
      g_autofree char *want = g_build_filename (dir, expected[i], NULL);
      g_assert_cmpstr (got[i], ==, want);
    }
  /* A file is itself; so is a folder the loader reads as one trace (a
   * "metadata" a few levels down: LTTng CTF); a folder of nothing is nothing. */
  alone = ws_trace_loader_expand_folder (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (alone), ==, 1);
  g_assert_cmpstr (alone[0], ==, file);
  lttng = ws_trace_loader_expand_folder (ctf, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (lttng), ==, 1);
  g_assert_cmpstr (lttng[0], ==, ctf);
  none = ws_trace_loader_expand_folder (empty, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  /* A path that is not there is itself: loading it names it. */
  nothing = ws_trace_loader_expand_folder (missing, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (nothing[0], ==, missing);

  for (guint i = 0; expected[i] != NULL; i++)
    {
      g_autofree char *p = g_build_filename (dir, expected[i], NULL);
      g_unlink (p);
    }
  for (guint i = 0; others[i] != NULL; i++)
    {
      g_autofree char *p = g_build_filename (dir, others[i], NULL);
      g_unlink (p);
    }
  g_unlink (ctf_metadata);
  g_rmdir (ctf);
  g_rmdir (sub);
  g_rmdir (empty);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/load-many/same-as-in-order", test_same_as_in_order);
  g_test_add_func ("/load-many/first-error", test_first_error);
  g_test_add_func ("/load-many/expand-folder", test_expand_folder);
  return g_test_run ();
}
