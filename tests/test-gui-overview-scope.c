/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the Overview explains, in the real window: with two traces open it
 * explains the selected one only (every row's threads are that trace's),
 * and every open trace together only when asked, each sentence naming its
 * trace; selecting a window on a thread explains that window, as `why
 * --tid --from --to` does, with an "Explaining: …" line and a way back;
 * the runner-up switch explains the runner-up.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "ws-attribution.h"
#include "ws-gui-test-util.h"
#include "ws-overview-page.h"
#include "ws-session.h"
#include "ws-window.h"

static WsApplication *the_app;

static WsDocument *
open_in (WsWindow   *window,
         const char *name)
{
  g_autofree char *base = g_strdup_printf ("%s.perf.txt.gz", name);
  g_autofree char *path = g_build_filename (g_getenv ("WS_TEST_DATA"), "causes", base, NULL);
  WsDocument *document = ws_gui_test_open_trace (window, path);
  return document;
}

static gboolean
answered (gpointer data)
{
  WsOverviewPage *page = data;
  return !ws_overview_page_get_busy (page) && ws_overview_page_get_top_cause (page) != NULL;
}

static gboolean
explains_selection (gpointer page)
{
  const char *explaining = ws_overview_page_get_explaining (page);

  return answered (page) && explaining != NULL && strstr (explaining, "selected window") != NULL;
}

static gboolean
explains_automatic (gpointer page)
{
  const char *explaining = ws_overview_page_get_explaining (page);

  return answered (page) && explaining != NULL && strstr (explaining, "selected window") == NULL;
}

static gboolean
picked_as_asked (gpointer page)
{
  const char *reason = ws_overview_page_get_pick_reason (page);

  return answered (page) && reason != NULL && strstr (reason, "the program asked for") != NULL;
}

static WsOverviewPage *
overview_of (WsWindow *window)
{
  GtkWidget *page = ws_gui_test_find_child (GTK_WIDGET (window), WS_TYPE_OVERVIEW_PAGE);

  g_assert_nonnull (page);
  /* A change (a trace loaded, a selection) marks the page busy at once. */
  ws_gui_test_wait_until (answered, page, 240, "the overview's answer");
  return WS_OVERVIEW_PAGE (page);
}

/* Every thread any shown cause was spent on belongs to @trace. */
static void
assert_rows_of (WsOverviewPage *page,
                WsTrace        *trace)
{
  WsAttribution *attr = ws_overview_page_get_attribution (page);

  g_assert_nonnull (attr);
  g_assert_cmpuint (ws_attribution_get_n_causes (attr), >, 0);
  for (guint i = 0; i < ws_attribution_get_n_causes (attr); i++)
    {
      const WsCause *c = ws_attribution_get_cause (attr, i);
      for (guint k = 0; k < c->threads->len; k++)
        g_assert_true (g_array_index (c->threads, WsCauseThread, k).trace == trace);
    }
}

