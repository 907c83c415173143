/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The JSON trace format: reading tests/data/hand-built.json (numbers worked
 * out by hand, see below), writing checked by json-glib's own parser, round
 * trips, and bad input of every kind.
 *
 * tests/data/hand-built.json, times as 1000 s + x µs:
 *
 *   thread   pid  events
 *   swapper  0    hw-service @800 → worker-b (blk_mq_end_request),
 *                 hw-service @905 → worker-a (hrtimer_wakeup)
 *   main     100  span 0-100, marker start @10, sample @50 (4 µs),
 *                 wait @100 S 300 µs (lock, woken by worker-a's unwait @400,
 *                 switched in @420: latency 20), span 420-600,
 *                 commit @590, preempt @600 50 µs, span 650-1000, start @700,
 *                 wait @1000 S 250 µs readier unknown, span 1250-1400,
 *                 commit @1300, start @1350, unwait → worker-b @1380,
 *                 abort @1390
 *   worker-a 100  span 300-400, unwait → main @400, wait @405 S 500 µs
 *                 (nanosleep, hrtimer @905, latency 5), span 910-1000,
 *                 start @950 (never ended)
 *   worker-b 100  span 0-200, wait @200 D 600 µs (fsync, I/O completion
 *                 @800, latency 30), span 830-900, wait @900 S 480 µs
 *                 (pipe, woken by main @1380, latency 40), span 1420-1500,
 *                 wait @1500 S 100 µs unfinished
 *
 * So: 28 events = 10 running (9 spans + 1 sample), 6 waits, 2 unwaits,
 * 2 hw-service, 1 preempt, 7 markers; time range 0 … 1600 µs.
 * Total wait: main 550 µs (2 waits, 1 unknown readier), worker-a 500 µs,
 * worker-b 1180 µs (3 waits, the unfinished one not "unknown").
 * Run spans: main 780 µs, worker-a 190 µs, worker-b 350 µs.
 * transaction (start → commit or abort, same thread): main [10, 590] 580 µs,
 * [700, 1300] 600 µs, [1350, 1390] 40 µs; worker-a's start has no end.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-error.h"
#include "ws-json-trace.h"
#include "ws-perf-importer.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"
#include "ws-trace-private.h"

#define BASE   G_GINT64_CONSTANT (1000000000000)
#define US(x)  (BASE + (gint64) (x) * 1000)

static char *tmp_dir;

static char *
data_path (const char *name)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
write_file (const char *path,
            const char *contents,
            gssize      len)
{
  g_autoptr(GError) error = NULL;
  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
}

static WsTrace *
load_hand_built (void)
{
  g_autofree char *path = data_path ("hand-built.json");
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* The event of @kind on thread @tid at time @t (there is exactly one). */
static guint
find_event (WsTrace     *trace,
            gint32       tid,
            WsEventKind  kind,
            WsTime       t)
{
  guint thread = ws_trace_find_thread (trace, tid);
  guint found = WS_NONE;

  g_assert_cmpuint (thread, !=, WS_NONE);
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    {
      const WsEvent *e = ws_trace_get_event (trace, i);
      if (e->thread == thread && e->kind == kind && e->time == t)
        {
          g_assert_cmpuint (found, ==, WS_NONE);
          found = i;
        }
    }
  g_assert_cmpuint (found, !=, WS_NONE);
  return found;
}

static const char *
leaf_function (WsTrace  *trace,
               WsStackId stack)
{
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  guint n;
  const WsFrameId *frames = ws_stack_table_get_stack (stacks, stack, &n);

  if (n == 0)
    return NULL;
  return ws_stack_table_get_frame (stacks, frames[n - 1])->function;
}

static void
assert_wait (WsTrace       *trace,
             gint32         tid,
             gint64         t_us,
             gint64         cost_us,
             gint64         latency_us,    /* -1 = unknown */
             WsReadierKind  readier,
             gint32         readier_tid,
             const char    *waiting_leaf,
             const char    *unwait_leaf)
{
  guint i = find_event (trace, tid, WS_EVENT_WAIT, US (t_us));
  const WsEvent *e = ws_trace_get_event (trace, i);
  guint readier_thread;

  g_assert_cmpint (ws_event_duration (e), ==, cost_us * 1000);
  if (latency_us < 0)
    g_assert_cmpuint (ws_trace_wait_ready_latency (trace, i), ==, WS_LATENCY_UNKNOWN);
  else
    g_assert_cmpuint (ws_trace_wait_ready_latency (trace, i), ==, latency_us * 1000);
  g_assert_cmpint (ws_trace_wait_readier (trace, i, &readier_thread), ==, readier);
  if (readier == WS_READIER_THREAD)
    g_assert_cmpint (ws_trace_get_thread (trace, readier_thread)->tid, ==, readier_tid);
  g_assert_cmpstr (leaf_function (trace, e->stack), ==, waiting_leaf);

  if (readier == WS_READIER_UNKNOWN)
    {
      g_assert_cmpuint (e->peer, ==, WS_NONE);
      g_assert_null (unwait_leaf);
    }
  else
    {
      const WsEvent *u = ws_trace_get_event (trace, e->peer);
      /* The back link: given in the file or filled in by the reader. */
      g_assert_cmpuint (u->peer, ==, i);
      g_assert_cmpuint (ws_event_target (u), ==, e->thread);
      g_assert_cmpstr (leaf_function (trace, u->stack), ==, unwait_leaf);
    }
}

static void
test_hand_built (void)
{
  g_autoptr(WsTrace) trace = load_hand_built ();
  guint main_thread, wb;
  const WsThread *t;
  const WsEvent *e;

  g_assert_cmpstr (ws_trace_get_name (trace), ==, "hand-built");
  g_assert_cmpuint (ws_trace_get_n_events (trace), ==, 28);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_RUNNING), ==, 10);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), ==, 6);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_UNWAIT), ==, 2);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_HW_SERVICE), ==, 2);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_PREEMPT), ==, 1);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_MARKER), ==, 7);
  g_assert_cmpint (ws_trace_get_start_time (trace), ==, US (0));
  g_assert_cmpint (ws_trace_get_end_time (trace), ==, US (1600));

  /* Sorted by time although the file lists the swapper events last. */
  for (guint i = 1; i < ws_trace_get_n_events (trace); i++)
    g_assert_cmpint (ws_trace_get_event (trace, i - 1)->time, <=, ws_trace_get_event (trace, i)->time);

  /* Threads in the order of "threads"; main's pid defaults to its tid. */
  g_assert_cmpuint (ws_trace_get_n_threads (trace), ==, 4);
  g_assert_cmpint (ws_trace_get_thread (trace, 0)->tid, ==, 0);
  g_assert_cmpint (ws_trace_get_thread (trace, 1)->tid, ==, 100);
  g_assert_cmpint (ws_trace_get_thread (trace, 2)->tid, ==, 101);
  g_assert_cmpint (ws_trace_get_thread (trace, 3)->tid, ==, 102);
  main_thread = ws_trace_find_thread (trace, 100);
  t = ws_trace_get_thread (trace, main_thread);
  g_assert_cmpint (t->pid, ==, 100);
  g_assert_cmpstr (t->name, ==, "main");
  g_assert_cmpuint (t->n_events, ==, 15);
  g_assert_cmpstr (ws_trace_get_process (trace, t->process)->name, ==, "app");
  g_assert_cmpuint (ws_trace_get_process (trace, t->process)->n_threads, ==, 3);
  g_assert_cmpuint (ws_trace_get_n_processes (trace), ==, 2);
  wb = ws_trace_find_thread (trace, 102);
  g_assert_cmpstr (ws_trace_get_thread (trace, wb)->name, ==, "worker-b");
  g_assert_cmpuint (ws_trace_get_thread (trace, wb)->n_events, ==, 6);

  assert_wait (trace, 100, 100, 300, 20, WS_READIER_THREAD, 101, "futex_wait", "futex_wake");
  assert_wait (trace, 102, 200, 600, 30, WS_READIER_HARDWARE, -1, "io_schedule", "blk_mq_end_request");
  assert_wait (trace, 101, 405, 500, 5, WS_READIER_HARDWARE, -1, "do_nanosleep", "hrtimer_wakeup");
  assert_wait (trace, 102, 900, 480, 40, WS_READIER_THREAD, 100, "pipe_read", "pipe_write");
  assert_wait (trace, 100, 1000, 250, -1, WS_READIER_UNKNOWN, -1, "futex_wait", NULL);
  assert_wait (trace, 102, 1500, 100, -1, WS_READIER_UNKNOWN, -1, "pipe_read", NULL);

  e = ws_trace_get_event (trace, find_event (trace, 102, WS_EVENT_WAIT, US (200)));
  g_assert_cmpint (e->state, ==, 'D');
  g_assert_cmpuint (e->flags, ==, WS_EVENT_FLAG_UNINTERRUPTIBLE);
  g_assert_cmpuint (e->cpu, ==, 1);
  e = ws_trace_get_event (trace, find_event (trace, 100, WS_EVENT_WAIT, US (1000)));
  g_assert_cmpuint (e->flags, ==, WS_EVENT_FLAG_READIER_UNKNOWN);
  e = ws_trace_get_event (trace, find_event (trace, 102, WS_EVENT_WAIT, US (1500)));
  g_assert_cmpuint (e->flags, ==, WS_EVENT_FLAG_UNFINISHED);
  e = ws_trace_get_event (trace, find_event (trace, 100, WS_EVENT_PREEMPT, US (600)));
  g_assert_cmpint (e->state, ==, 'R');
  g_assert_cmpint (ws_event_duration (e), ==, 50000);
  e = ws_trace_get_event (trace, find_event (trace, 100, WS_EVENT_RUNNING, US (50)));
  g_assert_cmpuint (e->flags, ==, 0);
  g_assert_cmpint (ws_event_duration (e), ==, 4000);
  g_assert_cmpstr (leaf_function (trace, e->stack), ==, "compute");

  /* Both stack forms intern to the same table: stack 1 of the file and the
   * inline lock stack share the frames "main" and "run_tx". */
  e = ws_trace_get_event (trace, find_event (trace, 100, WS_EVENT_WAIT, US (100)));
  {
    WsStackTable *stacks = ws_trace_get_stack_table (trace);
    guint n;
    const WsFrameId *f = ws_stack_table_get_stack (stacks, e->stack, &n);
    g_assert_cmpuint (n, ==, 4);
    g_assert_cmpstr (ws_stack_table_get_frame (stacks, f[0])->function, ==, "main");
    g_assert_cmpstr (ws_stack_table_get_frame (stacks, f[0])->module, ==, "/usr/bin/app");
    g_assert_cmpstr (ws_stack_table_get_frame (stacks, f[3])->module, ==, "[kernel.kallsyms]");
    g_assert_cmpuint (f[0], ==, ws_stack_table_intern_frame (stacks, "main", "/usr/bin/app"));
  }

  e = ws_trace_get_event (trace, find_event (trace, 100, WS_EVENT_MARKER, US (1390)));
  g_assert_cmpstr (ws_trace_get_string (trace, ws_event_name (e)), ==, "sdt_postgresql:transaction__abort");

  /* The reader does not apply scenario rules; the loader does. */
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 0);
}

