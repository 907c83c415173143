/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `info --json` as the core writes it (ws-trace-summary-export), without
 * the binary, on real traces of tests/data.
 *
 * Oracles, recounted here from the raw events: each thread's waits and
 * time waiting, every thread listed once, most time waiting first; the
 * event kinds add up to the events; the top waits are the longest WAIT
 * events' durations in order; the duration is end − start.  Thread and
 * frame names that are not UTF-8 still give valid UTF-8 JSON.
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "ws-export-test-util.h"
#include "ws-trace-private.h"
#include "ws-trace-summary.h"
#include "ws-trace-summary-export.h"

typedef struct {
  WsTrace **traces;
  guint     n;
  guint     top;
} Export;

static void
write_export (FILE    *out,
              gpointer data)
{
  Export *e = data;

  g_assert_true (ws_trace_summary_export_json (out, e->traces, e->n, e->top));
}

static int
compare_desc (gconstpointer a,
              gconstpointer b)
{
  WsTime x = *(const WsTime *) a, y = *(const WsTime *) b;
  return x > y ? -1 : x < y;
}

static void
check_threads (WsTrace    *trace,
               JsonObject *t)
{
  JsonArray *threads = json_object_get_array_member (t, "threads");
  const WsEvent *events = ws_trace_get_events (trace);
  g_autofree gboolean *seen = g_new0 (gboolean, ws_trace_get_n_threads (trace) + 1);
  gint64 previous = G_MAXINT64;

  g_assert_cmpuint (json_array_get_length (threads), ==, ws_trace_get_n_threads (trace));
  for (guint k = 0; k < json_array_get_length (threads); k++)
    {
      JsonObject *row = json_array_get_object_element (threads, k);
      guint thread = ws_trace_find_thread (trace, json_object_get_int_member (row, "tid"));
      gint64 n_waits = 0, wait_total = 0;

      g_assert_cmpuint (thread, !=, WS_NONE);
      g_assert_false (seen[thread]);
      seen[thread] = TRUE;
      for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
        if (events[i].thread == thread && events[i].kind == WS_EVENT_WAIT)
          {
            n_waits++;
            wait_total += ws_event_duration (&events[i]);
          }
      g_assert_cmpint (json_object_get_int_member (row, "waits"), ==, n_waits);
      g_assert_cmpint (json_object_get_int_member (row, "wait_total"), ==, wait_total);
      g_assert_cmpint (wait_total, <=, previous);
      previous = wait_total;
    }
}

static void
check_top_waits (WsTrace    *trace,
                 JsonObject *t,
                 guint       top)
{
  JsonArray *waits = json_object_get_array_member (t, "top_waits");
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (WsTime));

  for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
    if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
      {
        WsTime cost = ws_event_duration (ws_trace_get_event (trace, i));
        g_array_append_val (costs, cost);
      }
  g_array_sort (costs, compare_desc);
  g_assert_cmpuint (json_array_get_length (waits), ==, MIN (top, costs->len));
  for (guint k = 0; k < json_array_get_length (waits); k++)
    {
      JsonObject *w = json_array_get_object_element (waits, k);
      const WsEvent *e = ws_trace_get_event (trace, json_object_get_int_member (w, "event"));

      g_assert_cmpint (json_object_get_int_member (w, "cost"), ==, g_array_index (costs, WsTime, k));
      g_assert_cmpint (e->kind, ==, WS_EVENT_WAIT);
      g_assert_cmpint (json_object_get_int_member (w, "tid"), ==, ws_trace_get_thread (trace, e->thread)->tid);
    }
}

static void
check_trace (WsTrace    *trace,
             JsonObject *t,
             guint       top)
{
  JsonObject *kinds = json_object_get_object_member (t, "events");
  g_autoptr(GList) names = json_object_get_members (kinds);
  gint64 sum = 0;

  for (GList *l = names; l != NULL; l = l->next)
    sum += json_object_get_int_member (kinds, l->data);
  g_assert_cmpint (sum, ==, ws_trace_get_n_events (trace));
  g_assert_cmpint (json_object_get_int_member (t, "n_events"), ==, ws_trace_get_n_events (trace));
  g_assert_cmpint (json_object_get_int_member (t, "duration"), ==,
                   json_object_get_int_member (t, "end") - json_object_get_int_member (t, "start"));
  g_assert_cmpint (json_object_get_boolean_member (t, "waits_recorded"), ==,
                   json_object_get_int_member (kinds, "wait") > 0);
  check_threads (trace, t);
  check_top_waits (trace, t, top);
}