static void
test_two_traces (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  WsDocument *disk, *client;
  WsOverviewPage *page;
  WsSession *session;
  g_autoptr(GdkTexture) shot = NULL;
  gboolean saw_disk = FALSE, saw_client = FALSE;
  WsAttribution *attr;

  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));
  disk = open_in (window, "fsync-dd");
  client = open_in (window, "sh-client");
  page = overview_of (window);
  session = ws_window_get_session (window);

  /* the selected trace (the last opened), only */
  ws_session_set_current_document (session, client);
  page = overview_of (window);
  assert_rows_of (page, ws_document_get_trace (client));
  g_assert_nonnull (strstr (ws_overview_page_get_explaining (page), "the selected trace"));
  g_assert_nonnull (strstr (ws_overview_page_get_top_cause (page), "calc-server"));

  ws_session_set_current_document (session, disk);
  page = overview_of (window);
  assert_rows_of (page, ws_document_get_trace (disk));
  g_assert_nonnull (strstr (ws_overview_page_get_top_cause (page), "fsync"));

  /* every open trace, asked for: both traces' threads, each named */
  ws_overview_page_set_all_traces (page, TRUE);
  page = overview_of (window);
  attr = ws_overview_page_get_attribution (page);
  for (guint i = 0; i < ws_attribution_get_n_causes (attr); i++)
    {
      const WsCause *c = ws_attribution_get_cause (attr, i);
      for (guint k = 0; k < c->threads->len; k++)
        {
          WsTrace *t = g_array_index (c->threads, WsCauseThread, k).trace;
          saw_disk |= t == ws_document_get_trace (disk);
          saw_client |= t == ws_document_get_trace (client);
        }
    }
  g_assert_true (saw_disk && saw_client);
  g_assert_nonnull (strstr (ws_overview_page_get_explaining (page), "every open trace"));
  g_assert_nonnull (strstr (ws_overview_page_get_pick_reason (page), "sh-client"));
  g_assert_nonnull (strstr (ws_overview_page_get_pick_reason (page), "fsync-dd"));
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-all-traces");
  ws_overview_page_set_all_traces (page, FALSE);
  page = overview_of (window);
  assert_rows_of (page, ws_document_get_trace (disk));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_selection (void)
{
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app));
  WsDocument *doc;
  WsOverviewPage *page;
  WsTrace *trace;
  guint thread = WS_NONE;
  WsTime t0, t1;
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (WsAttributionTarget));
  g_autoptr(WsAttribution) core = NULL;
  g_autoptr(GdkTexture) shot = NULL;
  g_autofree char *automatic = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1580, 980);
  gtk_window_present (GTK_WINDOW (window));
  doc = open_in (window, "sh-client");
  page = overview_of (window);
  trace = ws_document_get_trace (doc);
  automatic = g_strdup (ws_overview_page_get_top_cause (page));

  /* the server's thread, over a window in the middle of the trace: it
   * runs compute_reply (the clients are explained automatically) */
  for (guint t = 0; t < ws_trace_get_n_threads (trace); t++)
    if (g_strcmp0 (ws_trace_get_thread (trace, t)->name, "calc-server") == 0)
      thread = t;
  g_assert_cmpuint (thread, !=, WS_NONE);
  t0 = ws_trace_get_start_time (trace) + (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace)) / 4;
  t1 = t0 + (ws_trace_get_end_time (trace) - ws_trace_get_start_time (trace)) / 2;
  ws_timeline_viewport_set_selection (ws_document_get_viewport (doc), thread, t0, t1);
  ws_gui_test_wait_until (explains_selection, page, 240, "the overview to explain the selected window");
  page = overview_of (window);

  /* the same core call as `why --tid --from --to` */
  {
    WsAttributionTarget target = { trace, { thread, t0, t1 }, WS_NONE };
    g_array_append_val (targets, target);
    core = ws_attribution_compute (targets, NULL, NULL);
  }
  g_assert_nonnull (ws_overview_page_get_explaining (page));
  g_test_message ("%s → %s", ws_overview_page_get_explaining (page), ws_overview_page_get_top_cause (page));
  g_assert_nonnull (strstr (ws_overview_page_get_explaining (page), "selected window of calc-server"));
  g_assert_cmpstr (ws_overview_page_get_top_cause (page), ==, ws_attribution_get_cause (core, 0)->label);
  g_assert_cmpint (ws_attribution_get_total (ws_overview_page_get_attribution (page)), ==, t1 - t0);
  shot = ws_gui_test_screenshot (GTK_WIDGET (window), "overview-selection");

  /* and back */
  ws_overview_page_explain_automatic (page);
  ws_gui_test_wait_until (explains_automatic, page, 240, "the overview to explain the automatic pick again");
  page = overview_of (window);
  g_assert_cmpstr (ws_overview_page_get_top_cause (page), ==, automatic);
  g_assert_null (strstr (ws_overview_page_get_explaining (page), "selected window"));

  /* the runner-up, one click away */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (ws_overview_page_get_runner_up_button (page))));
  gtk_widget_activate (GTK_WIDGET (ws_overview_page_get_runner_up_button (page)));
  ws_gui_test_wait_until (picked_as_asked, page, 240, "the overview to explain the runner-up as asked");
  page = overview_of (window);
  g_assert_nonnull (strstr (ws_overview_page_get_pick_reason (page), "the program asked for"));
  g_assert_nonnull (strstr (ws_overview_page_get_explaining (page), "as asked"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  the_app = ws_gui_test_init (&argc, &argv);
  if (g_getenv ("WS_TEST_DATA") == NULL)
    return 77;

  g_test_add_func ("/gui/overview-scope/two-traces", test_two_traces);
  g_test_add_func ("/gui/overview-scope/selection", test_selection);
  return g_test_run ();
}
