/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Perfetto protobuf traces (ws-perfetto-importer.c).
 *
 * No Perfetto recorder runs here, so the real traces of tests/data/perfetto/
 * are real perf recordings (tests/data/causes/) converted field by field by
 * tools/perf-to-perfetto.py (tests/data/perfetto/README.md).  Oracles:
 *
 *  - the perf importer on the perf text of the same recording: every
 *    event (waits, readiers, preemptions, samples, their stacks) and
 *    every thread equal, and `why` the same;
 *  - the plain encoding against the compact one, on the converted
 *    recording and over random scheduler histories written by this test's
 *    own writer (ws-perfetto-writer.h);
 *  - hand-built traces whose names and stacks are known.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ws-attribution.h"
#include "ws-error.h"
#include "ws-importer.h"
#include "ws-perfetto-writer.h"
#include "ws-scenario-rules.h"
#include "ws-thread-picker.h"
#include "ws-trace-loader.h"
#include "ws-test-why.h"

static char *
data_path (const char *dir,
           const char *file)
{
  const char *root = g_getenv ("WS_TEST_DATA");

  return root != NULL ? g_build_filename (root, dir, file, NULL) : NULL;
}

static WsTrace *
load_path (const char *path)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static char *
describe_stack (WsTrace  *trace,
                WsStackId stack)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  GString *s = g_string_new ("[");
  guint n = 0;
  const WsFrameId *frames;

  if (stack == WS_STACK_EMPTY)
    return g_string_free (s, FALSE);
  frames = ws_stack_table_get_stack (stacks, stack, &n);
  for (guint i = 0; i < n; i++)
    {
      const WsFrame *f = ws_stack_table_get_frame (stacks, frames[i]);
      g_string_append_printf (s, "%s@%s;", f->function ? f->function : "", f->module ? f->module : "");
    }
  return g_string_free (s, FALSE);
}

static gint32
tid_of (WsTrace *trace,
        guint32  thread)
{
  return thread == WS_NONE ? -2 : ws_trace_get_thread (trace, thread)->tid;
}

/* Every event as text that holds no index (threads by tid, peers by
 * their time and thread, stacks by their frames), sorted. */
static GPtrArray *
describe_events (WsTrace *trace)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      g_autofree char *stack = describe_stack (trace, e->stack);
      g_autofree char *peer = NULL;
      g_autofree char *target = NULL;

      if (ws_event_peer (e) != WS_NONE)
        {
          const WsEvent *p = ws_trace_get_event (trace, e->peer);
          peer = g_strdup_printf ("%d@%" G_GINT64_FORMAT "/%d", p->kind, (gint64) p->time, tid_of (trace, p->thread));
        }
      if (e->kind == WS_EVENT_UNWAIT || e->kind == WS_EVENT_HW_SERVICE)
        target = g_strdup_printf ("%d", tid_of (trace, ws_event_target (e)));
      else if (ws_event_name (e) != WS_NONE)
        target = g_strdup (ws_trace_get_string (trace, ws_event_name (e)));
      g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %d tid=%d dur=%" G_GINT64_FORMAT " cpu=%u "
                                               "state=%c flags=%u lat=%u target=%s peer=%s %s",
                                               (gint64) e->time, e->kind, tid_of (trace, e->thread),
                                               (gint64) ws_event_duration (e), e->cpu, e->state ? e->state : '-', e->flags,
                                               ws_trace_wait_ready_latency (trace, i), target ? target : "-",
                                               peer ? peer : "-", stack));
    }
  return lines;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
describe_threads (WsTrace *trace)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      g_ptr_array_add (lines, g_strdup_printf ("%d %d %s", thread->tid, thread->pid,
                                               thread->name ? thread->name : "-"));
    }
  g_ptr_array_sort (lines, compare_lines);
  return lines;
}

