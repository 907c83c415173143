/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LTTng CTF traces (ws-ctf-importer.c, ws-ctf-reader.c) on a real kernel
 * trace from the Trace Compass test traces (tests/data/ctf/README.md).
 *
 * Oracle: the text that `babeltrace2` (the reference decoder, another
 * program) prints for the same trace, parsed here: per thread, the
 * sched_switch events that leave it blocked (waits) or runnable
 * (preemptions), and the wake-ups that happened in interrupt context
 * (between irq/softirq entry and exit on the waking CPU) or on an idle CPU.
 */
#define _GNU_SOURCE   /* memmem */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ws-error.h"
#include "ws-frame-classifier.h"
#include "ws-trace-loader.h"

static char *
data_path (const char *file)
{
  const char *dir = g_getenv ("WS_TEST_DATA");

  return dir != NULL ? g_build_filename (dir, "ctf", file, NULL) : NULL;
}

/* The archive unpacked by tar, for the directory case. */
static char *
unpack (const char *archive)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-ctf-XXXXXX", &error);
  const char *argv[] = { "tar", "xzf", archive, "-C", dir, NULL };
  int status = 0;

  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  return dir;
}

static void
remove_tree (const char *dir)
{
  const char *argv[] = { "rm", "-rf", dir, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

typedef struct {
  GHashTable *waits;     /* tid -> count */
  GHashTable *preempts;  /* tid -> count */
  guint       n_hw;      /* wake-ups in interrupt context or on an idle CPU */
  guint       n_wakeups;
} Oracle;

static void
bump (GHashTable *table,
      gint64      tid)
{
  gpointer key = GINT_TO_POINTER ((int) tid);

  g_hash_table_insert (table, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (table, key)) + 1));
}

static gint64
field (const char *line,
       const char *name)
{
  g_autofree char *key = g_strdup_printf (" %s = ", name);
  const char *s = strstr (line, key);

  g_assert_nonnull (s);
  return g_ascii_strtoll (s + strlen (key), NULL, 10);
}


/* Whether the reference decoder is installed (the oracle of these tests). */
static gboolean
have_babeltrace (void)
{
  g_autofree char *path = g_find_program_in_path ("babeltrace2");

  return path != NULL;
}

static gboolean
oracle_from_babeltrace (const char *dir,
                        Oracle     *o)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *argv[] = { "babeltrace2", dir, NULL };
  gint64 current[256], irq[256], softirq[256];
  int status = 0;

  if (!have_babeltrace ())
    return FALSE;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  for (guint i = 0; i < 256; i++)
    current[i] = -1, irq[i] = 0, softirq[i] = 0;
  o->waits = g_hash_table_new (NULL, NULL);
  o->preempts = g_hash_table_new (NULL, NULL);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      gint64 cpu;

      if (strstr (l, "cpu_id = ") == NULL)
        continue;
      cpu = field (l, "cpu_id");
      g_assert_cmpint (cpu, <, 256);
      if (strstr (l, " sched_switch: ") != NULL)
        {
          gint64 prev = field (l, "prev_tid"), state = field (l, "prev_state");

          if (prev != 0)
            bump ((state & 0xff) != 0 ? o->waits : o->preempts, prev);
          current[cpu] = field (l, "next_tid");
        }
      else if (strstr (l, " irq_handler_entry: ") != NULL)
        irq[cpu]++;
      else if (strstr (l, " irq_handler_exit: ") != NULL && irq[cpu] > 0)
        irq[cpu]--;
      else if (strstr (l, "softirq_entry: ") != NULL)
        softirq[cpu] = 1;
      else if (strstr (l, "softirq_exit: ") != NULL)
        softirq[cpu] = 0;
      else if (strstr (l, " sched_wakeup: ") != NULL || strstr (l, " sched_waking: ") != NULL)
        {
          o->n_wakeups++;
          if (irq[cpu] > 0 || softirq[cpu] > 0 || current[cpu] == 0)
            o->n_hw++;
        }
    }
  return TRUE;
}

