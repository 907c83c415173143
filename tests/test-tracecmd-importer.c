/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * trace-cmd .dat files (ws-tracecmd-importer.c) on real recordings made by
 * tests/data/tracecmd/record.sh: each workload was recorded by ftrace and
 * by perf at once, so the two files hold one run.
 *
 * Oracles: counts from trace-cmd's own decoder (`trace-cmd report`,
 * counted with grep, commands in the comments), and the perf recording of
 * the same run read by the perf importer, for `why`.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ws-attribution.h"
#include "ws-block-requests.h"
#include "ws-error.h"
#include "ws-ready-tree-run.h"
#include "ws-scenario-rules.h"
#include "ws-thread-picker.h"
#include "ws-trace-loader.h"
#include "ws-test-why.h"

static char *
data_path (const char *file)
{
  const char *dir = g_getenv ("WS_TEST_DATA");

  return dir != NULL ? g_build_filename (dir, "tracecmd", file, NULL) : NULL;
}

static WsTrace *
load (const char *file)
{
  g_autofree char *path = data_path (file);
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace;

  if (path == NULL)
    return NULL;
  trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static guint
find_thread_named (WsTrace    *trace,
                   const char *name)
{
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, name) == 0)
      return t;
  return WS_NONE;
}

static gboolean
stack_has (WsTrace    *trace,
           WsStackId   stack,
           const char *function)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint n;
  const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

  for (guint i = 0; i < n; i++)
    if (strstr (ws_stack_table_get_frame (stacks, frames[i])->function, function) != NULL)
      return TRUE;
  return FALSE;
}

/* The loader sends a .dat to this importer by its bytes, whatever its name. */
static void
test_sniff (void)
{
  g_autofree char *path = data_path ("oversub.dat");
  g_autofree char *contents = NULL;
  g_autofree char *renamed = NULL;
  g_autofree char *dir = NULL;
  gsize len;
  const WsImporter *importer;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  importer = ws_trace_loader_sniff (path, NULL, NULL, NULL);
  g_assert_nonnull (importer);
  g_assert_cmpstr (importer->id, ==, "trace-cmd");

  dir = g_dir_make_tmp ("ws-tracecmd-XXXXXX", NULL);
  renamed = g_build_filename (dir, "recording.txt", NULL);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (renamed, contents, len, NULL));
  importer = ws_trace_loader_sniff (renamed, NULL, NULL, NULL);
  g_assert_nonnull (importer);
  g_assert_cmpstr (importer->id, ==, "trace-cmd");
  g_unlink (renamed);
  g_rmdir (dir);
}

/*
 * The timeline data of sleep-cs: four workers slcs-w0..3 of one process
 * (task_newtask's clone flags say CLONE_THREAD), each switching out
 * sleeping as many times as trace-cmd itself decodes:
 *   trace-cmd report sleep-cs.dat | grep -o 'sched_switch: *slcs-w[0-3]:[0-9]* [[0-9]*] [A-Za-z+]*' |
 *     sort | uniq -c
 * gives 379 slcs-w0:11030 S, 477 slcs-w1:11031 S, 269 slcs-w2:11032 S,
 * 299 slcs-w3:11033 S, and no other state for them (real-time threads are
 * never preempted by the normal-class rest).
 */
