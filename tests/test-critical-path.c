/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench/ws-synthetic-waits.h"
#include "ws-cli-test-util.h"
#include "ws-critical-path.h"
#include "ws-error.h"
#include "ws-graph-export.h"
#include "ws-scenario-rules.h"
#include "ws-trace-loader.h"

/*
 * The hand-built trace (ns):
 *
 *  A  run [0,100)  wA1 [100,400) by B, ready latency 20  run [420,500)
 *     wA2 [500,600) timer (HW)  run [600,700)  preempted [700,750)  run [750,800)
 *     wA3 [800,900) no wake-up recorded  run [900,1000)
 *  B  run [0,150)  wB1 [150,300) by C, ready latency 10  run [310,450) (readies A at 400)
 *  C  run [0,320) (readies B at 300)
 *
 * Critical path of ⟨A, 0, 1000⟩ walked back by hand:
 *   A [900,1000] running; A [800,900] blocked, unknown readier;
 *   A [750,800] running; A [700,750] ready (preempted); A [600,700] running;
 *   A [500,600] blocked by hardware; A [420,500] running; A [400,420] ready;
 *   A blocked in wA1 at 400: jump to B (bound 100):
 *     B [310,400] running; B [300,310] ready; B blocked in wB1: jump to C (bound 150):
 *       C [150,300] running
 *     B [100,150] running
 *   A [0,100] running
 */
typedef struct {
  WsTestTrace *tt;
  guint A, B, C;
  guint wA1, wA2, wA3, pA, wB1;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  WsTestTrace *tt = f->tt = ws_test_trace_new ();
  WsStackId timer = ws_test_trace_stack (tt, "asm_sysvec_apic_timer_interrupt;hrtimer_interrupt;hrtimer_wakeup");

  f->A = ws_test_trace_thread (tt, 1, 1, "a");
  f->B = ws_test_trace_thread (tt, 2, 1, "b");
  f->C = ws_test_trace_thread (tt, 3, 3, "c");

  ws_test_trace_run (tt, f->A, 0, 100, 0);
  f->wA1 = ws_test_trace_wait (tt, f->A, 100, 400, 0);
  ws_test_trace_set_latency (tt, f->wA1, 20);
  ws_test_trace_run (tt, f->A, 420, 500, 0);
  f->wA2 = ws_test_trace_wait (tt, f->A, 500, 600, 0);
  ws_test_trace_run (tt, f->A, 600, 700, 0);
  f->pA = ws_test_trace_preempt (tt, f->A, 700, 750);
  ws_test_trace_run (tt, f->A, 750, 800, 0);
  f->wA3 = ws_test_trace_wait (tt, f->A, 800, 900, 0);
  ws_test_trace_run (tt, f->A, 900, 1000, 0);

  ws_test_trace_run (tt, f->B, 0, 150, 0);
  f->wB1 = ws_test_trace_wait (tt, f->B, 150, 300, 0);
  ws_test_trace_set_latency (tt, f->wB1, 10);
  ws_test_trace_run (tt, f->B, 310, 450, 0);

  ws_test_trace_run (tt, f->C, 0, 320, 0);

  ws_test_trace_wake (tt, f->B, f->wA1, 0);
  ws_test_trace_hw_wake (tt, f->C, f->wA2, timer);
  ws_test_trace_wake (tt, f->C, f->wB1, 0);
  ws_test_trace_finish (tt);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  ws_test_trace_free (f->tt);
}

#define IDX(f, built) ws_test_trace_index ((f)->tt, (built))

typedef struct {
  guint           thread;
  WsTime          start, end;
  WsCriticalState state;
  guint           event;         /* builder index, or WS_NONE */
  guint           on_behalf_of;  /* builder index, or WS_NONE */
  guint           depth;
} Expected;

