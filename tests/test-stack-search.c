/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stack search (core: the timeline, the graph views and the mining page
 * highlight with it): a regular expression over the frames of every
 * event's stack, on the hand-built trace and, against a brute-force
 * count and order, on a synthetic one.
 */
#include "config.h"

#include <string.h>

#include "ws-error.h"
#include "ws-stack-search.h"
#include "ws-synthetic-trace.h"
#include "ws-test-timeline-trace.h"

static void
test_stack_search (void)
{
  WsTestTimelineTrace ids;
  g_autoptr(WsTrace) trace = ws_test_timeline_trace_new (&ids);
  g_autoptr(WsStackSearch) futex = NULL, wake = NULL, kernel = NULL, none = NULL, bad = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 *m;
  guint n;

  /* "futex_w" is in both waits' stacks and in the unwait stack. */
  futex = ws_stack_search_new (trace, "futex_w", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_stack_search_get_n_matches (futex), ==, 3);
  g_assert_cmpuint (ws_stack_search_get_n_frames (futex), ==, 2);
  m = ws_stack_search_get_thread_matches (futex, ids.thread_a, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (m[0], ==, ids.wait_s);
  g_assert_cmpuint (m[1], ==, ids.wait_d);
  g_assert_true (ws_stack_search_matches_event (futex, ids.unwait));
  g_assert_false (ws_stack_search_matches_event (futex, ids.run_b));

  /* Next/previous in time order, wrapping: S wait (1600) → unwait (2600)
   * → D wait (3200) → S wait. */
  g_assert_cmpuint (ws_stack_search_next (futex, WS_NONE, TRUE), ==, ids.wait_s);
  g_assert_cmpuint (ws_stack_search_next (futex, ids.wait_s, TRUE), ==, ids.unwait);
  g_assert_cmpuint (ws_stack_search_next (futex, ids.unwait, TRUE), ==, ids.wait_d);
  g_assert_cmpuint (ws_stack_search_next (futex, ids.wait_d, TRUE), ==, ids.wait_s);
  g_assert_cmpuint (ws_stack_search_next (futex, ids.wait_s, FALSE), ==, ids.wait_d);
  g_assert_cmpuint (ws_stack_search_next (futex, WS_NONE, FALSE), ==, ids.wait_d);

  /* Case-insensitive; only the waker's stack has futex_wake. */
  wake = ws_stack_search_new (trace, "FUTEX_WAKE$", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_stack_search_get_n_matches (wake), ==, 1);
  m = ws_stack_search_get_thread_matches (wake, ids.thread_b, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (m[0], ==, ids.unwait);
  g_assert_cmpuint (ws_stack_search_next (wake, ids.unwait, TRUE), ==, ids.unwait);

  /* Modules match too. */
  kernel = ws_stack_search_new (trace, "kallsyms", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_stack_search_get_n_matches (kernel), ==, 3);

  none = ws_stack_search_new (trace, "^nothing$", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_stack_search_get_n_matches (none), ==, 0);
  g_assert_cmpuint (ws_stack_search_next (none, WS_NONE, TRUE), ==, WS_NONE);

  bad = ws_stack_search_new (trace, "futex(", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, WS_ERROR, WS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "futex("));
}

static void
test_search_next_many (void)
{
  g_autoptr(WsTrace) trace = ws_synthetic_trace_new (2, 4, 30000, 11);
  g_autoptr(WsStackSearch) search = ws_stack_search_new (trace, "fdatasync", NULL, NULL);
  guint n = ws_trace_get_n_events (trace), e = WS_NONE, count = 0;
  WsStackTable *stacks = ws_trace_get_stack_table (trace);
  WsFrameId frame = ws_stack_table_intern_frame (stacks, "fdatasync", "/usr/bin/synthetic");
  guint brute = 0;

  /* Brute force: every event whose stack holds the frame. */
  for (guint i = 0; i < n; i++)
    if (ws_stack_table_stack_contains (stacks, ws_trace_get_event (trace, i)->stack, frame))
      brute++;
  g_assert_cmpuint (brute, >, 100);
  g_assert_cmpuint (ws_stack_search_get_n_matches (search), ==, brute);

  /* Cycling forward visits every match once, in increasing order. */
  for (guint k = 0; k < brute; k++)
    {
      guint next = ws_stack_search_next (search, e, TRUE);
      if (e != WS_NONE)
        g_assert_cmpuint (next, >, e);
      g_assert_true (ws_stack_search_matches_event (search, next));
      e = next;
      count++;
    }
  g_assert_cmpuint (count, ==, brute);
  g_assert_cmpuint (ws_stack_search_next (search, e, TRUE), ==, ws_stack_search_next (search, WS_NONE, TRUE));

  /* Ranks: the k-th match in time order has rank k - 1. */
  e = WS_NONE;
  for (guint k = 0; k < brute; k++)
    {
      e = ws_stack_search_next (search, e, TRUE);
      if (k % 37 == 0 || k == brute - 1)
        g_assert_cmpuint (ws_stack_search_get_rank (search, e), ==, k);
    }
  g_assert_cmpuint (ws_stack_search_get_rank (search, n), ==, brute);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stack-search/hand-trace", test_stack_search);
  g_test_add_func ("/stack-search/next-many", test_search_next_many);
  return g_test_run ();
}