static void
test_timeline (void)
{
  static const struct { const char *name; gint32 tid; guint waits; } workers[] = {
    { "slcs-w0", 11030, 379 }, { "slcs-w1", 11031, 477 }, { "slcs-w2", 11032, 269 }, { "slcs-w3", 11033, 299 },
  };
  g_autoptr(WsTrace) trace = load ("sleep-cs.dat");
  const WsEvent *events;
  guint n_events, nanosleeps = 0, futexes = 0, by_worker = 0;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  events = ws_trace_get_events (trace);
  n_events = ws_trace_get_n_events (trace);

  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      guint t = find_thread_named (trace, workers[w].name);
      const WsThread *thread;
      guint waits = 0, preempts = 0;

      g_assert_cmpuint (t, !=, WS_NONE);
      thread = ws_trace_get_thread (trace, t);
      g_assert_cmpint (thread->tid, ==, workers[w].tid);
      g_assert_cmpint (thread->pid, ==, 11028);
      g_assert_cmpstr (ws_trace_get_process (trace, thread->process)->name, ==, "sleep-cs");

      for (guint i = 0; i < n_events; i++)
        {
          const WsEvent *e = &events[i];

          if (e->thread != t)
            continue;
          if (e->kind == WS_EVENT_PREEMPT)
            preempts++;
          if (e->kind != WS_EVENT_WAIT)
            continue;
          waits++;
          g_assert_cmpint (e->state, ==, 'S');
          /* The kernel stack of each switch (-T), without ftrace's own
           * trace_event_raw_event_* frame. */
          g_assert_false (stack_has (trace, e->stack, "trace_event_raw_event_"));
          if (stack_has (trace, e->stack, "do_nanosleep"))
            nanosleeps++;
          else if (stack_has (trace, e->stack, "futex"))
            futexes++;
          if (e->peer != WS_NONE && events[e->peer].kind == WS_EVENT_UNWAIT &&
              g_str_has_prefix (ws_trace_get_thread (trace, events[e->peer].thread)->name, "slcs-"))
            by_worker++;
        }
      g_assert_cmpuint (waits, ==, workers[w].waits);
      g_assert_cmpuint (preempts, ==, 0);
    }
  /* Every wait is the mutex (futex) or the sleep under it, and the mutex
   * waits are ended by the worker that unlocked it. */
  g_assert_cmpuint (nanosleeps + futexes, ==, 379 + 477 + 269 + 299);
  g_assert_cmpuint (nanosleeps, >, 0);
  g_assert_cmpuint (futexes, >, 0);
  g_assert_cmpuint (by_worker, >, 0);
}

/* The ready tree of a worker's longest wait (the mutex) goes to the holder,
 * whose sleep under the lock delayed it: a do_nanosleep wait below. */
