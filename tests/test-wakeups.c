/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Wake-ups as they happened, on hand-made traces (docs/trace-format.md):
 *
 *  - a lock wait whose wake-up was delivered by an inter-processor
 *    interrupt (a remote wake-up run from sched_ttwu_pending) was readied
 *    by the thread that queued it, when that thread's wake-up is recorded,
 *    and by an unknown readier otherwise -- never by hardware;
 *  - in the AWG, a root whose children are hardware services of several
 *    kinds is still pruned.
 *
 * Checked on the trace model, the wait graph and the AWG (contrast and
 * `why` read the same waits).
 */
#include "config.h"

#include <gio/gio.h>

#include "ws-awg.h"
#include "ws-frame-classifier.h"
#include "ws-json-trace.h"
#include "ws-wait-graph.h"

#define US 1000
#define MS 1000000

static WsTrace *
load (const char *json)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (json, -1, NULL);
  g_autoptr(WsStackTable) stacks = ws_stack_table_new ();
  g_autoptr(GError) error = NULL;
  WsTrace *trace = ws_json_trace_load_stream (in, "hand.json", stacks, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

#define HEADER \
  "{\"format\":\"waitscope-trace\",\"version\":1,\"name\":\"hand\"," \
  "\"threads\":[{\"tid\":0,\"name\":\"swapper\"},{\"tid\":1,\"name\":\"app\"},{\"tid\":2,\"name\":\"holder\"}],"

/* app waits 1-10 ms on a table lock held by holder, which rebuilds it until
 * 9.99 ms; the only wake-up paired with the wait ran from a call-function
 * IPI on app's idle CPU.  %s: more events (holder's own wake-up of app). */
static const char ipi_trace[] = HEADER
  "\"events\":["
  "{\"kind\":\"running\",\"t\":0,\"dur\":1000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]},"
  "{\"kind\":\"wait\",\"t\":1000000,\"dur\":9000000,\"tid\":1,\"state\":\"S\",\"peer\":3,\"latency\":7000,"
  "\"stack\":[\"main (app)\",\"lock_table (app)\",\"futex_wait ([kernel.kallsyms])\"]},"
  "{\"kind\":\"running\",\"t\":0,\"dur\":9990000,\"tid\":2,\"flags\":[\"span\"],\"stack\":[\"holder_main (app)\",\"rebuild (app)\"]},"
  "{\"kind\":\"hw-service\",\"t\":10000000,\"tid\":0,\"target\":1,\"peer\":1,"
  "\"stack\":[\"do_idle ([kernel.kallsyms])\",\"asm_sysvec_call_function_single ([kernel.kallsyms])\","
  "\"__sysvec_call_function_single ([kernel.kallsyms])\",\"__flush_smp_call_function_queue ([kernel.kallsyms])\","
  "\"sched_ttwu_pending ([kernel.kallsyms])\",\"ttwu_do_activate ([kernel.kallsyms])\"]},"
  "{\"kind\":\"running\",\"t\":10000000,\"dur\":2000000,\"tid\":1,\"flags\":[\"span\"],\"stack\":[\"main (app)\"]}"
  "%s],"
  "\"scenario_instances\":[{\"scenario\":\"op\",\"tid\":1,\"t0\":0,\"t1\":12000000}]}";

/* holder's wake-up of app, recorded 10 µs before the IPI delivered it,
 * paired with nothing (%d: its time). */
static const char ipi_sender[] =
  ",{\"kind\":\"unwait\",\"t\":%d,\"tid\":2,\"target\":1,"
  "\"stack\":[\"holder_main (app)\",\"unlock_table (app)\",\"futex_wake ([kernel.kallsyms])\"]}";

static guint
find_wait (WsTrace *trace, guint thread)
{
  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT && ws_trace_get_event (trace, i)->thread == thread)
      return i;
  g_assert_not_reached ();
}

static WsWaitGraph *
graph_of (WsTrace *trace, guint thread, WsTime t1)
{
  WsSymptom symptom = { thread, 0, t1 };
  g_autoptr(GError) error = NULL;
  WsWaitGraph *graph = ws_wait_graph_build (trace, &symptom, NULL, NULL, &error);

  g_assert_no_error (error);
  return graph;
}

/* The kinds of the nodes the wait graph puts below @event's node. */
static guint
children_kinds (WsWaitGraph *graph, guint event)
{
  guint node = ws_wait_graph_find_event (graph, event), n = 0, bits = 0;
  const WsWaitEdge *edges;

  g_assert_cmpuint (node, !=, WS_NONE);
  edges = ws_wait_graph_get_out_edges (graph, node, &n);
  for (guint e = 0; e < n; e++)
    bits |= 1u << ws_wait_graph_get_node (graph, edges[e].to)->kind;
  return bits;
}

