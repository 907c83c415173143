/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Anomaly detection in the real window under a display (Xvfb in the
 * suite): py-locks opens and its waits are scored and coloured in the
 * timeline; the most anomalous wait, selected, is flagged not anomalous
 * with the window's action (Ctrl+Alt+N) — it stops being anomalous, the
 * ready tree rooted at it counts one anomalous wait fewer on its chain,
 * the timeline's red changes; undo restores it; flagged again, the flag is
 * still there after the window is closed and the trace opened again.
 * Screenshots: anomaly-before.png, anomaly-after.png.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "ws-anomaly-state.h"
#include "ws-gui-test-util.h"
#include "ws-ready-tree-run.h"
#include "ws-session.h"
#include "ws-timeline-view.h"
#include "ws-window.h"

static WsApplication *the_app;

typedef struct {
  WsAnomalyState *state;
  WsDocument     *doc;
} Scored;

static gboolean
scored (gpointer data)
{
  Scored *s = data;
  return !ws_anomaly_state_get_busy (s->state) && ws_anomaly_state_get_result (s->state) != NULL
         && ws_anomaly_state_find_trace (s->state, s->doc) != WS_NONE;
}

static WsDocument *
open_and_score (WsWindow *window)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "py-locks.perf.txt.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  WsDocument *doc = ws_window_open_file (window, file);
  Scored s = { ws_session_get_anomaly_state (ws_window_get_session (window)), doc };

  while (ws_document_get_state (doc) == WS_DOCUMENT_LOADING)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (ws_document_get_state (doc), ==, WS_DOCUMENT_READY);
  ws_gui_test_wait_until (scored, &s, 120, "the waits to be scored");
  return doc;
}

static void
wait_rescored (WsWindow *window,
               WsDocument *doc)
{
  Scored s = { ws_session_get_anomaly_state (ws_window_get_session (window)), doc };

  ws_gui_test_spin (50);
  ws_gui_test_wait_until (scored, &s, 120, "the waits to be scored again");
}

static guint
chain_anomalous (WsWindow *window,
                 WsDocument *doc,
                 guint       event)
{
  WsAnomalyState *state = ws_session_get_anomaly_state (ws_window_get_session (window));
  WsTrace *trace = ws_document_get_trace (doc);
  const WsEvent *e = ws_trace_get_event (trace, event);
  g_autoptr(WsReadyTree) tree = NULL;
  WsReadyTreeSettings settings;
  WsSymptom symptom = { e->thread, e->time, e->time + e->duration };
  WsChainMetrics m;
  guint chain;

  ws_ready_tree_settings_init (&settings, &symptom);
  settings.root_event = event;
  tree = ws_ready_tree_run (trace, &settings, NULL, NULL, NULL, NULL);
  g_assert_nonnull (tree);
  ws_anomaly_result_mark_ready_tree (ws_anomaly_state_get_result (state),
                                     ws_anomaly_state_find_trace (state, doc), tree);
  chain = ws_ready_tree_anomalous_chain (tree, WS_CHAIN_METRIC_ANOMALOUS);
  ws_ready_tree_get_chain_metrics (tree, chain, &m);
  return m.n_anomalous;
}

static guint
most_anomalous (WsAnomalyState *state,
                WsDocument     *doc)
{
  guint t = ws_anomaly_state_find_trace (state, doc), n, best = WS_NONE;
  const WsWaitScore *s = ws_anomaly_result_get_scores (ws_anomaly_state_get_result (state), t, &n);

  for (guint i = 0; i < n; i++)
    if (s[i].anomalous && (best == WS_NONE || s[i].score < s[best].score))
      best = i;
  g_assert_cmpuint (best, !=, WS_NONE);
  return s[best].event;
}

static void
show (WsDocument *doc,
      guint       event)
{
  const WsEvent *e = ws_trace_get_event (ws_document_get_trace (doc), event);
  WsTimelineViewport *viewport = ws_document_get_viewport (doc);

  ws_timeline_viewport_set_visible (viewport, e->time - e->duration, e->time + 2 * e->duration);
  ws_timeline_viewport_set_selected_event (viewport, event);
}

static void
test_flag_in_window (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  WsAnomalyState *state;
  WsDocument *doc;
  guint event, before_chain, after_chain, red_before, red_after;
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;

  gtk_window_present (GTK_WINDOW (window));
  doc = open_and_score (window);
  state = ws_session_get_anomaly_state (ws_window_get_session (window));
  event = most_anomalous (state, doc);
  show (doc, event);
  before_chain = chain_anomalous (window, doc, event);
  before = ws_gui_test_screenshot (GTK_WIDGET (window), "anomaly-before");
  red_before = ws_gui_test_count_colour (GTK_WIDGET (window), before, ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_VIEW), 0xe01b24, 10);
  g_test_message ("before: %u anomalous waits on the chain, %u red pixels", before_chain, red_before);
  g_assert_cmpuint (red_before, >, 0);
  g_assert_cmpuint (before_chain, >=, 1);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.flag-normal", NULL));
  wait_rescored (window, doc);
  g_assert_cmpint (ws_anomaly_state_lookup (state, doc, event)->flag, ==, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_state_lookup (state, doc, event)->anomalous);
  after_chain = chain_anomalous (window, doc, event);
  after = ws_gui_test_screenshot (GTK_WIDGET (window), "anomaly-after");
  red_after = ws_gui_test_count_colour (GTK_WIDGET (window), after, ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_TIMELINE_VIEW), 0xe01b24, 10);
  g_test_message ("after: %u anomalous waits on the chain, %u red pixels", after_chain, red_after);
  g_assert_cmpuint (after_chain, <, before_chain);
  g_assert_cmpuint (red_after, !=, red_before);

  /* Undo, then flag again so the reopened window has something to find. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-flag", NULL));
  wait_rescored (window, doc);
  g_assert_cmpint (ws_anomaly_state_lookup (state, doc, event)->flag, ==, WS_ANOMALY_FLAG_NONE);
  g_assert_true (ws_anomaly_state_lookup (state, doc, event)->anomalous);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.flag-normal", NULL));
  wait_rescored (window, doc);
  gtk_window_destroy (GTK_WINDOW (window));
  ws_gui_test_spin (100);

  /* Reopened in a new window: the flag is there. */
  window = ws_window_new (GTK_APPLICATION (the_app));
  gtk_window_present (GTK_WINDOW (window));
  doc = open_and_score (window);
  state = ws_session_get_anomaly_state (ws_window_get_session (window));
  g_assert_cmpint (ws_anomaly_state_lookup (state, doc, event)->flag, ==, WS_ANOMALY_FLAG_NORMAL);
  g_assert_false (ws_anomaly_state_lookup (state, doc, event)->anomalous);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-flags", NULL));
  ws_gui_test_spin (300);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-gui-anomaly-XXXXXX", &error);
  g_autofree char *history = g_build_filename (dir, "history.sqlite", NULL);
  int status;

  g_setenv ("WAITSCOPE_HISTORY", history, TRUE);
  the_app = ws_gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/anomaly/flag", test_flag_in_window);
  status = g_test_run ();
  g_object_unref (the_app);
  return status;
}