/* ---------------------------------------------------------------------- */
/* Model equality, field by field */

static void
assert_same_stack (WsTrace   *a,
                   WsStackId  sa,
                   WsTrace   *b,
                   WsStackId  sb)
{
  WsStackTable *ta = ws_trace_get_stack_table (a);
  WsStackTable *tb = ws_trace_get_stack_table (b);
  guint na, nb;
  const WsFrameId *fa = ws_stack_table_get_stack (ta, sa, &na);
  const WsFrameId *fb = ws_stack_table_get_stack (tb, sb, &nb);

  g_assert_cmpuint (na, ==, nb);
  for (guint k = 0; k < na; k++)
    {
      g_assert_cmpstr (ws_stack_table_get_frame (ta, fa[k])->function, ==,
                       ws_stack_table_get_frame (tb, fb[k])->function);
      g_assert_cmpstr (ws_stack_table_get_frame (ta, fa[k])->module, ==,
                       ws_stack_table_get_frame (tb, fb[k])->module);
    }
}

static void
assert_traces_equal (WsTrace *a,
                     WsTrace *b)
{
  guint n = ws_trace_get_n_events (a);
  g_autoptr(GHashTable) checked = g_hash_table_new (NULL, NULL);

  g_assert_cmpstr (ws_trace_get_name (a), ==, ws_trace_get_name (b));
  g_assert_cmpuint (n, ==, ws_trace_get_n_events (b));
  g_assert_cmpint (ws_trace_get_start_time (a), ==, ws_trace_get_start_time (b));
  g_assert_cmpint (ws_trace_get_end_time (a), ==, ws_trace_get_end_time (b));

  g_assert_cmpuint (ws_trace_get_n_threads (a), ==, ws_trace_get_n_threads (b));
  for (guint t = 0; t < ws_trace_get_n_threads (a); t++)
    {
      const WsThread *ta = ws_trace_get_thread (a, t);
      const WsThread *tb = ws_trace_get_thread (b, t);

      g_assert_cmpint (ta->tid, ==, tb->tid);
      g_assert_cmpint (ta->pid, ==, tb->pid);
      g_assert_cmpstr (ta->name, ==, tb->name);
      g_assert_cmpuint (ta->process, ==, tb->process);
      g_assert_cmpuint (ta->n_events, ==, tb->n_events);
      g_assert_cmpint (ta->first_seen, ==, tb->first_seen);
      g_assert_cmpint (ta->last_seen, ==, tb->last_seen);
      g_assert_cmpmem (ta->events, ta->n_events * sizeof (guint32), tb->events, tb->n_events * sizeof (guint32));
    }

  g_assert_cmpuint (ws_trace_get_n_processes (a), ==, ws_trace_get_n_processes (b));
  for (guint p = 0; p < ws_trace_get_n_processes (a); p++)
    {
      const WsProcess *pa = ws_trace_get_process (a, p);
      const WsProcess *pb = ws_trace_get_process (b, p);

      g_assert_cmpint (pa->pid, ==, pb->pid);
      g_assert_cmpstr (pa->name, ==, pb->name);
      g_assert_cmpuint (pa->n_threads, ==, pb->n_threads);
    }

  for (guint i = 0; i < n; i++)
    {
      const WsEvent *ea = ws_trace_get_event (a, i);
      const WsEvent *eb = ws_trace_get_event (b, i);

      g_assert_cmpint (ea->time, ==, eb->time);
      g_assert_cmpint (ws_event_duration (ea), ==, ws_event_duration (eb));
      g_assert_cmpuint (ea->thread, ==, eb->thread);
      g_assert_cmpuint (ws_event_peer (ea), ==, ws_event_peer (eb));
      g_assert_cmpuint (ws_trace_wait_ready_latency (a, i), ==, ws_trace_wait_ready_latency (b, i));
      g_assert_cmpuint (ea->cpu, ==, eb->cpu);
      g_assert_cmpuint (ea->kind, ==, eb->kind);
      g_assert_cmpuint (ea->flags, ==, eb->flags);
      g_assert_cmpint (ea->state, ==, eb->state);
      if (ws_event_is_named (ea))
        g_assert_cmpstr (ws_trace_get_string (a, ws_event_name (ea)), ==, ws_trace_get_string (b, ws_event_name (eb)));
      else
        g_assert_cmpuint (ws_event_target (ea), ==, ws_event_target (eb));
      /* Each distinct stack compared once: traces share few stacks. */
      if (ws_trace_get_stack_table (a) != ws_trace_get_stack_table (b)
          && !g_hash_table_contains (checked, GUINT_TO_POINTER (ea->stack + 1)))
        {
          assert_same_stack (a, ea->stack, b, eb->stack);
          g_hash_table_add (checked, GUINT_TO_POINTER (ea->stack + 1));
        }
      else if (ws_trace_get_stack_table (a) == ws_trace_get_stack_table (b))
        g_assert_cmpuint (ea->stack, ==, eb->stack);
    }

  g_assert_cmpuint (ws_trace_get_n_scenario_instances (a), ==, ws_trace_get_n_scenario_instances (b));
  for (guint k = 0; k < ws_trace_get_n_scenario_instances (a); k++)
    {
      const WsScenarioInstance *ia = ws_trace_get_scenario_instance (a, k);
      const WsScenarioInstance *ib = ws_trace_get_scenario_instance (b, k);

      g_assert_cmpstr (ws_trace_get_string (a, ia->scenario), ==, ws_trace_get_string (b, ib->scenario));
      g_assert_cmpuint (ia->thread, ==, ib->thread);
      g_assert_cmpint (ia->t0, ==, ib->t0);
      g_assert_cmpint (ia->t1, ==, ib->t1);
      g_assert_cmpuint (ia->begin_event, ==, ib->begin_event);
      g_assert_cmpuint (ia->end_event, ==, ib->end_event);
    }
}