static void
test_ready_tree (void)
{
  g_autoptr(WsTrace) trace = load ("sleep-cs.dat");
  g_autoptr(WsReadyTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  WsReadyTreeSettings settings;
  WsSymptom symptom;
  const WsReadyNode *root;
  gboolean sleep_below = FALSE;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  symptom.thread = find_thread_named (trace, "slcs-w1");
  symptom.t0 = ws_trace_get_start_time (trace);
  symptom.t1 = ws_trace_get_end_time (trace);
  ws_ready_tree_settings_init (&settings, &symptom);
  tree = ws_ready_tree_run (trace, &settings, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  root = ws_ready_tree_get_node (tree, 0);
  g_assert_true (stack_has (trace, root->stack, "futex"));
  g_assert_cmpuint (root->readier_thread, !=, WS_NONE);
  g_assert_true (g_str_has_prefix (ws_trace_get_thread (trace, root->readier_thread)->name, "slcs-"));
  g_assert_cmpuint (ws_ready_tree_get_n_nodes (tree), >, 1);
  for (guint i = 1; i < ws_ready_tree_get_n_nodes (tree); i++)
    sleep_below |= stack_has (trace, ws_ready_tree_get_node (tree, i)->stack, "do_nanosleep");
  g_assert_true (sleep_below);
}

/*
 * `why` on the trace-cmd file and on the perf recording of the same run:
 * the same program picked, the same top cause (kind, state, kernel
 * function), its share within five points.  perf's stacks add the user
 * frames (its signature reads "clock_nanosleep ← worker"), ftrace's have
 * the kernel's only, so the kernel function is what is compared.
 */
static void
check_same_cause (gconstpointer data)
{
  const char *name = data;
  g_autofree char *dat = g_strdup_printf ("%s.dat", name);
  g_autofree char *perf = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autoptr(WsTrace) a = load (dat);
  g_autoptr(WsTrace) b = load (perf);
  g_autofree char *program = NULL;

  if (a == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  program = ws_test_why_assert_same_cause (name, "trace-cmd", a, b, WS_TEST_WHY_SAME_KERNEL_FUNCTION);
}

/* fsync-writer: a mutex held across write + fsync; the disk, seen from the
 * kernel stacks alone (state D). */
static void
test_fsync_writer (void)
{
  g_autoptr(WsTrace) trace = load ("fsync-writer.dat");
  g_autoptr(WsAttribution) attribution = NULL;
  g_autofree char *program = NULL;
  const WsCause *top;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  top = ws_test_why_top_cause (trace, &attribution, &program);
  g_test_message ("fsync-writer.dat: %s: %s %.1f %%", program, top->label, 100 * top->share);
  g_assert_cmpstr (program, ==, "fsync-writer");
  g_assert_cmpint (top->kind, ==, WS_CAUSE_BLOCKED);
  g_assert_cmpint (top->state, ==, 'D');
}

/*
 * Block requests from a trace-cmd file (fsync-dd: fsync-writer beside dd
 * writing 1 MiB blocks with O_DIRECT), against trace-cmd's own decoder:
 *   trace-cmd report fsync-dd.dat | grep 'block_rq_issue:' | awk '{ for (i = 1; i <= NF; i++)
 *     if ($i == "block_rq_issue:") b = $(i + 3); n[$1]++; s[$1] += b } END { for (k in n) print k, n[k], s[k] }'
 * gives 276 requests of 69,545,984 bytes, all on 254,0; dd-25697 44 of
 * 35,553,280 bytes, fsw-w1-25727 58 of 16,883,712.  `why` then names the
 * device's queue behind the writers' disk waits, with dd in it.
 */
static void
test_block_requests (void)
{
  static const struct { gint32 tid; guint n; guint64 bytes; } issuers[] = {
    { 25697, 44, 35553280 }, { 25727, 58, 16883712 },
  };
  g_autoptr(WsTrace) trace = load ("fsync-dd.dat");
  g_autoptr(WsAttribution) attribution = NULL;
  g_autofree char *program = NULL;
  const WsBlockRequests *requests;
  const WsCause *top;
  guint64 bytes = 0;
  gboolean dd_behind = FALSE;

  if (trace == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  requests = ws_trace_get_block_requests (trace);
  g_assert_nonnull (requests);
  g_assert_cmpuint (ws_block_requests_get_n (requests), ==, 276);
  for (guint i = 0; i < ws_block_requests_get_n (requests); i++)
    {
      const WsBlockRequest *q = ws_block_requests_get (requests, i);

      bytes += q->bytes;
      g_assert_cmpuint (WS_BLOCK_DEVICE_MAJOR (q->device), ==, 254);
      g_assert_cmpuint (WS_BLOCK_DEVICE_MINOR (q->device), ==, 0);
    }
  g_assert_cmpuint (bytes, ==, 69545984);
  for (guint k = 0; k < G_N_ELEMENTS (issuers); k++)
    {
      guint n = 0;

      bytes = 0;
      for (guint i = 0; i < ws_block_requests_get_n (requests); i++)
        {
          const WsBlockRequest *q = ws_block_requests_get (requests, i);

          if (ws_trace_get_thread (trace, q->thread)->tid == issuers[k].tid)
            n++, bytes += q->bytes;
        }
      g_assert_cmpuint (n, ==, issuers[k].n);
      g_assert_cmpuint (bytes, ==, issuers[k].bytes);
    }

  top = ws_test_why_top_cause (trace, &attribution, &program);
  g_assert_cmpstr (program, ==, "fsync-writer");
  g_assert_cmpint (top->state, ==, 'D');
  for (guint i = 0; top->behind != NULL && i < top->behind->len; i++)
    {
      const WsBehindThread *b = &g_array_index (top->behind, WsBehindThread, i);

      g_assert_cmpint (b->what, ==, WS_BEHIND_REQUESTS);
      if (ws_trace_get_thread (b->trace, b->thread)->tid == 25697)
        dd_behind = b->bytes > 0;
    }
  g_assert_true (dd_behind);
}

/* Damaged files: a WS_ERROR naming the file and the place, never a crash. */
static void
expect_error (const char   *dir,
              const char   *base,
              const guint8 *data,
              gsize         len,
              const char   *fragment)
{
  g_autofree char *path = g_build_filename (dir, base, NULL);
  g_autofree char *prefix = g_strdup_printf ("%s:1: ", path);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, len, NULL));
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, error->code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  if (fragment != NULL)
    g_assert_nonnull (strstr (error->message, fragment));
  g_unlink (path);
}

static void
test_bad_input (void)
{
  g_autofree char *path = data_path ("sleep-cs.dat");
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree guint8 *copy = NULL;
  gsize len;
  static const guint8 version9[] = "\027\010Dtracing9\0\0\010\0\020\0\0";
  static const guint8 long_size3[] = "\027\010Dtracing6\0\0\003\0\020\0\0";

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  dir = g_dir_make_tmp ("ws-tracecmd-XXXXXX", NULL);

  /* Cut inside the first header, inside the metadata, inside the CPU data. */
  expect_error (dir, "cut-12.dat", (const guint8 *) contents, 12, "byte 12");
  expect_error (dir, "cut-3000.dat", (const guint8 *) contents, 3000, "3000 bytes");
  expect_error (dir, "cut-half.dat", (const guint8 *) contents, len / 2, "damaged or cut short");
  /* A version libtracecmd does not read, a long of three bytes. */
  expect_error (dir, "version9.dat", version9, sizeof version9 - 1, "byte 10");
  expect_error (dir, "long3.dat", long_size3, sizeof long_size3 - 1, "byte 13");
  /* The CPU data overwritten with noise: an error or a trace, never a crash. */
  copy = g_memdup2 (contents, len);
  for (gsize i = len - 20000; i < len; i += 7)
    copy[i] ^= 0x5a;
  {
    g_autofree char *noisy = g_build_filename (dir, "noisy.dat", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(WsTrace) trace = NULL;

    g_assert_true (g_file_set_contents (noisy, (const char *) copy, len, NULL));
    trace = ws_trace_loader_load (noisy, NULL, NULL, NULL, NULL, &error);
    g_assert_true ((trace == NULL) != (error == NULL));
    if (error != NULL)
      g_assert_true (g_str_has_prefix (error->message, noisy));
    g_unlink (noisy);
  }
  g_rmdir (dir);
}

/* Standard input and gzip: copied (inflated) to a temporary file for
 * libtracecmd, the same trace as from the file. */
static void
test_stream_and_gzip (void)
{
  g_autofree char *path = data_path ("oversub.dat");
  g_autofree char *contents = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) from_file = NULL, from_stream = NULL, from_gzip = NULL;
  g_autofree char *dir = NULL, *gz = NULL, *command = NULL;
  gsize len;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  from_file = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  in = g_memory_input_stream_new_from_data (contents, len, NULL);
  from_stream = ws_tracecmd_importer.load_stream (in, "-", FALSE, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_events (from_stream), ==, ws_trace_get_n_events (from_file));

  dir = g_dir_make_tmp ("ws-tracecmd-XXXXXX", NULL);
  gz = g_build_filename (dir, "oversub.dat.gz", NULL);
  command = g_strdup_printf ("gzip -c '%s' > '%s'", path, gz);
  g_assert_cmpint (system (command), ==, 0);
  from_gzip = ws_trace_loader_load (gz, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_events (from_gzip), ==, ws_trace_get_n_events (from_file));
  g_unlink (gz);
  g_rmdir (dir);
}

/* A build without libtracecmd still knows the file and says what it lacks. */
static void
test_not_built (void)
{
  g_autofree char *path = data_path ("oversub.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "this build of Waitscope cannot read trace-cmd files"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tracecmd/sniff", test_sniff);
#ifndef HAVE_LIBTRACECMD
  g_test_add_func ("/tracecmd/not-built", test_not_built);
  (void) test_timeline; (void) test_ready_tree; (void) check_same_cause;
  (void) test_fsync_writer; (void) test_block_requests; (void) test_bad_input; (void) test_stream_and_gzip;
#else
  (void) test_not_built;
  g_test_add_func ("/tracecmd/timeline", test_timeline);
  g_test_add_func ("/tracecmd/ready-tree", test_ready_tree);
  g_test_add_data_func ("/tracecmd/same-cause/sleep-cs", "sleep-cs", check_same_cause);
  g_test_add_data_func ("/tracecmd/same-cause/oversub", "oversub", check_same_cause);
  g_test_add_func ("/tracecmd/fsync-writer", test_fsync_writer);
  g_test_add_func ("/tracecmd/block-requests", test_block_requests);
  g_test_add_func ("/tracecmd/bad-input", test_bad_input);
  g_test_add_func ("/tracecmd/stream-and-gzip", test_stream_and_gzip);
#endif
  return g_test_run ();
}