static void
assert_same_lines (GPtrArray  *a,
                   GPtrArray  *b,
                   const char *what)
{
  g_ptr_array_sort (a, compare_lines);
  g_ptr_array_sort (b, compare_lines);
  for (guint i = 0; i < MIN (a->len, b->len); i++)
    if (strcmp (a->pdata[i], b->pdata[i]) != 0)
      {
        g_test_message ("%s differ at %u:\n  %s\n  %s", what, i, (char *) a->pdata[i], (char *) b->pdata[i]);
        g_assert_cmpstr (a->pdata[i], ==, b->pdata[i]);
      }
  g_assert_cmpuint (a->len, ==, b->len);
}

static void
assert_same_trace (WsTrace *a,
                   WsTrace *b)
{
  g_autoptr(GPtrArray) ea = describe_events (a);
  g_autoptr(GPtrArray) eb = describe_events (b);
  g_autoptr(GPtrArray) ta = describe_threads (a);
  g_autoptr(GPtrArray) tb = describe_threads (b);

  assert_same_lines (ea, eb, "events");
  assert_same_lines (ta, tb, "threads");
}

/* The converted recording against the perf importer on its perf text. */
static void
test_same_as_perf (gconstpointer data)
{
  const char *name = data;
  g_autofree char *base = g_strdup_printf ("%s.pftrace%s", name, g_str_equal (name, "rwlock-writer") ? "" : ".gz");
  g_autofree char *perf_base = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = data_path ("perfetto", base);
  g_autofree char *perf_path = data_path ("causes", perf_base);
  g_autoptr(WsTrace) a = NULL;
  g_autoptr(WsTrace) b = NULL;
  guint n_waits = 0, n_readied = 0, n_stacks = 0;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  a = load_path (path);
  b = load_path (perf_path);
  /* Not an empty comparison: waits with their readiers and stacks. */
  for (guint i = 0; i < ws_trace_get_n_events (a); i++)
    {
      const WsEvent *e = ws_trace_get_event (a, i);
      n_waits += e->kind == WS_EVENT_WAIT;
      n_readied += e->kind == WS_EVENT_WAIT && e->peer != WS_NONE;
      n_stacks += e->kind == WS_EVENT_WAIT && e->stack != WS_STACK_EMPTY;
    }
  g_test_message ("%s: %u events, %u waits, %u readied, %u with a stack", name, ws_trace_get_n_events (a),
                  n_waits, n_readied, n_stacks);
  g_assert_cmpuint (n_waits, >, 50);
  g_assert_cmpuint (n_readied, >, n_waits / 2);
  g_assert_cmpuint (n_stacks, ==, n_waits);
  assert_same_trace (a, b);
}

/* The compact encoding against the plain one of what it says. */
static void
test_compact_as_plain (void)
{
  g_autofree char *compact = data_path ("perfetto", "rwlock-writer-compact.pftrace.gz");
  g_autofree char *plain = data_path ("perfetto", "rwlock-writer-like-compact.pftrace.gz");
  g_autoptr(WsTrace) a = NULL;
  g_autoptr(WsTrace) b = NULL;

  if (compact == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  a = load_path (compact);
  b = load_path (plain);
  g_assert_cmpuint (ws_trace_get_n_events (a), >, 2000);
  assert_same_trace (a, b);
}

/* `why` on the converted trace and on the perf recording: the same. */
static void
test_same_cause (gconstpointer data)
{
  const char *name = data;
  g_autofree char *base = g_strdup_printf ("%s.pftrace.gz", name);
  g_autofree char *perf_base = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = data_path ("perfetto", base);
  g_autofree char *perf_path = data_path ("causes", perf_base);
  g_autoptr(WsTrace) a = NULL;
  g_autoptr(WsTrace) b = NULL;
  g_autofree char *program = NULL;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  a = load_path (path);
  b = load_path (perf_path);
  program = ws_test_why_assert_same_cause (name, "Perfetto", a, b, WS_TEST_WHY_SAME_SIGNATURE);
  g_assert_cmpstr (program, ==, name);
}

/* ---- hand-built traces ------------------------------------------------ */

/* A TracePacket of sequence @seq holding @payload as field @number. */
static void
add_packet (GByteArray *trace,
            guint64     time,
            guint       seq,
            GByteArray *extra,
            guint       number,
            GByteArray *payload)
{
  GByteArray *packet = g_byte_array_new ();

  if (time > 0)
    pbw_uint (packet, 8, time);
  pbw_uint (packet, 10, seq);
  if (extra != NULL)
    {
      g_byte_array_append (packet, extra->data, extra->len);
      g_byte_array_unref (extra);
    }
  if (payload != NULL)
    pbw_message (packet, number, payload);
  pbw_message (trace, 1, packet);
}

static GByteArray *
plain_switch (guint64     time,
              gint32      prev,
              const char *prev_comm,
              guint64     state,
              gint32      next,
              const char *next_comm)
{
  GByteArray *event = g_byte_array_new ();
  GByteArray *sw = g_byte_array_new ();

  pbw_string (sw, 1, prev_comm);
  pbw_uint (sw, 2, prev);
  pbw_uint (sw, 4, state);
  pbw_string (sw, 5, next_comm);
  pbw_uint (sw, 6, next);
  pbw_uint (event, 1, time);
  pbw_uint (event, 2, prev);
  pbw_message (event, 4, sw);
  return event;
}

static GByteArray *
plain_waking (guint64     time,
              gint32      waker,
              gint32      target,
              const char *comm)
{
  GByteArray *event = g_byte_array_new ();
  GByteArray *wk = g_byte_array_new ();

  pbw_string (wk, 1, comm);
  pbw_uint (wk, 2, target);
  pbw_uint (event, 1, time);
  pbw_uint (event, 2, waker);
  pbw_message (event, 20, wk);
  return event;
}

static char *
write_temp (GByteArray *data,
            const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-perfetto-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, (const char *) data->data, data->len, NULL));
  return path;
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