static WsTrace *
save_and_reload (WsTrace    *trace,
                 const char *name,
                 gboolean    shared_stacks)
{
  g_autofree char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;
  WsTrace *copy;

  g_assert_true (ws_json_trace_save (trace, path, NULL, &error));
  g_assert_no_error (error);
  copy = ws_json_trace_load (path, shared_stacks ? ws_trace_get_stack_table (trace) : NULL,
                             NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (copy);
  return copy;
}

static void
test_round_trip_hand_built (void)
{
  g_autoptr(WsTrace) trace = load_hand_built ();
  g_autoptr(WsTrace) copy = NULL;
  g_autoptr(WsTrace) shared = NULL;
  g_autoptr(WsTrace) gz = NULL;
  g_autoptr(WsTrace) again = NULL;
  g_autofree char *gz_path = tmp_path ("hand-built.json.gz");
  g_autofree char *head = NULL;
  gsize len;

  /* With instances, so that they are part of the round trip too. */
  g_assert_cmpuint (ws_trace_add_scenario_instances (trace, "transaction",
                                                     "sdt_postgresql:transaction__start",
                                                     "sdt_postgresql:transaction__commit"), ==, 2);

  copy = save_and_reload (trace, "round-trip.json", FALSE);
  assert_traces_equal (trace, copy);
  shared = save_and_reload (trace, "round-trip-shared.json", TRUE);
  assert_traces_equal (trace, shared);

  gz = save_and_reload (trace, "hand-built.json.gz", FALSE);
  assert_traces_equal (trace, gz);
  g_assert_true (g_file_get_contents (gz_path, &head, &len, NULL));
  g_assert_cmpuint ((guchar) head[0], ==, 0x1f);
  g_assert_cmpuint ((guchar) head[1], ==, 0x8b);

  /* Written → read → written again gives the same model once more. */
  again = save_and_reload (copy, "round-trip-2.json", FALSE);
  assert_traces_equal (trace, again);
}

/* ---------------------------------------------------------------------- */
/* The writer, checked by an independent parser (json-glib) */

static const char *awkward_names[] = {
  "quote\" backslash\\ slash/",
  "new\nline\ttab\rcr\bbs\fff",
  "ctl\x01\x1f end",
  "UTF-8: é ü 漢字 😀",
  "(anonymous namespace)::operator() (int)",
};

static WsTrace *
build_awkward_trace (void)
{
  WsTrace *trace = ws_trace_new ("awkward.json", NULL);
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  WsFrameId frames[G_N_ELEMENTS (awkward_names)];
  guint t0, t1;

  for (guint i = 0; i < G_N_ELEMENTS (awkward_names); i++)
    frames[i] = ws_stack_table_intern_frame (stacks, awkward_names[i], awkward_names[(i + 1) % G_N_ELEMENTS (awkward_names)]);

  t0 = ws_trace_ensure_thread (trace, 7, 7);
  ws_trace_set_thread_name (trace, t0, awkward_names[0]);
  t1 = ws_trace_ensure_thread (trace, -1, -1);   /* negative ids survive */
  ws_trace_set_thread_name (trace, t1, awkward_names[3]);
  ws_trace_set_process_name (trace, 7, awkward_names[1]);

  {
    WsEvent wait = { .time = -5, .u.duration = G_MAXINT64 / 4, .thread = t0, .peer = 1,
                     .cpu = 65535, .kind = WS_EVENT_WAIT,
                     .flags = (1u << WS_EVENT_N_FLAG_BITS) - 1, .state = 'D',
                     .stack = ws_stack_table_intern_stack (stacks, frames, G_N_ELEMENTS (frames)) };
    WsEvent unwait = { .time = 10, .thread = t1, .peer = 0, .u.wake = { t0, WS_LATENCY_UNKNOWN },
                       .kind = WS_EVENT_UNWAIT,
                       .stack = ws_stack_table_intern_stack (stacks, frames + 1, 2) };
    WsEvent marker = { .time = 10, .thread = t1, .kind = WS_EVENT_MARKER,
                       .peer = ws_trace_intern_string (trace, awkward_names[2]) };
    ws_trace_add_event (trace, &wait);
    ws_trace_add_event (trace, &unwait);
    ws_trace_add_event (trace, &marker);
    ws_trace_set_wait_ready_latency (trace, 0, 0);
  }
  ws_trace_set_name (trace, awkward_names[4]);
  ws_trace_finish (trace);
  return trace;
}

/* The 32-byte event keeps a wake-up's target and its wait's ready latency
 * in the wake-up's duration word, and a sample's or marker's name in its
 * peer word (WsEvent).  Law, over random traces built in random order
 * (latencies set before or after the links, events out of time order,
 * waits with a latency and no wake-up): every accessor reads back what was
 * set, whatever the kind, and a JSON round trip keeps it.  Oracle: the
 * values drawn, kept by each event's unique time. */
static void
test_event_words_random (void)
{
  for (guint seed = 1; seed <= 40; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(WsTrace) trace = ws_trace_new ("/tmp/words.json", NULL);
      g_autoptr(WsTrace) copy = NULL;
      g_autoptr(GHashTable) latency = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autoptr(GHashTable) word = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autoptr(GHashTable) duration = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
      guint n_threads = g_rand_int_range (rand, 1, 5), n = g_rand_int_range (rand, 0, 80);
      guint32 names[3];
      g_autofree guint *times = g_new (guint, MAX (n, 1));

      for (guint t = 0; t < n_threads; t++)
        ws_trace_ensure_thread (trace, 100 + t, 100);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          g_autofree char *name = g_strdup_printf ("probe:p%u", k);
          names[k] = ws_trace_intern_string (trace, name);
        }
      /* Unique times, in shuffled order: the finish sorts them. */
      for (guint i = 0; i < n; i++)
        times[i] = i;
      for (guint i = n; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i), x = times[i - 1];
          times[i - 1] = times[j];
          times[j] = x;
        }

#define KEEP(table, t, v) G_STMT_START { \
      gint64 *key_ = g_new (gint64, 1); *key_ = (t); g_ptr_array_add (keys, key_); \
      g_hash_table_insert ((table), key_, GSIZE_TO_POINTER ((gsize) (v) + 1)); } G_STMT_END