static void
check_against_babeltrace (WsTrace    *trace,
                          const char *dir)
{
  Oracle o = { 0 };
  g_autoptr(GHashTable) waits = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) preempts = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint n_hw = 0;

  if (!oracle_from_babeltrace (dir, &o))
    {
      g_test_skip ("babeltrace2 is not installed (tools/bootstrap.sh installs it)");
      return;
    }
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      gint64 tid = ws_trace_get_thread (trace, e->thread)->tid;

      if (e->kind == WS_EVENT_WAIT)
        bump (waits, tid);
      else if (e->kind == WS_EVENT_PREEMPT)
        bump (preempts, tid);
      else if (e->kind == WS_EVENT_HW_SERVICE)
        n_hw++;
    }
  g_assert_cmpuint (g_hash_table_size (o.waits), >, 10);
  g_assert_cmpuint (g_hash_table_size (waits), ==, g_hash_table_size (o.waits));
  g_hash_table_iter_init (&iter, o.waits);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (waits, key)), ==, GPOINTER_TO_UINT (value));
  g_assert_cmpuint (g_hash_table_size (preempts), ==, g_hash_table_size (o.preempts));
  g_hash_table_iter_init (&iter, o.preempts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (preempts, key)), ==, GPOINTER_TO_UINT (value));
  /* Every wake-up in interrupt context (or on an idle CPU) that ended a
   * wait is a hardware service: at most the oracle's count (a wake-up of
   * a thread that was not waiting ends nothing), and most of them. */
  g_assert_cmpuint (o.n_hw, >, 0);
  g_assert_cmpuint (n_hw, <=, o.n_hw);
  g_assert_cmpuint (n_hw * 10, >=, o.n_hw * 8);
  g_hash_table_unref (o.waits);
  g_hash_table_unref (o.preempts);
}

static WsTrace *
load (const char  *path,
      GError     **error)
{
  return ws_trace_loader_load (path, NULL, NULL, NULL, NULL, error);
}

static void
test_archive_and_directory (void)
{
  g_autofree char *archive = data_path ("bug446190.tar.gz");
  g_autofree char *dir = NULL, *trace_dir = NULL, *metadata = NULL;
  g_autoptr(WsTrace) from_archive = NULL, from_dir = NULL, from_metadata = NULL;
  g_autoptr(GError) error = NULL;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA is not set");
      return;
    }
  from_archive = load (archive, &error);
  g_assert_no_error (error);
  dir = unpack (archive);
  trace_dir = g_build_filename (dir, "bug446190", NULL);
  metadata = g_build_filename (trace_dir, "metadata", NULL);
  /* The directory holding the trace, the trace directory, its metadata. */
  from_dir = load (dir, &error);
  g_assert_no_error (error);
  from_metadata = load (metadata, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_events (from_archive), ==, ws_trace_get_n_events (from_dir));
  g_assert_cmpuint (ws_trace_get_n_events (from_archive), ==, ws_trace_get_n_events (from_metadata));

  check_against_babeltrace (from_dir, trace_dir);
  remove_tree (dir);
}

/* A syscall in progress names the wait: klogd waits in its read. */
static void
test_syscall_frame (void)
{
  g_autofree char *archive = data_path ("bug446190.tar.gz");
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint named = 0, waits = 0;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA is not set");
      return;
    }
  trace = load (archive, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      guint n_frames = 0;

      if (e->kind != WS_EVENT_WAIT)
        continue;
      waits++;
      ws_stack_table_get_stack (ws_trace_get_stack_table (trace), e->stack, &n_frames);
      if (n_frames > 0)
        named++;
    }
  g_assert_cmpuint (named, >, 0);
  g_assert_cmpuint (named, <, waits);   /* kernel threads make no syscalls */
}

/* A wake-up in the timer softirq (vector 1, on a CPU not running
 * ksoftirqd) is a timer expiry: its frame names the softirq's handler and
 * the frame classifier says "timer", as for a perf stack. */
static void
test_timer_softirq (void)
{
  g_autofree char *archive = data_path ("bug446190.tar.gz");
  g_autofree char *dir = NULL, *trace_dir = NULL, *out = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsFrameClassifier) classifier = ws_frame_classifier_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *argv[] = { "babeltrace2", NULL, NULL };
  gboolean in_timer[256] = { FALSE }, ksoftirqd[256] = { FALSE };
  guint oracle = 0, timer_wakes = 0, timer_kind = 0;

  if (archive == NULL || !have_babeltrace ())
    {
      g_test_skip ("WS_TEST_DATA is not set or babeltrace2 is not installed");
      return;
    }
  dir = unpack (archive);
  trace_dir = g_build_filename (dir, "bug446190", NULL);
  argv[1] = trace_dir;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      gint64 cpu;

      if (strstr (l, "cpu_id = ") == NULL)
        continue;
      cpu = field (l, "cpu_id");
      if (strstr (l, " sched_switch: ") != NULL)
        ksoftirqd[cpu] = strstr (l, "next_comm = \"ksoftirqd/") != NULL;
      else if (strstr (l, "softirq_entry: ") != NULL)
        in_timer[cpu] = field (l, "vec") == 1 && !ksoftirqd[cpu];
      else if (strstr (l, "softirq_exit: ") != NULL)
        in_timer[cpu] = FALSE;
      else if (strstr (l, " sched_wakeup: ") != NULL && in_timer[cpu])
        oracle++;
    }

  trace = load (archive, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i), *peer;
      const WsFrameId *frames;
      guint n = 0;

      if (e->kind != WS_EVENT_WAIT || e->peer == WS_NONE)
        continue;
      peer = ws_trace_get_event (trace, e->peer);
      if (peer->kind != WS_EVENT_HW_SERVICE)
        continue;
      frames = ws_stack_table_get_stack (ws_trace_get_stack_table (trace), peer->stack, &n);
      if (n > 0 && g_str_equal (ws_stack_table_get_frame (ws_trace_get_stack_table (trace), frames[0])->function,
                                "run_timer_softirq"))
        {
          timer_wakes++;
          if (ws_frame_classifier_classify_wake (classifier, trace, i, NULL) == WS_WAKE_TIMER)
            timer_kind++;
        }
    }
  g_test_message ("timer softirq wake-ups: %u in babeltrace2's text, %u ending waits here, %u of them named a timer expiry",
                  oracle, timer_wakes, timer_kind);
  g_assert_cmpuint (oracle, >, 0);
  /* Every one that ended a wait (a wake-up of a thread not waiting ends
   * nothing), and most of them do. */
  g_assert_cmpuint (timer_wakes, <=, oracle);
  g_assert_cmpuint (timer_wakes * 10, >=, oracle * 8);
  g_assert_cmpuint (timer_kind, ==, timer_wakes);
  remove_tree (dir);
}