static guint
find_tid (WsTrace *trace,
          gint32   tid)
{
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (ws_trace_get_thread (trace, t)->tid == tid)
      return t;
  return WS_NONE;
}

/*
 * Names from the process tree (a thread seen only in a sample is named by
 * it, a process by its command line's program, cut to 15 bytes as the
 * kernel cuts a comm), processes from the tree's tgid, and a CPU sample's
 * stack resolved through interned data written after the fields that
 * use it (frames before the strings they name).
 */
static void
test_hand_built (void)
{
  g_autoptr(GByteArray) trace = g_byte_array_new ();
  GByteArray *tree = g_byte_array_new (), *p, *t, *bundle, *defaults, *tb, *interned, *item, *sample, *extra;
  g_autofree char *path = NULL;
  g_autoptr(WsTrace) loaded = NULL;
  guint thread;
  const WsEvent *sample_event = NULL;
  g_autofree char *stack = NULL;
  guint n_waits = 0;

  /* ProcessTree: process 100 (/opt/very-long-program-name --flag), its
   * thread 101 "worker", process 200 "other". */
  p = g_byte_array_new ();
  pbw_uint (p, 1, 100);
  pbw_uint (p, 2, 1);
  pbw_string (p, 3, "/opt/very-long-program-name");
  pbw_string (p, 3, "--flag");
  pbw_message (tree, 1, p);
  t = g_byte_array_new ();
  pbw_uint (t, 1, 101);
  pbw_string (t, 2, "worker");
  pbw_uint (t, 3, 100);
  pbw_message (tree, 2, t);
  p = g_byte_array_new ();
  pbw_uint (p, 1, 200);
  pbw_string (p, 3, "other");
  pbw_uint (p, 9, 1);
  pbw_message (tree, 1, p);
  add_packet (trace, 1000, 1, NULL, 2, tree);

  /* CPU 0: 100 runs, sleeps (S) for 200, which wakes it; then 100 again. */
  bundle = g_byte_array_new ();
  pbw_uint (bundle, 1, 0);
  pbw_message (bundle, 2, plain_switch (2000, 0, "swapper/0", 0, 100, "very-long-progr"));
  pbw_message (bundle, 2, plain_switch (3000, 100, "very-long-progr", 1, 200, "other"));
  pbw_message (bundle, 2, plain_waking (4000, 200, 100, "very-long-progr"));
  pbw_message (bundle, 2, plain_switch (5000, 200, "other", 1, 100, "very-long-progr"));
  add_packet (trace, 0, 1, NULL, 1, bundle);

  /* A cpu-clock sample of thread 101 (never switched: named by the tree)
   * on its own sequence: main → leaf_fn in /usr/lib/libx.so. */
  tb = g_byte_array_new ();
  pbw_uint (tb, 4, 1);   /* SW_CPU_CLOCK */
  defaults = g_byte_array_new ();
  pbw_message (defaults, 1, tb);
  extra = g_byte_array_new ();
  pbw_uint (extra, 13, 1);
  item = g_byte_array_new ();
  pbw_message (item, 12, defaults);
  pbw_message (extra, 59, item);
  add_packet (trace, 0, 7, extra, 0, NULL);

  interned = g_byte_array_new ();
  item = g_byte_array_new ();   /* Callstack 1: frames 1 (main), 2 (leaf_fn), caller first */
  pbw_uint (item, 1, 1);
  pbw_uint (item, 2, 1);
  pbw_uint (item, 2, 2);
  pbw_message (interned, 7, item);
  item = g_byte_array_new ();   /* Frame 2: leaf_fn in mapping 1 */
  pbw_uint (item, 1, 2);
  pbw_uint (item, 2, 2);
  pbw_uint (item, 3, 1);
  pbw_message (interned, 6, item);
  item = g_byte_array_new ();   /* Frame 1: main in mapping 1 */
  pbw_uint (item, 1, 1);
  pbw_uint (item, 2, 1);
  pbw_uint (item, 3, 1);
  pbw_message (interned, 6, item);
  item = g_byte_array_new ();   /* Mapping 1: usr/lib/libx.so */
  pbw_uint (item, 1, 1);
  pbw_uint (item, 7, 1);
  pbw_uint (item, 7, 2);
  pbw_uint (item, 7, 3);
  pbw_message (interned, 19, item);
  for (guint i = 0; i < 3; i++)
    {
      static const char * const parts[] = { "usr", "lib", "libx.so" };
      item = g_byte_array_new ();
      pbw_uint (item, 1, i + 1);
      pbw_string (item, 2, parts[i]);
      pbw_message (interned, 17, item);
    }
  for (guint i = 0; i < 2; i++)
    {
      /* Function names 1 and 2: the same iids as the paths, another table. */
      item = g_byte_array_new ();
      pbw_uint (item, 1, i + 1);
      pbw_string (item, 2, i == 0 ? "main" : "leaf_fn");
      pbw_message (interned, 5, item);
    }
  sample = g_byte_array_new ();
  pbw_uint (sample, 1, 1);
  pbw_uint (sample, 2, 100);
  pbw_uint (sample, 3, 101);
  pbw_uint (sample, 4, 1);
  pbw_uint (sample, 6, 250000);
  extra = g_byte_array_new ();
  pbw_message (extra, 12, interned);
  add_packet (trace, 3500, 7, extra, 66, sample);

  path = write_temp (trace, "hand-built.pftrace");
  loaded = load_path (path);
  remove_temp (path);

  thread = find_tid (loaded, 101);
  g_assert_cmpuint (thread, !=, WS_NONE);
  g_assert_cmpstr (ws_trace_get_thread (loaded, thread)->name, ==, "worker");
  g_assert_cmpint (ws_trace_get_thread (loaded, thread)->pid, ==, 100);
  thread = find_tid (loaded, 100);
  g_assert_cmpstr (ws_trace_get_thread (loaded, thread)->name, ==, "very-long-progr");
  g_assert_cmpint (ws_trace_get_thread (loaded, thread)->pid, ==, 100);
  g_assert_cmpstr (ws_trace_get_thread (loaded, find_tid (loaded, 200))->name, ==, "other");

  for (guint i = 0; i < ws_trace_get_n_events (loaded); i++)
    {
      const WsEvent *e = ws_trace_get_event (loaded, i);

      if (e->kind == WS_EVENT_RUNNING && !(e->flags & WS_EVENT_FLAG_SPAN))
        sample_event = e;
      if (e->kind == WS_EVENT_WAIT && tid_of (loaded, e->thread) == 100)
        {
          /* 100 slept from 3000, readied by 200 at 4000, ran at 5000. */
          n_waits++;
          g_assert_cmpint (e->time, ==, 3000);
          g_assert_cmpint (ws_event_duration (e), ==, 1000);
          g_assert_cmpuint (ws_trace_wait_ready_latency (loaded, i), ==, 1000);
          g_assert_cmpint (e->state, ==, 'S');
          g_assert_cmpuint (e->peer, !=, WS_NONE);
          g_assert_cmpint (tid_of (loaded, ws_trace_get_event (loaded, e->peer)->thread), ==, 200);
        }
    }
  g_assert_cmpuint (n_waits, ==, 1);
  g_assert_nonnull (sample_event);
  g_assert_cmpint (tid_of (loaded, sample_event->thread), ==, 101);
  g_assert_cmpint (ws_event_duration (sample_event), ==, 250000);
  g_assert_cmpstr (ws_trace_get_string (loaded, ws_event_name (sample_event)), ==, "cpu-clock");
  stack = describe_stack (loaded, sample_event->stack);
  g_assert_cmpstr (stack, ==, "[main@/usr/lib/libx.so;leaf_fn@/usr/lib/libx.so;");
}