#define KEPT(table, t) ((gsize) GPOINTER_TO_SIZE (g_hash_table_lookup ((table), &(gint64) { (t) })) - 1)

      for (guint i = 0; i < n; i++)
        {
          WsTime time = (WsTime) times[i] * 10000;
          guint thread = g_rand_int_range (rand, 0, n_threads);
          WsEventKind kind = g_rand_int_range (rand, 0, WS_N_EVENT_KINDS);
          WsEvent e;
          guint index;

          ws_event_init (&e, kind, time, thread);
          e.cpu = g_rand_int_range (rand, 0, 65536);
          if (kind == WS_EVENT_WAIT)
            {
              WsTime d = g_rand_int_range (rand, 1, 5000);
              guint32 lat = g_rand_boolean (rand) ? (guint32) g_rand_int_range (rand, 0, 1000000) : WS_LATENCY_UNKNOWN;
              gboolean woken = g_rand_int_range (rand, 0, 3) > 0, early = g_rand_boolean (rand);
              WsEvent w;
              guint wi;

              ws_event_set_duration (&e, d);
              e.state = 'S';
              index = ws_trace_add_event (trace, &e);
              KEEP (duration, time, d);
              KEEP (latency, time, lat);
              if (lat != WS_LATENCY_UNKNOWN && early)
                ws_trace_set_wait_ready_latency (trace, index, lat);
              if (woken)
                {
                  /* Its wake-up, 5 µs in: no other event is at that time. */
                  ws_event_init (&w, g_rand_boolean (rand) ? WS_EVENT_UNWAIT : WS_EVENT_HW_SERVICE,
                                 time + 5000, g_rand_int_range (rand, 0, n_threads));
                  ws_event_set_target (&w, thread);
                  w.peer = index;
                  wi = ws_trace_add_event (trace, &w);
                  ws_trace_peek_event (trace, index)->peer = wi;
                  KEEP (word, time + 5000, thread);
                }
              if (lat != WS_LATENCY_UNKNOWN && !early)
                ws_trace_set_wait_ready_latency (trace, index, lat);
              continue;
            }
          if (ws_event_is_wake (&e))
            {
              guint32 target = g_rand_boolean (rand) ? (guint32) g_rand_int_range (rand, 0, n_threads) : WS_NONE;
              ws_event_set_target (&e, target);
              KEEP (word, time, target);
            }
          else if (ws_event_is_named (&e))
            {
              guint32 name = g_rand_boolean (rand) ? names[g_rand_int_range (rand, 0, 3)] : WS_NONE;
              WsTime d = kind == WS_EVENT_RUNNING ? g_rand_int_range (rand, 0, 5000) : 0;
              ws_event_set_name (&e, name);
              ws_event_set_duration (&e, d);
              KEEP (word, time, name);
              KEEP (duration, time, d);
            }
          else
            {
              WsTime d = g_rand_int_range (rand, 0, 5000);
              ws_event_set_duration (&e, d);
              e.state = 'R';
              KEEP (duration, time, d);
            }
          ws_trace_add_event (trace, &e);
        }
      ws_trace_finish (trace);

      for (guint pass = 0; pass < 2; pass++)
        {
          WsTrace *t = pass == 0 ? trace : copy;

          for (guint i = 0; i < ws_trace_get_n_events (t); i++)
            {
              const WsEvent *e = ws_trace_get_event (t, i);

              g_assert_cmpuint (ws_trace_wait_ready_latency (t, i), ==,
                                e->kind == WS_EVENT_WAIT ? (guint32) KEPT (latency, e->time) : WS_LATENCY_UNKNOWN);
              if (ws_event_is_wake (e))
                {
                  g_assert_cmpint (ws_event_duration (e), ==, 0);
                  g_assert_cmpuint (ws_event_target (e), ==, (guint32) KEPT (word, e->time));
                  g_assert_cmpuint (ws_event_name (e), ==, WS_NONE);
                  if (ws_event_peer (e) != WS_NONE)
                    g_assert_cmpuint (ws_event_peer (ws_trace_get_event (t, ws_event_peer (e))), ==, i);
                }
              else
                {
                  g_assert_cmpint (ws_event_duration (e), ==, (WsTime) KEPT (duration, e->time));
                  g_assert_cmpuint (ws_event_target (e), ==, WS_NONE);
                }
              if (ws_event_is_named (e))
                {
                  g_assert_cmpuint (ws_event_peer (e), ==, WS_NONE);
                  if (pass == 0)
                    g_assert_cmpuint (ws_event_name (e), ==, (guint32) KEPT (word, e->time));
                }
              else
                g_assert_cmpuint (ws_event_name (e), ==, WS_NONE);
              if (e->kind == WS_EVENT_WAIT && ws_event_peer (e) != WS_NONE)
                g_assert_cmpint (ws_trace_get_event (t, ws_event_peer (e))->time, ==, e->time + 5000);
            }
          if (pass == 0)
            {
              copy = save_and_reload (trace, "words.json", FALSE);
              assert_traces_equal (trace, copy);
            }
        }
#undef KEEP
#undef KEPT
    }
}

static void
test_writer_checked_by_json_glib (void)
{
  g_autoptr(WsTrace) trace = build_awkward_trace ();
  g_autoptr(WsTrace) copy = NULL;
  g_autofree char *path = tmp_path ("awkward.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *ev;
  JsonArray *frames, *events, *flags;

  copy = save_and_reload (trace, "awkward.json", FALSE);
  assert_traces_equal (trace, copy);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "waitscope-trace");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, awkward_names[4]);

  frames = json_object_get_array_member (root, "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, G_N_ELEMENTS (awkward_names));
  for (guint i = 0; i < G_N_ELEMENTS (awkward_names); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (frames, i), "function"),
                     ==, awkward_names[i]);

  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (root, "threads"), 1), "name"),
                   ==, awkward_names[3]);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_object_get_array_member (root, "threads"), 1), "tid"),
                   ==, -1);

  events = json_object_get_array_member (root, "events");
  g_assert_cmpuint (json_array_get_length (events), ==, 3);
  ev = json_array_get_object_element (events, 0);
  g_assert_cmpstr (json_object_get_string_member (ev, "kind"), ==, "wait");
  g_assert_cmpint (json_object_get_int_member (ev, "t"), ==, -5);
  g_assert_cmpint (json_object_get_int_member (ev, "dur"), ==, G_MAXINT64 / 4);
  g_assert_cmpint (json_object_get_int_member (ev, "cpu"), ==, 65535);
  g_assert_cmpint (json_object_get_int_member (ev, "latency"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (ev, "state"), ==, "D");
  flags = json_object_get_array_member (ev, "flags");
  g_assert_cmpuint (json_array_get_length (flags), ==, WS_EVENT_N_FLAG_BITS);
  g_assert_cmpstr (json_array_get_string_element (flags, 1), ==, "readier-unknown");
  g_assert_cmpstr (json_array_get_string_element (flags, 5), ==, "to-idle");
  ev = json_array_get_object_element (events, 1);
  g_assert_cmpint (json_object_get_int_member (ev, "peer"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (ev, "target"), ==, 7);
  ev = json_array_get_object_element (events, 2);
  g_assert_cmpstr (json_object_get_string_member (ev, "name"), ==, awkward_names[2]);
}

static void
test_reader_escapes (void)
{
  static const char doc[] =
    "{\"format\":\"waitscope-trace\",\"version\":1,\"threads\":[{\"tid\":1,"
    "\"name\":\"a\\u00e9\\ud83d\\ude00\\/\\\"\\\\\\n\\t\\b\\f\\r\"}],"
    "\"events\":[{\"kind\":\"running\",\"t\":-0,\"tid\":1,\"x\":[1.5e3,-2E-2,true,false,null,{}]}]}";
  g_autofree char *path = tmp_path ("escapes.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  write_file (path, doc, -1);
  trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ws_trace_get_thread (trace, 0)->name, ==, "aé😀/\"\\\n\t\b\f\r");
  g_assert_cmpint (ws_trace_get_thread (trace, 0)->pid, ==, 1);
  g_assert_cmpint (ws_trace_get_event (trace, 0)->time, ==, 0);
}

/* ---------------------------------------------------------------------- */
/* Bad input: a clear error naming file and line, never a crash */

static void
assert_load_error (const char *path,
                   WsError     code,
                   guint       line,
                   const char *detail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("“%s” does not start with “%s”", error->message, prefix);
  if (detail != NULL && strstr (error->message, detail) == NULL)
    g_error ("“%s” does not say “%s”", error->message, detail);
}

static void
assert_doc_error (const char *doc,
                  WsError     code,
                  guint       line,
                  const char *detail)
{
  g_autofree char *path = tmp_path ("bad.json");
  write_file (path, doc, -1);
  assert_load_error (path, code, line, detail);
}

#define HEAD "{\"format\": \"waitscope-trace\", \"version\": 1,\n\"threads\": [{\"tid\": 1}],\n"

static void
test_bad_truncated (void)
{
  g_autofree char *src = data_path ("hand-built.json");
  g_autofree char *path = tmp_path ("truncated.json");
  g_autofree char *contents = NULL;
  gsize len;
  char *cut;
  guint lines = 1;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  /* Cut in the middle of event 14's line. */
  cut = strstr (contents, "{\"kind\": \"running\", \"t\": 1000000830000") + 22;
  for (char *p = contents; p < cut; p++)
    lines += *p == '\n';
  write_file (path, contents, cut - contents);
  assert_load_error (path, WS_ERROR_TRUNCATED, lines, "ends inside a string");

  /* Cut after a complete token: "expected …, found the end of the input". */
  cut = strstr (contents, "\"stacks\"");
  write_file (path, contents, cut - contents);
  assert_load_error (path, WS_ERROR_TRUNCATED, 28, "end of the input");
}

static void
test_bad_every_prefix (void)
{
  g_autofree char *src = data_path ("hand-built.json");
  g_autofree char *path = tmp_path ("prefix.json");
  g_autofree char *contents = NULL;
  gsize len;

  /* Every proper prefix of a valid document is an error, never a crash
   * nor a partial trace. */
  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  for (gsize cut = 0; cut + 1 < len; cut += 7)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;

      write_file (path, contents, cut);
      trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
      g_assert_null (trace);
      g_assert_nonnull (error);
      g_assert_true (g_str_has_prefix (error->message, path));
    }
}

static void
test_bad_binary (void)
{
  g_autofree char *path = tmp_path ("garbage.json");
  GRand *rand = g_rand_new_with_seed (42);
  char garbage[4096];

  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);

  /* Starting like JSON, then binary: a NUL or an unexpected byte. */
  garbage[0] = '{';
  garbage[1] = '"';
  garbage[2] = 'a';
  garbage[3] = '\0';
  write_file (path, garbage, sizeof garbage);
  assert_load_error (path, WS_ERROR_BINARY, 1, "binary");

  /* No JSON at all. */
  memcpy (garbage, "\x7f" "ELF\x02\x01", 6);
  write_file (path, garbage, sizeof garbage);
  assert_load_error (path, WS_ERROR_PARSE, 1, "does not start with “{”");
}

