/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-test-why.h"
#include "ws-thread-picker.h"
#include "ws-why-targets.h"

const WsCause *
ws_test_why_top_cause (WsTrace        *trace,
                       WsAttribution **attribution,
                       char          **program)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) picks = NULL;
  g_autoptr(GArray) targets = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (traces, trace);
  targets = ws_attribution_targets_waiting_threads_full (traces, NULL, 3, &picks);
  g_assert_cmpuint (picks->len, ==, 1);
  *program = g_strdup (((WsThreadPick *) g_ptr_array_index (picks, 0))->program);
  *attribution = ws_attribution_compute (targets, NULL, &error);
  g_assert_no_error (error);
  return ws_attribution_get_cause (*attribution, 0);
}

/* Returns: (transfer full): the program picked (the same in both) */
char *
ws_test_why_assert_same_cause (const char     *name,
                               const char     *what_a,
                               WsTrace        *a,
                               WsTrace        *b,
                               WsTestWhyMatch  match)
{
  g_autoptr(WsAttribution) attribution_a = NULL, attribution_b = NULL;
  g_autofree char *program_b = NULL;
  char *program_a = NULL;
  const WsCause *ca = ws_test_why_top_cause (a, &attribution_a, &program_a);
  const WsCause *cb = ws_test_why_top_cause (b, &attribution_b, &program_b);

  g_test_message ("%s: %s %s: %s %.1f %%; perf %s: %s %.1f %%", name, what_a, program_a, ca->label,
                  100 * ca->share, program_b, cb->label, 100 * cb->share);
  g_assert_cmpstr (program_a, ==, program_b);
  g_assert_cmpint (ca->kind, ==, cb->kind);
  g_assert_cmpint (ca->state, ==, cb->state);
  if (match == WS_TEST_WHY_SAME_SIGNATURE)
    {
      g_assert_cmpstr (ca->label, ==, cb->label);
      g_assert_cmpfloat (ca->share, ==, cb->share);
    }
  else
    {
      g_assert_cmpstr (ca->kernel_function, ==, cb->kernel_function);
      g_assert_cmpfloat (ABS (ca->share - cb->share), <, 0.05);
    }
  g_assert_cmpfloat (ca->share, >, 0.5);
  return program_a;
}