/* ---- the law: compact and plain say the same ------------------------- */

typedef struct {
  guint64 time;
  guint   cpu;
  gboolean is_switch;
  gint32  prev;     /* switch: the thread switched out; waking: the waker (-1: not known yet) */
  gint32  next;     /* switch: next; waking: the thread woken */
  guint64 state;
} RandomEvent;

static const char *
comm_of (gint32 tid,
         char   buf[16])
{
  if (tid == 0)
    return "swapper";
  g_snprintf (buf, 16, "t%d", tid);
  return buf;
}

/* Compact bundles of @events (one CPU's), as Perfetto writes them. */
static GByteArray *
compact_bundle (guint        cpu,
                RandomEvent *events,
                guint        n)
{
  GByteArray *bundle = g_byte_array_new (), *compact = g_byte_array_new ();
  GByteArray *arrays[8];
  g_autoptr(GPtrArray) table = g_ptr_array_new_with_free_func (g_free);
  guint64 last_switch = 0, last_waking = 0;

  for (guint i = 0; i < 8; i++)
    arrays[i] = g_byte_array_new ();
  for (guint i = 0; i < n; i++)
    {
      RandomEvent *e = &events[i];
      char buf[16];
      const char *comm = comm_of (e->next, buf);
      guint index = table->len;

      for (guint k = 0; k < table->len; k++)
        if (g_str_equal (table->pdata[k], comm))
          index = k;
      if (index == table->len)
        g_ptr_array_add (table, g_strdup (comm));
      if (e->is_switch)
        {
          pbw_varint (arrays[0], e->time - last_switch);
          last_switch = e->time;
          pbw_varint (arrays[1], e->state);
          pbw_varint (arrays[2], (guint64) e->next);
          pbw_varint (arrays[3], 120);
          pbw_varint (arrays[4], index);
        }
      else
        {
          pbw_varint (arrays[5], e->time - last_waking);
          last_waking = e->time;
          pbw_varint (arrays[6], (guint64) e->next);
          pbw_varint (arrays[7], index);
        }
    }
  for (guint k = 0; k < table->len; k++)
    pbw_string (compact, 5, table->pdata[k]);
  {
    static const guint numbers[8] = { 1, 2, 3, 4, 6, 7, 8, 11 };
    for (guint i = 0; i < 8; i++)
      {
        if (arrays[i]->len > 0)
          pbw_bytes (compact, numbers[i], arrays[i]->data, arrays[i]->len);
        g_byte_array_unref (arrays[i]);
      }
  }
  pbw_uint (bundle, 1, cpu);
  pbw_message (bundle, 4, compact);
  return bundle;
}