static void
test_bad_missing_field (void)
{
  assert_doc_error (HEAD "\"events\": [\n"
                    "  {\"kind\": \"running\", \"t\": 1, \"tid\": 1},\n"
                    "  {\"t\": 2, \"tid\": 1}\n]}",
                    WS_ERROR_MISSING_FIELD, 5, "event 1: missing member “kind”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"running\", \"tid\": 1}]}",
                    WS_ERROR_MISSING_FIELD, 4, "event 0: missing member “t”");
  assert_doc_error (HEAD "\"frames\": [{\"module\": \"m\"}]}",
                    WS_ERROR_MISSING_FIELD, 3, "frame 0: missing member “function”");
  assert_doc_error ("{\"version\": 1, \"threads\": []}", WS_ERROR_MISSING_FIELD, 1, "“format”");
  assert_doc_error ("{\"format\": \"waitscope-trace\"}", WS_ERROR_MISSING_FIELD, 1, "“version”");
  assert_doc_error (HEAD "\"scenario_instances\": [{\"scenario\": \"x\", \"tid\": 1, \"t0\": 5}]}",
                    WS_ERROR_MISSING_FIELD, 3, "“t1”");
}

static void
test_bad_empty (void)
{
  assert_doc_error ("", WS_ERROR_EMPTY, 1, "empty");
  assert_doc_error ("\n\n  \n", WS_ERROR_EMPTY, 4, "empty");
}

static void
test_bad_references (void)
{
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"running\", \"t\": 1, \"tid\": 2}]}",
                    WS_ERROR_INVALID, 4, "thread 2 is not listed");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"stack\": 3}]}",
                    WS_ERROR_INVALID, 4, "stack 3 does not exist");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"peer\": 1}]}",
                    WS_ERROR_INVALID, 4, "peer event 1 does not exist");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"peer\": 1},\n"
                    "{\"kind\": \"running\", \"t\": 2, \"tid\": 1}]}",
                    WS_ERROR_INVALID, 4, "must be an unwait");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"unwait\", \"t\": 1, \"tid\": 1, \"target\": 9}]}",
                    WS_ERROR_INVALID, 4, "target thread 9");
  assert_doc_error (HEAD "\"frames\": [{\"function\": \"f\"}],\n\"stacks\": [[], [0],\n [0, 1]]}",
                    WS_ERROR_INVALID, 5, "stack 2: frame 1 does not exist");
  assert_doc_error (HEAD "\"stacks\": [[0]]}", WS_ERROR_PARSE, 3, "stack 0 must be the empty stack");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"marker\", \"t\": 1, \"tid\": 1}],\n"
                    "\"scenario_instances\": [{\"scenario\": \"x\", \"tid\": 1, \"t0\": 1, \"t1\": 1, \"end\": 4}]}",
                    WS_ERROR_INVALID, 5, "event 4 does not exist");
  assert_doc_error (HEAD "\"threads\": [{\"tid\": 1}]}", WS_ERROR_PARSE, 3, "tid 1 is listed twice");
}

/* A tid the system reused after its thread ended: each thread with it is
 * told apart by "life", read back the same, written back the same. */
static void
test_reused_tid (void)
{
  const char *doc =
    "{\"format\": \"waitscope-trace\", \"version\": 1,\n"
    "\"threads\": [{\"tid\": 1, \"name\": \"waker\"}, {\"tid\": 5, \"name\": \"old\"},\n"
    "  {\"tid\": 5, \"life\": 1, \"name\": \"new\"}],\n"
    "\"events\": [\n"
    "{\"kind\": \"wait\", \"t\": 10, \"dur\": 5, \"tid\": 5, \"peer\": 1},\n"
    "{\"kind\": \"unwait\", \"t\": 15, \"tid\": 1, \"target\": 5, \"peer\": 0},\n"
    "{\"kind\": \"wait\", \"t\": 20, \"dur\": 7, \"tid\": 5, \"life\": 1, \"peer\": 3},\n"
    "{\"kind\": \"unwait\", \"t\": 27, \"tid\": 1, \"target\": 5, \"target_life\": 1, \"peer\": 2}],\n"
    "\"scenario_instances\": [{\"scenario\": \"s\", \"tid\": 5, \"life\": 1, \"t0\": 20, \"t1\": 27}]}";
  g_autofree char *path = tmp_path ("reused-tid.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTrace) copy = NULL;
  const WsEvent *events;

  write_file (path, doc, -1);
  trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_threads (trace), ==, 3);
  events = ws_trace_get_events (trace);
  g_assert_cmpstr (ws_trace_get_thread (trace, events[0].thread)->name, ==, "old");
  g_assert_cmpstr (ws_trace_get_thread (trace, ws_event_target (&events[1]))->name, ==, "old");
  g_assert_cmpstr (ws_trace_get_thread (trace, events[2].thread)->name, ==, "new");
  g_assert_cmpstr (ws_trace_get_thread (trace, ws_event_target (&events[3]))->name, ==, "new");
  g_assert_cmpstr (ws_trace_get_thread (trace, ws_trace_get_scenario_instance (trace, 0)->thread)->name,
                   ==, "new");
  /* As after a perf import, the tid names its last thread. */
  g_assert_cmpstr (ws_trace_get_thread (trace, ws_trace_find_thread (trace, 5))->name, ==, "new");

  copy = save_and_reload (trace, "reused-tid-copy.json", FALSE);
  assert_traces_equal (trace, copy);

  assert_doc_error (HEAD "\"threads\": [{\"tid\": 2, \"life\": 1}]}",
                    WS_ERROR_PARSE, 3, "life 1 of tid 2 comes before its life 0");
  assert_doc_error (HEAD "\"threads\": [{\"tid\": 1, \"life\": 1}, {\"tid\": 1, \"life\": 1}]}",
                    WS_ERROR_PARSE, 3, "life 1 of tid 1 is listed twice");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"running\", \"t\": 1, \"tid\": 1, \"life\": 2}]}",
                    WS_ERROR_INVALID, 4, "life 2 of thread 1 is not listed");
}

/* Peers must name each other; a scenario is delimited by markers. */
static void
test_bad_links (void)
{
  /* An unwait naming a wait that names another unwait. */
  assert_doc_error (HEAD "\"events\": [\n"
                    "{\"kind\": \"wait\", \"t\": 1, \"dur\": 5, \"tid\": 1, \"peer\": 2},\n"
                    "{\"kind\": \"unwait\", \"t\": 3, \"tid\": 1, \"target\": 1, \"peer\": 0},\n"
                    "{\"kind\": \"unwait\", \"t\": 6, \"tid\": 1, \"target\": 1, \"peer\": 0}]}",
                    WS_ERROR_INVALID, 5, "event 1: its peer, event 0, does not point back at it (the peer of event 0 is event 2)");
  /* A wait naming an unwait that says it ended nothing. */
  assert_doc_error (HEAD "\"events\": [\n"
                    "{\"kind\": \"wait\", \"t\": 1, \"dur\": 5, \"tid\": 1, \"peer\": 1},\n"
                    "{\"kind\": \"unwait\", \"t\": 6, \"tid\": 1, \"target\": 1, \"peer\": null}]}",
                    WS_ERROR_INVALID, 4, "event 0: its peer, event 1, does not point back at it (event 1 names no peer)");
  /* A hw-service naming a wait that names nobody. */
  assert_doc_error (HEAD "\"events\": [\n"
                    "{\"kind\": \"wait\", \"t\": 1, \"dur\": 5, \"tid\": 1},\n"
                    "{\"kind\": \"hw-service\", \"t\": 6, \"tid\": 1, \"target\": 1, \"peer\": 0}]}",
                    WS_ERROR_INVALID, 5, "event 1: its peer, event 0, does not point back");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1},\n"
                    "{\"kind\": \"marker\", \"t\": 2, \"tid\": 1, \"name\": \"end\"}],\n"
                    "\"scenario_instances\": [\n{\"scenario\": \"x\", \"tid\": 1, \"t0\": 1, \"t1\": 2, \"begin\": 0, \"end\": 1}]}",
                    WS_ERROR_INVALID, 7, "scenario instance 0: “begin” must be a marker event, event 0 is a wait");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"marker\", \"t\": 1, \"tid\": 1, \"name\": \"b\"},\n"
                    "{\"kind\": \"running\", \"t\": 2, \"tid\": 1}],\n"
                    "\"scenario_instances\": [\n{\"scenario\": \"x\", \"tid\": 1, \"t0\": 1, \"t1\": 2, \"begin\": 0, \"end\": 1}]}",
                    WS_ERROR_INVALID, 7, "“end” must be a marker event, event 1 is a running");
}