static WsAwg *
awg_of (WsTrace *trace)
{
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsSignatures) sigs = ws_signatures_new ("app", FALSE, &error);
  WsAwg *awg;

  g_assert_no_error (error);
  g_assert_cmpuint (ws_instance_set_add_trace (set, trace, "op"), ==, 1);
  awg = ws_awg_build (set, sigs, NULL, NULL, NULL, NULL, 0, 1, &error);
  g_assert_no_error (error);
  return awg;
}

static gboolean
awg_has (WsAwg *awg, WsAwgNodeKind kind, const char *sig)
{
  WsSignatures *sigs = ws_awg_get_signatures (awg);

  for (guint i = 0; i < ws_awg_get_n_nodes (awg); i++)
    {
      const WsAwgNode *n = ws_awg_get_node (awg, i);
      WsSigId id = kind == WS_AWG_WAITING ? n->u : kind == WS_AWG_SERVICED ? n->r : n->r;

      if (n->kind == kind && id != WS_SIG_NONE && g_strcmp0 (ws_signatures_get_name (sigs, id), sig) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_ipi_readier_unknown (void)
{
  g_autofree char *json = g_strdup_printf (ipi_trace, "");
  g_autoptr(WsTrace) trace = load (json);
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsAwg) awg = NULL;
  guint app = ws_trace_find_thread (trace, 1), wait = find_wait (trace, app), readier;

  /* Not hardware: nobody recorded. */
  g_assert_cmpint (ws_trace_wait_readier (trace, wait, &readier), ==, WS_READIER_UNKNOWN);
  g_assert_true (ws_trace_get_event (trace, wait)->flags & WS_EVENT_FLAG_READIER_UNKNOWN);
  g_assert_cmpint (ws_event_duration (ws_trace_get_event (trace, wait)), ==, 9 * MS);
  /* Its ready latency stays its own, with no wake-up left to keep it. */
  g_assert_cmpuint (ws_trace_wait_ready_latency (trace, wait), ==, 7000);
  g_assert_cmpint (ws_frame_classifier_classify_wake (ws_frame_classifier_get_default (), trace, wait, NULL),
                   ==, WS_WAKE_UNKNOWN);

  graph = graph_of (trace, app, 12 * MS);
  g_assert_cmpuint (children_kinds (graph, wait), ==, 1u << WS_WAIT_NODE_UNKNOWN_READIER);

  awg = awg_of (trace);
  g_assert_false (awg_has (awg, WS_AWG_HARDWARE, "InterruptService"));
  g_assert_true (awg_has (awg, WS_AWG_UNKNOWN, "[unknown readier]"));
}

static void
test_ipi_sender (void)
{
  g_autofree char *sender = g_strdup_printf (ipi_sender, 9990000);
  g_autofree char *json = g_strdup_printf (ipi_trace, sender);
  g_autoptr(WsTrace) trace = load (json);
  g_autoptr(WsWaitGraph) graph = NULL;
  g_autoptr(WsAwg) awg = NULL;
  guint app = ws_trace_find_thread (trace, 1), holder = ws_trace_find_thread (trace, 2);
  guint wait = find_wait (trace, app), readier;

  /* The thread that queued the wake-up readied the wait. */
  g_assert_cmpint (ws_trace_wait_readier (trace, wait, &readier), ==, WS_READIER_THREAD);
  g_assert_cmpuint (readier, ==, holder);
  g_assert_false (ws_trace_get_event (trace, wait)->flags & WS_EVENT_FLAG_READIER_UNKNOWN);
  g_assert_cmpuint (ws_trace_get_event (trace, ws_trace_get_event (trace, wait)->peer)->peer, ==, wait);
  g_assert_cmpint (ws_event_duration (ws_trace_get_event (trace, wait)), ==, 8990 * US);
  /* The latency moved with the link: the sender's wake-up keeps it now. */
  g_assert_cmpuint (ws_trace_wait_ready_latency (trace, wait), ==, 7000);
  g_assert_cmpuint (ws_trace_get_wakeup_fixes (trace)->ipi_sender, ==, 1);

  graph = graph_of (trace, app, 12 * MS);
  g_assert_cmpuint (children_kinds (graph, wait), ==, 1u << WS_WAIT_NODE_RUN);

  /* lock_table waited, readied by unlock_table, while holder rebuilt. */
  awg = awg_of (trace);
  g_assert_true (awg_has (awg, WS_AWG_WAITING, "unlock_table"));
  g_assert_true (awg_has (awg, WS_AWG_RUNNING, "rebuild"));
  g_assert_false (awg_has (awg, WS_AWG_HARDWARE, "InterruptService"));
}

/* A disk completion interrupt on another CPU queued the wake-up (its
 * record unpaired: the IPI's took the wait): hardware readied it, the
 * disk, not an unknown readier. */
static void
test_ipi_sender_interrupt (void)
{
  const char *completion =
    ",{\"kind\":\"hw-service\",\"t\":9990000,\"tid\":0,\"cpu\":1,\"target\":1,"
    "\"stack\":[\"do_idle ([kernel.kallsyms])\",\"blk_mq_end_request ([kernel.kallsyms])\","
    "\"blk_update_request ([kernel.kallsyms])\",\"complete ([kernel.kallsyms])\",\"try_to_wake_up ([kernel.kallsyms])\"]}";
  g_autofree char *json = g_strdup_printf (ipi_trace, completion);
  g_autoptr(WsTrace) trace = load (json);
  guint app = ws_trace_find_thread (trace, 1), wait = find_wait (trace, app), readier;
  const WsEvent *w;

  g_assert_cmpint (ws_trace_wait_readier (trace, wait, &readier), ==, WS_READIER_HARDWARE);
  w = ws_trace_get_event (trace, wait);
  g_assert_false (w->flags & WS_EVENT_FLAG_READIER_UNKNOWN);
  g_assert_cmpint (ws_trace_get_event (trace, w->peer)->time, ==, 9990000);
  g_assert_cmpint (ws_event_duration (w), ==, 8990 * US);
  g_assert_cmpuint (ws_trace_get_wakeup_fixes (trace)->ipi_sender, ==, 1);
}

/* A wake-up recorded after the IPI delivered one cannot have ended the
 * wait: the readier stays unknown. */
static void
test_ipi_sender_too_late (void)
{
  g_autofree char *sender = g_strdup_printf (ipi_sender, 10010000);
  g_autofree char *json = g_strdup_printf (ipi_trace, sender);
  g_autoptr(WsTrace) trace = load (json);
  guint app = ws_trace_find_thread (trace, 1);

  g_assert_cmpint (ws_trace_wait_readier (trace, find_wait (trace, app), NULL), ==, WS_READIER_UNKNOWN);
  g_assert_cmpuint (ws_trace_get_wakeup_fixes (trace)->ipi_unknown, ==, 1);
}

/* One serviced root, woken by the disk in one instance and by a timer in
 * another: its children are two hardware leaves, and it is pruned. */
static const char split_hw_trace[] = HEADER
  "\"events\":["
  "{\"kind\":\"wait\",\"t\":1000000,\"dur\":4000000,\"tid\":1,\"state\":\"D\",\"flags\":[\"uninterruptible\"],\"peer\":1,"
  "\"stack\":[\"main (app)\",\"flush_log (app)\",\"io_schedule ([kernel.kallsyms])\"]},"
  "{\"kind\":\"hw-service\",\"t\":5000000,\"tid\":0,\"target\":1,\"peer\":0,"
  "\"stack\":[\"common_interrupt ([kernel.kallsyms])\",\"blk_mq_end_request ([kernel.kallsyms])\"]},"
  "{\"kind\":\"wait\",\"t\":21000000,\"dur\":4000000,\"tid\":1,\"state\":\"D\",\"flags\":[\"uninterruptible\"],\"peer\":3,"
  "\"stack\":[\"main (app)\",\"flush_log (app)\",\"io_schedule ([kernel.kallsyms])\"]},"
  "{\"kind\":\"hw-service\",\"t\":25000000,\"tid\":0,\"target\":1,\"peer\":2,"
  "\"stack\":[\"hrtimer_interrupt ([kernel.kallsyms])\",\"hrtimer_wakeup ([kernel.kallsyms])\"]}"
  "],"
  "\"scenario_instances\":[{\"scenario\":\"op\",\"tid\":1,\"t0\":0,\"t1\":10000000},"
  "{\"scenario\":\"op\",\"tid\":1,\"t0\":20000000,\"t1\":30000000}]}";

static void
test_hardware_prunes_as_one (void)
{
  g_autoptr(WsTrace) trace = load (split_hw_trace);
  g_autoptr(WsInstanceSet) set = ws_instance_set_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(WsSignatures) sigs = ws_signatures_new ("app", FALSE, &error);
  g_autoptr(WsAwg) awg = NULL;

  g_assert_cmpuint (ws_instance_set_add_trace (set, trace, "op"), ==, 2);
  awg = ws_awg_build (set, sigs, NULL, NULL, NULL, NULL, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ws_awg_get_total_cost (awg), ==, 8 * MS);
  g_assert_cmpuint (ws_awg_get_n_pruned (awg), ==, 1);
  g_assert_cmpint (ws_awg_get_pruned_cost (awg), ==, 8 * MS);
  g_assert_cmpuint (ws_awg_get_n_nodes (awg), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wakeups/ipi-readier-unknown", test_ipi_readier_unknown);
  g_test_add_func ("/wakeups/ipi-sender", test_ipi_sender);
  g_test_add_func ("/wakeups/ipi-sender-too-late", test_ipi_sender_too_late);
  g_test_add_func ("/wakeups/ipi-sender-interrupt", test_ipi_sender_interrupt);
  g_test_add_func ("/wakeups/hardware-prunes-as-one", test_hardware_prunes_as_one);
  return g_test_run ();
}