static void
random_history (GArray *events,
                guint   n_cpus,
                guint   n_threads,
                guint   n)
{
  gint32 running[4] = { -1, -1, -1, -1 };
  guint64 time = 1000000;

  for (guint k = 0; k < n; k++)
    {
      RandomEvent e = { 0 };
      static const guint64 states[] = { 0, 1, 1, 2, 128, 256 };

      time += 1 + g_test_rand_int_range (0, 50000);
      e.time = time;
      e.cpu = g_test_rand_int_range (0, n_cpus);
      e.prev = running[e.cpu];
      e.is_switch = g_test_rand_int_range (0, 10) < 6;
      for (guint tries = 0; e.is_switch; tries++)
        {
          gboolean busy = FALSE;

          /* A thread runs on one CPU at a time; the idle task (0) on any. */
          e.next = g_test_rand_int_range (0, n_threads + 1);
          for (guint c = 0; c < n_cpus; c++)
            busy |= e.next != 0 && running[c] == e.next;
          if (!busy && e.next != e.prev)
            break;
          if (tries > 100)
            e.is_switch = FALSE;   /* nothing else can run: a waking instead */
        }
      if (e.is_switch)
        {
          e.state = e.prev <= 0 ? 0 : states[g_test_rand_int_range (0, G_N_ELEMENTS (states))];
          running[e.cpu] = e.next;
        }
      else
        e.next = g_test_rand_int_range (1, n_threads + 1);
      g_array_append_val (events, e);
    }
}