static void
test_bad_values (void)
{
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"sleep\", \"t\": 1, \"tid\": 1}]}",
                    WS_ERROR_PARSE, 4, "unknown kind “sleep”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1.5, \"tid\": 1}]}",
                    WS_ERROR_PARSE, 4, "expected an integer");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 99999999999999999999, \"tid\": 1}]}",
                    WS_ERROR_PARSE, 4, "expected an integer");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"cpu\": 70000}]}",
                    WS_ERROR_PARSE, 4, "out of range");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"dur\": -1}]}",
                    WS_ERROR_PARSE, 4, "out of range");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"flags\": [\"fast\"]}]}",
                    WS_ERROR_PARSE, 4, "unknown flag “fast”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"state\": \"SD\"}]}",
                    WS_ERROR_PARSE, 4, "one character");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1, \"name\": \"x\"}]}",
                    WS_ERROR_PARSE, 4, "only markers");
  /* What the event record has no word for (WsEvent), named on the line. */
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"unwait\", \"t\": 1, \"tid\": 1, \"dur\": 5}]}",
                    WS_ERROR_PARSE, 4, "event 0: an unwait or hw-service event takes no time");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"hw-service\", \"t\": 1, \"tid\": 1, \"dur\": 0},\n"
                    "{\"kind\": \"preempt\", \"t\": 1, \"tid\": 1,\n\"target\": 1}]}",
                    WS_ERROR_PARSE, 6, "event 1: only unwait and hw-service events have a “target”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"unwait\", \"t\": 1, \"tid\": 1,\n\"latency\": 5}]}",
                    WS_ERROR_PARSE, 5, "event 0: only waits have a “latency”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"marker\", \"t\": 1, \"tid\": 1, \"name\": \"m\",\n\"peer\": 0}]}",
                    WS_ERROR_PARSE, 5, "event 0: a marker or sample has no “peer”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"running\", \"t\": 1, \"tid\": 1, \"peer\": 0}]}",
                    WS_ERROR_PARSE, 4, "event 0: a marker or sample has no “peer”");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 01, \"tid\": 1}]}",
                    WS_ERROR_PARSE, 4, NULL);
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\",, \"t\": 1}]}",
                    WS_ERROR_PARSE, 4, "a member name");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 1, \"tid\": 1},]}",
                    WS_ERROR_PARSE, 4, "expected a value");
  assert_doc_error (HEAD "\"name\": \"bad \x01 control\"}", WS_ERROR_PARSE, 3, "control character");
  assert_doc_error (HEAD "\"name\": \"bad \\ud800 surrogate\"}", WS_ERROR_PARSE, 3, "surrogate");
  assert_doc_error (HEAD "\"name\": \"bad \xff\xfe utf-8\"}", WS_ERROR_PARSE, 3, "UTF-8");
  assert_doc_error (HEAD "\"name\": \"x\"}\n{}", WS_ERROR_PARSE, 4, "after the end");
  assert_doc_error (HEAD "\"events\": [\n{\"kind\": \"wait\", \"t\": 9000000000000000000, \"dur\": 1000000000000000000, \"tid\": 1}]}",
                    WS_ERROR_PARSE, 4, "out of range");
  assert_doc_error ("{\"format\": \"chrome-trace\", \"version\": 1}", WS_ERROR_PARSE, 1, "“chrome-trace”");
  assert_doc_error ("{\"format\": \"waitscope-trace\", \"version\": 2}", WS_ERROR_PARSE, 1, "version 2");
  assert_doc_error ("\n[1, 2]", WS_ERROR_PARSE, 2, "does not start with “{”");
}

static void
test_bad_deep_nesting (void)
{
  g_autoptr(GString) doc = g_string_new (HEAD "\"extra\": ");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (doc, '[');
  assert_doc_error (doc->str, WS_ERROR_PARSE, 3, "nested deeper");
}

static void
test_huge_line (void)
{
  g_autoptr(GString) doc = g_string_new (NULL);
  g_autofree char *path = tmp_path ("huge.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  /* A 10 MB function name: no symbol is that long, so it is refused (with
   * the line) rather than interned. */
  g_string_append (doc, HEAD "\"frames\": [\n{\"function\": \"");
  for (guint i = 0; i < 10 * 1024 * 1024; i++)
    g_string_append_c (doc, 'a' + i % 26);
  g_string_append (doc, "\"}]}");
  assert_doc_error (doc->str, WS_ERROR_TOO_LONG, 4, "longer than");

  /* The same 10 MB in a member this version does not know is skipped
   * without being kept: the trace loads. */
  g_string_truncate (doc, 0);
  g_string_append (doc, HEAD "\"future_member\": \"");
  for (guint i = 0; i < 10 * 1024 * 1024; i++)
    g_string_append_c (doc, 'a' + i % 26);
  g_string_append (doc, "\",\n\"events\": [{\"kind\": \"running\", \"t\": 5, \"tid\": 1}]}");
  write_file (path, doc->str, doc->len);
  trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_events (trace), ==, 1);
}

static void
test_bad_gzip_cut_short (void)
{
  g_autoptr(WsTrace) trace = load_hand_built ();
  g_autofree char *path = tmp_path ("cut.json.gz");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (ws_json_trace_save (trace, path, NULL, &error));
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  write_file (path, contents, len * 2 / 3);
  {
    g_autoptr(WsTrace) cut = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
    g_assert_null (cut);
    g_assert_error (error, WS_ERROR, WS_ERROR_TRUNCATED);
    g_assert_true (g_str_has_prefix (error->message, path));
    g_assert_nonnull (strstr (error->message, "compressed data ends early"));
  }
}

/* Seeded random mutations of a valid document: every result is either a
 * trace or an error naming the file, never a crash (run it under valgrind
 * or ASan for memory errors). */
static void
test_bad_mutations (void)
{
  g_autofree char *src = data_path ("hand-built.json");
  g_autofree char *path = tmp_path ("mutated.json");
  g_autofree char *contents = NULL;
  static const char tokens[] = "{}[]:,\"\\0123456789-.eEtrufalsn \n\x01\xff";
  GRand *rand = g_rand_new_with_seed (20240601);
  guint loaded = 0, refused = 0;
  gsize len;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  for (guint round = 0; round < 1500; round++)
    {
      g_autofree char *doc = g_memdup2 (contents, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) trace = NULL;
      guint n = g_rand_int_range (rand, 1, 4);

      for (guint k = 0; k < n; k++)
        doc[g_rand_int_range (rand, 0, len)] = tokens[g_rand_int_range (rand, 0, sizeof tokens - 1)];
      write_file (path, doc, len);
      trace = ws_json_trace_load (path, NULL, NULL, NULL, NULL, &error);
      if (trace != NULL)
        {
          g_assert_no_error (error);
          loaded++;
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (g_str_has_prefix (error->message, path));
          refused++;
        }
    }
  g_rand_free (rand);
  g_test_message ("mutations: %u loaded, %u refused", loaded, refused);
  g_assert_cmpuint (refused, >, 0);
}

static void
test_cancelled (void)
{
  g_autofree char *path = data_path ("hand-built.json");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;

  g_cancellable_cancel (cancellable);
  trace = ws_json_trace_load (path, NULL, NULL, NULL, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_CANCELLED);
}