static void
assert_path (Fixture        *f,
             WsCriticalPath *path,
             const Expected *expected,
             guint           n)
{
  g_assert_cmpuint (ws_critical_path_get_n_segments (path), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const WsCriticalSegment *s = ws_critical_path_get_segment (path, i);

      g_assert_cmpuint (s->thread, ==, expected[i].thread);
      g_assert_cmpint (s->start, ==, expected[i].start);
      g_assert_cmpint (s->end, ==, expected[i].end);
      g_assert_cmpuint (s->state, ==, expected[i].state);
      g_assert_cmpuint (s->event, ==, expected[i].event == WS_NONE ? WS_NONE : IDX (f, expected[i].event));
      g_assert_cmpuint (s->on_behalf_of, ==, expected[i].on_behalf_of == WS_NONE ? WS_NONE : IDX (f, expected[i].on_behalf_of));
      g_assert_cmpuint (s->depth, ==, expected[i].depth);
    }
}

static void
test_hand_built (Fixture       *f,
                 gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 1000 };
  g_autoptr(GError) error = NULL;
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (trace, &symptom, NULL, &error);
  const Expected expected[] = {
    { f->A, 0, 100, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
    { f->B, 100, 150, WS_CRITICAL_RUNNING, WS_NONE, f->wA1, 1 },
    { f->C, 150, 300, WS_CRITICAL_RUNNING, WS_NONE, f->wB1, 2 },
    { f->B, 300, 310, WS_CRITICAL_READY, f->wB1, f->wA1, 1 },
    { f->B, 310, 400, WS_CRITICAL_RUNNING, WS_NONE, f->wA1, 1 },
    { f->A, 400, 420, WS_CRITICAL_READY, f->wA1, WS_NONE, 0 },
    { f->A, 420, 500, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
    { f->A, 500, 600, WS_CRITICAL_BLOCKED_HARDWARE, f->wA2, WS_NONE, 0 },
    { f->A, 600, 700, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
    { f->A, 700, 750, WS_CRITICAL_READY, f->pA, WS_NONE, 0 },
    { f->A, 750, 800, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
    { f->A, 800, 900, WS_CRITICAL_BLOCKED_UNKNOWN, f->wA3, WS_NONE, 0 },
    { f->A, 900, 1000, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
  };

  g_assert_no_error (error);
  assert_path (f, path, expected, G_N_ELEMENTS (expected));

  g_assert_cmpint (ws_critical_path_get_thread_time (path, f->A), ==, 700);
  g_assert_cmpint (ws_critical_path_get_thread_time (path, f->B), ==, 150);
  g_assert_cmpint (ws_critical_path_get_thread_time (path, f->C), ==, 150);
  g_assert_cmpint (ws_critical_path_get_state_time (path, WS_CRITICAL_RUNNING), ==, 100 + 50 + 150 + 90 + 80 + 100 + 50 + 100);
  g_assert_cmpint (ws_critical_path_get_state_time (path, WS_CRITICAL_READY), ==, 10 + 20 + 50);
  g_assert_cmpint (ws_critical_path_get_state_time (path, WS_CRITICAL_BLOCKED_HARDWARE), ==, 100);
  g_assert_cmpint (ws_critical_path_get_state_time (path, WS_CRITICAL_BLOCKED_UNKNOWN), ==, 100);
}

static void
test_window_ends_inside_a_wait (Fixture       *f,
                                gconstpointer  data)
{
  /* t1 = 350 falls inside wA1: the path jumps to B at 350 right away. */
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 50, 350 };
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (trace, &symptom, NULL, NULL);
  const Expected expected[] = {
    { f->A, 50, 100, WS_CRITICAL_RUNNING, WS_NONE, WS_NONE, 0 },
    { f->B, 100, 150, WS_CRITICAL_RUNNING, WS_NONE, f->wA1, 1 },
    { f->C, 150, 300, WS_CRITICAL_RUNNING, WS_NONE, f->wB1, 2 },
    { f->B, 300, 310, WS_CRITICAL_READY, f->wB1, f->wA1, 1 },
    { f->B, 310, 350, WS_CRITICAL_RUNNING, WS_NONE, f->wA1, 1 },
  };

  assert_path (f, path, expected, G_N_ELEMENTS (expected));
}

static void
test_empty_window_and_errors (Fixture       *f,
                              gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom empty = { f->A, 500, 500 };
  WsSymptom bad_thread = { 42, 0, 10 };
  WsSymptom bad_window = { f->A, 10, 0 };
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (trace, &empty, NULL, NULL);
  GError *error = NULL;

  g_assert_cmpuint (ws_critical_path_get_n_segments (path), ==, 0);
  g_assert_null (ws_critical_path_build (trace, &bad_thread, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (ws_critical_path_build (trace, &bad_window, NULL, &error));
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_clear_error (&error);
}

static void
test_no_data_before_first_event (void)
{
  /* X waits [100,200) readied by Y, first seen at 150: before that, no data. */
  WsTestTrace *tt = ws_test_trace_new ();
  guint X = ws_test_trace_thread (tt, 1, 1, "x");
  guint Y = ws_test_trace_thread (tt, 2, 2, "y");
  guint w;
  WsSymptom s = { X, 0, 250 };
  g_autoptr(WsCriticalPath) path = NULL;
  const WsCriticalSegment *seg;

  ws_test_trace_run (tt, X, 0, 100, 0);
  w = ws_test_trace_wait (tt, X, 100, 200, 0);
  ws_test_trace_run (tt, X, 200, 250, 0);
  ws_test_trace_run (tt, Y, 150, 250, 0);
  ws_test_trace_wake (tt, Y, w, 0);
  ws_test_trace_finish (tt);

  path = ws_critical_path_build (ws_test_trace_get_trace (tt), &s, NULL, NULL);
  g_assert_cmpuint (ws_critical_path_get_n_segments (path), ==, 4);
  seg = ws_critical_path_get_segment (path, 1);
  g_assert_cmpuint (seg->thread, ==, Y);
  g_assert_cmpint (seg->start, ==, 100);
  g_assert_cmpint (seg->end, ==, 150);
  g_assert_cmpuint (seg->state, ==, WS_CRITICAL_NO_DATA);
  seg = ws_critical_path_get_segment (path, 2);
  g_assert_cmpuint (seg->state, ==, WS_CRITICAL_RUNNING);
  g_assert_cmpint (seg->start, ==, 150);
  g_assert_cmpint (seg->end, ==, 200);
  ws_test_trace_free (tt);
}

/* On any trace, consistent or not, the path must end, tile [t0, t1]
 * exactly, and stay on the symptom thread at depth 0. */
static void
test_tiles_window_on_random_traces (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2014);

  for (guint round = 0; round < 200; round++)
    {
      WsTestTrace *tt = ws_test_trace_new ();
      guint n_threads = 2 + round % 5;
      g_autofree guint *threads = g_new (guint, n_threads);
      WsTrace *trace;
      WsSymptom s;
      g_autoptr(WsCriticalPath) path = NULL;
      WsTime at;

      for (guint t = 0; t < n_threads; t++)
        threads[t] = ws_test_trace_thread (tt, 10 + t, 10 + t, "r");
      for (guint t = 0; t < n_threads; t++)
        {
          WsTime now = g_rand_int_range (rand, 0, 30);
          for (guint k = 0; k < 12; k++)
            {
              WsTime d = g_rand_int_range (rand, 1, 60);
              int dice = g_rand_int_range (rand, 0, 8);

              if (dice < 3)
                ws_test_trace_run (tt, threads[t], now, now + d, 0);
              else if (dice == 3)
                ws_test_trace_preempt (tt, threads[t], now, now + d);
              else
                {
                  guint w = ws_test_trace_wait (tt, threads[t], now, now + d, 0);
                  int who = g_rand_int_range (rand, 0, 10);

                  ws_test_trace_set_latency (tt, w, g_rand_int_range (rand, 0, 5));
                  /* Any thread, even one that is itself waiting: inconsistent on purpose. */
                  if (who < 8)
                    ws_test_trace_wake (tt, threads[g_rand_int_range (rand, 0, n_threads)], w, 0);
                  else if (who < 9)
                    ws_test_trace_hw_wake (tt, threads[0], w, 0);
                }
              now += d;
            }
        }
      ws_test_trace_finish (tt);
      trace = ws_test_trace_get_trace (tt);

      s.thread = threads[g_rand_int_range (rand, 0, n_threads)];
      s.t0 = g_rand_int_range (rand, 0, 200);
      s.t1 = s.t0 + g_rand_int_range (rand, 0, 600);
      path = ws_critical_path_build (trace, &s, NULL, NULL);
      g_assert_nonnull (path);

      at = s.t0;
      for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
        {
          const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);

          g_assert_cmpint (seg->start, ==, at);
          g_assert_cmpint (seg->end, >, seg->start);
          if (seg->depth == 0)
            {
              g_assert_cmpuint (seg->thread, ==, s.thread);
              g_assert_cmpuint (seg->on_behalf_of, ==, WS_NONE);
            }
          else
            g_assert_cmpuint (seg->on_behalf_of, !=, WS_NONE);
          at = seg->end;
        }
      g_assert_cmpint (at, ==, s.t1);
      ws_test_trace_free (tt);
    }
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  WsTrace *trace = ws_test_trace_get_trace (f->tt);
  WsSymptom symptom = { f->A, 0, 1000 };
  g_autoptr(WsCriticalPath) path = ws_critical_path_build (trace, &symptom, NULL, NULL);
  g_autoptr(JsonNode) root = ws_graph_export_critical_path_json (path);
  g_autofree char *text = ws_graph_export_json_to_string (root);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *dot = ws_graph_export_critical_path_dot (path);
  JsonObject *obj, *seg;
  JsonArray *segments, *by_thread;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  segments = json_object_get_array_member (obj, "segments");
  g_assert_cmpuint (json_array_get_length (segments), ==, 13);
  seg = json_array_get_object_element (segments, 2);
  g_assert_cmpint (json_object_get_int_member (seg, "tid"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (seg, "state"), ==, "running");
  g_assert_cmpint (json_object_get_int_member (seg, "depth"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (seg, "on_behalf_of"), ==, IDX (f, f->wB1));
  by_thread = json_object_get_array_member (obj, "by_thread");
  g_assert_cmpuint (json_array_get_length (by_thread), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (by_thread, 0), "time"), ==, 700);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (obj, "by_state"), "blocked-hardware"), ==, 100);

  g_assert_nonnull (strstr (dot, "  s0 -> s1 [color=blue];\n"));
  g_assert_nonnull (strstr (dot, "  s5 -> s6;\n"));
}

/* pg-tpcb: the critical path of the longest transaction tiles it and
 * leaves the backend for the thread that readied it. */
static void
test_pg_tpcb (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path_name = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsCriticalPath) path = NULL;
  WsSymptom s;
  guint longest = WS_NONE, n;
  WsTime at, elsewhere = 0;

  if (dir == NULL)
    {
      g_test_skip ("WS_TEST_DATA not set");
      return;
    }
  path_name = g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL);
  trace = ws_trace_loader_load (path_name, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  if (ws_trace_get_n_scenario_instances (trace) == 0)
    ws_trace_add_scenario_instances (trace, "transaction", "sdt_postgresql:transaction__start",
                                     "sdt_postgresql:transaction__commit");
  n = ws_trace_get_n_scenario_instances (trace);
  g_assert_cmpuint (n, >, 1000);
  for (guint i = 0; i < n; i++)
    {
      const WsScenarioInstance *inst = ws_trace_get_scenario_instance (trace, i);
      if (longest == WS_NONE ||
          inst->t1 - inst->t0 > ws_trace_get_scenario_instance (trace, longest)->t1 - ws_trace_get_scenario_instance (trace, longest)->t0)
        longest = i;
    }
  g_assert_true (ws_symptom_from_scenario_instance (trace, longest, &s));

  path = ws_critical_path_build (trace, &s, NULL, &error);
  g_assert_no_error (error);
  at = s.t0;
  for (guint i = 0; i < ws_critical_path_get_n_segments (path); i++)
    {
      const WsCriticalSegment *seg = ws_critical_path_get_segment (path, i);
      g_assert_cmpint (seg->start, ==, at);
      at = seg->end;
      if (seg->thread != s.thread)
        elsewhere += seg->end - seg->start;
    }
  g_assert_cmpint (at, ==, s.t1);
  g_test_message ("longest transaction %.3f ms: %u segments, %.3f ms on other threads, %.3f ms blocked unknown, %.3f ms blocked hardware",
                  (s.t1 - s.t0) / 1e6, ws_critical_path_get_n_segments (path), elsewhere / 1e6,
                  ws_critical_path_get_state_time (path, WS_CRITICAL_BLOCKED_UNKNOWN) / 1e6,
                  ws_critical_path_get_state_time (path, WS_CRITICAL_BLOCKED_HARDWARE) / 1e6);
  /* It waited for the branch row lock held by another backend. */
  g_assert_cmpint (elsewhere, >, 0);
}

/* waitscope-cli critical-path --scenario-instance N covers that instance. */
static void
test_cli (void)
{
  const char *dir = g_getenv ("WS_TEST_DATA");
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *index = NULL;
  g_autoptr(WsTrace) trace = NULL;
  g_autoptr(WsScenarioRules) rules = NULL;
  g_autoptr(WsCriticalPath) path_in_process = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const WsScenarioInstance *inst;
  JsonObject *obj;
  JsonArray *segments;
  WsSymptom s;
  WsTime at;
  guint pick;

  if (dir == NULL || g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_TEST_DATA or WS_CLI not set");
      return;
    }
  path = g_build_filename (dir, "pg-tpcb.perf.txt.gz", NULL);
  rules = ws_scenario_rules_new_default ();
  trace = ws_trace_loader_load_full (path, NULL, rules, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_trace_get_n_scenario_instances (trace), >, 1000);
  pick = ws_trace_get_n_scenario_instances (trace) / 2;
  inst = ws_trace_get_scenario_instance (trace, pick);
  index = g_strdup_printf ("%u", pick);

  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "critical-path", "--trace", path, "--scenario-instance", index, NULL },
                                    &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (obj, "symptom"), "t0"), ==, inst->t0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (obj, "symptom"), "t1"), ==, inst->t1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (obj, "symptom"), "tid"), ==,
                   ws_trace_get_thread (trace, inst->thread)->tid);

  g_assert_true (ws_symptom_from_scenario_instance (trace, pick, &s));
  path_in_process = ws_critical_path_build (trace, &s, NULL, NULL);
  segments = json_object_get_array_member (obj, "segments");
  g_assert_cmpuint (json_array_get_length (segments), ==, ws_critical_path_get_n_segments (path_in_process));
  at = inst->t0;
  for (guint i = 0; i < json_array_get_length (segments); i++)
    {
      JsonObject *seg = json_array_get_object_element (segments, i);
      g_assert_cmpint (json_object_get_int_member (seg, "start"), ==, at);
      at = json_object_get_int_member (seg, "end");
    }
  g_assert_cmpint (at, ==, inst->t1);

  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "critical-path", "--trace", path, "--scenario-instance", "999999", NULL },
                                    NULL, NULL), ==, 1);
  g_assert_cmpint (ws_test_run_cli ((const char *[]) { "critical-path", "--trace", path, "--scenario-instance", "1",
                                                       "--from", "1669.1", NULL }, NULL, NULL), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/critical-path/hand-built", Fixture, NULL, fixture_setup, test_hand_built, fixture_teardown);
  g_test_add ("/critical-path/ends-inside-a-wait", Fixture, NULL, fixture_setup, test_window_ends_inside_a_wait, fixture_teardown);
  g_test_add ("/critical-path/empty-and-errors", Fixture, NULL, fixture_setup, test_empty_window_and_errors, fixture_teardown);
  g_test_add_func ("/critical-path/no-data", test_no_data_before_first_event);
  g_test_add_func ("/critical-path/random-tiling", test_tiles_window_on_random_traces);
  g_test_add ("/critical-path/export", Fixture, NULL, fixture_setup, test_export, fixture_teardown);
  g_test_add_func ("/critical-path/pg-tpcb", test_pg_tpcb);
  g_test_add_func ("/critical-path/cli", test_cli);

  return g_test_run ();
}