static void
test_random_compact_law (void)
{
  for (guint round = 0; round < 40; round++)
    {
      guint n_cpus = g_test_rand_int_range (1, 5), n_threads = g_test_rand_int_range (2, 12);
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (RandomEvent));
      g_autoptr(GByteArray) plain = g_byte_array_new ();
      g_autoptr(GByteArray) compact = g_byte_array_new ();
      GByteArray *tree = g_byte_array_new ();
      g_autofree char *plain_path = NULL, *compact_path = NULL;
      g_autoptr(WsTrace) a = NULL;
      g_autoptr(WsTrace) b = NULL;

      random_history (events, n_cpus, n_threads, g_test_rand_int_range (20, 400));
      for (guint t = 1; t <= n_threads; t++)
        {
          GByteArray *p = g_byte_array_new ();
          char buf[16];

          pbw_uint (p, 1, t);
          pbw_string (p, 3, comm_of (t, buf));
          pbw_uint (p, 9, 1);
          pbw_message (tree, 1, p);
        }
      pbw_message (plain, 1, g_byte_array_ref (tree));
      pbw_message (compact, 1, tree);

      /* Plain: one event per bundle, what the compact one says only. */
      for (guint i = 0; i < events->len; i++)
        {
          RandomEvent *e = &g_array_index (events, RandomEvent, i);
          GByteArray *bundle, *packet = g_byte_array_new ();
          char b1[16], b2[16];

          if (e->prev < 0)
            continue;   /* before its CPU's first switch */
          bundle = g_byte_array_new ();
          pbw_uint (bundle, 1, e->cpu);
          pbw_message (bundle, 2, e->is_switch ? plain_switch (e->time, e->prev, comm_of (e->prev, b1), e->state, e->next,
                                                                comm_of (e->next, b2))
                                               : plain_waking (e->time, e->prev, e->next, comm_of (e->next, b2)));
          pbw_uint (packet, 10, 1);
          pbw_message (packet, 1, bundle);
          pbw_message (plain, 1, packet);
        }
      /* Compact: each CPU's events in bundles of up to 16, CPUs interleaved. */
      for (guint start = 0; start < events->len; start += 16)
        for (guint cpu = 0; cpu < n_cpus; cpu++)
          {
            RandomEvent chunk[16];
            guint n = 0;
            GByteArray *packet;

            for (guint i = start; i < MIN (start + 16, events->len); i++)
              if (g_array_index (events, RandomEvent, i).cpu == cpu)
                chunk[n++] = g_array_index (events, RandomEvent, i);
            if (n == 0)
              continue;
            packet = g_byte_array_new ();
            pbw_uint (packet, 10, 1);
            pbw_message (packet, 1, compact_bundle (cpu, chunk, n));
            pbw_message (compact, 1, packet);
          }

      plain_path = write_temp (plain, "plain.pftrace");
      compact_path = write_temp (compact, "compact.pftrace");
      {
        g_autoptr(GError) error_a = NULL, error_b = NULL;

        a = ws_trace_loader_load (plain_path, NULL, NULL, NULL, NULL, &error_a);
        b = ws_trace_loader_load (compact_path, NULL, NULL, NULL, NULL, &error_b);
        /* A history with no event after a first switch is empty in both. */
        g_assert_true ((a == NULL) == (b == NULL));
        if (a == NULL)
          {
            g_assert_error (error_a, WS_ERROR, WS_ERROR_EMPTY);
            g_assert_error (error_b, WS_ERROR, WS_ERROR_EMPTY);
          }
      }
      remove_temp (plain_path);
      remove_temp (compact_path);
      if (a != NULL)
        assert_same_trace (a, b);
    }
}