static void
count_progress (double      fraction,
                const char *message,
                gpointer    user_data)
{
  double *last = user_data;
  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
test_example_trace (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "..", "..", "docs",
                                            "example-trace.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  double last = 0.0;

  trace = ws_json_trace_load (path, NULL, count_progress, &last, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);
  g_assert_cmpuint (ws_trace_get_n_events (trace), >, 0);
  g_assert_cmpuint (ws_trace_count_kind (trace, WS_EVENT_WAIT), >, 0);
}

/* perf → JSON → model: the same model, on every real trace. */
static void
test_round_trip_perf (gconstpointer data)
{
  const char *name = data;
  g_autofree char *file = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = data_path (file);
  g_autofree char *out = g_strdup_printf ("%s.json.gz", name);
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTrace) copy = NULL;
  gint64 t0, t1, t2;

  t0 = g_get_monotonic_time ();
  trace = ws_perf_importer_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  if (g_str_equal (name, "pg-tpcb"))
    g_assert_cmpuint (ws_trace_add_scenario_instances (trace, "transaction",
                                                       "sdt_postgresql:transaction__start",
                                                       "sdt_postgresql:transaction__commit"), >, 1000);
  t1 = g_get_monotonic_time ();
  copy = save_and_reload (trace, out, FALSE);
  t2 = g_get_monotonic_time ();
  g_test_message ("%s: %u events, perf import %.2f s, JSON save+load %.2f s",
                  name, ws_trace_get_n_events (trace), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  assert_traces_equal (trace, copy);
}

/* ---------------------------------------------------------------------- */
/* Scenario rules and the loader */

static void
assert_instance (WsTrace *trace,
                 guint    k,
                 gint32   tid,
                 gint64   t0_us,
                 gint64   t1_us)
{
  const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);

  g_assert_cmpstr (ws_trace_get_string (trace, inst->scenario), ==, "transaction");
  g_assert_cmpint (ws_trace_get_thread (trace, inst->thread)->tid, ==, tid);
  g_assert_cmpint (inst->t0, ==, US (t0_us));
  g_assert_cmpint (inst->t1, ==, US (t1_us));
  g_assert_cmpint (ws_trace_get_event (trace, inst->begin_event)->time, ==, inst->t0);
  g_assert_cmpint (ws_trace_get_event (trace, inst->end_event)->time, ==, inst->t1);
}

static void
test_loader_hand_built (void)
{
  g_autofree char *path = data_path ("hand-built.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsTrace) gz = NULL;
  g_autoptr(WsTrace) again = NULL;
  g_autofree char *gz_path = tmp_path ("loader.json.gz");
  gboolean compressed = TRUE;

  g_assert_true (ws_trace_loader_sniff (path, &compressed, NULL, &error) == &ws_json_importer);
  g_assert_no_error (error);
  g_assert_false (compressed);

  /* The built-in rule: start → commit or abort; worker-a's start has no end. */
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 3);
  assert_instance (trace, 0, 100, 10, 590);
  assert_instance (trace, 1, 100, 700, 1300);
  assert_instance (trace, 2, 100, 1350, 1390);

  /* A converted trace carries its instances; loading it again applies the
   * rule to nothing more. */
  g_assert_true (ws_json_trace_save (trace, gz_path, NULL, &error));
  g_assert_true (ws_trace_loader_sniff (gz_path, &compressed, NULL, &error) == &ws_json_importer);
  g_assert_true (compressed);
  gz = ws_trace_loader_load (gz_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_traces_equal (trace, gz);
}

static void
test_loader_perf (void)
{
  g_autofree char *path = data_path ("pg-tpcb.perf.txt.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  gboolean compressed = FALSE;
  guint n, starts = 0, commits = 0;
  guint32 start_id, commit_id;

  g_assert_true (ws_trace_loader_sniff (path, &compressed, NULL, &error) == &ws_perf_importer);
  g_assert_true (compressed);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* traces/README.md: 1368 start and 1368 commit probes in the window.
   * Instances are the pairs on one thread: count them independently, as
   * the number of commits whose previous marker on the thread is a start. */
  start_id = ws_trace_lookup_string (trace, "sdt_postgresql:transaction__start");
  commit_id = ws_trace_lookup_string (trace, "sdt_postgresql:transaction__commit");
  n = 0;
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    {
      const WsThread *thread = ws_trace_get_thread (trace, t);
      guint32 last = WS_NONE;

      for (guint k = 0; k < thread->n_events; k++)
        {
          const WsEvent *e = ws_trace_get_event (trace, thread->events[k]);
          if (e->kind != WS_EVENT_MARKER)
            continue;
          starts += ws_event_name (e) == start_id;
          commits += ws_event_name (e) == commit_id;
          if (ws_event_name (e) == commit_id && last == start_id)
            n++;
          if (ws_event_name (e) == start_id || ws_event_name (e) == commit_id)
            last = ws_event_name (e);
        }
    }
  g_assert_cmpuint (starts, ==, 1368);
  g_assert_cmpuint (commits, ==, 1368);
  g_assert_cmpuint (n, >, 1300);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, n);
  for (guint k = 0; k < n; k++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);
      g_assert_cmpint (inst->t1, >, inst->t0);
      g_assert_cmpstr (ws_trace_get_thread (trace, inst->thread)->name, ==, "postgres");
    }
}

static void
test_loader_bad_input (void)
{
  g_autofree char *path = tmp_path ("loader-bad");
  g_autofree char *gz_path = tmp_path ("loader-bad.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  char garbage[1000];

  write_file (path, "", 0);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, WS_ERROR, WS_ERROR_EMPTY);
  g_clear_error (&error);

  write_file (path, "PERFILE2\x68\x00\x00\x00", 12);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "perf script"));
  g_clear_error (&error);

  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = (i * 7919) % 251;
  write_file (path, garbage, sizeof garbage);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, WS_ERROR, WS_ERROR_BINARY);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_clear_error (&error);

  write_file (path, "hello, world\nthis is not a trace\n", -1);
  trace = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, WS_ERROR, WS_ERROR_PARSE);
  g_clear_error (&error);

  /* gzip magic, then nothing decodable. */
  write_file (gz_path, "\x1f\x8b\x08\x00\x00\x00", 6);
  trace = ws_trace_loader_load (gz_path, NULL, NULL, NULL, NULL, &error);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, gz_path));
  g_clear_error (&error);

  trace = ws_trace_loader_load ("/nonexistent/trace.json", NULL, NULL, NULL, NULL, &error);
  g_assert_error (error, WS_ERROR, WS_ERROR_IO);
}

typedef struct {
  GMainLoop *loop;
  WsTrace   *trace;
  GError    *error;
  GThread   *main_thread;
  guint      progress_calls;
  guint      progress_in_worker;
} AsyncState;

static void
async_progress (double      fraction,
                const char *message,
                gpointer    user_data)
{
  AsyncState *state = user_data;

  g_atomic_int_inc (&state->progress_calls);
  if (g_thread_self () != state->main_thread)
    g_atomic_int_inc (&state->progress_in_worker);
}

static void
async_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  AsyncState *state = user_data;

  g_assert_true (g_thread_self () == state->main_thread);
  state->trace = ws_trace_loader_load_finish (result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
test_loader_async (void)
{
  g_autofree char *path = data_path ("hand-built.json");
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncState state = { .loop = g_main_loop_new (NULL, FALSE), .main_thread = g_thread_self () };

  /* A user rule instead of the built-in ones: commit only. */
  g_assert_true (ws_scenario_rules_add_from_string (rules, "tx=sdt_postgresql:transaction__start,"
                                                    "sdt_postgresql:transaction__commit", NULL));
  ws_trace_loader_load_async (path, stacks, rules, async_progress, &state, NULL, async_done, &state);
  g_main_loop_run (state.loop);
  g_assert_no_error (state.error);
  g_assert_nonnull (state.trace);
  g_assert_true (ws_trace_get_stack_table (state.trace) == stacks);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (state.trace), ==, 2);
  g_assert_cmpstr (ws_trace_get_string (state.trace, ws_trace_get_scenario_instance (state.trace, 0)->scenario), ==, "tx");
  g_assert_cmpuint (state.progress_calls, >, 0);
  g_assert_cmpuint (state.progress_in_worker, ==, state.progress_calls);
  g_clear_object (&state.trace);

  g_cancellable_cancel (cancellable);
  ws_trace_loader_load_async (path, NULL, NULL, NULL, NULL, cancellable, async_done, &state);
  g_main_loop_run (state.loop);
  g_assert_null (state.trace);
  g_assert_error (state.error, WS_ERROR, WS_ERROR_CANCELLED);
  g_clear_error (&state.error);
  g_main_loop_unref (state.loop);
}

typedef struct {
  GMainLoop *loop;
  guint      pending;
  WsTrace   *traces[4];
} ManyState;

typedef struct {
  ManyState *state;
  guint      slot;
} ManySlot;

static void
many_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  ManySlot *slot = user_data;
  g_autoptr(GError) error = NULL;

  slot->state->traces[slot->slot] = ws_trace_loader_load_finish (result, &error);
  g_assert_no_error (error);
  if (--slot->state->pending == 0)
    g_main_loop_quit (slot->state->loop);
}

/* Four loads at once into one shared stack table (they take turns inside
 * the loader) give the same traces as four loads with tables of their own. */