/* A trace given in WS_TEST_CTF_TRACE (such as the Trace Compass
 * many-threads trace, too large to commit), checked the same way. */
static void
test_extra_trace (void)
{
  const char *dir = g_getenv ("WS_TEST_CTF_TRACE");
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    {
      g_test_skip ("WS_TEST_CTF_TRACE is not set");
      return;
    }
  trace = load (dir, &error);
  g_assert_no_error (error);
  check_against_babeltrace (trace, dir);
}

static void
expect_failure (const char *path,
                const char *name_in_message,
                const char *place)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = load (path, &error);

  g_assert_null (trace);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, name_in_message));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, place));
}

/* Damaged traces fail with the file named, never a crash. */
static void
test_damaged (void)
{
  g_autofree char *archive = data_path ("bug446190.tar.gz");
  g_autofree char *dir = NULL, *trace_dir = NULL, *stream = NULL, *metadata = NULL, *contents = NULL;
  g_autofree char *cut = NULL;
  gsize len = 0;

  if (archive == NULL)
    {
      g_test_skip ("WS_TEST_DATA is not set");
      return;
    }
  dir = unpack (archive);
  trace_dir = g_build_filename (dir, "bug446190", NULL);
  stream = g_build_filename (trace_dir, "channel0_1", NULL);
  metadata = g_build_filename (trace_dir, "metadata", NULL);

  /* A stream file cut in the middle of a packet. */
  g_assert_true (g_file_get_contents (stream, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (stream, contents, len / 2 + 7, NULL));
  expect_failure (trace_dir, trace_dir, "channel0_1");
  g_assert_true (g_file_set_contents (stream, contents, len, NULL));
  g_clear_pointer (&contents, g_free);

  /* Metadata whose text is damaged in its middle. */
  g_assert_true (g_file_get_contents (metadata, &contents, &len, NULL));
  {
    /* memmem: the packet headers hold NULs. */
    char *event = memmem (contents + len / 2, len - len / 2, "event {", 7);

    g_assert_nonnull (event);
    memcpy (event, "evnt }}", 7);
  }
  g_assert_true (g_file_set_contents (metadata, contents, len, NULL));
  expect_failure (trace_dir, trace_dir, "its metadata file is not valid CTF metadata");
  g_clear_pointer (&contents, g_free);

  /* A stream on which libbabeltrace2 loops for ever (found by fuzzing,
   * `babeltrace2` itself loops on it too): stopped and named. */
  {
    g_autofree char *loops = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "fuzz", "regressions", "ctf",
                                               "babeltrace-loops-on-damaged-stream.tar.gz", NULL);

    g_setenv ("WAITSCOPE_CTF_STALL_TIMEOUT", "2", TRUE);
    expect_failure (loops, loops, "loops on it");
    g_unsetenv ("WAITSCOPE_CTF_STALL_TIMEOUT");
  }

  /* An archive cut short. */
  g_assert_true (g_file_get_contents (archive, &contents, &len, NULL));
  cut = g_build_filename (dir, "cut.tar.gz", NULL);
  g_assert_true (g_file_set_contents (cut, contents, len / 3, NULL));
  expect_failure (cut, cut, "cut short");
  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
#ifdef HAVE_BABELTRACE2
  g_test_add_func ("/ctf/archive-and-directory", test_archive_and_directory);
  g_test_add_func ("/ctf/syscall-frame", test_syscall_frame);
  g_test_add_func ("/ctf/damaged", test_damaged);
  g_test_add_func ("/ctf/timer-softirq", test_timer_softirq);
  g_test_add_func ("/ctf/extra-trace", test_extra_trace);
#endif
  return g_test_run ();
}