/* ---- damaged files and detection ------------------------------------- */

/* A WS_ERROR "PATH:1: byte N of the Perfetto trace (…): …" with N = @offset
 * (-1: any), never a crash. */
static void
expect_error (GByteArray *data,
              gssize      offset,
              const char *fragment)
{
  g_autofree char *path = write_temp (data, "damaged.pftrace");
  g_autofree char *prefix = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

  remove_temp (path);
  g_assert_null (trace);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  prefix = offset >= 0 ? g_strdup_printf ("%s:1: byte %" G_GSSIZE_FORMAT " of the Perfetto trace", path, offset)
                       : g_strdup_printf ("%s:1: byte ", path);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  if (fragment != NULL)
    g_assert_nonnull (strstr (error->message, fragment));
}

static GByteArray *
one_bundle_trace (GByteArray *bundle)
{
  GByteArray *trace = g_byte_array_new ();
  GByteArray *packet = g_byte_array_new ();

  pbw_uint (packet, 10, 1);
  pbw_message (packet, 1, bundle);
  pbw_message (trace, 1, packet);
  return trace;
}

static void
test_bad_input (void)
{
  g_autofree char *path = data_path ("perfetto", "rwlock-writer.pftrace");
  g_autofree char *contents = NULL;
  gsize len;

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));

  /* Cut short, at several places (not between two packets, where the
   * file would be whole, only shorter): the packet that runs past the end. */
  for (guint i = 1; i < 8; i++)
    {
      g_autoptr(GByteArray) cut = g_byte_array_new ();
      gsize at = len * i / 8;

      for (gsize pos = 0; pos < len;)
        {
          guint64 v = 0;
          guint shift = 0;

          if (pos == at)
            at++;
          pos++;   /* the key: field 1, length-delimited */
          while (((guint8) contents[pos] & 0x80) != 0)
            v |= (guint64) ((guint8) contents[pos++] & 0x7f) << shift, shift += 7;
          v |= (guint64) ((guint8) contents[pos++] & 0x7f) << shift;
          pos += v;
        }

      g_byte_array_append (cut, (const guint8 *) contents, at);
      expect_error (cut, -1, "cut short");
    }

  /* A first packet longer than the file (a length of 1 GiB). */
  {
    g_autoptr(GByteArray) data = g_byte_array_new ();
    static const guint8 bytes[] = { 0x0a, 0x80, 0x80, 0x80, 0x80, 0x04, 0x40, 0x01, 0x50, 0x01, 0x0a, 0x02 };

    g_byte_array_append (data, bytes, sizeof bytes);
    expect_error (data, 0, "cut short");
  }

  /* A group (wire type 3) inside an ftrace bundle, at byte 8. */
  {
    GByteArray *bundle = g_byte_array_new ();
    g_autoptr(GByteArray) data = NULL;
    static const guint8 group[] = { 0x1b };

    pbw_uint (bundle, 1, 0);
    g_byte_array_append (bundle, group, 1);
    data = one_bundle_trace (bundle);
    g_assert_cmpuint (data->data[8], ==, 0x1b);
    expect_error (data, 8, "wire type");
  }

  /* A varint that never ends, in a sched_switch (at byte 12). */
  {
    GByteArray *bundle = g_byte_array_new ();
    GByteArray *event = g_byte_array_new ();
    GByteArray *sw = g_byte_array_new ();
    g_autoptr(GByteArray) data = NULL;
    static const guint8 endless[] = { 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    g_byte_array_append (sw, endless, sizeof endless);
    pbw_message (event, 4, sw);
    pbw_uint (bundle, 1, 0);
    pbw_message (bundle, 2, event);
    data = one_bundle_trace (bundle);
    g_assert_cmpuint (data->data[12], ==, 0x10);
    expect_error (data, 12, "varint");
  }

  /* Compact arrays of different lengths; a comm index past the table. */
  for (guint which = 0; which < 2; which++)
    {
      GByteArray *bundle = g_byte_array_new ();
      GByteArray *compact = g_byte_array_new ();
      GByteArray *values = g_byte_array_new ();
      g_autoptr(GByteArray) data = NULL;

      pbw_string (compact, 5, "t1");
      pbw_varint (values, 1000);
      pbw_varint (values, 10);
      pbw_bytes (compact, 1, values->data, values->len);     /* two timestamps */
      pbw_bytes (compact, 2, (const guint8 *) "\x01\x01", 2);
      pbw_bytes (compact, 3, (const guint8 *) "\x05\x06", 2);
      pbw_bytes (compact, 6, which == 0 ? (const guint8 *) "\x00" : (const guint8 *) "\x00\x07", which + 1);
      g_byte_array_unref (values);
      pbw_uint (bundle, 1, 0);
      pbw_message (bundle, 4, compact);
      data = one_bundle_trace (bundle);
      expect_error (data, -1, which == 0 ? "one entry per event" : "intern table");
    }
}