static void
test_loader_async_shared_table (void)
{
  static const char *names[] = { "py-locks.perf.txt.gz", "build.perf.txt.gz",
                                  "py-locks-dwarf.perf.txt.gz", "hand-built.json" };
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  ManyState state = { .loop = g_main_loop_new (NULL, FALSE), .pending = 4 };
  ManySlot slots[4];

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *path = data_path (names[i]);
      slots[i] = (ManySlot) { &state, i };
      ws_trace_loader_load_async (path, stacks, NULL, NULL, NULL, NULL, many_done, &slots[i]);
    }
  g_main_loop_run (state.loop);
  g_main_loop_unref (state.loop);

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *path = data_path (names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(WsTrace) alone = ws_trace_loader_load (path, NULL, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (ws_trace_get_stack_table (state.traces[i]) == stacks);
      assert_traces_equal (alone, state.traces[i]);
      g_object_unref (state.traces[i]);
    }
}

static void
test_rules_parse (void)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new_default ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  static const char *bad[] = {
    "nameonly", "=a,b", "x=a", "x=", "x=a,", "x=,b", "x=a b,c", "x=a,b,c,d,e,f,g,h,i,j",
  };

  g_assert_cmpuint (ws_scenario_rules_get_n_rules (rules), ==, 1);
  text = ws_scenario_rules_to_string (rules, 0);
  g_assert_cmpstr (text, ==, "transaction=sdt_postgresql:transaction__start,"
                   "sdt_postgresql:transaction__commit,sdt_postgresql:transaction__abort");

  /* Same name: replaced, not added. */
  g_assert_true (ws_scenario_rules_add_from_string (rules, " transaction = a:b , c:d ", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ws_scenario_rules_get_n_rules (rules), ==, 1);
  g_assert_cmpstr (ws_scenario_rules_get_begin (rules, 0), ==, "a:b");
  g_assert_cmpstr (ws_scenario_rules_get_ends (rules, 0)[0], ==, "c:d");
  g_assert_null (ws_scenario_rules_get_ends (rules, 0)[1]);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (ws_scenario_rules_add_from_string (rules, bad[i], &error));
      g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
      g_clear_error (&error);
    }
  g_assert_cmpuint (ws_scenario_rules_get_n_rules (rules), ==, 1);

  g_assert_true (g_key_file_load_from_data (key_file,
                                            "[window]\nwidth=3\n"
                                            "[scenario frame]\nbegin=app:vsync\nend=app:vsync\n"
                                            "[scenario request]\nbegin=http:start\nend=http:done;http:error\n",
                                            -1, G_KEY_FILE_NONE, NULL));
  g_assert_true (ws_scenario_rules_load_key_file (rules, key_file, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ws_scenario_rules_get_n_rules (rules), ==, 3);
  g_assert_cmpstr (ws_scenario_rules_get_name (rules, 2), ==, "request");
  g_assert_cmpstr (ws_scenario_rules_get_ends (rules, 2)[1], ==, "http:error");

  g_assert_true (g_key_file_load_from_data (key_file, "[scenario broken]\nbegin=x\n", -1, G_KEY_FILE_NONE, NULL));
  g_assert_false (ws_scenario_rules_load_key_file (rules, key_file, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_MISSING_FIELD);
}

/* Markers on one thread: "s" start, "c" commit, "a" abort, "v" vsync. */
static WsTrace *
build_marker_trace (const char *sequence)
{
  WsTrace *trace = ws_trace_new ("markers", NULL);
  guint thread = ws_trace_ensure_thread (trace, 1, 1);

  for (guint i = 0; sequence[i]; i++)
    {
      const char *name = sequence[i] == 's' ? "s:start" : sequence[i] == 'c' ? "s:commit"
                         : sequence[i] == 'a' ? "s:abort" : "s:vsync";
      WsEvent e = { .time = i * 10, .thread = thread, .kind = WS_EVENT_MARKER,
                    .peer = ws_trace_intern_string (trace, name) };
      ws_trace_add_event (trace, &e);
    }
  ws_trace_finish (trace);
  return trace;
}

static void
test_rules_apply (void)
{
  g_autoptr(WsScenarioRules) rules = ws_scenario_rules_new ();
  static const char *tx_ends[] = { "s:commit", "s:abort", NULL };
  static const char *frame_ends[] = { "s:vsync", NULL };
  /* s c s a c s s c v v v: instances [0,10], [20,30] (abort), then the
   * stray commit at 40 ends nothing, [60,70] after a restart at 60;
   * frames [80,90], [90,100]. */
  g_autoptr(WsTrace) trace = build_marker_trace ("scsacsscvvv");
  static const gint64 expect[][2] = { { 0, 10 }, { 20, 30 }, { 60, 70 }, { 80, 90 }, { 90, 100 } };

  g_assert_true (ws_scenario_rules_add (rules, "tx", "s:start", tx_ends, NULL));
  g_assert_true (ws_scenario_rules_add (rules, "frame", "s:vsync", frame_ends, NULL));
  g_assert_cmpuint (ws_scenario_rules_apply (rules, trace), ==, 5);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 5);
  for (guint k = 0; k < 5; k++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, k);
      g_assert_cmpstr (ws_trace_get_string (trace, inst->scenario), ==, k < 3 ? "tx" : "frame");
      g_assert_cmpint (inst->t0, ==, expect[k][0]);
      g_assert_cmpint (inst->t1, ==, expect[k][1]);
    }

  /* Applying again adds nothing: those scenarios are already there. */
  g_assert_cmpuint (ws_scenario_rules_apply (rules, trace), ==, 0);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), ==, 5);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ws-json-trace-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/json-trace/hand-built", test_hand_built);
  g_test_add_func ("/json-trace/round-trip/hand-built", test_round_trip_hand_built);
  g_test_add_func ("/json-trace/writer-checked-by-json-glib", test_writer_checked_by_json_glib);
  g_test_add_func ("/json-trace/event-words-random", test_event_words_random);
  g_test_add_func ("/json-trace/reader-escapes", test_reader_escapes);
  g_test_add_func ("/json-trace/bad/truncated", test_bad_truncated);
  g_test_add_func ("/json-trace/bad/every-prefix", test_bad_every_prefix);
  g_test_add_func ("/json-trace/bad/binary", test_bad_binary);
  g_test_add_func ("/json-trace/bad/missing-field", test_bad_missing_field);
  g_test_add_func ("/json-trace/bad/empty", test_bad_empty);
  g_test_add_func ("/json-trace/bad/references", test_bad_references);
  g_test_add_func ("/json-trace/bad/links", test_bad_links);
  g_test_add_func ("/json-trace/reused-tid", test_reused_tid);
  g_test_add_func ("/json-trace/bad/values", test_bad_values);
  g_test_add_func ("/json-trace/bad/deep-nesting", test_bad_deep_nesting);
  g_test_add_func ("/json-trace/bad/huge-line", test_huge_line);
  g_test_add_func ("/json-trace/bad/gzip-cut-short", test_bad_gzip_cut_short);
  g_test_add_func ("/json-trace/bad/mutations", test_bad_mutations);
  g_test_add_func ("/json-trace/cancelled", test_cancelled);
  g_test_add_func ("/json-trace/example-trace", test_example_trace);
  g_test_add_func ("/json-trace/rules/parse", test_rules_parse);
  g_test_add_func ("/json-trace/rules/apply", test_rules_apply);
  g_test_add_func ("/json-trace/loader/hand-built", test_loader_hand_built);
  g_test_add_func ("/json-trace/loader/perf", test_loader_perf);
  g_test_add_func ("/json-trace/loader/bad-input", test_loader_bad_input);
  g_test_add_func ("/json-trace/loader/async", test_loader_async);
  g_test_add_func ("/json-trace/loader/async-shared-table", test_loader_async_shared_table);

  {
    static const char *perf_traces[] = { "pg-tpcb", "py-locks", "py-locks-dwarf", "io-fsync", "build" };
    for (guint i = 0; i < G_N_ELEMENTS (perf_traces); i++)
      {
        g_autofree char *test_path = g_strdup_printf ("/json-trace/round-trip/perf/%s", perf_traces[i]);
        g_test_add_data_func (test_path, perf_traces[i], test_round_trip_perf);
      }
  }

  status = g_test_run ();

  {
    g_autoptr(GFile) dir = g_file_new_for_path (tmp_dir);
    g_autoptr(GFileEnumerator) children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                                      0, NULL, NULL);
    GFileInfo *info;
    while (children && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
      {
        g_autofree char *child = g_build_filename (tmp_dir, g_file_info_get_name (info), NULL);
        g_remove (child);
        g_object_unref (info);
      }
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}