static void
test_real_traces (void)
{
  WsTrace *traces[3] = {
    ws_export_test_load ("io-fsync.perf.txt.gz"),
    ws_export_test_load ("causes/cold-read.perf.txt.gz"),
    ws_export_test_load ("hand-built.json"),
  };
  Export e = { traces, G_N_ELEMENTS (traces), 7 };
  g_autofree char *text = ws_export_test_capture (write_export, &e);
  g_autoptr(JsonNode) node = ws_export_test_parse (text);
  JsonObject *root = json_node_get_object (node);
  JsonArray *list = json_object_get_array_member (root, "traces");

  g_assert_cmpint (json_object_get_int_member (root, "schema_version"), ==, WS_TRACE_SUMMARY_SCHEMA_VERSION);
  g_assert_cmpstr (json_object_get_string_member (root, "stack_order"), ==, "leaf-first");
  g_assert_cmpuint (json_array_get_length (list), ==, G_N_ELEMENTS (traces));
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_test_message ("%s", ws_trace_get_path (traces[i]));
      check_trace (traces[i], json_array_get_object_element (list, i), e.top);
      g_object_unref (traces[i]);
    }
}

static void
test_bad_names (void)
{
  WsTrace *trace = ws_export_test_load_bad ();
  Export e = { &trace, 1, 10 };
  g_autofree char *text = ws_export_test_capture (write_export, &e);
  g_autoptr(JsonNode) node = ws_export_test_parse (text);

  check_trace (trace, json_array_get_object_element (json_object_get_array_member (json_node_get_object (node), "traces"), 0), 10);
  g_assert_nonnull (strstr (text, "py\xef\xbf\xbd"));
  g_assert_nonnull (strstr (text, "sche\xef\xbf\xbd" "dule"));
  g_object_unref (trace);
}

/* (cost, event) most costly first, ties by event order: the rows of
 * `info`'s top waits, by sorting every wait. */
static int
compare_wait_rows (gconstpointer a,
                   gconstpointer b)
{
  const WsTime *x = a, *y = b;

  if (x[0] != y[0])
    return x[0] > y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The top waits over random traces with many equal costs, for tops from
 * none to more than there are waits, against a sort of every wait. */
static void
test_top_waits_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());

  for (guint round = 0; round < 40; round++)
    {
      g_autoptr(WsTrace) trace = ws_trace_new ("random.trace", NULL);
      g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, 2 * sizeof (WsTime));
      guint thread = ws_trace_ensure_thread (trace, 7, 7);
      guint n = g_rand_int_range (rand, 0, 400);
      guint n_costs = g_rand_int_range (rand, 1, 20);
      guint tops[] = { 0, 1, 2, 3, 7, 0, 0, 0 };

      for (guint i = 0; i < n; i++)
        {
          static const WsEventKind kinds[] = { WS_EVENT_RUNNING, WS_EVENT_WAIT, WS_EVENT_UNWAIT, WS_EVENT_WAIT };
          WsEvent e;
          WsTime duration = g_rand_int_range (rand, 0, n_costs) * 1000;

          /* A wake-up takes no time: its drawn duration is dropped. */
          ws_event_init (&e, kinds[g_rand_int_range (rand, 0, G_N_ELEMENTS (kinds))], i * 10, thread);
          if (!ws_event_is_wake (&e))
            ws_event_set_duration (&e, duration);
          ws_trace_add_event (trace, &e);
        }
      ws_trace_finish (trace);
      for (guint i = 0; i < ws_trace_get_n_events (trace); i++)
        if (ws_trace_get_event (trace, i)->kind == WS_EVENT_WAIT)
          {
            WsTime row[2] = { ws_event_duration (ws_trace_get_event (trace, i)), i };
            g_array_append_val (rows, row);
          }
      g_array_sort (rows, compare_wait_rows);
      tops[5] = rows->len > 0 ? rows->len - 1 : 0;
      tops[6] = rows->len;
      tops[7] = rows->len + 5;
      for (guint k = 0; k < G_N_ELEMENTS (tops); k++)
        {
          g_autoptr(GArray) top = ws_trace_summary_top_waits (trace, tops[k]);

          g_assert_cmpuint (top->len, ==, MIN (tops[k], rows->len));
          for (guint j = 0; j < top->len; j++)
            g_assert_cmpint (g_array_index (top, guint, j), ==, ((WsTime *) (gpointer) rows->data)[2 * j + 1]);
        }
    }
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-summary-export/real-traces", test_real_traces);
  g_test_add_func ("/trace-summary-export/bad-names", test_bad_names);
  g_test_add_func ("/trace-summary-export/top-waits-random", test_top_waits_random);
  return g_test_run ();
}