/* Detection by content: the real file's head, whatever its name; text
 * that starts with a newline is not claimed. */
static void
test_sniff (void)
{
  g_autofree char *path = data_path ("perfetto", "rwlock-writer.pftrace");
  g_autofree char *contents = NULL;
  gsize len;
  static const char * const texts[] = {
    "\nhello world\nthis is text\n",
    "\n\n\n# a comment\n",
    "\nperf 1234/1234 [000] 1.000000: cpu-clock:\n",
    "\n{\"format\": \"waitscope\"}\n",
  };

  if (path == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (ws_importers_sniff ((const guint8 *) contents, MIN (len, 4096)) == &ws_perfetto_importer);
  /* Any window of the head, as short as 16 bytes. */
  for (gsize n = 16; n < 4096; n += 97)
    g_assert_true (ws_importers_sniff ((const guint8 *) contents, n) == &ws_perfetto_importer);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_assert_false (ws_perfetto_importer.sniff ((const guint8 *) texts[i], strlen (texts[i])));

  /* Renamed without an extension, it still opens. */
  {
    g_autoptr(GByteArray) data = g_byte_array_new ();
    g_autofree char *renamed = NULL;
    g_autoptr(WsTrace) trace = NULL;

    g_byte_array_append (data, (const guint8 *) contents, len);
    renamed = write_temp (data, "trace");
    trace = load_path (renamed);
    remove_temp (renamed);
    g_assert_cmpuint (ws_trace_get_n_events (trace), >, 2000);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/perfetto/same-as-perf/rwlock-writer", "rwlock-writer", test_same_as_perf);
  g_test_add_data_func ("/perfetto/same-as-perf/oversub", "oversub", test_same_as_perf);
  g_test_add_data_func ("/perfetto/same-as-perf/sleep-cs", "sleep-cs", test_same_as_perf);
  g_test_add_func ("/perfetto/compact-as-plain", test_compact_as_plain);
  g_test_add_func ("/perfetto/random-compact-law", test_random_compact_law);
  g_test_add_data_func ("/perfetto/same-cause/oversub", "oversub", test_same_cause);
  g_test_add_data_func ("/perfetto/same-cause/sleep-cs", "sleep-cs", test_same_cause);
  g_test_add_func ("/perfetto/hand-built", test_hand_built);
  g_test_add_func ("/perfetto/bad-input", test_bad_input);
  g_test_add_func ("/perfetto/sniff", test_sniff);
  return g_test_run ();
}
